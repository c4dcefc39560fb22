"""A match's record, and its replay: what is needed to play a match again exactly.

A :class:`MatchRecord` is saved as versioned JSON; :func:`replay` steps through its
actions, and :func:`verify` checks that they lead to the outcome it carries. The engine
(:mod:`cardcore._engine`) writes records; the arena, ``play``, ``replay`` and the web
table read them.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, Final, final

import attrs

from cardcore._cards import parse_card
from cardcore._game import Game, IllegalActionError, Outcome
from cardcore._host import default_host
from cardcore._options import OptionError

__all__ = [
    "RECORD_FORMAT",
    "MatchRecord",
    "RecordError",
    "Step",
    "check_outcome",
    "initial_state_of",
    "replay",
    "verify",
]

RECORD_FORMAT: Final = "cardcore-match/1"


@final
class RecordError(ValueError):
    """A record file that cannot be read or does not replay; the message says where."""


@final
@attrs.frozen(kw_only=True)
class MatchRecord:
    """Everything needed to replay a match exactly; saved as versioned JSON.

    The actions are stored as their text forms, one per line of the file.
    """

    game: str
    """Game id."""
    options: Mapping[str, Any]
    """Every option of the game, by name."""
    num_players: int
    """Number of seats."""
    seed: int
    """The seed of the state's RNG."""
    actions: tuple[str, ...]
    """The decisions in order, as text."""
    preset: str = "default"
    """The preset the options were built from (for information; ``options`` is complete)."""
    distribution: str = ""
    """The distribution that provided the game."""
    version: str = ""
    """Its version when the match was played."""
    dealer: int | None = None
    """The dealer given at setup, or ``None`` when the rules chose."""
    deck: tuple[str, ...] | None = None
    """A stacked deck (top first) given at setup, or ``None`` for a shuffle."""
    bots: tuple[str, ...] = ()
    """Who sat in each seat (bot names, ``human``)."""
    outcome: Outcome | None = None
    """The result, once the match is over."""
    transcripts: tuple[tuple[Mapping[str, Any], ...], ...] = ()
    """Per seat, what its bot logged of each of its decisions (see ``match_transcript``
    in :func:`play_match`); ``()`` when no bot logged anything. Each entry is JSON data
    with ``index``, the index in :attr:`actions` of the decision it belongs to. A seat's
    entries may hold its hidden cards: a seat's view shows only its own."""

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {
            "format": RECORD_FORMAT,
            "game": self.game,
            "distribution": self.distribution,
            "version": self.version,
            "preset": self.preset,
            "options": dict(self.options),
            "num_players": self.num_players,
            "seed": self.seed,
            "dealer": self.dealer,
            "deck": list(self.deck) if self.deck is not None else None,
            "bots": list(self.bots),
            "outcome": self.outcome.to_json() if self.outcome is not None else None,
            "actions": list(self.actions),
            **({"transcripts": [list(t) for t in self.transcripts]} if self.transcripts else {}),
        }

    def dumps(self) -> str:
        """The record as JSON text, one action per line."""
        return json.dumps(self.to_json(), indent=1, ensure_ascii=False) + "\n"

    def save(self, path: str | Path) -> None:
        """Write the record to a file (atomically: a crash never leaves half a file)."""
        p = Path(path)
        tmp = p.with_name(p.name + ".tmp")
        tmp.write_text(self.dumps(), encoding="utf-8")
        tmp.replace(p)

    @classmethod
    def from_json(cls, data: Any, *, source: str = "record") -> MatchRecord:
        """Build from JSON data, checking every field.

        Raises:
            RecordError: naming the field that is missing or wrong.
        """
        if not isinstance(data, dict):
            raise RecordError(f"{source}: expected a JSON object at the top level")
        fmt = data.get("format")
        if fmt != RECORD_FORMAT:
            raise RecordError(f"{source}: field 'format' is {fmt!r}, expected {RECORD_FORMAT!r}")

        def need(name: str, kind: type | tuple[type, ...], optional: bool = False) -> Any:
            if name not in data:
                if optional:
                    return None
                raise RecordError(f"{source}: field {name!r} is missing")
            v = data[name]
            if v is None and optional:
                return None
            if not isinstance(v, kind) or (kind is int and isinstance(v, bool)):
                raise RecordError(f"{source}: field {name!r} has the wrong type ({v!r})")
            return v

        actions = need("actions", list)
        for i, a in enumerate(actions):
            if not isinstance(a, str):
                raise RecordError(f"{source}: action #{i + 1} is not a string ({a!r})")
        deck = need("deck", list, optional=True)
        if deck is not None:
            for i, c in enumerate(deck):
                try:
                    parse_card(str(c))
                except ValueError as e:
                    raise RecordError(f"{source}: field 'deck', card #{i + 1}: {e}") from None
        outcome_data = need("outcome", dict, optional=True)
        try:
            outcome = Outcome.from_json(outcome_data) if outcome_data is not None else None
        except (KeyError, ValueError, TypeError) as e:
            raise RecordError(f"{source}: field 'outcome' is malformed ({e})") from None
        return cls(
            game=need("game", str),
            options=need("options", dict),
            num_players=need("num_players", int),
            seed=need("seed", int),
            actions=tuple(actions),
            preset=need("preset", str, optional=True) or "default",
            distribution=need("distribution", str, optional=True) or "",
            version=need("version", str, optional=True) or "",
            dealer=need("dealer", int, optional=True),
            deck=tuple(deck) if deck is not None else None,
            bots=tuple(str(b) for b in (need("bots", list, optional=True) or [])),
            outcome=outcome,
            transcripts=_transcripts(need("transcripts", list, optional=True), data, source),
        )

    @classmethod
    def loads(cls, text: str, *, source: str = "record") -> MatchRecord:
        """Parse JSON text.

        Raises:
            RecordError: with the line and column of a JSON error, or the bad field.
        """
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise RecordError(
                f"{source}: not valid JSON at line {e.lineno}, column {e.colno}: {e.msg}"
            ) from None
        return cls.from_json(data, source=source)

    @classmethod
    def load(cls, path: str | Path) -> MatchRecord:
        """Read a record file.

        Raises:
            RecordError: the file is missing, unreadable or malformed.
        """
        p = Path(path)
        try:
            text = p.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise RecordError(f"{p}: cannot read: {e}") from None
        return cls.loads(text, source=str(p))

    def action_line(self, index: int) -> int | None:
        """The line of the saved file holding action ``index`` (0-based), if saved by us."""
        lines = self.dumps().splitlines()
        for n, line in enumerate(lines, start=1):
            if line.startswith(' "actions": ['):
                return n + 1 + index
        return None


def _transcripts(
    data: list[Any] | None, record: Mapping[str, Any], source: str
) -> tuple[tuple[Mapping[str, Any], ...], ...]:
    """The ``transcripts`` field checked: one list of objects per seat (absent: none).

    Raises:
        RecordError: naming what is wrong.
    """
    if not data:
        return ()
    if len(data) != record.get("num_players"):
        raise RecordError(f"{source}: field 'transcripts' needs one list per seat")
    for seat, entries in enumerate(data):
        if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
            raise RecordError(f"{source}: field 'transcripts', seat {seat}: not a list of objects")
    return tuple(tuple(entries) for entries in data)


@final
@attrs.frozen
class Step:
    """One decision in a replay: the state before it, who acted and what."""

    index: int
    """0-based decision number."""
    seat: int
    """The seat that decided."""
    action: Any
    """The action."""
    before: Any
    """The state before the action."""
    after: Any
    """The state after it."""


def _game_for(record: MatchRecord, game: Game[Any, Any, Any] | None) -> Game[Any, Any, Any]:
    if game is not None:
        return game
    host = default_host()
    try:
        return host.load_game(record.game, **dict(record.options))
    except OptionError as e:
        raise RecordError(f"field 'options': {e}") from None
    except LookupError as e:
        raise RecordError(f"field 'game': {e}") from None


def initial_state_of(record: MatchRecord, game: Game[Any, Any, Any]) -> Any:
    """The starting state a record describes."""
    deck = tuple(parse_card(c) for c in record.deck) if record.deck is not None else None
    try:
        return game.initial_state(record.num_players, record.seed, dealer=record.dealer, deck=deck)
    except ValueError as e:
        raise RecordError(f"setup (num_players, dealer, deck): {e}") from None


def replay(record: MatchRecord, game: Game[Any, Any, Any] | None = None) -> Iterator[Step]:
    """Replay a record decision by decision.

    Raises:
        RecordError: an action that does not parse or is illegal (with its number and
            the line of the file), or a game/options that cannot be built.
    """
    game = _game_for(record, game)
    return _steps(record, game, initial_state_of(record, game))


def _steps(record: MatchRecord, game: Game[Any, Any, Any], state: Any) -> Iterator[Step]:
    """Apply a record's actions from ``state``, one step at a time."""
    for i, text in enumerate(record.actions):
        seat = game.current_player(state)
        if seat is None:
            raise RecordError(f"{_where(record, i)}: the game was already over")
        try:
            action = game.parse_action(text)
            after = game.apply(state, action)
        except IllegalActionError as e:
            raise RecordError(f"{_where(record, i)}: illegal for seat {seat}: {e.reason}") from None
        except ValueError as e:
            raise RecordError(f"{_where(record, i)}: {e}") from None
        yield Step(i, seat, action, state, after)
        state = after


def _where(record: MatchRecord, index: int) -> str:
    """Name an action of a record for an error: its number, text and file line."""
    where = f"action #{index + 1} {record.actions[index]!r}"
    line = record.action_line(index)
    return where if line is None else f"{where} (line {line})"


def verify(record: MatchRecord, game: Game[Any, Any, Any] | None = None) -> Any:
    """Replay a record and check that its outcome is the one its actions give.

    A record whose actions play to the end must carry exactly the game's outcome. A
    forfeit cannot be replayed (it depends on what a bot did), so a record with a forfeit
    must stop before the game is over, name the seat that was to move (any seat, if it
    has no actions: a bot that failed to start), and give the scores of
    :meth:`Outcome.forfeited`. A record without an outcome is an unfinished match.

    Returns:
        The final state.

    Raises:
        RecordError: the replay fails or the recorded outcome is not the one it gives.
    """
    game = _game_for(record, game)
    state = initial_state_of(record, game)
    for step in _steps(record, game, state):
        state = step.after
    check_outcome(record, game, state)
    return state


def check_outcome(record: MatchRecord, game: Game[Any, Any, Any], state: Any) -> None:
    """Check ``record.outcome`` against the state its actions lead to (see :func:`verify`).

    Raises:
        RecordError: naming what disagrees.
    """
    out = record.outcome
    to_move = game.current_player(state)
    if to_move is None:
        got = game.outcome(state)
        shown = got.to_json() if got is not None else None
        if out is None:
            raise RecordError(
                f"field 'outcome': the actions play to a finished game ({shown}), "
                "but the record has no outcome"
            )
        if out.forfeit is not None:
            raise RecordError(
                f"field 'outcome': the record says seat {out.forfeit} forfeited, but its "
                f"actions play to a finished game ending {shown}"
            )
        if got != out:
            raise RecordError(
                f"field 'outcome': the replay ends with {shown}, the record says {out.to_json()}"
            )
        return
    if out is None:
        return
    n = record.num_players
    seat = out.forfeit
    if seat is None:
        raise RecordError(
            f"field 'outcome': the record gives a result, but its actions stop before the "
            f"end (seat {to_move} to move) and nobody forfeited"
        )
    if type(seat) is not int or not 0 <= seat < n:
        raise RecordError(f"field 'outcome': the forfeiting seat {seat!r} is not a seat 0-{n - 1}")
    if record.actions and seat != to_move:
        raise RecordError(
            f"field 'outcome': the record says seat {seat} forfeited, but seat {to_move} "
            "was to move"
        )
    expected = Outcome.forfeited(n, seat, out.reason, game.teams(n))
    if expected != out:
        raise RecordError(
            f"field 'outcome': a forfeit by seat {seat} gives {expected.to_json()}, the "
            f"record says {out.to_json()}"
        )
