"""Nyuri's rule variants (spec section 7) and its named presets."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final, final

import attrs

from cardcore import option

__all__ = ["HAND_SIZE", "PRESETS", "NyuriOptions"]

HAND_SIZE: Final = 7
"""Cards dealt to each player (NY-3.2)."""


@final
@attrs.frozen(kw_only=True)
class NyuriOptions:
    """The rule variants of Nyuri (spec section 7)."""

    capture: str = option(
        "pile",
        choices=("pile", "hand"),
        doc="where stolen cards go and what is counted: a capture pile or the thief's hand",
    )
    """``pile``: target and offer go to the thief's capture pile, piles are counted;
    ``hand``: they go to the thief's hand, hands are counted (NY-4.5, NY-6.1)."""
    end: str = option(
        "first_empty_hand",
        choices=("first_empty_hand", "stock_exhausted"),
        doc="main end: after a turn that leaves a hand empty, or that leaves the stock empty",
    )
    """The main end condition (NY-5.1, NY-5.2)."""
    three_card_penalty: bool = option(
        False, doc="the layer takes a random card from a thief who stole with three cards"
    )
    """Whether a three-card steal costs the thief a random hand card (NY-4.5)."""
    guarded_single: str = option(
        "same_suit",
        choices=("same_suit", "any_suit"),
        doc="whether a single card stealing a guarded target must be of its suit",
    )
    """Suit rule for a single card against a guarded target (NY-4.4a)."""
    turn_limit: int = option(200, minimum=1, doc="the game ends after this many turns")
    """Safety limit on turns played (NY-5.3c)."""


PRESETS: Mapping[str, NyuriOptions] = {
    "default": NyuriOptions(),
    "pagat": NyuriOptions(capture="hand", end="stock_exhausted", three_card_penalty=True),
}
"""The named presets: ``default`` follows the seed text, ``pagat`` the published source."""
