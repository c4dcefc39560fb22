"""An ``llm`` bot in its own process gets its model's key from a ``CARDCORE_BOT_*`` variable.

A bot process keeps only a few environment variables (no provider's key variable, no
home directory), so the key reaches it as :data:`cardcore.bots._llm.KEY_VARIABLE`, or a
variable its ``key_env`` option names. ``fake-keyed`` (tests/llmbot/fake_models.py)
plays only with the right key.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cardcore import MatchRecord, isolated_bot, load_bot, load_game, play_match, replay
from cardcore.bots._llm import KEY_VARIABLE
from tests.llmbot.fake_models import KEY
from tests.llmbot.fake_models import KEY_VARIABLE as PROVIDER_VARIABLE
from tests.llmbot.test_llm_bot import PLUGIN

KEYED = f"llm:model=fake-keyed:{PLUGIN}"
HANG = 240.0
"""Seconds after which a test is taken to hang: a guard only."""


@pytest.fixture(autouse=True)
def _llm_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The llm library keeps its settings in a folder of the test's own; no key is set."""
    monkeypatch.setenv("LLM_USER_PATH", str(tmp_path / "llm-home"))
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[2]))
    for name in (KEY_VARIABLE, PROVIDER_VARIABLE, "CARDCORE_BOT_SEAT_KEY"):
        monkeypatch.delenv(name, raising=False)


def _played_whole(record: MatchRecord) -> None:
    """The llm seat (0) played every decision of its own; its key is nowhere in the record."""
    assert record.outcome is not None and record.outcome.forfeit is None, record.outcome
    decisions = [s.index for s in replay(record) if s.seat == 0]
    assert decisions and [e["index"] for e in record.transcripts[0]] == decisions
    assert KEY not in record.dumps()


def test_an_isolated_llm_bot_takes_its_key_from_the_bot_variable(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With the key in CARDCORE_BOT_LLM_KEY, a seat in its own process plays its match."""
    monkeypatch.setenv(KEY_VARIABLE, KEY)
    game = load_game("highcard")
    with isolated_bot(KEYED, game) as bot:
        record = play_match(game, [bot, load_bot("random", game)], seed=4, time_limit=60)
    _played_whole(record)


def test_the_providers_own_variable_stays_out_of_a_bot_process(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """In-process the library finds its own variable; a bot process does not, and says why."""
    monkeypatch.setenv(PROVIDER_VARIABLE, KEY)
    game = load_game("highcard")
    _played_whole(play_match(game, [load_bot(KEYED, game), load_bot("random", game)], seed=4))
    with isolated_bot(KEYED, game) as bot:
        failure = bot.build(HANG)
    assert failure is not None
    assert "needs a key" in failure and KEY_VARIABLE in failure, failure
    assert "CARDCORE_BOT_*" in failure and KEY not in failure


def test_key_env_names_a_seats_own_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    """key_env wins over CARDCORE_BOT_LLM_KEY, so seats on different providers get their own."""
    monkeypatch.setenv("CARDCORE_BOT_SEAT_KEY", KEY)
    monkeypatch.setenv(KEY_VARIABLE, "the key of another provider")
    game = load_game("highcard")
    with isolated_bot(f"{KEYED}:key_env=CARDCORE_BOT_SEAT_KEY", game) as bot:
        record = play_match(game, [bot, load_bot("random", game)], seed=4, time_limit=60)
    _played_whole(record)


@pytest.mark.parametrize(
    ("key_env", "says"),
    [
        ("CARDCORE_BOT_UNSET", "the environment variable CARDCORE_BOT_UNSET is not set"),
        ("PROVIDER_UNSET", "a bot in its own process sees only the CARDCORE_BOT_*"),
        ("not a name", "key_env must name an environment variable, not 'not a name'"),
    ],
)
def test_a_key_env_that_gives_no_key_is_refused_by_name(key_env: str, says: str) -> None:
    """A variable that is not set, or no variable's name, stops the bot before it plays."""
    with pytest.raises(ValueError, match=re.escape(says)):
        load_bot(f"{KEYED}:key_env={key_env}", load_game("highcard"))
