"""`cardcore play`, `list` and `doctor`: bot specs, seat filling, records, time limits, JSON."""

from __future__ import annotations

import argparse
import json
import re
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cardcore import MatchRecord, cli, play_match
from cardcore.cli import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def bot_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The current directory holds the tutorial's bot module (and is not on sys.path)."""
    name = f"my_first_bot_{tmp_path.name.replace('-', '_')}"
    (tmp_path / f"{name}.py").write_text(
        textwrap.dedent(
            """
            class FirstLegal:
                name = "first-legal"

                def act(self, observation):
                    return observation.legal_actions[0]
            """
        )
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    yield name
    sys.modules.pop(name, None)


def test_play_takes_a_module_class_bot_from_the_current_directory(
    bot_dir: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """`cardcore play highcard --bots mod:FirstLegal,random` plays the tutorial's class."""
    code, out, err = run(capsys, "play", "highcard", "--bots", f"{bot_dir}:FirstLegal,random")
    assert code == 0, err
    assert "seat 0: first-legal" in out and "Game over" in out


@pytest.mark.parametrize(
    ("bots", "message"),
    [
        (
            "ismcts:iters=5,random",
            "bot 'ismcts' has no option 'iters'; its options are: iterations",
        ),
        (
            "ismcts:iterations=abc,random",
            "bot 'ismcts': iterations must be an integer or none, not 'abc'",
        ),
        ("no_such_module_xyz:Bot,random", "cannot import 'no_such_module_xyz'"),
    ],
)
def test_bad_bot_specs_are_one_line(
    capsys: pytest.CaptureFixture[str], bots: str, message: str
) -> None:
    """`play` and `arena` refuse the same bad specs with the same message, exit 2."""
    code, _, err = run(capsys, "play", "highcard", "--bots", bots)
    assert code == 2 and message in err and err.count("\n") == 1
    code, _, err = run(
        capsys, "arena", "highcard", "--bots", bots, "--games", "1", "--db", ":memory:"
    )
    assert code == 2 and message in err, err


def test_a_short_bots_list_fills_the_game_s_seats(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`play nestors --human 0 --bots nestors-heuristic`: four seats, three heuristic bots."""
    from cardcore.cli import _common, _human
    from cardcore_nestors.bots import NestorsHeuristic

    seen: dict[str, Any] = {}

    def fake_play_human(game: Any, args: argparse.Namespace, n: int, humans: list[int]) -> int:
        seen["n"], seen["humans"] = n, humans
        seen["bots"] = _common.make_bots(game, args.bots, n, args.seed, skip=humans)
        return 0

    monkeypatch.setattr(_human, "play_human", fake_play_human)
    code, _, err = run(capsys, "play", "nestors", "--human", "0", "--bots", "nestors-heuristic")
    assert code == 0, err
    assert seen["n"] == 4 and seen["humans"] == [0]
    assert seen["bots"][0] is None
    assert all(isinstance(b, NestorsHeuristic) for b in seen["bots"][1:])


def test_bots_alone_fill_to_the_minimum(capsys: pytest.CaptureFixture[str]) -> None:
    """One bot for a two-player game plays both seats; too many seats is refused."""
    code, out, _ = run(capsys, "play", "highcard", "--bots", "random", "--json")
    assert code == 0 and json.loads(out)["bots"] == ["random", "random"]
    code, _, err = run(capsys, "play", "highcard", "--bots", "random", "--players", "5")
    assert code == 2 and "2-4 players, not 5" in err


def test_record_into_a_missing_folder_creates_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """`--record DIR/x.json` with DIR missing saves the match there."""
    target = tmp_path / "new" / "deeper" / "x.json"
    code, out, err = run(capsys, "play", "highcard", "--bots", "random", "--record", str(target))
    assert code == 0, err
    assert MatchRecord.load(target).outcome is not None
    assert f"record saved to {target}" in out


def test_record_that_cannot_be_written_is_refused_before_playing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A folder where a file is, or a path that is a folder: refused, nothing is played."""
    (tmp_path / "afile").write_text("")
    code, out, err = run(
        capsys,
        "play",
        "highcard",
        "--bots",
        "random",
        "--record",
        str(tmp_path / "afile" / "x.json"),
    )
    assert code == 2 and "cannot create its folder" in err and "Game over" not in out
    code, out, err = run(capsys, "play", "highcard", "--bots", "random", "--record", str(tmp_path))
    assert code == 2 and "is a folder" in err and "Game over" not in out


def test_a_record_that_fails_after_the_match_is_saved_elsewhere(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """If the file cannot be written after all, the match goes to a temporary file."""
    real_save = MatchRecord.save

    def failing_save(self: MatchRecord, path: str | Path) -> None:
        if Path(path).parent == tmp_path:
            raise OSError(28, "No space left on device")
        real_save(self, path)

    monkeypatch.setattr(MatchRecord, "save", failing_save)
    code, _, err = run(
        capsys, "play", "highcard", "--bots", "random", "--record", str(tmp_path / "x.json")
    )
    assert code == 2 and "No space left on device" in err
    fallback = err.split("saved to ")[1].split(" instead")[0]
    assert MatchRecord.load(fallback).outcome is not None
    Path(fallback).unlink()


def test_time_limit_reaches_play_match(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`--time-limit` is passed to play_match; a limit that is not positive is refused."""
    real = play_match
    seen: dict[str, Any] = {}

    def spy(*args: Any, **kwargs: Any) -> Any:
        seen.update(kwargs)
        return real(*args, **kwargs)

    monkeypatch.setattr("cardcore.cli.play_match", spy)
    code, _, _ = run(capsys, "play", "highcard", "--bots", "random", "--time-limit", "0.5")
    assert code == 0 and seen["time_limit"] == 0.5
    code, _, err = run(capsys, "play", "highcard", "--bots", "random", "--time-limit", "0")
    assert code == 2 and "--time-limit must be a positive number" in err


def test_help_says_how_seats_are_filled() -> None:
    """`cardcore play --help` documents filling the seats and module:Class bots."""
    parser = cli.build_parser()
    (play,) = [
        a.choices["play"] for a in parser._actions if isinstance(a, argparse._SubParsersAction)
    ]
    text = " ".join(play.format_help().split())
    assert "a shorter --bots list is repeated" in text
    assert "package.module:Class" in text


def test_list_shows_bot_options(capsys: pytest.CaptureFixture[str]) -> None:
    """`list` shows each bot's options; `--json` gives them as data."""
    code, out, _ = run(capsys, "list")
    assert code == 0
    assert "options: iterations: int | None = None; seconds: float | None = None" in out
    code, out, _ = run(capsys, "list", "--json")
    bots = {b["id"]: b for b in json.loads(out)["bots"]}
    assert bots["random"]["options"] == []
    it = bots["ismcts"]["options"][0]
    assert it == {
        "name": "iterations",
        "type": "int | None",
        "default": None,
        "required": False,
        "doc": "iterations per decision",
    }
    assert json.loads(out)["conflicts"] == []


def test_doctor_json_on_a_clean_install(capsys: pytest.CaptureFixture[str]) -> None:
    """`doctor --json` lists plugins and no problems, and exits 0."""
    code, out, _ = run(capsys, "doctor", "--json")
    data = json.loads(out)
    assert code == 0 and data["ok"] is True
    assert data["problems"] == [] and data["conflicts"] == []
    dists = {p["distribution"] for p in data["plugins"]}
    assert {"cardcore", "cardcore-nyuri", "cardcore-highcard"} <= dists
    assert data["games"] >= 5 and data["bots"] >= 7


def test_bots_only_play_draws_and_prints_a_seed(capsys: pytest.CaptureFixture[str]) -> None:
    """Without --seed, bots play a new deal whose seed is printed (and in --json)."""
    seeds = []
    for _ in range(2):
        assert main(["play", "highcard", "--bots", "random,random", "--json"]) == 0
        seeds.append(json.loads(capsys.readouterr().out)["seed"])
    assert seeds[0] != seeds[1]
    assert main(["play", "highcard", "--bots", "random,random"]) == 0
    out = capsys.readouterr().out
    m = re.search(r"seed (\d+)\n  \(a seed drawn at random: --seed (\d+) deals", out)
    assert m is not None and m.group(1) == m.group(2), out
