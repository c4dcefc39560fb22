"""``cardcore bench``: measure every installed game (or some) and optionally keep the numbers."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

__all__ = ["register"]


def register(sub: Any) -> None:
    """Add ``bench`` to the sub-commands."""
    p = sub.add_parser(
        "bench",
        help="measure game speed",
        description="Measure random-playout decisions/s, per-call costs, engine overhead, "
        "ISMCTS iterations/s and state size for installed games.",
    )
    p.add_argument("games", nargs="*", help="game ids (default: every installed game)")
    p.add_argument("--preset", action="append", help="only these presets (repeatable)")
    p.add_argument(
        "--seconds",
        type=float,
        default=2.0,
        help="playout time per configuration (default: %(default)s)",
    )
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--markdown", metavar="FILE", help="also write the results as a Markdown page")
    p.set_defaults(func=cmd_bench)


def cmd_bench(args: argparse.Namespace) -> int:
    """Run the benchmark."""
    from cardcore._bench import machine_info, run_bench, to_markdown

    if args.seconds <= 0:
        raise ValueError("--seconds must be positive")

    def progress(line: str) -> None:
        print(f"  benching {line} ...", file=sys.stderr, flush=True)

    results = run_bench(
        args.games or None, presets=args.preset, seconds=args.seconds, progress=progress
    )
    info = machine_info()
    if args.markdown:
        Path(args.markdown).write_text(to_markdown(results, info), encoding="utf-8")
    if args.json:
        print(json.dumps({"machine": info, "results": [r.to_json() for r in results]}, indent=2))
        return 0
    print(to_markdown(results, info))
    return 0
