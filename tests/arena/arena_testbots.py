"""Deliberately good and bad bots for the arena tests, named by import path.

Worker processes import this module as ``tests.arena.arena_testbots`` (the repository
root must be on ``sys.path``), so the bots reach them without a plugin.
"""

from __future__ import annotations

import os
import random
import sys
import time
from pathlib import Path
from typing import Any

MODULE = "tests.arena.arena_testbots"


class _Base:
    def __init__(self, game: object = None, *, seed: int = 0) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def pick(self, observation: Any) -> Any:
        legal = observation.legal_actions
        return legal[self.rng.randrange(len(legal))]


class CrashBot(_Base):
    """Raises on its first decision."""

    def act(self, observation: Any) -> Any:
        raise RuntimeError("crash bot crashed")


class IllegalBot(_Base):
    """Returns something that is not one of its legal actions."""

    def act(self, observation: Any) -> Any:
        return ("not", "an", "action")


class StartCrashBot(_Base):
    """Fails in ``start_match``, before its first decision."""

    def start_match(self, game: object, seat: int, num_players: int) -> None:
        raise KeyError("no opening book")

    def act(self, observation: Any) -> Any:
        return self.pick(observation)


class ExitCallBot(_Base):
    """Calls ``sys.exit`` on its first decision."""

    def act(self, observation: Any) -> Any:
        sys.exit(5)


class HangBot(_Base):
    """Never returns (for a minute, which is longer than any test waits)."""

    def act(self, observation: Any) -> Any:
        time.sleep(60)
        return self.pick(observation)


class ExitBot(_Base):
    """Ends its whole process on its first decision."""

    def act(self, observation: Any) -> Any:
        os._exit(3)


class ExitOnceBot(_Base):
    """Ends its process the first time it decides in a game seeded ``seed``; then plays.

    The ``marker`` file remembers that it has exited once.
    """

    def __init__(self, game: object = None, *, seed: int = 0, marker: str = "") -> None:
        super().__init__(game, seed=seed)
        self.marker = Path(marker)

    def act(self, observation: Any) -> Any:
        if not self.marker.exists():
            self.marker.write_text("exited once\n", encoding="utf-8")
            os._exit(4)
        return self.pick(observation)


class FragileBot(_Base):
    """Builds for the arena's check (seed 0) but fails for real games (or ``always``)."""

    def __init__(self, game: object = None, *, seed: int = 0, always: bool = False) -> None:
        super().__init__(game, seed=seed)
        if seed != 0 or always:
            raise OSError("fragile bot cannot find its weights")

    def act(self, observation: Any) -> Any:
        return self.pick(observation)


class HighBot(_Base):
    """High card, better than random: beat the trick as cheaply as possible, else duck."""

    def act(self, observation: Any) -> Any:
        by_rank = sorted(observation.legal_actions, key=lambda a: a.card.rank)
        trick = observation.table.cards("trick")
        if not trick:
            return by_rank[-1]
        best = max(c.rank for c in trick)
        winners = [a for a in by_rank if a.card.rank > best]
        return winners[0] if winners else by_rank[0]


class LogBot(_Base):
    """Plays at random and logs its seed to ``log`` when built.

    It waits ``CARDCORE_BOT_TESTBOTS_DELAY`` seconds (an environment variable, so that it is
    not part of the arena's configuration) before each decision.
    """

    def __init__(self, game: object = None, *, seed: int = 0, log: str = "") -> None:
        super().__init__(game, seed=seed)
        self.delay = float(os.environ.get("CARDCORE_BOT_TESTBOTS_DELAY", "0"))
        if log:
            with Path(log).open("a", encoding="utf-8") as f:
                f.write(f"{seed}\n")

    def act(self, observation: Any) -> Any:
        if self.delay:
            time.sleep(self.delay)
        return self.pick(observation)
