"""Root-parallel search: iterations in the same wall time with ``workers=N`` against 1.

For each game, the same decisions (seeded deals, a random line of play) are searched by
ISMCTS with a time budget, once with ``workers=1`` and once with each ``--workers`` N,
interleaved decision by decision so that a change in the machine's load hits both. It
reports the iterations run in the same wall time, and the iterations per CPU-second
(this process's CPU time plus that of the pool's processes, read from ``/proc``): the
second is what a loaded machine cannot take away, the first is what a user sees.

    python benchmarks/search_workers.py --game noddy --game nyuri --seconds 0.5
"""

from __future__ import annotations

import argparse
import os
import random
import time
from typing import Any

from cardcore import load_game
from cardcore.bots import ISMCTSBot


def _cpu(pids: list[int]) -> float:
    """CPU seconds (user + system) used so far by these processes (Linux ``/proc``)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except FileNotFoundError:
            continue
        total += (int(fields[11]) + int(fields[12])) / tick
    return total


def _decisions(game: Any, players: int, count: int, seed: int) -> list[Any]:
    rng = random.Random(seed)
    out: list[Any] = []
    k = 0
    while len(out) < count:
        state = game.initial_state(players, seed + k)
        k += 1
        while (seat := game.current_player(state)) is not None and len(out) < count:
            obs = game.observe(state, seat)
            if len(obs.legal_actions) > 1 and rng.random() < 0.2:
                out.append(obs)
            legal = game.legal_actions(state)
            state = game.apply(state, legal[rng.randrange(len(legal))])
    return out


def main() -> None:
    """Run the comparison and print one Markdown row per game and worker count."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", help="games (default: noddy)")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--decisions", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=0.5)
    parser.add_argument("--workers", type=int, action="append", help="default: 2")
    args = parser.parse_args()
    print(f"load average at start: {os.getloadavg()}, cpus: {os.cpu_count()}")
    print(
        "| game | workers | decisions | iterations | wall s | iter/s wall | iter/CPU-s | x wall |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for name in args.game or ["noddy"]:
        game = load_game(name)
        players = args.players or (4 if name == "nestors" else 2)
        observations = _decisions(game, players, args.decisions, 1)
        counts = [1, *(args.workers or [2])]
        bots = {w: ISMCTSBot(game, seed=1, seconds=args.seconds, workers=w) for w in counts}
        # Start the pools before measuring (a match pays this once).
        for w, bot in bots.items():
            if w > 1:
                bot.act(observations[0])
        totals = {w: [0, 0.0, 0.0] for w in counts}
        for obs in observations:
            for w, bot in bots.items():
                pids = [os.getpid(), *(bot._pool.pids() if bot._pool else [])]
                c0, t0 = _cpu(pids), time.perf_counter()
                bot.act(obs)
                t1, c1 = time.perf_counter(), _cpu(pids)
                totals[w][0] += bot.last_iterations
                totals[w][1] += t1 - t0
                totals[w][2] += c1 - c0
        base = totals[1][0] / totals[1][1]
        for w in counts:
            n, wall, cpu = totals[w]
            print(
                f"| {name} | {w} | {len(observations)} | {n} | {wall:.1f} | {n / wall:.0f} | "
                f"{n / cpu:.0f} | {n / wall / base:.2f} |"
            )
        for bot in bots.values():
            bot.close()
    print(f"load average at end: {os.getloadavg()}")


if __name__ == "__main__":
    main()
