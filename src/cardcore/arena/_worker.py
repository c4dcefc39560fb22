"""Playing one arena game from plain data, wherever it runs.

A *job* is a dict of primitives (game id, preset, options, seats' bot names and
options, seeds, time limit) so it pickles under ``spawn`` and travels to Dask workers;
the game and bots are rebuilt where the job runs. A *result* is a dict too: ``status``
(``done`` or ``error``), the finished match record as JSON data, and the wall time.

A :class:`Watch` tells an observer which seat is deciding and since when; the local
process pool reads it across processes to stop a hung bot, and :func:`play_job_watched`
reads it from another thread.
"""

from __future__ import annotations

import functools
import json
import os
import signal
import threading
import time
from multiprocessing.connection import Connection
from typing import Any, Protocol, final

import attrs

from cardcore._engine import MatchRecord, play_match
from cardcore._game import Game, Outcome
from cardcore._host import default_host
from cardcore.arena._bots import make_bot

__all__ = ["Job", "Result", "Watch", "forfeit_result", "play_job", "play_job_watched"]

Job = dict[str, Any]
"""One game to play, as plain data (see :func:`cardcore.arena._run.make_job`)."""
Result = dict[str, Any]
"""What playing a job gave: ``status``, ``record`` (JSON data) or ``error``, ``seconds``."""


class Watch(Protocol):
    """Where a running game is: the seat deciding (``-1`` when no bot is) and since when."""

    def enter(self, seat: int) -> None:
        """A bot starts deciding."""
        ...

    def leave(self) -> None:
        """The bot has returned."""
        ...

    def current(self) -> tuple[int, float]:
        """The deciding seat (``-1``: none) and the ``time.monotonic()`` it started."""
        ...


@final
class ThreadWatch:
    """A watch read by another thread of the same process."""

    def __init__(self) -> None:
        self._seat = -1
        self._since = 0.0

    def enter(self, seat: int) -> None:
        """A bot starts deciding."""
        self._since = time.monotonic()
        self._seat = seat

    def leave(self) -> None:
        """The bot has returned."""
        self._seat = -1

    def current(self) -> tuple[int, float]:
        """The deciding seat and since when."""
        return self._seat, self._since


@final
class SharedWatch:
    """A watch in shared memory (two doubles), read by the parent of a worker process.

    ``time.monotonic`` is a system-wide clock on the platforms Python supports, so the
    parent can compare it with its own.
    """

    def __init__(self, cells: Any) -> None:
        self._cells = cells

    def enter(self, seat: int) -> None:
        """A bot starts deciding."""
        self._cells[1] = time.monotonic()
        self._cells[0] = float(seat)

    def leave(self) -> None:
        """The bot has returned."""
        self._cells[0] = -1.0

    def current(self) -> tuple[int, float]:
        """The deciding seat and since when."""
        return int(self._cells[0]), float(self._cells[1])


@final
class _NoWatch:
    def enter(self, seat: int) -> None:
        pass

    def leave(self) -> None:
        pass

    def current(self) -> tuple[int, float]:
        return -1, 0.0


@final
class _Seat:
    """Wraps a bot: marks the watch around each decision, contains ``start_match`` errors.

    Only decisions are watched (and so timed): building a bot and ``start_match`` may
    take long (loading a model), and are bounded only by the whole game's bound.
    """

    def __init__(self, bot: Any, seat: int, name: str, watch: Watch) -> None:
        self._bot = bot
        self._seat = seat
        self.name = name
        self._watch = watch
        self._failed: str | None = None

    def start_match(self, game: Any, seat: int, num_players: int) -> None:
        hook = getattr(self._bot, "start_match", None)
        if hook is None:
            return
        try:
            hook(game, seat, num_players)
        except Exception as e:  # noqa: BLE001 - reported at the bot's first decision
            self._failed = f"start_match failed: {type(e).__name__}: {e}"

    def act(self, observation: Any) -> Any:
        if self._failed is not None:
            raise RuntimeError(self._failed)
        self._watch.enter(self._seat)
        try:
            return self._bot.act(observation)
        except SystemExit as e:
            raise RuntimeError(f"called exit({e.code!r})") from None
        finally:
            self._watch.leave()

    def end_match(self, outcome: Outcome) -> None:
        hook = getattr(self._bot, "end_match", None)
        if hook is not None:
            hook(outcome)


@functools.lru_cache(maxsize=8)
def _load_game(name: str, preset: str, options_json: str) -> Game[Any, Any, Any]:
    return default_host().load_game(name, preset=preset, **json.loads(options_json))


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
    bug) gives an ``error`` result.
    """
    t0 = time.perf_counter()
    w: Watch = watch if watch is not None else _NoWatch()
    try:
        game = _load_game(job["game"], job["preset"], json.dumps(job["options"], sort_keys=True))
    except Exception as e:  # noqa: BLE001 - a worker that cannot build the game reports it
        return error_result(job, f"cannot build the game here: {type(e).__name__}: {e}")
    bots = []
    for seat, (name, options) in enumerate(job["seat_bots"]):
        try:
            bot = make_bot(name, options, game, seed=job["bot_seeds"][seat])
        except Exception as e:  # noqa: BLE001 - a bot that cannot start forfeits
            return forfeit_result(
                job,
                seat,
                f"seat {seat} could not start: {type(e).__name__}: {e}",
                time.perf_counter() - t0,
            )
        bots.append(_Seat(bot, seat, job["labels"][seat], w))
    try:
        record = play_match(
            game,
            bots,
            seed=job["seed"],
            time_limit=job["time_limit"],
            names=job["labels"],
            preset=job["preset"],
        )
    except Exception as e:  # noqa: BLE001 - the rules failed, not a bot
        return error_result(job, f"the game failed: {type(e).__name__}: {e}")
    record = attrs.evolve(
        record, distribution=job.get("distribution", ""), version=job.get("version", "")
    )
    return {"status": "done", "record": record.to_json(), "seconds": time.perf_counter() - t0}


def kill_after(time_limit: float) -> float:
    """How long a decision may run before its worker is stopped: the limit plus a margin.

    A bot that returns after the limit forfeits anyway (the engine checks); the margin
    only decides when a bot that never returns is given up on.
    """
    return time_limit + max(1.0, time_limit)


def game_bound(time_limit: float, max_decisions: int) -> float:
    """The wall-clock bound of a whole game under a time limit (rules code included)."""
    return 30.0 + 2.0 * time_limit * max_decisions


def play_job_watched(job: Job) -> Result:
    """Play a job in a helper thread, giving up on a bot that does not return in time.

    Without a time limit this is :func:`play_job`. With one, a decision that runs past
    :func:`kill_after` forfeits for the deciding seat; the stuck thread is left behind
    (a daemon), so the caller carries on. This is what Dask workers run.
    """
    limit = job.get("time_limit")
    if limit is None:
        return play_job(job)
    watch = ThreadWatch()
    box: list[Result] = []
    thread = threading.Thread(target=lambda: box.append(play_job(job, watch)), daemon=True)
    start = time.monotonic()
    thread.start()
    stop_decision = kill_after(limit)
    stop_game = game_bound(limit, job.get("max_decisions", 10_000))
    while True:
        thread.join(0.05)
        if not thread.is_alive():
            if box:
                return box[0]
            return error_result(job, "the game thread ended without a result")
        now = time.monotonic()
        seat, since = watch.current()
        if seat >= 0 and now - since > stop_decision:
            return forfeit_result(
                job,
                seat,
                f"seat {seat} did not return within {stop_decision:g} s "
                f"(limit {limit:g} s); it was abandoned",
                now - start,
            )
        if now - start > stop_game:
            return error_result(job, f"the game did not finish within {stop_game:g} s")


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
    watch = SharedWatch(cells)
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        result = play_job(job, watch)
        try:
            conn.send(result)
        except (OSError, ValueError):
            return
