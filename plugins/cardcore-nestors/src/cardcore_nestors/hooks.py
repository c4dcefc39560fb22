"""Plugin hooks: register Nestors and its heuristic bot with cardcore."""

from __future__ import annotations

from collections.abc import Iterator

from cardcore import BotSpec, GameSpec, SearchHints, hookimpl
from cardcore.adapters import CodecSpec
from cardcore_nestors.bots import NestorsHeuristic, hand_number, match_value
from cardcore_nestors.options import PRESETS, NestorsOptions
from cardcore_nestors.rules import Nestors


@hookimpl
def cardcore_register_games() -> Iterator[GameSpec]:
    """Register ``nestors``."""
    yield GameSpec(
        name="nestors",
        title="Nestors",
        factory=Nestors,
        options_type=NestorsOptions,
        presets=PRESETS,
        min_players=4,
        max_players=4,
        description="4 players in partnerships bid for a trump rank and play 3-card tricks",
        rules_version="1",
    )


@hookimpl
def cardcore_register_bots() -> Iterator[BotSpec]:
    """Register ``nestors-heuristic``."""
    yield BotSpec(
        name="nestors-heuristic",
        factory=NestorsHeuristic,
        games=("nestors",),
        description="a sensible beginner: bids on trump-rank cards, wins tricks cheaply",
    )


@hookimpl
def cardcore_register_codecs() -> Iterator[CodecSpec]:
    """Register the RL codec of ``nestors`` (read by ``cardcore.adapters``)."""
    from cardcore_nestors.encoding import nestors_codec

    yield CodecSpec(
        game="nestors",
        factory=nestors_codec,
        description="the card table, the trick in order, scores, auction and trick facts",
    )


@hookimpl
def cardcore_register_search_hints() -> Iterator[SearchHints]:
    """Tell ``ismcts`` and ``pimc`` how to play Nestors.

    Play-outs by the heuristic, which also plays the other seats inside the tree; they
    stop at the end of the hand and are scored from the match scores.
    """
    yield SearchHints(
        game="nestors",
        rollout="nestors-heuristic",
        opponent_model=True,
        value=match_value,
        segment=hand_number,
        iterations=100,
        determinizations=10,
    )
