"""Noddy's state: the public events, the table's zones, the full state and what a seat sees.

The cut, the shuffle and the deal are in :mod:`cardcore_noddy.deal`, the card values in
:mod:`cardcore_noddy.scoring`.
"""

from __future__ import annotations

import enum
from typing import Any, Final, final

import attrs

from cardcore import (
    Card,
    CardTable,
    JsonCodec,
    Layout,
    TableView,
    Visibility,
    Zone,
    record_builder,
)
from cardcore._records import record_updater
from cardcore_noddy.actions import NoddyAction, Pass, Play, ShowKnave, parse_action
from cardcore_noddy.options import NoddyOptions

__all__ = [
    "HANDS",
    "LAYOUT",
    "MAX_TOTAL",
    "PILE",
    "STOCK",
    "TURNUP",
    "Cut",
    "Deal",
    "Event",
    "Go",
    "KnavePassed",
    "KnaveShown",
    "LastCard",
    "NoddyObservation",
    "NoddyState",
    "Phase",
    "Played",
    "Shown",
    "TurnupJack",
    "Won",
    "new_observation",
    "new_played",
    "new_shown",
    "new_state",
    "play_on",
]

# ---- public events ---------------------------------------------------------------------


@final
@attrs.frozen
class Cut:
    """The cut for the first dealer (ND-3.1): one card drawn by each seat, shown to both."""

    cards: tuple[Card, Card]
    """Seat 0's card, seat 1's card; the lower sequence rank deals, equal ranks cut again."""


@final
@attrs.frozen
class Deal:
    """A new hand is dealt and its turn-up turned (ND-3.3)."""

    hand: int
    """The hand's number, from 1."""
    dealer: int
    """The dealer of this hand."""
    turnup: Card
    """The turn-up; its suit is trumps."""


@final
@attrs.frozen
class TurnupJack:
    """A turned-up jack scores for one player (ND-4.1)."""

    seat: int
    """Who scores."""
    points: int
    """The award."""
    score: int
    """The seat's score after it."""


@final
@attrs.frozen
class KnaveShown:
    """A player shows the jack of trumps in step 2 and scores 1 (ND-4.2)."""

    seat: int
    """Who showed it."""
    card: Card
    """The knave; it stays in the holder's hand, known to both, until played."""
    points: int
    """The award (1)."""
    score: int
    """The seat's score after it."""


@final
@attrs.frozen
class KnavePassed:
    """A player passes in step 2 (ND-4.2); a forced pass looks the same (ND-8.4)."""

    seat: int
    """Who passed."""


@final
@attrs.frozen
class Shown:
    """A player's show is counted (ND-4.3): its total and breakdown, never its cards."""

    seat: int
    """Whose show."""
    points: int
    """The show's total."""
    parts: tuple[tuple[str, int], ...]
    """The points by combination type, e.g. ``(("fifteens", 4), ("flush", 3))``."""
    score: int
    """The seat's score after it."""


@final
@attrs.frozen(weakref_slot=False)
class Played:
    """A card is played to the pile (ND-4.4) and scores at once (ND-6.3)."""

    seat: int
    """Who played it."""
    card: Card
    """The card."""
    total: int
    """The running total after it."""
    points: int
    """What it scored (0 if nothing)."""
    parts: tuple[tuple[str, int], ...]
    """The points by combination type."""
    score: int
    """The seat's score after it."""


@final
@attrs.frozen
class Go:
    """A player has no playable card and passes for the rest of the hand (ND-4.4)."""

    seat: int
    """Who went."""
    total: int
    """The running total at that moment."""


@final
@attrs.frozen
class LastCard:
    """The player of the last card scores 1 when the play ends (ND-4.4)."""

    seat: int
    """Who scores."""
    points: int
    """The award (1)."""
    score: int
    """The seat's score after it."""


@final
@attrs.frozen
class Won:
    """A player reached the target and won at once (ND-5.2)."""

    seat: int
    """The winner."""
    score: int
    """The winner's final score."""


Event = Cut | Deal | TurnupJack | KnaveShown | KnavePassed | Shown | Played | Go | LastCard | Won
"""Any public event."""


# ---- state and observation -------------------------------------------------------------


class Phase(enum.Enum):
    """Where the game stands."""

    KNAVE = "knave"
    """Step 2: the non-dealer, then the dealer, choose ``show knave`` or ``pass``."""
    PLAY = "play"
    """Step 4: the play."""
    OVER = "over"
    """Someone reached the target."""


@final
@attrs.frozen(weakref_slot=False)
class NoddyState:
    """A full state; never shown to bots. Every field but ``table`` and ``rng`` is public."""

    table: CardTable
    """Every card: stock, both hands, the turn-up, the play pile."""
    rng: int
    """The RNG state for the next shuffle (hidden)."""
    dealer: int
    """The dealer of the current hand."""
    scores: tuple[int, ...]
    """Both scores."""
    phase: Phase
    """The current step."""
    current: int | None
    """The seat to decide, or ``None`` when the game is over."""
    total: int
    """The running total of the play."""
    gone: tuple[bool, ...]
    """Per seat, whether it went (passed for lack of a playable card) in this hand."""
    hand: int
    """The current hand's number, from 1."""
    events: tuple[Event, ...]
    """Every public event of the game, oldest first."""


@final
@attrs.frozen
class NoddyObservation:
    """What one seat knows (ND-8): its cards, public cards, scores and public events."""

    seat: int
    """The observing seat (``-1``: an onlooker)."""
    num_players: int
    """Always 2."""
    current_player: int | None
    """Whose decision it is, or ``None`` when the game is over."""
    table: TableView
    """The cards as this seat knows them: own hand, turn-up, pile, hand sizes."""
    legal_actions: tuple[NoddyAction, ...]
    """This seat's legal actions when it is to move, else ``()``."""
    options: NoddyOptions
    """The rules in force (public, ND-8.1)."""
    dealer: int
    """The dealer of the current hand."""
    scores: tuple[int, ...]
    """Both scores."""
    phase: Phase
    """The current step."""
    total: int
    """The running total of the play."""
    gone: tuple[bool, ...]
    """Per seat, whether it went in this hand."""
    hand: int
    """The current hand's number, from 1."""
    events: tuple[Event, ...]
    """Every public event of the game, oldest first."""

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data."""
        return _CODEC.encode(self)  # type: ignore[no-any-return]

    @property
    def turnup(self) -> Card | None:
        """The turn-up of the current hand (trumps), once turned."""
        cards = self.table.cards(TURNUP)
        return cards[0] if cards else None

    @property
    def my_hand(self) -> tuple[Card, ...]:
        """The observing seat's own cards (empty for an onlooker)."""
        if not 0 <= self.seat < self.num_players:
            return ()
        return self.table.cards(HANDS[self.seat])

    @property
    def pile(self) -> tuple[Card, ...]:
        """The play pile of the current hand, oldest card first."""
        return self.table.cards(PILE)


# ---- layout ----------------------------------------------------------------------------
STOCK: Final = 0
HANDS: Final = (1, 2)
TURNUP: Final = 3
PILE: Final = 4


def _layout() -> Layout:
    return Layout(
        (
            Zone("stock", Visibility.HIDDEN),
            Zone("hand0", Visibility.OWNER, owner=0),
            Zone("hand1", Visibility.OWNER, owner=1),
            Zone("turnup", Visibility.PUBLIC),
            Zone("pile", Visibility.PUBLIC, ordered=True),
        ),
        2,
        (1 << 52) - 1,
    )


LAYOUT: Final = _layout()
"""The zones of a Noddy table (2 seats, 52 cards)."""
_DECK: Final = LAYOUT.deck

MAX_TOTAL: Final = 31
"""The running total of the play never passes 31 (ND-4.4, ND-9.2)."""


def _layout_for(n: int) -> Layout:
    if n != 2:
        raise ValueError(f"noddy is for 2 players, not {n}")
    return LAYOUT


_CODEC: Final = JsonCodec((Play, ShowKnave, Pass), parse_action, _layout_for)


# ---- records built fast ----------------------------------------------------------------

# ``cardcore.record_builder``: the very same frozen records as the attrs constructors, at a
# fraction of the cost, for the records made on every move; fields positionally.
new_state: Final = record_builder(NoddyState)
play_on: Final = record_updater(
    NoddyState, ("table", "scores", "current", "total", "gone", "events")
)
"""A play that the play goes on after: ``play_on(state, table, scores, current, total,
gone, events)`` is the state with those fields changed (RNG, dealer, phase and hand
copied)."""
new_played: Final = record_builder(Played)
new_shown: Final = record_builder(Shown)
new_observation: Final = record_builder(NoddyObservation)
"""``NoddyObservation(...)`` with every field positionally, in declaration order."""
