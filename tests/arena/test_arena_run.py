"""run_arena: reproducible results, storage, resuming, refusing mixed runs, reporting."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from cardcore.arena import ArenaError, ArenaResult, run_arena
from cardcore.arena._store import Store

ROOT = Path(__file__).resolve().parents[2]
BOTS = "tests.arena.arena_testbots"


@pytest.fixture
def testbots(monkeypatch: pytest.MonkeyPatch) -> str:
    """Make the test bots importable here and in worker processes; return their module."""
    monkeypatch.syspath_prepend(str(ROOT))
    return BOTS


def _stored(db: Path, run: str = "highcard") -> list[tuple[Any, ...]]:
    with Store(db) as store:
        return [
            (g.deal, g.arrangement, g.seats, g.seed, g.bot_seeds, g.outcome, g.record)
            for g in store.games(run, records=True)
        ]


def test_results_do_not_depend_on_the_number_of_workers(tmp_path: Path) -> None:
    """In this process or in two worker processes: the same games, records and stats."""
    kw: dict[str, Any] = {"games": 6, "seed": 11, "players": 3}
    inline = run_arena("highcard", ["random", "random"], workers=0, db=tmp_path / "a", **kw)
    pooled = run_arena("highcard", ["random", "random"], workers=2, db=tmp_path / "b", **kw)
    assert inline.bots == pooled.bots
    assert _stored(tmp_path / "a") == _stored(tmp_path / "b")
    assert len(_stored(tmp_path / "a")) == 6 * 6 == inline.games == pooled.played


def test_every_deal_is_played_with_the_same_cards_in_every_seating(tmp_path: Path) -> None:
    """Duplicate deals: within a deal the seed is shared and the seats are permuted."""
    result = run_arena("highcard", ["random", "random"], games=3, seed=2, workers=0, db=None)
    assert result.arrangements == ((0, 1), (1, 0))
    db = tmp_path / "x.sqlite"
    run_arena("highcard", ["random", "random"], games=3, seed=2, workers=0, db=db)
    rows = _stored(db)
    for deal in range(3):
        games = [r for r in rows if r[0] == deal]
        assert len({r[3] for r in games}) == 1
        assert sorted(r[2] for r in games) == [(0, 1), (1, 0)]
        assert all(r[6]["seed"] == r[3] for r in games)
    assert len({r[3] for r in rows}) == 3


def test_each_game_is_committed_and_a_rerun_plays_nothing(tmp_path: Path) -> None:
    """A finished run reruns from the database: nothing played, the same statistics."""
    db = tmp_path / "r.sqlite"
    first = run_arena("highcard", ["random", "random"], games=4, seed=5, workers=0, db=db)
    again = run_arena("highcard", ["random", "random"], games=4, seed=5, workers=0, db=db)
    assert (first.played, first.reused) == (8, 0)
    assert (again.played, again.reused) == (0, 8)
    assert again.bots == first.bots
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT COUNT(*) FROM games").fetchone() == (8,)


def test_more_deals_extend_a_run_and_fewer_report_a_prefix(tmp_path: Path) -> None:
    """Raising --games plays only the new deals; the prefix equals a shorter run."""
    db = tmp_path / "e.sqlite"
    short = run_arena("highcard", ["random", "random"], games=3, seed=9, workers=0, db=db)
    longer = run_arena("highcard", ["random", "random"], games=5, seed=9, workers=0, db=db)
    prefix = run_arena("highcard", ["random", "random"], games=3, seed=9, workers=0, db=db)
    assert (longer.played, longer.reused) == (4, 6)
    assert prefix.bots == short.bots
    assert prefix.played == 0


def test_a_partial_run_resumes_without_replaying(tmp_path: Path, testbots: str) -> None:
    """Games stored by an interrupted run are not played again; the rest are."""
    db = tmp_path / "p.sqlite"
    log = tmp_path / "built.log"
    bots = [f"{testbots}:LogBot:log={log}", "random"]
    full = run_arena("highcard", bots, games=4, seed=3, workers=0, db=None)
    run_arena("highcard", bots, games=4, seed=3, workers=0, db=db)
    with sqlite3.connect(db) as con:  # forget three games, as if the run had been killed
        con.execute("DELETE FROM games WHERE deal >= 3 OR (deal = 2 AND arrangement = 1)")
    log.write_text("", encoding="utf-8")
    resumed = run_arena("highcard", bots, games=4, seed=3, workers=0, db=db)
    assert (resumed.played, resumed.reused) == (3, 5)
    replayed = {(2, 1), (3, 0), (3, 1)}
    expected = {str(g[4][g[2].index(0)]) for g in _stored(db) if (g[0], g[1]) in replayed}
    built = set(log.read_text(encoding="utf-8").split()) - {"0"}  # "0": the arena's check
    assert built == expected
    assert resumed.bots == full.bots


def test_another_configuration_under_the_same_name_is_refused(tmp_path: Path) -> None:
    """Changing the bots, seed or options of a stored run needs --name or --fresh."""
    db = tmp_path / "c.sqlite"
    run_arena("highcard", ["random", "random"], games=2, seed=1, workers=0, db=db)
    for change in ({"seed": 2}, {"options": {"hand_size": 2}}, {"players": 3}):
        kw: dict[str, Any] = {"games": 2, "seed": 1, "workers": 0, "db": db, **change}
        with pytest.raises(ArenaError, match=r"another configuration.*--name.*--fresh"):
            run_arena("highcard", ["random", "random"], **kw)
    other = run_arena("highcard", ["random"] * 3, games=2, seed=1, workers=0, db=db, name="three")
    assert other.run == "three" and other.played == 12
    fresh = run_arena("highcard", ["random"] * 3, games=1, seed=4, workers=0, db=db, fresh=True)
    assert fresh.played == 6 and fresh.reused == 0
    with Store(db) as store:
        assert sorted(store.runs()) == ["highcard", "three"]
        assert store.runs()["highcard"]["seed"] == 4


def test_a_better_bot_is_told_apart(testbots: str) -> None:
    """Highest card first beats random: its win share interval lies above one half."""
    bots = [f"{testbots}:HighBot", "random"]
    options = {"hand_size": 10}
    result = run_arena("highcard", bots, games=20, options=options, seed=1, workers=0, db=None)
    high, rnd = result.bots
    assert high.win_share.low is not None and high.win_share.low > 0.5
    assert rnd.win_share.high is not None and rnd.win_share.high < 0.5
    assert high.placing.mean < rnd.placing.mean
    assert high.rating is not None and rnd.rating is not None
    assert high.rating.mu > rnd.rating.mu
    assert high.games == rnd.games == 40
    assert high.win_share.mean + rnd.win_share.mean == pytest.approx(1.0)


def test_without_openskill_the_report_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ratings are optional: without openskill they are None and the note says why."""
    monkeypatch.setitem(sys.modules, "openskill", None)
    monkeypatch.setitem(sys.modules, "openskill.models", None)
    result = run_arena("highcard", ["random", "random"], games=2, workers=0, db=None)
    assert all(b.rating is None for b in result.bots)
    assert "openskill is not installed" in result.ratings_note
    assert "openskill is not installed" in result.table()


def test_report_forms(tmp_path: Path) -> None:
    """The plain table, JSON and CSV carry the same per-bot figures."""
    result = run_arena("highcard", ["random", "random"], games=5, seed=1, workers=0, db=None)
    assert isinstance(result, ArenaResult)
    text = result.table()
    assert "5 deals x 2 seatings = 10 games" in text
    assert "random#2" in text and "Student t" in text
    data = json.loads(json.dumps(result.to_json()))
    assert [b["bot"] for b in data["bots"]] == ["random", "random#2"]
    assert data["bots"][0]["win_share"]["mean"] == result.bots[0].win_share.mean
    path = tmp_path / "r.csv"
    result.write_csv(path)
    rows = list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))
    assert [r["bot"] for r in rows] == ["random", "random#2"]
    assert float(rows[1]["placing_mean"]) == result.bots[1].placing.mean
    assert float(rows[0]["rating_mu"]) == pytest.approx(result.bots[0].rating.mu)  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"games": 0}, "must be 1-1000000"),
        ({"players": 5}, "2-4 players"),
        ({"bots": ["random"] * 5}, "at most 4"),
        ({"bots": ["no-such-bot"]}, "unknown bot"),
        ({"bots": ["no_such_module:Bot"]}, "cannot import"),
        ({"time_limit": 0}, "more than 0"),
    ],
)
def test_bad_configurations_are_refused(kwargs: dict[str, Any], message: str) -> None:
    """Mistakes are reported before any game is played."""
    kw: dict[str, Any] = {"bots": ["random", "random"], "games": 1, "workers": 0, "db": None}
    kw.update(kwargs)
    bots = kw.pop("bots")
    with pytest.raises(ArenaError, match=message):
        run_arena("highcard", bots, **kw)


def test_importing_the_arena_stays_light() -> None:
    """``import cardcore.arena`` loads neither dask, openskill nor rich."""
    code = (
        "import sys, cardcore, cardcore.arena\n"
        "heavy = [m for m in ('dask', 'distributed', 'openskill', 'rich') if m in sys.modules]\n"
        "print(heavy)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"


def test_partnership_copies_play_as_a_team(tmp_path: Path) -> None:
    """At Nestors two bots each hold a whole team, and the teams share each game's win."""
    pytest.importorskip("cardcore_nestors")
    db = tmp_path / "n.sqlite"
    result = run_arena("nestors", ["random", "random"], games=1, seed=1, workers=0, db=db)
    assert result.config.players == 4
    assert result.arrangements == ((0, 1, 0, 1), (1, 0, 1, 0))
    for deal, arrangement, seats, *_, outcome, _record in _stored(db, "nestors"):
        assert outcome["teams"] == [[0, 2], [1, 3]], (deal, arrangement)
        team = [sum(Fraction(outcome["shares"][s]) for s in t) for t in ((0, 2), (1, 3))]
        assert sum(team) == 1
        assert seats[0] == seats[2] != seats[1] == seats[3]
    assert sum(b.win_share.mean for b in result.bots) == pytest.approx(1.0)


def test_progress_bar_draws_on_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    """With the bar on, games done and the rate go to stderr; stdout stays clean."""
    result = run_arena("highcard", ["random", "random"], games=3, workers=0, progress=True)
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "6/6" in captured.err and "games/s" in captured.err
    assert result.played == 6


def test_a_row_with_unreadable_json_is_played_again_and_named(tmp_path: Path) -> None:
    """One bad JSON cell (outcome, record, seats, bot_seeds) rejects its row only, by name."""
    db = tmp_path / "d.sqlite"
    first = run_arena("highcard", ["random", "random"], games=3, seed=5, workers=0, db=db)
    damage = {
        (0, 0): ("outcome", "{not json"),
        (1, 1): ("seats", "[0,"),
        (2, 0): ("bot_seeds", '"seeds"'),
        (2, 1): ("record", "nope"),
    }
    with sqlite3.connect(db) as con:
        for (deal, arrangement), (column, text) in damage.items():
            con.execute(
                f"UPDATE games SET {column} = ? WHERE deal = ? AND arrangement = ?",
                (text, deal, arrangement),
            )
    again = run_arena("highcard", ["random", "random"], games=3, seed=5, workers=0, db=db)
    assert (again.played, again.reused) == (4, 2)
    assert len(again.rejected) == 4
    for (deal, arrangement), (column, _) in damage.items():
        named = [r for r in again.rejected if r.startswith(f"deal {deal}, seating {arrangement}:")]
        assert len(named) == 1 and f"its {column} cell is not" in named[0]
    assert again.bots == first.bots
    third = run_arena("highcard", ["random", "random"], games=3, seed=5, workers=0, db=db)
    assert (third.played, third.rejected) == (0, ())
