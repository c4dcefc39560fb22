"""Plugin hooks: register Noddy and its heuristic bot with cardcore."""

from __future__ import annotations

from collections.abc import Iterator

from cardcore import BotSpec, GameSpec, SearchHints, hookimpl
from cardcore.adapters import CodecSpec
from cardcore_noddy.bots import NoddyHeuristic, hand_number, race_value
from cardcore_noddy.options import PRESETS, NoddyOptions
from cardcore_noddy.rules import Noddy


@hookimpl
def cardcore_register_games() -> Iterator[GameSpec]:
    """Register ``noddy``.

    Returns:
        The Noddy game spec.
    """
    yield GameSpec(
        name="noddy",
        title="Noddy",
        factory=Noddy,
        options_type=NoddyOptions,
        presets=PRESETS,
        min_players=2,
        max_players=2,
        description="a 17th-century race to 31 for two: shows, fifteens and the knave noddy",
        rules_version="1",
    )


@hookimpl
def cardcore_register_bots() -> Iterator[BotSpec]:
    """Register ``noddy-heuristic``.

    Returns:
        The heuristic bot's spec.
    """
    yield BotSpec(
        name="noddy-heuristic",
        factory=NoddyHeuristic,
        games=("noddy",),
        description="a sensible beginner: shows the knave, takes points, avoids giving 15 or 31",
    )


@hookimpl
def cardcore_register_codecs() -> Iterator[CodecSpec]:
    """Register the RL codec of ``noddy`` (read by ``cardcore.adapters``).

    Returns:
        The Noddy codec's spec.
    """
    from cardcore_noddy.encoding import noddy_codec

    yield CodecSpec(
        game="noddy",
        factory=noddy_codec,
        description="the card table, the pile in order, scores, total and this hand's shows",
    )


@hookimpl
def cardcore_register_search_hints() -> Iterator[SearchHints]:
    """Tell ``ismcts`` and ``pimc`` how to play Noddy.

    Returns:
        Heuristic play-outs that stop at the end of the hand, scored from the race's
        scores.
    """
    yield SearchHints(
        game="noddy", rollout="noddy-heuristic", value=race_value, segment=hand_number
    )
