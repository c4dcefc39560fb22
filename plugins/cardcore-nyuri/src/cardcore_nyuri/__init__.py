"""Nyuri ("Steal"): lay a card, and the others try to steal it with higher cards.

A cardcore game plugin: ``cardcore.load_game("nyuri", preset="pagat")``. Its modules
follow the plugin anatomy, each importing only those listed after it: ``hooks``
(registration), ``bots``, ``encoding`` and ``render`` (the heuristic bot, the RL codec,
an observation as text), ``rules`` (the :class:`Nyuri` game), ``steals`` and ``deal``
(its rule modules), ``state`` (state, zones, observation), ``actions`` (actions and
their text) and ``options`` (variants, presets).

``render_observation`` is imported on first use: loading the plugin does not load the
renderer.
"""

from typing import TYPE_CHECKING

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
from cardcore_nyuri.rules import Nyuri
from cardcore_nyuri.state import (
    NyuriObservation,
    NyuriState,
    NyuriZones,
    Phase,
    TurnRecord,
    nyuri_layout,
)

if TYPE_CHECKING:
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


def __getattr__(name: str) -> object:
    """``render_observation``, imported from ``render`` on first use."""
    if name == "render_observation":
        from cardcore_nyuri.render import render_observation

        return render_observation
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
