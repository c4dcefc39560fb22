"""Nestors' state, table layout and zones, the public records and the observation.

Every card lives in the state's table (:class:`cardcore.CardTable`, zones below); the
state's other fields are public facts that every seat may know. The records are rebuilt
on most moves, so the module also gives positional builders (``new_state`` ...) made by
:func:`cardcore.record_builder`: the very instances the attrs constructors make, faster.
"""

from __future__ import annotations

import enum
from typing import Any, Final, final

import attrs

from cardcore import (
    DECK_36,
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
from cardcore_nestors.actions import (
    Bid,
    Leave,
    NestorsAction,
    Pass,
    Play,
    Take,
    Trump,
    parse_action,
)

__all__ = [
    "DECK",
    "DECK_IDS",
    "EMPTY_ORDERS",
    "HAND",
    "HOLE",
    "LAYOUT",
    "NO_PLAY",
    "NUM_ZONES",
    "PH_AUCTION",
    "PH_LEAD",
    "PH_LEAVE",
    "PH_OVER",
    "PH_PLAY",
    "PH_TAKE",
    "PH_TRUMP",
    "ROW",
    "STOCK",
    "TRICK",
    "WON",
    "DealInfo",
    "HandResult",
    "MatchInfo",
    "NestorsObservation",
    "NestorsState",
    "Phase",
    "PlayInfo",
    "TrickRecord",
    "new_deal",
    "new_observation",
    "new_play",
    "new_state",
    "new_trick",
]

# ---- layout ------------------------------------------------------------------------

DECK_IDS: Final = tuple(c.id for c in DECK_36)
"""The ids of the 36 cards (6 to ace), in id order (the order a deck is shuffled from)."""
DECK: Final = sum(1 << c for c in DECK_IDS)
"""The 36 cards as a mask."""

STOCK: Final = 0
"""Zone: the face-down deck (the 12 undealt cards after the first deal)."""
HOLE: Final = 1
"""Zone: the face-down hole card."""
ROW: Final = 2
"""Zone: the face-up row (3 cards), later the single carry card."""
HAND: Final = 3
"""Zone of seat ``s``'s hand: ``HAND + s``."""
TRICK: Final = 7
"""Zone: the cards of the current trick, in playing order."""
WON: Final = 8
"""Zone of team ``t``'s won tricks: ``WON + t``."""


def _layout() -> Layout:
    zones = [
        Zone("stock", Visibility.HIDDEN, ordered=True),
        Zone("hole", Visibility.HIDDEN),
        Zone("row", Visibility.PUBLIC),
    ]
    zones += [Zone(f"hand{i}", Visibility.OWNER, owner=i) for i in range(4)]
    zones += [
        Zone("trick", Visibility.PUBLIC, ordered=True),
        Zone("won0", Visibility.PUBLIC),
        Zone("won1", Visibility.PUBLIC),
    ]
    return Layout(tuple(zones), 4, DECK)


LAYOUT: Final = _layout()
"""The one layout (Nestors is for 4 players only)."""
NUM_ZONES: Final = len(LAYOUT.zones)
"""How many zones the table has."""
EMPTY_ORDERS: Final[tuple[tuple[int, ...], ...]] = ((),) * NUM_ZONES
"""The zone orders of a table whose ordered zones (stock, trick) are empty."""


# ---- records -----------------------------------------------------------------------


class Phase(enum.Enum):
    """What the current decision is about."""

    AUCTION = "auction"
    """Bidding (NS-4.1 to NS-4.5)."""
    TRUMP = "trump"
    """The bidder names the trump rank (NS-4.7)."""
    LEAD = "lead"
    """Trick 1: the bidder plays a trump (NS-4.11)."""
    TAKE = "take"
    """Trick 1: the bidder takes two face-up row cards (NS-4.11)."""
    PLAY = "play"
    """Tricks 2 to 12: a card is played (NS-4.13, NS-4.16)."""
    LEAVE = "leave"
    """The trick winner leaves the carry card (NS-4.15)."""
    OVER = "over"
    """The game is over."""


# The phases as plain module constants, for the moves: CPython reads a member from the
# enum class (``Phase.PLAY``) through the enum type's ``__getattr__`` hook, about ten
# times slower than a global, and the rules compare the phase on every move.
PH_AUCTION: Final = Phase.AUCTION
PH_TRUMP: Final = Phase.TRUMP
PH_LEAD: Final = Phase.LEAD
PH_TAKE: Final = Phase.TAKE
PH_PLAY: Final = Phase.PLAY
PH_LEAVE: Final = Phase.LEAVE
PH_OVER: Final = Phase.OVER


@final
@attrs.frozen
class TrickRecord:
    """A finished trick, as every seat saw it (built positionally: one per trick)."""

    number: int
    """1 to 12."""
    leader: int
    """The seat that played the first card (the bidder for tricks 1 and 12)."""
    cards: tuple[Card, ...]
    """The played cards in order (trick 1: the trump, then the two row cards taken)."""
    carry: Card
    """The carry card that lay on the table during the trick (trick 1: the unused row card)."""
    winner: int
    """The seat that won it."""
    left: Card | None
    """The card left as the new carry card (``None`` after trick 12)."""


@final
@attrs.frozen(kw_only=True)
class HandResult:
    """How a deal ended: scored (NS-6.1 to NS-6.3) or void (NS-4.5)."""

    deal: int
    """The deal's number (1 for the first; void deals count)."""
    dealer: int
    """Who dealt."""
    void: bool = False
    """Everyone passed and the dealer held no A, J or 10: nothing was scored."""
    bidder: int | None = None
    """The bidder (``None`` for a void deal)."""
    contract: int = 0
    """The contract."""
    trump: int = 0
    """The trump rank (14, 11 or 10)."""
    points: tuple[int, int] = (0, 0)
    """Hand points per team (team 0 = seats 0 and 2); they add up to 190."""
    made: bool = False
    """Whether the declarers took at least their contract."""
    change: tuple[int, int] = (0, 0)
    """What each team scored for the hand."""
    calls: tuple[tuple[int, int], ...] = ()
    """The deal's auction, as :attr:`DealInfo.calls`: ``(seat, bid)``, bid 0 for a pass."""
    tricks: tuple[TrickRecord, ...] = ()
    """The deal's 12 tricks in order (none for a void deal): every card played, every
    winner and every carry card left (NS-8.1)."""


@final
@attrs.frozen(kw_only=True)
class MatchInfo:
    """Public facts of the whole game, across deals."""

    scores: tuple[int, int]
    """Game score per team (team 0 = seats 0 and 2, team 1 = seats 1 and 3)."""
    last_made: int | None
    """The team that most recently bid and made a contract (NS-6.5)."""
    first_draw: tuple[Card, ...]
    """The cards turned up for seats 0, 1, 2, ... to choose the first dealer (NS-3.1)."""
    recent: tuple[HandResult, ...]
    """The deals that ended most recently, oldest first: the latest scored deal and every
    void deal after it (empty before the first deal ends). Every seat decides in every
    scored deal's auction, so these hold all that happened since a seat last decided."""
    winners: tuple[int, ...]
    """The winning team(s) once the game is over (both: a shared win)."""
    reason: str
    """Why the game ended, once it has."""

    @property
    def last_hand(self) -> HandResult | None:
        """The most recent deal that ended (scored or void), ``None`` before the first."""
        recent = self.recent
        return recent[-1] if recent else None


@final
@attrs.frozen
class DealInfo:
    """Public facts of the current deal: its dealer, the auction, the contract, the trump."""

    number: int
    """Number of this deal, from 1 (void deals count)."""
    dealer: int
    """The dealer."""
    calls: tuple[tuple[int, int], ...]
    """The auction's calls in order: ``(seat, bid)``, bid 0 for a pass."""
    passed: int
    """Seat mask of the players who passed."""
    high: int
    """The high bid (the contract once the auction is over); 0 if none yet."""
    bidder: int | None
    """The high bidder (the bidder after the auction); ``None`` if none yet."""
    trump: int
    """The trump rank (14 = A, 11 = J, 10 = 10); 0 before it is named."""


@final
@attrs.frozen
class PlayInfo:
    """Public facts of the trick play of the current deal.

    Built positionally in the hot path (it changes with every trick), so not keyword-only.
    """

    trick: int
    """The trick being played, 1 to 12 (0 during the auction)."""
    leader: int
    """The seat that plays first to the current trick."""
    tricks: tuple[int, int]
    """Tricks won in this deal per team."""
    points: tuple[int, int]
    """Running hand points per team: card points plus 5 per trick (NS-6.1)."""
    voids: tuple[int, int, int, int]
    """Per seat, a mask of suits (bit = suit) that the seat's plays have shown it lacks."""
    done: tuple[TrickRecord, ...]
    """The tricks finished in this deal, in order (NS-8.1: every card played and who
    played it, every winner, every carry card left)."""

    @property
    def last_trick(self) -> TrickRecord | None:
        """The trick finished most recently in this deal, ``None`` before trick 1 ends."""
        done = self.done
        return done[-1] if done else None


NO_PLAY: Final = PlayInfo(
    trick=0, leader=0, tricks=(0, 0), points=(0, 0), voids=(0, 0, 0, 0), done=()
)
"""The play record of a deal before trick play."""


@final
@attrs.frozen
class NestorsState:
    """A full state. Every field but ``table`` and ``rng`` is public.

    Rebuilt on every move, so it is built positionally (not keyword-only) for speed.
    """

    table: CardTable
    """Every card, and who knows where it is."""
    rng: int
    """The state's RNG (hidden)."""
    phase: Phase
    """What the current decision is about."""
    current: int | None
    """The seat to decide, ``None`` when the game is over."""
    match: MatchInfo
    """Scores and results across deals."""
    deal: DealInfo
    """This deal's dealer, auction, contract and trump."""
    play: PlayInfo
    """This deal's trick play."""


@final
@attrs.frozen
class NestorsObservation:
    """What one seat may know (spec section 8); seat ``-1`` is an onlooker."""

    seat: int
    """The observing seat."""
    num_players: int
    """Always 4."""
    current_player: int | None
    """Whose decision it is, ``None`` when the game is over."""
    table: TableView
    """The cards as this seat knows them."""
    legal_actions: tuple[NestorsAction, ...]
    """This seat's legal actions when it is to move, else ``()``."""
    phase: Phase
    """What the current decision is about."""
    match: MatchInfo
    """Scores and results across deals."""
    deal: DealInfo
    """This deal's dealer, auction, contract and trump."""
    play: PlayInfo
    """This deal's trick play."""

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data."""
        return CODEC.encode(self)  # type: ignore[no-any-return]

    @property
    def hand(self) -> tuple[Card, ...]:
        """The observing seat's own cards (empty for an onlooker)."""
        if self.seat == SPECTATOR:
            return ()
        return self.table.cards(HAND + self.seat)


CODEC: Final = JsonCodec((Bid, Pass, Trump, Take, Play, Leave), parse_action, lambda n: LAYOUT)
"""The observation's JSON form (actions as their text)."""

# ---- builders: the attrs constructors' instances, fields positionally -------------

new_state: Final = record_builder(NestorsState)
"""``NestorsState(table, rng, phase, current, match, deal, play)``, faster."""
new_play: Final = record_builder(PlayInfo)
"""``PlayInfo(trick, leader, tricks, points, voids, done)``, faster."""
new_trick: Final = record_builder(TrickRecord)
"""``TrickRecord(number, leader, cards, carry, winner, left)``, faster."""
new_deal: Final = record_builder(DealInfo)
"""``DealInfo(number, dealer, calls, passed, high, bidder, trump)``, faster."""
new_observation: Final = record_builder(NestorsObservation)
"""``NestorsObservation(seat, num_players, current_player, table, legal_actions, phase,
match, deal, play)``, faster."""
