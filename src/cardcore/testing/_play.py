"""One random game with every check at every step: the kit's loop over a game.

The properties of the play itself are checked here (progress, card conservation,
illegal input); each other family of properties has its own module, called from
:func:`state_checks` at every state and from :func:`play_one` at the end.
"""

from __future__ import annotations

import contextlib
import pickle
import random
from collections.abc import Callable, Sequence
from typing import Any, Final

from cardcore._game import Game, IllegalActionError
from cardcore._table import SPECTATOR, CardTable
from cardcore.testing._clock import Clock
from cardcore.testing._context import Context
from cardcore.testing._determinisation import continue_from_sample, sample_checks
from cardcore.testing._determinism import action_checks, copy_checks
from cardcore.testing._errors import CheckFailed, require
from cardcore.testing._leaks import Forms, forms, hidden_checks, legal_rule, redeal_checks
from cardcore.testing._outcomes import outcome_checks
from cardcore.testing._records import json_checks, replay_checks

__all__ = ["play_one", "state_checks"]

_GARBAGE: Final[tuple[object, ...]] = (None, 42, "pass", object(), ("x",), 3.5)
_BAD_TEXT: Final[tuple[str, ...]] = ("", "   ", "xyzzy", "play", "9♣9♣9♣ wat", "bid -5", "☃")


def state_checks(ctx: Context, s: Any) -> None:
    """Every check of one state: each property module in turn, every seat's view."""
    g = ctx.game
    ctx.clock.at("card-conservation")
    table = getattr(s, "table", None)
    require(
        isinstance(table, CardTable),
        "card-conservation",
        "the state has no 'table' field holding a cardcore.CardTable",
    )
    assert isinstance(table, CardTable)
    try:
        table.check()
    except AssertionError as e:
        raise CheckFailed("card-conservation", str(e)) from None
    ctx.clock.at("determinism")
    copy_checks(ctx, s)
    ctx.clock.at("progress")
    cur = g.current_player(s)
    legal = g.legal_actions(s)
    if cur is None:
        require(legal == (), "progress", "a finished game still has legal actions")
        require(g.outcome(s) is not None, "progress", "a finished game has no outcome")
    else:
        require(
            isinstance(cur, int) and 0 <= cur < ctx.n,
            "progress",
            f"current player {cur!r} is not a seat",
        )
        require(len(legal) > 0, "progress", "a live state has no legal action (dead end)")
        require(len(set(legal)) == len(legal), "progress", "legal actions contain duplicates")
        require(g.outcome(s) is None, "outcome", "a live game already has an outcome")
    ctx.clock.at("observation-legal")
    # One seat a step, in rotation (the onlooker too), has its observation's JSON and
    # text forms made right after the observation and compared with those of the
    # redealt one: a form that depends on anything but the observation shows.
    probe = ctx.seats[ctx.clock.step % len(ctx.seats)]
    obs_all = []
    shown: Forms | None = None
    for seat in ctx.seats:
        obs = g.observe(s, seat)
        obs_all.append(obs)
        if seat == probe:
            shown = forms(ctx, obs)
    ctx.observations.append(obs_all)
    for seat, obs in zip(ctx.seats, obs_all, strict=True):
        legal_rule(ctx, obs, seat, cur, legal)
    ctx.clock.at("no-leaks")
    hidden_checks(ctx, s, obs_all)
    for seat, obs in zip(ctx.seats, obs_all, strict=True):
        redeal_checks(ctx, s, seat, cur, legal, obs, shown if seat == probe else None)
    ctx.clock.at("determinisation")
    for seat, obs in zip(ctx.seats[:-1], obs_all[:-1], strict=True):
        sample_checks(ctx, s, seat, cur, legal, obs)
    ctx.clock.at("round-trip")
    # The JSON round trip (a codec property, not a leak check, and the costliest
    # check for games with long histories) runs for the mover, the onlooker and one
    # more seat in rotation at every step, and for every seat at the first and the
    # last step.
    every = ctx.clock.step == 0 or cur is None
    extra = ctx.clock.step % ctx.n
    for seat, obs in zip(ctx.seats, obs_all, strict=True):
        if every or seat in (cur, SPECTATOR, extra):
            data = shown[0] if shown is not None and seat == probe else obs.to_json()
            json_checks(ctx, obs, seat, data)


def illegal_checks(ctx: Context, s: Any, legal: Sequence[Any]) -> None:
    g = ctx.game
    ctx.clock.at("illegal-input")
    candidates: list[object] = list(_GARBAGE)
    legal_set = set(legal)
    foreign = [a for a in ctx.seen_actions[-60:] if a not in legal_set]
    candidates += ctx.rng.sample(foreign, min(4, len(foreign)))
    for bad in candidates:
        try:
            g.apply(s, bad)
        except IllegalActionError:
            pass
        except Exception as e:  # noqa: BLE001 - any other error is the failure
            raise CheckFailed(
                "illegal-input",
                f"apply({bad!r}) raised {type(e).__name__}: {e}, not IllegalActionError",
            ) from None
        else:
            raise CheckFailed("illegal-input", f"apply accepted an illegal action {bad!r}")
    for text in _BAD_TEXT:
        try:
            a = g.parse_action(text)
        except ValueError:
            continue
        except Exception as e:  # noqa: BLE001
            raise CheckFailed(
                "illegal-input",
                f"parse_action({text!r}) raised {type(e).__name__}, not ValueError",
            ) from None
        if a not in legal_set:
            try:
                g.apply(s, a)
            except IllegalActionError:
                continue
            raise CheckFailed("illegal-input", f"apply accepted {text!r} parsed as {a!r}")
    # ``twin`` is a deep copy of ``s`` taken before any of these attempts.
    if s != ctx.twin:
        for bad in candidates:  # find the refusal that changed the state
            now = pickle.loads(pickle.dumps(s))
            with contextlib.suppress(Exception):
                g.apply(s, bad)
            if s != now:
                raise CheckFailed("illegal-input", f"refusing {bad!r} changed the state")
        raise CheckFailed("illegal-input", "refusing an illegal action changed the state")


def play_one(
    game: Game[Any, Any, Any],
    n: int,
    seed: int,
    choose: Callable[[int], int],
    rng: random.Random,
    actions: list[str],
    clock: Clock,
    shared: dict[str, Any],
) -> int:
    """Play one game choosing actions with ``choose``; check everything. Returns decisions."""
    g = game
    chk = Context.start(g, n, rng, clock, shared)
    clock.at("replay")
    s0 = g.initial_state(n, seed)
    require(
        g.initial_state(n, seed) == s0, "replay", "the same seed gives different initial states"
    )
    s = s0
    states = [s]
    bound = g.max_decisions(n)
    steps = 0
    while True:
        clock.step = steps
        state_checks(chk, s)
        cur = g.current_player(s)
        if cur is None:
            break
        clock.at("progress")
        require(
            steps < bound,
            "progress",
            f"the game did not end within its declared bound of {bound} decisions",
        )
        legal = g.legal_actions(s)
        illegal_checks(chk, s, legal)
        action = legal[choose(len(legal))]
        chk.seen_actions.extend(legal[:8])
        s = action_checks(chk, s, action)
        actions.append(str(action))
        states.append(s)
        steps += 1
    out = g.outcome(s)
    assert out is not None
    outcome_checks(chk, out)
    clock.at("determinisation")
    for mid in states[1::20]:
        continue_from_sample(g, n, mid, rng, clock)
    clock.at("replay")
    replay_checks(g, n, seed, actions, states, chk.observations, out)
    return steps
