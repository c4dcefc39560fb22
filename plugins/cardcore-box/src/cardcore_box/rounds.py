"""The order of the seats (BX-4.7) and the end of a round: discard, refill, elimination (BX-5).

Cards are ids and card sets ``int`` bitmasks, as in :mod:`cardcore_box.state`; the
rules (:mod:`cardcore_box.rules`) call :func:`end_round` when a round's last card moved.
"""

from __future__ import annotations

from typing import Final

from cardcore import DECK_52, CardTable, new_table
from cardcore_box.deal import CLOCKWISE_FROM
from cardcore_box.options import BOX_SIZE, HAND_SIZE, NUM_PLAYERS
from cardcore_box.state import (
    BOX,
    DISCARD,
    DRAW,
    HAND,
    TABLE,
    BoxState,
    Ending,
    new_round,
    new_state,
)

__all__ = ["NEXT", "NEXT_CW", "end_round"]

# ---- seats (BX-4.7) --------------------------------------------------------------------


def _next_table(active: int, step: int) -> tuple[int, ...]:
    out = []
    for seat in range(NUM_PLAYERS):
        nxt = seat
        for _ in range(NUM_PLAYERS):
            nxt = (nxt + step) % NUM_PLAYERS
            if (active >> nxt) & 1:
                break
        out.append(nxt)
    return tuple(out)


NEXT_CW: Final = tuple(_next_table(a, 1) for a in range(16))
"""Per active-seat mask and seat, the next active seat clockwise (BX-4.7)."""
NEXT_ACW: Final = tuple(_next_table(a, -1) for a in range(16))
"""Per active-seat mask and seat, the next active seat anticlockwise (BX-4.7)."""
NEXT: Final = (NEXT_CW, NEXT_CW, NEXT_ACW)
"""Indexed by the direction: ``NEXT[1]`` is clockwise, ``NEXT[-1]`` anticlockwise."""

_NO_DRAWS: Final[tuple[int, ...]] = (0, 0, 0, 0)
_FAILED_DRAW: Final = Ending.FAILED_DRAW
_DECK: Final = DECK_52
_NEW_TABLE: Final = new_table
_NEW_STATE: Final = new_state
_NEW_ROUND: Final = new_round
"""The core's and the state module's builders, as constants (see :mod:`cardcore_box.rules`)."""


def _count(m: int) -> int:
    """The cards in a mask of a few cards (compiled, cheaper than ``int.bit_count``)."""
    n = 0
    while m:
        m &= m - 1
        n += 1
    return n


def end_round(
    state: BoxState,
    t: CardTable,
    rng: int,
    played_by: tuple[int, ...],
    from_box: tuple[bool, ...],
    winner: int,
    stuck: int,
    ending: Ending,
    turned_up: int | None,
    fill: bool,
) -> BoxState:
    """End the round (BX-5) once its last card moved (table ``t``); start the next.

    ``fill`` is the ``fill_to_four`` box refill (BX-5.2b); the other arguments are the
    state's after the round's last move, and how it ended.
    """
    masks = list(t.masks)
    known = list(t.known)
    order = t.orders[TABLE]
    pile = t.orders[DRAW]  # bottom first: the top card is the last
    # BX-5.1: the table cards (public already) go to the discard.
    masks[DISCARD] = t.masks[DISCARD] | t.masks[TABLE]
    masks[TABLE] = 0
    active = state.active
    left = len(pile)
    hand_draws = box_draws = _NO_DRAWS
    if left:
        # BX-5.2: serve each active player in turn, clockwise from the round winner;
        # hand cards are seen by their owner, box cards by nobody. Each player
        # draws their cards together from the top of the pile.
        box_plays = [0, 0, 0, 0]
        for i, b in enumerate(from_box):
            if b:
                box_plays[played_by[i]] += 1
        failed = stuck if ending is _FAILED_DRAW else -1
        hands = [0, 0, 0, 0]
        boxes = [0, 0, 0, 0]
        drawn = 0
        for p in CLOCKWISE_FROM[winner]:
            if not (active >> p) & 1:
                continue
            held: int = masks[HAND + p]
            need = min(HAND_SIZE - _count(held), left)
            if need:
                got = 0
                for c in pile[left - need : left]:
                    got |= 1 << c
                left -= need
                masks[HAND + p] = held | got
                seen: int = known[p]
                known[p] = seen | got
                drawn |= got
                hands[p] = need
            if box_plays[p] and left:
                box: int = masks[BOX + p]
                size = _count(box)
                if fill:
                    need = BOX_SIZE - (p == failed) - size
                else:
                    need = min(box_plays[p], BOX_SIZE - size)
                need = min(need, left)
                if need > 0:
                    got = 0
                    for c in pile[left - need : left]:
                        got |= 1 << c
                    left -= need
                    masks[BOX + p] = box | got
                    drawn |= got
                    boxes[p] = need
            if not left:
                break
        hand_draws = tuple(hands)
        box_draws = tuple(boxes)
        # The drawn cards were the top of the pile: what is left is its bottom.
        pile = pile[:left]
        undrawn: int = masks[DRAW]
        masks[DRAW] = undrawn ^ drawn
    # BX-5.3: an empty box after the refill puts a player out; the hand goes to the
    # discard face down and unseen: nobody, the owner included, follows it (BX-8.3).
    eliminated: tuple[int, ...] = ()
    out = state.out
    if not (masks[BOX] and masks[BOX + 1] and masks[BOX + 2] and masks[BOX + 3]):
        gone = []
        new_out = list(out)
        for p in range(NUM_PLAYERS):
            if (active >> p) & 1 and not masks[BOX + p]:
                gone.append(p)
                new_out[p] = state.round
                active &= ~(1 << p)
                m = masks[HAND + p]
                masks[HAND + p] = 0
                masks[DISCARD] |= m
                known = [k & ~m for k in known]
        if gone:
            eliminated = tuple(gone)
            out = tuple(new_out)
    orders = (pile, (), (), (), (), (), (), (), (), (), (), (), (), (), ())
    t = _NEW_TABLE((t.layout, tuple(masks), orders, tuple(known)))
    result = _NEW_ROUND(
        state.round,
        winner,
        ending,
        stuck,
        None if turned_up is None else _DECK[turned_up],
        tuple([_DECK[c] for c in order]),
        played_by,
        from_box,
        hand_draws,
        box_draws,
        eliminated,
    )
    rounds = state.rounds + (result,)  # noqa: RUF005 (one copy, no list when compiled)
    # BX-4.1: the winner leads, or the next active player clockwise from them.
    over = not active & (active - 1)  # one seat or none left (BX-5.4)
    leader = winner if (active >> winner) & 1 or not active else NEXT_CW[active][winner]
    return _NEW_STATE(
        t,
        rng,
        state.dealer,
        state.round + 1,
        leader,
        None if over else leader,
        1,
        active,
        out,
        (),
        (),
        rounds,
    )
