"""The cardcore command line: list, doctor, play, replay, certify, bench."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardcore import MatchRecord
from cardcore.cli import build_parser, main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_list_shows_games_and_bots(capsys: pytest.CaptureFixture[str]) -> None:
    """`cardcore list` names the example game and the built-in bots."""
    code, out, _ = run(capsys, "list")
    assert code == 0
    assert "highcard" in out and "random" in out and "ismcts" in out


def test_list_json(capsys: pytest.CaptureFixture[str]) -> None:
    """`--json` gives id, players, presets, distribution and version."""
    code, out, _ = run(capsys, "list", "--json")
    data = json.loads(out)
    (hc,) = [g for g in data["games"] if g["id"] == "highcard"]
    assert hc["players"] == [2, 4]
    assert hc["presets"] == ["default", "quick"]
    assert hc["distribution"] == "cardcore-highcard"
    assert {b["id"] for b in data["bots"]} >= {"random", "ismcts", "pimc"}


def test_doctor_lists_plugins(capsys: pytest.CaptureFixture[str]) -> None:
    """`cardcore doctor` shows each plugin with its version."""
    code, out, _ = run(capsys, "doctor")
    assert "cardcore-highcard" in out
    assert code in (0, 1)


def test_play_shows_turns_and_outcome_and_records(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A bot match is shown turn by turn; --record saves a replayable file."""
    rec = tmp_path / "m.json"
    code, out, _ = run(
        capsys, "play", "highcard", "--bots", "random,random", "--seed", "3", "--record", str(rec)
    )
    assert code == 0
    assert "seat 0 (random): play" in out
    assert "Game over after 6 decisions" in out
    assert MatchRecord.load(rec).seed == 3
    code, out, _ = run(capsys, "replay", str(rec), "--verify")
    assert code == 0 and "OK" in out


def test_play_json_and_bot_options(capsys: pytest.CaptureFixture[str]) -> None:
    """--json prints only the outcome; bot options use name:key=value."""
    code, out, _ = run(
        capsys,
        "play",
        "highcard",
        "--bots",
        "ismcts:iterations=20,random",
        "--json",
        "--preset",
        "quick",
    )
    assert code == 0
    data = json.loads(out)
    assert data["bots"] == ["ismcts", "random"]
    assert len(data["outcome"]["scores"]) == 2


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "nope", "--bots", "random"], "unknown game 'nope'"),
        (
            ["play", "highcard", "--bots", "random", "-o", "hand_size=99"],
            "option hand_size='99' is not allowed",
        ),
        (["play", "highcard", "--bots", "random", "-o", "colour=red"], "unknown option 'colour'"),
        (["play", "highcard", "--bots", "random", "--preset", "long"], "unknown preset 'long'"),
        (["play", "highcard", "--bots", "random,random,random,random,random"], "not 5"),
        (["play", "highcard", "--bots", "random,zzz"], "unknown bot 'zzz'"),
        (["play", "highcard", "--bots", "human,random"], "'human' is not a bot: a person"),
        (["play", "highcard", "--human", "0", "--bots", "human"], "'human' is not a bot"),
        (["play", "highcard", "--bots", "random:depth=2,random"], "has no option 'depth'"),
        (["play", "highcard", "--bots", "random", "-o", "nokey"], "must look like key=value"),
    ],
)
def test_bad_input_is_one_clear_line(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    """Errors exit 2 with one line naming the problem, no traceback."""
    code, _, err = run(capsys, *args)
    assert code == 2
    assert message in err
    assert "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_replay_as_a_seat_hides_other_hands(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """--as SEAT shows that seat's hand and only '?' for the others'."""
    rec = tmp_path / "m.json"
    run(capsys, "play", "highcard", "--bots", "random,random", "--seed", "1", "--record", str(rec))
    code, out, _ = run(capsys, "replay", str(rec), "--as", "1")
    assert code == 0
    assert "seat 1 (you): hand [" in out
    assert "seat 0: hand [? ? ?]" in out
    assert "seat 0: (moves)" in out
    record = MatchRecord.load(rec)
    for action in record.actions[::2]:
        # seat 0's actions are named only once they are on the table, never as "seat 0: play"
        assert f"seat 0: {action}" not in out


def test_replay_of_a_corrupt_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A corrupt record is one clear error."""
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "cardcore-match/1", "game": "highcard"}', encoding="utf-8")
    code, _, err = run(capsys, "replay", str(bad))
    assert code == 2
    assert "field" in err and "missing" in err


def test_certify_passes_on_the_example(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """`cardcore certify highcard` prints each property and exits 0."""
    code, out, _ = run(
        capsys,
        "certify",
        "highcard",
        "--preset",
        "quick",
        "--games",
        "2",
        "--failure-dir",
        str(tmp_path),
        "-q",
    )
    assert code == 0
    assert "passed no-leaks" in out
    assert out.strip().endswith("certified")


def test_bench_smoke(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """`cardcore bench` runs briefly and reports decisions/s (no speed is asserted)."""
    md = tmp_path / "results.md"
    code, out, _ = run(
        capsys,
        "bench",
        "highcard",
        "--preset",
        "quick",
        "--seconds",
        "0.1",
        "--json",
        "--markdown",
        str(md),
    )
    assert code == 0
    data = json.loads(out)
    (row,) = data["results"]
    assert row["game"] == "highcard" and row["decisions_per_s"] > 0
    assert "| highcard | quick |" in md.read_text(encoding="utf-8")


def test_every_command_has_help(capsys: pytest.CaptureFixture[str]) -> None:
    """--help works on every sub-command."""
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    for name in sub.choices:  # type: ignore[union-attr]
        with pytest.raises(SystemExit) as ex:
            main([name, "--help"])
        assert ex.value.code == 0
        assert "usage: cardcore" in capsys.readouterr().out


def test_an_unknown_option_shows_the_sub_command_s_usage(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`cardcore play highcard --bogus` answers with play's usage, not the top-level one."""
    with pytest.raises(SystemExit) as info:
        main(["play", "highcard", "--bogus"])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: cardcore play ")
    assert "cardcore play: error: unrecognized arguments: --bogus" in err


def test_serve_at_a_terminal_says_what_it_waits_for(tmp_path: Path) -> None:
    """`cardcore serve` run by a person at a terminal says it waits for an MCP client."""
    import os
    import pty
    import select
    import subprocess
    import sys

    main_fd, child_fd = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-c", "from cardcore.cli import main; raise SystemExit(main())", "serve"],
        stdin=child_fd,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        cwd=tmp_path,
    )
    os.close(child_fd)
    try:
        assert proc.stderr is not None
        ready, _, _ = select.select([proc.stderr], [], [], 300)  # a hang guard only
        line = proc.stderr.readline().decode() if ready else ""
    finally:
        proc.kill()
        proc.wait(timeout=60)
        proc.stderr.close()  # type: ignore[union-attr]
        os.close(main_fd)
    assert "waiting for an MCP client on standard input" in line


def test_without_the_rl_extra_the_environments_name_it(tmp_path: Path) -> None:
    """Importing an environment without gymnasium names the rl extra and how to install it."""
    import subprocess
    import sys

    code = (
        "import sys; sys.modules['gymnasium'] = None\n"
        "try:\n"
        "    from cardcore.adapters import gymnasium\n"
        "except ModuleNotFoundError as e:\n"
        "    print(e.name, '|', e)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("gymnasium | "), done.stdout
    assert "needs the 'rl' extra" in done.stdout
    assert "pip install './[rl]'" in done.stdout
