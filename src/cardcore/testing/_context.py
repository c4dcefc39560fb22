"""What every check of one random game shares: the game, the seats, the clock, the RNG."""

from __future__ import annotations

import random
from typing import Any, Final, final

import attrs

from cardcore._game import Game
from cardcore._table import SPECTATOR
from cardcore.testing._clock import Clock

__all__ = ["MISSING", "Context", "short", "who"]


@final
@attrs.define(eq=False)
class Context:
    """One random game being checked; the property modules read and fill it."""

    game: Game[Any, Any, Any]
    n: int
    rng: random.Random
    clock: Clock
    shared: dict[str, Any]
    """Shared by every game of one configuration (the scoring direction, caches)."""
    teams: Any = None
    seats: list[int] = attrs.field(factory=list)
    hidden: tuple[str, ...] = ()
    seen_actions: list[Any] = attrs.field(factory=list)
    """Recent legal actions, offered later as illegal ones."""
    observations: list[list[Any]] = attrs.field(factory=list)
    """Every seat's observation at every step, for the replay check."""
    twin: Any = None
    """A deep copy of the current state, taken before anything touches it."""

    @classmethod
    def start(
        cls,
        game: Game[Any, Any, Any],
        n: int,
        rng: random.Random,
        clock: Clock,
        shared: dict[str, Any],
    ) -> Context:
        """The context of a new game of ``game`` for ``n`` players."""
        return cls(
            game,
            n,
            rng,
            clock,
            shared,
            teams=game.teams(n),
            seats=[*range(n), SPECTATOR],
            hidden=tuple(getattr(game, "hidden_state_fields", ())),
        )


def who(seat: int) -> str:
    return "the onlooker" if seat == SPECTATOR else f"seat {seat}"


MISSING: Final = object()


def short(value: object) -> str:
    text = "(missing)" if value is MISSING else repr(value)
    return text if len(text) <= 80 else text[:77] + "..."
