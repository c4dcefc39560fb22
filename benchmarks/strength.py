"""Measure bot strength on every game and write benchmarks/strength.md.

Each line is an arena run: duplicate deals, every arrangement of the bots over the
seats, win share (ties split) with a 95% confidence interval over deals. Run with::

    .venv/bin/python benchmarks/strength.py [--deals N] [--iterations K] [--workers W]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from cardcore.arena import run_arena

GAMES = ("nyuri", "noddy", "box", "nestors")
OPTIONS = {"nestors": {"threshold": 200}}
"""Shorter Nestors matches (to 200, not 1000): ISMCTS plays every rollout to the end."""


def main() -> None:
    """Run the matchups and write the Markdown table."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--deals", type=int, default=20)
    ap.add_argument("--iterations", type=int, default=100)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", default=str(Path(__file__).with_name("strength.md")))
    ap.add_argument("--game", action="append", choices=GAMES, help="only these games")
    args = ap.parse_args()
    ismcts = f"ismcts:iterations={args.iterations}"
    rows = []
    for game in args.game or GAMES:
        heuristic = f"{game}-heuristic"
        for a, b in ((ismcts, "random"), (ismcts, heuristic), (heuristic, "random")):
            t0 = time.perf_counter()
            result = run_arena(
                game,
                [a, b],
                games=args.deals,
                seed=1,
                workers=args.workers,
                options=OPTIONS.get(game),
            )
            took = time.perf_counter() - t0
            stats = {s.name: s for s in result.bots}
            first = next(s for s in result.bots if s.name == a.split(":")[0] or s.bot == a)
            e = first.win_share
            ci = (
                f"[{e.low:.2f}, {e.high:.2f}]"
                if e.low is not None and e.high is not None
                else "n/a"
            )
            label = game + "".join(f" {k}={v}" for k, v in OPTIONS.get(game, {}).items())
            rows.append(
                f"| {label} | {a} | {b} | {first.games} | {e.mean:.3f} | {ci} | {took:.0f} s |"
            )
            print(rows[-1], flush=True)
            del stats
    text = "\n".join(
        [
            "# Bot strength",
            "",
            f"Duplicate deals ({args.deals} per matchup, every arrangement of the two bots over "
            "the seats; in 4-seat games each bot fills two seats, as partners in Nestors). "
            "Win share of the first bot: 1 per game won alone, ties split; 0.5 means even. "
            "95% confidence interval over deals. Regenerate with `python benchmarks/strength.py`.",
            "",
            "| game | bot | against | games | win share | 95% CI | time |",
            "|---|---|---|---|---|---|---|",
            *rows,
            "",
        ]
    )
    Path(args.out).write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
