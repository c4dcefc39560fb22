"""Plugin hooks: register the game, and its RL codec, with cardcore."""

from __future__ import annotations

from collections.abc import Iterator

from cardcore import CodecSpec, GameSpec, hookimpl
from cardcore_highcard.options import PRESETS, HighcardOptions
from cardcore_highcard.rules import Highcard


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


@hookimpl
def cardcore_register_codecs() -> Iterator[CodecSpec]:
    """Register the RL codec of ``highcard`` (read by ``cardcore.adapters``)."""
    from cardcore_highcard.encoding import highcard_codec

    yield CodecSpec(
        game="highcard",
        factory=highcard_codec,
        description="the card table, the trick in order, rounds won and the round's leader",
    )
