"""``cardcore arena``: a duplicate-deal tournament between bots, from the shell."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from cardcore._engine import TIME_MARGIN
from cardcore.arena._run import DEFAULT_TIME_LIMIT, MAX_DEALS, MAX_GAMES
from cardcore.cli._common import SEARCH_SECONDS_HELP, SEARCH_WORKERS_HELP

__all__ = ["cmd_arena", "register"]

_DESCRIPTION = """\
Play a tournament between bots and report, per bot, games, mean score, win share and
mean placing with 95% confidence intervals, plus openskill ratings.

--games counts deals: each deal is played once in every arrangement of the bots over
the seats (same cards each time), so a run has DEALS x ARRANGEMENTS games (at most
{max_deals} deals and {max_games} games per run). A bot is a
registered id (see 'cardcore list') or an import path package.module:Class, with
options after colons: --bots ismcts:iterations=200,random. --search-seconds S gives
every search bot (ismcts, pimc) S seconds a decision.

Every finished game is committed to the SQLite database (--db) at once. Rerunning the
same command resumes an interrupted run (stored games are verified by replaying them
first; any that do not verify are played again); a different configuration under the
same run name (--name, default: the game id) is refused unless --fresh or a new --name
is given.
"""


def register(sub: Any) -> None:
    """Add the ``arena`` sub-command to the ``cardcore`` parser."""
    p = sub.add_parser(
        "arena",
        help="run a tournament between bots",
        description=_DESCRIPTION.format(max_deals=f"{MAX_DEALS:,}", max_games=f"{MAX_GAMES:,}"),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("game", help="game id (see 'cardcore list')")
    p.add_argument(
        "--bots",
        required=True,
        help="comma-separated bots: ids or module:Class paths, with :key=value options",
    )
    p.add_argument(
        "--games",
        type=int,
        required=True,
        metavar="DEALS",
        help="number of deals; each is played in every seating arrangement",
    )
    p.add_argument("--preset", default="default", help="rules preset (default: %(default)s)")
    p.add_argument(
        "--option", "-o", action="append", metavar="K=V", help="override one option; repeatable"
    )
    p.add_argument("--seed", type=int, default=0, help="arena seed (default: %(default)s)")
    p.add_argument(
        "--players",
        type=int,
        help="seats per game (default: one per bot if the game allows, else its minimum)",
    )
    p.add_argument(
        "--seating",
        choices=("all", "rotate"),
        default="all",
        help="every arrangement of the bots per deal, or only rotations (default: %(default)s)",
    )
    p.add_argument(
        "--workers",
        type=int,
        help="local worker processes (default: one per CPU; 0: in this process, no isolation)",
    )
    p.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="run the games on this Dask scheduler (tcp://host:8786); needs cardcore[dask]",
    )
    p.add_argument(
        "--db",
        default="cardcore-arena.sqlite",
        metavar="FILE",
        help="SQLite results file (default: %(default)s)",
    )
    p.add_argument("--name", metavar="RUN", help="run name in the database (default: the game id)")
    p.add_argument(
        "--fresh", action="store_true", help="discard the stored run of that name and start over"
    )
    p.add_argument(
        "--time-limit",
        type=float,
        default=DEFAULT_TIME_LIMIT,
        metavar="SECONDS",
        help=(
            "seconds per decision (default: %(default)s); a slower bot forfeits, and one "
            f"that has not answered {TIME_MARGIN:g} s after the limit is stopped"
        ),
    )
    p.add_argument(
        "--search-seconds",
        type=float,
        metavar="SECONDS",
        help=SEARCH_SECONDS_HELP.replace(
            "--time-limit", f"--time-limit (default {DEFAULT_TIME_LIMIT:g})"
        ),
    )
    p.add_argument("--search-workers", type=int, metavar="N", help=SEARCH_WORKERS_HELP)
    p.add_argument(
        "--concurrency",
        type=int,
        default=1,
        metavar="N",
        help=(
            "games each worker plays at once, in threads (default: %(default)s): for bots "
            "that wait on a network rather than the CPU, such as llm; the results are the "
            "same whatever N"
        ),
    )
    p.add_argument(
        "--no-time-limit",
        action="store_true",
        help="no time limit (a bot that never answers then stops the arena)",
    )
    p.add_argument(
        "--isolation",
        choices=("auto", "process", "none"),
        default="auto",
        help=(
            "run bots in processes of their own, fed only serialised observations: "
            "'auto' (default) for import-path bots and bots of third-party plugins, "
            "'process' for every bot, 'none' for no bot"
        ),
    )
    p.add_argument(
        "--sandbox",
        action=argparse.BooleanOptionalAction,
        default=None,
        help=(
            "run the isolated bots under bubblewrap (bwrap): no other processes in view, "
            "no network, a read-only file system without the database or your home "
            "(default: on when a bot comes from an import path or a third-party plugin)"
        ),
    )
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.add_argument("--csv", metavar="FILE", help="also write per-bot results as CSV")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument(
        "--report", metavar="OUT", help="also write an HTML report (plots, replays) to this file"
    )
    p.add_argument(
        "--report-replays",
        type=int,
        default=5,
        metavar="N",
        help="games with a replay page in the report: forfeits first (default: %(default)s)",
    )
    p.set_defaults(func=cmd_arena)


def _print_rich(result: Any) -> None:
    """Draw the report as a rich table; too narrow a terminal gets the plain text."""
    from rich import box
    from rich.console import Console
    from rich.table import Table

    console = Console()
    plain = result.table()
    rows = result.rows()
    widest_row = max(len(line) for line in plain.splitlines()[2 : 4 + len(rows)])
    if not rows or console.width < widest_row + 2 * len(rows[0]):
        print(plain)
        return
    table = Table(title=result.headline(), title_justify="left", box=box.SIMPLE_HEAD)
    for col in rows[0]:
        table.add_column(col, justify="left" if col == "bot" else "right", no_wrap=True)
    for row in rows:
        table.add_row(*row.values())
    console.print(table)
    for line in result.notes():
        console.print(line, highlight=False, markup=False)


def _untrusted(bots: Any) -> bool:
    """Whether a bot comes from an import path or a third-party plugin."""
    from cardcore._host import default_host
    from cardcore.arena._run import isolated_entries

    return any(isolated_entries(bots, "auto", default_host()))


def _wants_sandbox(args: argparse.Namespace, bots: Any) -> bool:
    """``--sandbox``, or by default: an untrusted bot that runs in a process of its own."""
    if args.sandbox is not None:
        return bool(args.sandbox)
    return args.isolation != "none" and _untrusted(bots)


def cmd_arena(args: argparse.Namespace) -> int:
    """Run the arena and print its report (table, or JSON with ``--json``)."""
    from cardcore.arena import parse_bots, run_arena
    from cardcore.cli._common import CliError, _parse_kv, with_search_seconds

    options = _parse_kv(args.option or [], "--option")
    time_limit = None if args.no_time_limit else args.time_limit
    bot_text = with_search_seconds(args.bots, args.search_seconds, time_limit)
    from cardcore.bots._parallel import cpus, with_search_workers
    from cardcore.cli._report import check_output, check_report

    try:
        arena = cpus() if args.workers is None else args.workers
        bot_text = with_search_workers(bot_text, args.search_workers, arena)
    except ValueError as e:
        raise CliError(str(e)) from None

    # Every output is checked before playing, not after a long run.
    if args.report:
        check_report(args.report, args.report_replays)
    if args.csv:
        check_output(args.csv, "--csv")
    bots = parse_bots(bot_text)
    if any(b.is_import_path for b in bots) and os.getcwd() not in sys.path and "" not in sys.path:
        # Import-path bots resolve from the current directory, as with ``python -m``;
        # worker processes inherit the path. Appended, so it shadows nothing installed.
        sys.path.append(os.getcwd())
    try:
        result = run_arena(
            args.game,
            bots,
            games=args.games,
            preset=args.preset,
            options=options,
            seed=args.seed,
            players=args.players,
            seating=args.seating,
            workers=args.workers,
            scheduler=args.scheduler,
            db=args.db,
            name=args.name,
            fresh=args.fresh,
            time_limit=time_limit,
            progress=False if args.no_progress else None,
            isolation=args.isolation,
            sandbox=_wants_sandbox(args, bots),
            deal_secret=_untrusted(bots),
            concurrency=args.concurrency,
        )
    except KeyboardInterrupt:
        print(
            "cardcore arena: interrupted; finished games are stored: "
            "run the same command again to resume",
            file=sys.stderr,
        )
        return 130
    # With --json, standard output is the JSON document only; messages go to stderr.
    log = sys.stderr if args.json else sys.stdout
    if args.csv:
        try:
            result.write_csv(args.csv)
        except OSError as e:
            raise ValueError(
                f"--csv {args.csv}: cannot write it ({e.strerror or e}); the games are stored "
                f"in {result.db or 'memory'}: run the same command with another --csv"
            ) from None
    if args.report:
        from cardcore.cli._report import write_arena_report

        write_arena_report(result, args.report, args.report_replays, log=log)
    if args.json:
        print(json.dumps(result.to_json(), indent=2, ensure_ascii=False))
    elif sys.stdout.isatty():
        _print_rich(result)
    else:
        print(result.table())
    return 0
