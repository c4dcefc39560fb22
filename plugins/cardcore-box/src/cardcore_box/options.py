"""Box's options and presets (BX-7), and the fixed sizes of the game (BX-1, BX-2)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final, final

import attrs

from cardcore import option

__all__ = ["BOX_SIZE", "HAND_SIZE", "NUM_PLAYERS", "PRESETS", "BoxOptions"]

NUM_PLAYERS: Final = 4
"""Box is for exactly four players (BX-1.1)."""
HAND_SIZE: Final = 4
"""Cards in a full hand (BX-3.2, BX-5.2a)."""
BOX_SIZE: Final = 4
"""Cards in a full box (BX-2.2, BX-3.2)."""


@final
@attrs.frozen(kw_only=True)
class BoxOptions:
    """The rule variants of Box (BX-7)."""

    box_refill: str = option(
        "fill_to_four",
        choices=("fill_to_four", "replace_played"),
        doc="box cards drawn after a round with a successful box play: fill the box to "
        "four (minus a card lost that round), or one per box card played (BX-5.2b)",
    )
    """``fill_to_four`` (seed) or ``replace_played`` (pagat)."""


PRESETS: Final[Mapping[str, BoxOptions]] = {
    "default": BoxOptions(),
    "pagat": BoxOptions(box_refill="replace_played"),
}
"""The named presets: ``default`` follows the seed, ``pagat`` the published source."""
