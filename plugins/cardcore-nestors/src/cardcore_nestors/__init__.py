"""Nestors for cardcore: four players in two partnerships, a 36-card deck, 3-card tricks.

A cardcore game plugin: ``cardcore.load_game("nestors", preset="pagat")``. Its modules
follow the plugin anatomy, each importing only those listed after it: ``hooks``
(registration), ``bots`` and ``encoding`` (the heuristic bot and the search hints, the
RL codec), ``rules`` (the :class:`Nestors` game and the spec's invariants), ``auction``
and ``tricks`` (the moves), ``deal`` (the deals, and scoring the end of a hand),
``cards`` (card masks and points), ``render`` (an observation as text), ``state``
(state, zones, observation), ``actions`` (actions and their text) and ``options``
(variants, presets).
"""

from cardcore_nestors.actions import (
    Bid,
    Leave,
    NestorsAction,
    Pass,
    Play,
    Take,
    Trump,
    parse_action,
)
from cardcore_nestors.bots import NestorsHeuristic
from cardcore_nestors.cards import card_points
from cardcore_nestors.options import MAX_BID, PRESETS, TEAMS, NestorsOptions
from cardcore_nestors.rules import Nestors, check_invariants
from cardcore_nestors.state import (
    LAYOUT,
    DealInfo,
    HandResult,
    MatchInfo,
    NestorsObservation,
    NestorsState,
    Phase,
    PlayInfo,
    TrickRecord,
)
from cardcore_nestors.tricks import trick_winner, two_card_winner

__all__ = [
    "LAYOUT",
    "MAX_BID",
    "PRESETS",
    "TEAMS",
    "Bid",
    "DealInfo",
    "HandResult",
    "Leave",
    "MatchInfo",
    "Nestors",
    "NestorsAction",
    "NestorsHeuristic",
    "NestorsObservation",
    "NestorsOptions",
    "NestorsState",
    "Pass",
    "Phase",
    "Play",
    "PlayInfo",
    "Take",
    "TrickRecord",
    "Trump",
    "card_points",
    "check_invariants",
    "parse_action",
    "trick_winner",
    "two_card_winner",
]
