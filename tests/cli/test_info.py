"""`cardcore --version`, `cardcore info GAME`, `replay --json` and `cardcore completion`."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from cardcore import MatchRecord, __version__
from cardcore.cli import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_version_names_cardcore_and_the_plugins(capsys: pytest.CaptureFixture[str]) -> None:
    """`--version` prints cardcore's version, then each plugin distribution's, and exits 0."""
    with pytest.raises(SystemExit) as ex:
        main(["--version"])
    assert ex.value.code == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == f"cardcore {__version__}"
    assert "  cardcore-highcard 0.1.0" in out.splitlines()
    assert "cardcore-nyuri" in out


def test_info_describes_players_presets_options_bots(capsys: pytest.CaptureFixture[str]) -> None:
    """`info nyuri`: players, what each preset sets, every option with values, default, meaning."""
    code, out, _ = run(capsys, "info", "nyuri")
    assert code == 0
    lines = out.splitlines()
    assert "  players        2-4" in lines
    assert "  rules version  1" in lines
    assert "  distribution   cardcore-nyuri 0.1.0" in lines
    (pagat,) = [line for line in lines if line.strip().startswith("pagat")]
    assert "capture=hand" in pagat and "three_card_penalty=true" in pagat
    assert "turn_limit" not in pagat  # the same as in default: not something pagat sets
    i = lines.index("  capture = pile")
    assert lines[i + 1] == "      allowed: pile, hand"
    assert "capture pile" in lines[i + 2]
    assert "  turn_limit = 200" in lines
    assert "      allowed: an integer >= 1" in lines
    bots = lines[lines.index("Bots (use --bots NAME,...):") + 1 :]
    names = {b.split()[0] for b in bots}
    assert {"nyuri-heuristic", "random", "ismcts", "pimc"} <= names
    assert "noddy-heuristic" not in names
    ismcts = next(i for i, b in enumerate(bots) if b.split()[0] == "ismcts")
    assert "iterations: int | None = None" in bots[ismcts + 1]  # a bot's options, under its line


def test_info_json_is_complete(capsys: pytest.CaptureFixture[str]) -> None:
    """`info --json` has the same facts in machine-readable form, options in order."""
    code, out, _ = run(capsys, "info", "highcard", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["id"] == "highcard"
    assert data["players"] == {"min": 2, "max": 4}
    assert data["distribution"] == "cardcore-highcard"
    assert set(data["presets"]) == {"default", "quick"}
    assert data["presets"]["quick"]  # a preset sets at least one option
    names = [o["name"] for o in data["options"]]
    assert names and set(names) == set(data["presets"]["default"])
    for o in data["options"]:
        assert {"name", "type", "default", "allowed", "doc"} <= set(o)
        assert o["default"] == data["presets"]["default"][o["name"]]
    assert {b["id"] for b in data["bots"]} >= {"random", "ismcts"}
    ismcts = next(b for b in data["bots"] if b["id"] == "ismcts")
    assert any(o.startswith("iterations: int") for o in ismcts["options"])


def test_info_shows_partnerships(capsys: pytest.CaptureFixture[str]) -> None:
    """Nestors is played in partnerships: info names them; a game without has none."""
    code, out, _ = run(capsys, "info", "nestors")
    assert code == 0
    assert "  teams          seats 0+2 vs 1+3 with 4 players" in out.splitlines()
    _, out, _ = run(capsys, "info", "nestors", "--json")
    assert json.loads(out)["teams"] == {"4": [[0, 2], [1, 3]]}
    _, out, _ = run(capsys, "info", "nyuri", "--json")
    assert json.loads(out)["teams"] == {}


def test_info_of_an_unknown_game_names_the_installed_ones(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A wrong game id is one line naming every installed game, exit code 2."""
    code, out, err = run(capsys, "info", "nyury")
    assert code == 2 and out == ""
    assert err.count("\n") == 1
    assert "unknown game 'nyury'" in err
    assert "highcard" in err and "nyuri" in err and "nestors" in err


def test_replay_json_gives_every_step(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """`replay FILE --json`: header, initial view, one entry per action, the outcome."""
    rec = tmp_path / "m.json"
    run(capsys, "play", "highcard", "--bots", "random,random", "--seed", "3", "--record", str(rec))
    record = MatchRecord.load(rec)
    code, out, _ = run(capsys, "replay", str(rec), "--json")
    assert code == 0
    data = json.loads(out)
    assert data["seen_by"] == "table"
    assert data["record"]["game"] == "highcard" and data["record"]["seed"] == 3
    assert [s["action"] for s in data["steps"]] == list(record.actions)
    assert [s["index"] for s in data["steps"]] == list(range(len(record.actions)))
    assert data["outcome"] == record.outcome.to_json()  # type: ignore[union-attr]
    assert data["steps"][-1]["observation"]["current_player"] is None


def test_replay_json_as_a_seat_hides_other_seats_actions(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Seen by one seat, only its own actions are named; its observations are its own."""
    rec = tmp_path / "m.json"
    run(capsys, "play", "highcard", "--bots", "random,random", "--seed", "3", "--record", str(rec))
    code, out, _ = run(capsys, "replay", str(rec), "--json", "--as", "1")
    assert code == 0
    data = json.loads(out)
    assert data["seen_by"] == 1
    for s in data["steps"]:
        assert (s["action"] is None) == (s["seat"] != 1)
        assert s["observation"]["seat"] == 1


@pytest.mark.parametrize("shell", ["bash", "zsh", "tcsh"])
def test_completion_scripts_name_every_command(
    capsys: pytest.CaptureFixture[str], shell: str
) -> None:
    """`completion SHELL` prints a script that knows every sub-command (bash, zsh: options too)."""
    code, out, _ = run(capsys, "completion", shell)
    assert code == 0
    for command in ("arena", "bench", "certify", "info", "play", "replay", "completion"):
        assert command in out
    if shell != "tcsh":  # shtab completes only the sub-commands in tcsh
        assert "--preset" in out and "--bots" in out


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
def test_bash_completion_completes_a_command(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Sourced into bash, the script completes `cardcore inf` to `info`."""
    script = tmp_path / "cardcore.bash"
    main(["completion", "bash"])
    script.write_text(capsys.readouterr().out, encoding="utf-8")
    probe = (
        f"source {script}; COMP_WORDS=(cardcore inf); COMP_CWORD=1; "
        "COMP_LINE='cardcore inf'; COMP_POINT=${#COMP_LINE}; "
        "_shtab_cardcore; printf '%s\\n' \"${COMPREPLY[@]}\""
    )
    done = subprocess.run(
        ["bash", "--norc", "-c", probe], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["info"]


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
def test_bash_completion_completes_installed_game_ids(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """After `cardcore info` and `cardcore bench`, the installed games are offered."""
    script = tmp_path / "cardcore.bash"
    main(["completion", "bash"])
    script.write_text(capsys.readouterr().out, encoding="utf-8")

    def complete(*words: str) -> list[str]:
        probe = (
            f"source {script}; COMP_WORDS=({' '.join(words)}); COMP_CWORD={len(words) - 1}; "
            f"COMP_LINE='{' '.join(words)}'; COMP_POINT=${{#COMP_LINE}}; "
            "_shtab_cardcore; printf '%s\\n' \"${COMPREPLY[@]}\""
        )
        done = subprocess.run(
            ["bash", "--norc", "-c", probe], capture_output=True, text=True, check=False
        )
        assert done.returncode == 0, done.stderr
        return sorted(done.stdout.split())

    assert complete("cardcore", "info", "n") == ["nestors", "noddy", "nyuri"]
    assert complete("cardcore", "bench", "highcard", "b") == ["box"]
    assert complete("cardcore", "info", "zz") == []


def test_the_command_line_does_not_load_shtab_until_asked() -> None:
    """Building the parser (every command) imports no completion library."""
    import sys

    code = "import sys, cardcore.cli; cardcore.cli.build_parser(); print('shtab' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"


def test_completion_without_shtab_says_what_to_install(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """If shtab is missing, one clear line says how to get it."""
    monkeypatch.setitem(__import__("sys").modules, "shtab", None)
    code, out, err = run(capsys, "completion", "bash")
    assert code == 2 and out == ""
    assert "pip install shtab" in err
