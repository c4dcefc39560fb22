"""``cardcore bench``: measure every installed game (or some) and optionally keep the numbers."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any, TextIO

__all__ = ["Progress", "register"]


def register(sub: Any) -> None:
    """Add ``bench`` to the sub-commands."""
    p = sub.add_parser(
        "bench",
        help="measure game speed",
        description="Measure random-playout decisions/s, per-call costs, engine overhead, "
        "ISMCTS iterations/s and state size for installed games. Each configuration first "
        "plays an untimed warm-up game, so one-time set-up is reported apart from the rates.",
    )
    p.add_argument("games", nargs="*", help="game ids (default: every installed game)")
    p.add_argument("--preset", action="append", help="only these presets (repeatable)")
    p.add_argument(
        "--seconds",
        type=float,
        default=2.0,
        help="playout time per configuration (default: %(default)s)",
    )
    p.add_argument(
        "--ismcts-iterations",
        type=int,
        default=100,
        metavar="N",
        help="iterations of each timed ISMCTS search (default: %(default)s)",
    )
    p.add_argument("--json", action="store_true", help="print JSON instead of the table")
    p.add_argument("--markdown", metavar="FILE", help="also write the results as a Markdown page")
    p.add_argument(
        "--no-progress", action="store_true", help="no progress line (shown only on a terminal)"
    )
    p.set_defaults(func=cmd_bench)


class Progress:
    """One self-overwriting line on a terminal: configurations done, the current one, ETA.

    Args:
        stream: where to draw (stderr); nothing is drawn unless it is a terminal.
        enabled: ``False`` turns it off even on a terminal.
        clock: the time source (for tests).
    """

    def __init__(
        self, stream: TextIO, *, enabled: bool = True, clock: Any = time.perf_counter
    ) -> None:
        self._stream = stream
        self._on = enabled and stream.isatty()
        self._clock = clock
        self._start = clock()
        self._width = 0

    def __call__(self, done: int, total: int, label: str) -> None:
        """Show that ``done`` of ``total`` configurations are finished and ``label`` runs."""
        if not self._on:
            return
        line = f"bench [{done + 1}/{total}] {label}"
        if done:
            left = (self._clock() - self._start) / done * (total - done)
            line += f", about {_duration(left)} left"
        self._stream.write("\r" + line.ljust(self._width))
        self._stream.flush()
        self._width = len(line)

    def close(self) -> None:
        """Erase the line."""
        if self._on and self._width:
            self._stream.write("\r" + " " * self._width + "\r")
            self._stream.flush()


def _duration(seconds: float) -> str:
    s = round(seconds)
    return f"{s // 60}:{s % 60:02d}" if s >= 60 else f"{s} s"


def cmd_bench(args: argparse.Namespace) -> int:
    """Run the benchmark."""
    from cardcore._bench import machine_info, run_bench, to_markdown, to_table

    if args.seconds <= 0:
        raise ValueError("--seconds must be positive")
    if args.ismcts_iterations < 1:
        raise ValueError("--ismcts-iterations must be at least 1")
    progress = Progress(sys.stderr, enabled=not args.no_progress)
    try:
        results = run_bench(
            args.games or None,
            presets=args.preset,
            seconds=args.seconds,
            ismcts_iterations=args.ismcts_iterations,
            progress=progress,
        )
    finally:
        progress.close()
    info = machine_info()
    iters = args.ismcts_iterations
    if args.markdown:
        Path(args.markdown).write_text(
            to_markdown(results, info, ismcts_iterations=iters), encoding="utf-8"
        )
    if args.json:
        print(json.dumps({"machine": info, "results": [r.to_json() for r in results]}, indent=2))
        return 0
    print(to_table(results, info, ismcts_iterations=iters))
    if args.markdown:
        print(f"Markdown written to {args.markdown}")
    return 0
