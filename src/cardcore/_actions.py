"""Actions that carry cards, and legal actions that are not listed until they are read.

Three building blocks for games:

* :class:`CardAction`, a base for actions named by a verb and one or more cards
  (``play 7♦``, ``steal 4♠+4♦``, ``take 9♠ K♦``): one shared instance per card set, so
  equality is identity and hashing is the object's own (the cheapest Python has), with
  the text form and its parsing written once;
* :class:`WordAction`, a base for actions without cards whose text is a fixed word
  (``pass``, ``take back``): one instance per class, with the same properties;
* :class:`LazyActions`, a base for a game's legal actions when listing them all would
  cost more than the decision (hundreds of card sets to offer, of which a player picks
  one): a read-only sequence with length, indexing, membership and iteration, that
  builds an action only when it is read. :class:`CardSubsets` and
  :class:`ConcatActions` are ready-made ones.

A lazy sequence is still a :class:`~collections.abc.Sequence`: code that reads legal
actions with ``len``, ``[i]``, ``in``, iteration or ``random.choice`` works unchanged,
and ``tuple(legal)`` lists them all.
"""

from __future__ import annotations

import bisect
import math
import operator
from abc import abstractmethod
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, ClassVar, Final, Generic, Self, TypeVar, overload

from cardcore._cards import Card, parse_cards

__all__ = ["CardAction", "CardSubsets", "ConcatActions", "LazyActions", "WordAction"]

A = TypeVar("A")
B = TypeVar("B")
C = TypeVar("C", bound="CardAction")

_CARDS: Final[tuple[Card, ...]] = tuple(Card.of(c) for c in range(52))
_NEW: Final = object.__new__
_ALL: Final = 1 << 52


class _Shared:
    """An action value shared by everyone who makes it: frozen, and its own copy."""

    __slots__ = ()

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} actions are frozen")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} actions are frozen")

    def __copy__(self) -> Self:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        return self


class CardAction(_Shared):
    """Base for an action named by a verb and a set of cards: ``play 7♦``, ``steal 4♠+4♦``.

    A subclass names its verb and the card counts it takes; everything else is here::

        class Play(CardAction, verb="play"):
            '''Play a card: ``play 7♦``.'''

        class Steal(CardAction, verb="steal", sizes=(1, 2, 3), key=lambda c: (-(c % 13), -(c // 13))):
            '''Offer one to three cards: ``steal 4♠+4♦``.'''

    There is one instance per class and card set: ``Play(card)``, ``Play.of(card_id)``,
    ``Play.from_mask(mask)`` and ``Play.parse("play 7♦")`` all return the same object, so
    ``==`` is ``is`` and ``hash`` is the object's own, both at C speed; the instances are
    frozen and survive pickling and copying as the same shared object. Actions of
    different classes are never equal, even with the same cards.

    Class keywords:
        verb: the first word of the text form (``play``).
        sizes: the card counts allowed (default ``(1,)``).
        separator: between cards in the text form (default ``"+"``; ``" "`` also works).
        key: sort key on card ids for the order of :attr:`cards` and of the text (default:
            id order, i.e. suit then rank).

    Attributes:
        cards: the cards, in the class's order.
        mask: the cards as a bitmask.
    """

    __slots__ = ("cards", "mask")

    verb: ClassVar[str]
    sizes: ClassVar[tuple[int, ...]]
    separator: ClassVar[str]
    key: ClassVar[Callable[[int], Any] | None]
    _shared: ClassVar[dict[int, Any]]
    _singles: ClassVar[tuple[Any, ...] | None]
    _by_suit: ClassVar[tuple[dict[int, tuple[Any, ...]], ...]]

    cards: tuple[Card, ...]
    mask: int

    def __init_subclass__(
        cls,
        *,
        verb: str,
        sizes: Iterable[int] = (1,),
        separator: str = "+",
        key: Callable[[int], Any] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init_subclass__(**kwargs)
        if not verb or verb != verb.strip() or verb.lower() != verb:
            raise TypeError(f"{cls.__name__}: verb must be lower-case text, not {verb!r}")
        allowed = tuple(sorted(set(sizes)))
        if not allowed or allowed[0] < 1:
            raise TypeError(f"{cls.__name__}: sizes must be card counts of at least 1")
        if not separator or separator.strip() not in ("", "+", ","):
            raise TypeError(f"{cls.__name__}: separator must be '+', ',' or a space")
        cls.verb = verb
        cls.sizes = allowed
        cls.separator = separator
        cls.key = key
        cls._shared = {}
        cls._singles = None
        cls._by_suit = ({}, {}, {}, {})  # per suit: rank pattern -> its singles

    def __new__(cls, cards: Card | Iterable[Card]) -> Self:
        """The action for one card or a collection of distinct cards.

        Raises:
            ValueError: a card is repeated, or the count is not one of the class's sizes.
        """
        if isinstance(cards, Card):
            return cls.from_mask(1 << cards.id)
        t = tuple(cards)
        mask = 0
        for c in t:
            if not isinstance(c, Card):
                raise TypeError(f"{cls.__name__} takes cards, not {c!r}")
            mask |= 1 << c.id
        if mask.bit_count() != len(t):
            raise ValueError(f"a card appears twice in {'+'.join(map(str, t))}")
        return cls.from_mask(mask)

    @classmethod
    def from_mask(cls, mask: int) -> Self:
        """The action for the cards of a mask.

        Raises:
            ValueError: the number of cards is not one of the class's sizes.
        """
        hit = cls._shared.get(mask)
        if hit is not None:
            return hit  # type: ignore[no-any-return]
        n = mask.bit_count()
        if n not in cls.sizes or mask >> 52:
            raise ValueError(
                f"{cls.verb} takes {' or '.join(map(str, cls.sizes))} card(s), not {n}"
                if not mask >> 52
                else f"{cls.verb}: not a card mask: {mask:#x}"
            )
        ids = []
        m = mask
        while m:
            low = m & -m
            ids.append(low.bit_length() - 1)
            m ^= low
        if cls.key is not None:
            ids.sort(key=cls.key)
        action = _NEW(cls)
        _set_cards(action, tuple(_CARDS[c] for c in ids))
        _set_mask(action, mask)
        return cls._shared.setdefault(mask, action)  # type: ignore[no-any-return]

    @classmethod
    def of(cls, card_id: int) -> Self:
        """The single-card action for a card id (0..51), from a table built on first use."""
        singles = cls._singles
        if singles is None:
            if 1 not in cls.sizes:
                raise ValueError(f"{cls.verb} does not take a single card")
            singles = tuple(cls.from_mask(1 << c) for c in range(52))
            cls._singles = singles
        return singles[card_id]  # type: ignore[no-any-return]

    @classmethod
    def singles(cls, mask: int) -> tuple[Self, ...]:
        """The single-card action of each card of a mask, in card id order.

        For legal actions such as "play any card of the hand": ``Play.singles(hand)``.
        Masks of up to three cards (a small hand) are read without a loop; a larger one is
        put together from the tuples of its four suits, each built once per class and
        rank pattern (at most 8,192 per suit), on first use.

        Raises:
            ValueError: ``mask`` is not a card mask, or the class takes no single card.
        """
        if mask.bit_count() > 3:  # a larger hand: suit by suit
            clubs, diamonds, hearts, spades = cls._by_suit
            try:
                return (
                    clubs[mask & 8191]
                    + diamonds[(mask >> 13) & 8191]
                    + hearts[(mask >> 26) & 8191]
                    + spades[mask >> 39]
                )
            except KeyError:  # a new rank pattern (or no card mask: its top bits miss)
                return cls._fill_singles(mask)
        table = cls._singles
        if table is None or mask < 0 or mask >> 52:
            return cls._fill_singles(mask)
        a = mask & -mask
        rest = mask ^ a
        if not rest:
            return (table[a.bit_length() - 1],) if a else ()
        b = rest & -rest
        rest ^= b
        if not rest:
            return (table[a.bit_length() - 1], table[b.bit_length() - 1])
        return (table[a.bit_length() - 1], table[b.bit_length() - 1], table[rest.bit_length() - 1])

    @classmethod
    def _fill_singles(cls, mask: int) -> tuple[Self, ...]:
        """:meth:`singles` for a mask its tables do not hold yet: check it, fill them, read."""
        if not 0 <= mask < _ALL:
            raise ValueError(f"{cls.verb}: not a card mask: {mask:#x}")
        table = cls._singles
        if table is None:
            cls.of(0)  # builds the table (or says the class takes no single card)
            table = cls._singles
            assert table is not None
        for s, by_ranks in enumerate(cls._by_suit):
            bits = (mask >> (13 * s)) & 8191
            if bits not in by_ranks:
                by_ranks[bits] = tuple(table[13 * s + r] for r in range(13) if bits >> r & 1)
        return cls.singles(mask)

    @classmethod
    def singles_in(cls, deck: int) -> Callable[[int], tuple[Self, ...]]:
        """A :meth:`singles` for masks of ``deck``'s cards, its tables all built now.

        For a game whose deck is fixed (a plugin calls this once, at import), the returned
        function reads one precomputed tuple per suit, indexed by the suit's rank pattern
        within the deck's span of ranks: no dictionary, no filling on first use. Each
        suit's table has ``2 ** span`` entries (512 for ranks 6 to ace).

        The returned function does not check its mask (a check would cost as much as the
        look-ups): it lists only the cards that lie in the deck's span of ranks, so pass it
        masks of the deck's cards, such as a hand, and use :meth:`singles` for any other.

        Raises:
            ValueError: ``deck`` is not a card mask, or the class takes no single card.
        """
        if not 0 <= deck < _ALL:
            raise ValueError(f"{cls.verb}: not a card mask: {deck:#x}")
        cls.of(0)  # builds the table (or says the class takes no single card)
        table = cls._singles
        assert table is not None
        suits: list[tuple[int, int, tuple[tuple[Self, ...], ...]]] = []
        for s in range(4):
            bits = (deck >> (13 * s)) & 8191
            low = (bits & -bits).bit_length() - 1 if bits else 0
            span = bits.bit_length() - low if bits else 0
            base = 13 * s + low
            patterns = tuple(
                tuple(table[base + k] for k in range(span) if p >> k & 1) for p in range(1 << span)
            )
            suits.append((base, (1 << span) - 1, patterns))
        (c, cw, clubs), (d, dw, diamonds), (h, hw, hearts), (sp, sw, spades) = suits

        def singles(mask: int) -> tuple[Self, ...]:
            """The single-card action of each card of ``mask``, a mask of deck cards."""
            return (
                clubs[mask >> c & cw]
                + diamonds[mask >> d & dw]
                + hearts[mask >> h & hw]
                + spades[mask >> sp & sw]
            )

        return singles

    @classmethod
    def parse(cls, text: str) -> Self:
        """Read the text form, e.g. ``play 7♦``, ``steal 4s+4d``, ``take 9♠ K♦``.

        The verb is matched without regard to case; cards may be separated by ``+``,
        commas or spaces, in any order, written ``10♥``, ``10h`` or ``Th``.

        Raises:
            ValueError: naming the text when it is not such an action.
        """
        words = text.strip().split(maxsplit=1) if isinstance(text, str) else []
        if len(words) != 2 or words[0].lower() != cls.verb:
            raise ValueError(f"not a {cls.verb} action: {text!r} (try {cls.example()!r})")
        try:
            return cls(parse_cards(words[1]))
        except ValueError as e:
            raise ValueError(f"not a {cls.verb} action: {text!r}: {e}") from None

    @classmethod
    def example(cls) -> str:
        """A sample of the text form, for help messages."""
        n = cls.sizes[0]
        return cls.verb + " " + cls.separator.join(str(_CARDS[38 + 4 * i]) for i in range(n))

    @property
    def card(self) -> Card:
        """The card of a single-card action.

        Raises:
            ValueError: the action has several cards.
        """
        if len(self.cards) != 1:
            raise ValueError(f"{self} has {len(self.cards)} cards, not one")
        return self.cards[0]

    @property
    def card_id(self) -> int:
        """The id of the card of a single-card action (see :attr:`card`)."""
        return self.card.id

    def __str__(self) -> str:
        return f"{self.verb} {self.separator.join(map(str, self.cards))}"

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self})"

    def __reduce__(self) -> tuple[Callable[[int], Self], tuple[int]]:
        return (type(self).from_mask, (self.mask,))


_set_cards: Final[Callable[[CardAction, tuple[Card, ...]], None]] = CardAction.__dict__[
    "cards"
].__set__
_set_mask: Final[Callable[[CardAction, int], None]] = CardAction.__dict__["mask"].__set__


class WordAction(_Shared):
    """Base for an action without cards whose text is a fixed word: ``pass``, ``take back``.

    A subclass names its text; everything else is here::

        class Pass(WordAction, text="pass"):
            '''Pass for the rest of the hand: ``pass``.'''

            __slots__ = ()

    There is one instance per class: ``Pass() is Pass()``, so ``==`` is ``is`` and
    ``hash`` is the object's own, both at C speed; the instance is frozen, prints as its
    text (``repr``: ``Pass()``) and survives pickling and copying as the same object.
    Actions of different classes are never equal, even with the same text. Reading the
    text back (with its aliases, if a game accepts any) stays the game's parser's part.

    Class keywords:
        text: the action's text, lower-case words with single spaces (``take back``).
    """

    __slots__ = ()

    text: ClassVar[str]
    _one: ClassVar[Any]

    def __init_subclass__(cls, *, text: str, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if not text or text != " ".join(text.split()) or text.lower() != text:
            raise TypeError(
                f"{cls.__name__}: text must be lower-case words with single spaces, not {text!r}"
            )
        cls.text = text
        cls._one = object.__new__(cls)

    def __new__(cls) -> Self:
        """The one instance of the class."""
        try:
            return cls._one  # type: ignore[no-any-return]
        except AttributeError:
            raise TypeError("WordAction is a base: subclass it with a text") from None

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"

    def __reduce__(self) -> tuple[Callable[[], Self], tuple[()]]:
        return (type(self), ())


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

    @abstractmethod
    def __len__(self) -> int:
        """How many actions there are."""

    @abstractmethod
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
        if isinstance(other, LazyActions | tuple):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

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


class _SegmentedActions(LazyActions[A]):
    """Lazy actions in segments whose running ends are ``_ends``; no segment is empty.

    Reading one by a plain index in range (a bot's pick) skips the generic checks.
    """

    __slots__ = ("_ends",)

    _ends: Sequence[int]

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


class ConcatActions(_SegmentedActions[A]):
    """Several sequences of actions one after another, without copying them.

    For example ``ConcatActions((decline,), CardSubsets(Steal, hand))``: a fixed action,
    then many built on demand. Membership asks each part (a lazy part answers cheaply).

    Args:
        *parts: tuples or lazy sequences; the actions of different parts must differ.
    """

    __slots__ = ("_parts", "_reads")

    _parts: Sequence[Sequence[A]]
    _reads: Sequence[Callable[[int], A]]

    def __init__(self, *parts: Sequence[A]) -> None:
        kept = []
        reads = []
        ends = []
        total = 0
        for p in parts:
            n = len(p)
            if n:
                total += n
                kept.append(p)
                ends.append(total)
                # How to read an index in range: a lazy part need not check it again.
                reads.append(p._item if LazyActions in type(p).__mro__ else p.__getitem__)  # type: ignore[attr-defined]
        self._parts = kept
        self._ends = ends
        self._reads = reads

    def _item(self, index: int) -> A:
        ends = self._ends
        k = bisect.bisect_right(ends, index)
        return self._reads[k](index - ends[k - 1] if k else index)

    def __iter__(self) -> Iterator[A]:
        for p in self._parts:
            yield from p

    def __contains__(self, value: object) -> bool:
        return any(value in p for p in self._parts)


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


def _key(weights: Sequence[int], card: int) -> int:
    """A card's key: its weight, then its id, in one int (``weight << 6 | id``)."""
    try:
        weight = operator.index(weights[card])
    except TypeError:
        raise ValueError(
            f"CardSubsets: weights must be ints, not {weights[card]!r} (card {card})"
        ) from None
    return weight << 6 | card


def _ids_of(mask: int) -> Iterator[int]:
    """The card ids of a mask, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


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

    _keys: Sequence[int]
    _segments: list[tuple[int, int, int]]
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
        cached = _KEYS.get(id(weights))
        if cached is not None and cached[0] is weights:
            suits = cached[1]
            try:
                keys: Sequence[int] = (
                    suits[0][mask & 8191]
                    + suits[1][mask >> 13 & 8191]
                    + suits[2][mask >> 26 & 8191]
                    + suits[3][mask >> 39]
                )
            except KeyError:  # a card pattern met for the first time
                keys = _card_keys(mask, weights)
        else:
            keys = _card_keys(mask, weights)
        if weights is not None:
            keys = sorted(keys)
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
        segments: list[tuple[int, int, int]] = []  # (lead, start, positions added)
        ends: list[int] = []
        self._segments = segments
        self._ends = ends
        total = 0
        if above is None:  # no value condition: each size is one block
            for size in allowed:
                if size > k:
                    break
                total += _CHOOSE[size][k]
                segments.append((0, 0, size))
                ends.append(total)
            return
        bisect_right = bisect.bisect_right
        for size in allowed:
            if size > k:
                break
            if size == 1:
                start = bisect_right(keys, above << 6 | 63)
                if start < k:
                    total += k - start
                    segments.append((0, start, 1))
                    ends.append(total)
                continue
            # Size 2: the pairs of positions b < c worth more than ``above``. Size 3: for
            # each first position a (the lead), the pairs after it worth more than the rest.
            top = keys[k - 1] >> 6
            a = 0 if size == 2 else bisect_right(keys, (above - (keys[k - 2] >> 6) - top) << 6 | 63)
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
                        segments.append((0, a, 3))
                        ends.append(total)
                        break
                    lead = 1 << (keys[a] & 63)
                    need = above - wa
                    a += 1
                b = bisect_right(keys, (need - top) << 6 | 63, a)
                while b < k - 1:
                    kb = keys[b]
                    start = bisect_right(keys, (need - (kb >> 6)) << 6 | 63, b + 1)
                    if start == b + 1:  # every pair from b on
                        n = k - b
                        total += n * (n - 1) // 2
                        segments.append((lead, b, 2))
                        ends.append(total)
                        break
                    total += k - start
                    segments.append((lead | 1 << (kb & 63), start, 1))
                    ends.append(total)
                    b += 1
                if size == 2:
                    break

    def _item(self, index: int) -> C:
        ends = self._ends
        s = bisect.bisect_right(ends, index)
        if s:
            index -= ends[s - 1]
        lead, start, added = self._segments[s]
        keys = self._keys
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
        for lead, start, added in self._segments:
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

    def __contains__(self, value: object) -> bool:
        if type(value) is not self._action:
            return False
        assert isinstance(value, CardAction)
        m = value.mask
        if m & ~self._mask or m.bit_count() not in self._sizes:
            return False
        if self._above is None or self._weights is None:
            return True
        weights = self._weights
        return sum(weights[c.id] for c in value.cards) > self._above


_CHOOSE: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(math.comb(k, size) for k in range(53)) for size in range(4)
)
"""``_CHOOSE[size][k]``: the number of sets of ``size`` among ``k`` cards."""
