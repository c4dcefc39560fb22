"""The automatic start of a Noddy hand: the cut, the shuffle, the deal and the shows (ND-3, ND-4).

:class:`HandStart` deals a hand (ND-3.3), scores a turned-up jack (ND-4.1) and counts
both shows (ND-4.3), up to the first play or to the step-2 decision on the knave noddy
(ND-4.2); the two decisions, step 2 and the play, are in :mod:`cardcore_noddy.rules`.
The shuffle is part of
what a seed means, so the way it draws its random numbers is fixed here. Also here: a
deal of the cards a seat cannot see that fits everything it knows (``sample_state``).
"""

from __future__ import annotations

import random
import struct
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Final, cast, final

from cardcore import Card, CardTable, card_ids, rng_below
from cardcore_noddy.options import NoddyOptions
from cardcore_noddy.scoring import (
    _FLUSH_KEY,
    _HAND_KEY,
    _SHOW_LOW,
    _TURNUP_COUNTS,
    _TURNUP_KEY,
    PLAYABLE,
    SEQ,
    Breakdown,
    ScoringRules,
    find_show,
    show_mask,
)
from cardcore_noddy.state import (
    HANDS,
    LAYOUT,
    MAX_TOTAL,
    PILE,
    TURNUP,
    Cut,
    Deal,
    Event,
    Go,
    KnaveShown,
    NoddyObservation,
    NoddyState,
    Phase,
    Played,
    Shown,
    TurnupJack,
    Won,
    new_shown,
    new_state,
)

if TYPE_CHECKING:
    # A machine integer to mypyc (an ``int`` to everything else); only named in annotations.
    from mypy_extensions import i64

__all__ = ["HandStart", "bump", "cut_for_dealer", "draw7", "sample_table", "stacked_top"]

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


def _draw7_lanes(rng: int) -> tuple[list[int], int]:
    """:func:`draw7` for the pure build: Python's long arithmetic, seven lanes at once.

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


_M30: Final = 0x3FFFFFFF


def _draw7_words(rng: int) -> tuple[list[int], int]:
    """:func:`draw7` for the compiled build: machine words only.

    Draw ``i`` is :func:`cardcore.rng_below` ``(rng, 52 - i)`` (SplitMix64): its state is
    ``rng + (i + 1) * gamma``. The 64-bit words are kept as three pieces of 30, 30 and 4
    bits, as ``cardcore._rng._below_words`` keeps them, so that every product is of two
    factors below 2**30 and every sum stays below 2**62. The pieces are ``i64``: compiled,
    their arithmetic is then plain C, with no check for a Python long on each operation
    (in the pure build ``i64`` is ``int``, and the numbers are the same). (A copy of that
    function's steps: called across the two compiled modules, it would go through Python
    objects on every draw.)
    """
    # The state in pieces: the 64-bit int is split in two halves first (two operations on
    # a Python long, where three pieces taken from it directly would need three).
    lo: i64 = rng & 0xFFFFFFFF
    hi: i64 = rng >> 32
    a: i64 = lo & _M30
    b: i64 = (lo >> 30) | ((hi & 0xFFFFFFF) << 2)
    c: i64 = hi >> 28
    pool = _RANGE52[:]
    i: i64 = 0
    while i < 7:
        # The state: + gamma (pieces 0x3F4A7C15, 0x38DDE6E5, 0x9), with the carries.
        a += 0x3F4A7C15
        b += 0x38DDE6E5 + (a >> 30)
        c = (c + 0x9 + (b >> 30)) & 0xF
        a &= _M30
        b &= _M30
        # z ^= z >> 30
        za: i64 = a ^ b
        zb: i64 = b ^ c
        zc: i64 = c
        # z *= 0xBF58476D1CE4E5B9 (mod 2**64): pieces 0x1CE4E5B9, 0x3D611DB4, 0xB
        t0: i64 = za * 0x1CE4E5B9
        t1: i64 = za * 0x3D611DB4 + zb * 0x1CE4E5B9 + (t0 >> 30)
        zc = (za * 0xB + zb * 0x3D611DB4 + zc * 0x1CE4E5B9 + (t1 >> 30)) & 0xF
        za = t0 & _M30
        zb = t1 & _M30
        # z ^= z >> 27
        za ^= (za >> 27) | ((zb << 3) & _M30)
        zb ^= (zb >> 27) | (zc << 3)
        # z *= 0x94D049BB133111EB (mod 2**64): pieces 0x133111EB, 0x134126EC, 0x9
        t0 = za * 0x133111EB
        t1 = za * 0x134126EC + zb * 0x133111EB + (t0 >> 30)
        zc = (za * 0x9 + zb * 0x134126EC + zc * 0x133111EB + (t1 >> 30)) & 0xF
        za = t0 & _M30
        zb = t1 & _M30
        # z ^= z >> 31
        za ^= (zb >> 1) | ((zc & 1) << 29)
        zb ^= zc >> 1
        # j = (z * n) >> 64, a piece at a time from the lowest
        n: i64 = 52 - i
        x: i64 = (za * n) >> 30
        x = (x + zb * n) >> 30
        j: i64 = ((x + zc * n) >> 4) + i
        pool[i], pool[j] = pool[j], pool[i]
        i += 1
    return pool[:7], (rng + _STEP7) & _MASK64


_COMPILED: Final = not __file__.endswith((".py", ".pyc"))
"""Whether this module is loaded from a mypyc extension (then machine words are fast)."""


def draw7(rng: int) -> tuple[list[int], int]:
    """Shuffle the deck with the RNG far enough to deal 7 cards (partial Fisher-Yates).

    Draw ``i`` is :func:`cardcore.rng_below` ``(rng, 52 - i)`` (SplitMix64) and swaps
    position ``i`` with ``i + j``. Two implementations give the same numbers, each the
    faster in its build: wide-int lanes in CPython, 32-bit halves when compiled.
    """
    return _draw7_words(rng) if _COMPILED else _draw7_lanes(rng)


_CUTS: Final[dict[int, Cut]] = {}
"""Cut events by ``52 * seat 0's card + seat 1's card`` (immutable, so shared)."""


def cut_for_dealer(rng: int) -> tuple[tuple[Cut, ...], int, int]:
    """The cut for the first dealer (ND-3.1): each seat draws a card, equal ranks cut again.

    Returns:
        The cuts, the dealer (the lower sequence rank) and the RNG state after them.
    """
    cuts: list[Cut] = []
    while True:
        a, rng = rng_below(rng, 52)
        b, rng = rng_below(rng, 51)
        if b >= a:
            b += 1
        cut = _CUTS.get(a * 52 + b)
        if cut is None:
            cut = _CUTS[a * 52 + b] = Cut((Card.of(a), Card.of(b)))
        cuts.append(cut)
        if SEQ[a] != SEQ[b]:
            return tuple(cuts), (0 if SEQ[a] < SEQ[b] else 1), rng


def stacked_top(deck: Sequence[Card]) -> list[int]:
    """The ids of the 7 cards a stacked deck deals (top card first).

    Raises:
        ValueError: the deck does not hold each of the 52 cards exactly once.
    """
    ids = [c.id for c in deck]
    if len(ids) != 52 or len(set(ids)) != 52:
        dups = sorted({str(c) for c in deck if ids.count(c.id) > 1})
        raise ValueError(
            "a stacked deck must hold each of the 52 cards exactly once; got "
            f"{len(ids)} cards" + (f", repeated: {' '.join(dups)}" if dups else "")
        )
    return ids[:7]


# ---- steps 1-3 of a hand ---------------------------------------------------------------

_KNAVE: Final = Phase.KNAVE
_PLAYING: Final = Phase.PLAY
_OVER: Final = Phase.OVER
_DECK: Final = LAYOUT.deck
_NO_ORDERS: Final[tuple[tuple[int, ...], ...]] = ((),) * 5
_CARD: Final = tuple(Card.of(i) for i in range(52))
_NOT_GONE: Final = (False, False)


# Names of other modules that every hand uses, as constants: compiled, a constant is read
# from a C static, an imported name from the module's dictionary on every use.
_NEW_STATE: Final = new_state
_TUPLE_NEW: Final = cast(
    "Callable[[type[CardTable], tuple[object, ...]], CardTable]", tuple.__new__
)
"""``tuple.__new__``: ``_TUPLE_NEW(_CARD_TABLE, parts)`` is ``cardcore.new_table(parts)``
without the ``functools.partial`` call in between."""
_CARD_TABLE: Final = CardTable
_NEW_SHOWN: Final = new_shown
_LAYOUT: Final = LAYOUT
_DEAL: Final = Deal


_TURNUP_COUNT: Final = tuple(t & _TURNUP_COUNTS for t in _TURNUP_KEY)
"""Per turn-up, its rank and suit counts of :data:`_TURNUP_KEY` (below 2**56: compiled,
a machine word, where the whole key is a Python long and costs a call per operation)."""
_KNAVE_BIT: Final = tuple(t >> 64 for t in _TURNUP_KEY)
"""Per turn-up, the bit of the knave noddy (the jack of its suit)."""
_TURNED_ACE: Final = tuple(((t >> 57) & 1) << 47 for t in _TURNUP_KEY)
"""Per turn-up, the turned-up ace's bit of the dealer's show key (0 for any other card)."""


def bump(scores: tuple[int, ...], seat: int, score: int) -> tuple[int, ...]:
    """``scores`` with ``seat``'s score set to ``score``."""
    return (score, scores[1]) if seat == 0 else (scores[0], score)


@final
class HandStart:
    """The automatic steps 1 and 3 of every hand under fixed options (the deal, the shows)."""

    def __init__(
        self,
        options: NoddyOptions,
        rules: ScoringRules,
    ) -> None:
        self._rules = rules
        self._target = options.target
        self._show_early = options.knave_noddy == "show_early"
        self._jack_awards: tuple[tuple[tuple[int, int], ...], ...] = (
            (((0, 1), (1, 2)), ((1, 1), (0, 2)))
            if options.turnup_jack == "dealer1_nondealer2"
            else (((0, 2),), ((1, 2),))
        )
        """Per dealer, the turned-up jack's awards in order (ND-4.1, ND-5.3)."""
        self._shows_memo: dict[int, Breakdown] = {}
        """Shows by :func:`show_key` (a few thousand keys at most)."""
        self._show_slots: dict[int, int] = {}
        """Per :func:`show_key`, the index of its breakdown in ``_slot_shows``."""
        self._slot_of_parts: dict[tuple[tuple[str, int], ...], int] = {}
        self._slot_shows: list[Breakdown] = []
        self._slot_points: list[int] = []
        """Per breakdown index, its points (read on every hand, so kept as ints)."""
        """The distinct breakdowns (by their parts), each once."""
        self._slot_events: list[list[Shown | None]] = []
        """Per breakdown index, its Shown events by ``score * 2 + seat`` (immutable, so
        shared; a list is read without boxing or hashing a key)."""
        self._jack_events: dict[int, TurnupJack] = {}
        """Turned-up jack awards by seat, points and score (shared too)."""
        self._won_events: dict[int, Won] = {}
        """Wins by seat and score (shared too)."""
        self._deal_events: dict[int, Deal] = {}
        """Deal events by hand number, dealer and turn-up (immutable, so shared)."""

    def deal(
        self,
        rng: int,
        dealer: int,
        scores: tuple[int, ...],
        hand: int,
        events: tuple[Event, ...],
        new: tuple[Event, ...],
        top: list[int] | None = None,
    ) -> NoddyState:
        """Deal a hand (ND-3.3), carry out step 1 (ND-4.1), and set up step 2 or step 3.

        All cards are gathered and shuffled with the state's RNG (ND-4.5); ``top`` is the
        top of a stacked deck instead. Only the 7 cards dealt are drawn from the RNG: the
        stock is never used in the hand, so it is an unordered face-down heap. ``events``
        are the game's events so far and ``new`` this decision's events before the deal.
        """
        if top is None:
            top, rng = _draw7_words(rng) if _COMPILED else _draw7_lanes(rng)
        # The table (ND-3.3): the non-dealer holds cards 0, 2, 4, the dealer 1, 3, 5; card 6
        # is the turn-up and the rest the stock. Each seat knows its hand and the turn-up.
        # Read by index: unpacking would go through the iterator protocol when compiled.
        a = top[0]
        b = top[1]
        c = top[2]
        d = top[3]
        e = top[4]
        f = top[5]
        turnup = top[6]
        nd_mask = (1 << a) | (1 << c) | (1 << e)
        d_mask = (1 << b) | (1 << d) | (1 << f)
        up = 1 << turnup
        stock = _DECK ^ nd_mask ^ d_mask ^ up
        if dealer:
            masks, known = (stock, nd_mask, d_mask, up, 0), (nd_mask | up, d_mask | up)
        else:
            masks, known = (stock, d_mask, nd_mask, up, 0), (d_mask | up, nd_mask | up)
        table = _TUPLE_NEW(_CARD_TABLE, (_LAYOUT, masks, _NO_ORDERS, known))
        hand += 1
        key = (hand << 7) | (dealer << 6) | turnup
        deal = self._deal_events.get(key)
        if deal is None:
            deal = self._deal_events[key] = _DEAL(hand, dealer, _CARD[turnup])
        new = new + (deal,)  # noqa: RUF005 (one copy, no list when compiled)
        if SEQ[turnup] == 11:
            # Step 1 (ND-4.1): the turned-up jack, the dealer's award first (ND-5.3).
            for seat, points in self._jack_awards[dealer]:
                score = scores[seat] + points
                scores = bump(scores, seat, score)
                new = (*new, self.turnup_jack(seat, points, score))
                if score >= self._target:
                    won = (*events, *new, self.won(seat, score))
                    return _NEW_STATE(
                        table, rng, dealer, scores, _OVER, None, 0, _NOT_GONE, hand, won
                    )
        elif self._show_early:
            # Step 2 (ND-4.2): the non-dealer decides first.
            nd = 1 - dealer
            return _NEW_STATE(
                table, rng, dealer, scores, _KNAVE, nd, 0, _NOT_GONE, hand, events + new
            )
        # Both show keys (scoring.show_keys) from the card ids: no bit scanning of masks.
        counts = _TURNUP_COUNT[turnup]
        knave = _KNAVE_BIT[turnup]
        s = _HAND_KEY[a] + _HAND_KEY[c] + _HAND_KEY[e] + counts
        nd_show = (s & _SHOW_LOW) | _FLUSH_KEY[(s >> 44) & 0xFFF]
        if nd_mask & knave:
            nd_show |= 1 << 48
        s = _HAND_KEY[b] + _HAND_KEY[d] + _HAND_KEY[f] + counts
        d_show = (s & _SHOW_LOW) | _FLUSH_KEY[(s >> 44) & 0xFFF] | _TURNED_ACE[turnup]
        if d_mask & knave:
            d_show |= 1 << 48
        return self.shows(
            table, turnup, nd_show, d_show, rng, dealer, scores, 0, _NOT_GONE, hand, events, new
        )

    def _show(self, key: int, hand: int, turnup: int, dealer: bool) -> Breakdown:
        """The show of a ``hand`` mask (ND-6.1), kept by its :func:`show_key` ``key``."""
        show = self._shows_memo.get(key)
        if show is None:
            show = self._shows_memo[key] = show_mask(hand, turnup, dealer=dealer, rules=self._rules)
        return show

    def shows(
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

        ``nd_show`` and ``d_show`` are the :func:`show_key` of the two hands. The two
        shows are written out one after the other: compiled, a loop over the two seats
        would build and unpack tuples through the iterator protocol.
        """
        nd = 1 - dealer
        slot = self._slot(nd_show, table, turnup, nd, False)
        points = self._slot_points[slot]
        score = scores[nd] + points
        new = new + (self._shown(slot, nd, points, score),)  # noqa: RUF005 (one copy)
        if points:
            scores = (score, scores[1]) if nd == 0 else (scores[0], score)
            if score >= self._target:  # scores start every hand below the target
                won = (*events, *new, self.won(nd, score))
                return _NEW_STATE(table, rng, dealer, scores, _OVER, None, total, gone, hand, won)
        slot = self._slot(d_show, table, turnup, dealer, True)
        points = self._slot_points[slot]
        score = scores[dealer] + points
        new = new + (self._shown(slot, dealer, points, score),)  # noqa: RUF005 (one copy)
        if points:
            scores = (score, scores[1]) if dealer == 0 else (scores[0], score)
            if score >= self._target:
                won = (*events, *new, self.won(dealer, score))
                return _NEW_STATE(table, rng, dealer, scores, _OVER, None, total, gone, hand, won)
        # Step 4 (ND-4.4): the non-dealer plays first.
        return _NEW_STATE(table, rng, dealer, scores, _PLAYING, nd, total, gone, hand, events + new)

    def _slot(self, key: int, table: CardTable, turnup: int, seat: int, dealer: bool) -> int:
        """The index of the breakdown of the show with :func:`show_key` ``key``."""
        slot = self._show_slots.get(key)
        if slot is None:
            show = self._show(key, table.masks[1 + seat], turnup, dealer)  # HANDS
            slot = self._slot_of_parts.setdefault(show.parts, len(self._slot_of_parts))
            if slot == len(self._slot_shows):
                self._slot_shows.append(show)
                self._slot_points.append(show.total)
                self._slot_events.append([])
            self._show_slots[key] = slot
        return slot

    def _shown(self, slot: int, seat: int, points: int, score: int) -> Shown:
        """The event of ``seat``'s show of breakdown ``slot``, its score after it ``score``."""
        row = self._slot_events[slot]
        i = (score << 1) | seat
        if i < len(row):
            event = row[i]
            if event is not None:
                return event
        else:
            row.extend([None] * (i + 1 - len(row)))
        new = row[i] = _NEW_SHOWN(seat, points, self._slot_shows[slot].parts, score)
        return new

    def turnup_jack(self, seat: int, points: int, score: int) -> TurnupJack:
        """``TurnupJack(seat, points, score)``, each such event built once."""
        key = (((score << 2) | points) << 1) | seat
        event = self._jack_events.get(key)
        if event is None:
            event = self._jack_events[key] = TurnupJack(seat, points, score)
        return event

    def won(self, seat: int, score: int) -> Won:
        """``Won(seat, score)``, each such event built once."""
        key = (score << 1) | seat
        event = self._won_events.get(key)
        if event is None:
            event = self._won_events[key] = Won(seat, score)
        return event


# ---- a deal of the hidden cards that fits what a seat knows -----------------------------


def sample_table(
    o: NoddyObservation, rules: ScoringRules, rng: random.Random, *, tries: int
) -> CardTable:
    """A table that agrees with everything the observing seat knows (see ``sample_state``).

    The hidden cards are dealt at random into the hands, the rest is the stock; a seat
    that went holds no card that would have fitted, and a seat whose show was announced
    gets cards that reproduce it when such cards turn up within ``tries`` random draws.

    Raises:
        ValueError: no deal of the hidden cards fits the go constraints.
    """
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
            allowed &= ~PLAYABLE[MAX_TOTAL - go_at[seat]]
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
                rules=rules,
                parts=parts,
                tries=tries,
                rnd=rng.random,
            )
        if not pick:
            pick = _mask(rng.sample(cards, need))
        hands[seat] |= pick
        pool &= ~pick
    return CardTable(
        LAYOUT,
        (pool, hands[0], hands[1], turnup_mask, pile_mask),
        ((), (), (), (), view.orders[PILE]),
        (hands[0] | public, hands[1] | public),
    )


def _mask(ids: Sequence[int]) -> int:
    m = 0
    for c in ids:
        m |= 1 << c
    return m
