"""Bots' transcripts reach the record wherever a match is played, and only their seat sees them.

Isolated bots send theirs over the bot-process protocol; the terminal (``play --human``)
and the MCP service keep them as ``play_match`` does. (The web table: tests/web.)
"""

from __future__ import annotations

import asyncio
import io
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from mcp.types import TextContent

from cardcore import MatchRecord, isolated_bot, load_bot, load_game, play_match, replay
from cardcore._isolation import IsolatedBot
from cardcore._mcp import build_server
from cardcore._service import MatchService
from cardcore.arena import run_arena
from cardcore.arena._store import Store
from cardcore.cli import main
from tests.llmbot.test_llm_bot import PLUGIN, SMALL

FIRST = f"llm:model=fake-first:{PLUGIN}"
ILLEGAL = f"llm:model=fake-illegal:{PLUGIN}"
LOGS = "tests.llmbot.logging_bots"
HANG = 240.0
"""Seconds after which a test is taken to hang: a guard only."""


@pytest.fixture(autouse=True)
def _llm_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The llm library keeps its settings in a folder of the test's own; bots find tests."""
    monkeypatch.setenv("LLM_USER_PATH", str(tmp_path / "llm-home"))
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[2]))


def _timeless(record: MatchRecord, *drop: str) -> list[list[dict[str, Any]]]:
    """The record's transcripts without the seconds each decision took (not repeatable)."""
    gone = {"seconds", *drop}
    return [[{k: v for k, v in e.items() if k not in gone} for e in t] for t in record.transcripts]


def _decisions(record: MatchRecord, seat: int) -> list[int]:
    """The indices in the record's actions of ``seat``'s decisions."""
    return [step.index for step in replay(record) if step.seat == seat]


def _check_llm_seat(record: MatchRecord, seat: int) -> None:
    """``seat`` has one entry per decision, each with the action it took; no other seat has any."""
    assert record.transcripts, "the record has no transcripts"
    entries = record.transcripts[seat]
    assert [e["index"] for e in entries] == _decisions(record, seat)
    assert all(e["action"] == record.actions[e["index"]] for e in entries)
    assert "The rules of" in entries[0]["system"]
    assert all(not t for s, t in enumerate(record.transcripts) if s != seat)


ASKED = "Answer with one of them, exactly as written"
"""Words of every decision prompt, which no view shows."""


def _prompt_lines(record: MatchRecord, seat: int) -> set[str]:
    """What only ``seat``'s prompts say: the lines of its own view (its hand), the template's."""
    lines = {
        ln.strip()
        for e in record.transcripts[seat]
        for p in e["prompts"]
        for ln in p.splitlines()
        if "(you)" in ln
    }
    assert lines, "no prompt line shows the seat's own view: the check would prove nothing"
    assert all(ASKED in e["prompts"][0] for e in record.transcripts[seat])
    return lines | {ASKED}


# ---- bots in their own processes ----------------------------------------------------------


def test_an_isolated_llm_bot_sends_its_transcript_as_in_process() -> None:
    """play_match with both seats isolated keeps the transcript an in-process match keeps."""
    game = load_game("noddy", **SMALL["noddy"])
    here = play_match(game, [load_bot(ILLEGAL, game), load_bot("random", game, seed=1)], seed=7)
    with isolated_bot(ILLEGAL, game) as llm, isolated_bot("random", game, seed=1) as rand:
        there = play_match(game, [llm, rand], seed=7, time_limit=60)
    assert there.actions == here.actions and there.outcome == here.outcome
    _check_llm_seat(there, 0)
    assert any(e["errors"] for e in there.transcripts[0]), "no retry: a weak check"
    assert _timeless(there) == _timeless(here)


def test_an_arena_with_isolated_bots_keeps_the_llm_transcripts(tmp_path: Path) -> None:
    """Every game of an arena whose bots run in their own processes holds the llm seat's log."""
    db = tmp_path / "a.sqlite"
    result = run_arena(
        "highcard", [FIRST, "random"], games=1, seed=3, workers=0, isolation="process", db=db
    )
    assert result.played == result.games == 2 and result.errors == ()
    with Store(db) as store:
        games = [g for g in store.games(result.run, records=True) if g.record is not None]
    assert len(games) == 2
    for game in games:
        _check_llm_seat(MatchRecord.from_json(game.record), game.seats.index(0))


def test_a_bot_process_asked_for_the_log_of_a_bot_without_one_answers_none() -> None:
    """The protocol's transcript request gives [] for a bot with no match_transcript."""
    game = load_game("highcard")
    with isolated_bot("random", game) as bot:
        assert bot.build(HANG) is None
        assert bot.process.call({"op": "transcript"}, HANG) == {"transcript": [], "since": 0}
        assert bot.transcript(HANG) == []
        assert bot.process.alive


@pytest.mark.parametrize("bot", ["Raising", "NotJson", "NotObjects", "Fine"])
def test_an_isolated_bots_log_is_kept_or_refused_as_in_process(bot: str) -> None:
    """A log that raises or is not a list of JSON objects gives the in-process error entry."""
    game = load_game("highcard")
    here = play_match(game, [load_bot(f"{LOGS}:{bot}", game), load_bot("random", game)], seed=2)
    with isolated_bot(f"{LOGS}:{bot}", game) as mine:
        there = play_match(game, [mine, load_bot("random", game)], seed=2)
    assert there.actions == here.actions
    assert there.transcripts == here.transcripts
    first = there.transcripts[0][0]
    assert ("error" in first) == (bot != "Fine"), first


@pytest.mark.parametrize(
    ("bot", "why"),
    [
        ("Exiting", "match_transcript: ended its process (exit code 3)"),
        ("Silent", "match_transcript: did not answer within 10 s; its process was stopped"),
        ("Stuck", "match_transcript: its process has ended"),
    ],
)
def test_a_dead_or_silent_bot_process_gives_an_error_entry(bot: str, why: str) -> None:
    """The record is made whatever the bot's process does: one entry says what went wrong."""
    game = load_game("highcard")
    with isolated_bot(f"{LOGS}:{bot}", game) as mine:
        record = play_match(game, [mine, load_bot("random", game)], seed=2, time_limit=1.0)
        assert not mine.process.alive or bot == "Exiting"
    assert record.outcome is not None
    assert (record.outcome.forfeit == 0) == (bot == "Stuck"), record.outcome
    [entry] = record.transcripts[0]
    assert entry["error"].startswith(why), entry
    assert record.transcripts[1] == ()


# ---- the terminal ---------------------------------------------------------------------------


def _play(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    argv: Sequence[str],
    lines: Sequence[str],
) -> str:
    """Run ``cardcore ARGV`` with ``lines`` as what the person types; what it printed."""
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(f"{x}\n" for x in lines)))
    code = main(list(argv))
    out = capsys.readouterr()
    assert code == 0, out.err
    return out.out


@pytest.mark.parametrize("isolation", ["none", "process"])
def test_the_terminal_keeps_the_llm_seats_transcript_and_the_persons_view_has_none(
    isolation: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    """``play --human`` records the llm seat's prompts; the person's replay view shows none."""
    path = tmp_path / "done.json"
    argv = ["play", "highcard", "--human", "1", "--bots", FIRST, "--seed", "3"]
    argv += ["--isolation", isolation, "--no-sandbox", "--record", str(path)]
    shown = _play(monkeypatch, capsys, argv, ["1"] * 20)
    record = MatchRecord.load(path)
    assert record.outcome is not None and record.outcome.forfeit is None
    _check_llm_seat(record, 0)
    secret = _prompt_lines(record, 0)
    assert main(["replay", str(path), "--as", "1", "--json"]) == 0
    view = capsys.readouterr().out
    assert "transcript" not in json.loads(view)
    for text in (shown, view):
        assert not [ln for ln in secret if ln in text]


def test_undo_save_and_resume_keep_the_transcript_of_the_decisions_played(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Undone decisions leave the transcript; a save holds it so far, a resumed match adds on."""
    monkeypatch.chdir(tmp_path)
    argv = ["play", "highcard", "--human", "1", "--bots", FIRST, "--seed", "8", "--dealer", "1"]
    _play(monkeypatch, capsys, [*argv, "--record", "straight.json"], ["2", *["1"] * 20])
    straight = MatchRecord.load("straight.json")
    _check_llm_seat(straight, 0)
    script = ["1", "undo", "2", "save part.json", "quit"]
    _play(monkeypatch, capsys, argv, script)
    part = MatchRecord.load("part.json")
    assert part.outcome is None and part.actions == straight.actions[: len(part.actions)]
    assert [e["index"] for e in part.transcripts[0]] == _decisions(part, 0)
    # The bot seated after the undo is a new one: its first decision carries the rules.
    kept = _timeless(part, "system")[0]
    assert kept == _timeless(straight, "system")[0][: len(kept)] and kept, "the log so far"
    assert sum("system" in e for e in part.transcripts[0]) == 2, "no decision was undone"
    resume = ["play", "--resume", "part.json", "--record", "done.json"]
    _play(monkeypatch, capsys, resume, ["1"] * 20)
    done = MatchRecord.load("done.json")
    assert done.actions == straight.actions
    assert [e["index"] for e in done.transcripts[0]] == _decisions(done, 0)
    assert done.transcripts[0][: len(kept)] == part.transcripts[0]
    assert _timeless(done, "system") == _timeless(straight, "system")
    assert "system" in done.transcripts[0][len(kept)], "the resumed match's bot is a new one"


def test_a_forfeit_at_the_terminal_keeps_the_forfeited_decisions_log(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A model that never answers legally: its last entry is the decision it forfeited."""
    path = tmp_path / "done.json"
    garbage = f"llm:model=fake-garbage:retries=1:{PLUGIN}"
    argv = ["play", "highcard", "--human", "1", "--bots", garbage, "--seed", "2"]
    _play(monkeypatch, capsys, [*argv, "--record", str(path)], ["1"] * 20)
    record = MatchRecord.load(path)
    assert record.outcome is not None and record.outcome.forfeit == 0
    [entry] = record.transcripts[0]
    assert entry["index"] == len(record.actions) and len(entry["answers"]) == 2


# ---- the MCP server -------------------------------------------------------------------------


def test_the_mcp_service_keeps_the_bots_transcripts_and_the_agent_sees_none() -> None:
    """The operator's record holds the llm seat's log; no answer to the agent carries it."""
    svc = MatchService()
    first = svc.start_match("highcard", seats=[1], bots=[FIRST], seed=3)
    answers: list[str] = [json.dumps(first, ensure_ascii=False)]

    async def agent() -> dict[str, Any]:
        async with Client(build_server(svc)) as client:

            async def call(tool: str, arguments: dict[str, Any]) -> Any:
                result = await client.call_tool(tool, arguments)
                text = result.content[0]
                assert isinstance(text, TextContent) and not result.is_error, text
                answers.append(text.text)
                return result.structured_content

            match, view = first["match"], first
            while not view["over"]:
                assert view["your_turn"], view
                action = view["legal_actions"][0]
                view = await call("play_action", {"match_id": match, "action": action})
            result: dict[str, Any] = await call("get_result", {"match_id": match})
            return result

    result = asyncio.run(asyncio.wait_for(agent(), timeout=HANG))
    record = svc.record(first["match"])
    assert record.outcome is not None and record.outcome.forfeit is None
    _check_llm_seat(record, 0)
    told = MatchRecord.from_json(result["record"])
    assert told.transcripts == () and told.actions == record.actions
    secret = _prompt_lines(record, 0)
    for text in answers:
        assert "transcript" not in text and "The rules of" not in text
        assert not [ln for ln in secret if json.dumps(ln, ensure_ascii=False)[1:-1] in text]


def test_isolated_bots_object_has_the_bot_protocols_match_transcript() -> None:
    """Code that calls bots directly reads an isolated bot's log as any bot's."""
    game = load_game("highcard")
    with isolated_bot(f"{LOGS}:Fine", game) as bot:
        assert type(bot) is IsolatedBot
        bot.start_match(game, 0, 2)
        state, mine = game.initial_state(2, 1), 0
        while (seat := game.current_player(state)) is not None:
            obs = game.observe(state, seat)
            state = game.apply(state, bot.act(obs) if seat == 0 else obs.legal_actions[0])
            mine += seat == 0
        assert mine > 0
        assert bot.match_transcript() == [{"decision": k} for k in range(mine)]
