"""Noddy rules: a 17th-century race to 31 for two players (rule ids ``ND-...``).

A game is many hands. Each hand deals 3 cards each and turns one up (trumps); a turned-up
jack scores at once (ND-4.1); the holder of the trump jack may show it for 1 (ND-4.2);
both players score their show (ND-6.1); then they play their cards to one pile without
the running total passing 31, scoring as they go (ND-4.4, ND-6.3). The first player to
reach the target wins at once (ND-5.2), awards being added in the order of ND-5.3.

The only decisions are ``show knave`` / ``pass`` in step 2 and which card to play. Every
go, show and award is automatic and appears in the observation as a public event.
"""

from __future__ import annotations

import enum
import random
import struct
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, final

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
    record_builder,
    rng_below,
    rng_seed,
)
from cardcore_noddy.scoring import (
    _FLUSH_KEY,
    _HAND_KEY,
    _SHOW_LOW,
    _TURNUP_COUNTS,
    _TURNUP_KEY,
    JACK_OF,
    PIP,
    SEQ,
    SUIT,
    Breakdown,
    ScoringRules,
    award_table,
    find_show,
    pile_code,
    show_key,
    show_keys,
    show_mask,
    total_codes,
)

__all__ = [
    "PRESETS",
    "Cut",
    "Deal",
    "Event",
    "Go",
    "KnavePassed",
    "KnaveShown",
    "LastCard",
    "Noddy",
    "NoddyAction",
    "NoddyObservation",
    "NoddyOptions",
    "NoddyState",
    "Pass",
    "Phase",
    "Play",
    "Played",
    "ShowKnave",
    "Shown",
    "TurnupJack",
    "Won",
]

MAX_TOTAL: Final = 31
"""The running total of the play never passes 31 (ND-4.4, ND-9.2)."""


# ---- options ---------------------------------------------------------------------------


@final
@attrs.frozen(kw_only=True)
class NoddyOptions:
    """The rule variants of Noddy (spec section 7)."""

    target: int = option(31, minimum=1, doc="score that wins at once (ND-5.2)")
    """Score that wins at once (ND-5.2)."""
    turnup_jack: str = option(
        "dealer1_nondealer2",
        choices=("dealer1_nondealer2", "dealer2"),
        doc="award for a turned-up jack (ND-4.1)",
    )
    """Award for a turned-up jack (ND-4.1)."""
    knave_noddy: str = option(
        "show_early",
        choices=("show_early", "in_count"),
        doc="how the trump jack in hand scores 1 (ND-4.2, ND-6.1)",
    )
    """How the trump jack in hand scores 1 (ND-4.2, ND-6.1)."""
    ace_bonus: bool = option(True, doc="ace in hand 1; turned-up ace 2 to the dealer (ND-6.1)")
    """Ace in hand 1; turned-up ace 2 to the dealer (ND-6.1)."""
    run_values: str = option("seed", choices=("seed", "per_card"), doc="sequence values (ND-6.2)")
    """Sequence values (ND-6.2): ``seed`` 2/4/5/6, ``per_card`` 3/4/5/6."""
    twentyfive: bool = option(True, doc="25 scores 2 in the show and in the play")
    """Whether 25 scores 2 in the show and in the play."""
    last_card_at_31: bool = option(
        False, doc="whether reaching 31 also earns the last-card point (ND-4.4)"
    )
    """Whether reaching 31 also earns the last-card point (ND-4.4)."""


PRESETS: Mapping[str, NoddyOptions] = {
    "default": NoddyOptions(),
    "historical": NoddyOptions(
        turnup_jack="dealer2",
        knave_noddy="in_count",
        ace_bonus=False,
        run_values="per_card",
    ),
}
"""The spec's presets: ``default`` (the seed) and ``historical`` (the sources)."""


# ---- actions ---------------------------------------------------------------------------


@final
@attrs.frozen
class Play:
    """Play one card of the hand onto the pile (ND-4.4): ``play 7♥``."""

    card: Card
    """The card played."""
    card_id: int = attrs.field(init=False, eq=False, repr=False)
    """The card's id (kept for speed)."""

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "card_id", self.card.id)

    def __str__(self) -> str:
        return f"play {self.card}"


@final
@attrs.frozen
class ShowKnave:
    """Show the jack of trumps in step 2 and score 1 at once (ND-4.2): ``show knave``."""

    def __str__(self) -> str:
        return "show knave"


@final
@attrs.frozen
class Pass:
    """Do not claim the knave noddy in step 2 (ND-4.2): ``pass``."""

    def __str__(self) -> str:
        return "pass"


NoddyAction = Play | ShowKnave | Pass
"""Any Noddy action."""

_PLAY: Final = tuple(Play(Card.of(i)) for i in range(52))
_SHOW_KNAVE: Final = ShowKnave()
_PASS: Final = Pass()
_SHOW_TRIES: Final = 1000
"""Random tries to find hidden cards that reproduce an announced show (``sample_state``)."""
_LEGAL: dict[int, tuple[NoddyAction, ...]] = {}
"""Legal plays per mask of playable cards (at most 3 cards: about 23,000 masks)."""


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
@attrs.frozen(kw_only=True, weakref_slot=False)
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
@attrs.frozen(kw_only=True)
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


_KNAVE: Final = Phase.KNAVE
_PLAYING: Final = Phase.PLAY
_OVER: Final = Phase.OVER

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
_ALL: Final = LAYOUT.all_seats
_DECK: Final = LAYOUT.deck
_STOCK_ONLY: Final = LAYOUT.new_table(tuple(range(52)), STOCK)
_NO_ORDERS: Final[tuple[tuple[int, ...], ...]] = ((),) * 5


_RANGE52: Final = list(range(52))
_MASK64: Final = 0xFFFFFFFFFFFFFFFF
_LANES: Final = _MASK64 * sum(1 << (128 * i) for i in range(7))
"""Seven 64-bit lanes, 128 bits apart: a lane's 64 x 64-bit product never spills over."""
_LANE_ONES: Final = sum(1 << (128 * i) for i in range(7))
_LANE_STEPS: Final = sum(((i + 1) * 0x9E3779B97F4A7C15) << (128 * i) for i in range(7))
"""Lane i holds the SplitMix64 increment of draw i + 1 (below 2**67: no spill)."""
_STEP7: Final = (7 * 0x9E3779B97F4A7C15) & _MASK64
_UNPACK7: Final = struct.Struct("<" + "Q8x" * 7).unpack
"""The low 64 bits of each of the seven lanes, from the 112 bytes of the packed int."""


def _draw7(rng: int) -> tuple[list[int], int]:
    """Shuffle the deck with the RNG far enough to deal 7 cards (partial Fisher-Yates).

    Each step is :func:`cardcore.rng_below` ``(rng, 52 - i)`` (SplitMix64). The seven
    SplitMix64 states are ``rng + k * gamma`` (k = 1..7), so their outputs are mixed all
    at once, one lane of a wide int each; only the final ``* n >> 64`` is done per draw.
    """
    z = (rng * _LANE_ONES + _LANE_STEPS) & _LANES
    z ^= (z >> 30) & _LANES
    z = (z * 0xBF58476D1CE4E5B9) & _LANES
    z ^= (z >> 27) & _LANES
    z = (z * 0x94D049BB133111EB) & _LANES
    z ^= (z >> 31) & _LANES
    a, b, c, d, e, f, g = _UNPACK7(z.to_bytes(112, "little"))
    pool = _RANGE52[:]
    j = (a * 52) >> 64
    pool[0], pool[j] = pool[j], pool[0]
    j = ((b * 51) >> 64) + 1
    pool[1], pool[j] = pool[j], pool[1]
    j = ((c * 50) >> 64) + 2
    pool[2], pool[j] = pool[j], pool[2]
    j = ((d * 49) >> 64) + 3
    pool[3], pool[j] = pool[j], pool[3]
    j = ((e * 48) >> 64) + 4
    pool[4], pool[j] = pool[j], pool[4]
    j = ((f * 47) >> 64) + 5
    pool[5], pool[j] = pool[j], pool[5]
    j = ((g * 46) >> 64) + 6
    pool[6], pool[j] = pool[j], pool[6]
    return pool[:7], (rng + _STEP7) & _MASK64


def _fresh_deal(top: Sequence[int], nd: int, dealer: int) -> CardTable:
    """The table after a deal (ND-3.3): 7 cards from the top of ``top``.

    One card at a time, non-dealer first, then the turn-up; the other 45 cards are the
    stock. Equal to gathering every card into the stock, shuffling, and drawing the 7 cards
    with :meth:`CardTable.move`: each seat knows its own hand and the turn-up, and
    nobody knows anything else (previous hands are forgotten).
    """
    nd_mask = (1 << top[0]) | (1 << top[2]) | (1 << top[4])
    d_mask = (1 << top[1]) | (1 << top[3]) | (1 << top[5])
    up = 1 << top[6]
    stock = _DECK ^ nd_mask ^ d_mask ^ up
    if nd == 0:
        masks = (stock, nd_mask, d_mask, up, 0)
        known = (nd_mask | up, d_mask | up)
    else:
        masks = (stock, d_mask, nd_mask, up, 0)
        known = (d_mask | up, nd_mask | up)
    return new_table((LAYOUT, masks, _NO_ORDERS, known))


def _to_pile(table: CardTable, card: int, hand: int) -> CardTable:
    """``table.move(card, hand, PILE)`` without the generality: the pile is public.

    Only the pile is ordered, so the other zones' orders are always empty.
    """
    bit = 1 << card
    m = table.masks
    if hand == 1:
        masks = (m[0], m[1] ^ bit, m[2], m[3], m[4] | bit)
    else:
        masks = (m[0], m[1], m[2] ^ bit, m[3], m[4] | bit)
    k = table.known
    return new_table(
        (LAYOUT, masks, ((), (), (), (), table.orders[4] + (card,)), (k[0] | bit, k[1] | bit)),
    )


_PLAYABLE: Final = tuple(sum(1 << c for c in range(52) if PIP[c] <= room) for room in range(32))
"""Per room left below 31 (0..31), the mask of cards whose pip value fits (ND-4.4)."""
_CARD: Final = tuple(Card.of(i) for i in range(52))
_NOT_GONE: Final = (False, False)
_KNAVE_PASSED: Final = (KnavePassed(0), KnavePassed(1))
_GO: Final = tuple(Go(seat, total) for seat in (0, 1) for total in range(32))
"""Every go, by ``seat * 32 + total``: events are immutable values, so each is shared."""
"""The two possible passes: events are immutable values, so one of each is shared."""


def _plays(playable: int) -> tuple[NoddyAction, ...]:
    """The shared plays of the cards of ``playable`` (1 to 3 cards of a hand), in card order."""
    low = playable & -playable
    rest = playable ^ low
    first = _PLAY[low.bit_length() - 1]
    if not rest:
        return (first,)
    mid = rest & -rest
    rest ^= mid
    if not rest:
        return (first, _PLAY[mid.bit_length() - 1])
    if rest & (rest - 1):
        return tuple(_PLAY[c] for c in card_ids(playable))
    return (first, _PLAY[mid.bit_length() - 1], _PLAY[rest.bit_length() - 1])


def _layout_for(n: int) -> Layout:
    if n != 2:
        raise ValueError(f"noddy is for 2 players, not {n}")
    return LAYOUT


# Hot-path constructors (``cardcore.record_builder``): the very same frozen records as the
# attrs constructors, at a fraction of the cost; fields positionally, in declaration order.
_new_state: Final[
    Callable[
        [
            CardTable,
            int,
            int,
            tuple[int, ...],
            Phase,
            int | None,
            int,
            tuple[bool, ...],
            int,
            tuple[Event, ...],
        ],
        NoddyState,
    ]
] = record_builder(NoddyState)
_new_played: Final[Callable[[int, Card, int, int, tuple[tuple[str, int], ...], int], Played]] = (
    record_builder(Played)
)
_new_shown: Final[Callable[[int, int, tuple[tuple[str, int], ...], int], Shown]] = record_builder(
    Shown
)


@final
class Noddy:
    """The rules object; build it with ``cardcore.load_game("noddy", ...)``."""

    name = "noddy"
    min_players = 2
    max_players = 2

    def __init__(self, options: NoddyOptions | None = None) -> None:
        self.options = options or NoddyOptions()
        o = self.options
        self.rules = ScoringRules(
            twentyfive=o.twentyfive,
            run_values=ScoringRules.run_table(o.run_values),
            ace_bonus=o.ace_bonus,
            knave_in_count=o.knave_noddy == "in_count",
        )
        """The scoring options, for the show counter and the play scorer."""
        self._target = o.target
        self._show_early = o.knave_noddy == "show_early"
        self._jack_split = o.turnup_jack == "dealer1_nondealer2"
        self._last_at_31 = o.last_card_at_31
        self._jack_awards: tuple[tuple[tuple[int, int], ...], ...] = (
            (((0, 1), (1, 2)), ((1, 1), (0, 2))) if self._jack_split else (((0, 2),), ((1, 2),))
        )
        """Per dealer, the turned-up jack's awards in order (ND-4.1, ND-5.3)."""
        self._total_codes = tuple(196 * c for c in total_codes(self.rules))
        self._awards = award_table(self.rules)
        self._shows_memo: dict[int, Breakdown] = {}
        """Shows by :func:`show_key` (a few thousand keys at most)."""
        self._last_events: dict[int, LastCard] = {}
        """Last-card events by score and seat (immutable, so shared)."""
        self._deal_events: dict[int, Deal] = {}
        """Deal events by hand number, dealer and turn-up (immutable, so shared)."""

    # ---- metadata ----------------------------------------------------------------------

    def teams(self, num_players: int) -> tuple[tuple[int, ...], ...] | None:
        """No partnerships (ND-1.4)."""
        return None

    def max_decisions(self, num_players: int) -> int:
        """At most 8 decisions a hand (2 in step 2, 6 cards) and ``2 * target - 1`` hands.

        Every finished hand awards at least 1 point (the last card, or 2 for 31), and
        the game ends before the two scores together reach ``2 * target - 1``.
        """
        return 8 * (2 * self._target - 1)

    # ---- setup -------------------------------------------------------------------------

    def initial_state(
        self,
        num_players: int,
        seed: int,
        *,
        dealer: int | None = None,
        deck: Sequence[Card] | None = None,
    ) -> NoddyState:
        """Cut for the dealer if none is given (ND-3.1), shuffle or stack, and deal (ND-3.3).

        Args:
            num_players: must be 2.
            seed: seeds the state's RNG (the cut and every shuffle).
            dealer: the first dealer (0 or 1), or ``None`` to cut.
            deck: a stacked deck for the first hand, top card first (all 52 cards).

        Raises:
            ValueError: a wrong player count, dealer seat or deck.
        """
        if num_players != 2:
            raise ValueError(f"noddy is for 2 players, not {num_players}")
        rng = rng_seed(seed)
        events: list[Event] = []
        if dealer is None:
            while True:
                a, rng = rng_below(rng, 52)
                b, rng = rng_below(rng, 51)
                if b >= a:
                    b += 1
                events.append(Cut((Card.of(a), Card.of(b))))
                if SEQ[a] != SEQ[b]:
                    dealer = 0 if SEQ[a] < SEQ[b] else 1
                    break
        elif dealer not in (0, 1):
            raise ValueError(f"dealer must be seat 0 or 1, not {dealer!r}")
        top: list[int] | None = None
        if deck is not None:
            ids = [c.id for c in deck]
            if len(ids) != 52 or len(set(ids)) != 52:
                dups = sorted({str(c) for c in deck if ids.count(c.id) > 1})
                raise ValueError(
                    "a stacked deck must hold each of the 52 cards exactly once; got "
                    f"{len(ids)} cards" + (f", repeated: {' '.join(dups)}" if dups else "")
                )
            top = ids[:7]
        return self._deal(rng, dealer, (0, 0), 0, tuple(events), (), top)

    def start_hand(
        self,
        *,
        scores: tuple[int, int],
        dealer: int,
        deck: Sequence[Card] | None = None,
        hand: int = 1,
        seed: int = 0,
    ) -> NoddyState:
        """A state at the start of a hand with the given scores, for tests and analysis.

        The hand is dealt (stacked or shuffled) and steps 1-3 run as in play, so awards
        are checked against the target in the order of ND-5.3.

        Args:
            scores: both players' scores before the hand (each below the target).
            dealer: the dealer of the hand (0 or 1).
            deck: a stacked deck, top card first, or ``None`` to shuffle with ``seed``.
            hand: the hand's number.
            seed: seeds the state's RNG.

        Raises:
            ValueError: scores already at the target, a wrong dealer or deck.
        """
        if len(scores) != 2 or min(scores) < 0 or max(scores) >= self._target:
            raise ValueError(f"scores must be two numbers from 0 to {self._target - 1}: {scores}")
        self.initial_state(2, seed, dealer=dealer, deck=deck)  # checks the dealer and deck
        top = [c.id for c in deck[:7]] if deck is not None else None
        return self._deal(
            rng_seed(seed), dealer, (int(scores[0]), int(scores[1])), hand - 1, (), (), top
        )

    # ---- queries -----------------------------------------------------------------------

    def current_player(self, state: NoddyState) -> int | None:
        """The seat to decide, or ``None`` when the game is over."""
        return state.current

    def legal_actions(self, state: NoddyState) -> tuple[NoddyAction, ...]:
        """The mover's choices, in a fixed order.

        Step 2: ``show knave`` (for the holder of the trump jack only), then ``pass``.
        The play: every card of the hand that keeps the total at 31 or less, in card order.
        """
        seat = state.current
        if seat is None:
            return ()
        table = state.table
        if state.phase is _PLAYING:
            playable = table.masks[HANDS[seat]] & _PLAYABLE[MAX_TOTAL - state.total]
            hit = _LEGAL.get(playable)
            if hit is None:
                hit = _LEGAL[playable] = _plays(playable)
            return hit
        turnup = (table.masks[TURNUP] & -table.masks[TURNUP]).bit_length() - 1
        if (table.masks[HANDS[seat]] >> JACK_OF[SUIT[turnup]]) & 1:
            return (_SHOW_KNAVE, _PASS)
        return (_PASS,)

    def outcome(self, state: NoddyState) -> Outcome | None:
        """The first to reach the target wins (ND-6.4); there are no ties."""
        if state.phase is not _OVER:
            return None
        return Outcome.from_scores(state.scores, reason=f"reached {self._target}")

    # ---- moves -------------------------------------------------------------------------

    def apply(self, state: NoddyState, action: NoddyAction) -> NoddyState:
        """Carry out a decision, then everything automatic up to the next decision.

        Raises:
            IllegalActionError: the action is not legal here; ``state`` is untouched.
        """
        seat = state.current
        if seat is None:
            raise IllegalActionError(action, "the game is over")
        table = state.table
        if state.phase is _PLAYING:
            if type(action) is not Play:  # Play is final: the same as isinstance
                raise IllegalActionError(
                    action, self._why_not_in_play(state, action), self.legal_actions(state)
                )
            card = action.card_id
            hand = HANDS[seat]
            if not (table.masks[hand] >> card) & 1:
                raise IllegalActionError(
                    action, f"{action.card} is not in your hand", self.legal_actions(state)
                )
            total = state.total + PIP[card]
            if total > MAX_TOTAL:
                raise IllegalActionError(
                    action,
                    f"{action.card} would take the count past 31 ({state.total} + {PIP[card]} "
                    f"= {total})",
                    self.legal_actions(state),
                )
            # The card goes to the pile (ND-4.4) and scores (ND-6.3).
            # The card goes to the pile: _to_pile inlined (the pile is public, ordered).
            bit = 1 << card
            m = table.masks
            k = table.known
            pile = table.orders[4] + (card,)
            masks = (
                (m[0], m[1] ^ bit, m[2], m[3], m[4] | bit)
                if seat == 0
                else (m[0], m[1], m[2] ^ bit, m[3], m[4] | bit)
            )
            code = self._total_codes[total]
            n = len(pile)
            if n > 2:
                code += pile_code(pile)
            elif n == 2 and SEQ[pile[0]] == SEQ[card]:
                code += 49  # pile_code of two cards: a pair, or nothing
            parts, points = self._awards[code]
            scores = state.scores
            score = scores[seat] + points
            if points:
                scores = (score, scores[1]) if seat == 0 else (scores[0], score)
            played = _new_played(seat, _CARD[card], total, points, parts, score)
            gone = state.gone
            if score >= self._target:
                return _new_state(
                    new_table((LAYOUT, masks, ((), (), (), (), pile), (k[0] | bit, k[1] | bit))),
                    state.rng,
                    state.dealer,
                    scores,
                    _OVER,
                    None,
                    total,
                    gone,
                    state.hand,
                    (*state.events, played, Won(seat, score)),
                )
            room = _PLAYABLE[MAX_TOTAL - total]
            opp = 1 - seat
            opp_hand = masks[2 - seat]
            if opp_hand & room:
                return _new_state(
                    new_table((LAYOUT, masks, ((), (), (), (), pile), (k[0] | bit, k[1] | bit))),
                    state.rng,
                    state.dealer,
                    scores,
                    _PLAYING,
                    opp,
                    total,
                    gone,
                    state.hand,
                    state.events + (played,),  # noqa: RUF005 (one copy, no list)
                )
            new: tuple[Event, ...] = (played,)
            if opp_hand and not gone[opp]:
                gone = (True, gone[1]) if opp == 0 else (gone[0], True)
                new = (played, _GO[opp * 32 + total])
            # The table is built only if the hand goes on or the game ends: a new deal
            # gathers every card anyway.
            if masks[hand] & room:
                return _new_state(
                    new_table((LAYOUT, masks, ((), (), (), (), pile), (k[0] | bit, k[1] | bit))),
                    state.rng,
                    state.dealer,
                    scores,
                    _PLAYING,
                    seat,
                    total,
                    gone,
                    state.hand,
                    state.events + new,
                )
            if total < MAX_TOTAL or self._last_at_31:
                # The play ends (ND-4.4): the last-card point, then the next hand (ND-4.5).
                score += 1
                scores = _bump(scores, seat, score)
                last = self._last_events.get(score * 2 + seat)
                if last is None:
                    last = self._last_events[score * 2 + seat] = LastCard(seat, 1, score)
                new = (*new, last)
                if score >= self._target:
                    return _new_state(
                        new_table(
                            (LAYOUT, masks, ((), (), (), (), pile), (k[0] | bit, k[1] | bit))
                        ),
                        state.rng,
                        state.dealer,
                        scores,
                        _OVER,
                        None,
                        total,
                        gone,
                        state.hand,
                        (*state.events, *new, Won(seat, score)),
                    )
            return self._deal(state.rng, 1 - state.dealer, scores, state.hand, state.events, new)
        # Step 2, the knave noddy (ND-4.2).
        kind = type(action)
        dealer = state.dealer
        if kind is Pass and seat != dealer:
            return _new_state(
                table,
                state.rng,
                dealer,
                state.scores,
                _KNAVE,
                dealer,
                0,
                state.gone,
                state.hand,
                state.events + (_KNAVE_PASSED[seat],),  # noqa: RUF005 (one copy, no list)
            )
        turnup = (table.masks[TURNUP] & -table.masks[TURNUP]).bit_length() - 1
        knave = JACK_OF[SUIT[turnup]]
        scores = state.scores
        event: Event
        if kind is ShowKnave:
            if not (table.masks[HANDS[seat]] >> knave) & 1:
                raise IllegalActionError(
                    action,
                    f"you do not hold the knave noddy ({Card.of(knave)}, the jack of trumps)",
                    self.legal_actions(state),
                )
            table = table.reveal(1 << knave, _ALL)
            score = scores[seat] + 1
            scores = _bump(scores, seat, score)
            event = KnaveShown(seat, _CARD[knave], 1, score)
            if score >= self._target:
                return _new_state(
                    table,
                    state.rng,
                    dealer,
                    scores,
                    _OVER,
                    None,
                    state.total,
                    state.gone,
                    state.hand,
                    (*state.events, event, Won(seat, score)),
                )
        elif kind is Pass:
            event = _KNAVE_PASSED[seat]
        else:
            raise IllegalActionError(
                action,
                "step 2 (the knave noddy) comes first: choose 'show knave' or 'pass'"
                if kind is Play
                else "not a Noddy action",
                self.legal_actions(state),
            )
        if seat != dealer:
            return _new_state(
                table,
                state.rng,
                dealer,
                scores,
                state.phase,
                dealer,
                state.total,
                state.gone,
                state.hand,
                state.events + (event,),  # noqa: RUF005 (one copy, no list)
            )
        tm = table.masks
        nd_hand, d_hand = (tm[2], tm[1]) if dealer == 0 else (tm[1], tm[2])
        nd_show, d_show = show_keys(nd_hand, d_hand, turnup)
        return self._shows(
            table,
            turnup,
            nd_show,
            d_show,
            state.rng,
            dealer,
            scores,
            state.total,
            state.gone,
            state.hand,
            state.events,
            (event,),
        )

    def _why_not_in_play(self, state: NoddyState, action: object) -> str:
        if isinstance(action, ShowKnave):
            return "the knave noddy can be shown only in step 2, before the shows"
        if isinstance(action, Pass):
            return (
                "you hold a card that keeps the count at 31 or less, so you must play "
                "(a go is only for a player who cannot play)"
            )
        return "not a Noddy action"

    # ---- automatic steps ---------------------------------------------------------------

    def _deal(
        self,
        rng: int,
        dealer: int,
        scores: tuple[int, ...],
        hand: int,
        events: tuple[Event, ...],
        new: tuple[Event, ...],
        top: Sequence[int] | None = None,
    ) -> NoddyState:
        """Deal a hand (ND-3.3), carry out step 1 (ND-4.1), and set up step 2 or step 3.

        All cards are gathered and shuffled with the state's RNG (ND-4.5); ``top`` is the
        top of a stacked deck instead. Only the 7 cards dealt are drawn from the RNG: the
        stock is never used in the hand, so it is an unordered face-down heap. ``events``
        are the game's events so far and ``new`` this decision's events before the deal.
        """
        if top is None:
            top, rng = _draw7(rng)
        # The table: _fresh_deal inlined (non-dealer's cards at 0, 2, 4, dealer's at 1, 3, 5).
        a, b, c, d, e, f, turnup = top
        nd_mask = (1 << a) | (1 << c) | (1 << e)
        d_mask = (1 << b) | (1 << d) | (1 << f)
        up = 1 << turnup
        stock = _DECK ^ nd_mask ^ d_mask ^ up
        nd = 1 - dealer
        if nd:
            table = new_table(
                (LAYOUT, (stock, d_mask, nd_mask, up, 0), _NO_ORDERS, (d_mask | up, nd_mask | up))
            )
        else:
            table = new_table(
                (LAYOUT, (stock, nd_mask, d_mask, up, 0), _NO_ORDERS, (nd_mask | up, d_mask | up))
            )
        hand += 1
        key = (hand << 7) | (dealer << 6) | turnup
        deal = self._deal_events.get(key)
        if deal is None:
            deal = self._deal_events[key] = Deal(hand, dealer, _CARD[turnup])
        new = (*new, deal)
        if SEQ[turnup] == 11:
            # Step 1 (ND-4.1): the turned-up jack, the dealer's award first (ND-5.3).
            for seat, points in self._jack_awards[dealer]:
                score = scores[seat] + points
                scores = _bump(scores, seat, score)
                new = (*new, TurnupJack(seat, points, score))
                if score >= self._target:
                    return _new_state(
                        table,
                        rng,
                        dealer,
                        scores,
                        _OVER,
                        None,
                        0,
                        _NOT_GONE,
                        hand,
                        (*events, *new, Won(seat, score)),
                    )
        elif self._show_early:
            # Step 2 (ND-4.2): the non-dealer decides first.
            return _new_state(
                table, rng, dealer, scores, _KNAVE, nd, 0, _NOT_GONE, hand, events + new
            )
        # Both show keys (scoring.show_keys) from the card ids: no bit scanning of masks.
        t = _TURNUP_KEY[turnup]
        counts = t & _TURNUP_COUNTS
        knave = t >> 64
        s = _HAND_KEY[a] + _HAND_KEY[c] + _HAND_KEY[e] + counts
        nd_show = (s & _SHOW_LOW) | _FLUSH_KEY[(s >> 44) & 0xFFF]
        if nd_mask & knave:
            nd_show |= 1 << 48
        s = _HAND_KEY[b] + _HAND_KEY[d] + _HAND_KEY[f] + counts
        d_show = (s & _SHOW_LOW) | _FLUSH_KEY[(s >> 44) & 0xFFF]
        if (t >> 57) & 1:
            d_show |= 1 << 47
        if d_mask & knave:
            d_show |= 1 << 48
        return self._shows(
            table, turnup, nd_show, d_show, rng, dealer, scores, 0, _NOT_GONE, hand, events, new
        )

    def _show(self, hand: int, turnup: int, dealer: bool) -> Breakdown:
        """:func:`show_mask` through a table keyed by :func:`show_key`."""
        key = show_key(hand, turnup, dealer)
        show = self._shows_memo.get(key)
        if show is None:
            show = self._shows_memo[key] = show_mask(hand, turnup, dealer=dealer, rules=self.rules)
        return show

    def _show_by_key(self, show: int, hand: int, turnup: int, dealer: bool) -> Breakdown:
        """:meth:`_show` on a miss of the table, with the :func:`show_key` already known."""
        breakdown = self._shows_memo[show] = show_mask(
            hand, turnup, dealer=dealer, rules=self.rules
        )
        return breakdown

    def _shown(
        self,
        seat: int,
        key: int,
        hand: int,
        turnup: int,
        scores: tuple[int, ...],
        *,
        dealer: bool = False,
    ) -> tuple[Shown, tuple[int, ...]]:
        """One seat's show event and the scores after it."""
        # The events are built each time: with the score in them, a table of events
        # would mostly miss (tens of thousands of keys); the breakdowns are few.
        show = self._shows_memo.get(key)
        if show is None:
            show = self._show_by_key(key, hand, turnup, dealer)
        score = scores[seat] + show.total
        event = _new_shown(seat, show.total, show.parts, score)
        return event, (_bump(scores, seat, score) if show.total else scores)

    def _shows(
        self,
        table: CardTable,
        turnup: int,
        nd_show: int,
        d_show: int,
        rng: int,
        dealer: int,
        scores: tuple[int, ...],
        total: int,
        gone: tuple[bool, ...],
        hand: int,
        events: tuple[Event, ...],
        new: tuple[Event, ...],
    ) -> NoddyState:
        """Step 3 (ND-4.3): the non-dealer's show, then the dealer's; then the play.

        ``nd_show`` and ``d_show`` are the :func:`show_key` of the two hands.
        """
        nd = 1 - dealer
        first, scores = self._shown(nd, nd_show, table.masks[HANDS[nd]], turnup, scores)
        if first.score >= self._target:
            return _new_state(
                table,
                rng,
                dealer,
                scores,
                _OVER,
                None,
                total,
                gone,
                hand,
                (*events, *new, first, Won(nd, first.score)),
            )
        second, scores = self._shown(
            dealer, d_show, table.masks[HANDS[dealer]], turnup, scores, dealer=True
        )
        if second.score >= self._target:
            return _new_state(
                table,
                rng,
                dealer,
                scores,
                _OVER,
                None,
                total,
                gone,
                hand,
                (*events, *new, first, second, Won(dealer, second.score)),
            )
        # Step 4 (ND-4.4): the non-dealer plays first.
        return _new_state(
            table,
            rng,
            dealer,
            scores,
            _PLAYING,
            nd,
            total,
            gone,
            hand,
            events + (*new, first, second),  # noqa: RUF005 (one copy, no list)
        )

    # ---- information -------------------------------------------------------------------

    def observe(self, state: NoddyState, seat: int) -> NoddyObservation:
        """What ``seat`` may know (ND-8); ``-1`` is an onlooker."""
        if seat not in (0, 1, SPECTATOR):
            raise ValueError(f"seat must be 0, 1 or -1 (onlooker), not {seat!r}")
        legal = self.legal_actions(state) if seat == state.current else ()
        return NoddyObservation(
            seat=seat,
            num_players=2,
            current_player=state.current,
            table=state.table.view(seat),
            legal_actions=legal,
            options=self.options,
            dealer=state.dealer,
            scores=state.scores,
            phase=state.phase,
            total=state.total,
            gone=state.gone,
            hand=state.hand,
            events=state.events,
        )

    def sample_state(self, observation: NoddyObservation, rng: random.Random) -> NoddyState:
        """A full state that agrees with everything the observing seat knows.

        The cards the seat cannot see are dealt at random into the hands (and the rest
        is the stock), keeping what the public events reveal:

        * a seat that went at total T holds no card of pip value 31 - T or less (ND-4.4);
        * a seat whose show was announced gets cards that, with those it has played this
          hand and the turn-up, give exactly that breakdown (ND-4.3), when such cards turn
          up within ``_SHOW_TRIES`` random draws (a very rare show falls back to the go
          constraint only).

        Raises:
            ValueError: no deal of the hidden cards fits the go constraints.
        """
        o = observation
        view = o.table
        known_all = 0
        for m in view.known:
            known_all |= m
        turnup_mask = view.known[TURNUP]
        pile_mask = view.known[PILE]
        hands = [view.known[HANDS[0]], view.known[HANDS[1]]]
        shows: dict[int, tuple[tuple[str, int], ...]] = {}
        played = [0, 0]
        go_at: dict[int, int] = {}
        public = turnup_mask | pile_mask
        for e in reversed(o.events):
            if isinstance(e, Deal):
                break
            if isinstance(e, Shown):
                shows[e.seat] = e.parts
            elif isinstance(e, Played):
                played[e.seat] |= 1 << e.card.id
            elif isinstance(e, Go):
                go_at[e.seat] = e.total
            elif isinstance(e, KnaveShown):
                public |= 1 << e.card.id
        turnup = (turnup_mask & -turnup_mask).bit_length() - 1
        pool = _DECK & ~known_all
        for seat in (0, 1):
            need = view.sizes[HANDS[seat]] - hands[seat].bit_count()
            if not need:
                continue
            allowed = pool
            if seat in go_at:
                allowed &= ~_PLAYABLE[MAX_TOTAL - go_at[seat]]
            cards = list(card_ids(allowed))
            if len(cards) < need:
                raise ValueError(f"no deal of the hidden cards fits seat {seat}'s go")
            pick = 0
            parts = shows.get(seat)
            if parts is not None and turnup >= 0:
                pick = find_show(
                    hands[seat] | played[seat],
                    cards,
                    need,
                    turnup,
                    dealer=seat == o.dealer,
                    rules=self.rules,
                    parts=parts,
                    tries=_SHOW_TRIES,
                    rnd=rng.random,
                )
            if not pick:
                pick = _mask(rng.sample(cards, need))
            hands[seat] |= pick
            pool &= ~pick
        table = CardTable(
            LAYOUT,
            (pool, hands[0], hands[1], turnup_mask, pile_mask),
            ((), (), (), (), view.orders[PILE]),
            (hands[0] | public, hands[1] | public),
        )
        return NoddyState(
            table=table,
            rng=rng.getrandbits(64),
            dealer=o.dealer,
            scores=o.scores,
            phase=o.phase,
            current=o.current_player,
            total=o.total,
            gone=o.gone,
            hand=o.hand,
            events=o.events,
        )

    # ---- text --------------------------------------------------------------------------

    @staticmethod
    def parse(text: str) -> NoddyAction:
        """Parse ``play 7♥`` (or just ``7h``), ``show knave`` or ``pass``.

        Raises:
            ValueError: naming the input when it is not a Noddy action.
        """
        words = text.replace("_", " ").replace("-", " ").lower().split()
        if words == ["pass"]:
            return _PASS
        if words in (["show", "knave"], ["knave"], ["show"]):
            return _SHOW_KNAVE
        if words and words[0] == "play":
            words = words[1:]
        if len(words) == 1:
            try:
                return _PLAY[parse_card(words[0]).id]
            except ValueError:
                pass
        raise ValueError(
            f"not a Noddy action: {text!r} (try 'play 7♥', 'play 10h', 'show knave' or 'pass')"
        )

    def parse_action(self, text: str) -> NoddyAction:
        """Parse an action's text form (the inverse of ``str(action)``)."""
        return self.parse(text)

    def observation_from_json(self, data: Mapping[str, Any]) -> NoddyObservation:
        """Rebuild an observation from :meth:`NoddyObservation.to_json` data."""
        n = data.get("num_players")
        if n != 2:
            raise ValueError("observation: 'num_players' must be 2")
        obs = _CODEC.decode(data, NoddyObservation, num_players=2)
        assert isinstance(obs, NoddyObservation)
        return obs

    def render(self, observation: NoddyObservation) -> str:
        """The table as text for the observing seat."""
        from cardcore_noddy.render import render

        return render(observation)


def _bump(scores: tuple[int, ...], seat: int, score: int) -> tuple[int, ...]:
    return (score, scores[1]) if seat == 0 else (scores[0], score)


def _mask(ids: Sequence[int]) -> int:
    m = 0
    for c in ids:
        m |= 1 << c
    return m


_CODEC: Final = JsonCodec((Play, ShowKnave, Pass), Noddy.parse, _layout_for)
