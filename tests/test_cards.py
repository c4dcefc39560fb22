"""Cards, ranks, suits and their text forms."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardcore import DECK_36, DECK_52, Card, Rank, Suit, cards_of, mask_of, parse_card, parse_cards


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [
        ("10♥", Rank.TEN, Suit.HEARTS),
        ("10h", Rank.TEN, Suit.HEARTS),
        ("Th", Rank.TEN, Suit.HEARTS),
        ("TH", Rank.TEN, Suit.HEARTS),
        ("q♠", Rank.QUEEN, Suit.SPADES),
        ("As", Rank.ACE, Suit.SPADES),
        ("2c", Rank.TWO, Suit.CLUBS),
        (" 9♦ ", Rank.NINE, Suit.DIAMONDS),
    ],
)
def test_parse_card_accepts_common_spellings(text: str, rank: Rank, suit: Suit) -> None:
    """Glyphs, letters, T for ten and any case all parse."""
    card = parse_card(text)
    assert (card.rank, card.suit) == (rank, suit)


@pytest.mark.parametrize("text", ["", "1h", "11h", "Xh", "10x", "h10", "10", "♥", "10♥♥"])
def test_parse_card_rejects_garbage_naming_the_input(text: str) -> None:
    """Wrong card text raises ValueError that quotes the input."""
    with pytest.raises(ValueError, match="not a card") as err:
        parse_card(text)
    assert repr(text) in str(err.value)


@given(st.sampled_from(DECK_52))
def test_text_forms_round_trip(card: Card) -> None:
    """Both printed forms parse back to the same card."""
    assert parse_card(str(card)) == card
    assert parse_card(card.ascii) == card
    assert Card.of(card.id) is card


def test_decks() -> None:
    """52 and 36 distinct cards, the 36-card deck being 6 to ace."""
    assert len(set(DECK_52)) == 52
    assert len(set(DECK_36)) == 36
    assert min(c.rank for c in DECK_36) == Rank.SIX
    assert str(DECK_52[0]) == "2♣"
    assert str(DECK_52[-1]) == "A♠"


@given(st.lists(st.sampled_from(DECK_52), unique=True))
def test_masks_round_trip(cards: list[Card]) -> None:
    """A card set survives mask_of / cards_of, sorted by id."""
    assert cards_of(mask_of(cards)) == tuple(sorted(cards))


def test_cards_are_frozen_hashable_and_ordered() -> None:
    """Cards compare by id and can be dict keys."""
    a, b = parse_card("2♣"), parse_card("3♣")
    assert a < b
    assert {a: 1}[Card(Rank.TWO, Suit.CLUBS)] == 1
    with pytest.raises(AttributeError):
        a.rank = Rank.ACE  # type: ignore[misc]


def test_parse_cards_splits_on_plus_comma_space() -> None:
    """'4♠+4♦', '4s, 4d' and '4s 4d' all read as two cards."""
    want = (parse_card("4♠"), parse_card("4♦"))
    assert parse_cards("4♠+4♦") == want
    assert parse_cards("4s, 4d") == want
    assert parse_cards("4s 4d") == want
