"""The positional builders and the trick move build exactly what the plain code builds."""

from __future__ import annotations

import random

from cardcore_nestors import (
    LAYOUT,
    DealInfo,
    Nestors,
    NestorsObservation,
    NestorsState,
    Phase,
    Play,
    PlayInfo,
    TrickRecord,
)
from cardcore_nestors.state import (
    HAND,
    TRICK,
    new_deal,
    new_observation,
    new_play,
    new_state,
    new_trick,
)
from cardcore_nestors.tricks import to_trick


def test_fast_constructors_build_the_attrs_records() -> None:
    """Each ``new_*`` builder gives an instance equal to the attrs constructor's, frozen."""
    game = Nestors()
    rng = random.Random(3)
    s = game.initial_state(4, 11)
    seen = 0
    while game.current_player(s) is not None and seen < 400:
        a = game.legal_actions(s)
        s = game.apply(s, a[rng.randrange(len(a))])
        seen += 1
        fields = (s.table, s.rng, s.phase, s.current, s.match, s.deal, s.play)
        fast = new_state(*fields)
        slow = NestorsState(*fields)
        assert type(fast) is NestorsState
        assert fast == slow and hash(fast) == hash(slow) and repr(fast) == repr(slow)
        p = s.play
        pf = (p.trick, p.leader, p.tricks, p.points, p.voids, p.done)
        assert new_play(*pf) == PlayInfo(*pf)
        assert type(new_play(*pf)) is PlayInfo
        d = s.deal
        df = (d.number, d.dealer, d.calls, d.passed, d.high, d.bidder, d.trump)
        fd = new_deal(*df)
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
            assert new_trick(*rf) == TrickRecord(*rf)
            assert type(new_trick(*rf)) is TrickRecord
        seat = s.current if s.current is not None else 0
        obs = game.observe(s, seat)
        of = (
            obs.seat,
            obs.num_players,
            obs.current_player,
            obs.table,
            obs.legal_actions,
            obs.phase,
            obs.match,
            obs.deal,
            obs.play,
        )
        slow_obs = NestorsObservation(
            seat=obs.seat,
            num_players=obs.num_players,
            current_player=obs.current_player,
            table=obs.table,
            legal_actions=obs.legal_actions,
            phase=obs.phase,
            match=obs.match,
            deal=obs.deal,
            play=obs.play,
        )
        assert type(obs) is NestorsObservation and new_observation(*of) == slow_obs == obs
    fast = new_state(s.table, s.rng, s.phase, s.current, s.match, s.deal, s.play)
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
        if s.phase in (Phase.PLAY, Phase.LEAD) and isinstance(act, Play):
            seat = s.current
            assert seat is not None
            c = act.card.id
            want = s.table.move(c, HAND + seat, TRICK, seen=LAYOUT.all_seats)
            assert to_trick(s.table, c, HAND + seat) == want
            nxt = game.apply(s, act)
            if nxt.phase in (Phase.PLAY, Phase.LEAVE, Phase.TAKE) and nxt.table.masks[TRICK]:
                assert nxt.table == want
            checked += 1
        s = game.apply(s, act)
    assert checked > 50
