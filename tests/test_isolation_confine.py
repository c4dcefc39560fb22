"""An isolated bot's process is confined: scrubbed environment, capped memory, no leftovers."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardcore import load_bot, load_game, play_match
from cardcore._isolation import BotProcess, IsolatedBot
from cardcore._sandbox import Sandbox, bot_environment, sandbox_problem

ROOT = Path(__file__).resolve().parents[1]
BOTS = "tests.arena.attack_bots"


@pytest.fixture(autouse=True)
def _importable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(ROOT))


def test_the_environment_keeps_only_what_a_bot_needs() -> None:
    """Home, tokens and the shell's variables are dropped; locale, PATH and CARDCORE_BOT_ stay."""
    env = {"HOME": "/home/me", "GITHUB_TOKEN": "t", "PATH": "/usr/bin", "LC_ALL": "C.UTF-8",
           "CARDCORE_BOT_KEY": "k", "USER": "me", "PYTHONHASHSEED": "0"}  # fmt: skip
    assert bot_environment(env) == {
        "PATH": "/usr/bin",
        "LC_ALL": "C.UTF-8",
        "CARDCORE_BOT_KEY": "k",
        "PYTHONHASHSEED": "0",
    }


@pytest.mark.parametrize("sandboxed", [False, True])
def test_what_an_isolated_bot_starts_ends_with_its_match(
    capfd: pytest.CaptureFixture[str], sandboxed: bool
) -> None:
    """A bot process reused for three matches never finds the last match's process running."""
    game = load_game("highcard")
    process = BotProcess(sandbox=Sandbox(modules=(BOTS,)) if sandboxed else None)
    try:
        for seed in range(3):
            bot = IsolatedBot(f"{BOTS}:Spawner:marker=3602.5", game, process=process)
            record = play_match(game, [bot, load_bot("random", game)], seed=seed)
            assert record.outcome is not None and record.outcome.forfeit is None
    finally:
        process.stop()
    lines = [ln for ln in capfd.readouterr().err.splitlines() if ln.startswith("attack leftover")]
    assert len(lines) == 2
    assert all("failed" in ln for ln in lines), lines


def test_an_isolated_memory_hog_forfeits() -> None:
    """Asking for more than the limit raises MemoryError in the bot's process: a forfeit."""
    game = load_game("highcard")
    with IsolatedBot(f"{BOTS}:MemoryHog", game) as hog:
        record = play_match(game, [hog, load_bot("random", game)], seed=1)
    assert record.outcome is not None
    assert record.outcome.forfeit == 0
    assert "MemoryError" in record.outcome.reason


def test_the_sandbox_is_available_here() -> None:
    """``make test`` installs bubblewrap, so the sandbox tests run rather than fail."""
    assert sandbox_problem() is None
