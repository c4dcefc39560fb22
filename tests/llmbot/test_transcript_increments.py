"""A kept transcript grows by the new entries only; a log begun anew is read whole again.

The terminal, the web table and the MCP service keep each bot's transcript after each of
its decisions (:class:`~cardcore._transcript_keeper.TranscriptKeeper`). A bot in its own
process sends only the entries the keeper lacks, so a long match does not send its whole
log again at every decision.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cardcore import MatchRecord, isolated_bot, load_bot, load_game
from cardcore._isolation import IsolatedBot, Refused
from cardcore._transcript_keeper import TranscriptKeeper

LOGS = "tests.llmbot.logging_bots"
HANG = 240.0
"""Seconds after which a test is taken to hang: a guard only."""
DECISIONS = 9


@pytest.fixture(autouse=True)
def _find_tests(monkeypatch: pytest.MonkeyPatch) -> None:
    """Bot processes import the test bots by path."""
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[2]))


def _follow(
    bot: Any, monkeypatch: pytest.MonkeyPatch
) -> tuple[list[list[dict[str, Any]]], list[tuple[Any, int]]]:
    """Let ``bot`` (seat 0 of highcard) decide :data:`DECISIONS` times, kept after each.

    Returns what the keeper held after each decision and, for a bot in its own process,
    each transcript reply's ``since`` and number of entries.
    """
    game = load_game("highcard")
    state = game.initial_state(2, 1)
    seat = game.current_player(state)
    assert seat is not None
    obs = game.observe(state, seat)
    replies: list[tuple[Any, int]] = []
    if type(bot) is IsolatedBot:
        assert bot.start(seat, 2, HANG) is None
        real = bot.process.call

        def spy(message: dict[str, Any], *args: Any) -> Any:
            reply = real(message, *args)
            if message.get("op") == "transcript" and isinstance(reply, dict):
                replies.append((reply.get("since"), len(reply["transcript"])))
            return reply

        monkeypatch.setattr(bot.process, "call", spy)
    keeper = TranscriptKeeper(
        MatchRecord(game="highcard", options={}, num_players=2, seed=1, actions=())
    )
    held = []
    for _ in range(DECISIONS):
        if type(bot) is IsolatedBot:
            assert type(bot.decide(obs, obs.legal_actions, None)) is not Refused
        else:
            bot.act(obs)
        log = keeper.read(bot)
        keeper.keep(seat, log)
        held.append([dict(e) for e in log])
    return held, replies


def _logs_of(name: str) -> list[list[dict[str, Any]]]:
    """The whole log of the bot ``name`` after each of :data:`DECISIONS` decisions."""
    bot: Any = load_bot(f"{LOGS}:{name}", load_game("highcard"))
    out = []
    for k in range(1, DECISIONS + 1):
        bot.decisions = k
        out.append(bot.match_transcript())
    return out


def test_an_isolated_bot_sends_only_the_entries_the_keeper_lacks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each decision's reply carries one entry, yet the keeper holds the whole log."""
    game = load_game("highcard")
    with isolated_bot(f"{LOGS}:Fine", game) as bot:
        held, replies = _follow(bot, monkeypatch)
        assert replies == [(k, 1) for k in range(DECISIONS)]
        assert held == _logs_of("Fine")
        bot.process.stop()  # a process gone between decisions: one entry says so, no hang
        [entry] = TranscriptKeeper(
            MatchRecord(game="highcard", options={}, num_players=2, seed=1, actions=())
        ).read(bot)
        assert entry["error"].startswith("match_transcript: its process has ended"), entry


@pytest.mark.parametrize(
    ("name", "sent"),
    [
        # Begun anew at its 4th and 7th decisions: one entry each time, from 0 then.
        ("Restarting", [(0, 1), (1, 1), (2, 1), (0, 1), (1, 1), (2, 1), (0, 1), (1, 1), (2, 1)]),
        # Every entry rewritten at its 3rd, 6th and 9th decisions: the whole log then.
        ("Renaming", [(0, 1), (1, 1), (0, 3), (3, 1), (4, 1), (0, 6), (6, 1), (7, 1), (0, 9)]),
    ],
)
def test_a_log_begun_anew_or_rewritten_is_read_whole_and_replaces_what_was_kept(
    name: str, sent: list[tuple[int, int]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A log that shrank or whose last kept entry changed is taken whole, in-process or not."""
    game = load_game("highcard")
    expected = _logs_of(name)
    here, _ = _follow(load_bot(f"{LOGS}:{name}", game), monkeypatch)
    assert here == expected
    with isolated_bot(f"{LOGS}:{name}", game) as bot:
        there, replies = _follow(bot, monkeypatch)
    assert there == expected
    assert replies == sent


def test_an_entry_kept_before_the_last_is_not_read_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """A bot that changes an entry once a later one is kept leaves the kept one as it was."""
    game = load_game("highcard")
    now = _logs_of("Amending")[-1]
    assert now[0] == {"decision": 0, "seen": DECISIONS}
    # Its first entry changed at the 2nd decision while it was the last kept: read whole
    # then; from the 3rd on, the last kept entry stands, and only new ones are read.
    as_kept = [{"decision": 0, "seen": 2}, *now[1:]]
    here, _ = _follow(load_bot(f"{LOGS}:Amending", game), monkeypatch)
    with isolated_bot(f"{LOGS}:Amending", game) as bot:
        there, replies = _follow(bot, monkeypatch)
    assert here[-1] == there[-1] == as_kept
    assert replies == [(0, 1), (0, 2), *((k, 1) for k in range(2, DECISIONS))]
