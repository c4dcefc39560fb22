"""Environment steps per second of wall time: one Gymnasium environment against vector envs.

For each game, a random masked policy steps, in turn (interleaved, so that the machine's
other load hits each alike): one environment in this process, ``gymnasium.make_vec``
with N environments synchronously (one process), asynchronously (N subprocesses, the
agent's actions and observations crossing a pipe every step), and N processes that
each step their own environment with their own policy (actors, no per-step traffic).
It prints the agent's steps per wall second of each, and the gains over one
environment of async and of the actors, which is what more cores buy::

    python benchmarks/rl_vector.py --game noddy --game nyuri --envs 2 --seconds 3
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import statistics
import time
from typing import Any

import gymnasium
import numpy as np

from cardcore.adapters import gymnasium as cg

OPTIONS = {"nestors": {"threshold": 200}}


def _actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    out = []
    for mask in masks:
        legal = np.flatnonzero(mask)
        out.append(int(legal[rng.integers(len(legal))]) if len(legal) else 0)
    return np.array(out)


def _vector_rate(envs: Any, seconds: float) -> float:
    rng = np.random.default_rng(0)
    obs, _ = envs.reset(seed=1)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        obs, *_ = envs.step(_actions(obs["action_mask"], rng))
        steps += envs.num_envs
    return steps / (time.perf_counter() - start)


def _actor(job: tuple[str, dict[str, Any], float, int]) -> tuple[int, float]:
    """One process stepping its own environment: (steps, wall seconds)."""
    game, kw, seconds, seed = job
    cg.register_envs()
    envs = gymnasium.make_vec(f"cardcore/{game}-v0", 1, "sync", **kw)
    rng = np.random.default_rng(seed)
    obs, _ = envs.reset(seed=seed)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        obs, *_ = envs.step(_actions(obs["action_mask"], rng))
        steps += 1
    return steps, time.perf_counter() - start


def main() -> None:
    """Print one Markdown row per game."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", action="append", help="games (default: all four)")
    ap.add_argument("--envs", type=int, default=2, help="environments of the vector envs")
    ap.add_argument("--seconds", type=float, default=3.0, help="wall seconds per measure")
    ap.add_argument("--rounds", type=int, default=3, help="interleaved rounds (median)")
    args = ap.parse_args()
    cg.register_envs()
    n = args.envs
    print(f"load average at start: {os.getloadavg()}, cpus: {os.cpu_count()}")
    print(f"| game | 1 env | sync x{n} | async x{n} | {n} actors | async / 1 | actors / 1 |")
    print("|---|---|---|---|---|---|---|")
    pool = multiprocessing.get_context("fork").Pool(n)
    for game in args.game or ["box", "nestors", "noddy", "nyuri"]:
        kw = {"opponents": ["random"], **OPTIONS.get(game, {})}
        kinds = {
            "one": gymnasium.make_vec(f"cardcore/{game}-v0", 1, "sync", **kw),
            "sync": gymnasium.make_vec(f"cardcore/{game}-v0", n, "sync", **kw),
            "async": gymnasium.make_vec(f"cardcore/{game}-v0", n, "async", **kw),
        }
        rates: dict[str, list[float]] = {k: [] for k in (*kinds, "actors")}
        for r in range(args.rounds):
            for kind, envs in kinds.items():
                rates[kind].append(_vector_rate(envs, args.seconds))
            done = pool.map(_actor, [(game, kw, args.seconds, r * n + i) for i in range(n)])
            rates["actors"].append(sum(steps / wall for steps, wall in done))
        for envs in kinds.values():
            envs.close()
        med = {k: statistics.median(v) for k, v in rates.items()}
        cells = [f"{med[k]:,.0f} ({min(v):,.0f}-{max(v):,.0f})" for k, v in rates.items()]
        gains = f" | {med['async'] / med['one']:.2f}x | {med['actors'] / med['one']:.2f}x |"
        print(f"| {game} | " + " | ".join(cells) + gains)
    pool.close()
    pool.join()


if __name__ == "__main__":
    main()
