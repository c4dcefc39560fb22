"""Box: a four-player shedding game with face-down boxes, as a cardcore plugin.

A cardcore game plugin: ``cardcore.load_game("box", preset="pagat")``. Its modules
follow the plugin anatomy, each importing only those listed after it: ``hooks``
(registration), ``bots`` and ``encoding`` (the heuristic bot, the RL codec), ``rules``
(the :class:`Box` game), ``deal`` (the shuffle and the deal), ``render`` (an
observation as text), ``state`` (state, zones, observation), ``actions`` (actions and
their text) and ``options`` (variants, presets).
"""

from cardcore_box.actions import BoxAction, Play, TurnUp, parse_box_action
from cardcore_box.bots import BoxHeuristic
from cardcore_box.options import PRESETS, BoxOptions
from cardcore_box.rules import Box
from cardcore_box.state import BoxObservation, BoxState, Ending, RoundResult, layout

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
    "layout",
    "parse_box_action",
]
