"""The hot-path shortcuts of the rules build exactly what the slow, plain code builds."""

from __future__ import annotations

import random

from cardcore import CardTable, rng_shuffle
from cardcore_nestors import game as g
from cardcore_nestors.game import (
    LAYOUT,
    DealInfo,
    Nestors,
    NestorsState,
    PlayInfo,
    TrickRecord,
)


def test_shuffle_matches_core_rng_shuffle() -> None:
    rng = random.Random(7)
    for _ in range(200):
        state = rng.getrandbits(64)
        order, nxt = rng_shuffle(state, g._DECK_IDS)
        mine, mine_nxt = g._shuffled_deck(state)
        assert (tuple(mine), mine_nxt) == (order, nxt)


def test_fast_constructors_build_the_attrs_records() -> None:
    game = Nestors()
    rng = random.Random(3)
    s = game.initial_state(4, 11)
    seen = 0
    while game.current_player(s) is not None and seen < 400:
        a = game.legal_actions(s)
        s = game.apply(s, a[rng.randrange(len(a))])
        seen += 1
        fields = (s.table, s.rng, s.phase, s.current, s.match, s.deal, s.play)
        fast = g._state(*fields)
        slow = NestorsState(*fields)
        assert type(fast) is NestorsState
        assert fast == slow and hash(fast) == hash(slow) and repr(fast) == repr(slow)
        p = s.play
        pf = (p.trick, p.leader, p.tricks, p.points, p.voids, p.last_trick)
        assert g._play_info(*pf) == PlayInfo(*pf)
        assert type(g._play_info(*pf)) is PlayInfo
        d = s.deal
        df = (d.number, d.dealer, d.calls, d.passed, d.high, d.bidder, d.trump)
        fd = g._deal_info(*df)
        assert type(fd) is DealInfo
        assert fd == DealInfo(
            number=d.number,
            dealer=d.dealer,
            calls=d.calls,
            passed=d.passed,
            high=d.high,
            bidder=d.bidder,
            trump=d.trump,
        )
        if p.last_trick is not None:
            r = p.last_trick
            rf = (r.number, r.leader, r.cards, r.carry, r.winner, r.left)
            assert g._trick_record(*rf) == TrickRecord(*rf)
            assert type(g._trick_record(*rf)) is TrickRecord
        t = s.table
        ft = g._table(t.masks, t.orders, t.known)
        assert type(ft) is CardTable and ft == CardTable(LAYOUT, t.masks, t.orders, t.known)
    fast = g._state(s.table, s.rng, s.phase, s.current, s.match, s.deal, s.play)
    try:
        fast.current = 3  # type: ignore[misc]
    except AttributeError:
        pass
    else:
        raise AssertionError("the fast-built state is not frozen")


def test_trick_move_equals_card_table_move() -> None:
    """The batched move to the trick equals ``CardTable.move`` face up (knowledge too)."""
    game = Nestors()
    rng = random.Random(5)
    s = game.initial_state(4, 2)
    checked = 0
    while game.current_player(s) is not None and checked < 300:
        a = game.legal_actions(s)
        act = a[rng.randrange(len(a))]
        if s.phase in (g.Phase.PLAY, g.Phase.LEAD) and isinstance(act, g.Play):
            seat = s.current
            assert seat is not None
            c = act.card.id
            want = s.table.move(c, g.HAND + seat, g.TRICK, seen=LAYOUT.all_seats)
            assert g._to_trick(s.table, c, g.HAND + seat) == want
            nxt = game.apply(s, act)
            if (
                nxt.phase in (g.Phase.PLAY, g.Phase.LEAVE, g.Phase.TAKE)
                and nxt.table.masks[g.TRICK]
            ):
                assert nxt.table == want
            checked += 1
        s = game.apply(s, act)
    assert checked > 50
