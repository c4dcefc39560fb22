"""Determinism and seeds: equal inputs give equal outputs, in this process and in others.

States copy, compare and hash by value; ``apply`` never changes its input and gives
the same state twice; the seed decides the deal; and a seeded game is the same in
fresh processes with other ``PYTHONHASHSEED`` values.
"""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
from collections.abc import Mapping, Sequence
from typing import Any, Final

from cardcore._game import Game
from cardcore.testing._clock import alarm
from cardcore.testing._context import Context
from cardcore.testing._errors import CheckFailed, KitTimeout, require
from cardcore.testing._report import CheckResult

__all__ = ["action_checks", "copy_checks", "hash_seed_checks", "seed_check"]


def copy_checks(ctx: Context, s: Any) -> None:
    """A deep copy of the state compares equal and hashes alike (kept as ``ctx.twin``)."""
    twin = pickle.loads(pickle.dumps(s))
    require(twin == s, "determinism", "a copy of a state does not compare equal")
    require(hash(s) == hash(twin), "determinism", "equal states hash differently")
    ctx.twin = twin


def action_checks(ctx: Context, s: Any, action: Any) -> Any:
    g = ctx.game
    ctx.clock.at("immutability")
    after = g.apply(s, action)
    require(
        s == ctx.twin,
        "immutability",
        lambda: f"apply({action}) changed its input state",
    )
    ctx.clock.at("determinism")
    again = g.apply(s, action)
    require(again == after, "determinism", lambda: f"apply({action}) twice gave different states")
    ctx.clock.at("round-trip")
    text = str(action)
    try:
        parsed = g.parse_action(text)
    except ValueError as e:
        raise CheckFailed("round-trip", f"str(action) {text!r} does not parse back: {e}") from None
    require(parsed == action, "round-trip", f"{text!r} parses to {parsed!r}, not {action!r}")
    return after


def seed_check(g: Game[Any, Any, Any], n: int) -> None:
    tables = {g.initial_state(n, seed).table for seed in range(6)}
    require(len(tables) > 1, "seed", "six different seeds gave the same deal")


_HASH_SEEDS: Final = ("1", "2")


def hash_seed_checks(
    jobs: Sequence[tuple[str, int, Game[Any, Any, Any], Mapping[str, Any] | None]],
    seed: int,
    timeout: float,
) -> dict[tuple[str, int], CheckResult]:
    """Compare seeded games across processes with different ``PYTHONHASHSEED`` values.

    Each job is (configuration label, player count, game, how to rebuild it by id or
    ``None``). Returns the failed ones.
    """
    from cardcore.testing._child import fingerprint, game_payload

    seeds = [seed]
    failed: dict[tuple[str, int], CheckResult] = {}
    request_jobs: list[dict[str, Any]] = []
    local: dict[str, Any] = {}
    for label, n, g, ident in jobs:
        key = f"{label}|{n}"
        try:
            payload = game_payload(g, ident)
        except Exception as e:  # noqa: BLE001 - cannot ship this game to another process
            failed[(label, n)] = CheckResult(
                "hash-seed",
                False,
                f"the kit could not send the game to a fresh process to compare hash seeds "
                f"({type(e).__name__}: {e}); define the game class at the top level of a module",
            )
            continue
        request_jobs.append({"key": key, "game": payload, "players": n})
        try:
            with alarm(timeout + 1.0):
                local[key] = [fingerprint(g, n, s, timeout) for s in seeds]
        except KitTimeout:
            local[key] = {"error": f"ChildTimeoutError: a call ran over {timeout:g} s"}
        except Exception as e:  # noqa: BLE001 - the random-play checks report crashes
            local[key] = {"error": f"{type(e).__name__}: {e}"}
    if not request_jobs:
        return failed
    request = json.dumps(
        {"jobs": request_jobs, "seeds": seeds, "timeout": timeout, "path": sys.path}
    )
    # Each job ends by itself within its time limit (plus the alarm's second); the rest is
    # for a fresh interpreter to start and load the plugins on a busy machine.
    limit = (timeout + 1.0) * len(request_jobs) + 30.0
    procs = []
    for hs in _HASH_SEEDS:
        env = {**os.environ, "PYTHONHASHSEED": hs}
        procs.append(
            subprocess.Popen(
                [sys.executable, "-m", "cardcore.testing._child"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                env=env,
            )
        )
    answers: list[dict[str, Any] | str] = []
    for proc in procs:
        try:
            out, err = proc.communicate(request, timeout=limit)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
            answers.append(f"the fresh process ran over its time limit of {limit:g} s")
            continue
        try:
            answers.append(json.loads(out))
        except ValueError:
            answers.append(f"the fresh process failed: {err.strip()[-400:]}")
    for job in request_jobs:
        key = str(job["key"])
        label, _, count = key.rpartition("|")
        n = int(count)
        mine: Any = local[key]
        for hs, answer in zip(_HASH_SEEDS, answers, strict=True):
            if isinstance(answer, str):
                prop = "time-out" if "time limit" in answer else "hash-seed"
                failed[(label, n)] = CheckResult(
                    prop, False, f"the check 'hash-seed' could not finish: {answer}"
                )
                break
            theirs: Any = answer.get(key)
            if isinstance(mine, dict) or isinstance(theirs, dict):
                err_text = (mine if isinstance(mine, dict) else theirs or {}).get("error", "")
                if "ChildTimeoutError" in err_text:
                    failed[(label, n)] = CheckResult(
                        "time-out",
                        False,
                        f"the check 'hash-seed' ran over the time limit of {timeout:g} s "
                        f"playing seed {seed} ({err_text})",
                    )
                    break
                if isinstance(theirs, dict) and not isinstance(mine, dict):
                    failed[(label, n)] = CheckResult(
                        "hash-seed",
                        False,
                        f"under PYTHONHASHSEED={hs} the game fails where it works here: {err_text}",
                    )
                    break
                continue  # the game crashes here too: the random-play checks report it
            if theirs != mine:
                for s, a, b in zip(seeds, mine, theirs, strict=True):
                    if a != b:
                        step = next(
                            (i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y),
                            min(len(a), len(b)),
                        )
                        what = "the deal (the initial state)" if step == 0 else f"step {step}"
                        failed[(label, n)] = CheckResult(
                            "hash-seed",
                            False,
                            f"seed {s} gives a different game under PYTHONHASHSEED={hs} than in "
                            f"this process: it differs from {what} on (the state, the legal "
                            f"actions' order or an observation depends on hash order)",
                        )
                        break
                break
    return failed
