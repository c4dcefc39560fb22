"""The engine: matches, forfeits, records and replays."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from cardcore import (
    MatchRecord,
    RecordError,
    load_bot,
    load_game,
    parse_cards,
    play_match,
    replay,
    verify,
)
from cardcore.bots import RandomBot


def game() -> Any:
    return load_game("highcard")


def bots(n: int = 3) -> list[Any]:
    g = game()
    return [load_bot("random", g, seed=i) for i in range(n)]


def test_play_match_is_reproducible() -> None:
    """Same seed and bots, same record."""
    a = play_match(game(), bots(), seed=4)
    b = play_match(game(), bots(), seed=4)
    assert a == b
    assert a.outcome is not None
    assert len(a.actions) == 9


def test_record_round_trips_and_replays_exactly() -> None:
    """A saved record loads back equal and replays to its outcome."""
    rec = play_match(game(), bots(), seed=9)
    back = MatchRecord.loads(rec.dumps())
    assert back == rec
    final = verify(back)
    assert game().outcome(final) == rec.outcome
    assert rec.distribution == "cardcore-highcard"


def test_stacked_deck_and_dealer_are_kept_in_the_record() -> None:
    """A given deck and dealer set up the deal and survive the record."""
    g = game()
    deck = parse_cards("2c 3c 4c 5c 6c 7c") + tuple(
        c for c in __import__("cardcore").DECK_52 if c.id not in {0, 1, 2, 3, 4, 5}
    )
    rec = play_match(g, bots(2), seed=1, dealer=1, deck=deck)
    assert rec.dealer == 1
    assert rec.deck is not None and rec.deck[:2] == ("2♣", "3♣")
    state = g.initial_state(2, 1, dealer=1, deck=deck)
    assert {str(c) for c in state.table.cards(1)} == {"2♣", "4♣", "6♣"}
    verify(MatchRecord.loads(rec.dumps()))


class Crasher:
    name = "crasher"

    def act(self, observation: Any) -> Any:
        raise RuntimeError("I give up")


class Cheater:
    name = "cheater"

    def act(self, observation: Any) -> Any:
        return "play 2♣" if "play 2♣" not in map(str, observation.legal_actions) else "play 3♣"


class Sleeper:
    name = "sleeper"

    def act(self, observation: Any) -> Any:
        time.sleep(0.05)
        return observation.legal_actions[0]


@pytest.mark.parametrize(
    ("bad", "reason"),
    [
        (Crasher(), "raised RuntimeError: I give up"),
        (Cheater(), "illegal action"),
        (Sleeper(), "limit 0.001 s"),
    ],
)
def test_a_misbehaving_bot_forfeits_and_nothing_raises(bad: Any, reason: str) -> None:
    """Raising, cheating or running over time forfeits; the others share the win."""
    g = game()
    players = [RandomBot(g, seed=1), bad, RandomBot(g, seed=2)]
    rec = play_match(g, players, seed=3, time_limit=0.001 if isinstance(bad, Sleeper) else None)
    assert rec.outcome is not None
    assert rec.outcome.forfeit == 1
    assert reason in rec.outcome.reason
    assert rec.outcome.placing[1] == 3
    assert rec.outcome.winners == (0, 2)


def test_wrong_number_of_bots() -> None:
    """The player count is checked against the game."""
    with pytest.raises(ValueError, match="needs 2-4 players"):
        play_match(game(), bots(1))


def test_start_and_end_hooks_are_called() -> None:
    """Bots with start_match / end_match hear about the match."""
    seen: list[str] = []

    class Polite(RandomBot):  # type: ignore[misc]
        def start_match(self, g: Any, seat: int, n: int) -> None:
            seen.append(f"start {seat}/{n}")

        def end_match(self, outcome: Any) -> None:
            seen.append("end")

    g = game()
    play_match(g, [Polite(g, seed=1), RandomBot(g, seed=2)], seed=0)
    assert seen == ["start 0/2", "end"]


def _saved(tmp_path: Path, data: Any) -> Path:
    p = tmp_path / "rec.json"
    p.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return p


def good_json() -> dict[str, Any]:
    return play_match(game(), bots(), seed=2).to_json()


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d.pop("seed"), "field 'seed' is missing"),
        (lambda d: d.update(seed="x"), "field 'seed' has the wrong type"),
        (lambda d: d.update(format="other/9"), "field 'format'"),
        (lambda d: d.update(game="nope"), "field 'game': unknown game 'nope'"),
        (lambda d: d.update(options={"hand_size": 99}), "field 'options'"),
        (lambda d: d["actions"].__setitem__(1, "play 9♠♠"), "action #2"),
        (lambda d: d["actions"].__setitem__(0, "dance"), "action #1 'dance'"),
        (lambda d: d["actions"].append("play 2♣"), "already over"),
        (lambda d: d["outcome"].update(scores=[9, 9, 9]), "field 'outcome'"),
        (lambda d: d.update(deck=["2♣", "zz"]), "field 'deck', card #2"),
    ],
)
def test_corrupt_records_give_one_clear_error(tmp_path: Path, mutate: Any, message: str) -> None:
    """Every corruption names the field or the action (and its line)."""
    data = good_json()
    mutate(data)
    with pytest.raises(RecordError) as err:
        verify(MatchRecord.load(_saved(tmp_path, data)))
    assert message in str(err.value)


def test_an_illegal_action_names_its_line(tmp_path: Path) -> None:
    """The error for an illegal action gives its number and the file's line."""
    rec = play_match(game(), bots(), seed=2)
    data = rec.to_json()
    data["actions"][3] = data["actions"][0]
    text = json.dumps(data, indent=1, ensure_ascii=False)
    with pytest.raises(RecordError, match=r"action #4 .*\(line \d+\): illegal for seat"):
        verify(MatchRecord.loads(text))


def test_invalid_json_gives_line_and_column(tmp_path: Path) -> None:
    """Broken JSON names the line and column."""
    with pytest.raises(RecordError, match="line 2, column"):
        MatchRecord.load(_saved(tmp_path, '{"format":\n ]'))


def test_missing_file(tmp_path: Path) -> None:
    """An absent file is a RecordError, not a traceback."""
    with pytest.raises(RecordError, match="cannot read"):
        MatchRecord.load(tmp_path / "none.json")


def test_replay_yields_every_step() -> None:
    """Replay gives each decision with the states around it."""
    rec = play_match(game(), bots(), seed=5)
    steps = list(replay(rec))
    assert [str(s.action) for s in steps] == list(rec.actions)
    assert all(s.before != s.after for s in steps)


def test_a_bot_that_fails_to_start_forfeits() -> None:
    """An exception in start_match is a forfeit, not a crash of the caller."""

    class BadStart(RandomBot):  # type: ignore[misc]
        def start_match(self, g: Any, seat: int, n: int) -> None:
            raise ValueError("no table for me")

    g = game()
    rec = play_match(g, [RandomBot(g, seed=1), BadStart(g, seed=2)], seed=0)
    assert rec.outcome is not None
    assert rec.outcome.forfeit == 1
    assert "start_match: no table for me" in rec.outcome.reason
