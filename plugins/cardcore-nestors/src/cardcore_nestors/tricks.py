"""Trick play (NS-4.11 to NS-4.16): who wins a trick, what C must play, and the moves.

Trick 1 is the bidder's trump and two row cards taken with it; tricks 2 to 11 are three
cards (A, B, then C, A's partner) and the winner leaves one of the four cards on the
table as the next carry card; trick 12 is two cards. Each move is a function of the
options, the state and the action, returning the new state. A refused move raises
:class:`cardcore.IllegalActionError` with its reason; :meth:`Nestors.apply
<cardcore_nestors.Nestors.apply>` adds the legal actions to it.
"""

from __future__ import annotations

from typing import Final

from cardcore import DECK_52, Card, CardTable, IllegalActionError, new_table
from cardcore_nestors.actions import Leave, Play, Take
from cardcore_nestors.cards import (
    RANK_MASK,
    RANK_WORD,
    SCORING,
    SUIT_MASK,
    SUIT_NAMES,
    cards_text,
    lowest,
    mask_points,
    points_of,
)
from cardcore_nestors.deal import score_hand
from cardcore_nestors.options import NestorsOptions
from cardcore_nestors.state import (
    DECK,
    EMPTY_ORDERS,
    HAND,
    LAYOUT,
    PH_LEAVE,
    PH_PLAY,
    PH_TAKE,
    ROW,
    TRICK,
    WON,
    NestorsState,
    PlayInfo,
    TrickRecord,
    new_play,
    new_state,
    new_trick,
)

__all__ = [
    "REQUIRED",
    "c_may_play",
    "lead_trump",
    "leave_carry",
    "play_card",
    "take_row",
    "to_trick",
    "trick_winner",
    "two_card_winner",
]


def two_card_winner(a: int, b: int, trump: int) -> int:
    """The two-card rule of W3c (NS-4.14, NS-4.16): 0 if A's card wins, 1 if B's.

    Args:
        a: A's card id.
        b: B's card id.
        trump: the trump rank.
    """
    ta = a % 13 + 2 == trump
    tb = b % 13 + 2 == trump
    if ta != tb:
        return 0 if ta else 1
    if ta:  # both trumps: the one played last
        return 1
    if a // 13 == b // 13:
        return 0 if a > b else 1
    return 0


def trick_winner(a: int, b: int, c: int, trump: int) -> int:
    """The winner of a three-card trick (NS-4.14): 0 for A, 1 for B, 2 for C.

    Args:
        a: A's card id (the leader).
        b: B's card id.
        c: C's card id (A's partner).
        trump: the trump rank (14, 11 or 10).
    """
    sa, sb, sc = a // 13, b // 13, c // 13
    ta = a % 13 + 2 == trump
    tb = b % 13 + 2 == trump
    tc = c % 13 + 2 == trump
    match = sc == sa if sa == sb else sc not in (sa, sb)
    if match:
        if tc or tb or ta:  # W1: the trump played last
            return 2 if tc else (1 if tb else 0)
        ra, rb, rc = a % 13, b % 13, c % 13  # W2: highest rank, last played on a tie
        best = max(ra, rb, rc)
        return 2 if rc == best else (1 if rb == best else 0)
    if not tb and (ta or tc):  # W3a
        return 2 if tc else 0
    if tb and tc and sc not in (sa, sb):  # W3b
        return 2
    return two_card_winner(a, b, trump)  # W3c


REQUIRED: Final = tuple(
    tuple(SUIT_MASK[sa] if sa == sb else DECK ^ SUIT_MASK[sa] ^ SUIT_MASK[sb] for sb in range(4))
    for sa in range(4)
)
"""``REQUIRED[suit of A][suit of B]``: the cards C must play, or a trump, if C holds any
of them (NS-4.13): A's suit when A and B follow suit, else the two other suits."""


def c_may_play(hand: int, a: int, b: int, trump: int) -> int:
    """The cards of ``hand`` C may play after A's card ``a`` and B's card ``b`` (NS-4.13).

    A required card or a trump when C holds a required card; else any card. Tricks 2
    to 11 only: in trick 12 there is no C.
    """
    req = REQUIRED[a // 13][b // 13]
    if hand & req:
        return hand & (req | RANK_MASK[trump])
    return hand


def _c_reason(a: int, b: int, required: int, trump: int) -> str:
    sa, sb = a // 13, b // 13
    yours = cards_text(required)
    if sa == sb:
        return (
            f"both cards are {SUIT_NAMES[sa]}: you must follow {SUIT_NAMES[sa]} or play "
            f"a trump ({RANK_WORD[trump]}): you hold {yours}"
        )
    third = [SUIT_NAMES[s] for s in range(4) if s not in (sa, sb)]
    return (
        f"{SUIT_NAMES[sa]} and {SUIT_NAMES[sb]} were played: you must play the third "
        f"suit ({third[0]} or {third[1]}) or a trump ({RANK_WORD[trump]}): you hold {yours}"
    )


def to_trick(table: CardTable, card: int, src: int) -> CardTable:
    """Move a card face up from ``src`` to the trick (everyone sees it).

    Only used once the stock is empty, so the trick is the only ordered zone with cards.
    """
    bit = 1 << card
    masks = list(table[1])  # the table's fields by index (named fields read slower)
    masks[src] ^= bit
    masks[TRICK] |= bit
    k0, k1, k2, k3 = table[3]
    return new_table(
        (
            LAYOUT,
            tuple(masks),
            ((), (), (), (), (), (), (), (*table[2][TRICK], card), (), ()),
            (k0 | bit, k1 | bit, k2 | bit, k3 | bit),
        )
    )


# ---- trick 1 (NS-4.11) ----


def lead_trump(options: NestorsOptions, state: NestorsState, action: Play) -> NestorsState:
    """The bidder starts trick 1 with a trump."""
    seat = state.current
    assert seat is not None
    c = action.mask.bit_length() - 1
    hand = state.table.masks[HAND + seat]
    trump = state.deal.trump
    if not (hand >> c) & 1:
        raise IllegalActionError(action, f"you do not hold {action.card}")
    if c % 13 + 2 != trump:
        raise IllegalActionError(
            action,
            f"trick 1 starts with a trump ({RANK_WORD[trump]}): you hold "
            f"{cards_text(hand & RANK_MASK[trump])}",
        )
    table = to_trick(state.table, c, HAND + seat)
    return new_state(table, state.rng, PH_TAKE, seat, state.match, state.deal, state.play)


def take_row(options: NestorsOptions, state: NestorsState, action: Take) -> NestorsState:
    """The bidder takes two row cards with the trump; the third is the carry card."""
    seat = state.current
    assert seat is not None
    t = state.table
    row = t.masks[ROW]
    for card in action.cards:
        if not (row >> card.id) & 1:
            raise IllegalActionError(
                action, f"{card} is not in the face-up row ({cards_text(row)})"
            )
    m = action.mask
    trump_card = t.orders[TRICK][0]
    team = seat % 2
    masks = list(t.masks)
    masks[ROW] = row ^ m
    masks[TRICK] = 0
    masks[WON + team] |= m | (1 << trump_card)
    pts = points_of(state.deal.trump)
    gain = mask_points(m, pts) + pts[trump_card] + 5
    carry = Card.of(lowest(row ^ m))
    record = TrickRecord(
        number=1,
        leader=seat,
        cards=(Card.of(trump_card), *action.cards),
        carry=carry,
        winner=seat,
        left=carry,
    )
    leader = (seat + 1) % 4  # NS-4.12: trick 2 is led by the bidder's right
    play = PlayInfo(
        trick=2,
        leader=leader,
        tricks=(1, 0) if team == 0 else (0, 1),
        points=(gain, 0) if team == 0 else (0, gain),
        voids=(0, 0, 0, 0),
        done=(record,),
    )
    return NestorsState(
        table=new_table((LAYOUT, tuple(masks), EMPTY_ORDERS, t.known)),
        rng=state.rng,
        phase=PH_PLAY,
        current=leader,
        match=state.match,
        deal=state.deal,
        play=play,
    )


# ---- tricks 2 to 12 (NS-4.12 to NS-4.16) ----


def play_card(
    options: NestorsOptions, state: NestorsState, action: Play, deal_next: bool = True
) -> NestorsState:
    """A card to tricks 2 to 12; C's card decides the trick, as does trick 12's second.

    ``deal_next``: as for :func:`~cardcore_nestors.deal.after_deal`, when the card ends
    the hand.
    """
    seat = state.current
    assert seat is not None
    bit = action.mask
    c = bit.bit_length() - 1
    t = state.table
    masks = t[1]
    src = HAND + seat
    hand = masks[src]
    if not hand & bit:
        raise IllegalActionError(action, f"you do not hold {action.card}")
    played = t[2][TRICK]
    n = len(played)
    p = state.play
    ml = list(masks)  # to_trick, written out: the hottest move of the game
    ml[src] = hand ^ bit
    ml[TRICK] |= bit
    k0, k1, k2, k3 = t[3]
    orders = ((), (), (), (), (), (), (), (*played, c), (), ())
    table = new_table((LAYOUT, tuple(ml), orders, (k0 | bit, k1 | bit, k2 | bit, k3 | bit)))
    if n == 2 and p.trick < 12:  # C's obligations (NS-4.13)
        a, b = played
        trump = state.deal.trump
        sa = a // 13
        sb = b // 13
        req = REQUIRED[sa][sb]
        if not (req | RANK_MASK[trump]) & bit:
            if hand & req:
                raise IllegalActionError(action, _c_reason(a, b, hand & req, trump))
            # C played neither a required card nor a trump, so C holds no required
            # card: that much its card shows (NS-8.4).
            gone = (1 << sa) if sa == sb else 15 ^ (1 << sa) ^ (1 << sb)
            v = p.voids
            if v[seat] | gone != v[seat]:
                vl = list(v)
                vl[seat] |= gone
                voids = (vl[0], vl[1], vl[2], vl[3])
                p = new_play(p.trick, p.leader, p.tricks, p.points, voids, p.done)
        winner = (p.leader + trick_winner(a, b, c, trump)) % 4  # NS-4.14
        return new_state(table, state.rng, PH_LEAVE, winner, state.match, state.deal, p)
    if n == 1 and p.trick == 12:  # NS-4.16: the two-card rule, then the hand is over
        a = played[0]
        d = state.deal
        assert d.bidder is not None
        winner = (d.bidder + two_card_winner(a, c, d.trump)) % 4
        return score_hand(options, state, table, winner, (a, c), deal_next)
    return new_state(table, state.rng, PH_PLAY, (seat + 1) % 4, state.match, state.deal, p)


def leave_carry(options: NestorsOptions, state: NestorsState, action: Leave) -> NestorsState:
    """The trick winner leaves one of the four cards and takes the rest (NS-4.15)."""
    seat = state.current
    assert seat is not None
    bit = action.mask
    t = state.table
    masks = list(t[1])
    carry = masks[ROW]
    on_table = masks[TRICK] | carry
    if not on_table & bit:
        raise IllegalActionError(
            action, f"{action.card} is not on the table; leave one of {cards_text(on_table)}"
        )
    taken = on_table ^ bit  # the winner takes the other three
    team = seat % 2
    masks[ROW] = bit
    masks[TRICK] = 0
    masks[WON + team] |= taken
    p = state.play
    d = state.deal
    s15, s10, s5 = SCORING[d.trump]
    gain = (
        15 * (taken & s15).bit_count()
        + 10 * (taken & s10).bit_count()
        + 5 * (taken & s5).bit_count()
        + 5
    )
    p0, p1 = p.points
    w0, w1 = p.tricks
    a, b, c = t[2][TRICK]
    trick = p.trick
    cards = (DECK_52[a], DECK_52[b], DECK_52[c])  # the full deck is in id order
    record = new_trick(trick, p.leader, cards, DECK_52[lowest(carry)], seat, action.cards[0])
    done = (*p.done, record)
    trick += 1
    bidder = d.bidder
    assert bidder is not None
    leader = (bidder + trick - 1) % 4 if trick < 12 else bidder  # NS-4.12, NS-4.16
    if team:
        play = new_play(trick, leader, (w0, w1 + 1), (p0, p1 + gain), p.voids, done)
    else:
        play = new_play(trick, leader, (w0 + 1, w1), (p0 + gain, p1), p.voids, done)
    table = new_table((LAYOUT, tuple(masks), EMPTY_ORDERS, t[3]))
    return new_state(table, state.rng, PH_PLAY, leader, state.match, d, play)
