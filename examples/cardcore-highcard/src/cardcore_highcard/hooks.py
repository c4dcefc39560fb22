"""Plugin hooks: register the game with cardcore."""

from __future__ import annotations

from collections.abc import Iterator

from cardcore import GameSpec, hookimpl
from cardcore_highcard.game import PRESETS, Highcard, HighcardOptions


@hookimpl
def cardcore_register_games() -> Iterator[GameSpec]:
    """Register ``highcard``."""
    yield GameSpec(
        name="highcard",
        title="High card",
        factory=Highcard,
        options_type=HighcardOptions,
        presets=PRESETS,
        min_players=2,
        max_players=4,
        description="each round, the highest card wins; a minimal example plugin",
    )
