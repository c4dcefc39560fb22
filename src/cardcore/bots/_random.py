"""The ``random`` bot: a uniformly random legal action."""

from __future__ import annotations

import random
from typing import Any, final


@final
class RandomBot:
    """Plays a uniformly random legal action; deterministic for a given seed."""

    name = "random"

    def __init__(self, game: object = None, *, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def act(self, observation: Any) -> Any:
        """Pick one of ``observation.legal_actions`` at random."""
        legal = observation.legal_actions
        return legal[self._rng.randrange(len(legal))]
