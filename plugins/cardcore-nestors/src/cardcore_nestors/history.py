"""Nestors' public events (NS-8.1), as the moves make them and as observations hold them.

Every call, the trump, every card played and who played it, the row cards taken in
trick 1, every trick's winner, every carry card left and every deal's result are
public. :func:`public_events` reads them from a move (the full states before and after
it, the referee's view); :func:`observed_events` from one observation. The conformance
kit's :func:`cardcore.testing.check_public_history` compares the two: the events a seat
observes at its decisions, joined, must hold every event the moves made.

An event is a tuple naming what happened and where (the deal's number, the trick's):

* ``("call", deal, seat, bid)``: a bid, or a pass (bid 0);
* ``("trump", deal, seat, rank)``: the bidder names the trump rank;
* ``("play", deal, trick, seat, card)``: a card played face up (trick 1: the trump);
* ``("take", deal, seat, (card, card), carry)``: the row cards taken in trick 1, and the
  row card left as the carry card;
* ``("won", deal, trick, seat)``: who won a trick of three cards (or trick 12's two);
* ``("leave", deal, trick, seat, card)``: the card the winner left as the carry card;
* ``("result", deal, change)``: a scored deal's score change per team;
* ``("void", deal)``: a void deal (NS-4.5).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator

from cardcore import Card
from cardcore_nestors.actions import Bid, Leave, NestorsAction, Pass, Play, Take, Trump
from cardcore_nestors.state import (
    PH_LEAVE,
    PH_PLAY,
    ROW,
    TRICK,
    HandResult,
    NestorsObservation,
    NestorsState,
    TrickRecord,
)
from cardcore_nestors.tricks import trick_winner, two_card_winner

__all__ = ["observed_events", "public_events"]


def public_events(
    before: NestorsState, action: NestorsAction, after: NestorsState
) -> tuple[Hashable, ...]:
    """The public events one move made, read from the full states (NS-8.1).

    The trick winners are worked out here from the cards (NS-4.14, NS-4.16), and the
    deal's result from the change of the scores, not read from the game's records.
    """
    seat = before.current
    assert seat is not None
    d = before.deal
    n = d.number
    out: list[Hashable] = []
    if isinstance(action, Pass):
        out.append(("call", n, seat, 0))
    elif isinstance(action, Bid):
        out.append(("call", n, seat, action.points))
    elif isinstance(action, Trump):
        out.append(("trump", n, seat, int(action.rank)))
    elif isinstance(action, Take):
        carry = before.table.masks[ROW] & ~action.mask
        taken = tuple(sorted(action.cards, key=lambda c: c.id))
        out.append(("take", n, seat, taken, Card.of(carry.bit_length() - 1)))
    elif isinstance(action, Leave):
        out.append(("leave", n, before.play.trick, seat, action.cards[0]))
    elif isinstance(action, Play):
        trick = before.play.trick
        card = action.cards[0]
        out.append(("play", n, trick, seat, card))
        played = before.table.orders[TRICK]
        if before.phase is PH_PLAY and trick < 12 and len(played) == 2:
            a, b = played
            won = (before.play.leader + trick_winner(a, b, card.id, d.trump)) % 4
            out.append(("won", n, trick, won))
        elif before.phase is PH_PLAY and trick == 12 and len(played) == 1:
            assert d.bidder is not None
            won = (d.bidder + two_card_winner(played[0], card.id, d.trump)) % 4
            out.append(("won", n, 12, won))
    if after.deal.number != n or (after.current is None and before.current is not None):
        s0, s1 = before.match.scores
        a0, a1 = after.match.scores
        if isinstance(action, Pass):  # only a pass ends a deal before its play: void
            out.append(("void", n))
        else:
            out.append(("result", n, (a0 - s0, a1 - s1)))
    return tuple(out)


def observed_events(obs: NestorsObservation) -> Iterator[Hashable]:
    """The public events one observation holds.

    Those of the deals that ended most recently (``MatchInfo.recent``) and of the
    current deal so far.
    """
    for r in obs.match.recent:
        yield from _hand_events(r)
    d, p = obs.deal, obs.play
    n = d.number
    if obs.match.recent and obs.match.recent[-1].deal == n:
        return  # the game is over: the last deal is among the recent ones
    for seat, bid in d.calls:
        yield ("call", n, seat, bid)
    if d.trump:
        yield ("trump", n, d.bidder, d.trump)
    for t in p.done:
        yield from _trick_events(n, t)
    if p.trick:
        for i, c in enumerate(obs.table.cards(TRICK)):
            yield ("play", n, p.trick, (p.leader + i) % 4, c)
    if obs.phase is PH_LEAVE:  # the trick is complete; its winner leaves a card
        yield ("won", n, p.trick, obs.current_player)


def _hand_events(r: HandResult) -> Iterator[Hashable]:
    for seat, bid in r.calls:
        yield ("call", r.deal, seat, bid)
    if r.void:
        yield ("void", r.deal)
        return
    yield ("trump", r.deal, r.bidder, r.trump)
    for t in r.tricks:
        yield from _trick_events(r.deal, t)
    yield ("result", r.deal, r.change)


def _trick_events(n: int, t: TrickRecord) -> Iterator[Hashable]:
    if t.number == 1:
        yield ("play", n, 1, t.leader, t.cards[0])
        yield ("take", n, t.leader, tuple(sorted(t.cards[1:], key=lambda c: c.id)), t.carry)
        return
    for i, c in enumerate(t.cards):
        yield ("play", n, t.number, (t.leader + i) % 4, c)
    yield ("won", n, t.number, t.winner)
    if t.left is not None:
        yield ("leave", n, t.number, t.winner, t.left)
