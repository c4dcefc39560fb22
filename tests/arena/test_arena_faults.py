"""Bad bots lose by forfeit and never take the arena down."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from cardcore.arena import ArenaError, deal_seed, run_arena
from cardcore.arena import _worker as worker
from cardcore.arena._store import Store

ROOT = Path(__file__).resolve().parents[2]
BOTS = "tests.arena.arena_testbots"


@pytest.fixture
def testbots(monkeypatch: pytest.MonkeyPatch) -> str:
    """Make the test bots importable here and in worker processes; return their module."""
    monkeypatch.syspath_prepend(str(ROOT))
    return BOTS


def _reasons(db: Path) -> list[tuple[int | None, str, int]]:
    with Store(db) as store:
        return [(g.forfeit, g.reason, g.attempts) for g in store.games("highcard")]


@pytest.mark.parametrize(
    ("bot", "reason"),
    [
        ("CrashBot", "raised RuntimeError: crash bot crashed"),
        ("IllegalBot", "illegal action"),
        ("StartCrashBot", "raised KeyError in start_match: no opening book"),
        ("ExitCallBot", "raised SystemExit: called exit(5)"),
    ],
)
@pytest.mark.parametrize("isolation", ["none", "auto"])
def test_crashing_and_cheating_bots_forfeit(
    tmp_path: Path, testbots: str, bot: str, reason: str, isolation: str
) -> None:
    """A bot that raises (even SystemExit, even in start_match) or cheats loses every game.

    The same, with the same reasons, in the worker and in a process of its own.
    """
    db = tmp_path / "f.sqlite"
    result = run_arena(
        "highcard",
        [f"{testbots}:{bot}", "random"],
        games=2,
        workers=0,
        db=db,
        isolation=isolation,
    )
    bad, good = result.bots
    assert (bad.forfeits, bad.games, good.forfeits) == (4, 4, 0)
    assert bad.win_share.mean == 0.0 and good.win_share.mean == 1.0
    assert any(reason in r for r in bad.forfeit_reasons)
    assert all(f is not None and reason in r for f, r, _ in _reasons(db))


@pytest.mark.parametrize(
    ("isolation", "workers", "reason"),
    [
        ("none", 2, "worker was stopped"),
        ("none", 0, "it was abandoned"),
        ("auto", 2, "its process was stopped"),
        ("auto", 0, "its process was stopped"),
    ],
)
def test_a_hung_bot_is_stopped_and_forfeits(
    tmp_path: Path, testbots: str, isolation: str, workers: int, reason: str
) -> None:
    """A bot that never returns is stopped soon after the limit, however it runs.

    In a worker, the worker is killed; with ``--workers 0`` the decision is left in its
    thread; isolated, the bot's process is killed. The arena goes on, and the hung bot
    loses both games, each within the limit plus the margin (and far less than its 60 s
    sleep).
    """
    db = tmp_path / "h.sqlite"
    t0 = time.monotonic()
    result = run_arena(
        "highcard",
        [f"{testbots}:HangBot", "random"],
        games=1,
        workers=workers,
        time_limit=0.1,
        db=db,
        isolation=isolation,
    )
    assert time.monotonic() - t0 < 30
    hung, other = result.bots
    assert (hung.forfeits, hung.games, other.win_share.mean) == (2, 2, 1.0)
    rows = _reasons(db)
    assert len(rows) == 2
    assert all(reason in r for _, r, _ in rows), rows


def test_a_bot_that_kills_its_worker_forfeits_after_retries(tmp_path: Path, testbots: str) -> None:
    """A worker that dies has its game played again; after three deaths the bot forfeits."""
    db = tmp_path / "x.sqlite"
    result = run_arena(
        "highcard", [f"{testbots}:ExitBot", "random"], games=1, workers=2, db=db, isolation="none"
    )
    assert result.bots[0].forfeits == 2
    assert result.bots[1].win_share.mean == 1.0
    for forfeit, reason, attempts in _reasons(db):
        assert forfeit is not None
        assert "worker process died (exit code 3) in 3 attempts" in reason
        assert attempts == 3


def test_an_isolated_bot_that_ends_its_process_forfeits_at_once(testbots: str) -> None:
    """Isolated, a bot that ends its own process loses that game; its worker lives on."""
    result = run_arena("highcard", [f"{testbots}:ExitBot", "random"], games=1, workers=1)
    assert result.bots[0].forfeits == 2
    assert "ended its process (exit code 3)" in result.bots[0].forfeit_reasons[0]


def test_a_worker_that_dies_once_is_replaced_and_the_game_replayed(
    tmp_path: Path, testbots: str
) -> None:
    """One death is not a forfeit: the game is replayed and counts normally."""
    db = tmp_path / "o.sqlite"
    marker = tmp_path / "marker"
    bots = [f"{testbots}:ExitOnceBot:marker={marker}", "random"]
    result = run_arena("highcard", bots, games=2, workers=1, db=db, isolation="none")
    assert marker.exists()
    assert result.games == 4 and result.errors == ()
    assert sum(b.forfeits for b in result.bots) == 0
    attempts = sorted(a for _, _, a in _reasons(db))
    assert attempts == [1, 1, 1, 2]
    reference = run_arena("highcard", bots, games=2, workers=0, db=None, isolation="none")
    assert reference.bots == result.bots


def test_a_bot_that_cannot_start_forfeits(testbots: str) -> None:
    """A bot whose factory fails for a game (not at the arena's check) forfeits it."""
    result = run_arena("highcard", [f"{testbots}:FragileBot", "random"], games=2, workers=0)
    assert result.bots[0].forfeits == 4
    assert (
        result.bots[0]
        .forfeit_reasons[0]
        .endswith("could not start: OSError: fragile bot cannot find its weights")
    )


def test_a_bot_that_is_broken_everywhere_is_refused_before_playing(testbots: str) -> None:
    """A bot that fails even at the arena's check is a configuration error."""
    bot = f"{testbots}:FragileBot:always=true"
    with pytest.raises(ArenaError, match="fails when built"):
        run_arena("highcard", [bot, "random"], games=1, workers=0, isolation="none")
    with pytest.raises(ArenaError, match="could not start: OSError: fragile bot"):
        run_arena("highcard", [bot, "random"], games=1, workers=0)


def test_a_failing_game_is_an_error_and_is_played_again_next_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rules that raise give error rows (their deal left out); a rerun plays them again."""
    real = worker._load_game
    bad_seed = deal_seed(7, 1)

    class Broken:
        def __init__(self, game: Any) -> None:
            self._game = game

        def __getattr__(self, name: str) -> Any:
            return getattr(self._game, name)

        def initial_state(self, num_players: int, seed: int, **kw: Any) -> Any:
            if seed == bad_seed:
                raise ValueError("deck on fire")
            return self._game.initial_state(num_players, seed, **kw)

    monkeypatch.setattr(worker, "_load_game", lambda *a: Broken(real(*a)))
    db = tmp_path / "b.sqlite"
    first = run_arena("highcard", ["random", "random"], games=3, seed=7, workers=0, db=db)
    assert (first.games, first.incomplete_deals, len(first.errors)) == (4, 1, 2)
    assert first.errors[0].startswith("deal 1, seating 0: the game failed: RecordError:")
    assert "deck on fire" in first.errors[0]
    assert "deal(s) left out" in first.table()
    monkeypatch.undo()
    second = run_arena("highcard", ["random", "random"], games=3, seed=7, workers=0, db=db)
    assert (second.played, second.games, second.errors) == (2, 6, ())
