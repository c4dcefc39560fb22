"""Measure the search bots' strength on every game and write benchmarks/strength.md.

For every game, default ``ismcts`` and ``pimc`` (no options: each game's search hints
and the bots' default budgets) play against the game's heuristic and against random,
and the heuristic plays random as a reference. Each line is an arena run: duplicate
deals, every arrangement of the two bots over the seats (in 4-seat games each bot fills
two seats, as partners in Nestors), win share of the first bot (ties split; 0.5 means
even) with a 95% confidence interval over deals. Everything derives from ``--seed``, so
a run with an iteration budget is reproducible; a time budget (``--seconds``) makes the
play depend on the machine's speed.

Examples::

    # what benchmarks/strength.md records (see its header for the exact command)
    .venv/bin/python benchmarks/strength.py --deals 20 --workers 2
    # the full target: 1 s a decision, full-length Nestors, intervals near +-0.05
    .venv/bin/python benchmarks/strength.py --seconds 1 --deals 200 --nestors-threshold 1000 \\
        --workers 16
    # one game, one matchup of your own
    .venv/bin/python benchmarks/strength.py --game noddy --matchup ismcts:iterations=800,noddy-heuristic
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import sys
import time
from pathlib import Path
from typing import Any

from cardcore.arena import run_arena

GAMES = ("nyuri", "noddy", "box", "nestors")
NOTES_MARKER = "<!-- notes: kept when the file is regenerated -->"


def _budget(bot: str, args: argparse.Namespace) -> str:
    if args.seconds is not None:
        return f"{bot}:seconds={args.seconds}"
    if bot == "ismcts" and args.iterations is not None:
        return f"{bot}:iterations={args.iterations}"
    if bot == "pimc" and args.determinizations is not None:
        return f"{bot}:determinizations={args.determinizations}"
    return bot


def matchups(game: str, args: argparse.Namespace) -> list[tuple[str, str]]:
    """The pairs to play for one game: the search bots against heuristic and random."""
    if args.matchup:
        return [tuple(m.split(",", 1)) for m in args.matchup]  # type: ignore[misc]
    heuristic = f"{game}-heuristic"
    out = []
    for bot in args.bots:
        entry = _budget(bot, args)
        out += [(entry, heuristic), (entry, "random")]
    out.append((heuristic, "random"))
    return out


def _ci(e: Any) -> str:
    if e.low is None or e.high is None:
        return "n/a"
    return f"[{e.low:.3f}, {e.high:.3f}]"


def main(argv: list[str] | None = None) -> None:
    """Run the matchups and write the Markdown table."""
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--deals", type=int, default=20, help="deals per matchup (default 20)")
    ap.add_argument(
        "--deals-for",
        action="append",
        default=[],
        metavar="GAME=N",
        help="deals per matchup for one game (repeatable), e.g. nestors=10",
    )
    ap.add_argument("--seed", type=int, default=1, help="the arena seed (default 1)")
    ap.add_argument("--workers", type=int, default=2, help="worker processes (0: in process)")
    budget = ap.add_argument_group("budget (default: each bot's own defaults)")
    budget.add_argument("--seconds", type=float, help="seconds a decision for both search bots")
    budget.add_argument("--iterations", type=int, help="ISMCTS iterations a decision")
    budget.add_argument("--determinizations", type=int, help="PIMC samples a decision")
    ap.add_argument(
        "--nestors-threshold",
        type=int,
        default=200,
        help="Nestors match length in points (the rules' default is 1000; default 200)",
    )
    ap.add_argument("--game", action="append", choices=GAMES, help="only these games")
    ap.add_argument(
        "--bots",
        default="ismcts,pimc",
        type=lambda s: s.split(","),
        help="search bots to measure (default ismcts,pimc)",
    )
    ap.add_argument(
        "--matchup", action="append", help="play only this pair instead: BOT,AGAINST (repeatable)"
    )
    ap.add_argument("--out", default=str(Path(__file__).with_name("strength.md")))
    ap.add_argument("--no-write", action="store_true", help="print the rows only")
    args = ap.parse_args(argv)
    games = args.game or list(GAMES)
    deals = dict.fromkeys(GAMES, args.deals)
    for item in args.deals_for:
        name, _, n = item.partition("=")
        if name not in deals or not n.isdigit() or int(n) < 1:
            ap.error(f"--deals-for {item!r}: expected GAME=N with a game of {', '.join(GAMES)}")
        deals[name] = int(n)
    rows = []
    started = time.perf_counter()
    for game in games:
        options = {"threshold": args.nestors_threshold} if game == "nestors" else {}
        label = game + "".join(f" {k}={v}" for k, v in options.items())
        for a, b in matchups(game, args):
            t0 = time.perf_counter()
            result = run_arena(
                game, [a, b], games=deals[game], seed=args.seed, workers=args.workers,
                options=options,
            )  # fmt: skip
            took = time.perf_counter() - t0
            first = result.bots[0] if result.bots[0].bot == a else result.bots[1]
            e = first.win_share
            verdict = ""
            if e.low is not None and e.high is not None:
                verdict = "above" if e.low > 0.5 else "below" if e.high < 0.5 else "level"
            rows.append(
                f"| {label} | `{a}` | `{b}` | {result.deals} | {first.games} | {e.mean:.3f} "
                f"| {_ci(e)} | {verdict} | {took:.0f} s |"
            )
            print(rows[-1], flush=True)
    total = time.perf_counter() - started
    command = "python benchmarks/strength.py " + " ".join(sys.argv[1:] if argv is None else argv)
    if args.no_write:
        return
    out = Path(args.out)
    notes = ""
    if out.exists():
        old = out.read_text(encoding="utf-8")
        if NOTES_MARKER in old:
            notes = old[old.index(NOTES_MARKER) :]
    text = "\n".join(
        [
            "# Bot strength",
            "",
            "Duplicate deals, every arrangement of the two bots over the seats (in 4-seat games "
            "each bot fills two seats, as partners in Nestors). Win share of the first bot: 1 per "
            "game won alone, ties split, so 0.5 means even; 95% confidence interval over deals; "
            "*above* or *below* when the whole interval is on one side of 0.5.",
            "",
            f"Produced by `{command.strip()}` on {datetime.date.today().isoformat()} "
            f"({platform.python_implementation()} {platform.python_version()}, "
            f"{os.cpu_count()} CPUs shared with other work; {total / 60:.0f} min in all).",
            "",
            "| game | bot | against | deals | games | win share | 95% CI | vs 0.5 | time |",
            "|---|---|---|---|---|---|---|---|---|",
            *rows,
            "",
            notes or NOTES_MARKER + "\n",
        ]
    )
    out.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
