"""Plugin hooks: register Box and its heuristic bot with cardcore."""

from __future__ import annotations

from collections.abc import Iterator

from cardcore import BotSpec, GameSpec, SearchHints, hookimpl
from cardcore.adapters import CodecSpec
from cardcore_box.bots import BoxHeuristic, survival_value
from cardcore_box.options import PRESETS, BoxOptions
from cardcore_box.rules import Box


@hookimpl
def cardcore_register_games() -> Iterator[GameSpec]:
    """Register ``box``."""
    yield GameSpec(
        name="box",
        title="Box",
        factory=Box,
        options_type=BoxOptions,
        presets=PRESETS,
        min_players=4,
        max_players=4,
        description="four players shed descending cards; the last player with a box wins",
        rules_version="1",
    )


@hookimpl
def cardcore_register_bots() -> Iterator[BotSpec]:
    """Register ``box-heuristic``."""
    yield BotSpec(
        name="box-heuristic",
        factory=BoxHeuristic,
        games=("box",),
        description="a sensible beginner at Box: keeps low cards, squeezes a weak next player",
    )


@hookimpl
def cardcore_register_codecs() -> Iterator[CodecSpec]:
    """Register the RL codec of ``box`` (read by ``cardcore.adapters``)."""
    from cardcore_box.encoding import box_codec

    yield CodecSpec(
        game="box",
        factory=box_codec,
        description="the card table, the latest plays in order, the round, the last round",
    )


@hookimpl
def cardcore_register_search_hints() -> Iterator[SearchHints]:
    """Tell ``ismcts`` and ``pimc`` how to play Box.

    Returns:
        A score-aware value: the win share, plus a little for staying in longer.
    """
    yield SearchHints(game="box", value=survival_value)
