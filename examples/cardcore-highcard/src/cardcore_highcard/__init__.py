"""High card: the smallest complete cardcore game plugin, kept as a worked example."""

from cardcore_highcard.game import (
    Highcard,
    HighcardObservation,
    HighcardOptions,
    HighcardState,
    Play,
)

__all__ = ["Highcard", "HighcardObservation", "HighcardOptions", "HighcardState", "Play"]
