"""Playing one arena game from plain data, wherever it runs.

A *job* is a dict of primitives (game id, preset, options, seats' bot names and
options, seeds, time limit) so it pickles under ``spawn`` and travels to Dask workers;
the game and bots are rebuilt where the job runs. A *result* is a dict too: ``status``
(``done`` or ``error``), the finished match record as JSON data, and the wall time.

A watch (:class:`cardcore._engine.Watch`) tells an observer which seat is deciding,
since when and for how long it may; the local process pool reads a :class:`SharedWatch`
across processes to stop a hung bot, and :func:`play_job_watched` lets the engine watch
from another thread. Isolated seats enforce their own limit (their process is killed).
"""

from __future__ import annotations

import functools
import json
import os
import signal
import threading
import time
from multiprocessing.connection import Connection
from typing import Any, Final, final

import attrs

from cardcore._botmaking import host_for, make_bot, preference_key
from cardcore._engine import Watch, _Match
from cardcore._game import Game, Outcome
from cardcore._isolation import TIME_MARGIN, BotProcess, IsolatedBot
from cardcore._match_record import MatchRecord
from cardcore._sandbox import (
    MEMORY_LIMIT,
    Sandbox,
    end_new_processes,
    limit_memory,
    process_tree,
    subreaper,
)

__all__ = ["Job", "Result", "SharedWatch", "forfeit_result", "play_job", "play_job_watched"]

READY: Final = "ready"
"""What a local worker sends first, once it has started and before any job."""

Job = dict[str, Any]
"""One game to play, as plain data (see :func:`cardcore.arena._run.make_job`)."""
Result = dict[str, Any]
"""What playing a job gave: ``status``, ``record`` (JSON data) or ``error``, ``seconds``."""


@final
class SharedWatch:
    """A watch in shared memory (three doubles), read by the parent of a worker process.

    ``time.monotonic`` is a system-wide clock on the platforms Python supports, so the
    parent can compare it with its own.
    """

    def __init__(self, cells: Any) -> None:
        self._cells = cells

    def enter(self, seat: int, limit: float) -> None:
        """A bot starts deciding and may take ``limit`` seconds."""
        self._cells[1] = time.monotonic()
        self._cells[2] = limit
        self._cells[0] = float(seat)

    def leave(self) -> None:
        """The bot has returned."""
        self._cells[0] = -1.0

    def current(self) -> tuple[int, float, float]:
        """The deciding seat, since when, and its limit."""
        return int(self._cells[0]), float(self._cells[1]), float(self._cells[2])


_PROCESSES: dict[int, BotProcess] = {}
"""This process's bot processes, one per seat, reused from game to game."""


def _seat_process(seat: int, sandbox: Sandbox | None) -> BotProcess:
    proc = _PROCESSES.get(seat)
    if proc is not None and proc.sandbox != sandbox:
        proc.stop()
        proc = None
    if proc is None:
        proc = _PROCESSES[seat] = BotProcess(sandbox=sandbox)
    return proc


def job_sandbox(job: Job) -> Sandbox | None:
    """The sandbox of a job's isolated seats (``None``: they run as the user)."""
    box = job.get("sandbox")
    if not box:
        return None
    return Sandbox(hidden=tuple(box["hidden"]), modules=tuple(box["modules"]))


def _start_servers() -> set[int]:
    """This process's multiprocessing servers (forkserver, resource tracker), if started.

    They are not a bot's strays: a search bot's pool (``workers=N``) starts its processes
    through the forkserver while threads run, and multiprocessing keeps using that server
    for the next game's bots; killing (and reaping) it made their pools fail to start.
    """
    from multiprocessing import forkserver, resource_tracker

    out: set[int] = set()
    for server, attr in (
        (forkserver._forkserver, "_forkserver_pid"),
        (resource_tracker._resource_tracker, "_pid"),
    ):
        pid = getattr(server, attr, None)
        if type(pid) is int:
            out.add(pid)
    return out


def end_stray_processes(before: frozenset[int] = frozenset()) -> None:
    """Kill what the bots of the last game started in this process (bot processes stay).

    ``before``: processes to leave alone too (those that ran before the game started).
    Run in a :func:`~cardcore._sandbox.subreaper`, this also ends what a bot detached
    from its own process tree (a grandchild in a session of its own).
    """
    keep: set[int] = {*before, *_start_servers()}
    for proc in _PROCESSES.values():
        if proc.pid is not None:
            keep |= process_tree(proc.pid)
    end_new_processes((), keep)


def stop_bot_processes() -> None:
    """Stop the bot processes this process started for isolated seats."""
    for proc in _PROCESSES.values():
        proc.stop()
    _PROCESSES.clear()


def _prefer_key(job: Job) -> tuple[tuple[str, str], ...] | None:
    return preference_key(job.get("prefer"))


@functools.lru_cache(maxsize=8)
def _load_game(
    name: str, preset: str, options_json: str, prefer: tuple[tuple[str, str], ...] | None
) -> Game[Any, Any, Any]:
    return host_for(prefer).load_game(name, preset=preset, **json.loads(options_json))


def _record(job: Job, outcome: Outcome | None = None) -> MatchRecord:
    return MatchRecord(
        game=job["game"],
        options=job["options"],
        num_players=job["players"],
        seed=job["seed"],
        actions=(),
        preset=job["preset"],
        distribution=job.get("distribution", ""),
        version=job.get("version", ""),
        bots=tuple(job["labels"]),
        outcome=outcome,
    )


def forfeit_result(job: Job, seat: int, reason: str, seconds: float = 0.0) -> Result:
    """A result where ``seat`` forfeits before or during the game (actions not kept).

    Used when a bot cannot be built, and by executors when a worker had to be stopped.
    """
    teams = job.get("teams")
    outcome = Outcome.forfeited(job["players"], seat, reason, teams)
    return {"status": "done", "record": _record(job, outcome).to_json(), "seconds": seconds}


def error_result(job: Job, error: str, seconds: float = 0.0) -> Result:
    """A result for a game that failed for a reason no bot is to blame for."""
    return {"status": "error", "error": error, "seconds": seconds}


def play_job(job: Job, watch: Watch | None = None) -> Result:
    """Play one job in this process and return its result; never raises for a bot.

    A bot that cannot be built forfeits. An exception from the game itself (a rules
    bug) gives an ``error`` result. Seats marked in ``job["isolated"]`` get their bot in
    a process of its own (see :mod:`cardcore._isolation`), one per seat, reused by the
    next games. With ``watch``, the caller enforces the time limit of in-process bots
    (it stops this process); without one, nothing does.
    """
    return _play(job, watch, watched=False)


def _done(job: Job, record: MatchRecord, t0: float) -> Result:
    record = attrs.evolve(
        record, distribution=job.get("distribution", ""), version=job.get("version", "")
    )
    return {"status": "done", "record": record.to_json(), "seconds": time.perf_counter() - t0}


class _CannotStart(Exception):
    def __init__(self, seat: int, reason: str) -> None:
        super().__init__(reason)
        self.seat = seat
        self.reason = reason


def _match(job: Job, game: Game[Any, Any, Any], watch: Watch | None) -> Any:
    isolated = job.get("isolated") or [False] * len(job["seat_bots"])
    host = host_for(_prefer_key(job))
    bots: list[Any] = []
    for seat, (name, options) in enumerate(job["seat_bots"]):
        seed = job["bot_seeds"][seat]
        if isolated[seat]:
            bots.append(
                IsolatedBot(
                    name,
                    game,
                    seed=seed,
                    options=options,
                    process=_seat_process(seat, job_sandbox(job)),
                    name=job["labels"][seat],
                    prefer=job.get("prefer"),
                )
            )
            continue
        try:
            bots.append(make_bot(name, options, game, seed=seed, host=host))
        except Exception as e:  # noqa: BLE001 - a bot that cannot start forfeits
            reason = f"seat {seat} could not start: {type(e).__name__}: {e}"
            raise _CannotStart(seat, reason) from None
    return _Match(
        game,
        bots,
        seed=job["seed"],
        time_limit=job["time_limit"],
        names=job["labels"],
        preset=job["preset"],
        watch=watch,
    )


def kill_after(time_limit: float) -> float:
    """How long a decision may run before its worker is stopped: the limit plus a margin.

    A bot that returns after the limit forfeits anyway (the engine checks); the margin
    (:data:`cardcore._engine.TIME_MARGIN`) only decides when a bot that never returns is
    given up on.
    """
    return time_limit + TIME_MARGIN


def game_bound(time_limit: float, max_decisions: int) -> float:
    """The wall-clock bound of a whole game under a time limit (rules code included)."""
    return 30.0 + 2.0 * time_limit * max_decisions


def play_job_watched(job: Job) -> Result:
    """Play a job, giving up on a bot that does not return in time (in a helper thread).

    Without a time limit this is :func:`play_job`. With one, a decision that runs past
    its limit plus :data:`~cardcore._engine.TIME_MARGIN` forfeits for the deciding seat;
    the stuck thread is left behind (a daemon), so the caller carries on. This is what
    Dask workers and ``--workers 0`` run.
    """
    if job.get("time_limit") is None:
        return play_job(job)
    return _play(job, None, watched=True)


def _play(job: Job, watch: Watch | None, *, watched: bool) -> Result:
    """Build the game and bots of a job and play it: in this thread, or ``watched`` from it.

    Never raises for a bot: one that cannot be built forfeits; an exception of the game
    itself (a rules bug) gives an ``error`` result.
    """
    t0 = time.perf_counter()
    try:
        game = _load_game(
            job["game"],
            job["preset"],
            json.dumps(job["options"], sort_keys=True),
            _prefer_key(job),
        )
    except Exception as e:  # noqa: BLE001 - a worker that cannot build the game reports it
        return error_result(job, f"cannot build the game here: {type(e).__name__}: {e}")
    try:
        match = _match(job, game, watch)
    except _CannotStart as e:
        return forfeit_result(job, e.seat, e.reason, time.perf_counter() - t0)
    except Exception as e:  # noqa: BLE001 - the rules failed, not a bot
        return error_result(job, f"the game failed: {type(e).__name__}: {e}")
    try:
        record = match.run_watched() if watched else match.run()
    except Exception as e:  # noqa: BLE001 - the rules failed, not a bot
        return error_result(job, f"the game failed: {type(e).__name__}: {e}")
    return _done(job, record, t0)


# ---- worker process --------------------------------------------------------------------


def _orphan_guard(parent: int) -> None:
    """Exit when the arena process is gone (killed), instead of lingering."""
    while True:
        time.sleep(0.5)
        if os.getppid() != parent:
            os._exit(0)


def worker_main(conn: Connection, cells: Any, parent: int) -> None:
    """The loop of a local worker process: receive jobs, send results, until ``None``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the arena process handles Ctrl-C
    threading.Thread(target=_orphan_guard, args=(parent,), daemon=True).start()
    limit_memory(MEMORY_LIMIT)  # for the bots that play in this process
    with subreaper():  # what a bot detaches from its tree comes back here, to be ended
        _serve(conn, SharedWatch(cells))


def _serve(conn: Connection, watch: SharedWatch) -> None:
    try:
        conn.send(READY)
    except (OSError, ValueError):
        return
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        if job is None:
            stop_bot_processes()
            return
        result = play_job(job, watch)
        end_stray_processes()
        try:
            conn.send(result)
        except (OSError, ValueError):
            stop_bot_processes()
            return
