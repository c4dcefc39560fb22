"""The invariants of the Nestors specification (section 9), checked on any state.

For tests and the conformance runs: :func:`check_invariants` raises ``AssertionError``
naming the rule a state breaks.
"""

from __future__ import annotations

from cardcore_nestors.cards import TRUMP_RANKS, mask_points, points_of
from cardcore_nestors.options import MAX_BID
from cardcore_nestors.rules import Nestors
from cardcore_nestors.state import (
    HAND,
    HOLE,
    NUM_ZONES,
    ROW,
    STOCK,
    TRICK,
    WON,
    NestorsState,
    Phase,
)

__all__ = ["check_invariants", "hand_sizes"]


def hand_sizes(trick: int, played: int, bidder: int) -> tuple[int, ...]:
    """Hand sizes (by seat) during play, from the schedule of NS-T18.

    Args:
        trick: the trick being played (1 to 12).
        played: cards already played to it (for trick 1: 0 before the trump, else 1).
        bidder: the bidder's seat.
    """
    rel = [9, 8, 8, 8] if trick == 1 and played == 0 else [8, 8, 8, 8]
    for t in range(2, trick + 1):
        n = 3 if t < 12 else 2
        if t == trick:
            n = played
        lead = t - 1 if t < 12 else 0
        for k in range(n):
            rel[(lead + k) % 4] -= 1
    return tuple(rel[(s - bidder) % 4] for s in range(4))


def check_invariants(game: Nestors, state: NestorsState) -> None:
    """Check the invariants of spec section 9 (and a few of section 6) on a state.

    Raises:
        AssertionError: naming the broken invariant.
    """
    t = state.table
    t.check()  # NS-9.1: each of the 36 cards in exactly one zone
    total = sum(t.size(z) for z in range(NUM_ZONES))
    assert total == 36, f"NS-9.1: {total} cards on the table, not 36"
    sizes = [t.size(HAND + s) for s in range(4)]
    phase = state.phase
    d = state.deal
    p = state.play
    if phase in (Phase.AUCTION, Phase.TRUMP):  # NS-9.2: after the first deal
        assert sizes == [5, 5, 5, 5], f"NS-9.2: hands {sizes} after the first deal"
        got = (t.size(HOLE), t.size(ROW), t.size(STOCK))
        assert got == (1, 3, 12), f"NS-9.2: hole, row and stock hold {got} after the first deal"
    high = 0
    for seat, b in d.calls:  # NS-9.7
        if b:
            assert b % 5 == 0, f"NS-9.7: bid {b} is not a multiple of 5"
            assert game.options.min_bid <= b <= MAX_BID, f"NS-9.7: bid {b} is out of range"
            assert b > high, f"NS-9.7: bid {b} by seat {seat} does not raise {high}"
            high = b
    assert high == d.high, f"NS-9.7: the high bid is {d.high} but the calls say {high}"
    if phase in (Phase.LEAD, Phase.TAKE, Phase.PLAY, Phase.LEAVE):
        assert d.bidder is not None, "NS-4.3: trick play without a bidder"
        assert d.trump in TRUMP_RANKS, "NS-4.7: trick play without a trump rank"
        assert (t.size(STOCK), t.size(HOLE)) == (0, 0), "NS-9.2: cards left undealt"
        played = t.size(TRICK)
        if phase is Phase.LEAD:
            assert (played, t.size(ROW)) == (0, 3), "NS-9.2: 3 face-up cards after the deal"
        elif phase is Phase.TAKE:
            assert (played, t.size(ROW)) == (1, 3), "NS-4.11: the trump waits for 2 row cards"
        elif phase is Phase.PLAY:
            assert t.size(ROW) == 1, f"NS-9.3: {t.size(ROW)} carry cards during trick play"
            assert played < (3 if p.trick < 12 else 2), "NS-4.13: too many cards in the trick"
            who = (p.leader + played) % 4
            assert state.current == who, f"NS-4.13: seat {state.current} plays, not {who}"
            assert sizes[who] > 0, f"NS-9.6: seat {who} must play but has no card"
        else:
            assert p.trick < 12, "NS-4.16: nothing is left in trick 12"
            assert (played, t.size(ROW)) == (3, 1), "NS-4.15: the winner takes 3 of 4 cards"
        want = list(hand_sizes(p.trick, played, d.bidder))
        assert sizes == want, f"NS-9.6: hands {sizes} in trick {p.trick}, expected {want}"
        for team in (0, 1):  # NS-9.4: every trick holds exactly 3 cards
            won = t.size(WON + team)
            assert won == 3 * p.tricks[team], f"NS-9.4: {won} cards in {p.tricks[team]} tricks"
            pts = mask_points(t.masks[WON + team], points_of(d.trump)) + 5 * p.tricks[team]
            assert pts == p.points[team], f"NS-6.1: running points {p.points}, expected {pts}"
        done = p.tricks[0] + p.tricks[1]
        assert done == p.trick - 1, f"NS-9.4: {done} tricks won before trick {p.trick}"
    r = state.match.last_hand
    if phase is Phase.OVER and r is not None and not r.void:  # the final hand
        assert (t.size(ROW), t.size(TRICK)) == (0, 0), "NS-9.3: cards left after trick 12"
        won = t.size(WON) + t.size(WON + 1)
        assert won == 36, f"NS-9.4: only {won} cards in tricks at the end of the hand"
        assert sum(p.tricks) == 12, f"NS-9.4: {sum(p.tricks)} tricks in the hand"
    if r is not None and not r.void:  # NS-9.5, NS-9.8
        assert r.bidder is not None
        assert sum(r.points) == 190, f"NS-9.5: hand points {r.points} do not total 190"
        dp = r.points[r.bidder % 2]
        assert r.made == (dp >= r.contract), "NS-6.2: made means D >= contract"
        if r.made:
            want_sum = 190
        elif game.options.fail_penalty == "taken":
            want_sum = 190 - 2 * dp
        else:
            want_sum = 190 - dp - r.contract
        assert sum(r.change) == want_sum, f"NS-9.8: hand scores {r.change} sum wrongly"
    assert d.number <= game.max_deals, "safety rule: too many deals"
