"""Nestors hidden information (section 8): NS-T33, NS-T34, determinisation and leaks."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import attrs
import pytest

from cardcore import SPECTATOR, Card
from cardcore_nestors import Nestors, NestorsAction, NestorsOptions, NestorsState, Pass, Phase
from cardcore_nestors.cards import DECK_IDS, HIGH, RANK_MASK, SUIT_MASK
from cardcore_nestors.state import HAND, HOLE, STOCK

GAME = Nestors()
SEATS = (0, 1, 2, 3, SPECTATOR)


def walk(game: Nestors, seed: int, steps: int, *, passes: float = 0.0) -> Iterator[NestorsState]:
    """The states of a random game (at most ``steps`` decisions).

    With ``passes`` > 0, a player who may pass does so with that probability.
    """
    rng = random.Random(seed)
    state = game.initial_state(4, seed)
    yield state
    for _ in range(steps):
        if state.current is None:
            return
        legal = game.legal_actions(state)
        action: NestorsAction
        if passes and legal[0] == Pass() and rng.random() < passes:
            action = legal[0]
        else:
            action = legal[rng.randrange(len(legal))]
        state = game.apply(state, action)
        yield state


def visible_text(game: Nestors, state: NestorsState, seat: int) -> str:
    """An observation's JSON without the public cards turned up for the first dealer."""
    data = game.observe(state, seat).to_json()
    data["match"].pop("first_draw")
    return json.dumps(data, ensure_ascii=False)


def test_ns_t33_hole_card() -> None:
    """NS-T33 (NS-8.2, NS-8.3): the hole card is seen by nobody, then by the bidder only."""
    for seed in range(12):
        hole: int | None = None
        bidder: int | None = None
        for state in walk(GAME, seed, 400):
            if state.deal.number > 1 or state.phase is Phase.OVER:
                break
            if state.phase in (Phase.AUCTION, Phase.TRUMP):
                hole = next(iter(state.table.cards(HOLE))).id
                for seat in SEATS:
                    view = GAME.observe(state, seat).table
                    assert not any((k >> hole) & 1 for k in view.known)
                    assert str(Card.of(hole)) not in visible_text(GAME, state, seat)
                continue
            assert hole is not None
            bidder = state.deal.bidder
            in_hand = state.table.where(hole) == HAND + bidder if bidder is not None else False
            for seat in SEATS:
                knows = any((k >> hole) & 1 for k in GAME.observe(state, seat).table.known)
                assert knows == (seat == bidder or not in_hand), (seed, seat)
        assert bidder is not None


def test_ns_t34_undealt_cards() -> None:
    """NS-T34 (NS-8.3): no observation shows the 12 undealt cards before the second deal."""
    for seed in range(12):
        for state in walk(GAME, seed, 60):
            if state.phase not in (Phase.AUCTION, Phase.TRUMP):
                break
            stock = state.table.masks[STOCK]
            assert stock.bit_count() == 12
            for seat in SEATS:
                obs = GAME.observe(state, seat)
                assert not any(k & stock for k in obs.table.known)
                assert all(x is None for x in obs.table.to_json()["zones"]["stock"])  # type: ignore[index]
                text = visible_text(GAME, state, seat)
                for c in DECK_IDS:
                    if (stock >> c) & 1:
                        assert f'"{Card.of(c)}"' not in text


def test_observations_show_only_own_legal_actions() -> None:
    """NS-8.4: an observation never shows another player's legal actions."""
    for state in walk(GAME, 3, 300):
        for seat in SEATS:
            obs = GAME.observe(state, seat)
            if seat == state.current:
                assert obs.legal_actions == GAME.legal_actions(state)
            else:
                assert obs.legal_actions == ()


def test_rng_is_hidden() -> None:
    """The RNG state (future shuffles) is in no observation."""
    for state in walk(GAME, 4, 200):
        other = attrs.evolve(state, rng=state.rng ^ 0xFFFF)
        for seat in SEATS:
            assert GAME.observe(state, seat) == GAME.observe(other, seat)
        assert "rng" not in GAME.observe(state, 0).to_json()


@pytest.mark.parametrize("options", [NestorsOptions(), NestorsOptions(min_bid=5, threshold=300)])
def test_sample_state_agrees_with_the_observation(options: NestorsOptions) -> None:
    """observe(sample_state(observe(s, p)), p) == observe(s, p), and play goes on from it."""
    game = Nestors(options)
    rng = random.Random(0)
    checked = 0
    for seed in range(6):
        for i, state in enumerate(walk(game, seed, 700)):
            if i % 3:
                continue
            for seat in SEATS:
                obs = game.observe(state, seat)
                sampled = game.sample_state(obs, rng)
                sampled.table.check()
                assert game.observe(sampled, seat) == obs
                if state.current is not None:
                    assert game.legal_actions(sampled)  # never a dead end
                checked += 1
    assert checked > 1000


def test_sample_state_keeps_what_plays_revealed() -> None:
    """NS-8.4: a seat shown void in a suit gets none; bidders keep an A, J or 10 / a trump."""
    rng = random.Random(1)
    voids_seen = forced_seen = lead_seen = 0
    for seed in range(40):
        for state in walk(GAME, seed, 500, passes=0.6 if seed % 2 else 0.0):
            if state.current is None:
                break
            seat = state.current
            obs = GAME.observe(state, seat)
            sampled = GAME.sample_state(obs, rng)
            for s in range(4):
                v = state.play.voids[s]
                if v and s != seat:
                    voids_seen += 1
                    banned = sum(SUIT_MASK[x] for x in range(4) if (v >> x) & 1)
                    assert not sampled.table.masks[HAND + s] & banned
            d = state.deal
            if state.phase is Phase.AUCTION and d.passed.bit_count() == 3:
                forced_seen += 1
                assert sampled.table.masks[HAND + d.dealer] & HIGH
            if state.phase is Phase.AUCTION:
                for s, b in d.calls:
                    if b:
                        assert sampled.table.masks[HAND + s] & HIGH
            if state.phase is Phase.LEAD and d.bidder is not None:
                lead_seen += 1
                for s in range(4):  # every seat's view, the bidder's trump kept
                    other = GAME.sample_state(GAME.observe(state, s), rng)
                    assert other.table.masks[HAND + d.bidder] & RANK_MASK[d.trump]
    assert voids_seen > 50
    assert forced_seen > 0
    assert lead_seen > 10


def test_sample_state_for_an_onlooker() -> None:
    """An onlooker's observation can be determinised too."""
    rng = random.Random(2)
    for state in walk(GAME, 9, 300):
        obs = GAME.observe(state, SPECTATOR)
        assert GAME.observe(GAME.sample_state(obs, rng), SPECTATOR) == obs


def test_placed_sampling_fallback() -> None:
    """The fallback sampler (a required card placed first) agrees with the observation."""
    from cardcore_nestors.rules import positive_constraints, sample_placed

    rng = random.Random(3)
    tried = 0
    for seed in range(30):
        for state in walk(GAME, seed, 60, passes=0.5):
            if state.phase not in (Phase.AUCTION, Phase.TRUMP, Phase.LEAD):
                break
            for seat in SEATS:
                obs = GAME.observe(state, seat)
                need = positive_constraints(obs)
                if not need:
                    continue
                table = sample_placed(obs, rng, {}, need)
                table.check()
                for z, m in need:
                    assert table.masks[z] & m
                sampled = attrs.evolve(state, table=table)
                assert GAME.observe(sampled, seat) == obs
                tried += 1
    assert tried > 100


def test_public_facts_are_in_every_observation() -> None:
    """NS-8.1: scores, dealer, draw, row, calls, contract, trump, tricks and sizes are public."""
    from cardcore_nestors.state import ROW, TRICK, WON

    for state in walk(GAME, 12, 400):
        for seat in SEATS:
            obs = GAME.observe(state, seat)
            assert (obs.match, obs.deal, obs.play) == (state.match, state.deal, state.play)
            t = obs.table
            for zone in (ROW, TRICK, WON, WON + 1):  # face-up cards and won tricks
                assert t.known[zone] == state.table.masks[zone]
            assert t.sizes == tuple(m.bit_count() for m in state.table.masks)
