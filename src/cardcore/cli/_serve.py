"""``cardcore serve``: the Model Context Protocol server (see :mod:`cardcore._mcp`)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from cardcore._service import BOT_SECONDS, IDLE_SECONDS, MAX_MATCHES

__all__ = ["register"]


def register(sub: Any) -> None:
    """Add ``serve`` to the sub-commands."""
    p = sub.add_parser(
        "serve",
        help="offer every installed game to LLM agents over MCP",
        description="Run a Model Context Protocol server over stdio: an MCP client (an LLM "
        "agent) lists the installed games, starts matches against installed bots and plays "
        "them by action text, seeing only its own seats' observations. Needs the 'mcp' "
        "extra: pip install './[mcp]' in a cardcore checkout, or pip install mcp.",
    )
    p.add_argument(
        "--bot-seconds",
        type=float,
        default=BOT_SECONDS,
        help="time limit of the other seats' bots per decision (default: %(default)s)",
    )
    p.add_argument(
        "--idle-minutes",
        type=float,
        default=IDLE_SECONDS / 60,
        help="drop a match nobody asked about for this long (default: %(default)s)",
    )
    p.add_argument(
        "--max-matches",
        type=int,
        default=MAX_MATCHES,
        help="matches running at once (default: %(default)s)",
    )
    p.add_argument(
        "--seed",
        type=int,
        default=None,
        help="deal the n-th match (1, 2, ...) with seed SEED + n - 1, so that a run can be "
        "repeated; without it every match's seed is drawn at random. Agents cannot choose "
        "or learn the seed before their match is over",
    )
    p.add_argument(
        "--record",
        metavar="DIR",
        default=None,
        help="write each finished match's full record (every seat's transcript too) to DIR "
        "as GAME-MATCH.cardcore.json, for 'cardcore replay'; DIR is created, no file is "
        "overwritten. Keep DIR out of the agents' reach: a record shows the bots' prompts",
    )
    p.set_defaults(func=cmd_serve)


def cmd_serve(args: argparse.Namespace) -> int:
    """Serve over stdio until the client closes the connection."""
    if not 0 < args.bot_seconds <= 3600:
        raise ValueError(f"--bot-seconds must be in (0, 3600], got {args.bot_seconds}")
    if not 0 < args.idle_minutes <= 7 * 24 * 60:
        raise ValueError(f"--idle-minutes must be in (0, 10080], got {args.idle_minutes}")
    if not 1 <= args.max_matches <= 10_000:
        raise ValueError(f"--max-matches must be in 1-10000, got {args.max_matches}")
    if args.seed is not None and args.seed < 0:
        raise ValueError(f"--seed must be a whole number >= 0, got {args.seed}")
    record = _record_folder(args.record) if args.record is not None else None
    try:
        from cardcore._mcp import serve
    except ModuleNotFoundError as e:
        if e.name is not None and e.name.split(".")[0] == "mcp":
            raise ValueError(
                "serve needs the MCP SDK: pip install './[mcp]' in a cardcore checkout, or pip install mcp"
            ) from None
        raise
    if sys.stdin.isatty():  # a person ran it: say what it waits for
        print(
            "cardcore serve: waiting for an MCP client on standard input (an LLM agent "
            "starts this command itself; see the docs' MCP page). Ctrl-C stops it.",
            file=sys.stderr,
        )
    serve(
        bot_seconds=args.bot_seconds,
        idle_seconds=args.idle_minutes * 60,
        max_matches=args.max_matches,
        seed=args.seed,
        record=record,
    )
    return 0


def _record_folder(text: str) -> Path:
    """The ``--record`` folder, created if missing.

    Raises:
        ValueError: it is not a folder, or cannot be created.
    """
    folder = Path(text)
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"--record {text}: not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise ValueError(f"--record {text}: cannot create the folder: {e.strerror or e}") from None
    return folder
