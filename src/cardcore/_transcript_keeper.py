"""What the bots of a match played one decision at a time logged, kept for its record.

The terminal (``play --human``), the web table and the MCP service play a match one
decision at a time, take decisions back (undo) and seat fresh bots. A
:class:`TranscriptKeeper` follows them: after each decision of a bot it keeps a copy of
the bot's transcript so far, and it writes the record's ``transcripts`` with
:func:`cardcore._engine.tag_transcripts`, as :func:`cardcore.play_match` does. Saving a
record never talks to a bot: the copy is taken between decisions, when no bot thinks.

The copy grows by the new entries only (:func:`cardcore._engine.transcript_after`): a
bot in its own process sends just those, so a match of many decisions does not move its
whole log again at each. A log that no longer starts with what is held (it shrank, or
its last entry held changed) is read whole again and replaces it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, final

import attrs

from cardcore._engine import MatchRecord, hook_limit, tag_transcripts, transcript_after
from cardcore._game import Game
from cardcore._isolation import entry_digest

__all__ = ["TranscriptKeeper"]


@final
class TranscriptKeeper:
    """The transcripts of one match: of the bots seated now, and of those before them.

    Args:
        record: the match so far (a resumed match's transcripts are kept); the bots seated
            now begin after its actions.
        time_limit: the bots' seconds per decision (a bot in its own process gets 10 times
            that to send its transcript; ``None``: a minute).
    """

    def __init__(self, record: MatchRecord, time_limit: float | None = None) -> None:
        n = record.num_players
        self._kept: list[list[Mapping[str, Any]]] = (
            [list(t) for t in record.transcripts] if record.transcripts else [[] for _ in range(n)]
        )
        self._first = len(record.actions)
        self._live: dict[int, Sequence[Mapping[str, Any]]] = {}
        self._read: dict[int, tuple[object, list[dict[str, Any]], str]] = {}
        """By ``id(bot)``: the bot, what it had logged when last read, its last entry's digest."""
        self.limit = hook_limit(time_limit) if time_limit is not None else None

    def read(self, bot: object) -> list[dict[str, Any]]:
        """What ``bot`` has logged so far (call it where the bot's decisions are asked).

        Only the entries after those read last time are asked for; a log that no longer
        starts with them is read whole (see :func:`cardcore._engine.transcript_after`).
        """
        held = self._read.get(id(bot))
        log, last = (held[1], held[2]) if held is not None and held[0] is bot else ([], "")
        start, new = transcript_after(bot, len(log), last, self.limit)
        if start == len(log) and not new:
            return log
        out = [*log[:start], *new]
        self._read[id(bot)] = (bot, out, entry_digest(out[-1]) if out else "")
        return out

    def keep(self, seat: int, log: Sequence[Mapping[str, Any]]) -> None:
        """Keep ``log`` (from :meth:`read`, after a decision) as the transcript of ``seat``'s bot."""
        if log or seat in self._live:
            self._live[seat] = log

    def note(self, seat: int, bot: object) -> None:
        """After a decision of ``seat``'s bot (taken or forfeited): keep its transcript."""
        self.keep(seat, self.read(bot))

    def record(self, game: Game[Any, Any, Any], record: MatchRecord) -> MatchRecord:
        """``record`` (the match so far) with every transcript kept.

        While it is unfinished, an entry of a decision that is not in it is left out.
        """
        out = self._tagged(game, record)
        if record.outcome is None:
            out = _before(out, len(record.actions))
        return out

    def restart(self, game: Game[Any, Any, Any], record: MatchRecord, at: int) -> None:
        """Fresh bots take over from decision ``at`` (``record``: the match before the change).

        What the bots logged of decision ``at`` and after (taken back) is dropped.
        """
        kept = _before(self._tagged(game, record), at).transcripts
        n = record.num_players
        self._kept = [list(t) for t in kept] if kept else [[] for _ in range(n)]
        self._live.clear()
        self._read.clear()
        self._first = at

    def _tagged(self, game: Game[Any, Any, Any], record: MatchRecord) -> MatchRecord:
        kept = tuple(tuple(k) for k in self._kept)
        base = attrs.evolve(record, transcripts=kept if any(kept) else ())
        logs = [self._live.get(s, ()) for s in range(record.num_players)]
        return tag_transcripts(game, base, logs, self._first)


def _before(record: MatchRecord, end: int) -> MatchRecord:
    """The record without the transcript entries of decision ``end`` and later."""

    def early(entry: Mapping[str, Any]) -> bool:
        index = entry.get("index")
        return type(index) is not int or index < end

    seats = tuple(tuple(e for e in t if early(e)) for t in record.transcripts)
    return attrs.evolve(record, transcripts=seats if any(seats) else ())
