"""Box: a four-player shedding game with face-down boxes, as a cardcore plugin."""

from cardcore_box.bots import BoxHeuristic
from cardcore_box.game import (
    PRESETS,
    Box,
    BoxAction,
    BoxObservation,
    BoxOptions,
    BoxState,
    Ending,
    Play,
    RoundResult,
    TurnUp,
)

__all__ = [
    "PRESETS",
    "Box",
    "BoxAction",
    "BoxHeuristic",
    "BoxObservation",
    "BoxOptions",
    "BoxState",
    "Ending",
    "Play",
    "RoundResult",
    "TurnUp",
]
