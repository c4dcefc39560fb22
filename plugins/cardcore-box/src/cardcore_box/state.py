"""Box's state, table layout and zones, the round records and the observation (BX-2, BX-8).

Cards are ids (``suit * 13 + rank - 2``) and card sets are ``int`` bitmasks; the
state's table (:class:`cardcore.CardTable`) holds every card and who knows it.
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
from cardcore_box.actions import BoxAction, Play, TurnUp, parse_box_action
from cardcore_box.options import NUM_PLAYERS

__all__ = [
    "BOX",
    "DISCARD",
    "DRAW",
    "EXTRA",
    "HAND",
    "TABLE",
    "BoxObservation",
    "BoxState",
    "Ending",
    "RoundResult",
    "advance",
    "layout",
    "new_observation",
    "new_round",
    "new_state",
]

# ---- zones (BX-2.2) -------------------------------------------------------------------

DRAW: Final = 0
"""Zone index of the draw pile (hidden, ordered; the top is the last position)."""
HAND: Final = 1
"""Zone index of seat 0's hand; seat ``s`` uses ``HAND + s`` (seen by its owner)."""
BOX: Final = 5
"""Zone index of seat 0's box; seat ``s`` uses ``BOX + s`` (hidden from everyone)."""
EXTRA: Final = 9
"""Zone index of seat 0's extra pile; seat ``s`` uses ``EXTRA + s`` (public)."""
TABLE: Final = 13
"""Zone index of the cards played in the current round, in order (public)."""
DISCARD: Final = 14
"""Zone index of the discard (face down: played cards enter it face up, seen by all;
an eliminated player's hand enters it unseen, BX-5.3)."""


def _make_layout() -> Layout:
    zones = [Zone("draw", Visibility.HIDDEN, ordered=True)]
    zones += [Zone(f"hand{s}", Visibility.OWNER, owner=s) for s in range(NUM_PLAYERS)]
    zones += [Zone(f"box{s}", Visibility.HIDDEN, owner=s) for s in range(NUM_PLAYERS)]
    zones += [Zone(f"extra{s}", Visibility.PUBLIC, owner=s) for s in range(NUM_PLAYERS)]
    zones += [
        Zone("table", Visibility.PUBLIC, ordered=True),
        Zone("discard", Visibility.HIDDEN),
    ]
    return Layout(tuple(zones), NUM_PLAYERS, (1 << 52) - 1)


_LAYOUT: Final = _make_layout()


def layout(num_players: int = NUM_PLAYERS) -> Layout:
    """The table layout of Box (only four seats exist).

    Raises:
        ValueError: for any other number of seats.
    """
    if num_players != NUM_PLAYERS:
        raise ValueError(f"box is played by exactly 4 players, not {num_players}")
    return _LAYOUT


# ---- public records ------------------------------------------------------------------


class Ending(enum.Enum):
    """How a round ended (BX-4.6)."""

    FAILED_DRAW = "failed draw"
    """A stuck player turned up a box card that was too high (BX-4.6a)."""
    EMPTY_BOX = "empty box"
    """A stuck player had no box card left to turn up (BX-4.6b)."""


@final
@attrs.frozen
class RoundResult:
    """What every player saw at the end of a round (all public, BX-8.1)."""

    number: int
    """The round's number (1 for the first)."""
    winner: int
    """The seat that played the last card on the table and won the round (BX-4.6)."""
    ending: Ending
    """Why the round ended."""
    stuck: int
    """The seat that was stuck and ended the round."""
    turned_up: Card | None
    """The box card turned up too high, now in the winner's extra pile (failed draw)."""
    cards: tuple[Card, ...]
    """The round's table cards in order of play; they went to the discard (BX-5.1)."""
    played_by: tuple[int, ...]
    """Who played each of ``cards``."""
    from_box: tuple[bool, ...]
    """Whether each of ``cards`` was a box card (a successful box play)."""
    hand_draws: tuple[int, ...]
    """Per seat, how many cards it drew into its hand (BX-5.2a)."""
    box_draws: tuple[int, ...]
    """Per seat, how many cards it drew face down into its box (BX-5.2b)."""
    eliminated: tuple[int, ...]
    """The seats that were eliminated after the refill (BX-5.3)."""


# ---- the state -----------------------------------------------------------------------


@final
@attrs.frozen
class BoxState:
    """A full Box state: every card (in ``table``) and the RNG. Never shown to bots.

    Every other field is a public fact (BX-8.1).
    """

    table: CardTable
    """Every card, with who knows where it is."""
    rng: int
    """The state's RNG state (box turn-ups); hidden from every observation."""
    dealer: int
    """The dealer seat (BX-3.1)."""
    round: int
    """The current round's number, from 1."""
    leader: int
    """The seat that led (or is to lead) the current round (BX-4.1)."""
    current: int | None
    """The seat to decide, or ``None`` when the game is over."""
    direction: int
    """``1`` clockwise, ``-1`` anticlockwise (BX-4.2, BX-4.5)."""
    active: int
    """Mask of the seats still in the game."""
    out: tuple[int, ...]
    """Per seat, the round in which it was eliminated, ``0`` while it is in (BX-5.3)."""
    played_by: tuple[int, ...]
    """Who played each card on the table, in order (BX-8.1)."""
    from_box: tuple[bool, ...]
    """Whether each card on the table came from its player's box (BX-8.1)."""
    rounds: tuple[RoundResult, ...]
    """Every finished round, oldest first (BX-8.1): a game has at most 52 decisions, so
    this stays short, and a seat that did not decide for some rounds still learns them."""

    @property
    def last_round(self) -> RoundResult | None:
        """How the previous round ended, or ``None`` in round 1."""
        return self.rounds[-1] if self.rounds else None


# ---- the observation -----------------------------------------------------------------


@final
@attrs.frozen
class BoxObservation:
    """What one seat may know (BX-8): its own hand, every public card and fact.

    It never holds a box card that has not been turned up, the draw pile order, another
    seat's hand or legal actions, or the RNG (BX-8.3, BX-8.4).
    """

    seat: int
    """The observing seat (``-1``: an onlooker)."""
    num_players: int
    """Always 4."""
    dealer: int
    """The dealer seat."""
    round: int
    """The current round's number."""
    leader: int
    """Who led (or leads) the current round."""
    current_player: int | None
    """Whose turn it is, or ``None`` when the game is over."""
    direction: int
    """``1`` clockwise, ``-1`` anticlockwise."""
    out: tuple[int, ...]
    """Per seat, the round it was eliminated in, ``0`` while it is in."""
    played_by: tuple[int, ...]
    """Who played each card on the table."""
    from_box: tuple[bool, ...]
    """Whether each table card was a box card."""
    rounds: tuple[RoundResult, ...]
    """Every finished round, oldest first: all the plays, outcomes, draws and
    eliminations a seat may have missed between its decisions (BX-8.1)."""
    table: TableView
    """The cards as this seat knows them (sizes of every zone are public)."""
    legal_actions: tuple[BoxAction, ...]
    """This seat's legal actions when it is to move, else ``()``."""

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data."""
        return CODEC.encode(self)  # type: ignore[no-any-return]

    @property
    def last_round(self) -> RoundResult | None:
        """How the previous round ended, or ``None`` in round 1."""
        return self.rounds[-1] if self.rounds else None

    def box_plays(self, seat: int) -> int:
        """The successful box plays of ``seat`` in the current round."""
        return sum(1 for s, b in zip(self.played_by, self.from_box, strict=True) if b and s == seat)


CODEC: Final = JsonCodec((Play, TurnUp), parse_box_action, layout)
"""Encodes observations as JSON data and reads them back."""

# The rules make a state on every decision and an observation on every look: the
# builders give the very same frozen records as the attrs constructors, taking every
# field positionally, in declaration order.
new_state: Final = record_builder(BoxState)
"""``BoxState(...)`` with every field positionally, in declaration order."""
advance: Final = record_updater(
    BoxState, ("table", "rng", "current", "direction", "played_by", "from_box")
)
"""A play within a round: ``advance(state, table, rng, current, direction, played_by,
from_box)`` is the state with those fields changed (the others copied)."""
new_round: Final = record_builder(RoundResult)
"""``RoundResult(...)`` with every field positionally, in declaration order."""
new_observation: Final = record_builder(BoxObservation)
"""``BoxObservation(...)`` with every field positionally, in declaration order."""
