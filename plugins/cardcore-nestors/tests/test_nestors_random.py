"""Nestors random play: whole games under every configuration, invariants after every move.

Also a Hypothesis state machine playing whole games, the property that a deal's play
schedule uses all 36 cards (NS-9.4, NS-9.6), and the invariant checker catching broken
states.
"""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from cardcore import CardTable
from cardcore.testing import configurations
from cardcore_nestors import Nestors, NestorsOptions, NestorsState, Phase, check_invariants
from cardcore_nestors.hooks import plugin
from cardcore_nestors.state import HAND, LAYOUT, ROW, TRICK, WON

(SPEC,) = plugin.games
CONFIGS = configurations(SPEC)


def build(preset: str, overrides: dict[str, Any]) -> Nestors:
    return Nestors(attrs.evolve(SPEC.presets[preset], **overrides))


def play_out(game: Nestors, seed: int) -> tuple[NestorsState, int]:
    """Play a random game to its end, checking the invariants after every action."""
    rng = random.Random(seed)
    state = game.initial_state(4, seed)
    check_invariants(game, state)
    steps = 0
    bound = game.max_decisions(4)
    while state.current is not None:
        legal = game.legal_actions(state)
        assert legal, "a live state has no legal action"
        state = game.apply(state, legal[rng.randrange(len(legal))])
        check_invariants(game, state)
        steps += 1
        assert steps <= bound
    return state, steps


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: c.label())
def test_random_games_to_the_end(config: Any) -> None:
    """Every preset and single-option change: random games end; NS-9.1 to NS-9.8 hold."""
    game = build(config.preset, dict(config.overrides))
    for seed in range(3):
        state, steps = play_out(game, seed)
        assert state.phase is Phase.OVER
        out = game.outcome(state)
        assert out is not None
        assert sum(out.shares) == 1
        assert out.teams == ((0, 2), (1, 3))
        assert steps <= game.max_decisions(4)


def test_every_option_value_is_played() -> None:
    """Every value of every option of section 7 appears among the configurations."""
    seen: dict[str, set[Any]] = {}
    for c in CONFIGS:
        opts = attrs.evolve(SPEC.presets[c.preset], **dict(c.overrides))
        for f in attrs.fields(NestorsOptions):
            seen.setdefault(f.name, set()).add(getattr(opts, f.name))
    assert seen["next_dealer"] == {"rotate", "bidder"}
    assert seen["fail_penalty"] == {"taken", "bid"}
    assert seen["minus_1000"] == {"loses", "wins"}
    assert {5, 100, 190} <= seen["min_bid"]
    assert {1, 1000} <= seen["threshold"]


def test_long_games_stay_within_the_bound() -> None:
    """max_decisions is a true bound: the longest of many random games is far below it."""
    game = Nestors()
    longest = max(play_out(game, seed)[1] for seed in range(10, 16))
    assert longest < game.max_decisions(4) // 4


# ---- the invariant checker can fail --------------------------------------------------


def mid_play_state() -> tuple[Nestors, NestorsState]:
    game = Nestors()
    rng = random.Random(5)
    state = game.initial_state(4, 5)
    while not (state.phase is Phase.PLAY and state.play.trick == 5 and state.table.size(TRICK)):
        legal = game.legal_actions(state)
        state = game.apply(state, legal[rng.randrange(len(legal))])
    return game, state


def with_masks(state: NestorsState, **moves: int) -> NestorsState:
    masks = list(state.table.masks)
    for name, delta in moves.items():
        masks[LAYOUT.zone(name)] ^= delta
    t = state.table
    return attrs.evolve(state, table=CardTable(LAYOUT, tuple(masks), t.orders, t.known))


def test_invariant_checker_catches_broken_states() -> None:
    """check_invariants raises on a lost card, wrong hand sizes, points, bids or carry."""
    game, state = mid_play_state()
    check_invariants(game, state)
    hand0 = state.table.masks[HAND]
    card = hand0 & -hand0
    broken = [
        with_masks(state, hand0=card),  # a card lost
        with_masks(state, hand0=card, hand1=card),  # a card in the wrong hand
        with_masks(state, hand0=card, won0=card),  # a card in a won pile
        attrs.evolve(state, play=attrs.evolve(state.play, points=(0, 0))),
        attrs.evolve(state, play=attrs.evolve(state.play, tricks=(4, 4))),
        attrs.evolve(state, deal=attrs.evolve(state.deal, calls=((0, 103),), high=103)),
        attrs.evolve(state, deal=attrs.evolve(state.deal, high=state.deal.high + 5)),
        attrs.evolve(state, current=(state.current or 0) + 1),
        with_masks(state, row=state.table.masks[ROW], won1=state.table.masks[ROW]),
    ]
    for bad in broken:
        with pytest.raises(AssertionError):
            check_invariants(game, bad)


def test_invariant_checker_catches_a_bad_score() -> None:
    """NS-9.8: hand scores that do not add up are caught."""
    game = Nestors()
    state, _ = play_out(game, 1)
    r = state.match.last_hand
    assert r is not None
    bad = attrs.evolve(r, change=(r.change[0] + 5, r.change[1]))
    with pytest.raises(AssertionError, match=r"NS-9\.8"):
        check_invariants(game, attrs.evolve(state, match=attrs.evolve(state.match, recent=(bad,))))
    bad = attrs.evolve(r, points=(r.points[0] + 5, r.points[1]))
    with pytest.raises(AssertionError, match=r"NS-9\.5"):
        check_invariants(game, attrs.evolve(state, match=attrs.evolve(state.match, recent=(bad,))))


# ---- properties with Hypothesis -------------------------------------------------------

ONE_HAND = Nestors(NestorsOptions(threshold=1))


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), choices=st.lists(st.integers(0, 10**6), min_size=60))
def test_play_schedule_uses_all_36_cards(seed: int, choices: list[int]) -> None:
    """NS-9.4, NS-9.6: 12 tricks of 3 cards hold all 36 cards; the scheduled players hold one.

    With threshold=1 the game ends with the first scored hand, so its table is kept.
    """
    game = ONE_HAND
    state = game.initial_state(4, seed)
    i = 0
    while state.current is not None:
        legal = game.legal_actions(state)
        state = game.apply(state, legal[choices[i % len(choices)] % len(legal)])
        check_invariants(game, state)
        i += 1
    t = state.table
    r = state.match.last_hand
    assert r is not None
    if r.void:
        return
    assert t.size(WON) + t.size(WON + 1) == 36
    assert 3 * (state.play.tricks[0] + state.play.tricks[1]) == 36
    assert all(t.size(HAND + s) == 0 for s in range(4))
    assert sum(r.points) == 190


class NestorsMachine(RuleBasedStateMachine):
    """Plays whole Nestors games (small threshold) with invariants after every action."""

    def __init__(self) -> None:
        super().__init__()
        self.game = Nestors()
        self.state: NestorsState | None = None

    @initialize(
        seed=st.integers(0, 2**32 - 1),
        options=st.builds(
            NestorsOptions,
            next_dealer=st.sampled_from(["rotate", "bidder"]),
            min_bid=st.sampled_from([5, 100, 150, 190]),
            fail_penalty=st.sampled_from(["taken", "bid"]),
            minus_1000=st.sampled_from(["loses", "wins"]),
            threshold=st.integers(1, 400),
        ),
    )
    def start(self, seed: int, options: NestorsOptions) -> None:
        self.game = Nestors(options)
        self.state = self.game.initial_state(4, seed)

    @precondition(lambda self: self.state is not None and self.state.current is not None)
    @rule(pick=st.integers(0, 10**6), steps=st.integers(1, 40))
    def act(self, pick: int, steps: int) -> None:
        rng = random.Random(pick)
        for _ in range(steps):
            assert self.state is not None
            if self.state.current is None:
                return
            legal = self.game.legal_actions(self.state)
            self.state = self.game.apply(self.state, legal[rng.randrange(len(legal))])
            check_invariants(self.game, self.state)

    @precondition(lambda self: self.state is not None and self.state.current is None)
    @rule(seed=st.integers(0, 2**32 - 1))
    def next_game(self, seed: int) -> None:
        assert self.state is not None
        out = self.game.outcome(self.state)
        assert out is not None
        assert sum(out.shares) == 1
        self.state = self.game.initial_state(4, seed)

    @invariant()
    def consistent(self) -> None:
        if self.state is None:
            return
        check_invariants(self.game, self.state)
        over = self.state.current is None
        assert (self.game.outcome(self.state) is not None) == over


NestorsMachine.TestCase.settings = settings(max_examples=15, stateful_step_count=30, deadline=None)
TestNestorsMachine = NestorsMachine.TestCase
