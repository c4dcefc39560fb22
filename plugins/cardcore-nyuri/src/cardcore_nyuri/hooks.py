"""Plugin hooks: register Nyuri and its heuristic bot with cardcore."""

from __future__ import annotations

from collections.abc import Iterator

from cardcore import BotSpec, GameSpec, SearchHints, hookimpl
from cardcore.adapters import CodecSpec
from cardcore_nyuri.bots import NyuriHeuristic, count_value
from cardcore_nyuri.options import PRESETS, NyuriOptions
from cardcore_nyuri.rules import Nyuri


@hookimpl
def cardcore_register_games() -> Iterator[GameSpec]:
    """Register ``nyuri``.

    Returns:
        The Nyuri game spec (2-4 players, presets ``default`` and ``pagat``).
    """
    yield GameSpec(
        name="nyuri",
        title="Nyuri",
        factory=Nyuri,
        options_type=NyuriOptions,
        presets=PRESETS,
        min_players=2,
        max_players=4,
        description="lay a card; the others steal it with higher cards; most cards won wins",
        rules_version="1",
    )


@hookimpl
def cardcore_register_bots() -> Iterator[BotSpec]:
    """Register ``nyuri-heuristic``.

    Returns:
        The heuristic bot's spec.
    """
    yield BotSpec(
        name="nyuri-heuristic",
        factory=NyuriHeuristic,
        games=("nyuri",),
        description="a sensible beginner: lays hard-to-steal cards, steals cheaply and safely",
    )


@hookimpl
def cardcore_register_codecs() -> Iterator[CodecSpec]:
    """Register the RL codec of ``nyuri`` (read by ``cardcore.adapters``).

    Returns:
        The Nyuri codec's spec (about 24,000 actions: steals of one to three cards).
    """
    from cardcore_nyuri.encoding import nyuri_codec

    yield CodecSpec(
        game="nyuri",
        factory=nyuri_codec,
        description="the card table, the stock's bottom, counts, target value, last turn",
    )


@hookimpl
def cardcore_register_search_hints() -> Iterator[SearchHints]:
    """Tell ``ismcts`` and ``pimc`` how to play Nyuri.

    Returns:
        Heuristic play-outs and a score-aware value: the win share, plus a little for
        the card margin.
    """
    yield SearchHints(game="nyuri", rollout="nyuri-heuristic", value=count_value)
