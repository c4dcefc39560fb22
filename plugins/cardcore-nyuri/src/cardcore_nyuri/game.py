"""Nyuri ("Steal") rules: options, actions, state, observation and the rules object.

Players take turns as the *layer*: the layer puts a card face up (alone, or with a
higher card of its suit on top as a bodyguard), and every other player in turn may try
to steal it with one, two or three hand cards worth more. The best offer takes the
target; a player who did not steal draws from the stock. Rule ids (``NY-4.4``) refer to
the Nyuri rules specification; the plugin's README summarises them.

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
import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from operator import itemgetter
from typing import Any, Final, NoReturn, final

import attrs

from cardcore import (
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
    card_ids,
    new_table,
    option,
    parse_card,
    parse_cards,
    record_builder,
    rng_below,
    rng_seed,
    rng_shuffle,
    sample_table,
)

__all__ = [
    "HAND_SIZE",
    "PRESETS",
    "Decline",
    "Lay",
    "Nyuri",
    "NyuriAction",
    "NyuriObservation",
    "NyuriOptions",
    "NyuriState",
    "NyuriZones",
    "Phase",
    "Steal",
    "Swap",
    "TakeBack",
    "TurnRecord",
    "card_value",
    "nyuri_layout",
    "parse_nyuri_action",
]

HAND_SIZE: Final = 7
"""Cards dealt to each player (NY-3.2)."""


# ---- options -----------------------------------------------------------------------


@final
@attrs.frozen(kw_only=True)
class NyuriOptions:
    """The rule variants of Nyuri (spec section 7)."""

    capture: str = option(
        "pile",
        choices=("pile", "hand"),
        doc="where stolen cards go and what is counted: a capture pile or the thief's hand",
    )
    """``pile``: target and offer go to the thief's capture pile, piles are counted;
    ``hand``: they go to the thief's hand, hands are counted (NY-4.5, NY-6.1)."""
    end: str = option(
        "first_empty_hand",
        choices=("first_empty_hand", "stock_exhausted"),
        doc="main end: after a turn that leaves a hand empty, or that leaves the stock empty",
    )
    """The main end condition (NY-5.1, NY-5.2)."""
    three_card_penalty: bool = option(
        False, doc="the layer takes a random card from a thief who stole with three cards"
    )
    """Whether a three-card steal costs the thief a random hand card (NY-4.5)."""
    guarded_single: str = option(
        "same_suit",
        choices=("same_suit", "any_suit"),
        doc="whether a single card stealing a guarded target must be of its suit",
    )
    """Suit rule for a single card against a guarded target (NY-4.4a)."""
    turn_limit: int = option(200, minimum=1, doc="the game ends after this many turns")
    """Safety limit on turns played (NY-5.3c)."""


PRESETS: Mapping[str, NyuriOptions] = {
    "default": NyuriOptions(),
    "pagat": NyuriOptions(capture="hand", end="stock_exhausted", three_card_penalty=True),
}
"""The named presets: ``default`` follows the seed text, ``pagat`` the published source."""


# ---- cards and values --------------------------------------------------------------

_VALUE: Final[tuple[int, ...]] = tuple(c % 13 + 2 for c in range(52))
_SUIT_OF: Final[tuple[int, ...]] = tuple(c // 13 for c in range(52))
_CARD: Final[tuple[Card, ...]] = tuple(Card.of(c) for c in range(52))
_ALL: Final = (1 << 52) - 1
_MAX_T: Final = 28
"""Above any target value (Q+K = 25 is the most a guarded target is worth)."""


def card_value(card: Card) -> int:
    """A card's value (NY-2.1): 2-10 as printed, J 11, Q 12, K 13, A 14."""
    return int(card.rank)


def _above_same_suit(c: int) -> int:
    top = (c // 13) * 13 + 13
    return ((1 << top) - 1) & ~((1 << (c + 1)) - 1)


_HIGHER_SAME_SUIT: Final[tuple[int, ...]] = tuple(_above_same_suit(c) for c in range(52))
"""Per card, the cards of its suit with a higher rank."""
_VALUE_ABOVE: Final[tuple[int, ...]] = tuple(
    sum(1 << c for c in range(52) if _VALUE[c] > t) for t in range(_MAX_T)
)
"""Per target value, the cards (any suit) worth more."""


def _spread_table() -> tuple[int, ...]:
    out = [0] * 8192
    for x in range(1, 8192):
        out[x] = out[x >> 1] << 4 | (x & 1)
    return tuple(out)


_SPREAD: Final = _spread_table()
"""Per 13-bit suit mask, the same ranks four bits apart (rank r at bit 4r)."""
_RM_CARD: Final[tuple[int, ...]] = tuple((b & 3) * 13 + (b >> 2) for b in range(52))
"""In a rank-major mask (bit 4 * rank + suit), the card id of each bit."""
_RM_VALUE: Final[tuple[int, ...]] = tuple((b >> 2) + 2 for b in range(52))
"""In a rank-major mask, the card value of each bit."""


def _canon_key(c: int) -> tuple[int, int]:
    """Sort key for steal cards: highest value first, then ♠ ♥ ♦ ♣."""
    return (-_VALUE[c], -_SUIT_OF[c])


def _mask_text(mask: int) -> str:
    return "+".join(str(c) for c in _canonical(_CARD[c] for c in card_ids(mask)))


# ---- actions -----------------------------------------------------------------------


@final
@attrs.frozen
class Lay:
    """The layer puts a target face up, maybe guarded (NY-4.2): ``lay 5♦ guard 9♦``."""

    card: Card
    """The target."""
    guard: Card | None = None
    """The bodyguard on top of it: same suit, higher rank; ``None`` for an unguarded lay."""

    def __str__(self) -> str:
        if self.guard is None:
            return f"lay {self.card}"
        return f"lay {self.card} guard {self.guard}"

    @property
    def value(self) -> int:
        """The target value T (NY-4.2)."""
        return card_value(self.card) + (0 if self.guard is None else card_value(self.guard))


def _canonical(cards: Iterable[Card]) -> tuple[Card, ...]:
    """Sort steal cards highest value first (then ♠ ♥ ♦ ♣); reject repeats and nothing."""
    t = tuple(cards)
    if not t:
        raise ValueError("a steal needs at least one card")
    if len(set(t)) != len(t):
        raise ValueError(f"a card appears twice in {'+'.join(map(str, t))}")
    return tuple(sorted(t, key=lambda c: _canon_key(c.id)))


@final
@attrs.frozen
class Steal:
    """An offer of one to three hand cards to steal the target (NY-4.3): ``steal 4♠+4♦``.

    The cards are kept highest first whatever order they were given in, so equal sets
    are equal actions.
    """

    cards: tuple[Card, ...] = attrs.field(converter=_canonical)
    """The offered cards, highest value first."""
    mask: int = attrs.field(init=False, eq=False, repr=False)
    """The cards as a bitmask (derived)."""

    def __attrs_post_init__(self) -> None:
        m = 0
        for c in self.cards:
            m |= c.bit
        object.__setattr__(self, "mask", m)

    def __str__(self) -> str:
        return "steal " + "+".join(str(c) for c in self.cards)

    @property
    def value(self) -> int:
        """The offer value: the sum of the card values (NY-4.5)."""
        return sum(card_value(c) for c in self.cards)


@final
@attrs.frozen
class Decline:
    """Make no offer this turn (NY-4.3): ``decline``."""

    def __str__(self) -> str:
        return "decline"


@final
@attrs.frozen
class TakeBack:
    """Nobody offered: the layer takes the target (and bodyguard) back (NY-4.7a)."""

    def __str__(self) -> str:
        return "take back"


@final
@attrs.frozen
class Swap:
    """Nobody offered: the target goes under the stock and the layer draws (NY-4.7b)."""

    def __str__(self) -> str:
        return "swap"


NyuriAction = Lay | Steal | Decline | TakeBack | Swap
"""Any Nyuri action."""

_DECLINE: Final = Decline()
_TAKE_BACK: Final = TakeBack()
_SWAP: Final = Swap()
_RETURN_BOTH: Final[tuple[NyuriAction, ...]] = (_TAKE_BACK, _SWAP)
_RETURN_TAKE: Final[tuple[NyuriAction, ...]] = (_TAKE_BACK,)
_ONLY_DECLINE: Final[tuple[NyuriAction, ...]] = (_DECLINE,)
_LAY1: Final[tuple[Lay, ...]] = tuple(Lay(_CARD[c]) for c in range(52))
_LAY2: Final[dict[int, Lay]] = {
    c * 52 + g: Lay(_CARD[c], _CARD[g]) for c in range(52) for g in card_ids(_HIGHER_SAME_SUIT[c])
}


def _new_steal(ids: Iterable[int]) -> Steal:
    """A steal of distinct card ids, built without the converter (the sort is done here)."""
    a = object.__new__(Steal)
    m = 0
    for c in ids:
        m |= 1 << c
    object.__setattr__(a, "cards", tuple(_CARD[c] for c in sorted(card_ids(m), key=_canon_key)))
    object.__setattr__(a, "mask", m)
    return a


# Card masks make poor dict keys (their low bits are mostly zero), so the shared steal
# actions are indexed by card ids instead: singles by id, pairs by a 52 x 52 table, and
# triples by rows for each pair of ids, made when first needed.
_SINGLE: Final[tuple[Steal, ...]] = tuple(_new_steal((c,)) for c in range(52))


def _pair_rows() -> tuple[tuple[Steal, ...], ...]:
    made: dict[tuple[int, int], Steal] = {}
    rows = []
    for a in range(52):
        row = []
        for b in range(52):
            key = (min(a, b), max(a, b))
            if key not in made:
                made[key] = _new_steal(key) if a != b else _SINGLE[a]
            row.append(made[key])
        rows.append(tuple(row))
    return tuple(rows)


_PAIR: Final = _pair_rows()
"""``_PAIR[a][b]``: the steal of cards ``a`` and ``b`` (the single card when equal)."""
_TRIPLE_ROWS: Final[list[tuple[Steal, ...] | None]] = [None] * (52 * 52)
"""``_TRIPLE_ROWS[a * 52 + b][c]``: the steal of cards ``a``, ``b`` and ``c`` (a != b)."""
_TRIPLES: Final[dict[tuple[int, ...], Steal]] = {}


def _triple_row(a: int, b: int) -> tuple[Steal, ...]:
    row = []
    for c in range(52):
        if c in (a, b):
            row.append(_PAIR[a][b])
            continue
        key = tuple(sorted((a, b, c)))
        act = _TRIPLES.get(key)
        if act is None:
            act = _TRIPLES[key] = _new_steal(key)
        row.append(act)
    out = tuple(row)
    _TRIPLE_ROWS[a * 52 + b] = out
    return out


_PAIR_RM: Final = tuple(
    tuple(_PAIR[_RM_CARD[a]][_RM_CARD[b]] for b in range(52)) for a in range(52)
)
"""``_PAIR_RM[a][b]``: ``_PAIR`` indexed by rank-major bits (bit 4 * rank + suit)."""
_TRIPLE_RM: Final[list[tuple[Steal, ...] | None]] = [None] * (52 * 52)
"""``_TRIPLE_RM[a * 52 + b][c]``: ``_TRIPLE_ROWS`` indexed by rank-major bits (a != b)."""


def _triple_rm_row(a: int, b: int) -> tuple[Steal, ...]:
    ca, cb = _RM_CARD[a], _RM_CARD[b]
    ids = _TRIPLE_ROWS[ca * 52 + cb] or _triple_row(ca, cb)
    out = tuple(ids[_RM_CARD[c]] for c in range(52))
    _TRIPLE_RM[a * 52 + b] = out
    return out


_TRIPLE_FLAT: Final[list[tuple[Steal | None, ...] | None]] = [None] * 52
"""``_TRIPLE_FLAT[a][52 * b + c]``: the steal of rank-major bits ``a < b < c``."""


def _triple_flat(a: int) -> tuple[Steal | None, ...]:
    out: list[Steal | None] = [None] * (52 * 52)
    for b in range(a + 1, 52):
        row = _TRIPLE_RM[a * 52 + b] or _triple_rm_row(a, b)
        out[b * 52 + b + 1 : b * 52 + 52] = row[b + 1 :]
    flat = tuple(out)
    _TRIPLE_FLAT[a] = flat
    return flat


_BK: Final = 7
"""From this many hand cards on, the triples that surely steal are gathered in bulk."""

_BELOW: Final[tuple[int, ...]] = tuple(
    (1 << 4 * min(z, 13)) - 1 if z > 0 else 0 for z in range(-32, 32)
)
"""``_BELOW[x + 31]``: the rank-major bits of the cards worth at most ``x``."""


def _steal(mask: int) -> Steal:
    """The shared steal action for a card mask (a fresh one for four or more cards)."""
    a = mask & -mask
    rest = mask ^ a
    if not rest:
        return _SINGLE[a.bit_length() - 1]
    b = rest & -rest
    rest ^= b
    if not rest:
        return _PAIR[a.bit_length() - 1][b.bit_length() - 1]
    if not rest & (rest - 1):
        a = a.bit_length() - 1
        b = b.bit_length() - 1
        row = _TRIPLE_ROWS[a * 52 + b] or _triple_row(a, b)
        return row[rest.bit_length() - 1]
    return _new_steal(card_ids(mask))


# ---- public records, state and observation -----------------------------------------


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


_LAY: Final = Phase.LAY
_OFFER: Final = Phase.OFFER
_RETURN: Final = Phase.RETURN
_OVER: Final = Phase.OVER


@final
@attrs.frozen(kw_only=True)
class TurnRecord:
    """The public account of the latest resolved turn (everything in it is public, NY-8.1).

    It is written when the offers are resolved; when nobody offered, ``returned`` is
    filled in once the layer has taken back or swapped.
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
@attrs.frozen(kw_only=True)
class NyuriState:
    """A complete Nyuri state, never shown to bots.

    Every field but the table and the RNG is a public fact.
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


@final
@attrs.frozen(kw_only=True)
class NyuriObservation:
    """What one seat knows: its hand, everything face up, counts, and the latest turn."""

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
    legal_actions: tuple[NyuriAction, ...]
    """This seat's legal actions when it is to decide, else ``()``."""

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
            _steal(m).cards if (m := self.table.mask(z.offer(s))) else ()
            for s in range(self.num_players)
        )


# Hot-path constructors (``cardcore.record_builder``): the very same frozen records as the
# attrs constructors, without the keyword call; fields positionally, in declaration order.
_state: Final[
    Callable[
        [CardTable, int, int, Phase, int, int | None, int, int, TurnRecord | None, str],
        NyuriState,
    ]
] = record_builder(NyuriState)
_record: Final[
    Callable[
        [
            int,
            int,
            Card,
            Card | None,
            tuple[tuple[Card, ...], ...],
            int | None,
            bool,
            tuple[int, ...],
            str,
        ],
        TurnRecord,
    ]
] = record_builder(TurnRecord)


def _table(
    layout: Layout,
    masks: tuple[int, ...],
    orders: tuple[tuple[int, ...], ...],
    known: tuple[int, ...],
) -> CardTable:
    """``CardTable(layout, masks, orders, known)`` without the named tuple's ``__new__``."""
    return new_table((layout, masks, orders, known))


def _all_know(known: tuple[int, ...], m: int) -> tuple[int, ...]:
    """``known`` with the cards of ``m`` known to every seat (face up)."""
    if len(known) == 4:
        a, b, c, d = known
        return (a | m, b | m, c | m, d | m)
    if len(known) == 3:
        a, b, c = known
        return (a | m, b | m, c | m)
    return tuple([k | m for k in known])


_SUIT_VALUE: Final[tuple[int, ...]] = tuple(
    sum(r + 2 for r in range(13) if x >> r & 1) for x in range(8192)
)
"""Per 13-bit suit mask, the sum of its card values."""


def _mask_value(m: int) -> int:
    """The sum of the card values in a card mask (NY-4.5)."""
    sv = _SUIT_VALUE
    return sv[m & 0x1FFF] + sv[(m >> 13) & 0x1FFF] + sv[(m >> 26) & 0x1FFF] + sv[m >> 39]


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
    return Layout(tuple(zones), n, _ALL)


_LAYOUTS: Final = {n: _make_layout(n) for n in (2, 3, 4)}
_ZONES: Final = {n: NyuriZones(n) for n in (2, 3, 4)}
_STOCK: Final = 0


def nyuri_layout(num_players: int) -> Layout:
    """The card-table layout for 2, 3 or 4 players (shared, immutable).

    Raises:
        ValueError: for another player count.
    """
    try:
        return _LAYOUTS[num_players]
    except KeyError:
        raise ValueError(f"Nyuri is for 2, 3 or 4 players, not {num_players!r}") from None


def _describe_target(t: int, g: int) -> str:
    if g < 0:
        return str(_CARD[t])
    return f"{_CARD[t]} guarded by {_CARD[g]}"


# ---- the rules ---------------------------------------------------------------------


@final
class Nyuri:
    """The Nyuri rules under fixed options; build with ``cardcore.load_game("nyuri")``.

    Args:
        options: the rule variants (default: the ``default`` preset).
    """

    name = "nyuri"
    min_players = 2
    max_players = 4

    def __init__(self, options: NyuriOptions | None = None) -> None:
        self.options: NyuriOptions = options if options is not None else NyuriOptions()
        o = self.options
        self._pile = o.capture == "pile"
        self._empty_hand_end = o.end == "first_empty_hand"
        self._penalty = o.three_card_penalty
        self._any_suit = o.guarded_single == "any_suit"
        self._limit = o.turn_limit

    def __repr__(self) -> str:
        return f"Nyuri({self.options!r})"

    # ---- setup -----------------------------------------------------------------------

    def teams(self, num_players: int) -> tuple[tuple[int, ...], ...] | None:
        """No partnerships: everyone plays for themselves."""
        return None

    def max_turns(self, num_players: int) -> int:
        """An upper bound on the turns of one game.

        With ``capture=pile`` the bound of NY-9.6, ``(104 - 7N) + 26(N - 1) + N``; with
        ``capture=hand``, ``end=stock_exhausted`` and N >= 3 the bound ``52 - 7N`` of
        NY-9.7; otherwise (and whenever smaller) the turn limit.
        """
        n = num_players
        bound = self._limit
        if self._pile:
            bound = min(bound, (104 - 7 * n) + 26 * (n - 1) + n)
        elif not self._empty_hand_end and n >= 3:
            bound = min(bound, 52 - 7 * n)
        return bound

    def max_decisions(self, num_players: int) -> int:
        """A turn has at most N + 1 decisions: a lay, N - 1 offers and a return."""
        return self.max_turns(num_players) * (num_players + 1)

    def layout(self, num_players: int) -> Layout:
        """The card-table layout for a player count."""
        return nyuri_layout(num_players)

    def zones(self, num_players: int) -> NyuriZones:
        """The zone indexes for a player count."""
        nyuri_layout(num_players)
        return _ZONES[num_players]

    def initial_state(
        self,
        num_players: int,
        seed: int,
        *,
        dealer: int | None = None,
        deck: Sequence[Card] | None = None,
    ) -> NyuriState:
        """Shuffle (or stack) and deal seven cards each from the dealer's left (NY-3).

        Args:
            num_players: 2, 3 or 4.
            seed: seeds the state's RNG.
            dealer: the dealer seat; ``None`` draws it at random (NY-3.1).
            deck: a stacked deck, top card first, instead of the shuffle.

        Raises:
            ValueError: a bad player count, dealer seat or deck.
        """
        layout = nyuri_layout(num_players) if isinstance(num_players, int) else None
        if layout is None:
            raise ValueError(f"Nyuri is for 2, 3 or 4 players, not {num_players!r}")
        n = num_players
        rng = rng_seed(seed)
        if dealer is None:
            dealer, rng = rng_below(rng, n)
        elif not isinstance(dealer, int) or not 0 <= dealer < n:
            raise ValueError(f"dealer must be a seat from 0 to {n - 1}, not {dealer!r}")
        ids: Sequence[int]
        if deck is not None:
            if not all(isinstance(c, Card) for c in deck):
                raise ValueError("a stacked deck must be a sequence of cards, top card first")
            ids = [c.id for c in deck]
            if len(ids) != 52 or len(set(ids)) != 52:
                twice = sorted(c for c, k in Counter(ids).items() if k > 1)
                missing = sorted(set(range(52)) - set(ids))
                raise ValueError(
                    "a stacked deck must hold each of the 52 cards exactly once; got "
                    f"{len(ids)} cards, twice: [{' '.join(str(_CARD[c]) for c in twice)}], "
                    f"missing: [{' '.join(str(_CARD[c]) for c in missing)}]"
                )
        else:
            ids, rng = rng_shuffle(rng, range(52))
        # Deal one card at a time clockwise from the dealer's left (NY-3.2), the top card
        # first; each player sees only their own cards.
        masks = [0] * len(layout.zones)
        dealt = HAND_SIZE * n
        for i in range(dealt):
            masks[1 + (dealer + 1 + i) % n] |= 1 << ids[i]
        stock = tuple(reversed(ids[dealt:]))  # bottom first
        for c in stock:
            masks[_STOCK] |= 1 << c
        orders: list[tuple[int, ...]] = [()] * len(layout.zones)
        orders[_STOCK] = stock
        table = CardTable(layout, tuple(masks), tuple(orders), tuple(masks[1 : 1 + n]))
        first = (dealer + 1) % n
        return NyuriState(
            table=table,
            rng=rng,
            dealer=dealer,
            phase=_LAY,
            layer=first,
            current=first,
            turn=1,
            dead_turns=0,
            last=None,
            end_reason="",
        )

    # ---- whose turn, what is legal ---------------------------------------------------

    def current_player(self, state: NyuriState) -> int | None:
        """The seat to decide, or ``None`` when the game is over."""
        return state.current

    def legal_actions(self, state: NyuriState) -> tuple[NyuriAction, ...]:
        """The current player's legal actions, in a fixed order.

        Lay: each hand card in card order, each followed by its guarded lays. Offer:
        ``decline``, then single cards, pairs and triples (by card value). Return:
        ``take back``, then ``swap`` when the stock is not empty.
        """
        phase = state.phase
        masks = state.table.masks
        if phase is _OFFER:
            n = state.table.layout.num_seats
            assert state.current is not None
            return self._offer_actions(masks[1 + state.current], masks[1 + 2 * n], masks[2 + 2 * n])
        if phase is _LAY:
            out: list[NyuriAction] = []
            hand = masks[1 + state.layer]
            m = hand
            while m:
                low = m & -m
                c = low.bit_length() - 1
                m ^= low
                out.append(_LAY1[c])
                gm = hand & _HIGHER_SAME_SUIT[c]
                while gm:
                    glow = gm & -gm
                    out.append(_LAY2[c * 52 + glow.bit_length() - 1])
                    gm ^= glow
            return tuple(out)
        if phase is _RETURN:
            return _RETURN_BOTH if masks[0] else _RETURN_TAKE
        return ()

    def _offer_actions(self, hand: int, tmask: int, gmask: int) -> tuple[NyuriAction, ...]:
        """Every legal offer against the target (NY-4.4), found by value sums."""
        if not hand:
            return _ONLY_DECLINE
        t = tmask.bit_length() - 1
        tv = _VALUE[t]
        if gmask:
            tv += _VALUE[gmask.bit_length() - 1]
            if self._any_suit:
                singles = hand & _VALUE_ABOVE[tv]
            else:
                singles = hand & _HIGHER_SAME_SUIT[t] & _VALUE_ABOVE[tv]
        else:
            singles = hand & _HIGHER_SAME_SUIT[t]
        out: list[NyuriAction] = [_DECLINE]
        append = out.append
        while singles:
            low = singles & -singles
            singles ^= low
            append(_SINGLE[low.bit_length() - 1])
        # The hand in value order (then suit order), so that the sets beating T form a
        # suffix: spread each suit's ranks four bits apart and interleave the suits. Bit
        # b of that rank-major mask has rank r = b // 4 (value r + 2), so the hand cards
        # worth at most x are those under _BELOW[x + 31] (the table is offset by 32).
        spread = _SPREAD
        rm = (
            spread[hand & 0x1FFF]
            | spread[(hand >> 13) & 0x1FFF] << 1
            | spread[(hand >> 26) & 0x1FFF] << 2
            | spread[hand >> 39] << 3
        )
        bs: list[int] = []
        m = rm
        while m:
            low = m & -m
            bs.append(low.bit_length() - 1)
            m ^= low
        k = len(bs)
        if k < 2:
            return tuple(out)
        below = _BELOW
        rtop = bs[-1] >> 2
        # Pairs: for each first card (rank r), the second cards worth more than
        # T - r - 2 form a suffix; the shared actions are in rows indexed by rank-major
        # bits.
        pair = _PAIR_RM
        t29 = tv + 29
        i = (rm & below[t29 - rtop]).bit_count()
        while i < k - 1:
            b = bs[i]
            i += 1
            row = pair[b]
            lo = (rm & below[t29 - (b >> 2)]).bit_count()
            sl = bs[lo if lo > i else i :]
            if len(sl) > 6:
                out += itemgetter(*sl)(row)
            else:
                for c in sl:
                    append(row[c])
        if tv > 10 and 3 <= k < _BK:
            # Triples (NY-4.4c): skip first and second cards that cannot reach T at all.
            rows = _TRIPLE_RM
            t27 = tv + 27
            i = (rm & below[t27 - rtop - (bs[-2] >> 2)]).bit_count()
            while i < k - 2:
                b = bs[i]
                i += 1
                q = t27 - (b >> 2)
                j = (rm & below[q - rtop]).bit_count()
                j = j if j > i else i
                b52 = b * 52
                while j < k - 1:
                    bj = bs[j]
                    j += 1
                    row = rows[b52 + bj] or _triple_rm_row(b, bj)
                    lo = (rm & below[q - (bj >> 2)]).bit_count()
                    for c in bs[lo if lo > j else j :]:
                        append(row[c])
        elif tv > 10 and k >= _BK:
            # The same triples for a larger hand, in the same order. From the first second card j whose next card already makes T, every
            # (second, third) pair after it steals: those pairs, in order, are a suffix of
            # the hand's pairs (keys 52 * b + c in ``pairs``), gathered in one step.
            rows = _TRIPLE_RM
            flat = _TRIPLE_FLAT
            pairs: list[int] = []
            t27 = tv + 27
            i = (rm & below[t27 - rtop - (bs[-2] >> 2)]).bit_count()
            while i < k - 2:
                b = bs[i]
                i += 1
                q = t27 - (b >> 2)
                need = tv - 6 - (b >> 2)  # the second and third ranks must sum above this
                j = (rm & below[q - rtop]).bit_count()
                j = j if j > i else i
                b52 = b * 52
                while j < k - 1:
                    bj = bs[j]
                    if (bj >> 2) + (bs[j + 1] >> 2) > need:
                        if not pairs:
                            for x in range(k - 1):
                                x52 = bs[x] * 52
                                for c in bs[x + 1 :]:
                                    pairs.append(x52 + c)
                        sl = pairs[j * (2 * k - j - 1) // 2 :]
                        frow = flat[b] or _triple_flat(b)
                        if len(sl) > 1:
                            out += itemgetter(*sl)(frow)
                        else:
                            append(frow[sl[0]])  # type: ignore[arg-type]
                        break
                    j += 1
                    row = rows[b52 + bj] or _triple_rm_row(b, bj)
                    lo = (rm & below[q - (bj >> 2)]).bit_count()
                    for c in bs[lo if lo > j else j :]:
                        append(row[c])
        return tuple(out)

    def steal_problem(self, offer: int, target: int, guard: int = -1) -> str | None:
        """Why a set of cards cannot steal a target (NY-4.4), or ``None`` if it can.

        Args:
            offer: the offered cards as a mask.
            target: the target's card id.
            guard: the bodyguard's card id, ``-1`` when unguarded.

        Returns:
            The reason in the players' words, or ``None`` for a legal steal.
        """
        count = offer.bit_count()
        tv = _VALUE[target] + (_VALUE[guard] if guard >= 0 else 0)
        total = 0
        m = offer
        while m:
            low = m & -m
            total += _VALUE[low.bit_length() - 1]
            m ^= low
        if count > 3:
            why = f"a steal uses one, two or three cards, not {count}"
        elif count == 1 and (
            _SUIT_OF[offer.bit_length() - 1] != _SUIT_OF[target]
            and (guard < 0 or not self._any_suit)
        ):
            why = "a single card must be of the target's suit"
        elif count == 3 and tv <= 10:
            why = f"three cards may only steal a target worth more than 10 (this one: {tv})"
        elif total <= tv:
            why = f"{total} is not more than {tv}"
        else:
            return None
        return f"{_mask_text(offer)} cannot steal {_describe_target(target, guard)}: {why}"

    # ---- applying actions ------------------------------------------------------------

    def apply(self, state: NyuriState, action: NyuriAction) -> NyuriState:
        """Play ``action`` for the current player; return the new state.

        Raises:
            IllegalActionError: the action is not legal now (the reason says why);
                ``state`` is unchanged.
        """
        phase = state.phase
        kind = type(action)
        if phase is _OFFER:
            if kind is Steal or kind is Decline:
                return self._offer(state, action)  # type: ignore[arg-type]
            self._refuse(state, action, "the other players may only steal or decline now")
        if phase is _LAY:
            if kind is Lay:
                return self._lay(state, action)  # type: ignore[arg-type]
            self._refuse(state, action, f"P{state.layer} must lay a card first")
        if phase is _RETURN:
            if kind is TakeBack:
                return self._return(state, swap=False)
            if kind is Swap:
                if not state.table.masks[0]:
                    self._refuse(state, action, "cannot swap: the stock is empty")
                return self._return(state, swap=True)
            self._refuse(state, action, f"nobody stole: P{state.layer} must take back or swap")
        raise IllegalActionError(action, "the game is over")

    def _refuse(self, state: NyuriState, action: object, reason: str) -> NoReturn:
        if not isinstance(action, Lay | Steal | Decline | TakeBack | Swap):
            reason = f"not a Nyuri action ({type(action).__name__})"
        raise IllegalActionError(action, reason, self.legal_actions(state))

    def _lay(self, state: NyuriState, action: Lay) -> NyuriState:
        table = state.table
        layer = state.layer
        hand = 1 + layer
        n = table.layout.num_seats
        c = action.card.id
        hmask = table.masks[hand]
        if not (hmask >> c) & 1:
            self._refuse(state, action, f"{action.card} is not in your hand")
        masks = list(table.masks)
        shown = 1 << c
        masks[1 + 2 * n] = shown
        if action.guard is not None:
            g = action.guard.id
            if not (hmask >> g) & 1:
                self._refuse(state, action, f"{action.guard} is not in your hand")
            if _SUIT_OF[g] != _SUIT_OF[c]:
                self._refuse(
                    state,
                    action,
                    f"{action.guard} cannot guard {action.card}: "
                    "a bodyguard must be of the same suit",
                )
            if g <= c:
                self._refuse(
                    state,
                    action,
                    f"{action.guard} cannot guard {action.card}: a bodyguard must be higher",
                )
            masks[2 + 2 * n] = 1 << g
            shown |= 1 << g
        masks[hand] = hmask ^ shown
        # Face up on the table: every seat now knows where these cards are.
        table = _table(table.layout, tuple(masks), table.orders, _all_know(table.known, shown))
        return _state(
            table,
            state.rng,
            state.dealer,
            _OFFER,
            layer,
            layer + 1 if layer + 1 < n else 0,
            state.turn,
            state.dead_turns,
            state.last,
            "",
        )

    def _offer(self, state: NyuriState, action: Steal | Decline) -> NyuriState:
        table = state.table
        seat = state.current
        assert seat is not None
        n = table.layout.num_seats
        if type(action) is Steal:
            m = action.mask
            masks = list(table.masks)
            hmask = masks[1 + seat]
            if hmask & m != m:
                missing = " ".join(str(c) for c in action.cards if not hmask & c.bit)
                self._refuse(state, action, f"{missing} not in your hand")
            t = masks[1 + 2 * n].bit_length() - 1
            g = masks[2 + 2 * n].bit_length() - 1
            tv = _VALUE[t] + (_VALUE[g] if g >= 0 else 0)
            count = m.bit_count()
            # The checks of steal_problem, cheaply; it words the reason when one fails.
            if not (
                (
                    count == 2
                    or (count == 3 and tv > 10)
                    or (
                        count == 1
                        and (
                            _SUIT_OF[m.bit_length() - 1] == _SUIT_OF[t]
                            or (g >= 0 and self._any_suit)
                        )
                    )
                )
                and _mask_value(m) > tv
            ):
                problem = self.steal_problem(m, t, g)
                assert problem is not None
                self._refuse(state, action, problem)
            masks[1 + seat] = hmask ^ m
            masks[3 + 2 * n + seat] = m
            # The offer is face up: every seat now knows where these cards are.
            table = _table(table.layout, tuple(masks), table.orders, _all_know(table.known, m))
        nxt = seat + 1 if seat + 1 < n else 0
        if nxt != state.layer:
            return _state(
                table,
                state.rng,
                state.dealer,
                _OFFER,
                state.layer,
                nxt,
                state.turn,
                state.dead_turns,
                state.last,
                "",
            )
        return self._resolve(state, table)

    def _resolve(self, state: NyuriState, table: CardTable) -> NyuriState:
        """Resolution and draws (NY-4.5, NY-4.6), then the turn's end or the return.

        The table is rebuilt in one step. Cards leaving the face-up zones were known to
        every seat, so nobody's knowledge changes; a draw is seen by the drawer only.
        """
        n = table.layout.num_seats
        layer = state.layer
        masks = list(table.masks)
        tz = 1 + 2 * n
        gz = tz + 1
        oz = gz + 1
        best = 0
        winner = -1
        offers: list[tuple[Card, ...]] = [()] * n
        for k in range(1, n):
            s = (layer + k) % n
            m = masks[oz + s]
            if m:
                offers[s] = _steal(m).cards
                masks[oz + s] = 0
                v = _mask_value(m)
                if v > best:
                    best = v
                    winner = s
        tmask = masks[tz]
        gmask = masks[gz]
        target = _CARD[tmask.bit_length() - 1]
        guard = _CARD[gmask.bit_length() - 1] if gmask else None
        rng = state.rng
        penalty = False
        orders = table.orders
        known = table.known
        if winner >= 0:
            # Losing offers go back to their owners' hands (NY-4.5).
            for s in range(n):
                m = table.masks[oz + s]
                if m and s != winner:
                    masks[1 + s] |= m
            wmask = table.masks[oz + winner]
            masks[(1 + n + winner) if self._pile else (1 + winner)] |= tmask | gmask | wmask
            masks[tz] = 0
            masks[gz] = 0
            if self._penalty and wmask.bit_count() == 3 and masks[1 + winner]:
                table = _table(table.layout, tuple(masks), orders, known)
                wh = masks[1 + winner]
                i, rng = rng_below(rng, wh.bit_count())
                card = list(card_ids(wh))[i]
                # A card picked unseen from W's hand, seen by L and W only (NY-8.2).
                table = table.move(
                    card, 1 + winner, 1 + layer, seen=(1 << layer) | (1 << winner), secret=True
                )
                masks = list(table.masks)
                known = table.known
                penalty = True
            dead = 0
        else:
            dead = 0 if masks[0] else state.dead_turns + 1
        drew: list[int] = []
        stock = orders[0]
        if stock:
            known_l = list(known)
            top = len(stock)
            for k in range(1, n):
                if not top:
                    break
                s = (layer + k) % n
                if s != winner:
                    top -= 1
                    bit = 1 << stock[top]
                    masks[0] ^= bit
                    masks[1 + s] |= bit
                    known_l[s] |= bit
                    drew.append(s)
            if drew:
                orders = (stock[:top], *orders[1:])
                known = tuple(known_l)
        table = _table(table.layout, tuple(masks), orders, known)
        record = _record(
            state.turn,
            layer,
            target,
            guard,
            tuple(offers),
            winner if winner >= 0 else None,
            penalty,
            tuple(drew),
            "",
        )
        if winner < 0:
            return _state(
                table, rng, state.dealer, _RETURN, layer, layer, state.turn, dead, record, ""
            )
        return self._end_turn(state, table, rng, dead, record)

    def _return(self, state: NyuriState, *, swap: bool) -> NyuriState:
        """Take back or swap (NY-4.7), then the turn's end.

        The target and bodyguard were face up, so every seat knows where they go.
        """
        table = state.table
        n = table.layout.num_seats
        layer = state.layer
        hand = 1 + layer
        tz = 1 + 2 * n
        masks = list(table.masks)
        tmask = masks[tz]
        gmask = masks[tz + 1]
        masks[tz] = masks[tz + 1] = 0
        orders = table.orders
        known = table.known
        if swap:
            # The target at the very bottom, the bodyguard just above it (NY-T23) ...
            under: tuple[int, ...] = (tmask.bit_length() - 1,)
            if gmask:
                under += (gmask.bit_length() - 1,)
            stock = under + orders[0]
            # ... then L draws as many cards from the top, seen by L only.
            drawn = stock[-len(under) :]
            stock = stock[: -len(under)]
            got = 0
            for c in drawn:
                got |= 1 << c
            masks[0] = (masks[0] | tmask | gmask) ^ got
            masks[hand] |= got
            orders = (stock, *orders[1:])
            known = tuple(k | got if s == layer else k for s, k in enumerate(known))
        else:
            masks[hand] |= tmask | gmask
        table = _table(table.layout, tuple(masks), orders, known)
        last = state.last
        assert last is not None
        record = _record(
            last.turn,
            last.layer,
            last.target,
            last.guard,
            last.offers,
            None,
            False,
            last.drew,
            "swap" if swap else "take back",
        )
        return self._end_turn(state, table, state.rng, state.dead_turns, record)

    def _end_turn(
        self, state: NyuriState, table: CardTable, rng: int, dead: int, record: TurnRecord
    ) -> NyuriState:
        """The end checks of section 5, then the next layer (NY-4.1, NY-4.8)."""
        n = table.layout.num_seats
        masks = table.masks
        layer = state.layer
        reason = ""
        if self._empty_hand_end:
            for s in range(n):
                if not masks[1 + s]:
                    reason = f"P{s}'s hand is empty"
                    break
        elif not masks[0]:
            reason = "the stock is exhausted"
        if not reason and dead >= n:
            reason = f"{n} dead turns in a row"
        if not reason and state.turn >= self._limit:
            reason = f"the turn limit ({self._limit}) was reached"
        nxt = layer
        if not reason:
            for k in range(1, n + 1):
                nxt = (layer + k) % n
                if masks[1 + nxt]:
                    break
            else:
                reason = "every hand is empty"
        if reason:
            return _state(
                table, rng, state.dealer, _OVER, layer, None, state.turn, dead, record, reason
            )
        return _state(table, rng, state.dealer, _LAY, nxt, nxt, state.turn + 1, dead, record, "")

    # ---- information -----------------------------------------------------------------

    def observe(self, state: NyuriState, seat: int) -> NyuriObservation:
        """What ``seat`` may know of ``state`` (``-1``: an onlooker), per section 8."""
        return NyuriObservation(
            seat=seat,
            num_players=state.table.layout.num_seats,
            dealer=state.dealer,
            phase=state.phase,
            layer=state.layer,
            current_player=state.current,
            turn=state.turn,
            dead_turns=state.dead_turns,
            last=state.last,
            end_reason=state.end_reason,
            counts=self.counts(state),
            table=state.table.view(seat),
            legal_actions=self.legal_actions(state) if seat == state.current else (),
        )

    def counts(self, state: NyuriState) -> tuple[int, ...]:
        """Each player's count (NY-6.1): pile sizes, or hand sizes with ``capture=hand``."""
        n = state.table.layout.num_seats
        base = 1 + n if self._pile else 1
        return tuple(state.table.masks[base + s].bit_count() for s in range(n))

    def outcome(self, state: NyuriState) -> Outcome | None:
        """The result once the game is over (NY-6): the highest counts share the win."""
        if state.phase is not _OVER:
            return None
        return Outcome.from_scores(self.counts(state), reason=state.end_reason)

    def sample_state(self, observation: NyuriObservation, rng: random.Random) -> NyuriState:
        """A full state agreeing with everything the observing seat knows.

        The unseen cards are dealt at random into the places the seat cannot see; no
        rule reveals more (a decline does not show that no steal was possible).
        """
        o = observation
        table = sample_table(o.table, rng)
        if o.seat == SPECTATOR:
            # What the onlooker knows, every seat knows: keep it known to all, so that
            # the onlooker's view of the sample is the view it came from.
            public = 0
            for m in o.table.known:
                public |= m
            table = table.reveal(public, table.layout.all_seats)
        return NyuriState(
            table=table,
            rng=rng.getrandbits(64),
            dealer=o.dealer,
            phase=o.phase,
            layer=o.layer,
            current=o.current_player,
            turn=o.turn,
            dead_turns=o.dead_turns,
            last=o.last,
            end_reason=o.end_reason,
        )

    # ---- text ------------------------------------------------------------------------

    def parse_action(self, text: str) -> NyuriAction:
        """Read an action from its text form (the inverse of ``str(action)``).

        Forms: ``lay 7♥``, ``lay 5d guard 9d``, ``steal 4s+4d``, ``decline``, ``take back``,
        ``swap``; cards as ``10♥``, ``10h`` or ``Th``.

        Raises:
            ValueError: naming the input when it is not a Nyuri action.
        """
        return parse_nyuri_action(text)

    def observation_from_json(self, data: Mapping[str, Any]) -> NyuriObservation:
        """Rebuild an observation from its ``to_json`` data.

        Raises:
            ValueError: the data does not describe a Nyuri observation.
        """
        n = data.get("num_players")
        if not isinstance(n, int) or n not in _LAYOUTS:
            raise ValueError("observation: 'num_players' must be 2, 3 or 4")
        obs = _CODEC.decode(data, NyuriObservation, num_players=n)
        assert isinstance(obs, NyuriObservation)
        return obs

    def render(self, observation: NyuriObservation) -> str:
        """The table as text for the observing seat."""
        from cardcore_nyuri.render import render_observation

        return render_observation(observation)


_HELP: Final = "try 'lay 7♥', 'lay 5♦ guard 9♦', 'steal 4♠+4♦', 'decline', 'take back' or 'swap'"


def parse_nyuri_action(text: str) -> NyuriAction:
    """Parse one Nyuri action from its text form.

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
            return _LAY1[parse_card(rest[0]).id]
        if head == "lay" and len(rest) == 3 and rest[1].lower() == "guard":
            c, g = parse_card(rest[0]), parse_card(rest[2])
            if c == g:
                raise ValueError("a card cannot guard itself")
            return _LAY2.get(c.id * 52 + g.id) or Lay(c, g)
        if head in ("steal", "offer") and rest:
            cards = parse_cards(" ".join(rest))
            m = 0
            for c in cards:
                m |= c.bit
            if m.bit_count() == len(cards):
                return _steal(m)
            return Steal(cards)  # raises: a card appears twice
        low = " ".join(w.lower() for w in words)
        if low == "decline":
            return _DECLINE
        if low in ("take back", "take_back", "takeback"):
            return _TAKE_BACK
        if low == "swap":
            return _SWAP
    except ValueError as e:
        raise ValueError(f"not a Nyuri action: {text!r}: {e}") from None
    raise ValueError(f"not a Nyuri action: {text!r} ({_HELP})")


_CODEC: Final = JsonCodec((Lay, Steal, Decline, TakeBack, Swap), parse_nyuri_action, nyuri_layout)
