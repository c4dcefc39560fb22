"""The arena's results stay honest: stored games verified, damage and absurd numbers refused."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from cardcore.arena import ArenaError, run_arena
from cardcore.cli import main


def test_an_edited_stored_outcome_is_rejected_and_played_again(tmp_path: Path) -> None:
    """Turning a stored win into a forfeit (record and column) does not survive a resume."""
    db = tmp_path / "a.sqlite"
    first = run_arena("highcard", ["random", "random"], games=3, seed=2, workers=0, db=db)
    con = sqlite3.connect(db)
    (record,) = con.execute(
        "SELECT record FROM games WHERE deal = 1 AND arrangement = 0"
    ).fetchone()
    data = json.loads(record)
    forged = {**data["outcome"], "scores": [0.0, 1.0], "placing": [2, 1], "shares": ["0", "1"]}
    forged.update(forfeit=0, reason="seat 0 raised RuntimeError: x")
    data["outcome"] = forged
    with con:
        con.execute(
            "UPDATE games SET record = ?, outcome = ?, forfeit = 0 "
            "WHERE deal = 1 AND arrangement = 0",
            (json.dumps(data), json.dumps(forged)),
        )
    con.close()
    again = run_arena("highcard", ["random", "random"], games=3, seed=2, workers=0, db=db)
    assert (again.played, again.reused) == (1, 5)
    assert len(again.rejected) == 1
    assert "deal 1, seating 0" in again.rejected[0]
    assert "finished game" in again.rejected[0]
    assert again.bots == first.bots  # the honest result is back
    assert "did not verify and were played again" in again.table()


def test_garbage_in_the_database_is_one_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Bytes overwritten in the middle of the file give one line naming it, no traceback."""
    db = tmp_path / "g.sqlite"
    run_arena("highcard", ["random", "random"], games=40, seed=1, workers=0, db=db)
    con = sqlite3.connect(db)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    raw = bytearray(db.read_bytes())
    assert len(raw) > 3 * 4096
    raw[4096 : 3 * 4096] = b"\xde\xad" * 4096
    db.write_bytes(bytes(raw))
    code = main(["arena", "highcard", "--bots", "random,random", "--games", "40", "--seed", "1",
                 "--workers", "0", "--db", str(db), "--no-progress"])  # fmt: skip
    err = capsys.readouterr().err
    assert code == 2
    assert str(db) in err
    assert "Traceback" not in err
    assert len(err.strip().splitlines()) == 1
    with pytest.raises(ArenaError, match=r"damaged|not a usable"):
        run_arena("highcard", ["random", "random"], games=40, seed=1, workers=0, db=db)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--games", str(10**12)], "--games must be 1-1000000"),
        (["--games", "0"], "--games must be 1-1000000"),
        (["--games", "1000000", "--players", "3"], "more than one run may hold"),
        (["--workers", "100000"], "--workers must be 0-1024"),
        (["--time-limit", "1e9"], "--time-limit must be more than 0"),
        (["--time-limit", "nan"], "--time-limit must be more than 0"),
        (["--seed", str(2**70)], "--seed must lie"),
        (["--players", "1000"], "--players must be 1-64"),
    ],
)
def test_absurd_numbers_are_refused_at_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    """Every number a user types is bounded; none runs out of memory or time."""
    base = ["arena", "highcard", "--bots", "random,random", "--games", "1"]
    code = main([*base, "--db", str(tmp_path / "n.sqlite"), "--no-progress", *args])
    err = capsys.readouterr().err
    assert code == 2
    assert message in err
    assert not (tmp_path / "n.sqlite").exists() or "--games" not in message


def test_help_shows_the_default_time_limit_and_isolation(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``arena --help`` documents the default limit, its margin and the isolation modes."""
    with pytest.raises(SystemExit):
        main(["arena", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "default: 5.0" in out
    assert "0.25 s after the limit" in out
    assert "--isolation {auto,process,none}" in out


def test_isolation_does_not_change_results(tmp_path: Path) -> None:
    """The same arena with every bot isolated or none gives the same games and table."""
    kw = {"games": 2, "seed": 4, "workers": 1}
    alone = run_arena("highcard", ["random", "random"], isolation="process", **kw)  # type: ignore[arg-type]
    here = run_arena("highcard", ["random", "random"], isolation="none", **kw)  # type: ignore[arg-type]
    assert alone.bots == here.bots
    assert alone.games == here.games == 4


@pytest.mark.parametrize("isolation", ["none", "auto"])
@pytest.mark.parametrize("bot", ["EqualsAll", "RaisingEq", "EditsLegal"])
def test_a_cheating_answer_is_a_forfeit_that_counts(
    monkeypatch: pytest.MonkeyPatch, bot: str, isolation: str
) -> None:
    """Objects equal to everything, raising ones, edited observations: forfeits, no errors.

    Every deal stays in the statistics, and the offender scores nothing.
    """
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[2]))
    result = run_arena(
        "highcard",
        [f"tests.engine_testbots:{bot}", "random"],
        games=2,
        workers=0,
        isolation=isolation,
    )
    bad, good = result.bots
    assert result.errors == ()
    assert result.incomplete_deals == 0
    assert (bad.games, bad.forfeits, good.forfeits) == (4, 4, 0)
    assert bad.win_share.mean == 0.0
