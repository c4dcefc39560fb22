"""Box invariants (section 9) and knowledge (section 8) checked after every action.

Complete random games run under every preset and every single-option change from
``default`` (Box is for 4 players only), and a Hypothesis state machine plays whole
games; the checker is also shown catching deliberately broken states.
"""

from __future__ import annotations

import itertools
import random
from typing import Any, Final

import attrs
import hypothesis.strategies as st
import pytest
from hypothesis import HealthCheck, settings
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from cardcore import CardTable, load_game
from cardcore_box import PRESETS, Box, BoxAction, BoxOptions, BoxState, Ending, Play
from cardcore_box.state import BOX, DISCARD, DRAW, EXTRA, HAND, TABLE, layout

CONFIGS: Final = [
    ("preset=default", PRESETS["default"]),
    ("preset=pagat", PRESETS["pagat"]),
    ("default box_refill=replace_played", BoxOptions(box_refill="replace_played")),
]
"""Every preset and every single-option change from ``default``."""


def _rank(c: int) -> int:
    return c % 13


def check_state(s: BoxState) -> None:
    """Raise AssertionError (naming the rule) if one state breaks an invariant."""
    t = s.table
    try:
        t.check()
    except AssertionError as e:
        raise AssertionError(f"BX-9.1: {e}") from None
    assert sum(t.size(z) for z in range(len(t.masks))) == 52, "BX-9.1: not 52 cards"
    for p in range(4):
        assert t.size(BOX + p) <= 4, f"BX-9.3: box {p} holds {t.size(BOX + p)} cards"
        assert t.size(HAND + p) <= 4, f"BX-9.3: hand {p} holds {t.size(HAND + p)} cards"
        is_in = bool((s.active >> p) & 1)
        assert is_in == (s.out[p] == 0), f"BX-5.3: seat {p} active/out disagree"
        if not is_in:
            assert t.size(HAND + p) == 0, f"BX-5.3: eliminated seat {p} still has a hand"
            assert t.size(BOX + p) == 0, f"BX-5.3: eliminated seat {p} still has a box"
    order = t.orders[TABLE]
    for a, b in itertools.pairwise(order):
        assert _rank(b) <= _rank(a), "BX-9.5: the table ranks increase"
    assert len(s.played_by) == len(s.from_box) == len(order), "BX-8.1: table history"
    assert s.direction in (1, -1), "BX-4.5: direction"
    live = s.active.bit_count() >= 2
    assert (s.current is not None) == live, "BX-5.4: the game ends with at most one player"
    if s.current is not None:
        assert (s.active >> s.current) & 1, "BX-4.7: an eliminated player is to move"
        assert t.size(BOX + s.current) > 0, "BX-4.6b: a player to move has an empty box"
        if not order:
            for p in range(4):
                if (s.active >> p) & 1:
                    assert t.size(BOX + p) >= 1, f"BX-9.4: box {p} empty at the round start"
    check_knowledge(t)


def check_knowledge(t: CardTable) -> None:
    """BX-8: who knows which card, exactly."""
    hidden = t.masks[DRAW]
    public = t.masks[TABLE]
    for p in range(4):
        hidden |= t.masks[BOX + p]
        public |= t.masks[EXTRA + p]
    discard_known = {t.known[p] & t.masks[DISCARD] for p in range(4)}
    assert len(discard_known) == 1, "BX-8.3: seats know different discard cards"
    for p in range(4):
        k = t.known[p]
        assert not k & hidden, f"BX-8.3: seat {p} knows a box or draw pile card"
        own = t.masks[HAND + p]
        assert k & (own | public) == own | public, f"BX-8.1/8.2: seat {p} misses a card"
        for q in range(4):
            if q != p:
                assert not k & t.masks[HAND + q], f"BX-8.2: seat {p} knows hand {q}"


@attrs.define
class Tracker:
    """What the step checks remember across a game."""

    round_start: BoxState
    decisions: int = 0
    mucked: int = 0


def check_step(before: BoxState, action: BoxAction, after: BoxState, tr: Tracker) -> None:
    """Raise AssertionError if a transition breaks an invariant."""
    tr.decisions += 1
    assert tr.decisions <= 52, "BX-9.8: more decisions than the declared bound"
    assert after.table.size(DRAW) <= before.table.size(DRAW), "BX-9.7: the draw pile grew"
    if after.round == before.round:
        assert after.table.size(DRAW) == before.table.size(DRAW), "BX-5.2: draw mid-round"
        return
    assert after.round == before.round + 1, "BX-9.6: a decision ends at most one round"
    extras = [sum(s.table.size(EXTRA + p) for p in range(4)) for s in (before, after)]
    assert extras[1] - extras[0] in (0, 1), "BX-9.6: more than one card joined extra piles"
    r = after.last_round
    assert r is not None and r.number == before.round, "BX-9.6: no round result"
    assert r.played_by[-1] == r.winner, "BX-4.6: the winner played the last card"
    start = tr.round_start
    if start.table.size(DRAW) > 0:
        assert after.table.size(DRAW) < start.table.size(DRAW), "BX-9.8: nothing drawn"
    else:
        boxes = [sum(s.table.size(BOX + p) for p in range(4)) for s in (start, after)]
        assert boxes[1] < boxes[0] or r.eliminated, "BX-9.8: the round changed nothing"
    for p in r.eliminated:
        played = 1 if before.current == p and isinstance(action, Play) else 0
        tr.mucked += before.table.size(HAND + p) - played + r.hand_draws[p]
    t = after.table
    unknown = t.masks[DISCARD] & ~t.known[0]
    assert unknown.bit_count() == tr.mucked, "BX-5.3: the discard's unseen part is wrong"
    tr.round_start = after


def play_random(game: Box, seed: int, *, checks: bool = True) -> BoxState:
    """A complete random game, checking everything after every action."""
    rng = random.Random(seed)
    s = game.initial_state(4, seed)
    tr = Tracker(s)
    if checks:
        check_state(s)
    while s.current is not None:
        legal = game.legal_actions(s)
        a = legal[rng.randrange(len(legal))]
        after = game.apply(s, a)
        if checks:
            check_state(after)
            check_step(s, a, after, tr)
        s = after
    out = game.outcome(s)
    assert out is not None and sum(out.shares) == 1
    return s


@pytest.mark.parametrize(("label", "options"), CONFIGS, ids=[c[0] for c in CONFIGS])
def test_random_games_keep_the_invariants(label: str, options: BoxOptions) -> None:
    """BX-9.1-9.8: random games under each configuration keep every invariant."""
    game = Box(options)
    for seed in range(60):
        play_random(game, seed)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_game_always_ends(preset: str) -> None:
    """BX-9.8: over many seeds every game ends within 52 decisions, with a winner."""
    game = Box(PRESETS[preset])
    reasons = set()
    for seed in range(1000, 1600):
        rng = random.Random(seed)
        s = game.initial_state(4, seed)
        n = 0
        while s.current is not None:
            legal = game.legal_actions(s)
            s = game.apply(s, legal[rng.randrange(len(legal))])
            n += 1
            assert n <= game.max_decisions(4)
        out = game.outcome(s)
        assert out is not None and out.winners
        reasons.add("together" in out.reason)
    assert reasons == {False, True}  # both endings of BX-6 happen


def test_loaded_game_matches() -> None:
    """The registered game builds the same rules object for each preset."""
    for name, opts in PRESETS.items():
        g = load_game("box", preset=name)
        assert isinstance(g, Box) and g.options == opts


# ---- the checker catches broken states ---------------------------------------------------


def _mid_game() -> tuple[Box, BoxState]:
    game = Box()
    s = game.initial_state(4, 7)
    rng = random.Random(7)
    for _ in range(9):
        legal = game.legal_actions(s)
        s = game.apply(s, legal[rng.randrange(len(legal))])
    check_state(s)
    return game, s


def _retable(s: BoxState, masks: list[int], known: list[int] | None = None) -> BoxState:
    t = s.table
    return attrs.evolve(
        s, table=CardTable(t.layout, tuple(masks), t.orders, tuple(known or t.known))
    )


def test_checker_catches_a_lost_card() -> None:
    """The checker is not vacuous: a missing card breaks BX-9.1."""
    _, s = _mid_game()
    masks = list(s.table.masks)
    masks[BOX + 0] &= masks[BOX + 0] - 1
    with pytest.raises(AssertionError, match=r"BX-9\.1"):
        check_state(_retable(s, masks))


def test_checker_catches_an_overfull_box() -> None:
    """A fifth box card breaks BX-9.3."""
    _, s = _mid_game()
    masks = list(s.table.masks)
    extra = masks[DISCARD] & -masks[DISCARD] or masks[DRAW] & -masks[DRAW]
    src = DISCARD if masks[DISCARD] & extra else DRAW
    masks[src] ^= extra
    masks[BOX + 1] |= extra
    for _ in range(5 - s.table.size(BOX + 1) - 1):
        more = masks[DRAW] & -masks[DRAW]
        masks[DRAW] ^= more
        masks[BOX + 1] |= more
    orders = list(s.table.orders)
    orders[DRAW] = tuple(c for c in orders[DRAW] if (masks[DRAW] >> c) & 1)
    t = s.table
    known = [k & ~masks[BOX + 1] for k in t.known]
    broken = attrs.evolve(s, table=CardTable(t.layout, tuple(masks), tuple(orders), tuple(known)))
    with pytest.raises(AssertionError, match=r"BX-9\.3"):
        check_state(broken)


def test_checker_catches_a_rising_table() -> None:
    """A higher card on top of a lower one breaks BX-9.5."""
    game = Box()
    for seed in range(50):
        s = game.initial_state(4, seed)
        s = game.apply(s, game.legal_actions(s)[0])
        t = s.table
        (low,) = t.orders[TABLE]
        higher = [c for c in t.orders[DRAW] if _rank(c) > _rank(low)]
        if higher:
            break
    else:
        raise AssertionError("no seed with a card higher than the lead in the pile")
    up = higher[0]
    masks = list(t.masks)
    masks[DRAW] ^= 1 << up
    masks[TABLE] |= 1 << up
    orders = list(t.orders)
    orders[DRAW] = tuple(c for c in orders[DRAW] if c != up)
    orders[TABLE] = (low, up)
    known = tuple(k | 1 << up for k in t.known)
    broken = attrs.evolve(
        s,
        table=CardTable(t.layout, tuple(masks), tuple(orders), known),
        played_by=(*s.played_by, s.current or 0),
        from_box=(*s.from_box, False),
    )
    with pytest.raises(AssertionError, match=r"BX-9\.5"):
        check_state(broken)


def test_checker_catches_a_peek_into_a_box() -> None:
    """A seat that knows one of its own box cards breaks BX-8.3."""
    _, s = _mid_game()
    known = list(s.table.known)
    known[2] |= s.table.masks[BOX + 2]
    with pytest.raises(AssertionError, match=r"BX-8\.3"):
        check_state(_retable(s, list(s.table.masks), known))


def test_checker_catches_a_growing_pile_and_a_bad_bound() -> None:
    """A draw pile that grows breaks BX-9.7; a 53rd decision breaks BX-9.8."""
    game, s = _mid_game()
    a = game.legal_actions(s)[0]
    after = game.apply(s, a)
    check_step(s, a, after, Tracker(s))
    with pytest.raises(AssertionError, match=r"BX-9\.7"):
        check_step(s, a, _grow(s), Tracker(s))
    with pytest.raises(AssertionError, match=r"BX-9\.8"):
        check_step(s, a, after, Tracker(s, decisions=52))


def _grow(s: BoxState) -> BoxState:
    t = s.table
    masks = list(t.masks)
    c = (masks[DISCARD] & -masks[DISCARD]).bit_length() - 1
    masks[DISCARD] ^= 1 << c
    masks[DRAW] |= 1 << c
    orders = list(t.orders)
    orders[DRAW] = (c, *orders[DRAW])
    known = tuple(k & ~(1 << c) for k in t.known)
    return attrs.evolve(
        s,
        round=s.round + 1,
        table=CardTable(t.layout, tuple(masks), tuple(orders), known),
    )


# ---- Box's deal agrees with the core's moves ------------------------------------------------


def test_deal_matches_core_moves() -> None:
    """The deal, built at once, gives what 32 CardTable.draw moves would give (BX-3.2)."""
    from cardcore_box.deal import deal

    lay = layout()
    for seed in range(30):
        rng = random.Random(seed)
        order = list(range(52))
        rng.shuffle(order)
        dealer = seed % 4
        slow = lay.new_table(order, DRAW)
        for i in range(32):
            seat = (dealer + 1 + i) % 4
            _, slow = slow.draw(DRAW, (BOX if i < 16 else HAND) + seat)
        assert deal(lay, order, dealer) == slow


def _core_moves(before: BoxState, after: BoxState) -> CardTable:
    """The table ``after`` should hold, made from ``before`` with the core's moves only."""
    t = before.table
    cur = before.current
    assert cur is not None
    if after.round == before.round:
        # A card went onto the table, from the hand or (turned up) from the box.
        src = (BOX if after.from_box[-1] else HAND) + cur
        return t.move(after.table.orders[TABLE][-1], src, TABLE)
    r = after.last_round
    assert r is not None
    if r.ending is Ending.FAILED_DRAW:
        assert r.turned_up is not None
        t = t.move(r.turned_up.id, BOX + cur, EXTRA + r.winner)
    else:
        src = (BOX if r.from_box[-1] else HAND) + cur
        t = t.move(r.cards[-1].id, src, TABLE)
    for c in t.orders[TABLE]:
        t = t.move(c, TABLE, DISCARD)
    for k in range(4):
        p = (r.winner + k) % 4
        for _ in range(r.hand_draws[p]):
            _, t = t.draw(DRAW, HAND + p)
        for _ in range(r.box_draws[p]):
            _, t = t.draw(DRAW, BOX + p)
    for p in r.eliminated:
        hand = t.masks[HAND + p]
        t = t.move_many(hand, HAND + p, DISCARD)
        # BX-8.3: the mucked hand is followed by nobody, its owner included.
        t = CardTable(t.layout, t.masks, t.orders, tuple(k & ~hand for k in t.known))
    return t


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_apply_moves_match_core_moves(preset: str) -> None:
    """Every table ``apply`` builds directly (plays, turn-ups, round ends with their refills
    and eliminations) is what the core's ``move``, ``draw`` and ``move_many`` give."""
    game = Box(PRESETS[preset])
    ends = 0
    for seed in range(40):
        rng = random.Random(seed)
        s = game.initial_state(4, seed)
        while s.current is not None:
            legal = game.legal_actions(s)
            after = game.apply(s, legal[rng.randrange(len(legal))])
            assert after.table == _core_moves(s, after)
            ends += after.round != s.round
            s = after
    assert ends > 300


# ---- Hypothesis: whole games with invariants after every action ---------------------------


class BoxGames(RuleBasedStateMachine):
    """Plays Box games with Hypothesis choosing seeds, presets and actions."""

    def __init__(self) -> None:
        super().__init__()
        self.game = Box()
        self.state: BoxState | None = None
        self.tracker: Tracker | None = None

    @initialize(seed=st.integers(0, 2**32 - 1), preset=st.sampled_from(sorted(PRESETS)))
    def deal(self, seed: int, preset: str) -> None:
        self.game = Box(PRESETS[preset])
        self.state = self.game.initial_state(4, seed)
        self.tracker = Tracker(self.state)

    @precondition(lambda self: self.state is not None and self.state.current is not None)
    @rule(choice=st.integers(0, 3))
    def act(self, choice: int) -> None:
        assert self.state is not None and self.tracker is not None
        legal = self.game.legal_actions(self.state)
        a = legal[choice % len(legal)]
        after = self.game.apply(self.state, a)
        check_step(self.state, a, after, self.tracker)
        self.state = after

    @precondition(lambda self: self.state is not None and self.state.current is None)
    @rule(seed=st.integers(0, 2**32 - 1))
    def redeal(self, seed: int) -> None:
        out = self.game.outcome(self.state) if self.state is not None else None
        assert out is not None and sum(out.shares) == 1
        self.state = self.game.initial_state(4, seed)
        self.tracker = Tracker(self.state)

    @invariant()
    def invariants_hold(self) -> None:
        if self.state is not None:
            check_state(self.state)


BoxGames.TestCase.settings = settings(
    max_examples=25,
    stateful_step_count=80,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestBoxGames = BoxGames.TestCase


def test_states_made_by_the_rules_equal_constructed_ones() -> None:
    """The rules build states, round records and observations with the core's
    record_builder; each must be the value the attrs constructor builds from the same
    fields, with the same class, equality, hash and repr, and stay frozen."""
    from cardcore_box.state import BoxObservation, RoundResult

    game = Box()
    rng = random.Random(5)
    for seed in range(5):
        s = game.initial_state(4, seed)
        while s.current is not None:
            legal = game.legal_actions(s)
            s = game.apply(s, legal[rng.randrange(len(legal))])
            records: list[object] = [s, game.observe(s, rng.randrange(-1, 4))]
            if s.last_round is not None:
                records.append(s.last_round)
            for r in records:
                cls: type[Any] = type(r)
                assert cls in (BoxState, BoxObservation, RoundResult)
                built = cls(**{f.name: getattr(r, f.name) for f in attrs.fields(cls)})
                assert built == r and hash(built) == hash(r) and repr(built) == repr(r)
                assert not hasattr(r, "__dict__"), "records are slotted"
                with pytest.raises(attrs.exceptions.FrozenInstanceError):
                    setattr(r, "seat", 0)  # noqa: B010 - any field of any of them
