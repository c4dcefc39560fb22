"""What a bot returns, how long it takes, and what it can reach: the engine's side."""

from __future__ import annotations

import importlib
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from cardcore import MatchRecord, RecordError, _engine, isolated_bot, load_game, play_match, verify
from cardcore._actions import CardAction
from cardcore._lazy import CardSubsets, ConcatActions
from cardcore.bots import RandomBot

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.append(str(ROOT))
tb: Any = importlib.import_module("tests.engine_testbots")


@pytest.fixture
def path(monkeypatch: pytest.MonkeyPatch) -> str:
    """Make the test bots importable here and in child processes; their module."""
    monkeypatch.syspath_prepend(str(ROOT))
    return str(tb.MODULE)


def game() -> Any:
    return load_game("highcard")


@pytest.mark.parametrize(
    ("bot", "reason"),
    [
        (tb.EqualsAll, "returned an illegal action: a tests.engine_testbots.EqualsEverything"),
        (tb.RaisingEq, "returned an illegal action: a tests.engine_testbots.Boom"),
        (tb.EditsLegal, "changed its observation"),
        (tb.EditsThenPlays, "changed its observation"),
        (tb.SubclassAction, "not an action of highcard"),
    ],
)
def test_a_bot_cannot_pass_off_an_object_as_an_action(bot: type, reason: str) -> None:
    """Objects equal to everything, raising in __eq__, or edited observations forfeit.

    The engine never calls the returned object's methods (the raising one would make it
    raise), and a subclass of the game's own action type is not the game's type.
    """
    g = game()
    rec = play_match(g, [RandomBot(g, seed=1), bot(g, seed=2)], seed=3)
    assert rec.outcome is not None
    assert rec.outcome.forfeit == 1
    assert reason in rec.outcome.reason
    verify(MatchRecord.loads(rec.dumps()))


def test_copies_and_texts_of_legal_actions_are_accepted() -> None:
    """A new object of the game's own action type, or the action's text, is accepted."""
    g = game()
    rec = play_match(g, [tb.CopyMaker(g, seed=1), RandomBot(g, seed=2)], seed=4)
    assert rec.outcome is not None
    assert rec.outcome.forfeit is None
    verify(rec)


def test_a_hung_bot_is_stopped_within_the_limit_in_process() -> None:
    """A 4 s sleeper against a 0.5 s limit forfeits well before its sleep ends."""
    g = game()
    t0 = time.monotonic()
    rec = play_match(g, [tb.Sleeper4(g), RandomBot(g)], seed=1, time_limit=0.5)
    took = time.monotonic() - t0
    assert rec.outcome is not None
    assert rec.outcome.forfeit == 0
    assert "did not return within 0.5 s" in rec.outcome.reason
    assert took < 3.5


def test_a_hung_isolated_bot_is_killed_within_the_limit(path: str) -> None:
    """Isolated, the sleeper's process is stopped after the limit and it forfeits."""
    g = game()
    with isolated_bot(f"{path}:Sleeper4", g) as bot:
        assert bot.build(60.0) is None  # start the process first: spawning is not timed
        t0 = time.monotonic()
        rec = play_match(g, [bot, RandomBot(g)], seed=1, time_limit=0.5)
        took = time.monotonic() - t0
    assert rec.outcome is not None
    assert rec.outcome.forfeit == 0
    assert "did not answer within 0.75 s; its process was stopped" in rec.outcome.reason
    assert took < 3.5


def test_in_process_a_bot_reaches_the_state_and_isolated_it_does_not(path: str) -> None:
    """The state hunter finds the real state in-process, and nothing in its own process."""
    g = game()
    here = play_match(g, [tb.StateHunter(g), RandomBot(g)], seed=2)
    assert here.outcome is not None
    assert "found the real state" in here.outcome.reason  # the weakness, shown
    with isolated_bot(f"{path}:StateHunter", g, seed=1) as bot:
        there = play_match(g, [bot, RandomBot(g)], seed=2)
    assert there.outcome is not None
    assert there.outcome.forfeit is None, there.outcome.reason
    verify(there)


def test_a_forging_bot_cannot_change_the_outcome_when_isolated(path: str) -> None:
    """In-process, forging the state is caught by verify; isolated, it changes nothing."""
    g = game()
    forged = play_match(g, [tb.Forger(g, seed=1), RandomBot(g, seed=2)], seed=5)
    assert forged.outcome is not None
    assert forged.outcome.scores[0] == 99  # the weakness of in-process play, shown
    with pytest.raises(RecordError, match="field 'outcome'"):
        verify(forged)
    with isolated_bot(f"{path}:Forger", g, seed=1) as bot:
        honest = play_match(g, [bot, RandomBot(g, seed=2)], seed=5)
    assert honest.outcome is not None
    assert honest.outcome.scores[0] != 99
    verify(honest)
    reference = play_match(g, [RandomBot(g, seed=1), RandomBot(g, seed=2)], seed=5)
    assert honest.actions == reference.actions  # same seed, same random choices


def test_an_isolated_bot_plays_like_the_same_bot_in_process(path: str) -> None:
    """Same seeds, same record, whether the bot runs here or in its own process."""
    g = load_game("highcard", hand_size=5)
    here = play_match(g, [RandomBot(g, seed=3), RandomBot(g, seed=4)], seed=8)
    with isolated_bot("random", g, seed=3) as a, isolated_bot("random", g, seed=4) as b:
        there = play_match(g, [a, b], seed=8, names=["random", "random"])
    assert there.actions == here.actions
    assert there.outcome == here.outcome


def _edited(rec: MatchRecord, **outcome: Any) -> MatchRecord:
    data = rec.to_json()
    data["outcome"].update(outcome)
    return MatchRecord.from_json(data)


def test_verify_rejects_edited_outcomes() -> None:
    """A finished game edited into a forfeit, other scores, or an impossible forfeit fails."""
    g = game()
    rec = play_match(g, [RandomBot(g, seed=1), RandomBot(g, seed=2)], seed=6)
    verify(rec)
    with pytest.raises(RecordError, match="play to a finished game"):
        verify(_edited(rec, forfeit=1, reason="seat 1 raised"))
    with pytest.raises(RecordError, match="the replay ends with"):
        verify(_edited(rec, scores=[3.0, 0.0]))
    cut = MatchRecord.from_json({**rec.to_json(), "actions": list(rec.actions[:3])})
    with pytest.raises(RecordError, match="nobody forfeited"):
        verify(cut)
    crash = play_match(g, [tb.RaisingEq(g), RandomBot(g)], seed=6)
    verify(crash)
    with pytest.raises(RecordError, match="a forfeit by seat 0 gives"):
        verify(_edited(crash, scores=[1.0, 0.0]))
    mid = next(
        r
        for r in (play_match(g, [RandomBot(g), tb.EqualsAll(g)], seed=k) for k in range(20))
        if r.actions
    )
    verify(mid)
    data = mid.to_json()
    data["outcome"] = {**data["outcome"], "forfeit": 0}
    with pytest.raises(RecordError, match="seat 1 was to move"):
        verify(MatchRecord.from_json(data))


_SCRIPT = """
from cardcore import load_bot, load_game, play_match, isolated_bot
g = load_game("highcard", hand_size=6)
with isolated_bot("random", g, seed=1) as a:
    rec = play_match(g, [a, load_bot("random", g, seed=2)], seed=11, names=["random", "random"])
print(rec.dumps(), end="")
"""


def test_records_are_byte_identical_across_processes_and_hash_seeds() -> None:
    """The same match, isolated or not, in processes with other hash seeds: same bytes."""
    import os
    import subprocess

    g = load_game("highcard", hand_size=6)
    here = play_match(
        g, [RandomBot(g, seed=1), RandomBot(g, seed=2)], seed=11, names=["random", "random"]
    ).dumps()
    outs = []
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        done = subprocess.run(
            [sys.executable, "-c", _SCRIPT], env=env, capture_output=True, text=True, check=True
        )
        outs.append(done.stdout)
    assert outs[0] == outs[1] == here


class _Steal(CardAction, verb="steal", sizes=(1, 2, 3)):
    """A card action for the lazy-sequence tests."""


class _Decline(CardAction, verb="decline"):
    """Another card action (a second type in one sequence)."""


def test_lazy_legal_actions_accept_their_shared_objects_without_listing_them() -> None:
    """From a lazy sequence, the very shared object is found without building the rest."""
    hand = (1 << 20) - 1  # 20 cards: 1350 offers
    legal = ConcatActions((_Decline.of(40),), CardSubsets(_Steal, hand, sizes=(1, 2, 3)))
    built = []
    real = CardSubsets._item

    def counting(self: Any, index: int) -> Any:
        built.append(index)
        return real(self, index)

    g = game()
    pick = legal[700]
    CardSubsets._item = counting  # type: ignore[method-assign]
    try:
        assert _engine.accept(g, legal, pick) is pick
        assert len(built) <= 2  # the first and last, to learn the action classes
        assert _engine.accept(g, legal, legal[0]) is legal[0]
        outside = _Steal.from_mask(1 << 30)
        refused = _engine.accept(g, legal, outside)
    finally:
        CardSubsets._item = real  # type: ignore[method-assign]
    assert "illegal action" in refused
    assert "not an action" in _engine.accept(g, legal, tb.EqualsEverything())
    assert "not an action" in _engine.accept(g, legal, tb.Boom())
