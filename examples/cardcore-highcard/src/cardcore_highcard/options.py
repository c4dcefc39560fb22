"""High card's options and presets."""

from __future__ import annotations

from collections.abc import Mapping
from typing import final

import attrs

from cardcore import option

__all__ = ["PRESETS", "HighcardOptions"]


@final
@attrs.frozen(kw_only=True)
class HighcardOptions:
    """The rule variants of highcard."""

    hand_size: int = option(3, minimum=1, maximum=13, doc="cards dealt to each player")
    ace: str = option("high", choices=("high", "low"), doc="whether the ace ranks high or low")


PRESETS: Mapping[str, HighcardOptions] = {
    "default": HighcardOptions(),
    "quick": HighcardOptions(hand_size=1),
}
