"""`cardcore certify`: bounded input, --json, progress on a terminal only."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from cardcore.cli import main


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--games", "0"], "--games must be between 1 and"),
        (["--games", "-3"], "--games must be between 1 and"),
        (["--games", str(10**12)], "--games must be between 1 and"),
        (["--players", "9"], "plays 2-4 players, not 9"),
        (["--players", "-1"], "plays 2-4 players, not -1"),
        (["--timeout", "0"], "--timeout must be between"),
        (["--timeout", "1e9"], "--timeout must be between"),
        (["--jobs", "0"], "--jobs must be between 1 and 256"),
        (["--seed", str(2**80)], "--seed must fit in 64 bits"),
        (["--preset", "nope"], "unknown preset 'nope'"),
    ],
)
def test_every_number_is_bounded(
    args: list[str], needle: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Out-of-range input gives one line naming the problem, exit 2, no traceback."""
    assert main(["certify", "highcard", *args]) == 2
    err = capsys.readouterr().err
    assert needle in err
    assert err.count("\n") == 1, err
    assert "Traceback" not in err


def _run(args: list[str], tmp_path: Path) -> list[str]:
    return [
        "certify",
        "highcard",
        "--preset",
        "quick",
        "--players",
        "2",
        "--games",
        "2",
        "--jobs",
        "1",
        "--failure-dir",
        str(tmp_path),
        *args,
    ]


def test_json_output(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(_run(["--json"], tmp_path)) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["game"] == "highcard"
    assert data["certified"] is True
    assert data["configurations"] == ["preset=quick"]
    assert data["games"] == 2
    assert set(data["properties"].values()) == {"passed"}
    assert "hash-seed" in data["properties"] and "time-out" in data["properties"]
    assert data["failures"] == []


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_with_eta_on_a_terminal_only(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main(_run([], tmp_path)) == 0
    assert capsys.readouterr().err == "", "no progress when stderr is not a terminal"
    tty = _Tty()
    monkeypatch.setattr("sys.stderr", tty)
    assert main(_run([], tmp_path)) == 0
    shown = tty.getvalue()
    assert "1/2 games" in shown and "2/2 games" in shown
    assert "left" in shown and "elapsed" in shown
    tty2 = _Tty()
    monkeypatch.setattr("sys.stderr", tty2)
    assert main(_run(["--quiet"], tmp_path)) == 0
    assert "games" not in tty2.getvalue()


def test_jobs_give_the_same_report(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Configurations checked side by side give the same counts as one after the other."""
    base = ["certify", "highcard", "--players", "2", "--games", "1", "--json"]
    base += ["--failure-dir", str(tmp_path)]
    assert main([*base, "--jobs", "1"]) == 0
    one = json.loads(capsys.readouterr().out)
    assert main([*base, "--jobs", "2"]) == 0
    two = json.loads(capsys.readouterr().out)
    for key in ("certified", "configurations", "games", "decisions", "properties"):
        assert one[key] == two[key], key
