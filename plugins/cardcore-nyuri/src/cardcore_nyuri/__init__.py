"""Nyuri ("Steal"): lay a card, and the others try to steal it with higher cards.

A cardcore game plugin: ``cardcore.load_game("nyuri", preset="pagat")``.
"""

from cardcore_nyuri.bots import NyuriHeuristic
from cardcore_nyuri.game import (
    HAND_SIZE,
    PRESETS,
    Decline,
    Lay,
    Nyuri,
    NyuriAction,
    NyuriObservation,
    NyuriOptions,
    NyuriState,
    NyuriZones,
    Phase,
    Steal,
    Swap,
    TakeBack,
    TurnRecord,
    card_value,
    nyuri_layout,
    parse_nyuri_action,
)
from cardcore_nyuri.render import render_observation

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
