"""Arena results in SQLite: one row per finished game, committed as it finishes.

A database holds any number of *runs*, each named and tied to the configuration it was
started with. Reopening a run with the same configuration resumes it; a different
configuration under the same name is refused.
"""

from __future__ import annotations

import contextlib
import datetime
import json
import sqlite3
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, Final, final

import attrs

__all__ = ["ArenaError", "GameRow", "Store"]

SCHEMA_VERSION: Final = 1

_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS runs (
    name     TEXT PRIMARY KEY,
    config   TEXT NOT NULL,
    created  TEXT NOT NULL,
    cardcore TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
    run         TEXT NOT NULL REFERENCES runs(name) ON DELETE CASCADE,
    deal        INTEGER NOT NULL,
    arrangement INTEGER NOT NULL,
    status      TEXT NOT NULL CHECK (status IN ('done', 'error')),
    seats       TEXT NOT NULL,
    seed        INTEGER NOT NULL,
    bot_seeds   TEXT NOT NULL,
    forfeit     INTEGER,
    reason      TEXT NOT NULL,
    decisions   INTEGER NOT NULL,
    attempts    INTEGER NOT NULL,
    seconds     REAL NOT NULL,
    finished    TEXT NOT NULL,
    outcome     TEXT,
    record      TEXT,
    PRIMARY KEY (run, deal, arrangement)
);
"""


class ArenaError(ValueError):
    """An arena that cannot run as asked (bad configuration, a conflicting stored run)."""


@final
@attrs.frozen(kw_only=True)
class GameRow:
    """One stored game."""

    deal: int
    """The deal index."""
    arrangement: int
    """The arrangement index within the deal."""
    status: str
    """``done`` (an outcome, forfeits included) or ``error`` (no outcome)."""
    seats: tuple[int, ...]
    """The entrant index of each seat."""
    seed: int
    """The game seed."""
    bot_seeds: tuple[int, ...]
    """The seed of each seat's bot."""
    forfeit: int | None
    """The seat that forfeited, if any."""
    reason: str
    """How the game ended, the forfeit reason, or the error."""
    decisions: int
    """Number of decisions played."""
    attempts: int
    """How many times the game was started."""
    seconds: float
    """Wall time of the last attempt."""
    outcome: Mapping[str, Any] | None
    """The outcome as JSON data (``Outcome.to_json``), or ``None`` for an error."""
    record: Mapping[str, Any] | None = None
    """The match record as JSON data, when loaded."""
    damage: str | None = None
    """What is unreadable in the stored row (its JSON cells), or ``None``.

    A damaged row keeps its key, status and plain columns; its unreadable cells read as
    empty (``seats`` and ``bot_seeds`` as ``()``, ``outcome`` and ``record`` as ``None``,
    ``forfeit`` as ``None``). The arena plays such a game again and names the row.
    """


def _now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")


def _connect(path: str | Path | None) -> sqlite3.Connection:
    """The arena database at ``path`` (``None``: in memory), its schema made or checked.

    Raises:
        ArenaError: the file cannot be opened, is not an arena database, or has another
            schema version.
    """
    try:
        db = sqlite3.connect(":memory:" if path is None else str(path))
    except sqlite3.Error as e:
        raise ArenaError(f"cannot open the arena database {path}: {e}") from None
    try:
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version not in (0, SCHEMA_VERSION):
            raise ArenaError(
                f"{path} has arena schema {version}; this cardcore reads {SCHEMA_VERSION}"
            )
        if path is not None:
            db.execute("PRAGMA journal_mode=WAL")
        # WAL with synchronous=NORMAL: a commit survives a crash of this process.
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute("PRAGMA foreign_keys=ON")
        db.execute("PRAGMA busy_timeout=10000")
        with db:
            db.executescript(_SCHEMA)
            db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
    except sqlite3.DatabaseError as e:
        db.close()
        raise ArenaError(f"{path} is not a usable arena database: {e}") from None
    except BaseException:
        db.close()
        raise
    return db


@final
class Store:
    """An open arena database.

    Args:
        path: the SQLite file (created if missing), or ``None`` for a private in-memory
            database that disappears when closed.
    """

    def __init__(self, path: str | Path | None) -> None:
        self.path = None if path is None else Path(path)
        self._db = _connect(path)

    def close(self) -> None:
        """Close the database."""
        self._db.close()

    @contextlib.contextmanager
    def _guard(self) -> Iterator[None]:
        """Turn a damaged database into one clear :class:`ArenaError` naming the file."""
        try:
            yield
        except sqlite3.DatabaseError as e:
            raise ArenaError(self._damaged(e)) from None
        except (json.JSONDecodeError, TypeError, IndexError) as e:
            raise ArenaError(self._damaged(e)) from None

    def _damaged(self, e: Exception) -> str:
        where = self.path if self.path is not None else "the in-memory arena database"
        return (
            f"{where} is damaged ({type(e).__name__}: {e}); its finished games cannot be "
            "read: restore a copy, or give another --db to start afresh"
        )

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---- runs --------------------------------------------------------------------------

    def runs(self) -> dict[str, dict[str, Any]]:
        """Every stored run's configuration, by name."""
        with self._guard():
            rows = self._db.execute("SELECT name, config FROM runs ORDER BY name").fetchall()
            return {name: json.loads(config) for name, config in rows}

    def open_run(self, name: str, config: Mapping[str, Any], *, fresh: bool, version: str) -> None:
        """Start a run, or check that a stored run of that name has this configuration.

        Args:
            name: the run name.
            config: the configuration that fixes every game's result.
            fresh: discard a stored run of that name (and its games) first.
            version: the cardcore version, stored for information.

        Raises:
            ArenaError: a run of that name exists with another configuration.
        """
        with self._guard():
            _open_run(self, name, config, fresh=fresh, version=version)

    def deal_secret(self, run: str, *, draw: bool) -> str | None:
        """The secret mixed into the run's deal seeds: the stored one, or one drawn now.

        A secret is drawn (with ``draw``) only for a run with no games yet, so a run
        started without one keeps its deals. It is deleted with its run.
        """
        import secrets

        with self._guard(), self._db:
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS run_secrets (run TEXT PRIMARY KEY "
                "REFERENCES runs(name) ON DELETE CASCADE, secret TEXT NOT NULL)"
            )
            row = self._db.execute(
                "SELECT secret FROM run_secrets WHERE run = ?", (run,)
            ).fetchone()
            if row is not None:
                return str(row[0])
            if (
                not draw
                or self._db.execute("SELECT 1 FROM games WHERE run = ? LIMIT 1", (run,)).fetchone()
            ):
                return None
            secret = secrets.token_hex(16)
            self._db.execute("INSERT INTO run_secrets (run, secret) VALUES (?, ?)", (run, secret))
            return secret

    # ---- games -------------------------------------------------------------------------

    def finished(self, run: str) -> set[tuple[int, int]]:
        """The (deal, arrangement) keys of the run's games that have an outcome."""
        with self._guard():
            rows = self._db.execute(
                "SELECT deal, arrangement FROM games WHERE run = ? AND status = 'done'", (run,)
            )
            return {(d, a) for d, a in rows}

    def add(self, run: str, row: GameRow) -> None:
        """Store one game and commit it (replacing an earlier error for that key)."""
        with self._guard(), self._db:
            self._db.execute(
                "INSERT OR REPLACE INTO games (run, deal, arrangement, status, seats, seed, "
                "bot_seeds, forfeit, reason, decisions, attempts, seconds, finished, outcome, "
                "record) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    run,
                    row.deal,
                    row.arrangement,
                    row.status,
                    json.dumps(list(row.seats)),
                    row.seed,
                    json.dumps(list(row.bot_seeds)),
                    row.forfeit,
                    row.reason,
                    row.decisions,
                    row.attempts,
                    row.seconds,
                    _now(),
                    None if row.outcome is None else json.dumps(row.outcome),
                    None if row.record is None else json.dumps(row.record, ensure_ascii=False),
                ),
            )

    def games(
        self, run: str, *, deals: int | None = None, records: bool = False
    ) -> Iterator[GameRow]:
        """The run's stored games in (deal, arrangement) order.

        Args:
            run: the run name.
            deals: only deals below this index.
            records: also load each match record (slower).
        """
        cols = (
            "deal, arrangement, status, seats, seed, bot_seeds, forfeit, reason, decisions, "
            "attempts, seconds, outcome"
        )
        if records:
            cols += ", record"
        query = f"SELECT {cols} FROM games WHERE run = ?"  # noqa: S608 - fixed column list
        args: tuple[Any, ...] = (run,)
        if deals is not None:
            query += " AND deal < ?"
            args += (deals,)
        with self._guard():
            yield from _game_rows(
                self._db.execute(query + " ORDER BY deal, arrangement", args), records
            )


def _game_rows(cursor: Any, records: bool) -> Iterator[GameRow]:
    """The games of a query's rows; a row whose JSON cells do not read is marked damaged."""
    for r in cursor:
        problems: list[str] = []
        seats = _cell(r[3], "seats", list, problems)
        bot_seeds = _cell(r[5], "bot_seeds", list, problems)
        outcome = None if r[11] is None else _cell(r[11], "outcome", dict, problems)
        record = None
        if records and r[12] is not None:
            record = _cell(r[12], "record", dict, problems)
        damage = "damaged row: " + "; ".join(problems) if problems else None
        yield GameRow(
            deal=r[0],
            arrangement=r[1],
            status=r[2],
            seats=() if damage else tuple(seats),
            seed=r[4],
            bot_seeds=() if damage else tuple(bot_seeds),
            forfeit=None if damage else r[6],
            reason=r[7],
            decisions=r[8],
            attempts=r[9],
            seconds=r[10],
            outcome=None if damage else outcome,
            record=None if damage else record,
            damage=damage,
        )


def _open_run(
    store: Store, name: str, config: Mapping[str, Any], *, fresh: bool, version: str
) -> None:
    """:meth:`Store.open_run`, inside its guard."""
    text = json.dumps(config, sort_keys=True)
    with store._db:
        if fresh:
            store._db.execute("DELETE FROM games WHERE run = ?", (name,))
            store._db.execute("DELETE FROM runs WHERE name = ?", (name,))
        row = store._db.execute("SELECT config FROM runs WHERE name = ?", (name,)).fetchone()
        if row is None:
            store._db.execute(
                "INSERT INTO runs (name, config, created, cardcore) VALUES (?, ?, ?, ?)",
                (name, text, _now(), version),
            )
            return
    stored = json.loads(row[0])
    if stored != json.loads(text):
        diff = ", ".join(
            f"{k}: {_short(stored.get(k))} then, {_short(config.get(k))} now"
            for k in sorted(set(stored) | set(config))
            if stored.get(k) != config.get(k)
        )
        where = store.path if store.path is not None else "the database"
        raise ArenaError(
            f"run {name!r} in {where} was started with another configuration ({diff}); "
            f"use --name to store this one as a new run, or --fresh to discard run "
            f"{name!r} and start it over"
        )


def _cell(text: Any, name: str, kind: type, problems: list[str]) -> Any:
    """A JSON cell of a game row, or ``None`` with what is wrong added to ``problems``.

    ``seats`` and ``bot_seeds`` must be lists of whole numbers; ``outcome`` and
    ``record`` JSON objects.
    """
    try:
        value = json.loads(text)
    except (json.JSONDecodeError, TypeError, UnicodeDecodeError) as e:
        problems.append(f"its {name} cell is not valid JSON ({type(e).__name__}: {e})")
        return None
    if kind is list:
        if not isinstance(value, list) or not all(type(v) is int for v in value):
            problems.append(f"its {name} cell is not a list of numbers ({_short(value)})")
            return None
    elif not isinstance(value, kind):
        problems.append(f"its {name} cell is not a JSON object ({_short(value)})")
        return None
    return value


def _short(v: Any) -> str:
    text = json.dumps(v, sort_keys=True)
    return text if len(text) <= 60 else text[:57] + "..."
