"""Nyuri's actions, their text form and card values.

``lay 5♦ guard 9♦``, ``steal 4♠+4♦``, ``decline``, ``take back`` and ``swap``. Every
action is a shared instance (one per card set, one per target and bodyguard, one of each
word), so equality is identity and hashing is the object's own. A steal is a
:class:`cardcore.CardAction` and each word a :class:`cardcore.WordAction`; a lay names
its target and bodyguard in order, so it is a small class of its own with the same
properties.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final, Self, final

from cardcore import Card, CardAction, WordAction, parse_card, parse_cards

__all__ = [
    "Decline",
    "Lay",
    "NyuriAction",
    "Steal",
    "Swap",
    "TakeBack",
    "card_value",
    "parse_nyuri_action",
]

_CARD: Final[tuple[Card, ...]] = tuple(Card.of(c) for c in range(52))
_VALUE: Final[tuple[int, ...]] = tuple(c % 13 + 2 for c in range(52))
"""Per card id, its value (NY-2.1)."""
_SUIT_OF: Final[tuple[int, ...]] = tuple(c // 13 for c in range(52))
"""Per card id, its suit (0 ♣, 1 ♦, 2 ♥, 3 ♠)."""
_SUIT_VALUE: Final[tuple[int, ...]] = tuple(
    sum(r + 2 for r in range(13) if x >> r & 1) for x in range(8192)
)
"""Per 13-bit suit mask, the sum of its card values."""
_HIGHER_SAME_SUIT: Final[tuple[int, ...]] = tuple(
    ((1 << (c // 13 * 13 + 13)) - 1) & ~((1 << (c + 1)) - 1) for c in range(52)
)
"""Per card id, the cards of its suit with a higher rank (the bodyguards it may have)."""


def card_value(card: Card) -> int:
    """A card's value (NY-2.1): 2-10 as printed, J 11, Q 12, K 13, A 14."""
    return int(card.rank)


def _mask_value(m: int) -> int:
    """The sum of the card values in a card mask (NY-4.5)."""
    sv = _SUIT_VALUE
    return sv[m & 0x1FFF] + sv[(m >> 13) & 0x1FFF] + sv[(m >> 26) & 0x1FFF] + sv[m >> 39]


def _high_first(c: int) -> tuple[int, int]:
    """Order of a steal's cards: highest value first, then ♠ ♥ ♦ ♣."""
    return (-_VALUE[c], -_SUIT_OF[c])


@final
class Lay:
    """The layer puts a target face up, maybe guarded (NY-4.2): ``lay 5♦ guard 9♦``.

    There is one instance per target and bodyguard, so ``==`` is ``is``. Any two
    different cards make a lay; whether the bodyguard may guard the target is for the
    rules to say.

    Args:
        card: the target.
        guard: the bodyguard, or ``None`` for an unguarded lay.

    Attributes:
        card: the target.
        guard: the bodyguard on top of it: same suit, higher rank; ``None`` when unguarded.
        value: the target value T (NY-4.2): the card's value plus the bodyguard's.
    """

    __slots__ = ("card", "guard", "value")

    card: Card
    guard: Card | None
    value: int

    def __new__(cls, card: Card, guard: Card | None = None) -> Lay:
        """The shared lay of ``card`` guarded by ``guard``.

        Raises:
            TypeError: the target or the bodyguard is not a card.
        """
        if not isinstance(card, Card) or not (guard is None or isinstance(guard, Card)):
            raise TypeError(
                f"a lay takes a card and an optional bodyguard, not {card!r}, {guard!r}"
            )
        return _LAYS[card.id * 53 + (52 if guard is None else guard.id)]

    @classmethod
    def of(cls, card_id: int, guard_id: int = -1) -> Lay:
        """The lay of a card id (0..51), guarded by ``guard_id`` (``-1``: unguarded)."""
        return _LAYS[card_id * 53 + (guard_id if guard_id >= 0 else 52)]

    def __str__(self) -> str:
        if self.guard is None:
            return f"lay {self.card}"
        return f"lay {self.card} guard {self.guard}"

    def __repr__(self) -> str:
        return f"Lay({self})"

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Lay actions are frozen")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Lay actions are frozen")

    def __reduce__(self) -> tuple[type[Lay], tuple[Card, Card | None]]:
        return (Lay, (self.card, self.guard))

    def __copy__(self) -> Self:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        return self


def _make_lay(c: int, g: int) -> Lay:
    lay = object.__new__(Lay)
    set_field = object.__setattr__
    set_field(lay, "card", _CARD[c])
    set_field(lay, "guard", _CARD[g] if g < 52 else None)
    set_field(lay, "value", _VALUE[c] + (_VALUE[g] if g < 52 else 0))
    return lay


_LAYS: Final[tuple[Lay, ...]] = tuple(_make_lay(c, g) for c in range(52) for g in range(53))
"""``_LAYS[53 * card + guard]``: every lay (guard 52: unguarded)."""


@final
class Steal(CardAction, verb="steal", sizes=range(1, 53), key=_high_first):
    """An offer of hand cards to steal the target (NY-4.3): ``steal 4♠+4♦``.

    A :class:`cardcore.CardAction`: one instance per set of cards, made with
    ``Steal(cards)``, ``Steal.from_mask(mask)`` or ``Steal.of(card_id)``; the cards are
    kept highest first (then ♠ ♥ ♦ ♣) whatever order they were given in. Any number of
    cards makes a steal; only one to three may be legal (NY-4.4).

    Raises:
        ValueError: no cards, or a card given twice.
    """

    __slots__ = ()

    def __new__(cls, cards: Card | Iterable[Card]) -> Self:
        """The shared steal of one card or a collection of distinct cards."""
        if not isinstance(cards, Card):
            cards = tuple(cards)
            if not cards:
                raise ValueError("a steal needs at least one card")
        return super().__new__(cls, cards)

    @property
    def value(self) -> int:
        """The offer value: the sum of the card values (NY-4.5)."""
        return _mask_value(self.mask)


@final
class Decline(WordAction, text="decline"):
    """Make no offer this turn (NY-4.3): ``decline``."""

    __slots__ = ()


@final
class TakeBack(WordAction, text="take back"):
    """Nobody offered: the layer takes the target (and bodyguard) back (NY-4.7a)."""

    __slots__ = ()


@final
class Swap(WordAction, text="swap"):
    """Nobody offered: the target goes under the stock and the layer draws (NY-4.7b)."""

    __slots__ = ()


NyuriAction = Lay | Steal | Decline | TakeBack | Swap
"""Any Nyuri action."""

_HELP: Final = "try 'lay 7♥', 'lay 5♦ guard 9♦', 'steal 4♠+4♦', 'decline', 'take back' or 'swap'"


def parse_nyuri_action(text: str) -> NyuriAction:
    """Read one Nyuri action from its text form (the inverse of ``str(action)``).

    Forms: ``lay 7♥``, ``lay 5d guard 9d``, ``steal 4s+4d`` (or ``offer 4s 4d``),
    ``decline``, ``take back``, ``swap``; cards as ``10♥``, ``10h`` or ``Th``.

    Raises:
        ValueError: naming the input when it is not a Nyuri action.
    """
    if not isinstance(text, str):
        raise ValueError(f"not a Nyuri action: {text!r} ({_HELP})")
    words = text.strip().split()
    head = words[0].lower() if words else ""
    rest = words[1:]
    try:
        if head == "lay" and len(rest) == 1:
            return Lay(parse_card(rest[0]))
        if head == "lay" and len(rest) == 3 and rest[1].lower() == "guard":
            c, g = parse_card(rest[0]), parse_card(rest[2])
            if c == g:
                raise ValueError("a card cannot guard itself")
            return Lay(c, g)
        if head in ("steal", "offer") and rest:
            return Steal(parse_cards(" ".join(rest)))
        low = " ".join(w.lower() for w in words)
        if low == "decline":
            return Decline()
        if low in ("take back", "take_back", "takeback"):
            return TakeBack()
        if low == "swap":
            return Swap()
    except ValueError as e:
        raise ValueError(f"not a Nyuri action: {text!r}: {e}") from None
    raise ValueError(f"not a Nyuri action: {text!r} ({_HELP})")
