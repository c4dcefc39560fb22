"""Nestors setup, auction, trump and second deal: NS-3, NS-4A, NS-4B and NS-T22 to NS-T27."""

from __future__ import annotations

import random
from collections.abc import Mapping

import pytest

from cardcore import Card, IllegalActionError, mask_of, parse_card, parse_cards
from cardcore_nestors import (
    Bid,
    Nestors,
    NestorsOptions,
    NestorsState,
    Pass,
    Phase,
    Trump,
    check_invariants,
)
from cardcore_nestors.cards import DECK_IDS
from cardcore_nestors.state import HAND, HOLE, ROW, STOCK

GAME = Nestors()
PAGAT = Nestors(NestorsOptions(next_dealer="bidder"))
HIGH = ["A", "J", "10"]


def stacked(
    *,
    dealer: int,
    hole: str = "",
    row: str = "",
    first: Mapping[int, str] | None = None,
    second: Mapping[int, str] | None = None,
    low_fill: bool = True,
) -> list[Card]:
    """A deck, top first, giving the named cards; the rest (lowest cards first) fill in."""
    first = first or {}
    second = second or {}
    named = {
        c.id for text in (hole, row, *first.values(), *second.values()) for c in parse_cards(text)
    }
    # Fill with 6-9, Q, K first, so that unnamed hands hold no A, J or 10 when possible.
    rest_ids = sorted(
        (c for c in DECK_IDS if c not in named),
        key=lambda c: (c % 13 + 2 in (10, 11, 14)) if low_fill else 0,
    )
    rest = iter(rest_ids)
    order = [c.id for c in parse_cards(hole)] or [next(rest)]
    row_ids = [c.id for c in parse_cards(row)]
    order += row_ids + [next(rest) for _ in range(3 - len(row_ids))]
    for k in range(4):
        ids = [c.id for c in parse_cards(first.get((dealer + 1 + k) % 4, ""))]
        order += ids + [next(rest) for _ in range(5 - len(ids))]
    for k in range(4):
        ids = [c.id for c in parse_cards(second.get((dealer + 1 + k) % 4, ""))]
        order += ids + [next(rest) for _ in range(3 - len(ids))]
    return [Card.of(c) for c in order]


def play(game: Nestors, state: NestorsState, *texts: str) -> NestorsState:
    for text in texts:
        state = game.apply(state, game.parse_action(text))
        check_invariants(game, state)
    return state


def hand(state: NestorsState, seat: int) -> set[str]:
    return {str(c) for c in state.table.cards(HAND + seat)}


# ---- NS-3: setup and deal -----------------------------------------------------------


def test_ns_t27_first_dealer() -> None:
    """NS-T27 (NS-3.1): cards turned up for seats 0, 1, 2 are K, 9, 6: seat 2 deals."""
    deck = parse_cards("K♠ 9♦ 6♣") + tuple(
        c for c in (Card.of(x) for x in DECK_IDS) if str(c) not in ("K♠", "9♦", "6♣")
    )
    state = GAME.initial_state(4, 3, deck=deck)
    assert state.deal.dealer == 2
    assert state.match.first_draw == parse_cards("K♠ 9♦ 6♣")
    assert state.current == 3  # NS-4.1: the dealer's right calls first
    # The turned-up cards are public; the deal itself is shuffled afterwards.
    assert GAME.observe(state, 0).match.first_draw == parse_cards("K♠ 9♦ 6♣")


def test_first_dealer_without_a_stacked_deck() -> None:
    """NS-3.1: with no dealer given, the first seat to receive a 6 deals."""
    for seed in range(20):
        state = GAME.initial_state(4, seed)
        draw = state.match.first_draw
        assert draw[-1].rank == 6
        assert all(c.rank != 6 for c in draw[:-1])
        assert state.deal.dealer == (len(draw) - 1) % 4


def test_first_deal_and_row() -> None:
    """NS-2.2, NS-3.4, NS-3.5, NS-9.2: 36 cards; hole, 3 face-up cards, 5 each from the right."""
    deck = [Card.of(c) for c in DECK_IDS]
    state = GAME.initial_state(4, 0, dealer=1, deck=deck)
    ids = [c.id for c in deck]
    t = state.table
    assert t.masks[HOLE] == 1 << ids[0]
    assert t.masks[ROW] == mask_of(deck[1:4])
    for k, seat in enumerate((2, 3, 0, 1)):
        assert t.masks[HAND + seat] == mask_of(deck[4 + 5 * k : 9 + 5 * k])
    assert t.size(STOCK) == 12
    assert t.top(STOCK) == ids[24]  # the rest stays face down with the dealer
    check_invariants(GAME, state)


def test_setup_is_validated() -> None:
    """Setup parameters: 4 players, a seat as dealer, a full 36-card deck."""
    with pytest.raises(ValueError, match="exactly 4 players"):
        GAME.initial_state(3, 0)
    with pytest.raises(ValueError, match="dealer must be a seat 0-3"):
        GAME.initial_state(4, 0, dealer=4)
    deck = [Card.of(c) for c in DECK_IDS]
    with pytest.raises(ValueError, match="outside the 36-card deck: 2♣"):
        GAME.initial_state(4, 0, deck=[parse_card("2♣"), *deck[1:]])
    with pytest.raises(ValueError, match="twice: 6♣"):
        GAME.initial_state(4, 0, deck=[deck[0], *deck[:-1]])
    with pytest.raises(ValueError, match="missing: A♠"):
        GAME.initial_state(4, 0, deck=deck[:-1])


def test_cut_has_no_effect_and_seeds_deal_differently() -> None:
    """NS-3.3: shuffling comes from the state's RNG; equal seeds give equal deals."""
    assert GAME.initial_state(4, 5) == GAME.initial_state(4, 5)
    assert GAME.initial_state(4, 5).table != GAME.initial_state(4, 6).table


# ---- NS-4.1 to NS-4.6: the auction --------------------------------------------------


def test_ns_t22_auction() -> None:
    """NS-T22 (NS-4.1, NS-4.3): 1 bids 100, 2 passes, 3 bids 105, 0 and 1 pass: 3 at 105."""
    deck = stacked(dealer=0, first={1: "A♠ 7♣ 8♣ 9♣ Q♣", 3: "J♥ 7♦ 8♦ 9♦ Q♦"})
    state = GAME.initial_state(4, 0, dealer=0, deck=deck)
    assert state.current == 1
    state = play(GAME, state, "bid 100", "pass", "bid 105")
    assert state.current == 0
    state = play(GAME, state, "pass")
    assert state.current == 1  # seat 2 passed: skipped
    state = play(GAME, state, "pass")
    assert (state.phase, state.current) == (Phase.TRUMP, 3)
    assert (state.deal.bidder, state.deal.high) == (3, 105)
    assert state.deal.calls == ((1, 100), (2, 0), (3, 105), (0, 0), (1, 0))
    assert state.deal.passed == 0b0111


def test_ns_t23_dealer_must_bid() -> None:
    """NS-T23 (NS-4.4): seats 1, 2 and 3 pass: seat 0 must bid at least 100."""
    deck = stacked(dealer=0, first={0: "A♠ 7♣ 8♣ 9♣ Q♣"})
    state = play(GAME, GAME.initial_state(4, 0, dealer=0, deck=deck), "pass", "pass", "pass")
    assert (state.phase, state.current) == (Phase.AUCTION, 0)
    legal = GAME.legal_actions(state)
    assert Pass() not in legal
    assert legal == tuple(Bid(b) for b in range(100, 195, 5))
    with pytest.raises(IllegalActionError) as err:
        GAME.apply(state, Pass())
    assert err.value.reason == "everyone else passed: as dealer you must bid"
    state = play(GAME, state, "bid 100")
    assert (state.phase, state.current, state.deal.bidder) == (Phase.TRUMP, 0, 0)


def test_ns_t24_void_hand() -> None:
    """NS-T24 (NS-4.5, NS-3.2): all pass and the dealer holds no A, J or 10: redeal."""
    deck = stacked(dealer=0, first={0: "6♣ 7♣ 8♣ 9♣ Q♣"})
    state = GAME.initial_state(4, 0, dealer=0, deck=deck)
    state = play(GAME, state, "pass", "pass", "pass")
    assert state.phase is Phase.AUCTION
    assert (state.deal.number, state.deal.dealer, state.current) == (2, 0, 1)
    assert state.match.scores == (0, 0)
    assert state.match.last_hand is not None
    assert state.match.last_hand.void
    assert state.deal.calls == ()


def test_ns_t25_bid_legality() -> None:
    """NS-T25 (NS-4.2): 95, 103 and 195 are illegal, 100 legal; min_bid=5 allows 5."""
    deck = stacked(dealer=0, first={1: "A♠ 7♣ 8♣ 9♣ Q♣", 2: "6♣ 7♦ 8♦ 9♦ Q♦"})
    state = GAME.initial_state(4, 0, dealer=0, deck=deck)
    reasons = {}
    for b in (95, 103, 195):
        with pytest.raises(IllegalActionError) as err:
            GAME.apply(state, Bid(b))
        reasons[b] = err.value.reason
    assert reasons == {
        95: "the lowest bid is 100",
        103: "bids are multiples of 5, and 103 is not",
        195: "the highest bid is 190",
    }
    assert Bid(100) in GAME.legal_actions(state)
    low = Nestors(NestorsOptions(min_bid=5))
    assert low.legal_actions(low.initial_state(4, 0, dealer=0, deck=deck))[:2] == (
        Pass(),
        Bid(5),
    )
    # Seat 2 holds no A, J or 10: it may only pass.
    state = play(GAME, state, "bid 100")
    assert GAME.legal_actions(state) == (Pass(),)
    with pytest.raises(IllegalActionError) as err:
        GAME.apply(state, Bid(105))
    assert err.value.reason == "you hold no A, J or 10, so you may only pass"


def test_bids_must_rise() -> None:
    """NS-4.2, NS-9.7: a bid must be higher than the current high bid."""
    deck = stacked(dealer=0, first={1: "A♠ 7♣ 8♣ 9♣ Q♣", 2: "J♠ 7♦ 8♦ 9♦ Q♦"})
    state = play(GAME, GAME.initial_state(4, 0, dealer=0, deck=deck), "bid 150")
    with pytest.raises(IllegalActionError, match="you must bid more than 150"):
        GAME.apply(state, Bid(150))
    assert GAME.legal_actions(state)[1] == Bid(155)
    state = play(GAME, state, "bid 190")
    assert GAME.legal_actions(state) == (Pass(),)


def test_pass_is_final() -> None:
    """NS-4.2: a pass is final for the hand; passed players are skipped (NS-4.1)."""
    deck = stacked(dealer=0, first={1: "A♠ 7♣ 8♣ 9♣ Q♣", 2: "J♠ 7♦ 8♦ 9♦ Q♦", 3: "10♠ 6♥ 7♥ 8♥ 9♥"})
    state = GAME.initial_state(4, 0, dealer=0, deck=deck)
    state = play(GAME, state, "pass", "bid 100", "bid 105", "pass", "bid 110")
    assert state.current == 3  # seat 1 (passed) is skipped after seat 2
    state = play(GAME, state, "pass")
    assert (state.phase, state.deal.bidder) == (Phase.TRUMP, 2)


# ---- NS-4.7 to NS-4.10: trump and second deal ----------------------------------------


def test_trump_rank_must_be_held() -> None:
    """NS-4.7, NS-4.6: the bidder names A, J or 10 and must hold one of that rank."""
    deck = stacked(dealer=3, hole="K♥", first={0: "A♠ J♦ 7♣ 8♣ 9♣"})
    state = play(
        GAME, GAME.initial_state(4, 0, dealer=3, deck=deck), "bid 100", "pass", "pass", "pass"
    )
    assert GAME.legal_actions(state) == (Trump(parse_card("A♠").rank), Trump(parse_card("J♦").rank))
    with pytest.raises(IllegalActionError, match="you can name 10 only if you hold"):
        GAME.apply(state, GAME.parse_action("trump 10"))
    with pytest.raises(IllegalActionError, match="must be A, J or 10"):
        GAME.apply(state, Trump(parse_card("K♠").rank))


def test_hole_card_and_second_deal() -> None:
    """NS-4.8, NS-4.9, NS-4.10, NS-9.2: the bidder takes the hole card; 3 more each; 9/8/8/8."""
    deck = stacked(
        dealer=3,
        hole="K♥",
        row="6♠ 7♠ 8♠",
        first={0: "A♠ J♦ 7♣ 8♣ 9♣"},
        second={0: "Q♠ K♠ A♥", 1: "6♦ 7♦ 8♦", 2: "9♦ 10♦ Q♦", 3: "K♦ A♦ 6♥"},
    )
    state = play(
        GAME,
        GAME.initial_state(4, 0, dealer=3, deck=deck),
        "bid 100",
        "pass",
        "pass",
        "pass",
        "trump A",
    )
    assert state.phase is Phase.LEAD
    assert hand(state, 0) == {"A♠", "J♦", "7♣", "8♣", "9♣", "K♥", "Q♠", "K♠", "A♥"}
    assert hand(state, 1) >= {"6♦", "7♦", "8♦"}
    assert hand(state, 3) >= {"K♦", "A♦", "6♥"}
    assert [state.table.size(HAND + s) for s in range(4)] == [9, 8, 8, 8]
    assert state.table.size(ROW) == 3
    assert state.table.size(STOCK) == state.table.size(HOLE) == 0


@pytest.mark.parametrize(("game", "want"), [(GAME, 1), (PAGAT, 3)])
def test_ns_t26_next_dealer(game: Nestors, want: int) -> None:
    """NS-T26 (NS-3.2): dealer 0, bidder 3: next dealer 1 (default) or 3 (pagat)."""
    deck = stacked(dealer=0, first={3: "A♠ J♦ 7♣ 8♣ 9♣"})
    state = play(
        game,
        game.initial_state(4, 0, dealer=0, deck=deck),
        "pass",
        "pass",
        "bid 100",
        "pass",
        "trump A",
    )
    rng = random.Random(1)
    while state.deal.number == 1:
        legal = game.legal_actions(state)
        state = game.apply(state, legal[rng.randrange(len(legal))])
    assert state.deal.dealer == want
    assert state.current == (want + 1) % 4


def test_void_hand_keeps_the_dealer_under_pagat() -> None:
    """NS-3.2: after a void hand the same dealer deals again, whatever next_dealer says."""
    deck = stacked(dealer=2, first={2: "6♣ 7♣ 8♣ 9♣ Q♣"})
    state = play(PAGAT, PAGAT.initial_state(4, 0, dealer=2, deck=deck), "pass", "pass", "pass")
    assert (state.deal.number, state.deal.dealer) == (2, 2)
