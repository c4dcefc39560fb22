"""Cards, suits, ranks and decks.

Inside the engine a card is a small integer, its *id* (``suit * 13 + rank - 2``, so
0..51), and a set of cards is an ``int`` bitmask over those ids. The public API shows
:class:`Card` objects; both forms convert freely and cheaply (every card is a cached
singleton).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator
from typing import Final, final

import attrs

__all__ = [
    "DECK_36",
    "DECK_52",
    "Card",
    "Rank",
    "Suit",
    "card_ids",
    "cards_of",
    "mask_of",
    "parse_card",
    "parse_cards",
]


class Suit(enum.IntEnum):
    """The four French suits, in the order used for card ids and sorting."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def symbol(self) -> str:
        """The suit glyph: ``♣ ♦ ♥ ♠``."""
        return _SUIT_SYMBOLS[self]

    @property
    def letter(self) -> str:
        """The one-letter ASCII form: ``c d h s``."""
        return _SUIT_LETTERS[self]


_SUIT_SYMBOLS: Final = ("♣", "♦", "♥", "♠")
_SUIT_LETTERS: Final = ("c", "d", "h", "s")


class Rank(enum.IntEnum):
    """Ranks 2..14, the ace high; games give ranks their own values and orders."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def label(self) -> str:
        """The printed label: ``2``..``10``, ``J``, ``Q``, ``K``, ``A``."""
        return _RANK_LABELS[self]


_RANK_LABELS: Final = {
    **{r: str(int(r)) for r in Rank if r <= Rank.TEN},
    Rank.JACK: "J",
    Rank.QUEEN: "Q",
    Rank.KING: "K",
    Rank.ACE: "A",
}


@final
@attrs.frozen(order=False, repr=False)
class Card:
    """One playing card; frozen, hashable, ordered by id (suit, then rank).

    Build cards with :func:`parse_card` or :meth:`Card.of`; the constructor is
    validated, and equal cards are equal whichever way they were made.
    """

    rank: Rank = attrs.field(converter=Rank)
    """The card's rank."""
    suit: Suit = attrs.field(converter=Suit)
    """The card's suit."""

    @property
    def id(self) -> int:
        """The card's integer id, ``suit * 13 + rank - 2`` (0..51)."""
        return int(self.suit) * 13 + int(self.rank) - 2

    @property
    def bit(self) -> int:
        """The card's bit in a card-set mask."""
        return 1 << self.id

    @staticmethod
    def of(card_id: int) -> Card:
        """Return the card with the given id (0..51)."""
        return _CARDS[card_id]

    def __str__(self) -> str:
        return f"{self.rank.label}{self.suit.symbol}"

    def __repr__(self) -> str:
        return f"Card({self})"

    @property
    def ascii(self) -> str:
        """The ASCII form, e.g. ``10h``, ``Qs``."""
        return f"{self.rank.label}{self.suit.letter}"

    def __lt__(self, other: Card) -> bool:
        return self.id < other.id

    def __le__(self, other: Card) -> bool:
        return self.id <= other.id

    def __gt__(self, other: Card) -> bool:
        return self.id > other.id

    def __ge__(self, other: Card) -> bool:
        return self.id >= other.id


_CARDS: Final[tuple[Card, ...]] = tuple(Card(Rank(i % 13 + 2), Suit(i // 13)) for i in range(52))

DECK_52: Final[tuple[Card, ...]] = _CARDS
"""The 52-card deck in id order."""
DECK_36: Final[tuple[Card, ...]] = tuple(c for c in _CARDS if c.rank >= Rank.SIX)
"""The 36-card deck (6 to ace) in id order."""

_RANK_TEXT: Final = {
    "2": Rank.TWO,
    "3": Rank.THREE,
    "4": Rank.FOUR,
    "5": Rank.FIVE,
    "6": Rank.SIX,
    "7": Rank.SEVEN,
    "8": Rank.EIGHT,
    "9": Rank.NINE,
    "10": Rank.TEN,
    "t": Rank.TEN,
    "j": Rank.JACK,
    "q": Rank.QUEEN,
    "k": Rank.KING,
    "a": Rank.ACE,
}
_SUIT_TEXT: Final = {
    "c": Suit.CLUBS,
    "♣": Suit.CLUBS,
    "♧": Suit.CLUBS,
    "d": Suit.DIAMONDS,
    "♦": Suit.DIAMONDS,
    "♢": Suit.DIAMONDS,
    "h": Suit.HEARTS,
    "♥": Suit.HEARTS,
    "♡": Suit.HEARTS,
    "s": Suit.SPADES,
    "♠": Suit.SPADES,
    "♤": Suit.SPADES,
}
_PARSE_CACHE: dict[str, Card] = {}


def parse_card(text: str) -> Card:
    """Parse one card: ``10♥``, ``10h``, ``Th``, ``TH``, ``q♠`` all work.

    Raises:
        ValueError: naming the input when it is not a card.
    """
    hit = _PARSE_CACHE.get(text)
    if hit is not None:
        return hit
    cleaned = text.strip().replace("\ufe0f", "")
    low = cleaned.lower()
    rank = _RANK_TEXT.get(low[:-1]) if len(low) >= 2 else None
    suit = _SUIT_TEXT.get(low[-1:]) if low else None
    if rank is None or suit is None:
        raise ValueError(
            f"not a card: {text!r} (expected a rank 2-10, T, J, Q, K or A followed by a suit "
            "letter c/d/h/s or symbol ♣/♦/♥/♠, e.g. '10♥', 'Th', 'qs')"
        )
    card = _CARDS[int(suit) * 13 + int(rank) - 2]
    if len(_PARSE_CACHE) < 4096:
        _PARSE_CACHE[text] = card
    return card


def parse_cards(text: str) -> tuple[Card, ...]:
    """Parse cards separated by spaces, commas or ``+``: ``"4♠+4♦"``, ``"Th Js"``."""
    parts = text.replace("+", " ").replace(",", " ").split()
    return tuple(parse_card(p) for p in parts)


def mask_of(cards: Iterable[Card]) -> int:
    """The bitmask of a collection of cards."""
    m = 0
    for c in cards:
        m |= 1 << c.id
    return m


def card_ids(mask: int) -> Iterator[int]:
    """The ids in a card-set mask, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def cards_of(mask: int) -> tuple[Card, ...]:
    """The cards in a card-set mask, in id order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(_CARDS[low.bit_length() - 1])
        mask ^= low
    return tuple(out)
