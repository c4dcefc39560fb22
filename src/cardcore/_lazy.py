"""Legal actions that are not listed until they are read.

:class:`LazyActions` is a base for a game's legal actions when listing them all would
cost more than the decision (hundreds of card sets to offer, of which a player picks
one): a read-only sequence with length, indexing, membership and iteration, that builds
an action only when it is read. :class:`CardSubsets` (the card sets of a
:class:`~cardcore.CardAction` class) and :class:`ConcatActions` are ready-made ones.

A lazy sequence is still a :class:`~collections.abc.Sequence`: code that reads legal
actions with ``len``, ``[i]``, ``in``, iteration or ``random.choice`` works unchanged,
and ``tuple(legal)`` lists them all.
"""

from __future__ import annotations

import abc
import bisect
import math
import operator
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Final, Generic, TypeVar, cast, overload

from cardcore._build import mypyc_attr

if TYPE_CHECKING:
    from cardcore._actions import CardAction

__all__ = ["CardSubsets", "ConcatActions", "LazyActions"]

A = TypeVar("A")
B = TypeVar("B")
C = TypeVar("C", bound="CardAction")


@mypyc_attr(allow_interpreted_subclasses=True)
class LazyActions(Sequence[A]):
    """Base for legal actions that are built only when read.

    A subclass gives :meth:`__len__` and :meth:`_item` (the action at an index from 0 to
    ``len - 1``) and should give a cheap :meth:`__contains__` (the default reads every
    action). Indexing (negative indexes and slices too), iteration, ``index``, ``count``,
    ``random.choice`` and comparison follow. A lazy sequence equals any sequence holding
    the same actions in the same order (a tuple of them, another lazy sequence), and
    hashes like that tuple, so observations holding one stay comparable values.

    The actions must be fixed when the sequence is made: a lazy sequence is a value.

    A lazy sequence reaches the bots inside an observation, every attribute of it, the
    private ones too (``obs.legal_actions._state`` is one line of Python away). So it
    holds only what the seat to move may know, such as its own hand's mask or a public
    count, never the state: :meth:`of` builds one from a length and a function of the
    index that closes over just that, and the conformance kit compares every attribute
    it keeps (and whatever its functions close over) when it redeals the cards the seat
    does not know.
    """

    __slots__ = ()

    @staticmethod
    def of(
        count: int,
        item: Callable[[int], B],
        *,
        contains: Callable[[object], bool] | None = None,
    ) -> LazyActions[B]:
        """A lazy sequence of ``count`` actions, the one at index ``i`` being ``item(i)``.

        For example, with ``hand`` the mover's cards (a tuple, or a mask turned into
        one): ``LazyActions.of(len(hand), lambda i: Play(hand[i]))``. Let ``item`` (and
        ``contains``) close over what the mover may know, derived from the state before
        the call, never over the state itself: a bot can read a closure's variables.

        Args:
            count: how many actions there are.
            item: the action at an index from 0 to ``count - 1``.
            contains: a cheap membership test (default: read every action).

        Raises:
            ValueError: ``count`` is negative.
        """
        if count < 0:
            raise ValueError(f"LazyActions.of: count must be at least 0, not {count}")
        return _ActionsOf(count, item, contains)

    @abc.abstractmethod
    def __len__(self) -> int:
        """How many actions there are."""

    @abc.abstractmethod
    def _item(self, index: int) -> A:
        """The action at ``index`` (``0 <= index < len(self)``)."""

    @overload
    def __getitem__(self, index: int) -> A: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[A, ...]: ...

    def __getitem__(self, index: int | slice) -> A | tuple[A, ...]:
        n = len(self)
        if isinstance(index, slice):
            return tuple(self._item(i) for i in range(*index.indices(n)))
        i = index + n if index < 0 else index
        if not 0 <= i < n:
            raise IndexError(f"legal action index {index} out of range (there are {n})")
        return self._item(i)

    def __iter__(self) -> Iterator[A]:
        item = self._item
        for i in range(len(self)):
            yield item(i)

    def __contains__(self, value: object) -> bool:
        return any(a == value for a in self)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, LazyActions | tuple):
            return NotImplemented
        # Not narrowed by the isinstance above: a compiled build would check the type again.
        seq = cast("Sequence[object]", other)
        return len(self) == len(seq) and all(a == b for a, b in zip(self, seq, strict=True))

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __bool__(self) -> bool:
        return len(self) > 0

    def __repr__(self) -> str:
        n = len(self)
        shown = ", ".join(str(a) for a in self[:4])
        more = ", ..." if n > 4 else ""
        return f"{type(self).__name__}({n} actions: {shown}{more})"


class _ActionsOf(LazyActions[A]):
    """What :meth:`LazyActions.of` returns: a length, a function of the index, a test."""

    __slots__ = ("_contains", "_count", "_item_of")

    def __init__(
        self, count: int, item: Callable[[int], A], contains: Callable[[object], bool] | None
    ) -> None:
        self._count = count
        self._item_of = item
        self._contains = contains

    def __len__(self) -> int:
        return self._count

    def _item(self, index: int) -> A:
        return self._item_of(index)

    def __repr__(self) -> str:
        _, _, rest = LazyActions.__repr__(self).partition("(")
        return f"LazyActions.of({rest}"

    def __contains__(self, value: object) -> bool:
        if self._contains is None:
            return LazyActions.__contains__(self, value)
        return self._contains(value)


@mypyc_attr(allow_interpreted_subclasses=True)
class _SegmentedActions(LazyActions[A]):
    """Lazy actions in segments whose running ends are ``_ends``; no segment is empty.

    Reading one by a plain index in range (a bot's pick) skips the generic checks.
    """

    __slots__ = ("_ends",)

    _ends: list[int]

    def __len__(self) -> int:
        return self._ends[-1] if self._ends else 0

    def __bool__(self) -> bool:
        return bool(self._ends)  # every segment holds an action

    @overload
    def __getitem__(self, index: int) -> A: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[A, ...]: ...

    def __getitem__(self, index: int | slice) -> A | tuple[A, ...]:
        ends = self._ends
        if type(index) is int and ends and 0 <= index < ends[-1]:
            return self._item(index)
        return LazyActions.__getitem__(self, index)


@mypyc_attr(allow_interpreted_subclasses=True)
class ConcatActions(_SegmentedActions[A]):
    """Several sequences of actions one after another, without copying them.

    For example ``ConcatActions((decline,), CardSubsets(Steal, hand))``: a fixed action,
    then many built on demand. Membership asks each part (a lazy part answers cheaply).

    Args:
        *parts: tuples or lazy sequences; the actions of different parts must differ.
    """

    __slots__ = ("_lazy", "_parts")

    _parts: list[Sequence[A]]
    _lazy: list[bool]

    def __init__(self, *parts: Sequence[A]) -> None:
        kept: list[Sequence[A]] = []
        lazy: list[bool] = []
        ends: list[int] = []
        total = 0
        for p in parts:
            n = len(p)
            if n:
                total += n
                kept.append(p)
                ends.append(total)
                # A lazy part is read by ``_item``: an index in range needs no check again.
                lazy.append(isinstance(p, LazyActions))
        self._parts = kept
        self._ends = ends
        self._lazy = lazy

    def _item(self, index: int) -> A:
        ends = self._ends
        k = 0
        while index >= ends[k]:  # a few parts: a walk costs less than a bisection
            k += 1
        if k:
            index -= ends[k - 1]
        part = self._parts[k]
        if self._lazy[k]:
            return cast("LazyActions[A]", part)._item(index)
        return part[index]

    def __iter__(self) -> Iterator[A]:
        for p in self._parts:
            yield from p

    def __contains__(self, value: object) -> bool:
        return any(value in p for p in self._parts)


def _own_abc_registry(*classes: type) -> None:
    """Give each class its own ABC registry, as ``abc.ABCMeta`` gives a class it makes.

    A class compiled with mypyc is made without ``ABCMeta.__new__``: it would read
    ``Sequence``'s registry and caches, and ``isinstance([], LazyActions)`` would answer
    as for ``Sequence``. The pure modules have their own already: nothing changes there.
    """
    for cls in classes:
        if "_abc_impl" not in vars(cls):
            abc._abc_init(cls)  # type: ignore[attr-defined]


_own_abc_registry(LazyActions, _ActionsOf, _SegmentedActions, ConcatActions)

_SIZES: Final[dict[tuple[int, ...], tuple[int, ...]]] = {}
"""The set sizes of :class:`CardSubsets` already checked: each sorted tuple of 1, 2, 3."""


def _checked_sizes(sizes: Iterable[int]) -> tuple[int, ...]:
    """``sizes`` sorted, without repeats, once checked to be among 1, 2 and 3."""
    allowed = tuple(sorted(set(sizes)))
    if not allowed or allowed[0] < 1 or allowed[-1] > 3:
        raise ValueError(f"CardSubsets: sizes must be 1, 2 or 3, not {allowed}")
    if sizes == allowed:  # at most seven such tuples: remembered, checked once
        _SIZES[allowed] = allowed
    return allowed


_SuitKeys = tuple[dict[int, tuple[int, ...]], ...]

_KEYS: Final[dict[int, tuple[Sequence[int] | None, _SuitKeys]]] = {}
"""Per weights tuple (by identity, kept alive here; ``None`` too), per suit, a card
pattern's keys: for each card of the pattern, ``weight << 6 | id`` (just the id with no
weights), filled as patterns are met. Weight tables are a game's constants: a few."""


def _card_keys(mask: int, weights: Sequence[int] | None) -> tuple[int, ...]:
    """The key ``weight << 6 | id`` of each card of ``mask``, in id order (see ``_KEYS``).

    Raises:
        ValueError: a weight is not an int.
    """
    cached = _KEYS.get(id(weights))
    if cached is None or cached[0] is not weights:
        if type(weights) is not tuple and weights is not None:  # may change: not kept
            return tuple(_key(weights, c) for c in _ids_of(mask))
        if len(_KEYS) >= 16:
            _KEYS.clear()
        cached = _KEYS[id(weights)] = (weights, ({}, {}, {}, {}))
    suits = cached[1]
    for s, patterns in enumerate(suits):
        bits = mask >> 13 * s & 8191
        if bits not in patterns:
            ids = [13 * s + r for r in range(13) if bits >> r & 1]
            patterns[bits] = tuple(ids if weights is None else (_key(weights, c) for c in ids))
    return (
        suits[0][mask & 8191]
        + suits[1][mask >> 13 & 8191]
        + suits[2][mask >> 26 & 8191]
        + suits[3][mask >> 39]
    )


_Ranked = tuple[Sequence[int], list[int], list[int]]

_RANKED: Final[dict[int, _Ranked]] = {}
"""Per weights tuple of all 52 cards (by identity, kept alive here): each card's key
``weight << 6 | id`` by id, and the cards of each weight as a mask, lightest first. A
hand's keys are then listed in order without sorting them."""


_LAST_RANKED: Final[list[_Ranked]] = [((), [], [])]
"""The ``_RANKED`` entry used last: found by one identity check (a game uses one)."""


def _ranked(weights: Sequence[int] | None) -> _Ranked | None:
    """The ``_RANKED`` entry of ``weights``, made now; ``None`` for weights not kept.

    Weights that are not a tuple (they may change) are not kept. An entry with no masks
    says that the keys must be sorted: fewer than 52 weights, or one that is not an int
    (an error only if its card is offered, as without the entry).
    """
    if type(weights) is not tuple:
        return None
    keys: list[int] = []
    same: dict[int, int] = {}
    if len(weights) >= 52:
        try:
            keys = [_key(weights, c) for c in range(52)]
        except ValueError:
            keys = []
        for c, key in enumerate(keys):
            same[key >> 6] = same.get(key >> 6, 0) | 1 << c
    if len(_RANKED) >= 16:
        _RANKED.clear()
    entry = _RANKED[id(weights)] = (weights, keys, [same[w] for w in sorted(same)])
    return entry


def _key(weights: Sequence[int], card: int) -> int:
    """A card's key: its weight, then its id, in one int (``weight << 6 | id``)."""
    # Read as any object: a compiled build checks a value typed ``int`` as it reads it.
    raw = cast("Sequence[object]", weights)[card]
    try:
        weight = operator.index(raw)  # type: ignore[arg-type]
    except TypeError:
        raise ValueError(f"CardSubsets: weights must be ints, not {raw!r} (card {card})") from None
    return weight << 6 | card


def _ids_of(mask: int) -> Iterator[int]:
    """The card ids of a mask, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


@mypyc_attr(allow_interpreted_subclasses=True)
class CardSubsets(_SegmentedActions[C], Generic[C]):
    """Every set of cards of a mask with an allowed size (and value), as card actions.

    ``CardSubsets(Steal, hand, sizes=(1, 2, 3), weights=VALUE, above=target)`` is every
    offer of one to three hand cards whose values add up to more than ``target``,
    without building them: the length is counted from the card values, an index is
    turned into its set directly, and membership checks the set's cards, size and value.
    Building one costs about as much as counting the pairs of the mask.

    The order is fixed: by size (smaller first); within a size, the cards are ranked by
    weight (lightest first, then by id) and the sets come in lexicographic order of
    those ranks (so with no weights, in lexicographic order of card ids). The actions
    are the class's shared instances, those :meth:`CardAction.from_mask` returns.

    Args:
        action: the :class:`CardAction` class whose instances are listed.
        mask: the cards to choose from.
        sizes: the set sizes allowed (1 to 3).
        weights: per card id, its value, an int (e.g. 2 to 14); ``None`` for no value
            condition. A tuple is read once per card pattern and remembered.
        above: only sets whose weights add up to more than this.
    """

    __slots__ = (
        "_above",
        "_action",
        "_keys",
        "_mask",
        "_segments",
        "_shared",
        "_sizes",
        "_weights",
    )

    _keys: list[int]
    _segments: list[int]
    _shared: dict[int, C]

    def __init__(
        self,
        action: type[C],
        mask: int,
        *,
        sizes: Iterable[int] = (1, 2, 3),
        weights: Sequence[int] | None = None,
        above: int | None = None,
    ) -> None:
        allowed = _SIZES.get(sizes) if type(sizes) is tuple else None
        if allowed is None:
            allowed = _checked_sizes(sizes)
        if above is not None and weights is None:
            raise ValueError("CardSubsets: 'above' needs 'weights' to add up")
        if mask >> 52 or mask < 0:
            raise ValueError(f"CardSubsets: not a card mask: {mask:#x}")
        # Each card as one int, ``weight << 6 | id``: sorting the ints ranks the cards by
        # weight, then id; ``key >> 6`` is the weight and ``key & 63`` the card. The first
        # card weighing more than x is found by bisection for ``x << 6 | 63``.
        # Compiled, listing a hand's cards a weight at a time costs less than sorting them;
        # interpreted, ``list.sort`` in C costs less than the loop.
        keys: list[int]
        ranked: _Ranked | None = _LAST_RANKED[0] if _COMPILED else None
        if _COMPILED and (ranked is None or ranked[0] is not weights):  # not the last ones
            ranked = _RANKED.get(id(weights)) if weights is not None else None
            if ranked is None or ranked[0] is not weights:
                ranked = _ranked(weights)
            if ranked is not None:
                _LAST_RANKED[0] = ranked
        if ranked is not None and ranked[2]:  # in order: a weight's cards at a time, by id
            keys = []
            card_keys = ranked[1]
            for same in ranked[2]:
                bits = mask & same
                while bits:
                    low = bits & -bits
                    keys.append(card_keys[low.bit_length() - 1])
                    bits ^= low
        else:
            keys = list(_card_keys(mask, weights))
            if weights is not None:
                keys.sort()
        self._action = action
        self._shared = action._shared
        self._mask = mask
        self._keys = keys
        self._weights = weights
        self._above = above
        self._sizes = allowed
        # The sets are listed as segments, in order: a segment adds to a fixed lead (a
        # mask) every choice of 1, 2 or 3 positions from ``start`` on (one card at each
        # position, every pair, every triple). Since the weights ascend, the sets worth
        # enough with a given lead end in a suffix of positions (found by bisection), and
        # from the first lead whose next cards are enough, all the rest is one block.
        k = len(keys)
        segments: list[int] = []  # lead, start and positions added (see _lead)
        ends: list[int] = []
        self._segments = segments
        self._ends = ends
        total = 0
        if above is None:  # no value condition: each size is one block
            for size in allowed:
                if size > k:
                    break
                total += _CHOOSE[size][k]
                segments.append(size)  # no lead, from position 0
                ends.append(total)
            return
        _valued_segments(keys, allowed, above, segments, ends)  # sorted

    def _item(self, index: int) -> C:
        ends = self._ends
        s = _bisect_words(ends, index) if _COMPILED else bisect.bisect_right(ends, index)
        if s:
            index -= ends[s - 1]
        seg = self._segments[s]
        added = seg & 3
        start = seg >> 2 & 63
        keys = self._keys
        lead = _lead(seg, keys)
        if added == 1:
            m = lead | 1 << (keys[start + index] & 63)
        else:
            k = len(keys)
            if added == 3:  # the triples of positions from start on, in order
                n = (k - start - 1) * (k - start - 2) // 2  # those that begin at start
                while index >= n:
                    index -= n
                    start += 1
                    n = (k - start - 1) * (k - start - 2) // 2
                lead |= 1 << (keys[start] & 63)
                start += 1
            n = k - 1 - start  # the pairs of positions from start on, in order
            while index >= n:
                index -= n
                start += 1
                n -= 1
            m = lead | 1 << (keys[start] & 63) | 1 << (keys[start + 1 + index] & 63)
        hit = self._shared.get(m)
        return hit if hit is not None else self._action.from_mask(m)

    @property
    def action(self) -> type[C]:
        """The :class:`CardAction` class whose instances are listed."""
        return self._action

    def masks(self) -> Iterator[int]:
        """The card mask of each set, in the listing's order, without building actions.

        For readers that only need the cards (an RL adapter marking the sets in an
        action mask): ``list(s.masks()) == [a.mask for a in s]``.
        """
        bits = [1 << (key & 63) for key in self._keys]
        k = len(bits)
        for lead, start, added in self._lead_segments():
            if added == 1:
                for x in bits[start:]:
                    yield lead | x
            elif added == 2:
                for b in range(start, k - 1):
                    head = lead | bits[b]
                    for x in bits[b + 1 :]:
                        yield head | x
            else:
                for a in range(start, k - 2):
                    for b in range(a + 1, k - 1):
                        head = lead | bits[a] | bits[b]
                        for x in bits[b + 1 :]:
                            yield head | x

    def _lead_segments(self) -> list[tuple[int, int, int]]:
        """The segments, in order, as (lead mask, first position, positions added).

        For readers of the whole listing (:meth:`masks`, the RL adapters' masks): a set
        is the lead plus the cards at 1, 2 or 3 of the positions of ``_keys`` from the
        first on.
        """
        keys = self._keys
        return [(_lead(seg, keys), seg >> 2 & 63, seg & 3) for seg in self._segments]

    def __contains__(self, value: object) -> bool:
        if type(value) is not self._action:
            return False
        action = cast("CardAction", value)  # its type is the listed class
        m = action.mask
        if m & ~self._mask or m.bit_count() not in self._sizes:
            return False
        if self._above is None or self._weights is None:
            return True
        weights = self._weights
        return sum(weights[c.id] for c in action.cards) > self._above


def card_subsets_after(
    head: tuple[A, ...],
    action: type[C],
    mask: int,
    sizes: tuple[int, ...],
    weights: Sequence[int] | None,
    above: int | None,
) -> Sequence[A | C]:
    """``head``, then ``CardSubsets(action, mask, sizes=..., weights=..., above=...)``.

    That is ``ConcatActions(head, sets)``, or ``head`` itself when there are no such
    sets. The same listing as building the two, at a lower cost from a compiled game: one
    call with its arguments in order, where building each class from another module
    goes through Python's class call and its keyword arguments.
    """
    sets = CardSubsets(action, mask, sizes=sizes, weights=weights, above=above)
    if not sets:
        return head
    return cast("Sequence[A | C]", ConcatActions(head, sets))


_COMPILED: Final = not __file__.endswith((".py", ".pyc"))
"""Whether this module is loaded from a mypyc extension (then machine words are fast)."""


def _lead(segment: int, keys: list[int]) -> int:
    """The mask of a segment's lead: the cards at none, one or two positions of ``keys``.

    A segment is one int: the positions added (1 to 3) in bits 0-1, the first position
    in bits 2-7, and the lead's positions, each plus one (0 for none), in bits 8-13 and
    14-19. An int of 20 bits costs less to keep than a tuple of a mask and two ints.
    """
    lead = 0
    a = segment >> 8 & 63
    if a:
        lead = 1 << (keys[a - 1] & 63)
    b = segment >> 14
    if b:
        lead |= 1 << (keys[b - 1] & 63)
    return lead


_BISECT_RIGHT: Final = bisect.bisect_right


def _bisect_words(a: list[int], x: int, lo: int = 0) -> int:
    """``bisect.bisect_right(a, x, lo)`` for a short sorted list of ints, compiled.

    A loop on machine words: a call of the ``bisect`` module boxes its arguments and goes
    through Python's call protocol, which costs more than the search. (Interpreted, the
    module's C function is the faster.)
    """
    hi = len(a)
    while lo < hi:
        mid = (lo + hi) >> 1
        if x < a[mid]:
            hi = mid
        else:
            lo = mid + 1
    return lo


def _valued_segments(
    keys: list[int],
    allowed: tuple[int, ...],
    above: int,
    segments: list[int],
    ends: list[int],
) -> None:
    """Append the segments and running ends of the sets worth more than ``above``.

    The sets are those of :class:`CardSubsets`, size by size, over the sorted ``keys``.
    Since the weights ascend, the sets worth enough with a given lead end in a suffix of
    positions, and from the first lead whose next cards are enough, all the rest is one
    block. For one lead, the suffix that completes a pair with the card at ``b`` starts
    no later as ``b`` moves up (the card weighs more), so it is found by walking down
    from where it started for the card before, not by a search for each card.
    """
    k = len(keys)
    total = 0
    bisect_right = _BISECT_RIGHT
    words = _COMPILED
    for size in allowed:
        if size > k:
            break
        if size == 1:
            x = above << 6 | 63
            start = _bisect_words(keys, x) if words else bisect_right(keys, x)
            if start < k:
                total += k - start
                segments.append(start << 2 | 1)
                ends.append(total)
            continue
        # Size 2: the pairs of positions b < c worth more than ``above``. Size 3: for
        # each first position a (the lead), the pairs after it worth more than the rest.
        top = keys[k - 1] >> 6
        x = (above - (keys[k - 2] >> 6) - top) << 6 | 63
        a = 0 if size == 2 else _bisect_words(keys, x) if words else bisect_right(keys, x)
        lead = 0
        need = above
        while True:
            if size == 3:
                if a >= k - 2:
                    break
                wa = keys[a] >> 6
                if wa + (keys[a + 1] >> 6) + (keys[a + 2] >> 6) > above:  # all from a on
                    n = k - a
                    total += n * (n - 1) * (n - 2) // 6
                    segments.append(a << 2 | 3)
                    ends.append(total)
                    break
                lead = (a + 1) << 8
                need = above - wa
                a += 1
            x = (need - top) << 6 | 63
            b = _bisect_words(keys, x, a) if words else bisect_right(keys, x, a)
            start = k  # the first position after b whose card completes a pair worth enough
            while b < k - 1:
                kb = keys[b]
                bar = need - (kb >> 6)
                if start <= b:
                    start = b + 1
                while start > b + 1 and keys[start - 1] >> 6 > bar:
                    start -= 1
                if start == b + 1:  # every pair from b on
                    n = k - b
                    total += n * (n - 1) // 2
                    segments.append(lead | b << 2 | 2)
                    ends.append(total)
                    break
                total += k - start
                segments.append(lead | (b + 1) << 14 | start << 2 | 1)
                ends.append(total)
                b += 1
            if size == 2:
                break


_own_abc_registry(CardSubsets)

_CHOOSE: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(math.comb(k, size) for k in range(53)) for size in range(4)
)
"""``_CHOOSE[size][k]``: the number of sets of ``size`` among ``k`` cards."""
