"""``cardcore replay FILE --json``: a recorded match as JSON, step by step.

Seen by the table, the document carries the record's header (seed, stacked deck and
all) and every action: it is for whoever holds the match record. Seen by one seat, it is
a *seat view* (format ``cardcore-seat-view/1``): what that seat may know and nothing
else. A seat view holds no seed and no deck, since either one rebuilds every hidden
card, and names only that seat's own actions. ``cardcore replay`` reads a seat view back
and shows it, but cannot replay or verify it: it does not hold what that needs.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

from cardcore._game import Game
from cardcore._match_record import (
    RECORD_FORMAT,
    MatchRecord,
    RecordError,
    initial_state_of,
    replay,
)
from cardcore._table import SPECTATOR

__all__ = ["SEAT_VIEW_FORMAT", "SEAT_VIEW_HEADER", "read_replay_file", "replay_json"]

SEAT_VIEW_FORMAT: Final = "cardcore-seat-view/1"
"""The ``format`` field of one seat's view of a match."""

SEAT_VIEW_HEADER: Final = (
    "game",
    "distribution",
    "version",
    "preset",
    "options",
    "num_players",
    "dealer",
    "bots",
)
"""The match record's fields a seat view keeps: the public facts of the match.

``seed`` and ``deck`` are left out (either rebuilds every hidden card), and so are the
actions (a seat knows of other seats' actions only what its observations say).
"""


def replay_json(record: MatchRecord, game: Game[Any, Any, Any], seat: int) -> dict[str, Any]:
    """The match as JSON-ready data, seen by ``seat`` (or by the table: ``SPECTATOR``).

    Each step carries its number, the seat that acted, the action's text and the
    observation after it. Seen by one seat, the actions of the other seats are ``null``
    (what that seat learnt of them is in its observation), as in the text form, and the
    document is a seat view: the record's public header without the seed or the deck,
    and of the transcripts bots logged (``MatchRecord.transcripts``) only that seat's,
    as ``transcript`` (another seat's would show its hidden cards).

    Args:
        record: the match.
        game: its rules, built from the record's options.
        seat: the observing seat, or ``SPECTATOR`` for the table.

    Returns:
        For the table: ``{"record": ..., "seen_by": "table", "initial": ..., "steps":
        [...], "outcome": ...}``. For a seat: ``{"format": "cardcore-seat-view/1",
        "game": ..., ..., "seen_by": SEAT, "initial": ..., "steps": [...], "outcome":
        ..., "transcript": [...]}`` (``transcript`` only when the seat's bot logged).
    """
    steps = []
    for step in replay(record, game):
        visible = seat in (SPECTATOR, step.seat)
        steps.append(
            {
                "index": step.index,
                "seat": step.seat,
                "action": str(step.action) if visible else None,
                "observation": game.observe(step.after, seat).to_json(),
            }
        )
    body = {
        "seen_by": "table" if seat == SPECTATOR else seat,
        "initial": game.observe(initial_state_of(record, game), seat).to_json(),
        "steps": steps,
        "outcome": None if record.outcome is None else record.outcome.to_json(),
    }
    header = record.to_json()
    if seat == SPECTATOR:
        header.pop("actions")
        return {"record": header, **body}
    own = list(record.transcripts[seat]) if record.transcripts else []
    return {
        "format": SEAT_VIEW_FORMAT,
        **{k: header[k] for k in SEAT_VIEW_HEADER},
        **body,
        **({"transcript": own} if own else {}),
    }


def read_replay_file(path: str) -> MatchRecord | dict[str, Any]:
    """Read what ``cardcore replay`` is given: a match record or one seat's view.

    Returns:
        The record, or the seat view as checked JSON data.

    Raises:
        RecordError: the file cannot be read, is not JSON, or is neither form (the
            table's ``--json`` output, which is not a record, is named as such).
    """
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise RecordError(f"{p}: cannot read: {e}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise RecordError(
            f"{p}: not valid JSON at line {e.lineno}, column {e.colno}: {e.msg}"
        ) from None
    if isinstance(data, dict) and data.get("format") == SEAT_VIEW_FORMAT:
        return _checked_seat_view(data, str(p))
    if (
        isinstance(data, dict)
        and "format" not in data
        and {"seen_by", "steps", "initial"} <= set(data)
    ):
        raise RecordError(
            f"{p}: this is the output of 'cardcore replay --json', not a match record: "
            "it cannot be replayed; give the match record it was made from"
        )
    if isinstance(data, dict) and data.get("format") != RECORD_FORMAT:
        fmt = data.get("format")
        raise RecordError(
            f"{p}: field 'format' is {fmt!r}, expected {RECORD_FORMAT!r} (a match record) "
            f"or {SEAT_VIEW_FORMAT!r} (one seat's view)"
        )
    return MatchRecord.from_json(data, source=str(p))


def _checked_seat_view(data: Mapping[str, Any], source: str) -> dict[str, Any]:
    """Check the fields of a seat view that showing it relies on.

    Raises:
        RecordError: naming the field that is missing or wrong.
    """
    kinds: dict[str, type | tuple[type, ...]] = {
        "game": str,
        "options": dict,
        "num_players": int,
        "seen_by": int,
        "initial": dict,
        "steps": list,
    }
    for name, kind in kinds.items():
        if name not in data:
            raise RecordError(f"{source}: field {name!r} is missing")
        value = data[name]
        if not isinstance(value, kind) or isinstance(value, bool):
            raise RecordError(f"{source}: field {name!r} has the wrong type ({value!r})")
    n, seat = data["num_players"], data["seen_by"]
    if not 0 <= seat < n:
        raise RecordError(f"{source}: field 'seen_by' is {seat}, not a seat 0-{n - 1}")
    for i, step in enumerate(data["steps"]):
        if (
            not isinstance(step, dict)
            or not isinstance(step.get("observation"), dict)
            or type(step.get("seat")) is not int
            or not isinstance(step.get("action"), str | None)
        ):
            raise RecordError(
                f"{source}: step #{i + 1} needs 'seat' (a number), 'action' (text or null) "
                "and 'observation' (an object)"
            )
    outcome = data.get("outcome")
    if outcome is not None and not isinstance(outcome, dict):
        raise RecordError(f"{source}: field 'outcome' has the wrong type ({outcome!r})")
    bots = data.get("bots")
    if bots is not None and not (isinstance(bots, list) and all(isinstance(b, str) for b in bots)):
        raise RecordError(f"{source}: field 'bots' must be a list of names")
    return dict(data)
