"""The auction and the trump (NS-4.1 to NS-4.10): passes, bids, naming the trump rank.

Each move is a function of the options, the state and the action, returning the new
state. A refused move raises :class:`cardcore.IllegalActionError` with its reason;
:meth:`Nestors.apply <cardcore_nestors.Nestors.apply>` adds the legal actions to it.
"""

from __future__ import annotations

from cardcore import IllegalActionError
from cardcore_nestors.actions import TRUMPS, Bid, Pass, Trump
from cardcore_nestors.cards import HIGH, RANK_MASK, RANK_WORD
from cardcore_nestors.deal import after_deal, second_deal
from cardcore_nestors.options import MAX_BID, NestorsOptions
from cardcore_nestors.state import (
    HAND,
    PH_AUCTION,
    PH_LEAD,
    PH_TRUMP,
    DealInfo,
    HandResult,
    NestorsState,
    PlayInfo,
    new_deal,
    new_state,
)

__all__ = ["call_bid", "call_pass", "name_trump", "next_caller"]


def next_caller(seat: int, passed: int) -> int:
    """The next seat after ``seat`` that has not passed (NS-4.1)."""
    nxt = (seat + 1) % 4
    while (passed >> nxt) & 1:
        nxt = (nxt + 1) % 4
    return nxt


def call_pass(options: NestorsOptions, state: NestorsState, action: Pass) -> NestorsState:
    """A pass (NS-4.2 to NS-4.5); three passes end the auction or make the deal void."""
    seat = state.current
    assert seat is not None
    d = state.deal
    if d.passed.bit_count() == 3:
        raise IllegalActionError(action, "everyone else passed: as dealer you must bid")
    passed = d.passed | (1 << seat)
    deal = new_deal(d.number, d.dealer, (*d.calls, (seat, 0)), passed, d.high, d.bidder, 0)
    if passed.bit_count() < 3:
        current = next_caller(seat, passed)
        phase = PH_AUCTION
    elif d.bidder is not None:  # NS-4.3: the player left holds the high bid
        current = d.bidder
        phase = PH_TRUMP
    elif state.table[1][HAND + d.dealer] & HIGH:  # NS-4.4: the dealer must bid
        current = d.dealer
        phase = PH_AUCTION
    else:  # NS-4.5: void hand, the same dealer deals again
        result = HandResult(deal=d.number, dealer=d.dealer, void=True, calls=deal.calls)
        return after_deal(options, state, d.dealer, state.match.scores, None, result)
    return new_state(state.table, state.rng, phase, current, state.match, deal, state.play)


def call_bid(options: NestorsOptions, state: NestorsState, action: Bid) -> NestorsState:
    """A bid (NS-4.2): a multiple of 5 from ``min_bid`` to 190, above the high bid."""
    seat = state.current
    assert seat is not None
    d = state.deal
    b = action.points
    if not state.table[1][HAND + seat] & HIGH:
        raise IllegalActionError(action, "you hold no A, J or 10, so you may only pass")
    if not isinstance(b, int) or b % 5:
        raise IllegalActionError(action, f"bids are multiples of 5, and {b} is not")
    if b > MAX_BID:
        raise IllegalActionError(action, f"the highest bid is {MAX_BID}")
    if b < options.min_bid:
        raise IllegalActionError(action, f"the lowest bid is {options.min_bid}")
    if b <= d.high:
        raise IllegalActionError(action, f"you must bid more than {d.high}")
    deal = new_deal(d.number, d.dealer, (*d.calls, (seat, b)), d.passed, b, seat, 0)
    if d.passed.bit_count() == 3:  # the forced dealer's bid ends the auction
        phase, current = PH_TRUMP, seat
    else:
        phase, current = PH_AUCTION, next_caller(seat, d.passed)
    return new_state(state.table, state.rng, phase, current, state.match, deal, state.play)


def name_trump(options: NestorsOptions, state: NestorsState, action: Trump) -> NestorsState:
    """The bidder names the trump rank (NS-4.7); the second deal follows (NS-4.8, NS-4.9)."""
    seat = state.current
    assert seat is not None
    r = int(action.rank)
    if r not in TRUMPS:
        raise IllegalActionError(action, "the trump rank must be A, J or 10")
    if not state.table.masks[HAND + seat] & RANK_MASK[r]:
        raise IllegalActionError(
            action, f"you can name {RANK_WORD[r]} only if you hold a card of that rank"
        )
    d = state.deal
    deal = DealInfo(
        number=d.number,
        dealer=d.dealer,
        calls=d.calls,
        passed=d.passed,
        high=d.high,
        bidder=d.bidder,
        trump=r,
    )
    play = PlayInfo(trick=1, leader=seat, tricks=(0, 0), points=(0, 0), voids=(0, 0, 0, 0), done=())
    return NestorsState(
        table=second_deal(state.table, d.dealer, seat),
        rng=state.rng,
        phase=PH_LEAD,
        current=seat,
        match=state.match,
        deal=deal,
        play=play,
    )
