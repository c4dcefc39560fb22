"""Box's public events (BX-8.1), as the moves make them and as observations hold them.

Every card played and who played it, whether it came from the box, every box card
turned up too high and whose extra pile it went to, and how every round ended (its
winner, the draws, the eliminations) are public. :func:`public_events` reads them from a
move (the full states before and after it, the referee's view); :func:`observed_events`
from one observation. The conformance kit's
:func:`cardcore.testing.check_public_history` compares the two: the events a seat
observes at its decisions, joined, must hold every event the moves made.

An event is a tuple naming what happened and in which round:

* ``("play", round, seat, card, from_box)``: a card played to the table;
* ``("failed draw", round, seat, card, to)``: a box card turned up too high, which went
  to seat ``to``'s extra pile (BX-4.6a);
* ``("round", round, winner, ending, stuck, hand_draws, box_draws, eliminated)``: how a
  round ended, with the refill and the eliminations (BX-4.6, BX-5).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator

from cardcore import DECK_52
from cardcore_box.actions import BoxAction, TurnUp
from cardcore_box.options import NUM_PLAYERS
from cardcore_box.state import EXTRA, TABLE, BoxObservation, BoxState, RoundResult

__all__ = ["observed_events", "public_events"]


def public_events(before: BoxState, action: BoxAction, after: BoxState) -> tuple[Hashable, ...]:
    """The public events one move made, read from the full states (BX-8.1).

    The card is the one that every seat knows after the move and not before it (a hand
    card played, or a box card turned up), wherever it went.
    """
    seat = before.current
    assert seat is not None
    r = before.round
    k0, k1, k2, k3 = before.table.known
    n0, n1, n2, n3 = after.table.known
    shown = (n0 & n1 & n2 & n3) & ~(k0 & k1 & k2 & k3)
    assert shown.bit_count() == 1, "a move shows exactly one card"
    c = shown.bit_length() - 1
    card = DECK_52[c]
    out: list[Hashable] = []
    for to in range(NUM_PLAYERS):
        if (after.table.masks[EXTRA + to] >> c) & 1:
            out.append(("failed draw", r, seat, card, to))
            break
    else:
        out.append(("play", r, seat, card, isinstance(action, TurnUp)))
    if after.round != r:
        out.append(_round_event(after.rounds[-1]))
    return tuple(out)


def _round_event(x: RoundResult) -> Hashable:
    return (
        "round",
        x.number,
        x.winner,
        x.ending.value,
        x.stuck,
        x.hand_draws,
        x.box_draws,
        x.eliminated,
    )


def observed_events(obs: BoxObservation) -> Iterator[Hashable]:
    """The public events one observation holds: every finished round and this one so far."""
    for x in obs.rounds:
        for card, seat, boxed in zip(x.cards, x.played_by, x.from_box, strict=True):
            yield ("play", x.number, seat, card, boxed)
        if x.turned_up is not None:
            yield ("failed draw", x.number, x.stuck, x.turned_up, x.winner)
        yield _round_event(x)
    cards = obs.table.cards(TABLE)
    for card, seat, boxed in zip(cards, obs.played_by, obs.from_box, strict=True):
        yield ("play", obs.round, seat, card, boxed)
