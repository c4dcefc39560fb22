"""Bots that try to learn the deal from the machine, outlive their match or hog memory fail.

Each attack bot (``tests/arena/attack_bots.py``) prints its verdict on standard error;
the arena goes on and the honest seats are not affected. Every isolation mode that uses
processes is tried: bots in the worker (``none``), in processes of their own
(``process``) and in the bubblewrap sandbox.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from cardcore import load_game
from cardcore.arena import deal_seed, run_arena
from cardcore.cli import main

ROOT = Path(__file__).resolve().parents[2]
BOTS = "tests.arena.attack_bots"
MODES: dict[str, dict[str, Any]] = {
    "none": {"isolation": "none"},
    "process": {"isolation": "process"},
    "sandbox": {"isolation": "process", "sandbox": True},
}


@pytest.fixture(autouse=True)
def _importable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(ROOT))


def _verdicts(err: str, attack: str) -> list[str]:
    prefix = f"attack {attack}: "
    return [line[len(prefix) :] for line in err.splitlines() if line.startswith(prefix)]


def _arena(bot: str, tmp_path: Path, mode: str, **kw: Any) -> Any:
    return run_arena(
        "highcard",
        [f"{BOTS}:{bot}", "random"],
        workers=kw.pop("workers", 1),
        time_limit=30,
        db=kw.pop("db", tmp_path / "a.sqlite"),
        **{"games": 2, **MODES[mode], **kw},
    )


@pytest.mark.parametrize(
    ("seen", "deal", "verdict"),
    [
        ("7", 7, "KNOWS THE DEAL (from --seed 7)"),  # play's deal without a secret
        ("5", deal_seed(5, 2), "KNOWS THE DEAL (from --seed 5)"),  # an arena's third deal
        ("5", deal_seed(5, 0, "a secret"), "failed (--seed [5] seen, no deal rebuilt from it)"),
    ],
)
def test_the_seed_thief_knows_a_deal_its_seed_dealt(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    seen: str, deal: int, verdict: str,
) -> None:  # fmt: skip
    """The control for the tests below: the thief's "failed" means a deal out of its reach."""
    import tests.arena.attack_bots as attack

    monkeypatch.setattr(attack, "_ancestors", lambda: [1])
    monkeypatch.setattr(attack, "_cmdline", lambda _: ["cardcore", "--seed", seen, "--json"])
    game = load_game("highcard", hand_size=13)
    observation = game.observe(game.initial_state(2, deal), 1)
    monkeypatch.setattr("tests.arena.attack_bots.os.listdir", lambda _: [])  # only _cmdline's
    attack.SeedThief(game).attack(observation)
    assert _verdicts(capsys.readouterr().err, "seed") == [verdict]


def test_the_seed_thief_does_not_guess_from_a_small_hand(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Three cards fit one deal in 22,100: the thief says it cannot tell, not that it failed."""
    import tests.arena.attack_bots as attack

    monkeypatch.setattr(attack, "_ancestors", lambda: [1])
    monkeypatch.setattr(attack, "_cmdline", lambda _: ["cardcore", "--seed", "7"])
    game = load_game("highcard")
    observation = game.observe(game.initial_state(2, 7), 0)
    monkeypatch.setattr("tests.arena.attack_bots.os.listdir", lambda _: [])
    attack.SeedThief(game).attack(observation)
    (verdict,) = _verdicts(capsys.readouterr().err, "seed")
    assert verdict.startswith("INCONCLUSIVE (a hand of 3 cards"), verdict


@pytest.mark.parametrize("mode", MODES)
def test_the_seed_on_the_command_line_reveals_no_deal(tmp_path: Path, mode: str) -> None:
    """A bot that reads ``--seed`` off the arena's command line cannot rebuild the deals."""
    flags = {"none": ["--isolation", "none"], "process": ["--isolation", "process",
             "--no-sandbox"], "sandbox": ["--isolation", "process", "--sandbox"]}[mode]  # fmt: skip
    args = [sys.executable, "-m", "cardcore", "arena", "highcard", "--bots",
            f"{BOTS}:SeedThief,random", "-o", "hand_size=13", "--games", "3", "--seed", "5",
            "--workers", "1",
            "--db", str(tmp_path / "s.sqlite"), "--no-progress", *flags]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(args, env=env, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    verdicts = _verdicts(done.stderr, "seed")
    assert len(verdicts) == 6
    assert all(v.startswith("failed") for v in verdicts), verdicts


@pytest.mark.parametrize("mode", MODES)
def test_stored_games_of_the_deal_are_out_of_reach(
    tmp_path: Path, capfd: pytest.CaptureFixture[str], mode: str
) -> None:
    """While a deal has seatings to play, no record of it can be read from the database."""
    db = tmp_path / "r.sqlite"
    result = _arena(f"RecordThief:db={db}", tmp_path, mode, db=db, games=4)
    verdicts = _verdicts(capfd.readouterr().err, "records")
    assert len(verdicts) == 8
    assert all(v.startswith("failed") for v in verdicts), verdicts
    assert result.games == 8


@pytest.mark.parametrize("bot", ["Spawner", "Detacher"])
@pytest.mark.parametrize("mode", MODES)
def test_a_leftover_process_ends_with_its_match(
    tmp_path: Path, capfd: pytest.CaptureFixture[str], mode: str, bot: str
) -> None:
    """What a bot starts, even detached in a session of its own, is gone when its match ends."""
    marker = f"3601.{os.getpid()}{list(MODES).index(mode)}{len(bot)}"
    result = _arena(f"{bot}:marker={marker}", tmp_path, mode, games=3)
    verdicts = _verdicts(capfd.readouterr().err, "leftover" if bot == "Spawner" else "detached")
    assert len(verdicts) >= 4  # each bot process looks in every match after its first
    assert all(v.startswith("failed") for v in verdicts), verdicts
    assert result.games == 6
    assert not [p for p in os.listdir("/proc") if p.isdigit() and _sleeping(p, marker)]


@pytest.mark.parametrize("bot", ["Spawner", "Detacher"])
@pytest.mark.parametrize("mode", MODES)
def test_with_no_workers_a_leftover_process_ends_with_its_game(
    tmp_path: Path, capfd: pytest.CaptureFixture[str], mode: str, bot: str
) -> None:
    """``--workers 0``: what a bot starts ends with its game, in the arena's own process too."""
    marker = f"3604.{os.getpid()}{list(MODES).index(mode)}{len(bot)}"
    result = _arena(f"{bot}:marker={marker}", tmp_path, mode, games=3, workers=0)
    verdicts = _verdicts(capfd.readouterr().err, "leftover" if bot == "Spawner" else "detached")
    assert len(verdicts) >= 4
    assert all(v.startswith("failed") for v in verdicts), verdicts
    assert result.games == 6
    assert not [p for p in os.listdir("/proc") if p.isdigit() and _sleeping(p, marker)]


def _sleeping(pid: str, marker: str) -> bool:
    try:
        cmd = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except OSError:
        return False
    return marker.encode() in cmd and state != "Z"


@pytest.mark.parametrize("mode", MODES)
def test_a_memory_hog_forfeits(
    tmp_path: Path, capfd: pytest.CaptureFixture[str], mode: str
) -> None:
    """A bot that asks for more memory than it may have forfeits; the other seat does not."""
    hog, other = _arena("MemoryHog", tmp_path, mode, games=1).bots
    assert (hog.games, hog.forfeits, other.forfeits) == (2, 2, 0)
    assert "MemoryError" in hog.forfeit_reasons[0]
    assert not [v for v in _verdicts(capfd.readouterr().err, "memory") if v.startswith("GOT")]


@pytest.mark.parametrize("sandbox", [True, False])
def test_the_sandbox_refuses_the_database_parents_home_and_network(
    tmp_path: Path,
    capfd: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    sandbox: bool,
) -> None:
    """In the sandbox each attempt fails and the match goes on; outside it, each succeeds."""
    home = tmp_path / "home"
    home.mkdir()
    (home / "secret.txt").write_text("the user's files\n", encoding="utf-8")
    monkeypatch.setenv("HOME", str(home))
    db = tmp_path / "d.sqlite"
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(8)
        port = server.getsockname()[1]
        bot = f"Snooper:db={db}:home={home}:port={port}"
        result = _arena(bot, tmp_path, "sandbox" if sandbox else "process", db=db, games=1)
    err = capfd.readouterr().err
    for attack in ("database", "home", "parents", "network"):
        verdicts = _verdicts(err, attack)
        assert len(verdicts) == 2, (attack, err)
        assert all(v.startswith("failed") is sandbox for v in verdicts), (attack, verdicts)
    snooper, _ = result.bots
    assert (snooper.games, snooper.forfeits) == (2, 0)


def test_honest_results_are_the_same_in_the_sandbox(tmp_path: Path) -> None:
    """The same arena with every bot sandboxed or in the worker gives the same table."""
    kw: dict[str, Any] = {"games": 2, "seed": 4, "workers": 1}
    boxed = run_arena("highcard", ["random", "random"], isolation="process", sandbox=True, **kw)
    here = run_arena("highcard", ["random", "random"], isolation="none", **kw)
    assert boxed.bots == here.bots
    assert boxed.games == here.games == 4


def test_without_bubblewrap_the_sandbox_says_how_to_install_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``arena`` with an import-path bot and no ``bwrap`` says, in one line, what to install."""
    monkeypatch.setenv("PATH", str(tmp_path))
    code = main(["arena", "highcard", "--bots", f"{BOTS}:SeedThief,random", "--games", "1",
                 "--db", str(tmp_path / "n.sqlite"), "--no-progress"])  # fmt: skip
    err = capsys.readouterr().err
    assert code == 2
    assert len(err.strip().splitlines()) == 1
    assert "apt-get install bubblewrap" in err
    assert "--no-sandbox" in err


def test_without_bubblewrap_a_mistyped_bot_is_named_not_the_sandbox(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """An unknown bot id is refused by its name before the sandbox is sought."""
    monkeypatch.setenv("PATH", str(tmp_path))
    code = main(["arena", "highcard", "--bots", "randon,random", "--games", "1",
                 "--db", str(tmp_path / "n.sqlite"), "--no-progress"])  # fmt: skip
    err = capsys.readouterr().err
    assert code == 2
    assert len(err.strip().splitlines()) == 1
    assert "unknown bot 'randon'; installed bots:" in err
    assert "bubblewrap" not in err
