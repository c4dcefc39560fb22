"""The compiled build against the pure modules, side by side in one run.

Run it with the interpreter of a venv where cardcore and the games are installed from
their compiled wheels (``make compiled`` makes ``.venv-compiled``)::

    .venv-compiled/bin/python benchmarks/compiled.py --rounds 3 --seconds 1

Two worker processes run the same loops: one loads the compiled modules, the other the
pure sources beside them (``CARDCORE_PURE=1``). Every loop runs in the pure worker, then
at once in the compiled one (A B A B ...), round after round, so that both see the same
machine load. The loops are those of ``compare.py`` (``legal + apply`` and ``+ observe``
random play, decisions per CPU second) and ISMCTS (iterations per CPU second, searches of
100 iterations at positions of seeded random games). Prints a Markdown table: medians
(range in brackets) and the compiled-over-pure ratio.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ISMCTS = "ISMCTS"
ISMCTS_ITERATIONS = 100


def _ismcts_searches(game: Any, host: Any, seed: int) -> Iterator[int]:
    """Endless ISMCTS searches at positions of seeded random games; yields iterations."""
    n = game.max_players
    pick = random.Random(seed)
    g = seed
    while True:
        state = game.initial_state(n, g)
        g += 1
        k = 0
        while (player := game.current_player(state)) is not None:
            if k % 7 == 3:  # a few positions per game, from the first trick to the last
                bot = host.load_bot("ismcts", game, seed=g * 100 + k, iterations=ISMCTS_ITERATIONS)
                bot.act(game.observe(state, player))
                yield ISMCTS_ITERATIONS
            legal = game.legal_actions(state)
            state = game.apply(state, legal[int(pick.random() * len(legal))])
            k += 1


def _loops(only: str) -> dict[str, Callable[[float], tuple[int, float]]]:
    sys.path.insert(0, str(HERE))
    from compare import OBSERVE, RAW, _cardcore_games, _timed

    from cardcore import PluginHost

    host = PluginHost()
    out = {}
    for spec in sorted(host.games().values(), key=lambda s: s.name):
        for preset in spec.presets:
            label = spec.name if preset == "default" else f"{spec.name} {preset}"
            if only and only not in label:
                continue
            game = host.load_game(spec.name, preset=preset)
            out[f"{label}|{RAW}"] = _timed(_cardcore_games(game, False, 1))
            out[f"{label}|{OBSERVE}"] = _timed(_cardcore_games(game, True, 1))
            out[f"{label}|{ISMCTS}"] = _timed(_ismcts_searches(game, host, 1))
    return out


def worker(only: str) -> None:
    """Serve loop runs: read ``KEY SECONDS`` lines, answer with the rate as JSON."""
    from cardcore._build import build_line, installed_distributions

    loops = _loops(only)
    print(json.dumps({"keys": list(loops), "build": build_line(installed_distributions())}))
    sys.stdout.flush()
    for line in sys.stdin:
        key, seconds = line.rsplit(" ", 1)
        count, cpu = loops[key](float(seconds))
        print(json.dumps(count / cpu))
        sys.stdout.flush()


class _Worker:
    def __init__(self, only: str, pure: bool) -> None:
        env = {k: v for k, v in os.environ.items() if k != "CARDCORE_PURE"}
        if pure:
            env["CARDCORE_PURE"] = "1"
        self.proc = subprocess.Popen(  # noqa: S603 - this very script, as a worker
            [sys.executable, __file__, "--worker", "--only", only],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )
        hello = json.loads(self._read())
        self.keys: list[str] = hello["keys"]
        self.build: str = hello["build"]

    def _read(self) -> str:
        assert self.proc.stdout is not None
        return self.proc.stdout.readline()

    def run(self, key: str, seconds: float) -> float:
        assert self.proc.stdin is not None
        self.proc.stdin.write(f"{key} {seconds}\n")
        self.proc.stdin.flush()
        return float(json.loads(self._read()))

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait()


def _k(x: float) -> str:
    return f"{x / 1000:.0f}k" if x >= 10_000 else f"{x / 1000:.1f}k" if x >= 1000 else f"{x:.0f}"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--seconds", type=float, default=1.0)
    p.add_argument("--warmup", type=float, default=0.3)
    p.add_argument("--only", default="", help="only the games whose label contains this")
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.worker:
        worker(args.only)
        return 0
    pure, compiled = _Worker(args.only, True), _Worker(args.only, False)
    keys = pure.keys
    for key in keys:  # caches, lazy tables, first deals: outside the timing
        pure.run(key, args.warmup)
        compiled.run(key, args.warmup)
    rates: dict[str, tuple[list[float], list[float]]] = {k: ([], []) for k in keys}
    start = time.time()
    for r in range(args.rounds):
        for key in keys:
            rates[key][0].append(pure.run(key, args.seconds))
            rates[key][1].append(compiled.run(key, args.seconds))
        print(f"round {r + 1}/{args.rounds} done", file=sys.stderr)
    pure.close()
    compiled.close()
    labels = list(dict.fromkeys(k.split("|")[0] for k in keys))
    modes = list(dict.fromkeys(k.split("|")[1] for k in keys))
    print(f"Pure worker: {pure.build}  \nCompiled worker: {compiled.build}\n")
    print(
        f"Median of {args.rounds} rounds of {args.seconds:g} s of CPU per loop and build "
        f"(range in brackets), interleaved; {time.time() - start:.0f} s in all.\n"
    )
    print("| game | " + " | ".join(f"{m}: pure | compiled | ×" for m in modes) + " |")
    print("|---|" + "---|---|---|" * len(modes))
    ratios: dict[str, list[float]] = {m: [] for m in modes}
    for label in labels:
        cells = []
        for m in modes:
            a, b = rates[f"{label}|{m}"]
            ma, mb = statistics.median(a), statistics.median(b)
            ratios[m].append(mb / ma)
            cells += [
                f"{_k(ma)} ({_k(min(a))}-{_k(max(a))})",
                f"{_k(mb)} ({_k(min(b))}-{_k(max(b))})",
                f"**{mb / ma:.2f}x**",
            ]
        print(f"| {label} | " + " | ".join(cells) + " |")
    geo = {m: statistics.geometric_mean(v) for m, v in ratios.items()}
    cells = [c for m in modes for c in ("", "", f"**{geo[m]:.2f}x**")]
    print("| geometric mean | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
