"""`cardcore certify`: bounded input, --json, progress on a terminal only."""

from __future__ import annotations

import io
import json
import time
from pathlib import Path

import pytest

from cardcore.cli import main
from cardcore_highcard import Highcard, HighcardState, Play


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


class _HangsInApply(Highcard):  # type: ignore[misc]
    """A call that never returns, at the second card of every game."""

    def apply(self, state: HighcardState, action: Play) -> HighcardState:
        if state.table.orders[1 + len(state.wins)]:
            while True:
                time.sleep(0.05)
        return super().apply(state, action)


def test_certify_ends_a_never_ending_game_with_a_verdict(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A game that never ends is stopped by --timeout in each configuration and reported."""
    import cardcore.cli._common
    import cardcore.testing._kit
    from cardcore import GameSpec, Plugin, PluginHost
    from cardcore_highcard import PRESETS, HighcardOptions

    host = PluginHost(load_entrypoints=False)
    spec = GameSpec(
        name="highcard",
        title="High card",
        factory=_HangsInApply,
        options_type=HighcardOptions,
        presets=PRESETS,
        min_players=2,
        max_players=4,
        rules_text=PluginHost().game_spec("highcard").rules_text,
    )
    host.register(Plugin(games=[spec]), name="hangs")
    monkeypatch.setattr(cardcore.cli._common, "_host", lambda: host)
    monkeypatch.setattr(cardcore.testing._kit, "default_host", lambda: host)
    args = [
        "certify",
        "highcard",
        "--preset",
        "quick",
        "--players",
        "2",
        "--timeout",
        "1",
        "-j",
        "1",
    ]
    assert main([*args, "--games", "2", "--failure-dir", str(tmp_path), "-q"]) == 1
    out = capsys.readouterr().out
    verdicts = [line for line in out.splitlines() if line.startswith("FAILED ")]
    assert verdicts, out
    for line in verdicts:
        assert line.startswith("FAILED time-out"), line
        assert "ran over the time limit of 1 s" in line, line
    assert out.rstrip().endswith("NOT certified")


def test_certify_leaves_no_hypothesis_folder_behind(tmp_path: Path) -> None:
    """The kit's Hypothesis caches stay out of the folder certify runs in."""
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "HYPOTHESIS_STORAGE_DIRECTORY"}
    args = ["certify", "highcard", "--preset", "default", "--players", "4", "--games", "3"]
    done = subprocess.run(
        [sys.executable, "-m", "cardcore", *args, "-j", "1", "-q"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "certified" in done.stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == []
