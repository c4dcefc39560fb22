"""Determinisation: a game's ``sample_state`` gives legal states that agree with the seat.

A sampled state must look the same to the seat whose observation it came from, keep
every public state field, and let play go on from it to the end.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from cardcore._game import Game, IllegalActionError
from cardcore.testing._clock import Clock
from cardcore.testing._context import MISSING, Context, short, who
from cardcore.testing._errors import CheckFailed, require
from cardcore.testing._leaks import leak_text, public_fields
from cardcore.testing._values import difference

__all__ = ["continue_from_sample", "sample_checks"]


def sample_checks(
    ctx: Context,
    s: Any,
    seat: int,
    cur: int | None,
    legal: Sequence[Any],
    obs: Any,
) -> None:
    """The game's own determinisation agrees with the observation and the public facts."""
    g = ctx.game
    sampled = g.sample_state(obs, ctx.rng)
    try:
        sampled.table.check()
    except AssertionError as e:
        raise CheckFailed("determinisation", f"sampled state: {e}") from None
    obs2 = g.observe(sampled, seat)
    # Compared with ==: the kit's own perturbations above judge whole observations.
    where = None if obs2 == obs else (difference(obs, obs2) or "an eq-only difference")
    if where is not None:
        raise CheckFailed(
            "no-leaks",
            leak_text(
                seat,
                "the game's sample_state redeals what it does not know",
                where,
                obs == obs2,
            )
            + f":\n  original: {obs}\n  sampled:  {obs2}",
        )
    if seat == cur:
        require(
            g.legal_actions(sampled) == legal,
            "no-leaks",
            f"seat {seat}'s legal actions depend on cards it cannot see",
        )
    # Every field but the table, the RNG and the declared hidden fields is public:
    # a determinisation from any seat's observation must reproduce it exactly.
    for name in public_fields(ctx, s):
        if getattr(sampled, name, MISSING) != getattr(s, name):
            raise CheckFailed(
                "no-leaks",
                f"hidden data outside the card table: state field {name!r} is not "
                f"declared hidden (hidden_state_fields), so it must be public, but "
                f"{who(seat)}'s observation does not determine it (sample_state gives "
                f"{short(getattr(sampled, name, MISSING))}, the state holds "
                f"{short(getattr(s, name))}). Keep hidden cards in the table, or "
                f"declare the field in hidden_state_fields",
            )


def continue_from_sample(
    g: Game[Any, Any, Any], n: int, s: Any, rng: random.Random, clock: Clock
) -> None:
    cur = g.current_player(s)
    if cur is None:
        return
    sampled = g.sample_state(g.observe(s, cur), rng)
    bound = g.max_decisions(n)
    for _ in range(bound + 1):
        clock.at("determinisation")
        if g.current_player(sampled) is None:
            return
        legal = g.legal_actions(sampled)
        require(len(legal) > 0, "determinisation", "a sampled state reaches a dead end")
        try:
            sampled = g.apply(sampled, legal[rng.randrange(len(legal))])
        except IllegalActionError as e:
            raise CheckFailed(
                "determinisation", f"a sampled state refused its own legal action: {e}"
            ) from None
    raise CheckFailed("determinisation", "play from a sampled state did not end within the bound")
