"""Nestors' cards as the rules see them: ids, masks of suits and ranks, and card points.

Inside the rules a card is its integer id (``suit * 13 + rank - 2``) and a set of cards
an ``int`` bitmask, as in the core's card table. The deck is the 36 cards from 6 to ace
(``state.DECK``); the trump ranks are those a ``trump`` action names (``actions.TRUMP_RANKS``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from cardcore import Card, Suit, card_ids
from cardcore_nestors.actions import TRUMP_RANKS
from cardcore_nestors.state import DECK, DECK_IDS

__all__ = [
    "DECK",
    "DECK_IDS",
    "HIGH",
    "RANK_MASK",
    "RANK_WORD",
    "SCORING",
    "SPADES",
    "SUIT_MASK",
    "SUIT_NAMES",
    "TRUMP_RANKS",
    "card_points",
    "cards_text",
    "lowest",
    "mask_points",
    "points_of",
]

SUIT_MASK: Final = tuple(sum(1 << c for c in DECK_IDS if c // 13 == s) for s in range(4))
"""Per suit (clubs, diamonds, hearts, spades), its nine cards."""
RANK_MASK: Final = {r: sum(1 << c for c in DECK_IDS if c % 13 + 2 == r) for r in range(6, 15)}
"""Per rank (6 to 14 = ace), its four cards."""
HIGH: Final = RANK_MASK[14] | RANK_MASK[11] | RANK_MASK[10]
"""The A, J and 10 of every suit: only a player holding one may bid (NS-4.2)."""
SPADES: Final = SUIT_MASK[Suit.SPADES]
"""The nine spades (NS-2.6: five or more in a side's tricks score 10)."""
SUIT_NAMES: Final = ("clubs", "diamonds", "hearts", "spades")
"""Suit names for messages, by suit."""
RANK_WORD: Final = {14: "A", 11: "J", 10: "10"}
"""The trump ranks as players write them."""


def _points_table(trump: int) -> tuple[int, ...]:
    others = [r for r in TRUMP_RANKS if r != trump]  # the higher of the two scores 10
    value = {trump: 15, others[0]: 10, others[1]: 5}
    return tuple(value.get(c % 13 + 2, 0) for c in range(52))


_POINTS: Final = {r: _points_table(r) for r in TRUMP_RANKS}
SCORING: Final = {
    r: tuple(sum(1 << c for c in DECK_IDS if _POINTS[r][c] == v) for v in (15, 10, 5))
    for r in TRUMP_RANKS
}
"""Per trump rank, the masks of the cards worth 15, 10 and 5 points (NS-2.5)."""


def points_of(trump: int) -> tuple[int, ...]:
    """The points of each card id (0..51) when ``trump`` is the trump rank (NS-2.5)."""
    return _POINTS[trump]


def card_points(card: Card | int, trump: int) -> int:
    """The points of a card when ``trump`` (14, 11 or 10) is the trump rank (NS-2.5).

    Example:
        ``card_points(parse_card("A♠"), 10) == 10``
    """
    cid = card if isinstance(card, int) else card.id
    return _POINTS[trump][cid]


def mask_points(mask: int, pts: Sequence[int]) -> int:
    """The points of the cards of a mask, with ``pts`` from :func:`points_of`."""
    total = 0
    while mask:
        low = mask & -mask
        total += pts[low.bit_length() - 1]
        mask ^= low
    return total


def lowest(mask: int) -> int:
    """The lowest card id of a non-empty mask."""
    return (mask & -mask).bit_length() - 1


def cards_text(mask: int) -> str:
    """The cards of a mask as text, in id order: ``9♦ 7♥``."""
    return " ".join(str(Card.of(c)) for c in card_ids(mask))
