"""Adversarial bots for the engine and isolation tests, importable by path in children."""

from __future__ import annotations

import gc
import random
import sys
import time
from typing import Any

MODULE = "tests.engine_testbots"


class _Base:
    def __init__(self, game: object = None, *, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def pick(self, observation: Any) -> Any:
        legal = observation.legal_actions
        return legal[self.rng.randrange(len(legal))]


def _is_state(obj: object) -> bool:
    return type(obj).__name__.endswith("State") and hasattr(obj, "rng")


class StateHunter(_Base):
    """Looks for the real game state in the caller's frames and in the garbage collector.

    It raises (and so forfeits) when it finds one; otherwise it plays at random.
    """

    def act(self, observation: Any) -> Any:
        frame: Any = sys._getframe(1)
        hit = False
        while frame is not None:
            if any(_is_state(v) for v in frame.f_locals.values()):
                hit = True
            frame = frame.f_back
        if not hit:
            hit = any(_is_state(o) for o in gc.get_objects())
        if hit:
            raise RuntimeError("found the real state")
        return self.pick(observation)


class Forger(_Base):
    """Rewrites the real state to win: every round counts for it (highcard's ``wins``)."""

    def start_match(self, game: object, seat: int, num_players: int) -> None:
        self.seat = seat

    def act(self, observation: Any) -> Any:
        for obj in gc.get_objects():
            if _is_state(obj) and hasattr(obj, "wins"):
                wins = tuple(99 if i == self.seat else 0 for i in range(len(obj.wins)))
                object.__setattr__(obj, "wins", wins)
        frame: Any = sys._getframe(1)
        while frame is not None:
            for v in list(frame.f_locals.values()):
                if _is_state(v) and hasattr(v, "wins"):
                    wins = tuple(99 if i == self.seat else 0 for i in range(len(v.wins)))
                    object.__setattr__(v, "wins", wins)
            frame = frame.f_back
        return self.pick(observation)


class Sleeper4(_Base):
    """Sleeps 4 s on every decision."""

    def act(self, observation: Any) -> Any:
        time.sleep(4)
        return self.pick(observation)


class EqualsEverything:
    """Equal to everything, hashes like the first legal action."""

    def __eq__(self, other: object) -> bool:
        return True

    def __hash__(self) -> int:
        return 0


class EqualsAll(_Base):
    """Returns an object equal to every action."""

    def act(self, observation: Any) -> Any:
        return EqualsEverything()


class Boom:
    def __eq__(self, other: object) -> bool:
        raise RuntimeError("eq exploded")

    def __hash__(self) -> int:
        raise RuntimeError("hash exploded")

    def __str__(self) -> str:
        raise RuntimeError("str exploded")


class RaisingEq(_Base):
    """Returns an object whose ``__eq__``, ``__hash__`` and ``__str__`` raise."""

    def act(self, observation: Any) -> Any:
        return Boom()


class EditsLegal(_Base):
    """Replaces its observation's legal actions with its own object and returns that."""

    def act(self, observation: Any) -> Any:
        fake = EqualsEverything()
        object.__setattr__(observation, "legal_actions", (fake,))
        return fake


class EditsThenPlays(_Base):
    """Edits its observation, then returns a real legal action."""

    def act(self, observation: Any) -> Any:
        legal = observation.legal_actions
        object.__setattr__(observation, "legal_actions", ())
        return legal[0]


class SubclassAction(_Base):
    """Returns a subclass of the game's action type that claims equality with anything."""

    def act(self, observation: Any) -> Any:
        base = type(observation.legal_actions[0])
        calls: list[str] = []

        class Evil(base):  # type: ignore[misc, valid-type]
            __slots__ = ()

            def __eq__(self, other: object) -> bool:
                calls.append("eq")
                return True

            def __hash__(self) -> int:
                calls.append("hash")
                return 0

            def __str__(self) -> str:
                calls.append("str")
                return "play A♠"

        first = observation.legal_actions[0]
        return Evil(first.card)


class CopyMaker(_Base):
    """Returns a fresh copy of a legal action (built by the game's own class), and texts."""

    def act(self, observation: Any) -> Any:
        a = self.pick(observation)
        if self.rng.random() < 0.5:
            return str(a)
        return type(a)(a.card)
