"""Actions that carry cards, and actions named by a word.

Two building blocks for games:

* :class:`CardAction`, a base for actions named by a verb and one or more cards
  (``play 7♦``, ``steal 4♠+4♦``, ``take 9♠ K♦``): one shared instance per card set, so
  equality is identity and hashing is the object's own (the cheapest Python has), with
  the text form and its parsing written once;
* :class:`WordAction`, a base for actions without cards whose text is a fixed word
  (``pass``, ``take back``): one instance per class, with the same properties.

The legal actions that are not listed until they are read (:class:`LazyActions`,
:class:`CardSubsets`, :class:`ConcatActions`) live in :mod:`cardcore._lazy`; they are
importable from here too.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from typing import Any, ClassVar, Final, Self, TypeVar

from cardcore._build import mypyc_attr
from cardcore._cards import Card, parse_cards
from cardcore._lazy import CardSubsets, ConcatActions, LazyActions

__all__ = ["CardAction", "CardSubsets", "ConcatActions", "LazyActions", "WordAction"]

T = TypeVar("T", bound="CardAction")

_CARDS: Final[tuple[Card, ...]] = tuple(Card.of(c) for c in range(52))
_ALL: Final = 1 << 52


@mypyc_attr(allow_interpreted_subclasses=True)
class _Shared:
    """An action value shared by everyone who makes it: frozen, and its own copy.

    A subclass is frozen by :func:`_freeze` (from its base's ``__init_subclass__``), not
    by a ``__setattr__`` here: the compiled build (mypyc) refuses one in a class that
    Python classes subclass.
    """

    __slots__ = ()

    def __new__(cls) -> Self:
        """A new blank instance: for the bases' own factories only."""
        return object.__new__(cls)

    def __copy__(self) -> Self:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        return self


def _refuse_set(self: object, name: str, value: object) -> None:
    raise AttributeError(f"{type(self).__name__} actions are frozen")


def _refuse_delete(self: object, name: str) -> None:
    raise AttributeError(f"{type(self).__name__} actions are frozen")


def _freeze(cls: type) -> None:
    """Make the instances of an action class frozen, unless it sets attributes its own way.

    The refusals are wrapped in ``partialmethod``, a descriptor, so that they receive the
    instance also where this module is compiled (a compiled function binds to nothing).
    """
    refusals: tuple[tuple[str, Callable[..., None]], ...] = (
        ("__setattr__", _refuse_set),
        ("__delattr__", _refuse_delete),
    )
    for name, refuse in refusals:
        if getattr(cls, name) is getattr(object, name):
            setattr(cls, name, functools.partialmethod(refuse))


@mypyc_attr(allow_interpreted_subclasses=True)
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

    @classmethod
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
        cls.verb = verb
        cls.sizes = _class_sizes(cls.__name__, verb, sizes, separator)
        cls.separator = separator
        cls.key = key
        cls._shared = {}
        cls._singles = None
        cls._by_suit = ({}, {}, {}, {})  # per suit: rank pattern -> its singles
        _freeze(cls)

    def __new__(cls, cards: Card | Iterable[Card]) -> Self:
        """The action for one card or a collection of distinct cards.

        Raises:
            ValueError: a card is repeated, or the count is not one of the class's sizes.
        """
        if isinstance(cards, Card):
            return cls.from_mask(1 << cards.id)
        t: tuple[object, ...] = tuple(cards)  # objects: a compiled build checks a Card's type
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
        return _new_action(cls, mask)

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
                return _fill_singles(cls, mask)
        table = cls._singles
        if table is None or mask < 0 or mask >> 52:
            return _fill_singles(cls, mask)
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
        return _deck_singles(cls, deck)

    @classmethod
    def parse(cls, text: object) -> Self:
        """Read the text form, e.g. ``play 7♦``, ``steal 4s+4d``, ``take 9♠ K♦``.

        The verb is matched without regard to case; cards may be separated by ``+``,
        commas or spaces, in any order, written ``10♥``, ``10h`` or ``Th``. Anything but
        text gets the same error, in the compiled build too (hence ``object``).

        Raises:
            ValueError: naming the text when it is not such an action.
        """
        return _parsed(cls, text)

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


def _class_sizes(name: str, verb: str, sizes: Iterable[int], separator: str) -> tuple[int, ...]:
    """A :class:`CardAction` subclass's card counts, once its class keywords are checked.

    Raises:
        TypeError: naming the class and the keyword that is wrong.
    """
    if not verb or verb != verb.strip() or verb.lower() != verb:
        raise TypeError(f"{name}: verb must be lower-case text, not {verb!r}")
    allowed = tuple(sorted(set(sizes)))
    if not allowed or allowed[0] < 1:
        raise TypeError(f"{name}: sizes must be card counts of at least 1")
    if not separator or separator.strip() not in ("", "+", ","):
        raise TypeError(f"{name}: separator must be '+', ',' or a space")
    return allowed


def _parsed(cls: type[T], text: object) -> T:
    """:meth:`CardAction.parse`: the action a text names, or an error naming the text."""
    words = text.strip().split(maxsplit=1) if isinstance(text, str) else []
    if len(words) != 2 or words[0].lower() != cls.verb:
        raise ValueError(f"not a {cls.verb} action: {text!r} (try {cls.example()!r})")
    try:
        return cls(parse_cards(words[1]))
    except ValueError as e:
        raise ValueError(f"not a {cls.verb} action: {text!r}: {e}") from None


def _new_action(cls: type[T], mask: int) -> T:
    """:meth:`CardAction.from_mask` for a mask met for the first time: check, build, share."""
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
    action = _Shared.__new__(cls)
    object.__setattr__(action, "cards", tuple([_CARDS[c] for c in ids]))
    object.__setattr__(action, "mask", mask)
    return cls._shared.setdefault(mask, action)  # type: ignore[no-any-return]


def _fill_singles(cls: type[T], mask: int) -> tuple[T, ...]:
    """:meth:`CardAction.singles` for a mask its tables do not hold yet: check, fill, read."""
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


def _deck_singles(cls: type[T], deck: int) -> Callable[[int], tuple[T, ...]]:
    """:meth:`CardAction.singles_in`: its tables, built now, and the function reading them.

    Raises:
        ValueError: ``deck`` is not a card mask, or the class takes no single card.
    """
    if not 0 <= deck < _ALL:
        raise ValueError(f"{cls.verb}: not a card mask: {deck:#x}")
    cls.of(0)  # builds the table (or says the class takes no single card)
    table = cls._singles
    assert table is not None
    suits: list[tuple[int, int, tuple[tuple[T, ...], ...]]] = []
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

    def singles(mask: int) -> tuple[T, ...]:
        """The single-card action of each card of ``mask``, a mask of deck cards."""
        return (
            clubs[mask >> c & cw]
            + diamonds[mask >> d & dw]
            + hearts[mask >> h & hw]
            + spades[mask >> sp & sw]
        )

    return singles


@mypyc_attr(allow_interpreted_subclasses=True)
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

    @classmethod
    def __init_subclass__(cls, *, text: str, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if not text or text != " ".join(text.split()) or text.lower() != text:
            raise TypeError(
                f"{cls.__name__}: text must be lower-case words with single spaces, not {text!r}"
            )
        cls.text = text
        cls._one = _Shared.__new__(cls)
        _freeze(cls)

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
