"""The ``llm`` bot: a language model plays through the llm library; fake models, no network."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from cardcore import SPECTATOR, Card, Step, load_bot, load_game, play_match
from cardcore._host import default_host
from cardcore.arena import run_arena
from cardcore.bots._llm import LLMBot
from cardcore.cli import main
from cardcore.cli._human_text import without_legal
from tests.llmbot import fake_models

PLUGIN = "plugin=tests.llmbot.fake_models"
GAMES = {"highcard": 3, "nyuri": 3, "noddy": 2, "box": 4, "nestors": 4}
SMALL: dict[str, dict[str, Any]] = {"noddy": {"target": 15}, "nestors": {"threshold": 100}}
"""Shorter matches of the long games (fewer hands), so that every game plays to its end."""


@pytest.fixture(autouse=True)
def _llm_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The llm library keeps its settings in a folder of the test's own."""
    monkeypatch.setenv("LLM_USER_PATH", str(tmp_path / "llm-home"))


def _bot(game: Any, model: str, *options: str) -> LLMBot:
    spec = ":".join(["llm", f"model={model}", PLUGIN, *options])
    bot = load_bot(spec, game)
    assert isinstance(bot, LLMBot)
    return bot


def _cards_in(text: str, cards: set[str]) -> set[str]:
    return {c for c in cards if re.search(rf"(?<![0-9A-Za-z]){re.escape(c)}", text)}


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_fake_models_play_every_game_to_the_end_and_see_only_their_seat(game_id: str) -> None:
    """Full matches; every decision prompt is the seat's own view, with no hidden card in it."""
    game = load_game(game_id, preset="default", **SMALL.get(game_id, {}))
    n = GAMES[game_id]
    bots: list[Any] = [_bot(game, "fake-illegal"), _bot(game, "fake-first")]
    bots += [load_bot("random", game, seed=s) for s in range(n - 2)]
    asked: list[tuple[int, str, set[str]]] = []

    def on_step(step: Step) -> None:
        if step.seat >= 2:
            return
        table = step.before.table
        public = str(game.render(game.observe(step.before, SPECTATOR)))
        # Cards the seat cannot see now and that an onlooker was not told of either.
        hidden = {
            str(Card.of(c))
            for c in range(52)
            if any((m >> c) & 1 for m in table.masks)
            and table.layout.zones[table.where(c)].owner != step.seat
            and not table.knows(step.seat, c)
        }
        hidden -= _cards_in(public, hidden)
        view = str(game.render(without_legal(game.observe(step.before, step.seat))))
        asked.append((step.seat, view, hidden))

    record = play_match(game, bots, seed=7, on_step=on_step)
    assert record.outcome is not None and record.outcome.forfeit is None, record.outcome
    rules = default_host().game_spec(game_id).rules_text.strip()
    for seat in (0, 1):
        bot = bots[seat]
        assert rules in bot._system and f"at seat {seat} of a {n}-player" in bot._system
        mine = [(view, hidden) for s, view, hidden in asked if s == seat]
        assert len(bot.transcript) == len(mine) == bot.totals["decisions"]
        for turn, (view, hidden) in zip(bot.transcript, mine, strict=True):
            assert turn["prompts"][0].startswith(view + "\n\nYour legal actions")
            for prompt, answer in zip(turn["prompts"], [""] + turn["answers"], strict=False):
                # A retry echoes the model's own answer back: that is not the table's.
                seen = prompt.replace(answer, "")
                assert not _cards_in(seen, hidden), (seat, turn["decision"])
                assert rules not in prompt  # the rules go once, as the system prompt
    assert bots[0].totals["retries"] > 0 or bots[0].totals["decisions"] < 3
    assert bots[1].totals["retries"] == 0


def test_an_unreadable_or_illegal_answer_is_sent_back_with_the_reason() -> None:
    """Garbage, then an illegal action, then a legal one: two retries, each with its reason."""
    game = load_game("highcard")
    bot = _bot(game, "fake-script", "retries=2")
    state = game.initial_state(2, 1, dealer=1)
    bot.start_match(game, 0, 2)
    obs = game.observe(state, 0)
    mine = [str(a) for a in obs.legal_actions]
    other = next(f"play {c}" for c in ("2♣", "3♣", "4♣", "5♣") if f"play {c}" not in mine)
    fake_models.SCRIPT[:] = ["no idea", other, f"I play:\n`{mine[1]}`"]
    action = bot.act(obs)
    assert str(action) == mine[1]
    [turn] = bot.transcript
    assert turn["answers"] == ["no idea", other, f"I play:\n`{mine[1]}`"]
    assert turn["errors"][0].startswith("it names no action")
    assert turn["errors"][1] == f"{other!r} is not a legal action now"
    assert turn["errors"][1] in turn["prompts"][2]
    assert bot.totals["retries"] == 2 and bot.totals["answers"] == 3


def test_a_model_that_never_answers_legally_forfeits_its_seat() -> None:
    """After its retries run out the seat forfeits, and the reason names the model."""
    game = load_game("highcard")
    garbage = _bot(game, "fake-garbage", "retries=1")
    record = play_match(game, [garbage, load_bot("random", game)], seed=2)
    assert record.outcome is not None
    assert record.outcome.forfeit == 0
    assert "'fake-garbage' gave no legal action in 2 answer(s)" in record.outcome.reason
    assert garbage.totals["forfeits"] == 1


def test_options_legal_template_temperature_and_log(tmp_path: Path) -> None:
    """legal=false lists no actions; a template file shapes the prompt; the log keeps it all."""
    game = load_game("highcard")
    template = tmp_path / "t.txt"
    template.write_text("TABLE\n{observation}\nPICK ONE:\n{legal_actions}", encoding="utf-8")
    bots = [
        _bot(game, "fake-slow", f"template=@{template}", f"log={tmp_path / 'log'}"),
        _bot(game, "fake-script", "legal=false"),
    ]
    # Seat 1's hand (zone 2 of High card's table), played in the order dealt.
    hand = [f"play {c}" for c in game.initial_state(2, 3).table.cards(2)]
    assert len(hand) == 3
    fake_models.SCRIPT[:] = hand
    record = play_match(game, bots, seed=3)
    assert record.outcome is not None and record.outcome.forfeit is None
    first = bots[0].transcript[0]["prompts"][0]
    assert first.startswith("TABLE\n") and "PICK ONE:\n- play" in first
    assert "- play" not in bots[1].transcript[0]["prompts"][0]
    [log] = (tmp_path / "log").iterdir()
    data = json.loads(log.read_text(encoding="utf-8"))
    assert data["model"] == "fake-slow" and data["seat"] == 0
    assert data["decisions"] == bots[0].transcript
    assert data["totals"]["input_tokens"] > 0 and data["totals"]["seconds"] > 0
    with pytest.raises(ValueError, match="takes no temperature"):
        _bot(game, "fake-first", "temperature=0.5")
    with pytest.raises(ValueError, match="knows no model 'nope'"):
        _bot(game, "nope")
    with pytest.raises(ValueError, match="needs a model"):
        load_bot("llm", game)
    with pytest.raises(ValueError, match="template may use only"):
        _bot(game, "fake-first", "template={hand}")


def test_two_worker_arena_with_fake_models(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """llm entrants play a duplicate-deal arena in two worker processes, offline."""
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[2]))  # the workers' too
    result = run_arena(
        "highcard",
        [f"llm:model=fake-first:{PLUGIN}", f"llm:model=fake-illegal:{PLUGIN}", "random"],
        games=2,
        seed=5,
        workers=2,
        time_limit=60,
    )
    assert result.played == result.games == 2 * 6
    assert result.errors == ()
    assert not any(b.forfeits for b in result.bots), result.table()  # the models answered


def test_play_command_with_an_llm_seat(capsys: pytest.CaptureFixture[str]) -> None:
    """`cardcore play` takes the llm bot like any other."""
    code = main(["play", "noddy", "--bots", f"llm:model=fake-first:{PLUGIN},noddy-heuristic"])
    assert code == 0
    assert capsys.readouterr().out
