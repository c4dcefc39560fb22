"""``cardcore arena`` from the shell: output forms, errors, and resuming a killed run."""

from __future__ import annotations

import csv
import io
import json
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cardcore.arena import run_arena
from cardcore.cli import main

ROOT = Path(__file__).resolve().parents[2]
BOTS = "tests.arena.arena_testbots"


def _arena(*args: str) -> list[str]:
    return ["arena", "highcard", "--bots", "random,random", *args]


def test_json_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--json prints the whole result; the numbers match the Python API."""
    db = tmp_path / "j.sqlite"
    code = main(_arena("--games", "3", "--seed", "4", "--workers", "0", "--db", str(db), "--json"))
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert data["total_games"] == data["played"] == 6
    assert data["config"]["seed"] == 4
    again = run_arena("highcard", ["random", "random"], games=3, seed=4, db=db)
    assert again.played == 0
    assert [b["win_share"]["mean"] for b in data["bots"]] == [b.win_share.mean for b in again.bots]


def test_table_and_csv(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Without a terminal the report is a plain table; --csv writes one row per bot."""
    out_csv = tmp_path / "r.csv"
    args = _arena("--games", "2", "--workers", "0", "--db", str(tmp_path / "t.sqlite"))
    assert main([*args, "--csv", str(out_csv), "--option", "hand_size=2"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("highcard (preset default, 2 players): 2 deals x 2 seatings = 4 games")
    assert "win share" in out and "random#2" in out
    rows = list(csv.DictReader(io.StringIO(out_csv.read_text(encoding="utf-8"))))
    assert [r["bot"] for r in rows] == ["random", "random#2"]
    assert rows[0]["games"] == "4"


def test_errors_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A conflicting run, a bad bot list or a bad option: exit code 2 and a clear line."""
    db = str(tmp_path / "e.sqlite")
    assert main(_arena("--games", "1", "--workers", "0", "--db", db)) == 0
    capsys.readouterr()
    assert main(_arena("--games", "1", "--workers", "0", "--db", db, "--seed", "3")) == 2
    err = capsys.readouterr().err
    assert err.startswith("cardcore arena: error: run 'highcard' in ")
    assert "seed: 0 then, 3 now" in err and "--fresh" in err
    assert main(["arena", "highcard", "--bots", "random,,x", "--games", "1"]) == 2
    assert "empty bot name" in capsys.readouterr().err
    assert main(_arena("--games", "1", "--db", db, "--option", "hand_size=99")) == 2
    assert "hand_size" in capsys.readouterr().err
    args = _arena("--games", "1", "--workers", "0", "--db", db, "--seed", "3", "--fresh")
    assert main(args) == 0


def _count(db: Path) -> int:
    if not db.exists():
        return 0
    try:
        with sqlite3.connect(db) as con:
            return int(con.execute("SELECT COUNT(*) FROM games").fetchone()[0])
    except sqlite3.OperationalError:  # not created yet
        return 0


def test_a_killed_run_resumes_without_losing_or_replaying_games(tmp_path: Path) -> None:
    """Kill the arena mid-run; the rerun plays exactly the games that were not committed."""
    db = tmp_path / "k.sqlite"
    log = tmp_path / "built.log"
    args = [
        sys.executable,
        "-c",
        "import sys; from cardcore.cli import main; sys.exit(main())",
        "arena",
        "highcard",
        "--bots",
        f"{BOTS}:LogBot:log={log},random",
        "--games",
        "15",
        "--seed",
        "2",
        "--workers",
        "1",
        "--db",
        str(db),
        "--no-sandbox",  # the bot writes its log
    ]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "CARDCORE_BOT_TESTBOTS_DELAY": "0.05"}
    proc = subprocess.Popen(args, cwd=tmp_path, env=env, stdout=subprocess.DEVNULL)
    try:
        while _count(db) < 4 and proc.poll() is None:
            time.sleep(0.02)
    finally:
        proc.kill()
        proc.wait()
    with sqlite3.connect(db) as con:
        before = set(con.execute("SELECT bot_seeds, seats FROM games").fetchall())
    assert 4 <= len(before) < 30, "the run should have been stopped part-way"
    committed = {json.loads(s)[json.loads(seats).index(0)] for s, seats in before}
    log.write_text("", encoding="utf-8")

    env["CARDCORE_BOT_TESTBOTS_DELAY"] = "0"
    rerun = subprocess.run(args, cwd=tmp_path, env=env, capture_output=True, text=True, check=True)
    assert f"{30 - len(before)} games played now, {len(before)} reused" in rerun.stdout
    assert _count(db) == 30
    built = {int(x) for x in log.read_text(encoding="utf-8").split()} - {0}
    assert len(built) == 30 - len(before)
    assert not built & committed


@pytest.mark.parametrize(("columns", "rich"), [(200, True), (50, False)])
def test_terminal_table_fits_or_falls_back_to_text(
    columns: int, rich: bool, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a terminal the table is drawn with rich when it fits, else printed as text."""
    from cardcore.cli._arena import _print_rich

    monkeypatch.setenv("COLUMNS", str(columns))
    result = run_arena("highcard", ["random", "random"], games=2, workers=0)
    _print_rich(result)
    out = capsys.readouterr().out
    assert "random#2" in out and "win share" in out
    assert ("─" in out) is rich
    assert ("-----" in out) is not rich


@pytest.mark.parametrize("flag", ["--csv", "--report"])
def test_an_output_into_a_missing_folder_is_refused_before_playing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], flag: str
) -> None:
    """--csv (like --report) into a folder that does not exist stops before any game."""
    db = tmp_path / "never.sqlite"
    out = tmp_path / "missing" / "r.out"
    code = main(_arena("--games", "2", "--workers", "0", "--db", str(db), flag, str(out)))
    assert code == 2
    err = capsys.readouterr().err
    assert f"{flag} {out}: folder {out.parent} does not exist" in err
    assert len(err.strip().splitlines()) == 1
    assert not db.exists()  # nothing was played


def test_json_with_a_report_prints_only_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """With --json, stdout is one JSON document; the report's message goes to stderr."""
    report = tmp_path / "r.html"
    args = _arena("--games", "2", "--workers", "0", "--db", str(tmp_path / "j.sqlite"))
    assert main([*args, "--json", "--report", str(report), "--report-replays", "1"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["played"] == 4
    assert f"wrote {report}" in captured.err
    assert report.is_file()


def test_the_html_report_has_the_placing_and_the_warnings_of_the_terminal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The report shows each bot's placing and every warning the terminal prints."""
    import html

    report = tmp_path / "r.html"
    args = _arena("--games", "3", "--workers", "0", "--db", str(tmp_path / "w.sqlite"))
    assert main([*args, "--json", "--report", str(report)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert main(args) == 0
    terminal = capsys.readouterr().out
    warnings = [line for line in terminal.splitlines() if line.startswith("warning: ")]
    assert warnings and warnings == data["warnings"]
    assert any("cannot tell" in w for w in warnings)
    page = report.read_text(encoding="utf-8")
    for line in warnings:
        assert html.escape(line) in page
    assert "<th>placing [95%]</th>" in page
    for bot in data["bots"]:
        p = bot["placing"]
        assert f"<td>{p['mean']:.2f} [{p['low']:.2f}, {p['high']:.2f}]</td>" in page
