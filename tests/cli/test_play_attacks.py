"""In ``cardcore play``, bots that try to learn the deal, outlive their match or hog memory fail.

The attack bots of ``tests/arena/attack_bots.py`` sit at a ``play`` table in every
isolation mode: in the play process (``none``), in processes of their own
(``process``) and in the bubblewrap sandbox. Each match runs as its own ``cardcore play``
process, so that its ``--seed`` is on a real command line.
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from cardcore import MatchRecord, load_game, verify
from cardcore.cli import main

ROOT = Path(__file__).resolve().parents[2]
BOTS = "tests.arena.attack_bots"
MODES: dict[str, list[str]] = {
    "none": ["--isolation", "none"],
    "process": ["--isolation", "process", "--no-sandbox"],
    "sandbox": ["--isolation", "process", "--sandbox"],
}


def _play(
    tmp_path: Path, *args: str, stdin: str = "", home: Path | None = None
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    if home is not None:
        env["HOME"] = str(home)
    return subprocess.run(
        [sys.executable, "-m", "cardcore", "play", *args],
        env=env,
        cwd=tmp_path,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def _verdicts(err: str, attack: str) -> list[str]:
    prefix = f"attack {attack}: "
    return [line[len(prefix) :] for line in err.splitlines() if line.startswith(prefix)]


def _outcome(done: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    assert done.returncode == 0, done.stderr
    data: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return data


@pytest.mark.parametrize("mode", MODES)
def test_the_seed_on_the_command_line_reveals_no_deal(tmp_path: Path, mode: str) -> None:
    """A bot that reads ``--seed 7`` off play's command line cannot rebuild the deal."""
    record = tmp_path / "m.json"
    done = _play(
        tmp_path, "highcard", "--bots", f"{BOTS}:SeedThief,random", "--seed", "7",
        "-o", "hand_size=13", "--json", "--record", str(record), *MODES[mode],
    )  # fmt: skip
    data = _outcome(done)
    verdicts = _verdicts(done.stderr, "seed")
    assert len(verdicts) == 1 and verdicts[0].startswith("failed"), verdicts
    if mode != "sandbox":  # it saw the seed (among any others on the machine): no help
        seen = re.search(r"--seed \[([-\d, ]+)\] seen", verdicts[0])
        assert seen is not None and "7" in seen.group(1).split(", "), verdicts
    assert "--seed does not deal it again" in done.stderr
    saved = MatchRecord.load(record)
    assert saved.seed == data["seed"] != 7  # the record holds the deal, and replays
    verify(saved, load_game("highcard", **saved.options))


@pytest.mark.parametrize("mode", MODES)
def test_a_saved_match_is_out_of_a_sandboxed_bot_s_reach(tmp_path: Path, mode: str) -> None:
    """Resuming a save: only the sandbox keeps the bot from reading the file's deal."""
    save = tmp_path / "saved.json"
    thief = f"{BOTS}:SaveThief:path={save}"
    MatchRecord(
        game="highcard", options={}, num_players=2, seed=12345, actions=(),
        bots=(thief, "human"),
    ).save(save)  # fmt: skip
    done = _play(tmp_path, "--resume", str(save), "--json", *MODES[mode], stdin="1\n" * 20)
    assert done.returncode == 0, done.stderr
    verdicts = _verdicts(done.stderr, "saves")
    assert len(verdicts) == 1, done.stderr
    assert verdicts[0].startswith("failed") is (mode == "sandbox"), verdicts


@pytest.mark.parametrize("bot", ["Spawner", "Detacher"])
@pytest.mark.parametrize("mode", MODES)
def test_a_leftover_process_ends_with_the_match(tmp_path: Path, mode: str, bot: str) -> None:
    """What a bot starts, even detached in a session of its own, is gone when play ends."""
    marker = f"3603.{os.getpid()}{list(MODES).index(mode)}{len(bot)}"
    done = _play(
        tmp_path, "highcard", "--bots", f"{BOTS}:{bot}:marker={marker},random", "--json",
        *MODES[mode],
    )  # fmt: skip
    assert _outcome(done)["outcome"]["forfeit"] is None
    assert not _running(marker)


def _running(marker: str) -> list[str]:
    """The processes (not zombies) with ``marker`` on their command line."""
    out = []
    for pid in (p for p in os.listdir("/proc") if p.isdigit()):
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
            state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
        except OSError:
            continue
        if marker.encode() in cmd and state != "Z":
            out.append(pid)
    return out


@pytest.mark.parametrize("mode", MODES)
def test_a_memory_hog_forfeits(tmp_path: Path, mode: str) -> None:
    """A bot that asks for more memory than it may have forfeits; nothing else breaks."""
    done = _play(tmp_path, "highcard", "--bots", f"{BOTS}:MemoryHog,random", "--json", *MODES[mode])
    outcome = _outcome(done)["outcome"]
    assert outcome["forfeit"] == 0 and "MemoryError" in outcome["reason"]
    assert not [v for v in _verdicts(done.stderr, "memory") if v.startswith("GOT")]


@pytest.mark.parametrize("mode", MODES)
def test_honest_results_are_unchanged_by_isolation(tmp_path: Path, mode: str) -> None:
    """Trusted bots deal from ``--seed`` and play the same match in every mode."""
    args = ("highcard", "--bots", "random,random", "--seed", "4", "--json")
    here = _outcome(_play(tmp_path, *args, *MODES["none"]))
    there = _outcome(_play(tmp_path, *args, *MODES[mode]))
    assert here == there and here["seed"] == 4


def test_without_bubblewrap_the_sandbox_says_how_to_install_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``play`` with an import-path bot and no ``bwrap`` says, in one line, what to install."""
    monkeypatch.syspath_prepend(str(ROOT))
    monkeypatch.setenv("PATH", str(tmp_path))
    code = main(["play", "highcard", "--bots", f"{BOTS}:SeedThief,random", "--json"])
    err = capsys.readouterr().err
    assert code == 2
    problem = [line for line in err.splitlines() if "bubblewrap" in line]
    assert len(problem) == 1 and "apt-get install bubblewrap" in problem[0]
    assert "--no-sandbox" in problem[0]


def test_without_bubblewrap_a_mistyped_bot_is_named_not_the_sandbox(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """An unknown bot id would be isolated as untrusted: without ``bwrap`` the error must
    still name the bot and the installed ones, not ask to install the sandbox."""
    monkeypatch.setenv("PATH", str(tmp_path))
    code = main(["play", "highcard", "--bots", "randon,random", "--json"])
    err = capsys.readouterr().err
    assert code == 2
    assert "unknown bot 'randon'; installed bots:" in err and "random" in err
    assert "bubblewrap" not in err


@pytest.mark.parametrize("sandbox", [True, False])
def test_the_sandbox_refuses_saves_parents_home_and_network(tmp_path: Path, sandbox: bool) -> None:
    """In play's sandbox each attempt fails and the match goes on; outside it, each succeeds."""
    home = tmp_path / "home"
    home.mkdir()
    (home / "secret.txt").write_text("the user's files\n", encoding="utf-8")
    save = tmp_path / "saved.json"
    save.write_text("{}", encoding="utf-8")
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(8)
        port = server.getsockname()[1]
        bot = f"{BOTS}:Snooper:db={save}:home={home}:port={port}"
        flags = ["--sandbox"] if sandbox else ["--no-sandbox"]
        done = _play(tmp_path, "highcard", "--bots", f"{bot},random", "--json", *flags, home=home)
    assert _outcome(done)["outcome"]["forfeit"] is None
    for attack in ("database", "home", "parents", "network"):
        verdicts = _verdicts(done.stderr, attack)
        assert len(verdicts) == 1, (attack, done.stderr)
        assert verdicts[0].startswith("failed") is sandbox, (attack, verdicts)


def test_a_secret_deal_is_not_said_to_come_again_from_its_seed(tmp_path: Path) -> None:
    """At a hot seat with an untrusted bot, the seed shown at the end is not offered as a re-deal."""
    done = _play(
        tmp_path, "highcard", "--human", "0", "--human", "1", "--bots", f"{BOTS}:SeedThief",
        "--no-sandbox", stdin="1\n" * 40,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Game over" in done.stdout
    assert "deals this match again" not in done.stdout
    assert "--seed does not deal it again" in done.stderr


def test_a_person_against_an_untrusted_bot_never_sees_the_seed_of_the_deal(
    tmp_path: Path,
) -> None:
    """Alone against an untrusted bot, the header says the deal comes from a secret and the
    seed that dealt it (in the record) is never printed: it would show the bot's cards."""
    record = tmp_path / "match.json"
    done = _play(
        tmp_path, "highcard", "--human", "0", "--bots", f"{BOTS}:SeedThief", "--seed", "5",
        "--no-sandbox", "--record", str(record), stdin="1\n" * 40,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Game over" in done.stdout
    assert "highcard: 2 players, preset default, dealt from a secret" in done.stdout
    seed = MatchRecord.load(record).seed
    assert seed != 5
    assert str(seed) not in done.stdout + done.stderr
