"""Root-parallel search: one search bot's independent trees in a pool of processes.

With ``workers=N`` (N > 1) a search bot draws N seeds from its own generator for each
decision and has N copies of itself (one per process of a pool) search from the same
observation, each over its own determinisations and with its share of the iterations;
their statistics at the root are summed, and the bot chooses from the sums. Each copy is
reset from its seed before it searches, so a decision depends only on the bot's seed,
``N`` and the budget: which process runs which share, and how loaded the machine is,
change nothing when the budget is an iteration count.

The pool is started when the bot's match begins (``start_match``, see
:meth:`RootPool.warm`) or else on the first decision that needs it, and kept for the next
ones; a share of a decision searched on time ends at the decision's due time. The
bot shuts it down when it is closed, when its match ends (``end_match``) or when it is
garbage. Where no pool can be started (a daemonic process may not have children), the
shares are searched one after another in this process, with the same choices for an
iteration budget, and a :class:`SearchWorkersWarning` says so.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import sys
import threading
import time
import warnings
from collections.abc import Callable, Sequence
from typing import Any, Final, final

__all__ = ["RootPool", "SearchWorkersWarning", "cpus", "split", "with_search_workers"]

MAX_WORKERS: Final = 256
"""The most search processes one bot may ask for."""

WARM_TIMEOUT: Final = 5.0
"""How long ``start_match`` waits for a bot's search processes to start: well within the
time the engine gives it (at least 10 s)."""


class SearchWorkersWarning(RuntimeWarning):
    """Search processes could not be started, or more are asked for than there are cores."""


def cpus() -> int:
    """The CPUs this process may use."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # not on every platform
        return os.cpu_count() or 1


def check_workers(workers: object) -> int:
    """``workers`` as a count of search processes.

    Raises:
        ValueError: not an integer from 1 to :data:`MAX_WORKERS`.
    """
    if isinstance(workers, bool) or not isinstance(workers, int):
        raise ValueError(f"workers must be a whole number of processes, not {workers!r}")
    if not 1 <= workers <= MAX_WORKERS:
        raise ValueError(f"workers must be from 1 to {MAX_WORKERS}, not {workers}")
    return workers


def split(total: int, parts: int) -> list[int]:
    """``total`` shared out over ``parts`` as evenly as can be, the first ones larger."""
    base, extra = divmod(total, parts)
    return [base + (1 if i < extra else 0) for i in range(parts)]


# ---- in the pool's processes ----------------------------------------------------------

_HELD: dict[str, Any] = {}
"""The copy of the search bot this pool process holds, under ``bot`` (set by :func:`_start`)."""


def _orphan_guard(parent: int, first_ppid: int) -> None:
    """Exit when the process that started the pool is gone, instead of lingering.

    ``first_ppid`` is this process's parent when it started: the bot's process when the
    pool forks, the start method's server when it does not (``forkserver``, chosen while
    other threads run: in the arena, ``play --web``). Either way the parent changes, or
    the bot's process is gone, when the bot's process ends.
    """
    while True:
        time.sleep(0.5)
        if _orphaned(parent, first_ppid):
            os._exit(0)


def _orphaned(parent: int, first_ppid: int) -> bool:
    """Whether the bot's process ``parent`` is gone (read from this pool process)."""
    if os.getppid() != first_ppid:
        return True
    try:
        os.kill(parent, 0)
    except ProcessLookupError:
        return True
    except OSError:  # alive, but not ours to signal
        return False
    return False


def _start(make: Callable[[], Any], parent: int, ready: Any) -> None:
    """Build this process's copy of the bot (the pool's initializer).

    Then say so on ``ready``, a semaphore of the bot's process.
    """
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C
    threading.Thread(target=_orphan_guard, args=(parent, os.getppid()), daemon=True).start()
    _HELD["bot"] = make()
    ready.release()


def _nothing() -> None:
    """A task that only makes the pool start a process (see :meth:`RootPool.warm`)."""


def _share(task: tuple[int, int | None, float | None, Any, float | None]) -> Any:
    """Search one share in this pool process; its root statistics (see the bot's ``share``).

    ``due`` is when the bot's process wants the result, on the machine's monotonic clock
    (shared by its processes): the share's time budget ends then, so the time the task
    waited in the queue is not spent twice. A clock that disagrees by more than the budget
    (not shared after all) is ignored.
    """
    seed, budget, seconds, observation, due = task
    if seconds is not None and due is not None:
        left = due - _now()
        if -1.0 < left < seconds:
            seconds = max(left, _MIN_SHARE)
    return _HELD["bot"].share(seed, budget, seconds, observation)


_now: Callable[[], float] = time.monotonic
"""The clock of due times: the machine's monotonic clock, the same in every process."""

_MIN_SHARE: Final = 1e-3
"""The least time a share searches, however late it starts (it runs one iteration)."""


# ---- in the bot's process -------------------------------------------------------------


def _context() -> Any:
    """The fastest safe way to start the pool's processes here.

    ``fork`` (no imports to repeat) while this process runs a single thread; with other
    threads running, forking could copy a lock one of them holds, so ``forkserver``;
    ``spawn`` where neither exists.
    """
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    if "forkserver" in methods:
        return multiprocessing.get_context("forkserver")
    return multiprocessing.get_context("spawn")


@final
class RootPool:
    """The processes of one search bot: started by :meth:`warm` or on first use.

    :meth:`close` shuts them down.

    Args:
        workers: the number of processes.
        make: builds a copy of the bot with ``workers=1`` (called in each process; it is
            pickled when processes are not forked).
        local: the copy that searches in this process when no pool can be started.
    """

    def __init__(self, workers: int, make: Callable[[], Any], local: Callable[[], Any]) -> None:
        self.workers = workers
        self._make = make
        self._local_make = local
        self._local: Any = None
        self._executor: Any = None
        self.fallback: str | None = None
        """Why the shares are searched in this process (``None`` while a pool serves)."""
        self._ready: Any = None
        self._warm = False
        self.return_time = 0.0
        """How long, in seconds, the shares' results have taken to come back after their
        searches end (a running average): a time budget ends that much earlier in the
        pool, so that the decision keeps its deadline."""

    @property
    def running(self) -> bool:
        """Whether the pool's processes are started."""
        return self._executor is not None

    def pids(self) -> list[int]:
        """The process ids of the pool (empty when it is not running)."""
        if self._executor is None:
            return []
        procs = getattr(self._executor, "_processes", None) or {}
        return sorted(int(p) for p in procs)

    def open(self) -> Any:
        if self._executor is not None or self.fallback is not None:
            return self._executor
        if multiprocessing.current_process().daemon:
            self._fall_back("this is a daemonic process, which may not start processes of its own")
            return None
        from concurrent.futures import ProcessPoolExecutor

        try:
            context = _context()
            self._ready = context.Semaphore(0)
            self._executor = ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=context,
                initializer=_start,
                initargs=(self._make, os.getpid(), self._ready),
            )
        except (OSError, ValueError, NotImplementedError) as e:
            self._fall_back(f"the pool could not be started ({e})")
        return self._executor

    def warm(self, timeout: float = WARM_TIMEOUT) -> bool:
        """Start every process of the pool; whether each holds its copy of the bot in time.

        It waits at most ``timeout`` seconds. A search bot calls this from ``start_match``, so that starting the processes
        (a fraction of a second where they cannot be forked) is not taken from the first
        decision's time budget. Processes not ready in time go on starting.
        """
        executor = self.open()
        if executor is None:
            return False
        if self._warm:
            return True
        deadline = time.monotonic() + timeout
        waiting = [executor.submit(_nothing) for _ in range(self.workers)]
        for _ in range(self.workers):
            if not self._ready.acquire(timeout=max(deadline - time.monotonic(), 0.0)):
                return False
        for future in waiting:
            future.result(timeout=max(deadline - time.monotonic(), 0.0))
        self._warm = True
        return True

    def _fall_back(self, why: str) -> None:
        self.fallback = why
        warnings.warn(
            f"search workers: {why}; the {self.workers} searches of each decision run one "
            f"after another in this process (same choices for an iteration budget, fewer "
            f"iterations for a time budget)",
            SearchWorkersWarning,
            stacklevel=4,
        )

    def run(self, tasks: Sequence[tuple[int, int | None, float | None, Any]]) -> list[Any]:
        """Search every share (in the pool, else here); their results in order.

        A share's ``seconds`` is its own budget. In the pool every share ends at the same
        due time, ``seconds`` from now less :attr:`return_time`, however long it waited for
        a process; searched here, one after another, the shares split the earliest
        share's budget between them. Either way the decision keeps its deadline.

        Raises:
            RuntimeError: a pool process died (the pool is shut down; the next decision
                starts a new one).
        """
        executor = self.open()
        if executor is None:
            if self._local is None:
                self._local = self._local_make()
            n = len(tasks)
            out = []
            for seed, budget, seconds, observation in tasks:
                share = None if seconds is None else seconds / n
                out.append(self._local.share(seed, budget, share, observation))
            return out
        from concurrent.futures.process import BrokenProcessPool

        started = self._warm  # else the results wait for processes that are starting
        due = None
        timed = [seconds for _, _, seconds, _ in tasks if seconds is not None]
        if timed:
            due = _now() + min(timed) - self.return_time
        try:
            out = list(executor.map(_share, [(*task, due) for task in tasks]))
        except BrokenProcessPool as e:
            self.close()
            raise RuntimeError(
                f"a search worker process died during the search ({e}); the next "
                f"decision starts new ones"
            ) from None
        self._warm = True
        if due is not None and started:
            took = _now() - due  # from the searches' end to their results here
            average = 0.75 * self.return_time + 0.25 * max(took, 0.0)
            self.return_time = min(average, min(timed) / 4)
        return out

    def close(self) -> None:
        """Shut the pool's processes down and wait for them (idempotent)."""
        executor, self._executor = self._executor, None
        self._warm = False
        if executor is not None:
            executor.shutdown(wait=True, cancel_futures=True)


# ---- the command line ---------------------------------------------------------------


def with_search_workers(
    spec: str, workers: int | None, arena_workers: int = 1, *, stream: Any = None
) -> str:
    """Give ``workers=N`` to every bot of a ``--bots`` list that takes it and lacks it.

    Also warns (on ``stream``, standard error by default) when the arena's processes
    times the most search processes of one bot exceed this machine's cores.

    Raises:
        ValueError: ``workers`` is not from 1 to :data:`MAX_WORKERS`.
    """
    from cardcore._botspec import parse_bot_spec
    from cardcore._host import default_host

    if not spec:
        return spec
    if workers is not None:
        try:
            check_workers(workers)
        except ValueError:
            raise ValueError(
                f"--search-workers must be from 1 to {MAX_WORKERS} processes, not {workers}"
            ) from None
    host = default_host()
    out = []
    most = 1
    for part in spec.split(","):
        try:
            name, options = parse_bot_spec(part)
            takes = any(o.name == "workers" for o in host.bot_options(name))
        except Exception:  # noqa: BLE001 - left as it is, for the usual error later
            out.append(part)
            continue
        if takes and workers is not None and "workers" not in options:
            out.append(f"{part.strip()}:workers={workers}")
            most = max(most, workers)
        else:
            out.append(part)
            with contextlib.suppress(ValueError):
                most = max(most, int(options.get("workers", "1")))
    cores = cpus()
    if most > 1 and max(1, arena_workers) * most > cores:
        arena = f"{arena_workers} arena workers x " if arena_workers > 1 else ""
        print(
            f"cardcore: warning: {arena}{most} search workers is "
            f"{max(1, arena_workers) * most} processes searching at once on {cores} "
            f"core{'s' if cores != 1 else ''}: they share the cores, and a time budget "
            f"buys fewer iterations",
            file=stream if stream is not None else sys.stderr,
        )
    return ",".join(out)
