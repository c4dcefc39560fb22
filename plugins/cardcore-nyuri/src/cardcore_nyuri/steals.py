"""Which offers may steal a target (NY-4.4): the legal offers, and why one is not legal.

The offers are many (85 on average, up to 3,076 with two players and large hands), and
a player picks one, so they are a lazy sequence: ``decline`` and the single cards as a
tuple, then every pair (and triple) worth more than the target as a
:class:`cardcore.CardSubsets`, which counts them without building them.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Final

from cardcore import Card, CardSubsets, ConcatActions
from cardcore_nyuri.actions import (
    _HIGHER_SAME_SUIT,
    _SUIT_OF,
    _VALUE,
    Decline,
    NyuriAction,
    Steal,
    _mask_value,
)

__all__ = ["offer_actions", "offer_masks", "steal_problem"]

_CARD: Final[tuple[Card, ...]] = tuple(Card.of(c) for c in range(52))
_VALUE_ABOVE: Final[tuple[int, ...]] = tuple(
    sum(1 << c for c in range(52) if _VALUE[c] > t) for t in range(28)
)
"""Per target value (at most K guarded by A, 27), the cards of any suit worth more."""
_ONLY_DECLINE: Final[tuple[NyuriAction, ...]] = (Decline(),)


def offer_actions(hand: int, target: int, guard: int, *, any_suit: bool) -> Sequence[NyuriAction]:
    """Every legal offer from ``hand`` against the target, in a fixed order.

    ``decline``; the single cards in card order; then the pairs and (against a target
    worth more than 10) the triples worth more than the target, as combinations of the
    hand sorted by value (then suit), each size in lexicographic order.

    Args:
        hand: the offering seat's hand, a card mask.
        target: the target's card id.
        guard: the bodyguard's card id, ``-1`` when unguarded.
        any_suit: whether a single card of any suit may steal a guarded target.

    Returns:
        A tuple when there are no sets to offer, else a lazy sequence.
    """
    if not hand:
        return _ONLY_DECLINE
    tv = _VALUE[target]
    if guard >= 0:
        tv += _VALUE[guard]
        suited = _VALUE_ABOVE[0] if any_suit else _HIGHER_SAME_SUIT[target]
        singles = hand & suited & _VALUE_ABOVE[tv]
    else:
        singles = hand & _HIGHER_SAME_SUIT[target]
    head = _ONLY_DECLINE
    if singles:
        head += Steal.singles(singles)
    if not hand & (hand - 1):  # a single card: no sets
        return head
    sizes = (2, 3) if tv > 10 else (2,)
    sets = CardSubsets(Steal, hand, sizes=sizes, weights=_VALUE, above=tv)
    return ConcatActions(head, sets) if sets else head


def offer_masks(hand: int, target: int, guard: int, *, any_suit: bool) -> Iterator[int]:
    """The card mask of every legal steal, in the order of :func:`offer_actions`.

    The same steals as ``offer_actions(...)`` without ``decline`` and without building
    an action for each: for a reader that weighs every steal (a bot choosing its offer)
    and builds only the one it picks, with ``Steal.from_mask``.
    """
    if not hand:
        return
    tv = _VALUE[target]
    if guard >= 0:
        tv += _VALUE[guard]
        suited = _VALUE_ABOVE[0] if any_suit else _HIGHER_SAME_SUIT[target]
        singles = hand & suited & _VALUE_ABOVE[tv]
    else:
        singles = hand & _HIGHER_SAME_SUIT[target]
    while singles:
        low = singles & -singles
        singles ^= low
        yield low
    if not hand & (hand - 1):
        return
    sizes = (2, 3) if tv > 10 else (2,)
    yield from CardSubsets(Steal, hand, sizes=sizes, weights=_VALUE, above=tv).masks()


def steal_problem(offer: int, target: int, guard: int = -1, *, any_suit: bool) -> str | None:
    """Why a set of cards cannot steal a target (NY-4.4), or ``None`` if it can.

    Args:
        offer: the offered cards as a mask (at least one card).
        target: the target's card id.
        guard: the bodyguard's card id, ``-1`` when unguarded.
        any_suit: whether a single card of any suit may steal a guarded target.

    Returns:
        The reason in the players' words, or ``None`` for a legal steal.
    """
    count = offer.bit_count()
    tv = _VALUE[target] + (_VALUE[guard] if guard >= 0 else 0)
    total = _mask_value(offer)
    if count > 3:
        why = f"a steal uses one, two or three cards, not {count}"
    elif count == 1 and (
        _SUIT_OF[offer.bit_length() - 1] != _SUIT_OF[target] and (guard < 0 or not any_suit)
    ):
        why = "a single card must be of the target's suit"
    elif count == 3 and tv <= 10:
        why = f"three cards may only steal a target worth more than 10 (this one: {tv})"
    elif total <= tv:
        why = f"{total} is not more than {tv}"
    else:
        return None
    cards = "+".join(map(str, Steal.from_mask(offer).cards))
    shown = str(_CARD[target]) if guard < 0 else f"{_CARD[target]} guarded by {_CARD[guard]}"
    return f"{cards} cannot steal {shown}: {why}"
