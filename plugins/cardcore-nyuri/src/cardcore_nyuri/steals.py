"""Which offers may steal a target (NY-4.4): the legal offers, and why one is not legal.

The offers are many (85 on average, up to 3,076 with two players and large hands), and
a player picks one, so for a large hand they are a lazy sequence: ``decline`` and the
single cards as a tuple, then every pair (and triple) worth more than the target as a
:class:`cardcore.CardSubsets`, which counts them without building them. A small hand
(at most 28 pairs and triples to weigh) has its offers listed in a tuple, in the same
order, which costs less to make than the lazy listing costs to read.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Final

from cardcore import Card, CardSubsets
from cardcore._lazy import card_subsets_after
from cardcore_nyuri.actions import (
    _HIGHER_SAME_SUIT,
    _SUIT_OF,
    _SUIT_VALUE,
    _VALUE,
    Decline,
    NyuriAction,
    Steal,
)

__all__ = ["cheapest_set", "highest_set", "offer_actions", "offer_masks", "steal_problem"]

_CARD: Final[tuple[Card, ...]] = tuple(Card.of(c) for c in range(52))
_VALUE_ABOVE: Final[tuple[int, ...]] = tuple(
    sum(1 << c for c in range(52) if _VALUE[c] > t) for t in range(28)
)
"""Per target value (at most K guarded by A, 27), the cards of any suit worth more."""
_OF_VALUE: Final[tuple[int, ...]] = tuple(
    sum(1 << (13 * s + v - 2) for s in range(4)) if v >= 2 else 0 for v in range(15)
)
"""Per value (2 to 14; 0 and 1 empty), the four cards of that value as a mask."""
_SUM: Final[tuple[int, ...]] = _SUIT_VALUE
"""Per 13-bit suit mask, the sum of its card values: held here, where the compiled
build reads it natively (``actions`` stays interpreted)."""
_ONLY_DECLINE: Final[tuple[NyuriAction, ...]] = (Decline(),)
_PAIRS_ONLY: Final = (2,)
_PAIRS_TRIPLES: Final = (2, 3)
_SUBSETS_AFTER: Final = card_subsets_after
"""Read from a C static when compiled (an imported name is read from the module's dict)."""
_LISTED_SETS: Final = 28
"""When a hand has at most this many pairs (and triples, against a target worth more
than 10), its offers are listed in a tuple, which is read faster than the lazy listing
costs to make; with more, they are lazy."""


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
        A tuple for a small hand (at most 28 sets to weigh), else a lazy sequence.
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
    k = hand.bit_count()
    if k * (k - 1) // 2 + (k * (k - 1) * (k - 2) // 6 if tv > 10 else 0) <= _LISTED_SETS:
        return _listed(head, hand, tv)
    return _SUBSETS_AFTER(head, Steal, hand, _PAIRS_TRIPLES if tv > 10 else _PAIRS_ONLY, _VALUE, tv)


def _listed(head: tuple[NyuriAction, ...], hand: int, tv: int) -> tuple[NyuriAction, ...]:
    """``head``, then the pairs and triples of a small hand worth more than ``tv``, listed.

    The order of the lazy listing (:class:`cardcore.CardSubsets` by value): the hand
    sorted by value, then card id; pairs before triples, each in lexicographic order.
    Pairs come from :data:`_PAIRS`, triples from the steals already made: compiled, no
    mask is boxed and no method is called for a set met before.
    """
    values: list[int] = []
    ids: list[int] = []
    for v in range(2, 15):  # by value, and within a value by card id
        group = hand & _OF_VALUE[v]
        while group:
            low = group & -group
            group ^= low
            values.append(v)
            ids.append(low.bit_length() - 1)
    k = len(ids)
    out: list[NyuriAction] = list(head)
    pairs = _PAIRS
    # The values ascend, so the cards that complete a set worth enough are a suffix.
    for i in range(k - 1):
        need = tv - values[i]  # what the second card must be worth more than
        start = i + 1
        while start < k and values[start] <= need:
            start += 1
        a = ids[i]
        row = 52 * a
        for j in range(start, k):
            pair = pairs[row + ids[j]]
            out.append(pair if pair is not None else _pair(a, ids[j]))
    if tv > 10:  # NY-4.4c
        shared = _SHARED
        for i in range(k - 2):
            for j in range(i + 1, k - 1):
                need = tv - values[i] - values[j]
                start = j + 1
                while start < k and values[start] <= need:
                    start += 1
                lead = (1 << ids[i]) | (1 << ids[j])
                for x in range(start, k):
                    m = lead | (1 << ids[x])
                    triple = shared.get(m)
                    out.append(triple if triple is not None else Steal.from_mask(m))
    return tuple(out)


_PAIRS: Final[list[Steal | None]] = [None] * (52 * 52)
"""The steal of two cards a and b at ``52 * a + b`` (and ``52 * b + a``), once made."""
_SHARED: Final[dict[int, Steal]] = Steal._shared
"""Every steal made so far, by mask (the action class's own table)."""


def _pair(a: int, b: int) -> Steal:
    """The steal of cards ``a`` and ``b``, made once and kept in :data:`_PAIRS`."""
    pair = _PAIRS[52 * a + b] = _PAIRS[52 * b + a] = Steal.from_mask((1 << a) | (1 << b))
    return pair


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


def _mask_value(m: int) -> int:
    """The sum of the card values in a card mask (NY-4.5), as ``Steal.value`` reads it."""
    sv = _SUM
    return sv[m & 0x1FFF] + sv[(m >> 13) & 0x1FFF] + sv[(m >> 26) & 0x1FFF] + sv[m >> 39]


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


# ---- the first set of a kind, without listing the sets ----------------------------------


def highest_set(hand: int, size: int) -> int:
    """The ``size`` cards of ``hand`` worth most together (it holds at least ``size``).

    Of the sets worth as much, the one :func:`offer_actions` lists first: within each
    value, the lowest card ids.
    """
    out = 0
    left = size
    v = 14
    while left:
        group = hand & _OF_VALUE[v]
        while group and left:
            low = group & -group
            group ^= low
            out |= low
            left -= 1
        v -= 1
    return out


def cheapest_set(hand: int, size: int, above: int) -> int:
    """The cheapest set of ``size`` (2 or 3) cards of ``hand`` worth more than ``above``.

    Found over the values the hand holds, not by listing its sets. Of the cheapest, the
    one :func:`offer_actions` lists first: the lowest values first, and within each value
    the lowest card ids. 0 when no set is worth enough.
    """
    counts = [(hand & m).bit_count() for m in _OF_VALUE]
    best: list[int] = []
    best_sum = 43  # more than any three cards
    for v1 in range(2, 15):
        if not counts[v1]:
            continue
        if size * v1 >= best_sum:
            break
        if size == 2:
            v2 = _next_value(counts, max(v1, above + 1 - v1), v1, 1)
            if v2 and v1 + v2 < best_sum:
                best, best_sum = [v1, v2], v1 + v2
        else:
            for v2 in range(v1, 15):
                if 2 * v2 + v1 >= best_sum:
                    break
                if counts[v2] < (2 if v2 == v1 else 1):
                    continue
                used = 2 if v2 == v1 else 1  # cards of v2's value already in the set
                v3 = _next_value(counts, max(v2, above + 1 - v1 - v2), v2, used)
                if v3 and v1 + v2 + v3 < best_sum:
                    best, best_sum = [v1, v2, v3], v1 + v2 + v3
        if best_sum == above + 1:  # nothing is cheaper than one point more
            break
    out = 0
    for v in best:  # for each value, the lowest card id not taken yet
        rest = hand & _OF_VALUE[v] & ~out
        out |= rest & -rest
    return out


def _next_value(counts: list[int], low: int, same: int, used: int) -> int:
    """The least value from ``low`` up with a card left (``used`` of ``same`` are taken)."""
    for v in range(low, 15):
        if counts[v] > (used if v == same else 0):
            return v
    return 0
