"""High card: the smallest complete cardcore game plugin, kept as a worked example."""

from cardcore_highcard.actions import Play
from cardcore_highcard.options import PRESETS, HighcardOptions
from cardcore_highcard.rules import Highcard
from cardcore_highcard.state import HighcardObservation, HighcardState

__all__ = ["PRESETS", "Highcard", "HighcardObservation", "HighcardOptions", "HighcardState", "Play"]
