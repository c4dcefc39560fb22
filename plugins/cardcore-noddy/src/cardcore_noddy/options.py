"""Noddy's options (spec section 7) and the spec's presets."""

from __future__ import annotations

from collections.abc import Mapping
from typing import final

import attrs

from cardcore import option

__all__ = ["PRESETS", "NoddyOptions"]


@final
@attrs.frozen(kw_only=True)
class NoddyOptions:
    """The rule variants of Noddy (spec section 7)."""

    target: int = option(31, minimum=1, doc="score that wins at once (ND-5.2)")
    """Score that wins at once (ND-5.2)."""
    turnup_jack: str = option(
        "dealer1_nondealer2",
        choices=("dealer1_nondealer2", "dealer2"),
        doc="award for a turned-up jack (ND-4.1)",
    )
    """Award for a turned-up jack (ND-4.1)."""
    knave_noddy: str = option(
        "show_early",
        choices=("show_early", "in_count"),
        doc="how the trump jack in hand scores 1 (ND-4.2, ND-6.1)",
    )
    """How the trump jack in hand scores 1 (ND-4.2, ND-6.1)."""
    ace_bonus: bool = option(True, doc="ace in hand 1; turned-up ace 2 to the dealer (ND-6.1)")
    """Ace in hand 1; turned-up ace 2 to the dealer (ND-6.1)."""
    run_values: str = option("seed", choices=("seed", "per_card"), doc="sequence values (ND-6.2)")
    """Sequence values (ND-6.2): ``seed`` 2/4/5/6, ``per_card`` 3/4/5/6."""
    twentyfive: bool = option(True, doc="25 scores 2 in the show and in the play")
    """Whether 25 scores 2 in the show and in the play."""
    last_card_at_31: bool = option(
        False, doc="whether reaching 31 also earns the last-card point (ND-4.4)"
    )
    """Whether reaching 31 also earns the last-card point (ND-4.4)."""


PRESETS: Mapping[str, NoddyOptions] = {
    "default": NoddyOptions(),
    "historical": NoddyOptions(
        turnup_jack="dealer2",
        knave_noddy="in_count",
        ace_bonus=False,
        run_values="per_card",
    ),
}
"""The spec's presets: ``default`` (the seed) and ``historical`` (the sources)."""
