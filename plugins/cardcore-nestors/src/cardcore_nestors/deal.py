"""Dealing and the end of a deal: the deals, scoring a hand, then the game's end or a new deal.

The first and second deals (NS-3, NS-4.8, NS-4.9), the hand's score (NS-2.6, NS-6) and
what follows it: the end of the game (NS-5.2, NS-6.5) or the next deal.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from cardcore import Card, CardTable, new_table, rng_shuffle
from cardcore_nestors.cards import (
    SPADES,
    cards_text,
    lowest,
    mask_points,
    points_of,
)
from cardcore_nestors.options import NestorsOptions, max_deals
from cardcore_nestors.state import (
    DECK,
    DECK_IDS,
    EMPTY_ORDERS,
    HAND,
    HOLE,
    LAYOUT,
    NO_PLAY,
    NUM_ZONES,
    PH_AUCTION,
    PH_OVER,
    PH_PLAY,
    ROW,
    STOCK,
    TRICK,
    WON,
    HandResult,
    MatchInfo,
    NestorsState,
    new_deal,
    new_play,
    new_state,
    new_trick,
)

__all__ = [
    "after_deal",
    "check_deck",
    "deal_state",
    "dealt_table",
    "score_hand",
    "second_deal",
]

TEAM_NAMES: Final = ("seats 0 and 2", "seats 1 and 3")
"""The partnerships as the end-of-game reasons name them."""


def check_deck(deck: Sequence[Card]) -> list[int]:
    """The card ids of a stacked deck (top card first), once it is checked to be all 36.

    Raises:
        ValueError: naming what is wrong with the deck.
    """
    ids = []
    for c in deck:
        if not isinstance(c, Card):
            raise ValueError(f"the deck must hold Card values, not {c!r}")
        ids.append(c.id)
    bad = [str(Card.of(c)) for c in ids if not (DECK >> c) & 1]
    if bad:
        raise ValueError(f"the deck holds cards outside the 36-card deck: {' '.join(bad)}")
    dup = {c for c in ids if ids.count(c) > 1}
    if dup:
        raise ValueError(f"the deck holds some cards twice: {cards_text(sum(1 << c for c in dup))}")
    if len(ids) != 36:
        missing = cards_text(DECK & ~sum(1 << c for c in ids))
        raise ValueError(f"the deck must hold all 36 cards; missing: {missing}")
    return ids


def dealt_table(order: Sequence[int], dealer: int) -> CardTable:
    """The table after NS-3.4 and NS-3.5, dealt from ``order`` (top card first).

    The same as gathering, stacking the deck in ``order`` and dealing card by card: the
    hole card, three row cards, then a batch of 5 to each player from the dealer's right.
    """
    masks = [0] * NUM_ZONES
    masks[HOLE] = 1 << order[0]
    row = (1 << order[1]) | (1 << order[2]) | (1 << order[3])
    masks[ROW] = row
    for k in range(4):
        seat = (dealer + 1 + k) % 4
        m = 0
        for c in order[4 + 5 * k : 9 + 5 * k]:
            m |= 1 << c
        masks[HAND + seat] = m
    rest = order[24:]
    m = 0
    for c in rest:
        m |= 1 << c
    masks[STOCK] = m
    orders: list[tuple[int, ...]] = list(EMPTY_ORDERS)
    orders[STOCK] = tuple(reversed(rest))
    known = tuple(masks[HAND + s] | row for s in range(4))
    return new_table((LAYOUT, tuple(masks), tuple(orders), known))


def deal_state(
    table: CardTable, rng: int, match: MatchInfo, dealer: int, number: int
) -> NestorsState:
    """The state at the start of an auction (NS-4.1: the dealer's right calls first)."""
    deal = new_deal(number, dealer, (), 0, 0, None, 0)
    return new_state(table, rng, PH_AUCTION, (dealer + 1) % 4, match, deal, NO_PLAY)


def second_deal(table: CardTable, dealer: int, bidder: int) -> CardTable:
    """NS-4.8 and NS-4.9: the bidder takes the hole card; 3 more cards each."""
    masks = list(table.masks)
    known = list(table.known)
    hole = masks[HOLE]
    masks[HOLE] = 0
    masks[HAND + bidder] |= hole
    known[bidder] |= hole
    stock = table.orders[STOCK]  # bottom to top
    top = len(stock)
    for k in range(4):
        seat = (dealer + 1 + k) % 4
        m = 0
        for c in stock[top - 3 : top]:
            m |= 1 << c
        top -= 3
        masks[HAND + seat] |= m
        known[seat] |= m
    masks[STOCK] = 0
    return new_table((LAYOUT, tuple(masks), EMPTY_ORDERS, tuple(known)))


def score_hand(
    options: NestorsOptions,
    state: NestorsState,
    table: CardTable,
    winner: int,
    cards: Sequence[int],
    deal_next: bool = True,
) -> NestorsState:
    """Trick 12 is over: score the hand, then end the game or deal again.

    The winner takes the two cards and the carry card; the hand scores by NS-2.6 and
    NS-6.1 to NS-6.3; :func:`after_deal` follows.

    Args:
        options: the rules' options.
        state: the state before the last card of trick 12.
        table: the table after the last card, the trick and the carry card still out.
        winner: the seat that won trick 12.
        cards: the two cards of trick 12, in playing order.
        deal_next: as for :func:`after_deal`.
    """
    d = state.deal
    bidder = d.bidder
    assert bidder is not None
    team = winner % 2
    masks = list(table.masks)
    carry = masks[ROW]
    taken = masks[TRICK] | carry
    masks[ROW] = 0
    masks[TRICK] = 0
    masks[WON + team] |= taken
    table = new_table((LAYOUT, tuple(masks), EMPTY_ORDERS, table.known))
    p = state.play
    points = list(p.points)
    points[team] += mask_points(taken, points_of(d.trump)) + 5
    tricks = list(p.tricks)
    tricks[team] += 1
    for tm in (0, 1):  # NS-2.6: 10 for at least 5 of the 9 spades
        if (masks[WON + tm] & SPADES).bit_count() >= 5:
            points[tm] += 10
    decl = bidder % 2
    dp, ep = points[decl], points[1 - decl]
    made = dp >= d.high  # NS-6.2 / NS-6.3
    change = [0, 0]
    change[1 - decl] = ep
    if made:
        change[decl] = dp
    else:
        change[decl] = -d.high if options.fail_penalty == "bid" else -dp
    scores = (state.match.scores[0] + change[0], state.match.scores[1] + change[1])
    record = new_trick(
        12, bidder, tuple(Card.of(c) for c in cards), Card.of(lowest(carry)), winner, None
    )
    result = HandResult(
        deal=d.number,
        dealer=d.dealer,
        bidder=bidder,
        contract=d.high,
        trump=d.trump,
        points=(points[0], points[1]),
        made=made,
        change=(change[0], change[1]),
        calls=d.calls,
        tricks=(*p.done, record),
    )
    play = new_play(
        12, bidder, (tricks[0], tricks[1]), (points[0], points[1]), p.voids, result.tricks
    )
    ended = new_state(table, state.rng, PH_PLAY, None, state.match, d, play)
    nxt = (d.dealer + 1) % 4 if options.next_dealer == "rotate" else bidder  # NS-3.2
    return after_deal(options, ended, nxt, scores, decl if made else None, result, deal_next)


def after_deal(
    options: NestorsOptions,
    state: NestorsState,
    dealer: int,
    scores: tuple[int, int],
    made_by: int | None,
    result: HandResult,
    deal_next: bool = True,
) -> NestorsState:
    """After a scored or void deal: end the game (NS-5.2, NS-6.5) or deal again (NS-3.3).

    Args:
        options: the rules' options.
        state: the state as the deal ended.
        dealer: who deals next.
        scores: the game scores after the deal.
        made_by: the team that bid and made its contract in this deal, if one did.
        result: how the deal ended.
        deal_next: ``False`` for search play-outs, which stop at the hand's end: the
            game goes on in a new deal with the match's new scores, but the cards are
            not shuffled and dealt (the state keeps the old table and random state, and
            is fit only for :func:`~cardcore_nestors.bots.hand_number` and
            :func:`~cardcore_nestors.bots.match_value`).
    """
    m = state.match
    last_made = m.last_made if made_by is None else made_by
    winners, reason = _game_end(options, scores, last_made)
    number = state.deal.number
    limit = max_deals(options)
    if not winners and number >= limit:
        if scores[0] == scores[1]:
            winners = (0, 1)
        else:
            winners = (0,) if scores[0] > scores[1] else (1,)
        reason = f"the safety limit of {limit} deals was reached; higher score wins"
    # The deals a seat may have missed since it last decided: every seat calls in every
    # scored deal's auction, so the latest scored deal and the void deals after it.
    recent = (*m.recent, result) if result.void else (result,)
    match = MatchInfo(
        scores=scores,
        last_made=last_made,
        first_draw=m.first_draw,
        recent=recent,
        winners=winners,
        reason=reason,
    )
    if winners:
        return new_state(state.table, state.rng, PH_OVER, None, match, state.deal, state.play)
    if not deal_next:
        return deal_state(state.table, state.rng, match, dealer, number + 1)
    order, rng = rng_shuffle(state.rng, DECK_IDS)  # gather, shuffle and deal (NS-3.3)
    return deal_state(dealt_table(order, dealer), rng, match, dealer, number + 1)


def _game_end(
    options: NestorsOptions, scores: tuple[int, int], last_made: int | None
) -> tuple[tuple[int, ...], str]:
    """NS-5.2 and NS-6.5: the winning team, or ``()`` to play on."""
    t = options.threshold
    minus_wins = options.minus_1000 == "wins"
    qualify = [
        team
        for team in (0, 1)
        if scores[team] >= t or (scores[team] <= -t if minus_wins else scores[1 - team] <= -t)
    ]
    if not qualify:
        return (), ""
    if len(qualify) == 1:
        w = qualify[0]
        if scores[w] >= t:
            return (w,), f"{TEAM_NAMES[w]} reached {scores[w]} (+{t})"
        if minus_wins:
            return (w,), f"{TEAM_NAMES[w]} reached {scores[w]} (-{t})"
        return (w,), f"{TEAM_NAMES[1 - w]} fell to {scores[1 - w]} (-{t})"
    if last_made is not None:
        return (last_made,), (
            f"both partnerships qualified; {TEAM_NAMES[last_made]} made the latest contract"
        )
    if scores[0] != scores[1]:
        w = 0 if scores[0] > scores[1] else 1
        return (w,), f"both partnerships qualified; {TEAM_NAMES[w]} have the higher score"
    return (), ""  # NS-6.5: equal scores and no contract made yet: play another hand
