"""Box rules (rule ids ``BX-…`` refer to the Box specification).

Four players each have a hand of up to four cards and a *box* of up to four face-down
cards that nobody, the owner included, may look at. A round is a descending run: the
leader plays the highest rank in their hand, and each following player must play a card
of rank equal to or lower than the last one (an equal rank reverses the direction). A
player who cannot follow turns up a random box card: if it fits it is played, if it is
too high it goes to the extra pile of the player who played last, who wins the round.
After a round hands are refilled to four, boxes are refilled for players who played from
their box, and players with an empty box are out. The last player with a box wins.

Cards are ids (``suit * 13 + rank - 2``) and card sets are ``int`` bitmasks; the
state's table (:class:`cardcore.CardTable`) holds every card and who knows it.
"""

from __future__ import annotations

import enum
import random
import struct
from collections.abc import Mapping, Sequence
from typing import Any, Final, final

import attrs

from cardcore import (
    DECK_52,
    SPECTATOR,
    Card,
    CardTable,
    IllegalActionError,
    JsonCodec,
    Layout,
    Outcome,
    TableView,
    Visibility,
    Zone,
    new_table,
    option,
    parse_card,
    rng_below,
    rng_seed,
    sample_table,
)

__all__ = [
    "BOX",
    "DISCARD",
    "DRAW",
    "EXTRA",
    "HAND",
    "NUM_PLAYERS",
    "PRESETS",
    "TABLE",
    "Box",
    "BoxAction",
    "BoxObservation",
    "BoxOptions",
    "BoxState",
    "Ending",
    "Play",
    "RoundResult",
    "TurnUp",
    "layout",
]

NUM_PLAYERS: Final = 4
"""Box is for exactly four players (BX-1.1)."""
HAND_SIZE: Final = 4
"""Cards in a full hand (BX-3.2, BX-5.2a)."""
BOX_SIZE: Final = 4
"""Cards in a full box (BX-2.2, BX-3.2)."""

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


# ---- precomputed card facts (BX-2.1: ranks only, suits play no part) ------------------

_RANK: Final[tuple[int, ...]] = tuple(c % 13 for c in range(52))
"""Per card id, its rank index: 0 for a 2 … 12 for an ace."""
_OF_RANK: Final[tuple[int, ...]] = tuple(
    sum(1 << (s * 13 + r) for s in range(4)) for r in range(13)
)
"""Per rank index, the mask of the four cards of that rank."""
_UP_TO: Final[tuple[int, ...]] = tuple(sum(_OF_RANK[: r + 1]) for r in range(13))
"""Per rank index, the mask of every card of that rank or lower."""
_ABOVE: Final[tuple[int, ...]] = tuple(((1 << 52) - 1) & ~m for m in _UP_TO)
"""Per rank index, the mask of every card of a higher rank."""
_SHOW_ORDER: Final[tuple[int, ...]] = tuple((12 - c % 13) * 4 + c // 13 for c in range(52))
"""Per card id, its place when listing cards: highest rank first, then by suit."""
_FOLLOW: Final[tuple[int, ...]] = tuple(_UP_TO[_RANK[c]] for c in range(52))
"""Per card id, the mask of every card that may follow it (rank equal or lower)."""
_LOW13: Final = (1 << 13) - 1
_ALL52: Final = (1 << 52) - 1
_BIT: Final[tuple[int, ...]] = tuple(1 << c for c in range(52))
"""Per card id, its bit in a card mask."""
_RANK_WORDS: Final = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


def _next_table(active: int, step: int) -> tuple[int, ...]:
    out = []
    for seat in range(NUM_PLAYERS):
        nxt = seat
        for _ in range(NUM_PLAYERS):
            nxt = (nxt + step) % NUM_PLAYERS
            if (active >> nxt) & 1:
                break
        out.append(nxt)
    return tuple(out)


_CLOCKWISE_FROM: Final = tuple(
    tuple((w + k) % NUM_PLAYERS for k in range(NUM_PLAYERS)) for w in range(NUM_PLAYERS)
)
"""Per seat, every seat clockwise starting with it (the refill order of BX-5.2)."""
_NEXT_CW: Final = tuple(_next_table(a, 1) for a in range(16))
"""Per active-seat mask and seat, the next active seat clockwise (BX-4.7)."""
_NEXT_ACW: Final = tuple(_next_table(a, -1) for a in range(16))
"""Per active-seat mask and seat, the next active seat anticlockwise (BX-4.7)."""
_NEXT: Final = (_NEXT_CW, _NEXT_CW, _NEXT_ACW)
"""Indexed by the direction: ``_NEXT[1]`` is clockwise, ``_NEXT[-1]`` anticlockwise."""
_NOBODY_OUT: Final = (0,) * NUM_PLAYERS
"""``BoxState.out`` while every seat is in."""
_SEAT1: Final = tuple((s,) for s in range(NUM_PLAYERS))
"""Per seat, the one-element tuple added to ``played_by``."""

# ---- options and presets (BX-7) -------------------------------------------------------


@final
@attrs.frozen(kw_only=True)
class BoxOptions:
    """The rule variants of Box (BX-7)."""

    box_refill: str = option(
        "fill_to_four",
        choices=("fill_to_four", "replace_played"),
        doc="box cards drawn after a round with a successful box play: fill the box to "
        "four (minus a card lost that round), or one per box card played (BX-5.2b)",
    )
    """``fill_to_four`` (seed) or ``replace_played`` (pagat)."""


PRESETS: Final[Mapping[str, BoxOptions]] = {
    "default": BoxOptions(),
    "pagat": BoxOptions(box_refill="replace_played"),
}
"""The named presets: ``default`` follows the seed, ``pagat`` the published source."""

# ---- actions ---------------------------------------------------------------------------


@final
@attrs.frozen
class Play:
    """Play a card from the hand: ``play 9♠`` (BX-4.3, BX-4.4)."""

    card: Card
    """The hand card played."""

    def __str__(self) -> str:
        return f"play {self.card}"


@final
@attrs.frozen
class TurnUp:
    """Turn up a random card of one's own box: ``turn up`` (BX-4.3, BX-4.6)."""

    def __str__(self) -> str:
        return "turn up"


BoxAction = Play | TurnUp
"""Any Box action."""

_PLAYS: Final[tuple[Play, ...]] = tuple(Play(Card.of(c)) for c in range(52))
_PLAY_ID: Final[dict[int, int]] = {id(p): c for c, p in enumerate(_PLAYS)}
"""The card id of each shared Play value, by object identity (cheaper than ``card.id``)."""
_ONE_PLAY: Final[tuple[tuple[BoxAction, ...], ...]] = tuple((p,) for p in _PLAYS)
"""Per card id, the legal-action tuple holding only that card's play."""
_PLAY_SHOWN: Final[tuple[Play, ...]] = tuple(
    _PLAYS[c] for c in sorted(range(52), key=_SHOW_ORDER.__getitem__)
)
"""The plays in listing order: ``_PLAY_SHOWN[_SHOW_ORDER[c]]`` plays card ``c``."""
_CARD1: Final[tuple[tuple[int], ...]] = tuple((c,) for c in range(52))
"""Per card id, the one-element tuple added to the table's order."""
_TWO_PLAYS: Final[tuple[tuple[BoxAction, ...], ...]] = tuple(
    ((_PLAYS[hi], _PLAYS[lo]) if _SHOW_ORDER[hi] < _SHOW_ORDER[lo] else (_PLAYS[lo], _PLAYS[hi]))
    if hi > lo
    else ()
    for hi in range(52)
    for lo in range(52)
)
"""At ``hi * 52 + lo`` (card ids, ``hi > lo``): the legal-action tuple of those two plays,
in listing order."""
_TURN_UP: Final = TurnUp()
_NOT_BOXED: Final = (False,)
_BOXED: Final = (True,)
_NO_DRAWS: Final[tuple[int, ...]] = (0, 0, 0, 0)
_ONLY_TURN_UP: Final[tuple[BoxAction, ...]] = (_TURN_UP,)

# ---- public records ------------------------------------------------------------------


class Ending(enum.Enum):
    """How a round ended (BX-4.6)."""

    FAILED_DRAW = "failed draw"
    """A stuck player turned up a box card that was too high (BX-4.6a)."""
    EMPTY_BOX = "empty box"
    """A stuck player had no box card left to turn up (BX-4.6b)."""


@final
@attrs.frozen(slots=False)
class RoundResult:
    """What every player saw at the end of a round (all public, BX-8.1).

    Without ``__slots__``, like :class:`BoxState`: the rules give a new one its field
    dict directly, because one is made at the end of every round.
    """

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


# ---- state and observation ------------------------------------------------------------


@final
@attrs.frozen(slots=False)
class BoxState:
    """A full Box state: every card (in ``table``) and the RNG. Never shown to bots.

    Every other field is a public fact (BX-8.1). The class has no ``__slots__``: a
    decision makes a new state by copying the field dict of the one before and changing
    the few fields that moved (see ``_new_state``), about half the constructor's cost.
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
    last_round: RoundResult | None
    """How the previous round ended, or ``None`` in round 1."""


@final
@attrs.frozen(kw_only=True)
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
    last_round: RoundResult | None
    """How the previous round ended."""
    table: TableView
    """The cards as this seat knows them (sizes of every zone are public)."""
    legal_actions: tuple[BoxAction, ...]
    """This seat's legal actions when it is to move, else ``()``."""

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data."""
        return _CODEC.encode(self)  # type: ignore[no-any-return]

    def box_plays(self, seat: int) -> int:
        """The successful box plays of ``seat`` in the current round."""
        return sum(1 for s, b in zip(self.played_by, self.from_box, strict=True) if b and s == seat)


# ---- the rules ------------------------------------------------------------------------


# ---- table moves -----------------------------------------------------------------------
#
# Box's moves are few and simple, so they are written as direct CardTable constructions
# (one allocation instead of one per card). Each does exactly what the matching
# ``CardTable.move`` / ``draw`` would do to the knowledge masks; the tests compare them
# with the core's moves and check the knowledge invariants after every action.


def _show(t: CardTable, c: int, src: int, dst: int) -> CardTable:
    """Move card ``c`` from ``src`` (a hand or a box) face up to a public zone ``dst``.

    Like ``t.move(c, src, dst)``: every seat sees a card that lands in a public zone.
    """
    bit = 1 << c
    masks = list(t.masks)
    masks[src] ^= bit
    masks[dst] |= bit
    orders = t.orders
    if dst == TABLE:
        new = list(orders)
        new[TABLE] = (*orders[TABLE], c)
        orders = tuple(new)
    k0, k1, k2, k3 = t.known
    return CardTable(t.layout, tuple(masks), orders, (k0 | bit, k1 | bit, k2 | bit, k3 | bit))


_new_state: Final = object.__new__
_set_fields: Final = object.__setattr__
"""``BoxState`` and ``RoundResult`` have no ``__slots__``, validators or converters: the
rules make one as ``_new_state(cls)`` and give it its complete field dict with
``_set_fields(obj, "__dict__", fields)``. That is the value the constructor would build
(equality, hashing and ``repr`` read the same fields), at about half the cost."""


def _deal(lay: Layout, order: Sequence[int], dealer: int) -> CardTable:
    """BX-3.2: deal ``order`` (top first) one card at a time from the dealer's left.

    The first 16 cards make the four boxes (seen by nobody), the next 16 the four hands
    (each seen by its owner); the other 20 stay in the draw pile, top card on top. This
    is what 32 ``draw`` moves from a freshly shuffled draw pile give. ``order`` holds
    each of the 52 card ids once, so the draw pile is every card not dealt.
    """
    o = order
    # Position i of the deal goes to the (i % 4)-th seat from the dealer's left.
    b0 = 1 << o[0] | 1 << o[4] | 1 << o[8] | 1 << o[12]
    b1 = 1 << o[1] | 1 << o[5] | 1 << o[9] | 1 << o[13]
    b2 = 1 << o[2] | 1 << o[6] | 1 << o[10] | 1 << o[14]
    b3 = 1 << o[3] | 1 << o[7] | 1 << o[11] | 1 << o[15]
    h0 = 1 << o[16] | 1 << o[20] | 1 << o[24] | 1 << o[28]
    h1 = 1 << o[17] | 1 << o[21] | 1 << o[25] | 1 << o[29]
    h2 = 1 << o[18] | 1 << o[22] | 1 << o[26] | 1 << o[30]
    h3 = 1 << o[19] | 1 << o[23] | 1 << o[27] | 1 << o[31]
    masks = [0] * len(lay.zones)
    known = [0] * NUM_PLAYERS
    for seat, b, h in zip(
        _CLOCKWISE_FROM[(dealer + 1) % NUM_PLAYERS], (b0, b1, b2, b3), (h0, h1, h2, h3), strict=True
    ):
        masks[BOX + seat] = b
        masks[HAND + seat] = h
        known[seat] = h
    masks[DRAW] = _ALL52 ^ (b0 | b1 | b2 | b3 | h0 | h1 | h2 | h3)
    orders: list[tuple[int, ...]] = [()] * len(lay.zones)
    orders[DRAW] = tuple(o[:31:-1])
    return new_table((lay, tuple(masks), tuple(orders), tuple(known)))


# The 26 draws of a deal, computed together: lane k (128 bits wide) of one big integer
# holds the (k + 1)-th SplitMix64 draw (the core's ``rng_next``), so each step of the
# mixing function is one big-integer operation instead of 26. A lane's values stay below
# 2**128, so no carry crosses into the next lane; masking keeps each lane's low 64 bits.
_M64: Final = (1 << 64) - 1
_GAMMA: Final = 0x9E3779B97F4A7C15
_LANES: Final = 26
_LANE_ONES: Final = sum(1 << (128 * k) for k in range(_LANES))
_LANE_MASK: Final = _M64 * _LANE_ONES
_LANE_STEPS: Final = sum(((k + 1) * _GAMMA) << (128 * k) for k in range(_LANES))
_LANE_HALVES: Final = struct.Struct("<" + "II8x" * _LANES)
"""Reads each lane's low and high 32 bits (the two indices of one draw)."""
_DOWN_FROM_51: Final = tuple(range(51, 0, -1))


def _shuffle52(rng: int) -> tuple[list[int], int]:
    """A uniformly shuffled deck (Fisher-Yates) and the next RNG state.

    Each 64-bit draw of the state's RNG gives two 32-bit indices (multiply-shift), so
    a deal costs 26 draws instead of 51; the bias is below 52 / 2**32 per swap. Swap
    ``n`` (of positions ``51 - n`` and ``j``) uses the low half of draw ``n // 2`` for
    even ``n`` and its high half for odd ``n``.
    """
    z = (rng * _LANE_ONES + _LANE_STEPS) & _LANE_MASK
    z = ((z ^ (z >> 30)) & _LANE_MASK) * 0xBF58476D1CE4E5B9 & _LANE_MASK
    z = ((z ^ (z >> 27)) & _LANE_MASK) * 0x94D049BB133111EB & _LANE_MASK
    z ^= z >> 31  # each lane's low 64 bits are now its draw
    order = list(range(52))
    halves = _LANE_HALVES.unpack(z.to_bytes(16 * _LANES, "little"))
    # The 52nd half would swap position 0 with itself: zip stops before it.
    for i, x in zip(_DOWN_FROM_51, halves, strict=False):
        j = (x * (i + 1)) >> 32
        order[i], order[j] = order[j], order[i]
    return order, (rng + _LANES * _GAMMA) & _M64


def _kth(mask: int, k: int) -> int:
    """The id of the ``k``-th card (0-based, lowest id first) of a mask."""
    for _ in range(k):
        mask &= mask - 1
    return (mask & -mask).bit_length() - 1


@final
class Box:
    """The Box rules under fixed options; build it with ``cardcore.load_game("box")``."""

    name = "box"
    min_players = NUM_PLAYERS
    max_players = NUM_PLAYERS

    def __init__(self, options: BoxOptions | None = None) -> None:
        self.options: Final = options or BoxOptions()
        """The typed options."""
        self._fill: Final = self.options.box_refill == "fill_to_four"

    def __repr__(self) -> str:
        return f"Box({self.options!r})"

    def teams(self, num_players: int) -> tuple[tuple[int, ...], ...] | None:
        """No partnerships: every player plays for themselves."""
        return None

    def max_decisions(self, num_players: int) -> int:
        """A true bound: each decision takes one card out of a hand or a box for good.

        Cards only reach hands and boxes from the deal and the draw pile, which never
        grows (BX-9.7), so a game has at most 52 decisions (BX-9.8).
        """
        return 52

    # ---- setup (BX-3) ----------------------------------------------------------------

    def initial_state(
        self,
        num_players: int,
        seed: int,
        *,
        dealer: int | None = None,
        deck: Sequence[Card] | None = None,
    ) -> BoxState:
        """Shuffle (or stack) and deal: four box cards, then four hand cards each.

        Args:
            num_players: must be 4 (BX-1.1).
            seed: seeds the state's RNG (the shuffle, the dealer, box turn-ups).
            dealer: the dealer seat, or ``None`` to pick one at random (BX-3.1).
            deck: a stacked deck of all 52 cards, top card first; it goes to the
                dealer's left first, so its first 16 cards are the boxes (BX-3.2).

        Raises:
            ValueError: a wrong player count, dealer seat or deck.
        """
        lay = layout(num_players)
        rng = rng_seed(seed)
        if dealer is None:
            dealer, rng = rng_below(rng, NUM_PLAYERS)
        elif not isinstance(dealer, int) or not 0 <= dealer < NUM_PLAYERS:
            raise ValueError(f"dealer must be a seat 0-3, not {dealer!r}")
        if deck is not None:
            if not all(isinstance(c, Card) for c in deck):
                raise ValueError("a stacked deck must be a sequence of cards")
            ids: Sequence[int] = [c.id for c in deck]
            if len(ids) != 52 or len(set(ids)) != 52:
                raise ValueError(
                    f"a stacked deck must hold each of the 52 cards exactly once "
                    f"(got {len(ids)} cards, {len(set(ids))} different)"
                )
        else:
            ids, rng = _shuffle52(rng)
        first = (dealer + 1) % NUM_PLAYERS
        return BoxState(
            _deal(lay, ids, dealer), rng, dealer, 1, first, first, 1, 15, _NOBODY_OUT, (), (), None
        )

    # ---- decisions (BX-4) -------------------------------------------------------------

    def current_player(self, state: BoxState) -> int | None:
        """The seat to decide, or ``None`` at the end."""
        return state.current

    def legal_actions(self, state: BoxState) -> tuple[BoxAction, ...]:
        """The current player's options, highest rank first (then by suit).

        Leading: every hand card of the highest rank held (BX-4.3), or ``turn up`` with
        an empty hand. Following: every hand card of rank <= the last table card, or
        ``turn up`` when there is none (BX-4.4, BX-4.6).
        """
        cur = state.current
        if cur is None:
            return ()
        t = state.table
        hand = t.masks[HAND + cur]
        order = t.orders[TABLE]
        if order:
            m = hand & _FOLLOW[order[-1]]
        elif hand:
            folded = (hand | hand >> 13 | hand >> 26 | hand >> 39) & _LOW13
            m = hand & _OF_RANK[folded.bit_length() - 1]
        else:
            return _ONLY_TURN_UP
        if not m:
            return _ONLY_TURN_UP
        if not m & (m - 1):
            return _ONE_PLAY[m.bit_length() - 1]
        # Two cards: one table look-up by the pair (higher id first).
        hi = m.bit_length() - 1
        rest = m ^ _BIT[hi]
        if not rest & (rest - 1):
            return _TWO_PLAYS[hi * 52 + rest.bit_length() - 1]
        # Three or four cards (a hand holds at most four): sort their listing places,
        # then map them back to plays.
        shown = []
        while m:
            c = m.bit_length() - 1
            shown.append(_SHOW_ORDER[c])
            m ^= _BIT[c]
        shown.sort()
        plays = _PLAY_SHOWN
        if len(shown) == 2:
            return (plays[shown[0]], plays[shown[1]])
        if len(shown) == 3:
            return (plays[shown[0]], plays[shown[1]], plays[shown[2]])
        if len(shown) == 4:
            return (plays[shown[0]], plays[shown[1]], plays[shown[2]], plays[shown[3]])
        return tuple(map(plays.__getitem__, shown))  # not in a real game: hands hold 4

    def apply(self, state: BoxState, action: BoxAction) -> BoxState:
        """Play ``action`` for the current player; return the new state.

        Raises:
            IllegalActionError: the action is not legal here (the reason says why).
        """
        cur = state.current
        if cur is None:
            raise IllegalActionError(action, "the game is over")
        t = state.table
        masks = t.masks
        hand = masks[HAND + cur]
        order = t.orders[TABLE]
        rng = state.rng
        c = _PLAY_ID.get(id(action), -1)
        if c >= 0 or isinstance(action, Play):
            if c < 0:
                card = action.card  # type: ignore[union-attr]
                if not isinstance(card, Card):
                    raise IllegalActionError(action, "not a card", self.legal_actions(state))
                c = card.id
            if not (hand >> c) & 1:
                raise IllegalActionError(
                    action,
                    f"you do not hold {DECK_52[c]} in your hand",
                    self.legal_actions(state),
                )
            if order:
                top = order[-1]
                if _RANK[c] > _RANK[top]:
                    raise IllegalActionError(
                        action,
                        f"{DECK_52[c]} is higher than the {DECK_52[top]} on the table",
                        self.legal_actions(state),
                    )
            else:
                folded = (hand | hand >> 13 | hand >> 26 | hand >> 39) & _LOW13
                best = folded.bit_length() - 1  # the highest rank held
                if _RANK[c] != best:
                    raise IllegalActionError(
                        action,
                        f"you must lead your highest rank: {DECK_52[c]} is lower than your "
                        f"{_RANK_WORDS[best]}",
                        self.legal_actions(state),
                    )
            src = HAND + cur
            boxed = _NOT_BOXED
        else:
            if not isinstance(action, TurnUp):
                raise IllegalActionError(
                    action,
                    "that is not a Box action (play a card or turn up)",
                    self.legal_actions(state),
                )
            if order:
                top = order[-1]
                if hand & _FOLLOW[top]:
                    raise IllegalActionError(
                        action,
                        f"you can follow the {DECK_52[top]} from your hand, so you may not "
                        "turn up a box card",
                        self.legal_actions(state),
                    )
            elif hand:
                raise IllegalActionError(
                    action,
                    "you hold cards, so you must lead your highest card from your hand",
                    self.legal_actions(state),
                )
            src = BOX + cur
            box = masks[src]
            # BX-4.6a / BX-4.3: a box card chosen uniformly at random, seen by nobody
            # before: the k-th card of the box, lowest id first, with k drawn as the
            # core's ``rng_below(rng, box.bit_count())`` does (written out here).
            rng = (rng + _GAMMA) & _M64
            z = ((rng ^ (rng >> 30)) * 0xBF58476D1CE4E5B9) & _M64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
            k = ((z ^ (z >> 31)) * box.bit_count()) >> 64
            for _ in range(k):
                box &= box - 1
            c = (box & -box).bit_length() - 1
            if order and _RANK[c] > _RANK[order[-1]]:
                # Failed draw: the card goes face up to the last player's extra pile
                # (what ``t.move(c, src, EXTRA + winner)`` does); they win the round.
                winner = state.played_by[-1]
                bit = _BIT[c]
                new_masks = list(masks)
                new_masks[src] ^= bit
                new_masks[EXTRA + winner] |= bit
                k0, k1, k2, k3 = t.known
                return self._end_round(
                    state,
                    new_masks,
                    [k0 | bit, k1 | bit, k2 | bit, k3 | bit],
                    order,
                    t.orders[DRAW],
                    rng,
                    state.played_by,
                    state.from_box,
                    winner,
                    cur,
                    Ending.FAILED_DRAW,
                    c,
                )
            boxed = _BOXED
        # The card goes face up onto the table: what ``t.move(c, src, TABLE)`` does
        # (every seat sees it). Only the draw pile and the table are ordered zones.
        bit = _BIT[c]
        new_masks = list(masks)
        new_masks[src] ^= bit
        new_masks[TABLE] |= bit
        k0, k1, k2, k3 = t.known
        # BX-4.5: an equal rank reverses; BX-4.4, BX-4.7: the next active seat follows.
        direction = state.direction
        if order and _RANK[order[-1]] == _RANK[c]:
            direction = -direction
        nxt = _NEXT[direction][state.active][cur]
        played_by = state.played_by + _SEAT1[cur]
        from_box = state.from_box + boxed
        order += _CARD1[c]
        if not new_masks[BOX + nxt] and not new_masks[HAND + nxt] & _FOLLOW[c]:
            # BX-4.6b: stuck with an empty box; the round ends, nothing else moves.
            return self._end_round(
                state,
                new_masks,
                [k0 | bit, k1 | bit, k2 | bit, k3 | bit],
                order,
                t.orders[DRAW],
                rng,
                played_by,
                from_box,
                cur,
                nxt,
                Ending.EMPTY_BOX,
                None,
            )
        t = new_table(
            (
                t.layout,
                tuple(new_masks),
                (t.orders[DRAW], (), (), (), (), (), (), (), (), (), (), (), (), order, ()),
                (k0 | bit, k1 | bit, k2 | bit, k3 | bit),
            ),
        )
        # The next state differs in at most six fields: copy the others (see
        # ``_new_state``); the RNG only moves on a turn-up, the direction on a reverse.
        fields = state.__dict__.copy()
        fields["table"] = t
        if boxed is _BOXED:
            fields["rng"] = rng
        fields["current"] = nxt
        if direction != state.direction:
            fields["direction"] = direction
        fields["played_by"] = played_by
        fields["from_box"] = from_box
        new_state = _new_state(BoxState)
        _set_fields(new_state, "__dict__", fields)
        return new_state

    # ---- end of a round (BX-5) --------------------------------------------------------

    def _end_round(
        self,
        state: BoxState,
        masks: list[int],
        known: list[int],
        order: tuple[int, ...],
        pile: tuple[int, ...],
        rng: int,
        played_by: tuple[int, ...],
        from_box: tuple[bool, ...],
        winner: int,
        stuck: int,
        ending: Ending,
        turned_up: int | None,
    ) -> BoxState:
        """End the round (BX-5) and start the next one.

        ``masks`` and ``known`` (changed in place) are the table's once the round's last
        card moved, ``order`` the round's table cards, ``pile`` the draw pile.
        """
        cards = tuple(map(DECK_52.__getitem__, order))
        # BX-5.1: the table cards (public already) go to the discard.
        masks[DISCARD] |= masks[TABLE]
        masks[TABLE] = 0
        active = state.active
        left = len(pile)  # bottom first: the top card is the last
        hand_draws = box_draws = _NO_DRAWS
        if left:
            # BX-5.2: serve each active player in turn, clockwise from the round winner;
            # hand cards are seen by their owner, box cards by nobody.
            box_plays: Sequence[int] = _NO_DRAWS
            if True in from_box:
                counts = [0, 0, 0, 0]
                for s, b in zip(played_by, from_box, strict=True):
                    if b:
                        counts[s] += 1
                box_plays = counts
            failed = stuck if ending is Ending.FAILED_DRAW else -1
            fill = self._fill
            hands = [0, 0, 0, 0]
            boxes = [0, 0, 0, 0]
            drawn = 0
            for p in _CLOCKWISE_FROM[winner]:
                if not (active >> p) & 1:
                    continue
                need = HAND_SIZE - masks[HAND + p].bit_count()
                if need:
                    need = min(need, left)
                    got = 0
                    for c in pile[left - need : left]:
                        got |= _BIT[c]
                    left -= need
                    masks[HAND + p] |= got
                    known[p] |= got
                    drawn |= got
                    hands[p] = need
                if box_plays[p] and left:
                    size = masks[BOX + p].bit_count()
                    if fill:
                        need = BOX_SIZE - (p == failed) - size
                    else:
                        need = min(box_plays[p], BOX_SIZE - size)
                    need = min(need, left)
                    if need > 0:
                        got = 0
                        for c in pile[left - need : left]:
                            got |= _BIT[c]
                        left -= need
                        masks[BOX + p] |= got
                        drawn |= got
                        boxes[p] = need
                if not left:
                    break
            hand_draws = tuple(hands)
            box_draws = tuple(boxes)
            # The drawn cards were the top of the pile: what is left is its bottom.
            pile = pile[:left]
            masks[DRAW] ^= drawn
        # BX-5.3: an empty box after the refill puts a player out; the hand goes to the
        # discard face down and unseen: nobody, the owner included, follows it (BX-8.3).
        eliminated: tuple[int, ...] = ()
        out = state.out
        if not (masks[BOX] and masks[BOX + 1] and masks[BOX + 2] and masks[BOX + 3]):
            gone = []
            new_out = list(out)
            for p in range(NUM_PLAYERS):
                if (active >> p) & 1 and not masks[BOX + p]:
                    gone.append(p)
                    new_out[p] = state.round
                    active &= ~(1 << p)
                    m = masks[HAND + p]
                    masks[HAND + p] = 0
                    masks[DISCARD] |= m
                    if m:
                        m = ~m
                        known[0] &= m
                        known[1] &= m
                        known[2] &= m
                        known[3] &= m
            if gone:
                eliminated = tuple(gone)
                out = tuple(new_out)
        t = new_table(
            (
                state.table.layout,
                tuple(masks),
                (pile, (), (), (), (), (), (), (), (), (), (), (), (), (), ()),
                tuple(known),
            ),
        )
        result = _new_state(RoundResult)
        _set_fields(
            result,
            "__dict__",
            {
                "number": state.round,
                "winner": winner,
                "ending": ending,
                "stuck": stuck,
                "turned_up": None if turned_up is None else DECK_52[turned_up],
                "cards": cards,
                "played_by": played_by,
                "from_box": from_box,
                "hand_draws": hand_draws,
                "box_draws": box_draws,
                "eliminated": eliminated,
            },
        )
        # BX-4.1: the winner leads, or the next active player clockwise from them.
        over = active.bit_count() <= 1  # BX-5.4
        if (active >> winner) & 1 or not active:
            leader = winner
        else:
            leader = _NEXT_CW[active][winner]
        new_state = _new_state(BoxState)
        _set_fields(
            new_state,
            "__dict__",
            {
                "table": t,
                "rng": rng,
                "dealer": state.dealer,
                "round": state.round + 1,
                "leader": leader,
                "current": None if over else leader,
                "direction": 1,
                "active": active,
                "out": out,
                "played_by": (),
                "from_box": (),
                "last_round": result,
            },
        )
        return new_state

    # ---- observing ------------------------------------------------------------------

    def observe(self, state: BoxState, seat: int) -> BoxObservation:
        """What ``seat`` may know of ``state`` (``-1``: an onlooker)."""
        if seat != SPECTATOR and not 0 <= seat < NUM_PLAYERS:
            raise ValueError(f"seat must be 0-3 or -1 (onlooker), not {seat}")
        legal = self.legal_actions(state) if seat == state.current else ()
        return BoxObservation(
            seat=seat,
            num_players=NUM_PLAYERS,
            dealer=state.dealer,
            round=state.round,
            leader=state.leader,
            current_player=state.current,
            direction=state.direction,
            out=state.out,
            played_by=state.played_by,
            from_box=state.from_box,
            last_round=state.last_round,
            table=state.table.view(seat),
            legal_actions=legal,
        )

    def outcome(self, state: BoxState) -> Outcome | None:
        """The result once the game is over (BX-6).

        The last player with a box wins (BX-6.1). If the last players went out together,
        the most extra cards among them wins and equal counts share (BX-6.2). Scores
        rank the rest: a seat scores the round it went out in, a winner one more than
        the final round.
        """
        if state.current is not None:
            return None
        final = max(state.out)
        survivors = [p for p in range(NUM_PLAYERS) if (state.active >> p) & 1]
        if survivors:
            winners = survivors
            reason = f"seat {survivors[0]} is the last player with a box"
        else:
            group = [p for p in range(NUM_PLAYERS) if state.out[p] == final]
            extras = {p: state.table.masks[EXTRA + p].bit_count() for p in group}
            most = max(extras.values())
            winners = [p for p in group if extras[p] == most]
            reason = (
                f"seats {', '.join(map(str, group))} went out together; "
                f"most extra cards ({most}): seat{'s' if len(winners) > 1 else ''} "
                f"{', '.join(map(str, winners))}"
            )
        scores = [
            float(final + 1) if p in winners else float(state.out[p]) for p in range(NUM_PLAYERS)
        ]
        return Outcome.from_scores(scores, reason=reason)

    # ---- determinisation ------------------------------------------------------------

    def sample_state(self, observation: BoxObservation, rng: random.Random) -> BoxState:
        """A full state agreeing with everything the observing seat knows.

        Unseen cards (other hands, every box, the draw pile, mucked hands) are dealt at
        random, keeping what this round revealed: a leader who led from the hand holds
        nothing higher than the lead, and a player who turned up a box card this round
        holds nothing as low as the card they could not follow.
        """
        o = observation
        table_cards = o.table.orders[TABLE]
        exclude: dict[int, int] = {}
        for i, (seat, boxed) in enumerate(zip(o.played_by, o.from_box, strict=True)):
            if i == 0:
                if not boxed:
                    exclude[HAND + seat] = (
                        exclude.get(HAND + seat, 0) | _ABOVE[_RANK[table_cards[0]]]
                    )
            elif boxed:
                exclude[HAND + seat] = (
                    exclude.get(HAND + seat, 0) | _UP_TO[_RANK[table_cards[i - 1]]]
                )
        table = sample_table(o.table, rng, exclude=exclude)
        # The discard is face down, but the played cards in it went there face up: every
        # seat knows them, which ``sample_table`` (looking only at zone visibility) does
        # not restore for the other seats or for an onlooker.
        shown = o.table.known[DISCARD]
        if shown:
            table = CardTable(
                table.layout, table.masks, table.orders, tuple(k | shown for k in table.known)
            )
        active = 0
        for p, gone in enumerate(o.out):
            if not gone:
                active |= 1 << p
        return BoxState(
            table=table,
            rng=rng.getrandbits(64),
            dealer=o.dealer,
            round=o.round,
            leader=o.leader,
            current=o.current_player,
            direction=o.direction,
            active=active,
            out=o.out,
            played_by=o.played_by,
            from_box=o.from_box,
            last_round=o.last_round,
        )

    # ---- text ---------------------------------------------------------------------

    @staticmethod
    def parse(text: str) -> BoxAction:
        """Read ``play 9♠`` (or ``play 9s``, or just ``9♠``) or ``turn up``.

        Raises:
            ValueError: naming the text when it is not a Box action.
        """
        if not isinstance(text, str):
            raise ValueError(f"not a Box action: {text!r}")
        words = text.lower().replace("-", " ").split()
        if words in (["turn", "up"], ["turnup"], ["turn"]):
            return _TURN_UP
        if words and words[0] == "play":
            words = words[1:]
        if len(words) == 1:
            try:
                return _PLAYS[parse_card(words[0]).id]
            except ValueError:
                pass
        raise ValueError(f"not a Box action: {text!r} (try 'play 9♠' or 'turn up')")

    def parse_action(self, text: str) -> BoxAction:
        """Read an action from its text form (the inverse of ``str(action)``)."""
        return self.parse(text)

    def observation_from_json(self, data: Mapping[str, Any]) -> BoxObservation:
        """Rebuild an observation from its ``to_json`` data.

        Raises:
            ValueError: naming the first part of the data that does not fit.
        """
        n = data.get("num_players")
        if n != NUM_PLAYERS:
            raise ValueError(f"observation: 'num_players' must be 4, not {n!r}")
        obs = _CODEC.decode(data, BoxObservation, num_players=NUM_PLAYERS)
        assert isinstance(obs, BoxObservation)
        return obs

    def render(self, observation: BoxObservation) -> str:
        """The table as text from the observing seat's point of view."""
        from cardcore_box.render import render

        return render(observation)


_CODEC: Final = JsonCodec((Play, TurnUp), Box.parse, layout)
