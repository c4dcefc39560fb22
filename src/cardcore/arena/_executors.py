"""Where arena games run: in this process, in local worker processes, or on Dask.

Every executor takes an iterator of jobs and calls ``done(job, result)`` in this
process as each game finishes, in whatever order they finish; the arena stores the
results by key, so the order never shows in the report.

The local pool is a few ``spawn`` processes, each fed its next games through a pipe.
It is written here rather than borrowed from :class:`concurrent.futures.ProcessPoolExecutor`
because the arena must stop *one* worker (a hung bot) and know *which game* a dead
worker was playing; that executor can do neither without breaking the whole pool.
"""

from __future__ import annotations

import collections
import concurrent.futures
import contextlib
import importlib
import math
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from multiprocessing.connection import Connection, wait
from typing import Any, Final, Protocol, final

from cardcore._sandbox import MEMORY_LIMIT, end_strays_of, limit_memory, process_tree, subreaper
from cardcore.arena._store import ArenaError
from cardcore.arena._worker import (
    READY,
    Job,
    Result,
    SharedWatch,
    end_stray_processes,
    error_result,
    forfeit_result,
    game_bound,
    kill_after,
    play_job_watched,
    stop_bot_processes,
    worker_main,
)

__all__ = ["DaskExecutor", "Executor", "InlineExecutor", "ProcessExecutor"]

Done = Callable[[Job, Result], None]

BOOTSTRAP_HINT: Final = (
    "a script that calls run_arena must call it under 'if __name__ == \"__main__\":' "
    "(each worker process imports the script again), or use workers=0"
)
"""What a worker that dies while starting most likely means."""

MAX_ATTEMPTS: Final = 3
"""A game whose worker dies is played at most this many times, then forfeited."""


class Executor(Protocol):
    """Runs jobs and reports each result as it comes."""

    def run(self, jobs: Iterator[Job], done: Done) -> None:
        """Play every job; call ``done(job, result)`` for each, in this process."""
        ...


@final
class InlineExecutor:
    """Plays the games in this process (``--workers 0``), ``concurrency`` at a time.

    One after another by default; more than one at a time, in threads.

    With a time limit, a decision that never returns is abandoned in its thread; a bot
    that ends the process ends the arena: use worker processes for untrusted bots. After
    each game, the processes started while it was played (bot processes aside) are
    killed, as a worker does; this process adopts what a bot detaches meanwhile.
    """

    def __init__(self, concurrency: int = 1) -> None:
        self._concurrency = concurrency

    def run(self, jobs: Iterator[Job], done: Done) -> None:
        """Play every job here."""
        with subreaper():
            if self._concurrency <= 1:
                for job in jobs:
                    before = frozenset(process_tree(os.getpid()))
                    result = play_job_watched(job)
                    end_stray_processes(before)
                    done(job, result)
                return
            self._run_threads(jobs, done)

    def _run_threads(self, jobs: Iterator[Job], done: Done) -> None:
        """Up to ``concurrency`` games at once; strays are ended whenever none is played."""
        before = frozenset(process_tree(os.getpid()))
        with concurrent.futures.ThreadPoolExecutor(self._concurrency, "cardcore-game") as pool:
            pending: dict[concurrent.futures.Future[Result], Job] = {}
            while True:
                while len(pending) < 2 * self._concurrency:
                    todo = next(jobs, None)
                    if todo is None:
                        break
                    pending[pool.submit(play_job_watched, todo)] = todo
                if not pending:
                    return
                finished, _ = concurrent.futures.wait(pending, return_when="FIRST_COMPLETED")
                for future in finished:
                    if len(pending) == 1:  # nothing else running: what is left is stray
                        end_stray_processes(before)
                    done(pending.pop(future), future.result())


def _key(job: Job) -> tuple[int, int]:
    return int(job["deal"]), int(job["arrangement"])


def threaded_worker_main(conn: Connection, parent: int, concurrency: int) -> None:
    """A local worker that plays up to ``concurrency`` games at once, each in a thread.

    For bots that wait on a network rather than the CPU. Each result goes back as soon
    as its game ends (tagged with the game's ``key``), so results come out of order.
    Each game enforces its own time limit from its thread (:func:`play_job_watched`);
    what the bots started is cleaned up whenever no game is being played.
    """
    from cardcore.arena._worker import _orphan_guard

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the arena process handles Ctrl-C
    threading.Thread(target=_orphan_guard, args=(parent,), daemon=True).start()
    limit_memory(MEMORY_LIMIT)
    lock = threading.Lock()
    running = [0]

    def play(job: Job) -> None:
        result = {**play_job_watched(job), "key": list(_key(job))}
        with lock:
            running[0] -= 1
            if not running[0]:
                end_stray_processes()
            with contextlib.suppress(OSError, ValueError):
                conn.send(result)

    try:
        conn.send(READY)
    except (OSError, ValueError):
        return
    with subreaper(), concurrent.futures.ThreadPoolExecutor(concurrency, "cardcore-game") as pool:
        while True:
            try:
                job = conn.recv()
            except (EOFError, OSError):
                break
            if job is None:
                break
            with lock:
                running[0] += 1
            pool.submit(play, job)
    stop_bot_processes()


QUEUED_SECONDS: Final = 0.05
"""Each worker is sent games ahead, about this much play time (at least 2, at most 32
games), so that it never waits for the arena between games, even on a busy machine."""


def _depth(mean_seconds: float | None) -> int:
    if mean_seconds is None:
        return 2
    return max(2, min(32, math.ceil(QUEUED_SECONDS / max(mean_seconds, 1e-6))))


@final
class _Slot:
    """One worker process and the jobs sent to it, the one it is playing first."""

    def __init__(self, ctx: Any, concurrency: int = 1) -> None:
        self.cells = ctx.RawArray("d", 3)
        self.cells[0] = -1.0
        self.conn, child = ctx.Pipe(duplex=True)
        # Not a daemon, so that a bot may start processes of its own; the arena always
        # stops its workers, and a worker exits by itself if the arena is killed.
        if concurrency > 1:
            target: Any = threaded_worker_main
            args: tuple[Any, ...] = (child, os.getpid(), concurrency)
        else:
            target, args = worker_main, (child, self.cells, os.getpid())
        self.proc = ctx.Process(target=target, args=args)
        self.proc.start()
        child.close()
        self.jobs: collections.deque[Job] = collections.deque()
        self.started = False
        """Whether the worker has said it is ready (its start-up is over)."""
        self.since = 0.0
        """When the job at the head (the one being played) started, at the latest."""

    @property
    def watch(self) -> SharedWatch:
        return SharedWatch(self.cells)

    def send(self, job: Job) -> None:
        if not self.jobs:
            self.since = time.monotonic()
        self.jobs.append(job)
        self.conn.send(job)

    def finished(self, result: Result) -> Job:
        """The job ``result`` is of: the one tagged with its key, else the oldest one."""
        key = result.pop("key", None)
        job = next((j for j in self.jobs if key is not None and list(_key(j)) == key), None)
        if job is None:
            job = self.jobs.popleft()
        else:
            self.jobs.remove(job)
        self.since = time.monotonic()
        return job

    def stop(self, *, kill: bool) -> int | None:
        if kill:
            # What its bots started goes with it (bot processes end by themselves too).
            tree = process_tree(self.proc.pid) if self.proc.pid is not None else set()
            self.proc.kill()
            end_strays_of(tree)
        else:
            with contextlib.suppress(OSError, ValueError):
                self.conn.send(None)
        self.proc.join(timeout=None if kill else 2.0)
        if self.proc.is_alive():
            self.proc.kill()
            self.proc.join()
        self.conn.close()
        code: int | None = self.proc.exitcode
        return code


@final
class ProcessExecutor:
    """Plays games in ``workers`` local ``spawn`` processes, one game each at a time.

    Each worker is sent a few games ahead (see :data:`QUEUED_SECONDS`) and plays them
    in order, so the game a worker is playing is always the oldest one sent.

    Faults: a worker whose bot decides for longer than :func:`kill_after` (with a time
    limit) is killed and replaced, and the deciding seat forfeits; a worker that dies
    is replaced and its game played again, up to three times, after which the seat
    that was deciding forfeits (or, if no bot was deciding, the game is an error).
    Games merely queued on a lost worker are sent elsewhere, as if new.

    With ``concurrency`` above 1, each worker plays that many games at once, in threads
    (:func:`threaded_worker_main`), for bots that wait on a network: results then come
    in any order, each game's thread enforces its time limit (a stuck decision is
    abandoned, not its worker stopped), and a worker that makes no progress for a
    whole game's bound is stopped.

    Args:
        workers: the number of processes (at least 1).
        concurrency: games played at once by each worker.
    """

    def __init__(self, workers: int, concurrency: int = 1) -> None:
        if workers < 1:
            raise ValueError("a process pool needs at least one worker")
        self._workers = workers
        self._concurrency = max(1, concurrency)
        self._ctx = multiprocessing.get_context("spawn")

    def run(self, jobs: Iterator[Job], done: Done) -> None:
        """Play every job in the worker processes."""
        retry: collections.deque[Job] = collections.deque()
        slots: list[_Slot] = []
        mean: float | None = None  # moving average of a game's play time
        extra = self._concurrency - 1  # games played beside the oldest one
        depth = _depth(mean) + extra

        def next_job() -> Job | None:
            return retry.popleft() if retry else next(jobs, None)

        def drop(slot: _Slot) -> tuple[Job, int, int | None]:
            """Stop a worker; requeue its waiting jobs; return its current job, seat, code."""
            seat, _, _ = slot.watch.current()
            code = slot.stop(kill=True)
            slots.remove(slot)
            current = slot.jobs.popleft()
            retry.extendleft(reversed(slot.jobs))
            return current, seat, code

        def died(slot: _Slot) -> None:
            if not slot.started:
                code = slot.stop(kill=True)
                raise ArenaError(
                    f"a worker process ended while starting (exit code {code}), before "
                    f"playing any game; {BOOTSTRAP_HINT}"
                )
            job, seat, code = drop(slot)
            tries = int(job.get("attempt", 1))
            if tries < MAX_ATTEMPTS:
                retry.append({**job, "attempt": tries + 1})
                return
            why = f"its worker process died (exit code {code}) in {MAX_ATTEMPTS} attempts"
            if seat >= 0:
                done(job, forfeit_result(job, seat, f"seat {seat}: {why}"))
            else:
                done(job, error_result(job, f"the game could not be played: {why}"))

        def too_slow(slot: _Slot) -> None:
            job = slot.jobs[0]
            limit = float(job["time_limit"])
            now = time.monotonic()
            seat, since, allowed = slot.watch.current()
            bound = kill_after(allowed)
            if seat >= 0 and now - since > bound:
                reason = (
                    f"seat {seat} did not return within {allowed:g} s "
                    f"(+{bound - allowed:g} s); its worker was stopped"
                )
                result = forfeit_result(job, seat, reason, now - slot.since)
            elif now - slot.since > game_bound(limit, job.get("max_decisions", 10_000)):
                result = error_result(
                    job, "the game did not finish in time; its worker was stopped"
                )
            else:
                return
            drop(slot)
            done(job, result)

        try:
            while True:
                for slot in list(slots):
                    while len(slot.jobs) < depth and (job := next_job()) is not None:
                        try:
                            slot.send(job)
                        except OSError:  # the worker is gone: replace it
                            slot.jobs.pop()
                            retry.appendleft(job)
                            if slot.jobs:
                                died(slot)
                            else:
                                slot.stop(kill=True)
                                slots.remove(slot)
                            break
                while len(slots) < self._workers and (job := next_job()) is not None:
                    slot = _Slot(self._ctx, self._concurrency)
                    slots.append(slot)
                    slot.send(job)
                busy = [s for s in slots if s.jobs]
                if not busy:
                    return
                limited = any(s.jobs[0]["time_limit"] for s in busy)
                ready = set(
                    wait(
                        [s.conn for s in busy] + [s.proc.sentinel for s in busy],
                        timeout=0.02 if limited else None,
                    )
                )
                for slot in busy:
                    if slot.conn in ready:
                        try:
                            result = slot.conn.recv()
                        except (EOFError, OSError):
                            died(slot)
                            continue
                        if result == READY:
                            slot.started = True
                            continue
                        took = float(result.get("seconds", 0.0))
                        mean = took if mean is None else 0.9 * mean + 0.1 * took
                        depth = _depth(mean) + extra
                        done(slot.finished(result), result)
                    elif slot.proc.sentinel in ready:
                        died(slot)
                    elif slot.jobs[0]["time_limit"]:
                        too_slow(slot)
        finally:
            for slot in slots:
                slot.stop(kill=bool(slot.jobs))


@final
class DaskExecutor:
    """Plays games as tasks on an existing Dask cluster (``--scheduler tcp://host:port``).

    cardcore, the game's plugin and every bot must be installed on the workers (an
    import-path bot's module must be importable there). With a time limit, a bot that
    does not return is abandoned in its worker thread and forfeits. A game whose Dask
    worker keeps dying is recorded as an error.

    Args:
        address: the scheduler address, or a ``distributed.Client`` to use as is.
    """

    def __init__(self, address: Any) -> None:
        self._address = address

    def run(self, jobs: Iterator[Job], done: Done) -> None:
        """Submit the jobs (a bounded number at a time) and collect the results."""
        try:
            distributed: Any = importlib.import_module("distributed")
        except ImportError:
            raise ArenaError(
                "--scheduler needs Dask: pip install 'dask[distributed]', or './[dask]' in a cardcore checkout"
            ) from None
        own = isinstance(self._address, str)
        if own:
            try:
                client = distributed.Client(self._address, set_as_default=False, timeout=10)
            except (OSError, TimeoutError) as e:
                raise ArenaError(f"cannot reach the Dask scheduler {self._address}: {e}") from None
        else:
            client = self._address
        try:
            threads = sum(client.nthreads().values()) or 1
            window = max(4, 2 * threads)
            pending: dict[Any, Job] = {}
            ready = distributed.as_completed(loop=client.loop)

            def submit() -> bool:
                job = next(jobs, None)
                if job is None:
                    return False
                fut = client.submit(play_job_watched, job, pure=False)
                pending[fut] = job
                ready.add(fut)
                return True

            while len(pending) < window and submit():
                pass
            for fut in ready:
                job = pending.pop(fut)
                try:
                    result = fut.result()
                except Exception as e:  # noqa: BLE001 - a lost task is recorded, not fatal
                    result = error_result(job, f"Dask task failed: {type(e).__name__}: {e}")
                fut.release()
                done(job, result)
                while len(pending) < window and submit():
                    pass
        finally:
            if own:
                client.close()
