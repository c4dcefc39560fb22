"""Nestors' options and presets (spec section 7), and the fixed facts they bound."""

from __future__ import annotations

from collections.abc import Mapping
from math import ceil
from typing import Final, final

import attrs

from cardcore import option

__all__ = ["MAX_BID", "PRESETS", "TEAMS", "NestorsOptions", "max_deals"]

MAX_BID: Final = 190
"""The highest bid, and the points of a whole hand (NS-2.7)."""

TEAMS: Final = ((0, 2), (1, 3))
"""The partnerships (NS-2.1); seat ``s`` is in team ``s % 2``."""


@final
@attrs.frozen(kw_only=True)
class NestorsOptions:
    """The rule variants of Nestors (spec section 7)."""

    next_dealer: str = option(
        "rotate",
        choices=("rotate", "bidder"),
        doc="who deals the next hand: the previous dealer's right, or the previous bidder",
    )
    """NS-3.2: ``rotate`` (the previous dealer's right deals) or ``bidder``."""
    min_bid: int = option(
        100, minimum=5, maximum=MAX_BID, step=5, doc="lowest legal bid, a multiple of 5 (5 to 190)"
    )
    """NS-4.2: the lowest legal bid, a multiple of 5 from 5 to 190."""
    fail_penalty: str = option(
        "taken",
        choices=("taken", "bid"),
        doc="declarers' loss on a failed contract: the points they took, or their bid",
    )
    """NS-6.3: what failed declarers lose, ``taken`` (their points) or ``bid``."""
    minus_1000: str = option(
        "loses",
        choices=("loses", "wins"),
        doc="whether a partnership reaching -threshold loses or wins",
    )
    """NS-5.2: the meaning of reaching ``-threshold``."""
    threshold: int = option(1000, minimum=1, doc="score that ends the game (+T or -T)")
    """NS-5.2: T, the score (plus or minus) that ends the game."""


PRESETS: Mapping[str, NestorsOptions] = {
    "default": NestorsOptions(),
    "pagat": NestorsOptions(next_dealer="bidder"),
}
"""The presets of spec section 7."""


def max_deals(options: NestorsOptions) -> int:
    """The safety limit on deals per game, void deals included: ``200 + 20 * ceil(T / 95)``.

    The spec sets no limit on the number of hands (two failed contracts can leave both
    scores where they were); random play stays far below this one.
    """
    return 200 + 20 * ceil(options.threshold / 95)
