"""Noddy: a 17th-century race to 31 for two players, as a cardcore game plugin."""

from cardcore_noddy.actions import NoddyAction, Pass, Play, ShowKnave
from cardcore_noddy.bots import NoddyHeuristic
from cardcore_noddy.options import PRESETS, NoddyOptions
from cardcore_noddy.rules import Noddy
from cardcore_noddy.scoring import Breakdown, ScoringRules, count_show, score_play
from cardcore_noddy.state import (
    Cut,
    Deal,
    Event,
    Go,
    KnavePassed,
    KnaveShown,
    LastCard,
    NoddyObservation,
    NoddyState,
    Phase,
    Played,
    Shown,
    TurnupJack,
    Won,
)

__all__ = [
    "PRESETS",
    "Breakdown",
    "Cut",
    "Deal",
    "Event",
    "Go",
    "KnavePassed",
    "KnaveShown",
    "LastCard",
    "Noddy",
    "NoddyAction",
    "NoddyHeuristic",
    "NoddyObservation",
    "NoddyOptions",
    "NoddyState",
    "Pass",
    "Phase",
    "Play",
    "Played",
    "ScoringRules",
    "ShowKnave",
    "Shown",
    "TurnupJack",
    "Won",
    "count_show",
    "score_play",
]
