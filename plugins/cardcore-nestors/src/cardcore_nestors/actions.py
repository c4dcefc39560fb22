"""Nestors' actions and their text form: ``bid 120``, ``pass``, ``play Q♥`` ...

The six verbs: ``bid 120``, ``pass``, ``trump J``, ``take 9♠ K♦``, ``play Q♥`` and
``leave 7♣``.

``Take``, ``Play`` and ``Leave`` are :class:`cardcore.CardAction` classes (one shared
instance per card set, text and parsing from the core) and ``Pass`` a
:class:`cardcore.WordAction` (one instance); ``Bid`` and ``Trump`` are small frozen
values, of which the rules share one instance each (``BIDS_FROM``, ``TRUMPS``).
"""

from __future__ import annotations

from typing import Final, final

import attrs

from cardcore import CardAction, Rank, WordAction, parse_card, parse_cards
from cardcore_nestors.options import MAX_BID

__all__ = [
    "BIDS_FROM",
    "PASS",
    "PASS_BIDS_FROM",
    "PASS_ONLY",
    "TRUMPS",
    "TRUMP_RANKS",
    "Bid",
    "Leave",
    "NestorsAction",
    "Pass",
    "Play",
    "Take",
    "Trump",
    "parse_action",
]


@final
@attrs.frozen
class Bid:
    """Bid for the contract: ``bid 120`` (NS-4.2)."""

    points: int
    """The points bid, a multiple of 5."""

    def __str__(self) -> str:
        return f"bid {self.points}"


@final
class Pass(WordAction, text="pass"):
    """Pass in the auction, for the rest of the hand: ``pass`` (NS-4.2)."""

    __slots__ = ()


@final
@attrs.frozen
class Trump:
    """Name the trump rank: ``trump J`` (NS-4.7)."""

    rank: Rank = attrs.field(converter=Rank)
    """A, J or 10."""

    def __str__(self) -> str:
        return f"trump {self.rank.label}"


@final
class Take(CardAction, verb="take", sizes=(2,), separator=" "):
    """Take two face-up row cards with the trump of trick 1: ``take 9♠ K♦`` (NS-4.11).

    ``Take((card, card))`` gives the one shared action for the pair; its ``cards`` are
    the two row cards, in card order.
    """

    __slots__ = ()


@final
class Play(CardAction, verb="play"):
    """Play a card to the trick: ``play Q♥`` (NS-4.11, NS-4.13, NS-4.16).

    ``Play(card)`` and ``Play.of(card_id)`` give the one shared play of that card.
    """

    __slots__ = ()


@final
class Leave(CardAction, verb="leave"):
    """As trick winner, leave this card face up as the carry card: ``leave 7♣`` (NS-4.15).

    ``Leave(card)`` and ``Leave.of(card_id)`` give the one shared action for that card.
    """

    __slots__ = ()


TRUMP_RANKS: Final = (14, 11, 10)
"""The ranks that can be named trump: A, J and 10 (NS-4.7)."""

NestorsAction = Bid | Pass | Trump | Take | Play | Leave
"""Any Nestors action."""

PASS: Final = Pass()
"""The shared ``pass``."""
TRUMPS: Final = {r: Trump(Rank(r)) for r in TRUMP_RANKS}
"""The shared ``trump`` action per trump rank (14, 11, 10)."""
_BIDS: Final = {b: Bid(b) for b in range(5, MAX_BID + 1, 5)}
PASS_ONLY: Final[tuple[NestorsAction, ...]] = (PASS,)
"""The legal actions of a player who may only pass."""
BIDS_FROM: Final[tuple[tuple[NestorsAction, ...], ...]] = tuple(
    tuple(_BIDS[b] for b in range(max(5, low - low % 5), MAX_BID + 1, 5))
    for low in range(MAX_BID + 6)
)
"""``BIDS_FROM[low]``: the shared bids from ``low`` (a multiple of 5) up to 190, in order."""
PASS_BIDS_FROM: Final[tuple[tuple[NestorsAction, ...], ...]] = tuple(
    (PASS, *bids) for bids in BIDS_FROM
)
"""``PASS_BIDS_FROM[low]``: ``pass``, then the bids of ``BIDS_FROM[low]``."""


def parse_action(text: str) -> NestorsAction:
    """Read an action: ``bid 120``, ``pass``, ``trump J``, ``take 9♠ K♦``, ``play Qh``.

    Raises:
        ValueError: naming the input when it is not a Nestors action.
    """
    words = text.strip().split(maxsplit=1)
    verb = words[0].lower() if words else ""
    rest = words[1].strip() if len(words) > 1 else ""
    try:
        if verb == "pass" and not rest:
            return PASS
        if verb == "bid":
            return Bid(int(rest))
        if verb == "trump":
            rank = {"a": 14, "j": 11, "10": 10, "t": 10}.get(rest.lower())
            if rank is None:
                raise ValueError("the trump rank is A, J or 10")
            return TRUMPS[rank]
        if verb == "take":
            cards = parse_cards(rest)
            if len(cards) != 2 or cards[0] == cards[1]:
                raise ValueError("take names two different cards")
            return Take(cards)
        if verb == "play":
            return Play.of(parse_card(rest).id)
        if verb == "leave":
            return Leave.of(parse_card(rest).id)
    except ValueError as e:
        raise ValueError(f"not a Nestors action: {text!r} ({e})") from None
    raise ValueError(
        f"not a Nestors action: {text!r} (try 'bid 120', 'pass', 'trump J', 'take 9♠ K♦', "
        "'play Q♥' or 'leave 7♣')"
    )
