"""Nyuri ("Steal"): lay a card, and the others try to steal it with higher cards.

A cardcore game plugin: ``cardcore.load_game("nyuri", preset="pagat")``. Its modules
follow the plugin anatomy, each importing only those listed after it: ``hooks``
(registration), ``bots`` and ``encoding`` (the heuristic bot, the RL codec), ``rules``
(the :class:`Nyuri` game), ``render`` (an observation as text), ``state`` (state, zones,
observation), ``actions`` (actions and their text) and ``options`` (variants, presets).
"""

from cardcore_nyuri.actions import (
    Decline,
    Lay,
    NyuriAction,
    Steal,
    Swap,
    TakeBack,
    card_value,
    parse_nyuri_action,
)
from cardcore_nyuri.bots import NyuriHeuristic
from cardcore_nyuri.options import HAND_SIZE, PRESETS, NyuriOptions
from cardcore_nyuri.render import render_observation
from cardcore_nyuri.rules import Nyuri
from cardcore_nyuri.state import (
    NyuriObservation,
    NyuriState,
    NyuriZones,
    Phase,
    TurnRecord,
    nyuri_layout,
)

__all__ = [
    "HAND_SIZE",
    "PRESETS",
    "Decline",
    "Lay",
    "Nyuri",
    "NyuriAction",
    "NyuriHeuristic",
    "NyuriObservation",
    "NyuriOptions",
    "NyuriState",
    "NyuriZones",
    "Phase",
    "Steal",
    "Swap",
    "TakeBack",
    "TurnRecord",
    "card_value",
    "nyuri_layout",
    "parse_nyuri_action",
    "render_observation",
]
