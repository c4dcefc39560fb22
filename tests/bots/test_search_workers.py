"""Root-parallel search (``workers=N``): deterministic, bounded in time, and tidy."""

from __future__ import annotations

import io
import multiprocessing
import subprocess
import sys
import time
from typing import Any

import pytest

from cardcore import load_game
from cardcore.bots import ISMCTSBot, PIMCBot, _parallel
from cardcore.bots._parallel import SearchWorkersWarning, split, with_search_workers
from cardcore.cli import main

HANG_GUARD = 120.0
"""Seconds after which a decision is taken to hang (never a measure of speed)."""


def _observations(count: int) -> list[Any]:
    """Noddy observations with a real choice, from a few seeded deals."""
    game = load_game("noddy")
    out: list[Any] = []
    seed = 0
    while len(out) < count:
        state = game.initial_state(2, seed)
        seed += 1
        while (seat := game.current_player(state)) is not None and len(out) < count:
            legal = game.legal_actions(state)
            if len(legal) > 1:
                out.append(game.observe(state, seat))
            state = game.apply(state, legal[-1])
    return out


def _bot(kind: str, seed: int, workers: int, **budget: Any) -> Any:
    game = load_game("noddy")
    if kind == "ismcts":
        return ISMCTSBot(game, seed=seed, workers=workers, **budget)
    return PIMCBot(game, seed=seed, workers=workers, **budget)


_BUDGET = {"ismcts": {"iterations": 24}, "pimc": {"determinizations": 4}}


def _alive(pid: int) -> bool:
    """Whether a process (not a zombie) with this id exists."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.parametrize("kind", ["ismcts", "pimc"])
def test_root_parallel_search_is_deterministic_for_a_seed(kind: str) -> None:
    """Two bots with one seed, two workers and an iteration budget choose alike, and
    so does the same search run share after share in this process."""
    observations = _observations(4)
    runs = []
    for _ in range(2):
        with _bot(kind, 11, 2, **_BUDGET[kind]) as bot:
            runs.append([bot.act(o) for o in observations])
    # The shares searched one after another here, with no pool: the same choices.
    local = _bot(kind, 11, 2, **_BUDGET[kind])
    local._pool.fallback = "test"
    with local:
        runs.append([local.act(o) for o in observations])
    assert runs[0] == runs[1] == runs[2]


def test_the_shares_add_up_to_the_iteration_budget() -> None:
    """Every iteration of the budget is searched once, over the workers' trees."""
    observation = _observations(1)[0]
    with _bot("ismcts", 3, 2, iterations=25) as bot:
        bot.act(observation)
        assert bot.last_iterations == 25
        assert bot.last_tree is not None
        assert sum(e.n for e in bot.last_tree.edges.values()) == 25
    assert split(25, 2) == [13, 12]
    assert split(1, 3) == [1, 0, 0]


@pytest.mark.parametrize("kind", ["ismcts", "pimc"])
def test_closing_the_bot_leaves_no_process_behind(kind: str) -> None:
    """The pool starts at the first decision and its processes are gone after close
    (and after the match's end)."""
    bot = _bot(kind, 1, 2, **_BUDGET[kind])
    assert bot._pool.pids() == []
    observation = _observations(1)[0]
    bot.act(observation)
    pids = bot._pool.pids()
    assert len(pids) == 2
    assert all(_alive(p) for p in pids)
    bot.act(observation)
    assert bot._pool.pids() == pids  # reused across decisions
    bot.end_match(None)
    assert bot._pool.pids() == []
    assert not any(_alive(p) for p in pids)
    bot.act(observation)  # a new match starts a new pool
    again = bot._pool.pids()
    bot.close()
    assert not any(_alive(p) for p in again)


def test_a_match_with_search_workers_leaves_no_process_behind() -> None:
    """``play`` with ``--search-workers`` ends its match with no child process left."""
    before = {p.pid for p in multiprocessing.active_children()}
    assert main(["play", "noddy", "--bots", "ismcts:iterations=12,random",
                 "--search-workers", "2", "--json"]) == 0  # fmt: skip
    assert {p.pid for p in multiprocessing.active_children()} == before


@pytest.mark.parametrize("kind", ["ismcts", "pimc"])
def test_a_time_budget_ends_the_parallel_search(kind: str) -> None:
    """With ``seconds`` alone the workers stop at the deadline (a hang guard only)."""
    observation = _observations(1)[0]
    with _bot(kind, 2, 2, seconds=0.2) as bot:
        start = time.monotonic()
        action = bot.act(observation)
        assert time.monotonic() - start < HANG_GUARD
        assert action in observation.legal_actions
        done = bot.last_iterations if kind == "ismcts" else bot.last_samples
        assert done >= 2  # each worker searched at least once


class _Recorder:
    """Stands in for a pool process's bot: records the time budget each share gets."""

    def __init__(self) -> None:
        self.seconds: list[float | None] = []

    def share(self, seed: int, budget: Any, seconds: float | None, observation: Any) -> Any:
        self.seconds.append(seconds)
        return [], 0


@pytest.mark.parametrize(
    ("left", "expected"),
    [
        (0.05, 0.05),  # picked up at once: the whole budget
        (0.03, 0.03),  # waited 20 ms in the queue: the rest of it
        (-0.01, _parallel._MIN_SHARE),  # picked up after the deadline: one iteration
        (-5.0, 0.05),  # a clock that is not shared: the budget as given
        (7.0, 0.05),
    ],
)
def test_a_share_ends_when_the_decision_wants_its_result(
    monkeypatch: pytest.MonkeyPatch, left: float, expected: float
) -> None:
    """A share searches until its due time on the shared clock, not ``seconds`` from
    whenever a pool process picks it up (the decision's deadline holds)."""
    recorder = _Recorder()
    monkeypatch.setitem(_parallel._HELD, "bot", recorder)
    monkeypatch.setattr(_parallel, "_now", lambda: 1000.0)
    _parallel._share((1, None, 0.05, None, 1000.0 + left))
    _parallel._share((1, 24, None, None, None))  # an iteration budget has no due time
    assert recorder.seconds == [pytest.approx(expected), None]


def test_the_pool_ends_the_shares_early_by_the_time_results_take_to_come_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The pool learns how late the results arrive and asks the shares to end that much
    before the decision's deadline; the allowance never exceeds a quarter of the budget."""
    observation = _observations(1)[0]
    pool = _parallel.RootPool(1, lambda: None, lambda: None)
    sent: list[Any] = []
    clock = iter([100.0, 100.2, 200.0, 200.2])  # the results come back 0.1 s late

    class _Executor:
        def map(self, fn: Any, tasks: list[Any]) -> Any:
            sent.extend(tasks)
            return [([], 0) for _ in tasks]

    monkeypatch.setattr(pool, "_executor", _Executor())
    monkeypatch.setattr(_parallel, "_now", lambda: next(clock))
    pool.run([(1, None, 0.1, observation)])
    assert sent[-1][-1] == pytest.approx(100.1)
    assert pool.return_time == 0.0  # the processes were starting: nothing learned
    clock = iter([100.0, 100.2, 200.0, 200.2])
    pool.run([(1, None, 0.1, observation)])
    assert pool.return_time == pytest.approx(0.025)  # a quarter of 0.1 s late
    pool.run([(2, None, 0.1, observation)])
    assert sent[-1][-1] == pytest.approx(200.1 - 0.025)
    assert pool.return_time == pytest.approx(0.025)  # capped at budget / 4


@pytest.mark.parametrize("kind", ["ismcts", "pimc"])
def test_start_match_starts_every_search_process_before_the_first_decision(kind: str) -> None:
    """The engine's ``start_match`` starts the pool and waits until every process holds
    its bot: starting them is not paid from the first decision's time budget."""
    game = load_game("noddy")
    with _bot(kind, 3, 2, **_BUDGET[kind]) as bot:
        assert bot._pool is not None and bot._pool.pids() == []
        bot.start_match(game, 0, 2)
        pids = bot._pool.pids()
        assert len(pids) == 2 and all(_alive(p) for p in pids)
        assert bot._pool.warm()  # already warm: returns at once
        observation = _observations(1)[0]
        assert bot.act(observation) in observation.legal_actions
        assert bot._pool.pids() == pids  # the same processes searched
        bot.end_match(None)
        assert bot._pool.pids() == []
    for pid in pids:
        deadline = time.monotonic() + HANG_GUARD
        while _alive(pid) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert not _alive(pid)


def test_a_process_that_cannot_start_a_pool_falls_back_with_a_warning(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A daemonic process may not have children: the shares run here, same choices."""
    observation = _observations(1)[0]
    with _bot("ismcts", 5, 2, iterations=20) as bot:
        pooled = bot.act(observation)

    class _Daemon:
        daemon = True

    monkeypatch.setattr(multiprocessing, "current_process", _Daemon)
    with _bot("ismcts", 5, 2, iterations=20) as bot:
        with pytest.warns(SearchWorkersWarning, match="daemonic"):
            assert bot.act(observation) == pooled
        assert bot._pool.pids() == []


@pytest.mark.parametrize("workers", [0, -1, 1000, 1.5, True])
def test_a_bad_worker_count_is_refused(workers: Any) -> None:
    """Not a whole number from 1 to the maximum: a clear error naming ``workers``."""
    with pytest.raises(ValueError, match="workers"):
        _bot("ismcts", 0, workers)


def test_search_workers_reach_only_bots_that_take_them() -> None:
    """Search bots get ``workers=N``; other bots and specs that set their own do not."""
    spec = "ismcts,random,pimc:workers=1,no-such-bot"
    assert with_search_workers(spec, 2, stream=io.StringIO()) == (
        "ismcts:workers=2,random,pimc:workers=1,no-such-bot"
    )
    assert with_search_workers(spec, None) == spec


def test_more_search_processes_than_cores_are_warned_about(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Arena workers times search workers over the cores: one warning that says so."""
    monkeypatch.setattr(_parallel, "cpus", lambda: 4)
    out = io.StringIO()
    with_search_workers("ismcts,random", 2, 2, stream=out)
    assert out.getvalue() == ""
    with_search_workers("ismcts,random", 2, 3, stream=out)
    assert "3 arena workers x 2 search workers is 6 processes" in out.getvalue()
    assert "on 4 cores" in out.getvalue()
    out = io.StringIO()
    with_search_workers("ismcts:workers=8", None, 1, stream=out)
    assert "8 search workers is 8 processes" in out.getvalue()


def test_play_and_arena_warn_and_refuse_on_the_command_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``play`` warns when its search workers exceed the cores; a bad count exits 2."""
    monkeypatch.setattr(_parallel, "cpus", lambda: 1)
    assert main(["play", "highcard", "--bots", "ismcts:iterations=8,random",
                 "--search-workers", "2", "--json"]) == 0  # fmt: skip
    assert "2 search workers is 2 processes searching at once on 1 core" in (
        capsys.readouterr().err
    )
    for command in (["play", "highcard"], ["arena", "highcard", "--games", "1"]):
        assert main([*command, "--bots", "ismcts,random", "--search-workers", "0"]) == 2
        assert "--search-workers must be from 1" in capsys.readouterr().err


def test_the_pool_processes_exit_when_the_bot_process_is_killed() -> None:
    """A bot process that dies without closing its bot leaves no pool process behind."""
    script = (
        "import os, sys\n"
        "from cardcore import load_game\n"
        "from cardcore.bots import ISMCTSBot\n"
        "g = load_game('noddy')\n"
        "s = g.initial_state(2, 0)\n"
        "while len(g.legal_actions(s)) < 2:\n"
        "    s = g.apply(s, g.legal_actions(s)[0])\n"
        "b = ISMCTSBot(g, iterations=8, workers=2)\n"
        "b.act(g.observe(s, g.current_player(s)))\n"
        "print(*b._pool.pids(), flush=True)\n"
        "os._exit(0)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=HANG_GUARD
    )
    assert done.returncode == 0, done.stderr
    pids = [int(p) for p in done.stdout.split()]
    assert len(pids) == 2
    give_up = time.monotonic() + HANG_GUARD
    while any(_alive(p) for p in pids) and time.monotonic() < give_up:
        time.sleep(0.1)
    assert not any(_alive(p) for p in pids)


def test_a_pool_started_from_a_threaded_process_outlives_its_first_second(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Pool processes under ``forkserver`` (a bot's process running threads) keep serving."""
    if "forkserver" not in multiprocessing.get_all_start_methods():
        pytest.fail("this test needs the forkserver start method (POSIX)")
    monkeypatch.setattr(_parallel, "_context", lambda: multiprocessing.get_context("forkserver"))
    observation = _observations(1)[0]
    with _bot("ismcts", 3, 2, **_BUDGET["ismcts"]) as bot:
        bot.act(observation)
        pids = bot._pool.pids()
        time.sleep(1.5)  # past the pool processes' orphan checks (every 0.5 s)
        assert bot.act(observation) in observation.legal_actions
        assert bot._pool.pids() == pids


def test_search_workers_play_every_game_of_an_arena_worker() -> None:
    """An arena worker's later games start their search pools (none forfeits)."""
    from cardcore.arena import run_arena

    result = run_arena(
        "noddy", ["ismcts:iterations=12:workers=2", "random"], games=2, seed=1, workers=1, db=None
    )
    assert result.played == 4
    assert [s.forfeit_reasons for s in result.bots] == [(), ()]
