"""Nyuri's state, card-table layout and zones, and what one seat observes.

Cards live in the cardcore card table in these zones (per player count):

* ``stock``: face down, ordered (NY-2.4); a swapped card goes to its bottom in view of all;
* ``hand0`` .. ``hand<N-1>``: each seen by its owner only;
* ``pile0`` .. ``pile<N-1>``: the capture piles, face up;
* ``target``, ``guard`` and ``offer0`` .. ``offer<N-1>``: the spec's *table* (the laid
  target, its bodyguard and each player's offer of the current turn), face up.

Inside, a card is an id (``suit * 13 + rank - 2``) and a set of cards an ``int`` mask.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import Any, Final, final

import attrs

from cardcore import (
    SPECTATOR,
    Card,
    CardTable,
    JsonCodec,
    Layout,
    TableView,
    Visibility,
    Zone,
    record_builder,
)
from cardcore_nyuri.actions import (
    Decline,
    Lay,
    NyuriAction,
    Steal,
    Swap,
    TakeBack,
    card_value,
    parse_nyuri_action,
)

__all__ = [
    "NyuriObservation",
    "NyuriState",
    "NyuriZones",
    "Phase",
    "TurnRecord",
    "new_observation",
    "nyuri_layout",
]


class Phase(enum.Enum):
    """Where the current turn stands."""

    LAY = "lay"
    """The layer must lay (NY-4.2)."""
    OFFER = "offer"
    """The other players offer or decline, one at a time (NY-4.3)."""
    RETURN = "return"
    """Nobody offered: the layer takes back or swaps (NY-4.7)."""
    OVER = "over"
    """The game has ended (section 5)."""


# ---- zones -------------------------------------------------------------------------


@final
@attrs.frozen
class NyuriZones:
    """Zone indexes of the card table for one player count."""

    num_players: int
    """Number of seats."""

    @property
    def stock(self) -> int:
        """The stock."""
        return 0

    def hand(self, seat: int) -> int:
        """A seat's hand."""
        return 1 + seat

    def pile(self, seat: int) -> int:
        """A seat's capture pile."""
        return 1 + self.num_players + seat

    @property
    def target(self) -> int:
        """The laid target."""
        return 1 + 2 * self.num_players

    @property
    def guard(self) -> int:
        """The bodyguard."""
        return 2 + 2 * self.num_players

    def offer(self, seat: int) -> int:
        """A seat's offer of the current turn."""
        return 3 + 2 * self.num_players + seat


def _make_layout(n: int) -> Layout:
    zones = [Zone("stock", Visibility.HIDDEN, ordered=True)]
    zones += [Zone(f"hand{i}", Visibility.OWNER, owner=i) for i in range(n)]
    zones += [Zone(f"pile{i}", Visibility.PUBLIC, owner=i) for i in range(n)]
    zones += [Zone("target", Visibility.PUBLIC), Zone("guard", Visibility.PUBLIC)]
    zones += [Zone(f"offer{i}", Visibility.PUBLIC, owner=i) for i in range(n)]
    return Layout(tuple(zones), n, (1 << 52) - 1)


_LAYOUTS: Final = {n: _make_layout(n) for n in (2, 3, 4)}
_ZONES: Final = {n: NyuriZones(n) for n in (2, 3, 4)}


def nyuri_layout(num_players: int) -> Layout:
    """The card-table layout for 2, 3 or 4 players (shared, immutable).

    Raises:
        ValueError: for another player count.
    """
    try:
        return _LAYOUTS[num_players]
    except KeyError:
        raise ValueError(f"Nyuri is for 2, 3 or 4 players, not {num_players!r}") from None


def nyuri_zones(num_players: int) -> NyuriZones:
    """The zone indexes for 2, 3 or 4 players.

    Raises:
        ValueError: for another player count.
    """
    nyuri_layout(num_players)
    return _ZONES[num_players]


# ---- public records and the state ----------------------------------------------------


@final
@attrs.frozen
class TurnRecord:
    """The public account of the latest resolved turn (everything in it is public, NY-8.1).

    It is written when the offers are resolved; when nobody offered, ``returned`` is
    filled in once the layer has taken back or swapped. Built on every resolution, so
    built positionally (not keyword-only), by :data:`new_record`.
    """

    turn: int
    """The turn's number (1 for the first turn)."""
    layer: int
    """Who laid."""
    target: Card
    """The target laid."""
    guard: Card | None
    """Its bodyguard, if any."""
    offers: tuple[tuple[Card, ...], ...]
    """Per seat, the cards it offered; ``()`` for a decline and for the layer."""
    winner: int | None
    """Who stole the target, or ``None`` when nobody offered."""
    penalty: bool
    """Whether the layer took a random penalty card from the winner (NY-4.5)."""
    drew: tuple[int, ...]
    """The seats that drew a card from the stock, in order (NY-4.6)."""
    returned: str
    """After no offer: ``"take back"`` or ``"swap"``; ``""`` otherwise or while pending."""


@final
@attrs.frozen
class NyuriState:
    """A complete Nyuri state, never shown to bots.

    Every field but the table and the RNG is a public fact. Rebuilt on every move, so
    built positionally (not keyword-only), by :data:`new_state`.
    """

    table: CardTable
    """Every card and who knows where it is."""
    rng: int
    """The RNG state for shuffles and penalty draws."""
    dealer: int
    """The dealer seat."""
    phase: Phase
    """Where the current turn stands."""
    layer: int
    """The layer of the current (or last) turn."""
    current: int | None
    """The seat to decide, ``None`` once the game is over."""
    turn: int
    """The current turn's number, from 1; at the end, the number of turns played."""
    dead_turns: int
    """Consecutive dead turns so far (NY-5.3b), updated when a turn's offers resolve."""
    last: TurnRecord | None
    """The latest resolved turn, ``None`` before the first resolution."""
    end_reason: str
    """Why the game ended, ``""`` while it goes on."""


# ``cardcore.record_builder``: the very same frozen records as the attrs constructors, at a
# fraction of the cost, for the records made on every move; fields positionally.
new_state: Final = record_builder(NyuriState)
"""``NyuriState(table, rng, dealer, phase, layer, current, turn, dead_turns, last,
end_reason)``, faster."""
new_record: Final = record_builder(TurnRecord)
"""``TurnRecord(turn, layer, target, guard, offers, winner, penalty, drew, returned)``,
faster."""


# ---- the observation -----------------------------------------------------------------


@final
@attrs.frozen
class NyuriObservation:
    """What one seat knows: its hand, everything face up, counts, and the latest turn.

    Built on every observation, so built positionally (not keyword-only), by
    :data:`new_observation`.
    """

    seat: int
    """The observing seat (``-1``: an onlooker)."""
    num_players: int
    """Number of seats."""
    dealer: int
    """The dealer seat."""
    phase: Phase
    """Where the current turn stands."""
    layer: int
    """The layer of the current (or last) turn."""
    current_player: int | None
    """The seat to decide, ``None`` once the game is over."""
    turn: int
    """The current turn's number."""
    dead_turns: int
    """Consecutive dead turns so far (NY-5.3b)."""
    last: TurnRecord | None
    """The latest resolved turn."""
    end_reason: str
    """Why the game ended, ``""`` while it goes on."""
    counts: tuple[int, ...]
    """Each player's count so far (NY-6.1): pile sizes, or hand sizes with ``capture=hand``."""
    table: TableView
    """The cards as this seat knows them."""
    legal_actions: Sequence[NyuriAction]
    """This seat's legal actions when it is to decide, else ``()``: a tuple, or for an
    offer a lazy sequence (:class:`cardcore.LazyActions`) that builds a steal when read."""

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data."""
        return _CODEC.encode(self)  # type: ignore[no-any-return]

    @property
    def zones(self) -> NyuriZones:
        """The zone indexes for this player count."""
        return _ZONES[self.num_players]

    @property
    def hand(self) -> tuple[Card, ...]:
        """The observing seat's own hand (empty for an onlooker)."""
        if self.seat == SPECTATOR:
            return ()
        return self.table.cards(1 + self.seat)

    @property
    def target(self) -> Card | None:
        """The target on the table, if one is laid."""
        cards = self.table.cards(_ZONES[self.num_players].target)
        return cards[0] if cards else None

    @property
    def guard(self) -> Card | None:
        """The bodyguard on the table, if any."""
        cards = self.table.cards(_ZONES[self.num_players].guard)
        return cards[0] if cards else None

    @property
    def target_value(self) -> int:
        """The target value T (NY-4.2), 0 when nothing is laid."""
        t, g = self.target, self.guard
        return (card_value(t) if t else 0) + (card_value(g) if g else 0)

    @property
    def offers(self) -> tuple[tuple[Card, ...], ...]:
        """Per seat, the cards it has offered this turn (``()`` if none)."""
        z = _ZONES[self.num_players]
        return tuple(
            Steal.from_mask(m).cards if (m := self.table.mask(z.offer(s))) else ()
            for s in range(self.num_players)
        )


new_observation: Final = record_builder(NyuriObservation)
"""``NyuriObservation(seat, num_players, dealer, phase, layer, current_player, turn,
dead_turns, last, end_reason, counts, table, legal_actions)``, faster."""

_CODEC: Final = JsonCodec((Lay, Steal, Decline, TakeBack, Swap), parse_nyuri_action, nyuri_layout)
