"""HTML output of the command line: ``replay --html`` and ``arena --report``."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any, TextIO

__all__ = ["check_output", "check_report", "write_arena_report", "write_replay_html"]


def _check_folder(path: Path, flag: str) -> None:
    if not path.parent.is_dir():
        raise ValueError(f"{flag} {path}: folder {path.parent} does not exist")


def check_output(out: str, flag: str) -> None:
    """Refuse an output file that could not be written, before anything is played.

    Raises:
        ValueError: its folder is missing or not writable, or the path is a folder.
    """
    path = Path(out)
    _check_folder(path, flag)
    if path.is_dir():
        raise ValueError(f"{flag} {out}: is a folder; give a file name such as {path / 'x'}")
    if not os.access(path.parent, os.W_OK):
        raise ValueError(f"{flag} {out}: the folder {path.parent} is not writable")


def check_report(out: str, replays: int) -> None:
    """Refuse an ``arena --report`` that could not be written, before the arena runs."""
    check_output(out, "--report")
    if not 0 <= replays <= 1000:
        raise ValueError(f"--report-replays must be in 0-1000, got {replays}")


def write_replay_html(game: Any, record: Any, seat: int | None, out: str) -> int:
    """``cardcore replay FILE --html OUT``: the viewer, seen by ``seat`` or by every seat."""
    from cardcore._html import ALL_SEATS, replay_html
    from cardcore._table import SPECTATOR

    if seat is None:
        seat = ALL_SEATS if record.outcome is not None else SPECTATOR
    path = Path(out)
    _check_folder(path, "--html")
    page = replay_html(record, game, seat)
    path.write_text(page, encoding="utf-8")
    who = (
        "every seat" if seat == ALL_SEATS else "the table" if seat == SPECTATOR else f"seat {seat}"
    )
    print(f"wrote {out}: {len(record.actions)} steps seen by {who} ({len(page) // 1024} KiB)")
    return 0


def write_arena_report(result: Any, out: str, replays: int, log: TextIO | None = None) -> None:
    """``cardcore arena ... --report OUT``: the report, and replays of chosen games beside it.

    The replays are every forfeited game and the first games of the run, ``replays`` in
    all at most, written to ``OUT-replays/`` and linked from the report.

    Args:
        result: the arena's result.
        out: the report's file.
        replays: at most this many replay pages.
        log: where to say what was written (default: standard output).
    """
    from cardcore._host import default_host
    from cardcore._html import ALL_SEATS, arena_report_html, replay_html
    from cardcore._match_record import MatchRecord
    from cardcore.arena._store import Store

    path = Path(out)
    _check_folder(path, "--report")
    links: list[tuple[str, str]] = []
    if replays > 0 and result.db is not None:
        with Store(result.db) as store:
            rows = [r for r in store.games(result.run, records=True) if r.record is not None]
        chosen = [r for r in rows if r.forfeit is not None][:replays]
        chosen += [r for r in rows if r not in chosen][: replays - len(chosen)]
        chosen.sort(key=lambda r: (r.deal, r.arrangement))
        folder = path.with_name(path.stem + "-replays")
        folder.mkdir(exist_ok=True)
        names = [b.bot for b in result.bots]
        for r in chosen:
            record = MatchRecord.from_json(r.record, source=f"deal {r.deal}")
            game = default_host().load_game(record.game, **dict(record.options))
            page = folder / f"deal{r.deal}-seating{r.arrangement}.html"
            page.write_text(replay_html(record, game, ALL_SEATS), encoding="utf-8")
            who = ", ".join(names[e] for e in r.seats)
            note = f", forfeit: {r.reason}" if r.forfeit is not None else ""
            label = f"deal {r.deal}, seating {r.arrangement} ({who}){note}"
            links.append((label, f"{folder.name}/{page.name}"))
    path.write_text(arena_report_html(result.to_json(), links), encoding="utf-8")
    print(f"wrote {out} ({len(links)} replays linked)", file=log or sys.stdout)
