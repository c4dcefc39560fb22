"""Nestors rules: an auction for a trump rank, then twelve three-card tricks.

Four players in two fixed partnerships ({0, 2} and {1, 3}) play a 36-card deck over
many hands until a partnership reaches ``+threshold`` (or a partnership reaches
``-threshold``). Rule ids (``NS-4.14`` ...) refer to the Nestors specification; the
module's comments cite them where each rule is applied.

Inside the rules a card is its integer id and a set of cards an ``int`` bitmask, as in
the core's card table. Every card lives in the table (zones below); the state's other
fields are public facts that every seat may know.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Callable, Mapping, Sequence
from math import ceil
from typing import Any, Final, NoReturn, final

import attrs

from cardcore import (
    DECK_36,
    SPECTATOR,
    Card,
    CardTable,
    IllegalActionError,
    JsonCodec,
    Layout,
    Outcome,
    Rank,
    Suit,
    TableView,
    Visibility,
    Zone,
    card_ids,
    option,
    parse_card,
    parse_cards,
    record_builder,
    rng_seed,
    rng_shuffle,
    sample_table,
)

__all__ = [
    "LAYOUT",
    "MAX_BID",
    "PRESETS",
    "TEAMS",
    "Bid",
    "DealInfo",
    "HandResult",
    "Leave",
    "MatchInfo",
    "Nestors",
    "NestorsAction",
    "NestorsObservation",
    "NestorsOptions",
    "NestorsState",
    "Pass",
    "Phase",
    "Play",
    "PlayInfo",
    "Take",
    "TrickRecord",
    "Trump",
    "card_points",
    "check_invariants",
    "parse_action",
    "trick_winner",
    "two_card_winner",
]

# ---- options -----------------------------------------------------------------------

MAX_BID: Final = 190
"""The highest bid, and the points of a whole hand (NS-2.7)."""


@final
@attrs.frozen(kw_only=True)
class NestorsOptions:
    """The rule variants of Nestors (spec section 7)."""

    next_dealer: str = option(
        "rotate",
        choices=("rotate", "bidder"),
        doc="who deals the next hand: the previous dealer's right, or the previous bidder",
    )
    """NS-3.2: ``rotate`` (the previous dealer's right deals) or ``bidder``."""
    min_bid: int = option(
        100, minimum=5, maximum=MAX_BID, step=5, doc="lowest legal bid, a multiple of 5 (5 to 190)"
    )
    """NS-4.2: the lowest legal bid, a multiple of 5 from 5 to 190."""
    fail_penalty: str = option(
        "taken",
        choices=("taken", "bid"),
        doc="declarers' loss on a failed contract: the points they took, or their bid",
    )
    """NS-6.3: what failed declarers lose, ``taken`` (their points) or ``bid``."""
    minus_1000: str = option(
        "loses",
        choices=("loses", "wins"),
        doc="whether a partnership reaching -threshold loses or wins",
    )
    """NS-5.2: the meaning of reaching ``-threshold``."""
    threshold: int = option(1000, minimum=1, doc="score that ends the game (+T or -T)")
    """NS-5.2: T, the score (plus or minus) that ends the game."""


PRESETS: Mapping[str, NestorsOptions] = {
    "default": NestorsOptions(),
    "pagat": NestorsOptions(next_dealer="bidder"),
}
"""The presets of spec section 7."""

TEAMS: Final = ((0, 2), (1, 3))
"""The partnerships (NS-2.1); seat ``s`` is in team ``s % 2``."""

# ---- cards -------------------------------------------------------------------------

_DECK_IDS: Final = tuple(c.id for c in DECK_36)
_DECK: Final = sum(1 << c for c in _DECK_IDS)
_SUIT_MASK: Final = tuple(sum(1 << c for c in _DECK_IDS if c // 13 == s) for s in range(4))
_RANK_MASK: Final = {r: sum(1 << c for c in _DECK_IDS if c % 13 + 2 == r) for r in range(6, 15)}
_TRUMP_RANKS: Final = (14, 11, 10)
_HIGH: Final = _RANK_MASK[14] | _RANK_MASK[11] | _RANK_MASK[10]
_SPADES: Final = _SUIT_MASK[Suit.SPADES]
_SUIT_NAMES: Final = ("clubs", "diamonds", "hearts", "spades")
_RANK_WORD: Final = {14: "A", 11: "J", 10: "10"}


def card_points(card: Card | int, trump: int) -> int:
    """The points of a card when ``trump`` (14, 11 or 10) is the trump rank (NS-2.5).

    Example:
        ``card_points(parse_card("A♠"), 10) == 10``
    """
    cid = card if isinstance(card, int) else card.id
    return _POINTS[trump][cid]


def _points_table(trump: int) -> tuple[int, ...]:
    others = [r for r in _TRUMP_RANKS if r != trump]  # the higher of the two scores 10
    value = {trump: 15, others[0]: 10, others[1]: 5}
    return tuple(value.get(c % 13 + 2, 0) for c in range(52))


_POINTS: Final = {r: _points_table(r) for r in _TRUMP_RANKS}
_SCORING: Final = {
    r: tuple(sum(1 << c for c in _DECK_IDS if _POINTS[r][c] == v) for v in (15, 10, 5))
    for r in _TRUMP_RANKS
}
"""Per trump rank, the masks of the cards worth 15, 10 and 5 points (NS-2.5)."""


def _mask_points(mask: int, pts: Sequence[int]) -> int:
    total = 0
    while mask:
        low = mask & -mask
        total += pts[low.bit_length() - 1]
        mask ^= low
    return total


def _lowest(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def _cards_text(mask: int) -> str:
    return " ".join(str(Card.of(c)) for c in card_ids(mask))


def two_card_winner(a: int, b: int, trump: int) -> int:
    """The two-card rule of W3c (NS-4.14, NS-4.16): 0 if A's card wins, 1 if B's.

    Args:
        a: A's card id.
        b: B's card id.
        trump: the trump rank.
    """
    ta = a % 13 + 2 == trump
    tb = b % 13 + 2 == trump
    if ta != tb:
        return 0 if ta else 1
    if ta:  # both trumps: the one played last
        return 1
    if a // 13 == b // 13:
        return 0 if a > b else 1
    return 0


def trick_winner(a: int, b: int, c: int, trump: int) -> int:
    """The winner of a three-card trick (NS-4.14): 0 for A, 1 for B, 2 for C.

    Args:
        a: A's card id (the leader).
        b: B's card id.
        c: C's card id (A's partner).
        trump: the trump rank (14, 11 or 10).
    """
    sa, sb, sc = a // 13, b // 13, c // 13
    ta = a % 13 + 2 == trump
    tb = b % 13 + 2 == trump
    tc = c % 13 + 2 == trump
    match = sc == sa if sa == sb else sc not in (sa, sb)
    if match:
        if tc or tb or ta:  # W1: the trump played last
            return 2 if tc else (1 if tb else 0)
        ra, rb, rc = a % 13, b % 13, c % 13  # W2: highest rank, last played on a tie
        best = max(ra, rb, rc)
        return 2 if rc == best else (1 if rb == best else 0)
    if not tb and (ta or tc):  # W3a
        return 2 if tc else 0
    if tb and tc and sc not in (sa, sb):  # W3b
        return 2
    return two_card_winner(a, b, trump)  # W3c


# ---- layout ------------------------------------------------------------------------

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
    return Layout(tuple(zones), 4, _DECK)


LAYOUT: Final = _layout()
"""The one layout (Nestors is for 4 players only)."""
_NZ: Final = len(LAYOUT.zones)
_EMPTY_ORDERS: Final[tuple[tuple[int, ...], ...]] = ((),) * _NZ

# ---- actions -----------------------------------------------------------------------


@final
@attrs.frozen
class Bid:
    """Bid for the contract: ``bid 120`` (NS-4.2)."""

    points: int
    """The points bid, a multiple of 5."""

    def __str__(self) -> str:
        return f"bid {self.points}"


@final
@attrs.frozen
class Pass:
    """Pass in the auction, for the rest of the hand: ``pass`` (NS-4.2)."""

    def __str__(self) -> str:
        return "pass"


@final
@attrs.frozen
class Trump:
    """Name the trump rank: ``trump J`` (NS-4.7)."""

    rank: Rank = attrs.field(converter=Rank)
    """A, J or 10."""

    def __str__(self) -> str:
        return f"trump {self.rank.label}"


def _pair(cards: Sequence[Card]) -> tuple[Card, Card]:
    if len(cards) != 2 or cards[0] == cards[1]:
        raise ValueError(f"take names two different cards, not {' '.join(map(str, cards))}")
    a, b = sorted(cards)
    return (a, b)


@final
@attrs.frozen
class Take:
    """Take two face-up row cards with the trump of trick 1: ``take 9♠ K♦`` (NS-4.11)."""

    cards: tuple[Card, Card] = attrs.field(converter=_pair)
    """The two row cards, in card order."""

    def __str__(self) -> str:
        return f"take {self.cards[0]} {self.cards[1]}"


@final
@attrs.frozen
class Play:
    """Play a card to the trick: ``play Q♥`` (NS-4.11, NS-4.13, NS-4.16)."""

    card: Card
    """The card played."""
    _id: int = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "_id", self.card.id)

    def __str__(self) -> str:
        return f"play {self.card}"


@final
@attrs.frozen
class Leave:
    """As trick winner, leave this card face up as the carry card: ``leave 7♣`` (NS-4.15)."""

    card: Card
    """The card left on the table."""
    _id: int = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "_id", self.card.id)

    def __str__(self) -> str:
        return f"leave {self.card}"


NestorsAction = Bid | Pass | Trump | Take | Play | Leave
"""Any Nestors action."""

_PASS: Final = Pass()
_BIDS: Final = {b: Bid(b) for b in range(5, MAX_BID + 1, 5)}
_TRUMPS: Final = {r: Trump(Rank(r)) for r in _TRUMP_RANKS}
_PLAYS: Final = tuple(Play(Card.of(c)) for c in range(52))
_LEAVES: Final = tuple(Leave(Card.of(c)) for c in range(52))
_SUIT_PLAYS: Final = tuple(
    tuple(tuple(_PLAYS[13 * s + 4 + k] for k in range(9) if (p >> k) & 1) for p in range(512))
    for s in range(4)
)


_SUIT_LEAVES: Final = tuple(
    tuple(tuple(_LEAVES[13 * s + 4 + k] for k in range(9) if (p >> k) & 1) for p in range(512))
    for s in range(4)
)
_CARDS: Final = tuple(Card.of(c) for c in range(52))


def _leaves(mask: int) -> tuple[Leave, ...]:
    """The leave actions for a set of cards, in card order."""
    return (
        _SUIT_LEAVES[0][(mask >> 4) & 511]
        + _SUIT_LEAVES[1][(mask >> 17) & 511]
        + _SUIT_LEAVES[2][(mask >> 30) & 511]
        + _SUIT_LEAVES[3][(mask >> 43) & 511]
    )


def _plays(mask: int) -> tuple[Play, ...]:
    """The play actions for a set of cards, in card order."""
    return (
        _SUIT_PLAYS[0][(mask >> 4) & 511]
        + _SUIT_PLAYS[1][(mask >> 17) & 511]
        + _SUIT_PLAYS[2][(mask >> 30) & 511]
        + _SUIT_PLAYS[3][(mask >> 43) & 511]
    )


_PASS_ONLY: Final[tuple[NestorsAction, ...]] = (_PASS,)
_BIDS_FROM: Final[tuple[tuple[NestorsAction, ...], ...]] = tuple(
    tuple(_BIDS[b] for b in range(max(5, low - low % 5), MAX_BID + 1, 5))
    for low in range(MAX_BID + 6)
)
"""``_BIDS_FROM[low]``: the bids from ``low`` (a multiple of 5) up to 190, in order."""
_PASS_BIDS_FROM: Final[tuple[tuple[NestorsAction, ...], ...]] = tuple(
    (_PASS, *bids) for bids in _BIDS_FROM
)
_TAKES: Final = tuple(
    tuple(Take((Card.of(x), Card.of(y))) for y in range(x + 1, 52)) for x in range(52)
)
"""``_TAKES[x][y - x - 1]`` (card ids ``x < y``): the shared ``take`` action for the pair."""


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
            return _PASS
        if verb == "bid":
            return Bid(int(rest))
        if verb == "trump":
            rank = {"a": 14, "j": 11, "10": 10, "t": 10}.get(rest.lower())
            if rank is None:
                raise ValueError("the trump rank is A, J or 10")
            return _TRUMPS[rank]
        if verb == "take":
            cards = parse_cards(rest)
            if len(cards) != 2 or cards[0] == cards[1]:
                raise ValueError("take names two different cards")
            return Take((cards[0], cards[1]))
        if verb == "play":
            return _PLAYS[parse_card(rest).id]
        if verb == "leave":
            return _LEAVES[parse_card(rest).id]
    except ValueError as e:
        raise ValueError(f"not a Nestors action: {text!r} ({e})") from None
    raise ValueError(
        f"not a Nestors action: {text!r} (try 'bid 120', 'pass', 'trump J', 'take 9♠ K♦', "
        "'play Q♥' or 'leave 7♣')"
    )


# ---- records and state -------------------------------------------------------------


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


_PH_AUCTION: Final = Phase.AUCTION
_PH_TRUMP: Final = Phase.TRUMP
_PH_LEAD: Final = Phase.LEAD
_PH_TAKE: Final = Phase.TAKE
_PH_PLAY: Final = Phase.PLAY
_PH_LEAVE: Final = Phase.LEAVE
_PH_OVER: Final = Phase.OVER


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
    last_hand: HandResult | None
    """The most recent deal that ended (scored or void)."""
    winners: tuple[int, ...]
    """The winning team(s) once the game is over (both: a shared win)."""
    reason: str
    """Why the game ended, once it has."""


@final
@attrs.frozen(kw_only=True)
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
    last_trick: TrickRecord | None
    """The trick finished most recently in this deal."""


_NO_PLAY: Final = PlayInfo(
    trick=0, leader=0, tricks=(0, 0), points=(0, 0), voids=(0, 0, 0, 0), last_trick=None
)


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


# Hot-path constructors (``cardcore.record_builder``): the very same instances as the
# attrs constructors, several times faster; fields positionally, in declaration order.
# A test pins them to the attrs constructors.
_tnew: Final = tuple.__new__
_state: Final[
    Callable[[CardTable, int, Phase, int | None, MatchInfo, DealInfo, PlayInfo], NestorsState]
] = record_builder(NestorsState)
_play_info: Final[
    Callable[
        [int, int, tuple[int, int], tuple[int, int], tuple[int, int, int, int], TrickRecord | None],
        PlayInfo,
    ]
] = record_builder(PlayInfo)
_trick_record: Final[
    Callable[[int, int, tuple[Card, ...], Card, int, Card | None], TrickRecord]
] = record_builder(TrickRecord)
_deal_info: Final[
    Callable[[int, int, tuple[tuple[int, int], ...], int, int, int | None, int], DealInfo]
] = record_builder(DealInfo)


def _table(
    masks: tuple[int, ...], orders: tuple[tuple[int, ...], ...], known: tuple[int, ...]
) -> CardTable:
    """``CardTable(LAYOUT, masks, orders, known)`` without the named tuple's ``__new__``."""
    return _tnew(CardTable, (LAYOUT, masks, orders, known))


@final
@attrs.frozen(kw_only=True)
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
        return _CODEC.encode(self)  # type: ignore[no-any-return]

    @property
    def hand(self) -> tuple[Card, ...]:
        """The observing seat's own cards (empty for an onlooker)."""
        if self.seat == SPECTATOR:
            return ()
        return self.table.cards(HAND + self.seat)


# ---- dealing -----------------------------------------------------------------------

_M64: Final = (1 << 64) - 1
_GAMMA: Final = 0x9E3779B97F4A7C15


def _shuffled_deck(rng: int) -> tuple[list[int], int]:
    """``rng_shuffle(rng, _DECK_IDS)`` with its SplitMix64 draws inlined: the same order.

    Fisher-Yates as in ``cardcore.rng_shuffle`` (each draw is ``rng_below(rng, i + 1)``);
    a test pins the two together. Returns the deck top card first and the next RNG state.
    """
    out = list(_DECK_IDS)
    for i in range(35, 0, -1):
        rng = (rng + _GAMMA) & _M64
        z = rng
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
        j = ((z ^ (z >> 31)) * (i + 1)) >> 64
        out[i], out[j] = out[j], out[i]
    return out, rng


def _dealt_table(order: Sequence[int], dealer: int) -> CardTable:
    """The table after NS-3.4 and NS-3.5, dealt from ``order`` (top card first).

    The same as gathering, stacking the deck in ``order`` and dealing card by card: the
    hole card, three row cards, then a batch of 5 to each player from the dealer's right.
    """
    masks = [0] * _NZ
    masks[HOLE] = 1 << order[0]
    row = (1 << order[1]) | (1 << order[2]) | (1 << order[3])
    masks[ROW] = row
    for k in range(4):
        seat = (dealer + 1 + k) % 4
        m = 0
        for c in order[4 + 5 * k : 9 + 5 * k]:
            m |= 1 << c
        masks[HAND + seat] = m
    rest = order[24:]
    m = 0
    for c in rest:
        m |= 1 << c
    masks[STOCK] = m
    orders: list[tuple[int, ...]] = list(_EMPTY_ORDERS)
    orders[STOCK] = tuple(reversed(rest))
    known = tuple(masks[HAND + s] | row for s in range(4))
    return _table(tuple(masks), tuple(orders), known)


def _second_deal(table: CardTable, dealer: int, bidder: int) -> CardTable:
    """NS-4.8 and NS-4.9: the bidder takes the hole card; 3 more cards each."""
    masks = list(table.masks)
    known = list(table.known)
    hole = masks[HOLE]
    masks[HOLE] = 0
    masks[HAND + bidder] |= hole
    known[bidder] |= hole
    stock = table.orders[STOCK]  # bottom to top
    top = len(stock)
    for k in range(4):
        seat = (dealer + 1 + k) % 4
        m = 0
        for c in stock[top - 3 : top]:
            m |= 1 << c
        top -= 3
        masks[HAND + seat] |= m
        known[seat] |= m
    masks[STOCK] = 0
    return _table(tuple(masks), _EMPTY_ORDERS, tuple(known))


def _hand_sizes(trick: int, played: int, bidder: int) -> tuple[int, ...]:
    """Hand sizes (by seat) during play, from the schedule of NS-T18.

    Args:
        trick: the trick being played (1 to 12).
        played: cards already played to it (for trick 1: 0 before the trump, else 1).
        bidder: the bidder's seat.
    """
    rel = [9, 8, 8, 8] if trick == 1 and played == 0 else [8, 8, 8, 8]
    for t in range(2, trick + 1):
        n = 3 if t < 12 else 2
        if t == trick:
            n = played
        lead = t - 1 if t < 12 else 0
        for k in range(n):
            rel[(lead + k) % 4] -= 1
    return tuple(rel[(s - bidder) % 4] for s in range(4))


# ---- the game ----------------------------------------------------------------------


@final
class Nestors:
    """The rules object; build it with ``cardcore.load_game("nestors", ...)``.

    Safety rule (the spec sets no limit on the number of hands): a game stops after
    :attr:`max_deals` deals, void deals included; the higher score then wins, and equal
    scores share the win. Random play stays far below it.
    """

    name = "nestors"
    min_players = 4
    max_players = 4

    def __init__(self, options: NestorsOptions | None = None) -> None:
        self.options: NestorsOptions = options or NestorsOptions()
        o = self.options
        self._min_bid = o.min_bid
        self._rotate = o.next_dealer == "rotate"
        self._fail_bid = o.fail_penalty == "bid"
        self._minus_wins = o.minus_1000 == "wins"
        self._t = o.threshold
        self.max_deals: int = 200 + 20 * ceil(o.threshold / 95)
        """The safety limit on deals per game (void deals included)."""
        self.max_deal_decisions: int = 49 + (MAX_BID - o.min_bid) // 5
        """The most decisions one deal can take (auction, trump, 12 tricks)."""

    # ---- metadata ----

    def teams(self, num_players: int) -> tuple[tuple[int, ...], ...]:
        """The partnerships {0, 2} and {1, 3} (NS-2.1)."""
        return TEAMS

    def max_decisions(self, num_players: int) -> int:
        """A true bound: :attr:`max_deals` deals of at most 49 + (190 - min_bid) / 5 each.

        A deal has at most 3 passes and (190 - min_bid) / 5 + 1 rising bids, one trump
        call, 2 decisions for trick 1, 4 for each of tricks 2 to 11 and 2 for trick 12.
        """
        return self.max_deals * self.max_deal_decisions

    # ---- setup ----

    def initial_state(
        self,
        num_players: int,
        seed: int,
        *,
        dealer: int | None = None,
        deck: Sequence[Card] | None = None,
    ) -> NestorsState:
        """The state before the first call of the auction (NS-3.1 to NS-3.5).

        Args:
            num_players: must be 4.
            seed: seeds the state's RNG.
            dealer: the first dealer, or ``None`` to turn cards up until a 6 (NS-3.1).
            deck: a stacked deck, top card first, used instead of the first shuffle.
                With ``dealer=None`` the cards that choose the dealer are turned up from
                it; the cards are then gathered and shuffled for the deal.

        Raises:
            ValueError: a wrong player count, dealer seat or deck.
        """
        if num_players != 4:
            raise ValueError(f"Nestors is for exactly 4 players, not {num_players}")
        if dealer is not None and (isinstance(dealer, bool) or dealer not in range(4)):
            raise ValueError(f"the dealer must be a seat 0-3, not {dealer!r}")
        rng = rng_seed(seed)
        if deck is not None:
            order = tuple(_check_deck(deck))
        else:
            order, rng = rng_shuffle(rng, _DECK_IDS)
        first_draw: tuple[Card, ...] = ()
        if dealer is None:
            for i, c in enumerate(order):  # NS-3.1: the first to receive a 6 deals
                if c % 13 + 2 == 6:
                    dealer = i % 4
                    first_draw = tuple(Card.of(x) for x in order[: i + 1])
                    break
            assert dealer is not None
            order, rng = rng_shuffle(rng, _DECK_IDS)
        match = MatchInfo(
            scores=(0, 0),
            last_made=None,
            first_draw=first_draw,
            last_hand=None,
            winners=(),
            reason="",
        )
        return _deal_state(_dealt_table(order, dealer), rng, match, dealer, 1)

    # ---- queries ----

    def current_player(self, state: NestorsState) -> int | None:
        """The seat to decide, or ``None`` at the end."""
        return state.current

    def legal_actions(self, state: NestorsState) -> tuple[NestorsAction, ...]:
        """The current player's legal actions, in a fixed order."""
        phase = state.phase
        seat = state.current
        if seat is None:
            return ()
        t = state.table
        masks = t[1]  # the table's masks (by index: a named tuple's fields read slower)
        if phase is _PH_PLAY:
            hand = masks[HAND + seat]
            played = t[2][TRICK]
            if len(played) == 2 and state.play.trick < 12:  # C's obligations (NS-4.13)
                req = _REQUIRED[played[0] // 13][played[1] // 13]
                if hand & req:
                    hand &= req | _RANK_MASK[state.deal.trump]
            return _plays(hand)
        if phase is _PH_LEAVE:
            return _leaves(masks[TRICK] | masks[ROW])
        if phase is _PH_AUCTION:
            d = state.deal
            if masks[HAND + seat] & _HIGH:
                low = max(self._min_bid, d.high + 5)
                if d.passed.bit_count() == 3:  # NS-4.4: the dealer must bid
                    return _BIDS_FROM[low]
                return _PASS_BIDS_FROM[low]
            if d.passed.bit_count() == 3:
                return ()
            return _PASS_ONLY
        if phase is _PH_TRUMP:
            hand = masks[HAND + seat]
            return tuple(_TRUMPS[r] for r in _TRUMP_RANKS if hand & _RANK_MASK[r])
        if phase is _PH_LEAD:
            return _plays(masks[HAND + seat] & _RANK_MASK[state.deal.trump])
        if phase is _PH_TAKE:
            row = masks[ROW]
            x = _lowest(row)
            row ^= 1 << x
            y = _lowest(row)
            z = _lowest(row ^ (1 << y))
            tx = _TAKES[x]
            return (tx[y - x - 1], tx[z - x - 1], _TAKES[y][z - y - 1])
        return ()

    # ---- applying ----

    def apply(self, state: NestorsState, action: NestorsAction) -> NestorsState:
        """Play ``action`` for the current player and return the new state.

        Raises:
            IllegalActionError: the action is not legal here; ``state`` is unchanged.
        """
        phase = state.phase
        kind = type(action)
        if kind is Play and phase is _PH_PLAY:
            return self._play(state, action)  # type: ignore[arg-type]
        if phase is _PH_PLAY:
            if kind is Play:
                return self._play(state, action)  # type: ignore[arg-type]
        elif phase is _PH_LEAVE:
            if kind is Leave:
                return self._leave(state, action)  # type: ignore[arg-type]
        elif phase is _PH_AUCTION:
            if kind is Bid:
                return self._bid(state, action)  # type: ignore[arg-type]
            if kind is Pass:
                return self._pass(state, action)  # type: ignore[arg-type]
        elif phase is _PH_TRUMP:
            if kind is Trump:
                return self._trump(state, action)  # type: ignore[arg-type]
        elif phase is _PH_LEAD:
            if kind is Play:
                return self._lead(state, action)  # type: ignore[arg-type]
        elif phase is _PH_TAKE:
            if kind is Take:
                return self._take(state, action)  # type: ignore[arg-type]
        else:
            raise IllegalActionError(action, "the game is over")
        raise IllegalActionError(action, _WRONG_KIND[phase], self.legal_actions(state))

    def _illegal(self, state: NestorsState, action: object, reason: str) -> NoReturn:
        raise IllegalActionError(action, reason, self.legal_actions(state))

    # auction (NS-4.1 to NS-4.6)

    def _pass(self, state: NestorsState, action: Pass) -> NestorsState:
        seat = state.current
        assert seat is not None
        d = state.deal
        if d.passed.bit_count() == 3:
            self._illegal(state, action, "everyone else passed: as dealer you must bid")
        passed = d.passed | (1 << seat)
        deal = _deal_info(d.number, d.dealer, (*d.calls, (seat, 0)), passed, d.high, d.bidder, 0)
        if passed.bit_count() < 3:
            current = _next_caller(seat, passed)
            phase = _PH_AUCTION
        elif d.bidder is not None:  # NS-4.3: the player left holds the high bid
            current = d.bidder
            phase = _PH_TRUMP
        elif state.table[1][HAND + d.dealer] & _HIGH:  # NS-4.4: the dealer must bid
            current = d.dealer
            phase = _PH_AUCTION
        else:  # NS-4.5: void hand, the same dealer deals again
            result = HandResult(deal=d.number, dealer=d.dealer, void=True)
            return self._after_deal(state, d.dealer, state.match.scores, None, result)
        return _state(state.table, state.rng, phase, current, state.match, deal, state.play)

    def _bid(self, state: NestorsState, action: Bid) -> NestorsState:
        seat = state.current
        assert seat is not None
        d = state.deal
        b = action.points
        if not state.table[1][HAND + seat] & _HIGH:
            self._illegal(state, action, "you hold no A, J or 10, so you may only pass")
        if not isinstance(b, int) or b % 5:
            self._illegal(state, action, f"bids are multiples of 5, and {b} is not")
        if b > MAX_BID:
            self._illegal(state, action, f"the highest bid is {MAX_BID}")
        if b < self._min_bid:
            self._illegal(state, action, f"the lowest bid is {self._min_bid}")
        if b <= d.high:
            self._illegal(state, action, f"you must bid more than {d.high}")
        deal = _deal_info(d.number, d.dealer, (*d.calls, (seat, b)), d.passed, b, seat, 0)
        if d.passed.bit_count() == 3:  # the forced dealer's bid ends the auction
            phase, current = _PH_TRUMP, seat
        else:
            phase, current = _PH_AUCTION, _next_caller(seat, d.passed)
        return _state(state.table, state.rng, phase, current, state.match, deal, state.play)

    # trump and second deal (NS-4.7 to NS-4.10)

    def _trump(self, state: NestorsState, action: Trump) -> NestorsState:
        seat = state.current
        assert seat is not None
        r = int(action.rank)
        if r not in _TRUMPS:
            self._illegal(state, action, "the trump rank must be A, J or 10")
        if not state.table.masks[HAND + seat] & _RANK_MASK[r]:
            self._illegal(
                state, action, f"you can name {_RANK_WORD[r]} only if you hold a card of that rank"
            )
        d = state.deal
        deal = DealInfo(
            number=d.number,
            dealer=d.dealer,
            calls=d.calls,
            passed=d.passed,
            high=d.high,
            bidder=d.bidder,
            trump=r,
        )
        play = PlayInfo(
            trick=1, leader=seat, tricks=(0, 0), points=(0, 0), voids=(0, 0, 0, 0), last_trick=None
        )
        return NestorsState(
            table=_second_deal(state.table, d.dealer, seat),
            rng=state.rng,
            phase=_PH_LEAD,
            current=seat,
            match=state.match,
            deal=deal,
            play=play,
        )

    # trick 1 (NS-4.11)

    def _lead(self, state: NestorsState, action: Play) -> NestorsState:
        seat = state.current
        assert seat is not None
        c = action._id
        hand = state.table.masks[HAND + seat]
        trump = state.deal.trump
        if not (hand >> c) & 1:
            self._illegal(state, action, f"you do not hold {action.card}")
        if c % 13 + 2 != trump:
            self._illegal(
                state,
                action,
                f"trick 1 starts with a trump ({_RANK_WORD[trump]}): you hold "
                f"{_cards_text(hand & _RANK_MASK[trump])}",
            )
        return _state(
            _to_trick(state.table, c, HAND + seat),
            state.rng,
            _PH_TAKE,
            seat,
            state.match,
            state.deal,
            state.play,
        )

    def _take(self, state: NestorsState, action: Take) -> NestorsState:
        seat = state.current
        assert seat is not None
        t = state.table
        row = t.masks[ROW]
        m = 0
        for card in action.cards:
            if not (row >> card.id) & 1:
                self._illegal(
                    state, action, f"{card} is not in the face-up row ({_cards_text(row)})"
                )
            m |= 1 << card.id
        trump_card = t.orders[TRICK][0]
        team = seat % 2
        masks = list(t.masks)
        masks[ROW] = row ^ m
        masks[TRICK] = 0
        masks[WON + team] |= m | (1 << trump_card)
        pts = _POINTS[state.deal.trump]
        gain = _mask_points(m, pts) + pts[trump_card] + 5
        carry = Card.of(_lowest(row ^ m))
        record = TrickRecord(
            number=1,
            leader=seat,
            cards=(Card.of(trump_card), *action.cards),
            carry=carry,
            winner=seat,
            left=carry,
        )
        leader = (seat + 1) % 4  # NS-4.12: trick 2 is led by the bidder's right
        play = PlayInfo(
            trick=2,
            leader=leader,
            tricks=(1, 0) if team == 0 else (0, 1),
            points=(gain, 0) if team == 0 else (0, gain),
            voids=(0, 0, 0, 0),
            last_trick=record,
        )
        return NestorsState(
            table=_table(tuple(masks), _EMPTY_ORDERS, t.known),
            rng=state.rng,
            phase=_PH_PLAY,
            current=leader,
            match=state.match,
            deal=state.deal,
            play=play,
        )

    # tricks 2 to 12 (NS-4.12 to NS-4.16)

    def _play(self, state: NestorsState, action: Play) -> NestorsState:
        seat = state.current
        assert seat is not None
        c = action._id
        t = state.table
        masks = t[1]
        src = HAND + seat
        hand = masks[src]
        if not (hand >> c) & 1:
            self._illegal(state, action, f"you do not hold {action.card}")
        played = t[2][TRICK]
        n = len(played)
        p = state.play
        bit = 1 << c
        ml = list(masks)
        ml[src] = hand ^ bit
        ml[TRICK] |= bit
        k0, k1, k2, k3 = t[3]
        # _to_trick, inlined: the trick is the only ordered zone with cards in play
        table: CardTable = _tnew(
            CardTable,
            (
                LAYOUT,
                tuple(ml),
                ((), (), (), (), (), (), (), (*played, c), (), ()),
                (k0 | bit, k1 | bit, k2 | bit, k3 | bit),
            ),
        )
        if n == 2 and p.trick < 12:  # C's obligations (NS-4.13)
            a, b = played
            trump = state.deal.trump
            sa = a // 13
            sb = b // 13
            req = _REQUIRED[sa][sb]
            if not ((req | _RANK_MASK[trump]) >> c) & 1:
                if hand & req:
                    self._illegal(state, action, _c_reason(a, b, hand & req, trump))
                # C played neither a required card nor a trump, so C holds no required
                # card: that much its card shows (NS-8.4).
                gone = (1 << sa) if sa == sb else 15 ^ (1 << sa) ^ (1 << sb)
                v = p.voids
                if v[seat] | gone != v[seat]:
                    vl = list(v)
                    vl[seat] |= gone
                    p = _play_info(
                        p.trick,
                        p.leader,
                        p.tricks,
                        p.points,
                        (vl[0], vl[1], vl[2], vl[3]),
                        p.last_trick,
                    )
            winner = (p.leader + trick_winner(a, b, c, trump)) % 4  # NS-4.14
            return _state(table, state.rng, _PH_LEAVE, winner, state.match, state.deal, p)
        if n == 1 and p.trick == 12:
            return self._last_trick(state, table, played[0], c)
        return _state(table, state.rng, _PH_PLAY, (seat + 1) % 4, state.match, state.deal, p)

    def _leave(self, state: NestorsState, action: Leave) -> NestorsState:
        seat = state.current
        assert seat is not None
        c = action._id
        t = state.table
        masks = list(t[1])
        carry = masks[ROW]
        on_table = masks[TRICK] | carry
        if not (on_table >> c) & 1:
            self._illegal(
                state,
                action,
                f"{action.card} is not on the table; leave one of {_cards_text(on_table)}",
            )
        bit = 1 << c
        taken = on_table ^ bit  # NS-4.15: the winner takes the other three
        team = seat % 2
        masks[ROW] = bit
        masks[TRICK] = 0
        masks[WON + team] |= taken
        p = state.play
        d = state.deal
        s15, s10, s5 = _SCORING[d.trump]
        gain = (
            15 * (taken & s15).bit_count()
            + 10 * (taken & s10).bit_count()
            + 5 * (taken & s5).bit_count()
            + 5
        )
        p0, p1 = p.points
        w0, w1 = p.tricks
        a, b, c3 = t[2][TRICK]
        trick = p.trick
        record = _trick_record(
            trick,
            p.leader,
            (_CARDS[a], _CARDS[b], _CARDS[c3]),
            _CARDS[_lowest(carry)],
            seat,
            action.card,
        )
        trick += 1
        bidder = d.bidder
        assert bidder is not None
        leader = (bidder + trick - 1) % 4 if trick < 12 else bidder  # NS-4.12, NS-4.16
        if team:
            play = _play_info(trick, leader, (w0, w1 + 1), (p0, p1 + gain), p.voids, record)
        else:
            play = _play_info(trick, leader, (w0 + 1, w1), (p0 + gain, p1), p.voids, record)
        return _state(
            _tnew(CardTable, (LAYOUT, tuple(masks), _EMPTY_ORDERS, t[3])),
            state.rng,
            _PH_PLAY,
            leader,
            state.match,
            d,
            play,
        )

    def _last_trick(self, state: NestorsState, table: CardTable, a: int, b: int) -> NestorsState:
        """NS-4.16, then NS-5 and NS-6: take trick 12, score the hand, go on or end."""
        d = state.deal
        bidder = d.bidder
        assert bidder is not None
        pts = _POINTS[d.trump]
        winner = (bidder + two_card_winner(a, b, d.trump)) % 4
        team = winner % 2
        masks = list(table.masks)
        carry = masks[ROW]
        taken = masks[TRICK] | carry
        masks[ROW] = 0
        masks[TRICK] = 0
        masks[WON + team] |= taken
        table = _table(tuple(masks), _EMPTY_ORDERS, table.known)
        p = state.play
        points = list(p.points)
        points[team] += _mask_points(taken, pts) + 5
        tricks = list(p.tricks)
        tricks[team] += 1
        for tm in (0, 1):  # NS-2.6: 10 for at least 5 of the 9 spades
            if (masks[WON + tm] & _SPADES).bit_count() >= 5:
                points[tm] += 10
        decl = bidder % 2
        dp, ep = points[decl], points[1 - decl]
        made = dp >= d.high  # NS-6.2 / NS-6.3
        change = [0, 0]
        change[1 - decl] = ep
        if made:
            change[decl] = dp
        else:
            change[decl] = -d.high if self._fail_bid else -dp
        scores = (state.match.scores[0] + change[0], state.match.scores[1] + change[1])
        result = HandResult(
            deal=d.number,
            dealer=d.dealer,
            bidder=bidder,
            contract=d.high,
            trump=d.trump,
            points=(points[0], points[1]),
            made=made,
            change=(change[0], change[1]),
        )
        record = TrickRecord(
            number=12,
            leader=bidder,
            cards=(Card.of(a), Card.of(b)),
            carry=Card.of(_lowest(carry)),
            winner=winner,
            left=None,
        )
        ended = NestorsState(
            table=table,
            rng=state.rng,
            phase=_PH_PLAY,
            current=None,
            match=state.match,
            deal=d,
            play=PlayInfo(
                trick=12,
                leader=bidder,
                tricks=(tricks[0], tricks[1]),
                points=(points[0], points[1]),
                voids=p.voids,
                last_trick=record,
            ),
        )
        nxt = (d.dealer + 1) % 4 if self._rotate else bidder  # NS-3.2
        return self._after_deal(ended, nxt, scores, decl if made else None, result)

    def _after_deal(
        self,
        state: NestorsState,
        dealer: int,
        scores: tuple[int, int],
        made_by: int | None,
        result: HandResult,
    ) -> NestorsState:
        """After a scored or void deal: end the game (NS-5.2, NS-6.5) or deal again."""
        m = state.match
        last_made = m.last_made if made_by is None else made_by
        winners, reason = self._game_end(scores, last_made)
        number = state.deal.number
        if not winners and number >= self.max_deals:
            if scores[0] == scores[1]:
                winners = (0, 1)
            else:
                winners = (0,) if scores[0] > scores[1] else (1,)
            reason = f"the safety limit of {self.max_deals} deals was reached; higher score wins"
        match = MatchInfo(
            scores=scores,
            last_made=last_made,
            first_draw=m.first_draw,
            last_hand=result,
            winners=winners,
            reason=reason,
        )
        if winners:
            return NestorsState(
                table=state.table,
                rng=state.rng,
                phase=_PH_OVER,
                current=None,
                match=match,
                deal=state.deal,
                play=state.play,
            )
        order, rng = _shuffled_deck(state.rng)  # gather, shuffle and deal (NS-3.3)
        return _deal_state(_dealt_table(order, dealer), rng, match, dealer, number + 1)

    def _game_end(
        self, scores: tuple[int, int], last_made: int | None
    ) -> tuple[tuple[int, ...], str]:
        """NS-5.2 and NS-6.5: the winning team, or ``()`` to play on."""
        t = self._t
        qualify = [
            team
            for team in (0, 1)
            if scores[team] >= t
            or (scores[team] <= -t if self._minus_wins else scores[1 - team] <= -t)
        ]
        if not qualify:
            return (), ""
        if len(qualify) == 1:
            w = qualify[0]
            if scores[w] >= t:
                return (w,), f"{_TEAM_NAMES[w]} reached {scores[w]} (+{t})"
            if self._minus_wins:
                return (w,), f"{_TEAM_NAMES[w]} reached {scores[w]} (-{t})"
            return (w,), f"{_TEAM_NAMES[1 - w]} fell to {scores[1 - w]} (-{t})"
        if last_made is not None:
            return (last_made,), (
                f"both partnerships qualified; {_TEAM_NAMES[last_made]} made the latest contract"
            )
        if scores[0] != scores[1]:
            w = 0 if scores[0] > scores[1] else 1
            return (w,), f"both partnerships qualified; {_TEAM_NAMES[w]} have the higher score"
        return (), ""  # NS-6.5: equal scores and no contract made yet: play another hand

    # ---- observing ----

    def observe(self, state: NestorsState, seat: int) -> NestorsObservation:
        """What ``seat`` may know of ``state`` (``-1``: an onlooker)."""
        if seat != SPECTATOR and seat not in range(4):
            raise ValueError(f"no seat {seat}; seats are 0-3 (or -1 for an onlooker)")
        legal = self.legal_actions(state) if seat == state.current else ()
        return NestorsObservation(
            seat=seat,
            num_players=4,
            current_player=state.current,
            table=state.table.view(seat),
            legal_actions=legal,
            phase=state.phase,
            match=state.match,
            deal=state.deal,
            play=state.play,
        )

    def outcome(self, state: NestorsState) -> Outcome | None:
        """The result once the game is over: the winning partnership scores 1, the other 0.

        The game scores are in :attr:`MatchInfo.scores` and in the outcome's reason; they
        do not always rank the partnerships (NS-6.5: the latest made contract can beat a
        higher score, and with ``minus_1000=wins`` a negative score can win), so the
        outcome's scores are win marks.
        """
        if state.phase is not _PH_OVER:
            return None
        m = state.match
        marks = [1.0 if s % 2 in m.winners else 0.0 for s in range(4)]
        reason = f"{m.reason}; final scores {m.scores[0]} to {m.scores[1]}"
        return Outcome.from_scores(marks, teams=TEAMS, reason=reason)

    def evaluate(self, state: NestorsState, seat: int) -> float:
        """A 0-to-1 estimate of the seat's partnership winning, from the public scores.

        Search bots use it to cut long play-outs short (their ``horizon`` option): the
        score lead as a share of the threshold, mapped linearly onto 0..1.
        """
        if state.phase is _PH_OVER:
            return 1.0 if seat % 2 in state.match.winners else 0.0
        mine = state.match.scores[seat % 2]
        theirs = state.match.scores[1 - seat % 2]
        lead = max(-1.0, min(1.0, (mine - theirs) / self.options.threshold))
        return 0.5 + 0.5 * lead

    # ---- sampling ----

    def sample_state(self, observation: NestorsObservation, rng: random.Random) -> NestorsState:
        """A full state consistent with everything the observing seat knows.

        Constraints the rules reveal are kept: a seat whose card showed it lacks a suit
        holds none of it (NS-8.4); a seat that bid (and a dealer forced to bid) holds an
        A, J or 10 until trick play starts; the bidder holds a trump until trick 1.
        """
        o = observation
        exclude: dict[int, int] = {}
        for s in range(4):
            v = o.play.voids[s]
            if v and s != o.seat:
                exclude[HAND + s] = sum(_SUIT_MASK[x] for x in range(4) if (v >> x) & 1)
        need = _positive_constraints(o)
        table = None
        if need:
            for _ in range(60):
                t = sample_table(o.table, rng, exclude=exclude)
                if all(t.masks[z] & m for z, m in need):
                    table = t
                    break
            if table is None:
                table = _sample_placed(o, rng, exclude, need)
        else:
            table = sample_table(o.table, rng, exclude=exclude, tries=2000)
        return NestorsState(
            table=table,
            rng=rng.getrandbits(64),
            phase=o.phase,
            current=o.current_player,
            match=o.match,
            deal=o.deal,
            play=o.play,
        )

    # ---- text ----

    def parse_action(self, text: str) -> NestorsAction:
        """Read an action from its text form (see :func:`parse_action`)."""
        return parse_action(text)

    def observation_from_json(self, data: Mapping[str, Any]) -> NestorsObservation:
        """Rebuild an observation from ``to_json`` data.

        Raises:
            ValueError: the data is not a Nestors observation.
        """
        if data.get("num_players") != 4:
            raise ValueError("observation: 'num_players' must be 4")
        obs = _CODEC.decode(data, NestorsObservation, num_players=4)
        assert isinstance(obs, NestorsObservation)
        return obs

    def render(self, observation: NestorsObservation) -> str:
        """The table as text for the observing seat."""
        from cardcore_nestors.render import render_observation

        return render_observation(observation)


_TEAM_NAMES: Final = ("seats 0 and 2", "seats 1 and 3")
_WRONG_KIND: Final = {
    Phase.AUCTION: "it is the auction: bid or pass",
    Phase.TRUMP: "you won the auction: name the trump rank (A, J or 10)",
    Phase.LEAD: "trick 1 starts with your trump: play one",
    Phase.TAKE: "take two of the face-up row cards with your trump",
    Phase.PLAY: "it is time to play a card",
    Phase.LEAVE: "you won the trick: leave one of the four cards as the carry card",
}


def _check_deck(deck: Sequence[Card]) -> list[int]:
    ids = []
    for c in deck:
        if not isinstance(c, Card):
            raise ValueError(f"the deck must hold Card values, not {c!r}")
        ids.append(c.id)
    bad = [str(Card.of(c)) for c in ids if not (_DECK >> c) & 1]
    if bad:
        raise ValueError(f"the deck holds cards outside the 36-card deck: {' '.join(bad)}")
    dup = {c for c in ids if ids.count(c) > 1}
    if dup:
        raise ValueError(
            f"the deck holds some cards twice: {_cards_text(sum(1 << c for c in dup))}"
        )
    if len(ids) != 36:
        missing = _cards_text(_DECK & ~sum(1 << c for c in ids))
        raise ValueError(f"the deck must hold all 36 cards; missing: {missing}")
    return ids


def _deal_state(
    table: CardTable, rng: int, match: MatchInfo, dealer: int, number: int
) -> NestorsState:
    """The state at the start of an auction (NS-4.1: the dealer's right calls first)."""
    return NestorsState(
        table=table,
        rng=rng,
        phase=Phase.AUCTION,
        current=(dealer + 1) % 4,
        match=match,
        deal=DealInfo(
            number=number, dealer=dealer, calls=(), passed=0, high=0, bidder=None, trump=0
        ),
        play=_NO_PLAY,
    )


def _next_caller(seat: int, passed: int) -> int:
    nxt = (seat + 1) % 4
    while (passed >> nxt) & 1:
        nxt = (nxt + 1) % 4
    return nxt


def _required(a: int, b: int) -> int:
    """NS-4.13: the cards C must play (or a trump) if C holds any of them."""
    return _REQUIRED[a // 13][b // 13]


_REQUIRED: Final = tuple(
    tuple(
        _SUIT_MASK[sa] if sa == sb else _DECK ^ _SUIT_MASK[sa] ^ _SUIT_MASK[sb] for sb in range(4)
    )
    for sa in range(4)
)
"""``_REQUIRED[suit of A][suit of B]``: the cards C must play (NS-4.13), see ``_required``."""


def _c_reason(a: int, b: int, required: int, trump: int) -> str:
    sa, sb = a // 13, b // 13
    yours = _cards_text(required)
    if sa == sb:
        return (
            f"both cards are {_SUIT_NAMES[sa]}: you must follow {_SUIT_NAMES[sa]} or play "
            f"a trump ({_RANK_WORD[trump]}): you hold {yours}"
        )
    third = [_SUIT_NAMES[s] for s in range(4) if s not in (sa, sb)]
    return (
        f"{_SUIT_NAMES[sa]} and {_SUIT_NAMES[sb]} were played: you must play the third "
        f"suit ({third[0]} or {third[1]}) or a trump ({_RANK_WORD[trump]}): you hold {yours}"
    )


def _to_trick(table: CardTable, card: int, src: int) -> CardTable:
    """Move a card face up from ``src`` to the trick (everyone sees it).

    Only used once the stock is empty, so the trick is the only ordered zone with cards.
    """
    bit = 1 << card
    masks = list(table[1])
    masks[src] ^= bit
    masks[TRICK] |= bit
    k0, k1, k2, k3 = table[3]
    return _tnew(
        CardTable,
        (
            LAYOUT,
            tuple(masks),
            ((), (), (), (), (), (), (), (*table[2][TRICK], card), (), ()),
            (k0 | bit, k1 | bit, k2 | bit, k3 | bit),
        ),
    )


def _positive_constraints(o: NestorsObservation) -> list[tuple[int, int]]:
    """Cards some other seat must hold, as the rules reveal: ``(zone, mask)`` pairs."""
    if o.phase not in (Phase.AUCTION, Phase.TRUMP, Phase.LEAD):
        return []
    d = o.deal
    seats = {s for s, b in d.calls if b}
    if o.phase is Phase.AUCTION and d.passed.bit_count() == 3:
        seats.add(d.dealer)  # the deal was not void: the dealer holds an A, J or 10
    need = {HAND + s: _HIGH for s in seats}
    if o.phase is Phase.LEAD and d.bidder is not None:
        need[HAND + d.bidder] = _RANK_MASK[d.trump]
    return [(z, m) for z, m in sorted(need.items()) if z != HAND + o.seat]


def _sample_placed(
    o: NestorsObservation,
    rng: random.Random,
    exclude: Mapping[int, int],
    need: Sequence[tuple[int, int]],
) -> CardTable:
    """Sample after placing one required card in each constrained hand."""
    view = o.table
    known_all = 0
    for m in view.known:
        known_all |= m
    free = _DECK & ~known_all
    known = list(view.known)
    placed = 0
    for z, m in need:
        options = list(card_ids(free & m & ~placed & ~exclude.get(z, 0)))
        if not options:
            raise ValueError("no deal of the unknown cards satisfies the constraints")
        c = rng.choice(options)
        placed |= 1 << c
        known[z] |= 1 << c
    fake = TableView(view.layout, view.seat, view.sizes, tuple(known), view.orders)
    t = sample_table(fake, rng, exclude=exclude, tries=2000)
    k = list(t.known)
    if o.seat != SPECTATOR:  # the observer does not know where the placed cards are
        k[o.seat] &= ~placed
    else:  # an onlooker's sample gives every seat the onlooker's knowledge: not these
        k = [ks & ~(placed & ~t.masks[HAND + s]) for s, ks in enumerate(k)]
    return CardTable(LAYOUT, t.masks, t.orders, tuple(k))


def check_invariants(game: Nestors, state: NestorsState) -> None:
    """Check the invariants of spec section 9 (and a few of section 6) on a state.

    Raises:
        AssertionError: naming the broken invariant.
    """
    t = state.table
    t.check()  # NS-9.1: each of the 36 cards in exactly one zone
    total = sum(t.size(z) for z in range(_NZ))
    assert total == 36, f"NS-9.1: {total} cards on the table, not 36"
    sizes = [t.size(HAND + s) for s in range(4)]
    phase = state.phase
    d = state.deal
    p = state.play
    if phase in (Phase.AUCTION, Phase.TRUMP):  # NS-9.2: after the first deal
        assert sizes == [5, 5, 5, 5], f"NS-9.2: hands {sizes} after the first deal"
        got = (t.size(HOLE), t.size(ROW), t.size(STOCK))
        assert got == (1, 3, 12), f"NS-9.2: hole, row and stock hold {got} after the first deal"
    high = 0
    for seat, b in d.calls:  # NS-9.7
        if b:
            assert b % 5 == 0, f"NS-9.7: bid {b} is not a multiple of 5"
            assert game.options.min_bid <= b <= MAX_BID, f"NS-9.7: bid {b} is out of range"
            assert b > high, f"NS-9.7: bid {b} by seat {seat} does not raise {high}"
            high = b
    assert high == d.high, f"NS-9.7: the high bid is {d.high} but the calls say {high}"
    if phase in (Phase.LEAD, Phase.TAKE, Phase.PLAY, Phase.LEAVE):
        assert d.bidder is not None, "NS-4.3: trick play without a bidder"
        assert d.trump in _TRUMP_RANKS, "NS-4.7: trick play without a trump rank"
        assert (t.size(STOCK), t.size(HOLE)) == (0, 0), "NS-9.2: cards left undealt"
        played = t.size(TRICK)
        if phase is Phase.LEAD:
            assert (played, t.size(ROW)) == (0, 3), "NS-9.2: 3 face-up cards after the deal"
        elif phase is Phase.TAKE:
            assert (played, t.size(ROW)) == (1, 3), "NS-4.11: the trump waits for 2 row cards"
        elif phase is Phase.PLAY:
            assert t.size(ROW) == 1, f"NS-9.3: {t.size(ROW)} carry cards during trick play"
            assert played < (3 if p.trick < 12 else 2), "NS-4.13: too many cards in the trick"
            who = (p.leader + played) % 4
            assert state.current == who, f"NS-4.13: seat {state.current} plays, not {who}"
            assert sizes[who] > 0, f"NS-9.6: seat {who} must play but has no card"
        else:
            assert p.trick < 12, "NS-4.16: nothing is left in trick 12"
            assert (played, t.size(ROW)) == (3, 1), "NS-4.15: the winner takes 3 of 4 cards"
        want = list(_hand_sizes(p.trick, played, d.bidder))
        assert sizes == want, f"NS-9.6: hands {sizes} in trick {p.trick}, expected {want}"
        for team in (0, 1):  # NS-9.4: every trick holds exactly 3 cards
            won = t.size(WON + team)
            assert won == 3 * p.tricks[team], f"NS-9.4: {won} cards in {p.tricks[team]} tricks"
            pts = _mask_points(t.masks[WON + team], _POINTS[d.trump]) + 5 * p.tricks[team]
            assert pts == p.points[team], f"NS-6.1: running points {p.points}, expected {pts}"
        done = p.tricks[0] + p.tricks[1]
        assert done == p.trick - 1, f"NS-9.4: {done} tricks won before trick {p.trick}"
    r = state.match.last_hand
    if phase is Phase.OVER and r is not None and not r.void:  # the final hand
        assert (t.size(ROW), t.size(TRICK)) == (0, 0), "NS-9.3: cards left after trick 12"
        won = t.size(WON) + t.size(WON + 1)
        assert won == 36, f"NS-9.4: only {won} cards in tricks at the end of the hand"
        assert sum(p.tricks) == 12, f"NS-9.4: {sum(p.tricks)} tricks in the hand"
    if r is not None and not r.void:  # NS-9.5, NS-9.8
        assert r.bidder is not None
        assert sum(r.points) == 190, f"NS-9.5: hand points {r.points} do not total 190"
        dp = r.points[r.bidder % 2]
        assert r.made == (dp >= r.contract), "NS-6.2: made means D >= contract"
        if r.made:
            want_sum = 190
        elif game.options.fail_penalty == "taken":
            want_sum = 190 - 2 * dp
        else:
            want_sum = 190 - dp - r.contract
        assert sum(r.change) == want_sum, f"NS-9.8: hand scores {r.change} sum wrongly"
    assert d.number <= game.max_deals, "safety rule: too many deals"


_CODEC = JsonCodec((Bid, Pass, Trump, Take, Play, Leave), parse_action, lambda n: LAYOUT)
