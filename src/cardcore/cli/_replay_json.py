"""``cardcore replay FILE --json``: a recorded match as JSON, step by step."""

from __future__ import annotations

from typing import Any

from cardcore._engine import MatchRecord, initial_state_of, replay
from cardcore._game import Game
from cardcore._table import SPECTATOR

__all__ = ["replay_json"]


def replay_json(record: MatchRecord, game: Game[Any, Any, Any], seat: int) -> dict[str, Any]:
    """The match as JSON-ready data, seen by ``seat`` (or by the table: ``SPECTATOR``).

    Each step carries its number, the seat that acted, the action's text and the
    observation after it. Seen by one seat, the actions of the other seats are ``null``
    (what that seat learnt of them is in its observation), as in the text form.

    Args:
        record: the match.
        game: its rules, built from the record's options.
        seat: the observing seat, or ``SPECTATOR`` for the table.

    Returns:
        ``{"record": ..., "seen_by": ..., "initial": ..., "steps": [...], "outcome": ...}``.
    """
    header = record.to_json()
    header.pop("actions")
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
    return {
        "record": header,
        "seen_by": "table" if seat == SPECTATOR else seat,
        "initial": game.observe(initial_state_of(record, game), seat).to_json(),
        "steps": steps,
        "outcome": None if record.outcome is None else record.outcome.to_json(),
    }
