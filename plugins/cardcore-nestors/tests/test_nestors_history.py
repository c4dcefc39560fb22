"""Nestors' public history (NS-8.1): what a seat misses between its decisions still reaches it."""

from __future__ import annotations

import json
import random
import struct
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import attrs
import pytest

from cardcore import DECK_36, DECK_52, SPECTATOR
from cardcore.testing import ConformanceError, check_public_history
from cardcore_nestors import PRESETS, Nestors, NestorsObservation, NestorsState, Pass
from cardcore_nestors.encoding import FACTS_SIZE, nestors_facts, nestors_facts_packer
from cardcore_nestors.state import TRICK
from cardcore_nestors.tricks import two_card_winner

GAME = Nestors(attrs.evolve(PRESETS["default"], threshold=300))


def play(
    game: Nestors,
    seed: int,
    policy: Callable[[Sequence[Any], random.Random], Any] | None = None,
) -> list[tuple[NestorsState, Any, NestorsState]]:
    """The moves of one random game: (before, action, after)."""
    rng = random.Random(seed)
    s = game.initial_state(4, seed)
    moves = []
    while s.current is not None:
        legal = game.legal_actions(s)
        action = policy(legal, rng) if policy else legal[rng.randrange(len(legal))]
        after = game.apply(s, action)
        moves.append((s, action, after))
        s = after
    return moves


def _tricks_in(data: Any) -> Iterator[dict[str, Any]]:
    """Every trick record anywhere in an observation's JSON form."""
    if isinstance(data, dict):
        if data.get("type") == "TrickRecord":
            yield data
        for value in data.values():
            yield from _tricks_in(value)
    elif isinstance(data, list):
        for value in data:
            yield from _tricks_in(value)


def test_trick_12_of_every_deal_reaches_every_seat() -> None:
    """NS-8.1: trick 12's cards and winner are public, also when the next deal follows:
    every seat's first observation of the next deal (its JSON form) holds them."""
    deals = 0
    for seed in range(6):
        for before, action, after in play(GAME, seed):
            if not (before.play.trick == 12 and before.table.size(TRICK) == 1):
                continue
            if after.current is None:
                continue  # the last deal: the final state still shows it
            bidder = before.deal.bidder
            assert bidder is not None and after.deal.number == before.deal.number + 1
            a = before.table.orders[TRICK][0]
            b = action.cards[0].id
            winner = (bidder + two_card_winner(a, b, before.deal.trump)) % 4
            want = {"cards": [str(DECK_52[a]), str(DECK_52[b])], "winner": winner}
            for seat in range(4):
                data = GAME.observe(after, seat).to_json()
                twelfths = [
                    {"cards": t["cards"], "winner": t["winner"]}
                    for t in _tricks_in(data)
                    if t["number"] == 12
                ]
                assert twelfths == [want], (seed, before.deal.number, seat)
            deals += 1
    assert deals >= 6


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_seat_observes_every_public_event(preset: str) -> None:
    """NS-8.1: joined over a seat's decisions (and its last look), its observations hold
    every call, the trump, every card played and by whom, every trick's winner, every
    carry card left and every deal's result (void deals included)."""
    report = check_public_history("nestors", presets=[preset], games=3, seed=2)
    assert report.games_played == 3
    assert report.events > 300


def test_the_history_survives_json_and_reaches_the_text_form() -> None:
    """The JSON form carries the recent deals and this deal's tricks; render() lists them."""
    moves = play(GAME, 4)
    seen = 0
    for before, _action, _after in moves:
        p = before.play
        if not (len(p.done) >= 3 and before.match.recent):
            continue
        obs = GAME.observe(before, SPECTATOR)
        back = GAME.observation_from_json(json.loads(json.dumps(obs.to_json())))
        assert back == obs and back.play.done == p.done
        assert GAME.observed_events(back) == GAME.observed_events(obs)
        text = GAME.render(obs)
        for t in p.done:
            assert f"  trick {t.number}: " in text
        seen += 1
    assert seen > 10
    start = next(b for b, _, _ in moves if b.deal.number == 2)
    text = GAME.render(GAME.observe(start, SPECTATOR))
    last = start.match.recent[-1]
    assert "  auction: " in text
    for t in last.tricks:
        assert f"  trick {t.number}: " in text


def test_the_encoding_holds_who_played_and_took_each_card() -> None:
    """The RL facts end with, per card, who played it and who took it, over this deal's
    finished tricks, or the last deal's before the first of them ends (trick 12 too)."""
    pack = nestors_facts_packer(300, GAME.max_deals)
    checked = 0
    for before, _action, _after in play(GAME, 5):
        obs = GAME.observe(before, 0)
        facts = nestors_facts(obs, 300, GAME.max_deals)
        assert len(facts) == FACTS_SIZE
        assert pack(obs) == struct.pack(f"<{FACTS_SIZE}f", *facts)
        if obs.play.done or not obs.match.recent:
            continue
        last = obs.match.recent[-1]
        if last.void:
            continue
        assert facts[-2] == 1.0  # the shown tricks are the last deal's
        history = facts[-2 - 36 * 9 : -2]
        t12 = last.tricks[-1]
        for i, card in enumerate(t12.cards):
            at = 9 * DECK_36.index(card)
            assert history[at : at + 4] == [float(s == (t12.leader + i) % 4) for s in range(4)]
            assert history[at + 4] == 1.0  # trick 12 of 12
            assert history[at + 5 : at + 9] == [float(s == t12.winner) for s in range(4)]
        checked += 1
    assert checked > 0


class _LatestTrickOnly(Nestors):
    """Nestors as it was: the latest trick only, and no tricks of the previous deal."""

    def observe(self, state: NestorsState, seat: int) -> NestorsObservation:
        obs = super().observe(state, seat)
        m = attrs.evolve(
            obs.match, recent=tuple(attrs.evolve(r, tricks=()) for r in obs.match.recent)
        )
        return attrs.evolve(obs, match=m, play=attrs.evolve(obs.play, done=obs.play.done[-1:]))


def test_the_check_fails_when_observations_keep_only_the_latest_trick() -> None:
    """Keeping only the latest trick (NS-8.1 broken, as before) loses plays, winners and
    trick 12 of every deal: the public-history check says which events a seat missed."""
    broken = _LatestTrickOnly(attrs.evolve(PRESETS["default"], threshold=300))
    with pytest.raises(ConformanceError, match=r"public-history.*never observes"):
        check_public_history(broken, games=2, seed=2)


def _mostly_pass(legal: Sequence[Any], rng: random.Random) -> Any:
    """Pass four times in five when passing is legal: all-pass and void deals happen."""
    if Pass() in legal and rng.random() < 0.8:
        return Pass()
    return legal[rng.randrange(len(legal))]


def test_void_deals_keep_what_the_dealer_missed() -> None:
    """NS-4.5, NS-8.1: the dealer does not decide in a void deal, so the deal before it
    (its last tricks) and the void deal's passes still reach the dealer afterwards."""
    voids = 0
    for seed in range(8):
        for _before, _action, after in play(GAME, seed, _mostly_pass):
            recent = after.match.recent
            if after.deal.calls == () and recent and recent[-1].void:
                assert all(r.void for r in recent[1:])
                assert after.deal.number == 2 or not recent[0].void
                voids += 1
    assert voids > 0
    report = check_public_history(GAME, games=8, seed=0, policy=_mostly_pass)
    assert report.games_played == 8
