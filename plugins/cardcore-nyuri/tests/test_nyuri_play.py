"""Whole Nyuri games: section-9 invariants after every action, card knowledge, leaks,
JSON and text round trips, under every preset, single-option change and player count.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from cardcore import Card, CardTable, IllegalActionError, load_game, parse_cards
from cardcore_nyuri import (
    PRESETS,
    Decline,
    Lay,
    Nyuri,
    NyuriAction,
    NyuriState,
    Phase,
    Steal,
    Swap,
    TakeBack,
)

CONFIGS: dict[str, dict[str, Any]] = {
    "default": {},
    "capture=hand": {"capture": "hand"},
    "end=stock_exhausted": {"end": "stock_exhausted"},
    "three_card_penalty=true": {"three_card_penalty": True},
    "guarded_single=any_suit": {"guarded_single": "any_suit"},
    "turn_limit=1": {"turn_limit": 1},
    "turn_limit=20": {"turn_limit": 20},
}
"""The default preset and every single-option change from it."""


def make(preset: str = "default", **options: Any) -> Nyuri:
    g = load_game("nyuri", preset=preset, **options)
    assert isinstance(g, Nyuri)
    return g


ALL_GAMES = [("preset=pagat", make("pagat"))] + [(k, make(**v)) for k, v in CONFIGS.items()]


# ---- the section-9 invariant checker ---------------------------------------------------


def _legal_steal(offer: list[int], target: int, guard: int, any_suit: bool) -> bool:
    """NY-4.4 written out plainly, independently of the rules module."""
    value = [c % 13 + 2 for c in offer]
    t_value = target % 13 + 2 + (guard % 13 + 2 if guard >= 0 else 0)
    if len(offer) == 1:
        same = offer[0] // 13 == target // 13
        return (same or (guard >= 0 and any_suit)) and value[0] > t_value
    if len(offer) == 2:
        return sum(value) > t_value
    return len(offer) == 3 and t_value > 10 and sum(value) > t_value


def _ids(mask: int) -> list[int]:
    return [c for c in range(52) if mask >> c & 1]


@attrs.define
class Invariants:
    """Checks NY-9.1 .. NY-9.8 (and the turn bounds) after every action of one game."""

    game: Nyuri
    start: NyuriState
    turn_start: NyuriState = attrs.field(init=False)
    decisions: int = 0

    def __attrs_post_init__(self) -> None:
        self.turn_start = self.start
        self.check_state(self.start)

    def sizes(self, state: NyuriState) -> tuple[int, list[int], list[int]]:
        n = state.table.layout.num_seats
        t = state.table
        return t.size(0), [t.size(1 + s) for s in range(n)], [t.size(1 + n + s) for s in range(n)]

    def phi(self, state: NyuriState) -> int:
        stock, hands, _ = self.sizes(state)
        return 2 * stock + sum(hands)

    def check_state(self, state: NyuriState) -> None:
        g = self.game
        table = state.table
        n = table.layout.num_seats
        # NY-9.1: 52 cards, each in exactly one zone (and knowledge is consistent).
        table.check()
        assert sum(table.size(z) for z in range(len(table.layout.zones))) == 52
        tz, gz = 1 + 2 * n, 2 + 2 * n
        on_table = [table.masks[z] for z in range(tz, 3 + 3 * n)]
        if state.phase in (Phase.LAY, Phase.OVER):
            # NY-9.2: between turns the table is empty.
            assert not any(on_table), "the table is not empty between turns"
            assert (state.current is None) == (state.phase is Phase.OVER)
        else:
            assert table.size(tz) == 1, "no target on the table during a turn"
        # NY-9.3: the bodyguard and every offer are legal.
        if table.masks[gz]:
            t, guard = _ids(table.masks[tz])[0], _ids(table.masks[gz])[0]
            assert guard // 13 == t // 13 and guard > t, "the bodyguard is not a higher card"
        for s in range(n):
            offer = table.masks[3 + 2 * n + s]
            if offer:
                t = _ids(table.masks[tz])[0]
                guard = _ids(table.masks[gz])[0] if table.masks[gz] else -1
                any_suit = g.options.guarded_single == "any_suit"
                assert _legal_steal(_ids(offer), t, guard, any_suit), "an offer is not legal"
        # NY-5.3c and the bounds used by max_decisions.
        assert state.turn <= g.options.turn_limit
        assert state.turn <= g.max_turns(n)
        assert self.decisions <= g.max_decisions(n)

    def step(self, before: NyuriState, action: NyuriAction, after: NyuriState) -> None:
        self.decisions += 1
        self.check_state(after)
        g = self.game
        pile_rule = g.options.capture == "pile"
        n = after.table.layout.num_seats
        stock0, hands0, piles0 = self.sizes(before)
        stock1, hands1, piles1 = self.sizes(after)
        resolved = after.last is not before.last and after.last is not None
        record = after.last
        # NY-9.4: the stock never grows; a swap keeps its size; a draw lowers it by one.
        assert stock1 <= stock0, "the stock grew"
        if isinstance(action, Swap):
            assert stock1 == stock0, "a swap changed the stock size"
        elif resolved and record is not None and record.returned == "":
            assert stock0 - stock1 == len(record.drew), "draws and stock size disagree"
        elif not isinstance(action, TakeBack):
            assert stock1 == stock0
        # NY-9.5: with capture=pile piles never shrink; a steal adds 2 to 5 cards to one.
        if pile_rule:
            assert all(b >= a for a, b in zip(piles0, piles1, strict=True)), "a pile shrank"
            grew = [s for s in range(n) if piles1[s] != piles0[s]]
            if resolved and record is not None and record.winner is not None:
                assert grew == [record.winner], "a steal must add to the thief's pile only"
                gain = piles1[record.winner] - piles0[record.winner]
                assert 2 <= gain <= 5, "a steal must add 2 to 5 cards"
                target_cards = 1 + (record.guard is not None)
                offer = len(record.offers[record.winner])
                assert gain == target_cards + offer, "a steal must add the target and the offer"
            else:
                assert not grew, "a pile changed without a steal"
        if after.phase in (Phase.LAY, Phase.OVER) and before.phase is not Phase.LAY:
            self.turn_ended(after)

    def turn_ended(self, after: NyuriState) -> None:
        g = self.game
        start = self.turn_start
        record = after.last
        assert record is not None and record.turn == start.turn, "turn record"
        assert record.layer == start.layer, "turn record"
        n = after.table.layout.num_seats
        stole = record.winner is not None
        dead = start.table.size(0) == 0 and not stole
        # NY-5.3b: the dead-turn counter.
        assert after.dead_turns == (start.dead_turns + 1 if dead else 0), "dead-turn count"
        # NY-9.6: with capture=pile, Φ stays in a dead turn and falls in any other.
        if g.options.capture == "pile":
            if dead:
                assert self.phi(after) == self.phi(start), "Φ changed in a dead turn"
            else:
                assert self.phi(after) <= self.phi(start) - 1, "Φ did not fall"
        # NY-9.7: capture=hand, end=stock_exhausted, N >= 3: a turn with stock draws.
        hand_rule = g.options.capture == "hand" and g.options.end == "stock_exhausted"
        if hand_rule and n >= 3 and start.table.size(0):
            assert record.drew, "a turn that began with stock made no draw"
        # NY-9.8: the layer's hand after the turn.
        layer = record.layer
        lost = (1 + (record.guard is not None)) if stole else 0
        gained = 1 if record.penalty else 0
        before_size = start.table.size(1 + layer)
        assert after.table.size(1 + layer) == before_size - lost + gained, "layer's hand size"
        # NY-4.1: the next layer, and the end checks of section 5.
        if after.phase is Phase.LAY:
            assert after.turn == start.turn + 1
            k = (after.layer - layer) % n or n
            skipped = [(layer + i) % n for i in range(1, k)]
            assert all(after.table.size(1 + s) == 0 for s in skipped), "next layer skips a hand"
            assert after.table.size(1 + after.layer) > 0, "next layer has no cards"
        else:
            assert after.end_reason
        self.turn_start = after


def play_random(
    g: Nyuri,
    n: int,
    seed: int,
    *,
    policy: Callable[[random.Random, Sequence[NyuriAction]], NyuriAction] | None = None,
    visit: Callable[[NyuriState], None] | None = None,
) -> NyuriState:
    rng = random.Random(seed)
    state = g.initial_state(n, seed)
    checker = Invariants(g, state)
    while state.current is not None:
        if visit is not None:
            visit(state)
        legal = g.legal_actions(state)
        action = policy(rng, legal) if policy else legal[rng.randrange(len(legal))]
        after = g.apply(state, action)
        checker.step(state, action, after)
        state = after
    if visit is not None:
        visit(state)
    assert g.outcome(state) is not None
    return state


# ---- random games ------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize(("label", "g"), ALL_GAMES, ids=[k for k, _ in ALL_GAMES])
def test_random_games_keep_the_invariants(label: str, g: Nyuri, n: int) -> None:
    """NY-9.1-NY-9.8: complete random games under every preset and single-option change."""
    for seed in range(4):
        end = play_random(g, n, seed)
        outcome = g.outcome(end)
        assert outcome is not None and outcome.scores == g.counts(end)
        assert end.end_reason == outcome.reason


def _stall(rng: random.Random, legal: Sequence[NyuriAction]) -> NyuriAction:
    """Never steal, always take back: the slowest way through the stock."""
    for a in legal:
        if isinstance(a, Decline | TakeBack):
            return a
    return legal[rng.randrange(len(legal))]


def _small_thief(rng: random.Random, legal: Sequence[NyuriAction]) -> NyuriAction:
    """Steal with one card when possible, else stall: thefts that drain hands slowly."""
    singles = [a for a in legal if isinstance(a, Steal) and len(a.cards) == 1]
    if singles and rng.random() < 0.7:
        return singles[0]
    return _stall(rng, legal)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_default_games_end_within_the_bound(n: int) -> None:
    """NY-9.6, NY-5.4: default games end within 118/138/158 turns, never by the turn limit."""
    g = make()
    bound = {2: 118, 3: 138, 4: 158}[n]
    assert g.max_turns(n) == bound
    start = g.initial_state(n, 0)
    assert 2 * start.table.size(0) + 7 * n == 104 - 7 * n
    longest = 0
    for seed in range(30):
        for policy in (None, _stall, _small_thief):
            end = play_random(g, n, seed, policy=policy)
            assert end.turn <= bound
            assert "turn limit" not in end.end_reason
            longest = max(longest, end.turn)
    assert longest > 10


def test_hand_capture_with_three_players_ends_within_the_stock() -> None:
    """NY-9.7: capture=hand, end=stock_exhausted, N >= 3 ends within 52 - 7N turns."""
    g = make("pagat")
    for n in (3, 4):
        for seed in range(6):
            for policy in (None, _stall, _small_thief):
                end = play_random(g, n, seed, policy=policy)
                assert end.turn <= 52 - 7 * n


def test_dead_turns_end_stalled_games() -> None:
    """NY-5.3b: once the stock is gone, N turns without a theft end the game."""
    g = make()
    for n in (2, 3, 4):
        end = play_random(g, n, 1, policy=_stall)
        assert end.end_reason == f"{n} dead turns in a row"


# ---- the checker catches broken states ---------------------------------------------

Step = tuple[NyuriState, NyuriAction, NyuriState]


def _scripted(g: Nyuri, hands: dict[int, str], script: list[str], n: int = 3) -> list[Step]:
    """Play a script from a stacked deal (P0 lays first; unnamed cards fill the hands)."""
    want = {s: list(parse_cards(hands.get(s, ""))) for s in range(n)}
    used = {c.id for h in want.values() for c in h}
    spare = [Card.of(c) for c in range(52) if c not in used]
    for s in range(n):
        while len(want[s]) < 7:
            want[s].append(spare.pop(0))
    deck = [want[i % n][i // n] for i in range(7 * n)] + spare
    state = g.initial_state(n, 0, dealer=n - 1, deck=deck)
    steps = []
    for text in script:
        after = g.apply(state, g.parse_action(text))
        steps.append((state, g.parse_action(text), after))
        state = after
    return steps


SCRIPT = ["lay 7♥", "steal K♥", "decline", "lay 9♣", "decline", "decline", "take back"]
"""Turn 1: P1 steals 7♥ with K♥. Turn 2: nobody steals P1's 9♣; P1 takes it back."""


def _check_all(g: Nyuri, steps: list[Step], upto: int | None = None) -> Invariants:
    checker = Invariants(g, steps[0][0])
    for before, action, after in steps[:upto]:
        checker.step(before, action, after)
    return checker


def _moved(state: NyuriState, card: int, dst: int, *, bottom: bool = False) -> NyuriState:
    """The state with one card moved (knowledge as if everyone saw it): a forged state."""
    t = state.table
    masks = [m & ~(1 << card) for m in t.masks]
    masks[dst] |= 1 << card
    orders = list(t.orders)
    orders[0] = tuple(c for c in orders[0] if c != card)
    if dst == 0:
        orders[0] = (card, *orders[0]) if bottom else (*orders[0], card)
    known = tuple(k | 1 << card for k in t.known)
    return attrs.evolve(state, table=CardTable(t.layout, tuple(masks), tuple(orders), known))


def _fails(checker: Invariants, step: Step, forged: NyuriState, match: str) -> None:
    before, action, _ = step
    with pytest.raises(AssertionError, match=match):
        checker.step(before, action, forged)


def test_the_script_passes_the_checker() -> None:
    """The unbroken script passes every check (so the failures below are the forgeries)."""
    g = make()
    steps = _scripted(g, {0: "7♥", 1: "K♥ 9♣"}, SCRIPT)
    _check_all(g, steps)
    assert steps[2][2].last is not None and steps[2][2].last.winner == 1
    assert steps[-1][2].last is not None and steps[-1][2].last.returned == "take back"


def test_checker_catches_broken_cards_and_table() -> None:
    """NY-9.1, NY-9.2, NY-9.3: lost or doubled cards, a dirty table, a bad guard or offer."""
    g = make()
    n = 3
    steps = _scripted(g, {0: "7♥ 2♥", 1: "K♥ 9♣ 3♣", 2: "4♦"}, SCRIPT)
    lay = steps[0]
    after = lay[2]
    t = after.table
    target = t.masks[1 + 2 * n].bit_length() - 1
    # NY-9.1: a card in two zones, and a card gone.
    twice = [*t.masks]
    twice[1 + n] |= 1 << target
    forged = attrs.evolve(after, table=CardTable(t.layout, tuple(twice), t.orders, t.known))
    _fails(_check_all(g, steps, 0), lay, forged, "card conservation")
    gone = [*t.masks]
    gone[1 + 2 * n] = 0
    forged = attrs.evolve(after, table=CardTable(t.layout, tuple(gone), t.orders, t.known))
    _fails(_check_all(g, steps, 0), lay, forged, "card conservation")
    # NY-9.3: 2♥ as the bodyguard of 7♥.
    low = Card.of(target).id - 5
    _fails(_check_all(g, steps, 0), lay, _moved(after, low, 2 + 2 * n), "bodyguard")
    # NY-9.3: P1 "offers" 3♣ against 7♥.
    offer = steps[1]
    three_clubs = next(c for c in range(52) if str(Card.of(c)) == "3♣")
    forged = _moved(lay[2], three_clubs, 3 + 2 * n + 1)
    forged = attrs.evolve(forged, current=2)
    _fails(_check_all(g, steps, 1), offer, forged, "offer is not legal")
    # NY-9.2: a card left on the table after the turn.
    end = steps[2]
    left = _moved(end[2], three_clubs, 1 + 2 * n)
    _fails(_check_all(g, steps, 2), end, left, "table is not empty")


def test_checker_catches_broken_stock_and_piles() -> None:
    """NY-9.4, NY-9.5: a growing stock, a swap changing its size, a pile that shrinks."""
    g = make()
    steps = _scripted(g, {0: "7♥ 2♥", 1: "K♥ 9♣ 3♣", 2: "4♦"}, SCRIPT)
    n = 3
    lay = steps[0]
    card = lay[2].table.masks[1 + 2].bit_length() - 1  # a card of P2's hand
    _fails(_check_all(g, steps, 0), lay, _moved(lay[2], card, 0, bottom=True), "stock grew")
    steal = steps[2]
    pile = steal[2].table.masks[1 + n + 1]
    _fails(
        _check_all(g, steps, 2),
        steal,
        _moved(steal[2], pile.bit_length() - 1, 1 + 1),
        "steal must add",
    )
    # A steal that puts nothing in the pile, seen from the step after it: piles shrink.
    nxt = steps[3]
    shrunk = _moved(nxt[2], pile.bit_length() - 1, 1 + 1)
    _fails(_check_all(g, steps, 3), nxt, shrunk, "a pile shrank")
    # The draws must match the stock.
    resolve = steps[5]
    forged = _moved(resolve[2], resolve[2].table.orders[0][-1], 1)
    _fails(_check_all(g, steps, 5), resolve, forged, "draws and stock size disagree")


def test_checker_catches_broken_turn_ends() -> None:
    """NY-9.6, NY-9.8, NY-5.3b, NY-4.1: Φ, the layer's hand, the dead-turn count, the next layer."""
    g = make()
    steps = _scripted(g, {0: "7♥ 2♥", 1: "K♥ 9♣ 3♣", 2: "4♦"}, SCRIPT)
    back = steps[-1]
    after = back[2]
    # NY-9.8: the layer (P1) ends the turn with one card too many, taken from P0's pile.
    p0_pile = after.table.masks[1 + 3]
    if not p0_pile:
        p0_card = after.table.masks[1 + 0].bit_length() - 1
        forged = _moved(after, p0_card, 1 + 1)
    else:
        forged = _moved(after, p0_pile.bit_length() - 1, 1 + 1)
    _fails(_check_all(g, steps, len(steps) - 1), back, forged, "layer's hand size|Φ")
    # NY-5.3b: a wrong dead-turn count.
    forged = attrs.evolve(after, dead_turns=2)
    _fails(_check_all(g, steps, len(steps) - 1), back, forged, "dead-turn count")
    # NY-4.1: the wrong next layer.
    forged = attrs.evolve(after, layer=1, current=1)
    _fails(_check_all(g, steps, len(steps) - 1), back, forged, "next layer")
    # NY-9.6: in a 2-player turn with one draw Φ must fall; undoing the draw breaks it.
    two = _scripted(g, {0: "7♥ 2♥", 1: "3♣ 4♣"}, ["lay 7♥", "decline", "take back"], n=2)
    drawn = two[1][0].table.orders[0][-1]
    checker = _check_all(g, two, 2)
    with pytest.raises(AssertionError, match="Φ did not fall"):
        checker.turn_ended(_moved(two[-1][2], drawn, 0))


def test_checker_catches_phi_changing_in_a_dead_turn() -> None:
    """NY-9.6: in a dead turn (no stock, no theft) Φ must stay the same."""
    g = make()
    rng = random.Random(0)
    state = g.initial_state(3, 2)
    while state.table.size(0) or state.phase is not Phase.LAY:
        state = g.apply(state, _stall(rng, g.legal_actions(state)))
    checker = Invariants(g, state)
    while True:
        action = _stall(rng, g.legal_actions(state))
        after = g.apply(state, action)
        if after.phase is Phase.LAY:
            break
        checker.step(state, action, after)
        state = after
    checker.decisions += 1
    start = checker.turn_start
    assert start.table.size(0) == 0
    checker.turn_ended(after)  # the real end of the dead turn passes
    checker.turn_start = start
    seat = (after.layer + 1) % 3
    card = after.table.masks[1 + seat].bit_length() - 1
    forged = _moved(after, card, 1 + 3 + seat)
    with pytest.raises(AssertionError, match="Φ changed in a dead turn"):
        checker.turn_ended(forged)


def test_checker_catches_a_turn_without_draws() -> None:
    """NY-9.7: with capture=hand and end=stock_exhausted, a turn with stock must draw."""
    g = make("pagat")
    steps = _scripted(g, {0: "7♥ 2♥", 1: "K♥ 9♣ 3♣", 2: "4♦"}, SCRIPT[:3])
    before, action, after = steps[-1]
    assert after.last is not None
    checker = _check_all(g, steps, 2)
    forged = attrs.evolve(after, last=attrs.evolve(after.last, drew=()))
    with pytest.raises(AssertionError, match=r"made no draw|draws and stock"):
        checker.step(before, action, forged)
    checker = _check_all(g, steps, 2)
    checker.decisions += 1
    with pytest.raises(AssertionError, match="made no draw"):
        checker.turn_ended(forged)


# ---- knowledge, leaks and round trips ----------------------------------------------


def _expected_knowledge(
    before: NyuriState, action: NyuriAction, after: NyuriState
) -> tuple[int, ...]:
    """The core's rule for open moves: seats watching the source or destination learn.

    An offer passes through a face-up zone even when it is back in the hand at once.
    """
    layout = before.table.layout
    where0 = {c: z for z, m in enumerate(before.table.masks) for c in _ids(m)}
    where1 = {c: z for z, m in enumerate(after.table.masks) for c in _ids(m)}
    shown = action.mask if isinstance(action, Steal) else 0
    known = [k | shown for k in before.table.known]
    for c in range(52):
        if where0[c] != where1[c]:
            seen = layout.watchers[where0[c]] | layout.watchers[where1[c]]
            for s in range(layout.num_seats):
                if seen >> s & 1:
                    known[s] |= 1 << c
    return tuple(known)


@pytest.mark.parametrize(("label", "g"), ALL_GAMES[:2], ids=[k for k, _ in ALL_GAMES[:2]])
def test_card_knowledge_follows_the_table_rules(label: str, g: Nyuri) -> None:
    """NY-8.1-NY-8.3: knowledge changes only as the core's open and secret moves say."""
    for n in (2, 3, 4):
        for seed in range(3):
            rng = random.Random(seed)
            state = g.initial_state(n, seed)
            for s in range(n):
                assert state.table.known[s] == state.table.masks[1 + s]
            while state.current is not None:
                legal = g.legal_actions(state)
                action = legal[rng.randrange(len(legal))]
                after = g.apply(state, action)
                if after.last is not None and after.last.penalty and after.last is not state.last:
                    thief, layer = after.last.winner, after.last.layer
                    assert thief is not None
                    for s in range(n):
                        if s not in (thief, layer):
                            assert not after.table.known[s] & after.table.masks[1 + thief]
                            new = after.table.masks[1 + layer] & ~state.table.masks[1 + layer]
                            assert not after.table.known[s] & new & ~state.table.known[s]
                else:
                    assert after.table.known == _expected_knowledge(state, action, after)
                state = after


def _cards_text_unknown(g: Nyuri, state: NyuriState, seat: int) -> list[str]:
    """Cards the seat neither sees on the table nor heard of in the public turn record."""
    obs = g.observe(state, seat)
    known = 0
    for m in obs.table.known:
        known |= m
    if obs.last is not None:
        for c in (obs.last.target, obs.last.guard, *sum(obs.last.offers, ())):
            if c is not None:
                known |= c.bit
    return [str(Card.of(c)) for c in range(52) if not known >> c & 1]


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize(("label", "g"), ALL_GAMES, ids=[k for k, _ in ALL_GAMES])
def test_observations_do_not_leak(label: str, g: Nyuri, n: int) -> None:
    """NY-8: sampling from an observation gives the same observation; JSON and text round-trip."""
    sampler = random.Random(7)
    count = 0

    def visit(state: NyuriState) -> None:
        nonlocal count
        count += 1
        if count > 30 and count % 10:
            return
        for seat in (-1, *range(n)):
            obs = g.observe(state, seat)
            if seat != state.current:
                assert obs.legal_actions == ()
            sampled = g.sample_state(obs, sampler)
            sampled.table.check()
            assert g.observe(sampled, seat) == obs
            data = obs.to_json()
            assert "rng" not in json.dumps(data)
            assert g.observation_from_json(json.loads(json.dumps(data))) == obs
            text = g.render(obs)
            for hidden in _cards_text_unknown(g, state, seat):
                assert hidden not in text
        for action in g.legal_actions(state):
            assert g.parse_action(str(action)) == action

    for seed in range(2):
        play_random(g, n, seed, visit=visit)


def test_observation_json_is_rejected_when_malformed() -> None:
    """Observation JSON with a bad player count or a missing field is refused clearly."""
    g = make()
    obs = g.observe(g.initial_state(3, 0), 0)
    data = obs.to_json()
    with pytest.raises(ValueError, match="num_players"):
        g.observation_from_json({**data, "num_players": 7})
    broken = dict(data)
    del broken["turn"]
    with pytest.raises(ValueError, match="turn"):
        g.observation_from_json(broken)


# ---- Hypothesis: whole games, and apply agreeing with legal_actions -----------------


def _candidates(state: NyuriState, rng: random.Random) -> Iterator[NyuriAction]:
    """A few plausible actions, legal or not, to probe apply's checks."""
    n = state.table.layout.num_seats
    seat = state.current if state.current is not None else 0
    hand = _ids(state.table.masks[1 + seat]) or [0]
    anyc = list(range(52))
    yield Lay(Card.of(rng.choice(hand)))
    a, b = rng.choice(hand), rng.choice(anyc)
    if a != b:
        yield Lay(Card.of(a), Card.of(b))
    for k in (1, 2, 3, 4):
        pick = {rng.choice(hand) for _ in range(k)}
        if rng.random() < 0.2:
            pick.add(rng.choice(anyc))
        yield Steal(Card.of(c) for c in pick)
    yield Decline()
    yield TakeBack()
    yield Swap()
    del n


class NyuriGames(RuleBasedStateMachine):
    """Plays whole games, checking invariants and that apply accepts exactly the legal list."""

    def __init__(self) -> None:
        super().__init__()
        self.game = make()
        self.state: NyuriState | None = None
        self.checker: Invariants | None = None

    @initialize(
        config=st.sampled_from(sorted(PRESETS) + sorted(CONFIGS)),
        n=st.integers(2, 4),
        seed=st.integers(0, 2**32),
    )
    def start(self, config: str, n: int, seed: int) -> None:
        self.game = make(config) if config in PRESETS else make(**CONFIGS[config])
        self.state = self.game.initial_state(n, seed)
        self.checker = Invariants(self.game, self.state)

    @rule(choice=st.integers(0, 10_000))
    def play(self, choice: int) -> None:
        assert self.state is not None and self.checker is not None
        if self.state.current is None:
            return
        legal = self.game.legal_actions(self.state)
        action = legal[choice % len(legal)]
        after = self.game.apply(self.state, action)
        self.checker.step(self.state, action, after)
        self.state = after

    @rule(seed=st.integers(0, 2**16))
    def probe(self, seed: int) -> None:
        assert self.state is not None
        legal = set(self.game.legal_actions(self.state))
        for action in _candidates(self.state, random.Random(seed)):
            reason = ""
            try:
                self.game.apply(self.state, action)
            except IllegalActionError as e:
                reason = e.reason or "(no reason given)"
            accepted = not reason
            assert accepted == (action in legal), f"{action}: legal list and apply disagree"

    @invariant()
    def outcome_only_at_the_end(self) -> None:
        if self.state is not None:
            over = self.state.current is None
            assert (self.game.outcome(self.state) is not None) == over


TestNyuriGames = NyuriGames.TestCase
TestNyuriGames.settings = settings(
    max_examples=30,
    stateful_step_count=120,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
