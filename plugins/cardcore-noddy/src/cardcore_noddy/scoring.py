"""Noddy's scoring: the show counter (ND-6.1) and the play scorer (ND-6.3).

Both are small pure functions of the cards and the scoring rules; the game calls them,
the heuristic bot calls them to weigh its plays, and the tests check them on their own.

Inside, cards are ids (``suit * 13 + rank - 2``, as in :mod:`cardcore`); the public
:func:`count_show` and :func:`score_play` take :class:`cardcore.Card` values.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations
from typing import TYPE_CHECKING, Final, final

import attrs

from cardcore import Card

if TYPE_CHECKING:
    # A machine integer to mypyc (an ``int`` to everything else); only named in annotations.
    from mypy_extensions import i64

__all__ = [
    "MAX_SHOW",
    "PIP",
    "PLAYABLE",
    "SEQ",
    "SUIT",
    "Breakdown",
    "ScoringRules",
    "count_show",
    "score_play",
    "show_mask",
]

SEQ: Final[tuple[int, ...]] = tuple(1 if i % 13 == 12 else i % 13 + 2 for i in range(52))
"""Per card id, its sequence rank (ND-2.1): A = 1, 2-10, J = 11, Q = 12, K = 13."""
PIP: Final[tuple[int, ...]] = tuple(min(s, 10) for s in SEQ)
"""Per card id, its pip value (ND-2.2): A = 1, 2-10 face value, J, Q, K = 10."""
SUIT: Final[tuple[int, ...]] = tuple(i // 13 for i in range(52))
"""Per card id, its suit (0-3)."""
PLAYABLE: Final = tuple(sum(1 << c for c in range(52) if PIP[c] <= room) for room in range(32))
"""Per room left below 31 (0..31), the mask of cards whose pip value fits (ND-4.4)."""
JACK_OF: Final[tuple[int, ...]] = tuple(s * 13 + 9 for s in range(4))
"""Per suit, the id of its jack (the knave noddy when that suit is trumps, ND-2.3)."""
MAX_SHOW: Final = 20
"""The largest possible show under both presets (ND-9.5): four 5s, 12 + 8."""

# Names of the combination types, as announced (ND-4.3, ND-8.1).
PAIRS: Final = "pairs"
FIFTEENS: Final = "fifteens"
TWENTYFIVES: Final = "twenty-fives"
THIRTYONE: Final = "thirty-one"
SEQUENCES: Final = "sequences"
FLUSH: Final = "flush"
ACE_IN_HAND: Final = "ace in hand"
TURNED_ACE: Final = "turned-up ace"
KNAVE: Final = "knave noddy"

_PAIR_POINTS: Final = (0, 0, 2, 6, 12)
"""Points for m cards of one rank in a row in the play (ND-6.3): 2, 6, 12."""


@final
@attrs.frozen
class Breakdown:
    """An award split by combination type, e.g. ``fifteens 4, pairs 2, flush 3``."""

    parts: tuple[tuple[str, int], ...] = ()
    """The non-zero combination types, in a fixed order, each with its points."""
    total: int = attrs.field(
        default=attrs.Factory(lambda s: sum(p for _, p in s.parts), takes_self=True)
    )
    """The points of the whole award (the sum of the parts)."""

    def __str__(self) -> str:
        return ", ".join(f"{name} {points}" for name, points in self.parts) or "nothing"


_NOTHING: Final = Breakdown()
_RANK_CACHES: dict[tuple[bool, tuple[int, ...]], dict[int, Breakdown]] = {}


@final
@attrs.frozen(kw_only=True)
class ScoringRules:
    """The options that change scoring (ND-6, section 7), fixed for a game."""

    twentyfive: bool = True
    """Whether a 25 scores 2, in the show and in the play."""
    run_values: tuple[int, ...] = (0, 0, 0, 2, 4, 5, 6)
    """Per sequence length (index 3..6), its points (ND-6.2)."""
    ace_bonus: bool = True
    """Ace in hand 1 each; turned-up ace 2 to the dealer."""
    knave_in_count: bool = False
    """Whether the knave noddy scores 1 in its holder's show (``knave_noddy=in_count``)."""
    _rank_cache: dict[int, Breakdown] = attrs.field(init=False, eq=False, hash=False, repr=False)

    def __attrs_post_init__(self) -> None:
        # The rank-only part of a show depends on these two options only; games with the
        # same ones share the cache (at most 1,820 rank multisets).
        cache = _RANK_CACHES.setdefault((self.twentyfive, self.run_values), {})
        object.__setattr__(self, "_rank_cache", cache)

    @staticmethod
    def run_table(run_values: str) -> tuple[int, ...]:
        """The sequence values for ``run_values=seed`` or ``per_card`` (ND-6.2)."""
        if run_values == "seed":
            return (0, 0, 0, 2, 4, 5, 6)
        if run_values == "per_card":
            return (0, 0, 0, 3, 4, 5, 6)
        raise ValueError(f"unknown run_values {run_values!r}; use seed or per_card")


def _rank_parts(ranks: tuple[int, ...], rules: ScoringRules) -> tuple[tuple[str, int], ...]:
    """Pairs, fifteens, twenty-fives and sequences of a show: they depend on ranks only."""
    pips = [min(r, 10) for r in ranks]
    pairs = sum(2 for a, b in combinations(ranks, 2) if a == b)
    fifteens = 0
    twentyfives = 0
    for size in (2, 3, 4):
        for combo in combinations(pips, size):
            s = sum(combo)
            if s == 15:
                fifteens += 2
            elif s == 25 and rules.twentyfive:
                twentyfives += 2
    sequences = 0
    for length in (4, 3):
        runs = sum(
            1
            for combo in combinations(ranks, length)
            if len(set(combo)) == length and max(combo) - min(combo) == length - 1
        )
        if runs:
            sequences = runs * rules.run_values[length]
            break
    return tuple(
        (name, points)
        for name, points in (
            (PAIRS, pairs),
            (FIFTEENS, fifteens),
            (TWENTYFIVES, twentyfives),
            (SEQUENCES, sequences),
        )
        if points
    )


_RANK_KEY: Final = tuple(1 << (3 * SEQ[c]) for c in range(52))
"""Per card id, its share of a rank-multiset key (3 bits per rank hold a count of 0-4)."""
_ACES: Final = sum(1 << c for c in range(52) if SEQ[c] == 1)
_SUIT_BITS: Final = 0x1FFF


def _rank_parts4(ranks: tuple[int, ...], rules: ScoringRules) -> tuple[tuple[str, int], ...]:
    """:func:`_rank_parts` of 4 sorted ranks (3 in hand and the turn-up), written out."""
    a, b, c, d = ranks
    pa, pb, pc, pd = min(a, 10), min(b, 10), min(c, 10), min(d, 10)
    sums = (
        pa + pb,
        pa + pc,
        pa + pd,
        pb + pc,
        pb + pd,
        pc + pd,
        pa + pb + pc,
        pa + pb + pd,
        pa + pc + pd,
        pb + pc + pd,
        pa + pb + pc + pd,
    )
    parts: list[tuple[str, int]] = []
    # Sorted ranks: equal ranks are neighbours, so the pairs are within runs of equals.
    pairs = 2 * ((a == b) + (a == c) + (a == d) + (b == c) + (b == d) + (c == d))
    if pairs:
        parts.append((PAIRS, pairs))
    fifteens = 2 * sums.count(15)
    if fifteens:
        parts.append((FIFTEENS, fifteens))
    if rules.twentyfive:
        twentyfives = 2 * sums.count(25)
        if twentyfives:
            parts.append((TWENTYFIVES, twentyfives))
    if a + 1 == b and b + 1 == c and c + 1 == d:
        parts.append((SEQUENCES, rules.run_values[4]))
    else:
        # Runs of 3 distinct consecutive ranks among the 4 combinations of 3 (sorted).
        runs = (
            (a + 1 == b and b + 1 == c)
            + (a + 1 == b and b + 1 == d)
            + (a + 1 == c and c + 1 == d)
            + (b + 1 == c and c + 1 == d)
        )
        if runs:
            parts.append((SEQUENCES, runs * rules.run_values[3]))
    return tuple(parts)


def _rank_base(key: int, rules: ScoringRules) -> Breakdown:
    found: list[int] = []
    for r in range(1, 14):
        count = (key >> (3 * r)) & 7
        if count:
            found += [r] * count
    ranks = tuple(found)
    parts = _rank_parts4(ranks, rules) if len(ranks) == 4 else _rank_parts(ranks, rules)
    base = rules._rank_cache[key] = Breakdown(parts, sum(p for _, p in parts))
    return base


_RANK_KINDS: Final = frozenset((PAIRS, FIFTEENS, TWENTYFIVES, SEQUENCES))


def find_show(
    fixed: int,
    cards: Sequence[int],
    need: int,
    turnup: int,
    *,
    dealer: bool,
    rules: ScoringRules,
    parts: tuple[tuple[str, int], ...],
    tries: int,
    rnd: Callable[[], float],
) -> int:
    """Randomly look for ``need`` of ``cards`` that, with ``fixed``, give a known show.

    Used to deal an opponent's hidden cards consistently with its announced show.

    Args:
        fixed: mask of the show cards already known (cards in hand or played).
        cards: the candidates for the missing cards.
        need: how many are missing (1-3).
        turnup: the turn-up's id.
        dealer: whether the shower is the dealer.
        rules: the scoring options.
        parts: the announced breakdown.
        tries: how many random draws to try.
        rnd: a uniform random source in [0, 1).

    Returns:
        The mask of the cards found, or 0 when no draw matched.
    """
    n = len(cards)
    if n < need:
        return 0
    target = tuple(p for p in parts if p[0] in _RANK_KINDS)
    base_key = _RANK_KEY[turnup]
    m = fixed
    while m:
        low = m & -m
        base_key += _RANK_KEY[low.bit_length() - 1]
        m ^= low
    cache = rules._rank_cache
    for _ in range(tries):
        pick = 0
        key = base_key
        got = 0
        while got < need:
            c = cards[int(rnd() * n)]
            bit = 1 << c
            if not pick & bit:
                pick |= bit
                key += _RANK_KEY[c]
                got += 1
        base = cache.get(key) or _rank_base(key, rules)
        if base.parts != target:
            continue
        if show_mask(fixed | pick, turnup, dealer=dealer, rules=rules).parts == parts:
            return pick
    return 0


def show_mask(hand: int, turnup: int, *, dealer: bool, rules: ScoringRules) -> Breakdown:
    """:func:`count_show` on a mask of the 3 hand cards and the turn-up's id (the game's path)."""
    key = _RANK_KEY[turnup]
    m = hand
    while m:
        low = m & -m
        key += _RANK_KEY[low.bit_length() - 1]
        m ^= low
    base = rules._rank_cache.get(key) or _rank_base(key, rules)
    parts = base.parts
    total = base.total
    allm = hand | (1 << turnup)
    flush = max(
        (allm & _SUIT_BITS).bit_count(),
        ((allm >> 13) & _SUIT_BITS).bit_count(),
        ((allm >> 26) & _SUIT_BITS).bit_count(),
        (allm >> 39).bit_count(),
    )
    extra = False
    if flush >= 3:
        parts = (*parts, (FLUSH, flush))
        total += flush
        extra = True
    if rules.ace_bonus:
        aces = (hand & _ACES).bit_count()
        if aces:
            parts = (*parts, (ACE_IN_HAND, aces))
            total += aces
            extra = True
        if dealer and SEQ[turnup] == 1:
            parts = (*parts, (TURNED_ACE, 2))
            total += 2
            extra = True
    if rules.knave_in_count and (hand >> JACK_OF[SUIT[turnup]]) & 1:
        parts = (*parts, (KNAVE, 1))
        total += 1
        extra = True
    return Breakdown(parts, total) if extra else base


def count_show(
    hand: Sequence[Card], turnup: Card, *, dealer: bool, rules: ScoringRules
) -> Breakdown:
    """Count one player's show (ND-6.1): their 3 cards plus the turn-up.

    A card may count in several combinations. Pairs 2 each (three of a kind 6, four 12);
    each distinct subset summing to 15 scores 2, and to 25 scores 2 when that option is
    on; the longest sequence length L >= 3 scores, per distinct L-card subset, the value
    of L (ND-6.2); the largest same-suit group of 3 or 4 scores its size; then the ace
    bonuses and the knave noddy as the rules say.

    Args:
        hand: the player's 3 cards.
        turnup: the turned-up card (its suit is trumps).
        dealer: whether the player is the dealer (the turned-up ace scores for the dealer).
        rules: the scoring options.

    Returns:
        The show's points by combination type.
    """
    mask = 0
    for c in hand:
        mask |= 1 << c.id
    if len(hand) != 3 or mask.bit_count() != 3 or (mask >> turnup.id) & 1:
        raise ValueError(f"a show needs 3 distinct cards in hand besides the turn-up, not {hand}")
    return show_mask(mask, turnup.id, dealer=dealer, rules=rules)


def play_ids(pile: Sequence[int], total: int, rules: ScoringRules) -> Breakdown:
    """:func:`score_play` on card ids, given the new running total (the game's path)."""
    parts: list[tuple[str, int]] = []
    points = 0
    if total == 15:
        parts.append((FIFTEENS, 2))
        points = 2
    elif total == 25:
        if rules.twentyfive:
            parts.append((TWENTYFIVES, 2))
            points = 2
    elif total == 31:
        parts.append((THIRTYONE, 2))
        points = 2
    n = len(pile)
    if n >= 2:
        last = pile[-1]
        rank = SEQ[last]
        suit = SUIT[last]
        same_rank = True
        same_suit = True
        pairs = 1
        flush = 1
        seen = 1 << rank
        lo = hi = rank
        run = 0
        for i in range(2, n + 1):
            c = pile[-i]
            r = SEQ[c]
            if same_rank:
                if r == rank:
                    pairs = i
                else:
                    same_rank = False
            if same_suit:
                if SUIT[c] == suit:
                    flush = i
                else:
                    same_suit = False
            if seen:
                if (seen >> r) & 1:
                    seen = 0  # a repeated rank: no longer run ends here
                else:
                    seen |= 1 << r
                    lo = min(lo, r)
                    hi = max(hi, r)
                    if i >= 3 and hi - lo == i - 1:
                        run = i
            elif not (same_rank or same_suit):
                break
        if pairs >= 2:
            parts.append((PAIRS, _PAIR_POINTS[pairs]))
            points += _PAIR_POINTS[pairs]
        if run:
            parts.append((SEQUENCES, rules.run_values[run]))
            points += rules.run_values[run]
        if flush >= 3:
            parts.append((FLUSH, flush))
            points += flush
    return Breakdown(tuple(parts), points) if parts else _NOTHING


def score_play(pile: Sequence[Card], rules: ScoringRules) -> Breakdown:
    """Score the last card of the play pile for its player (ND-6.3).

    ``pile`` holds c1 ... ck, the new card last; the running total S is their pip sum.
    S = 15, 25 (when that option is on) or 31 scores 2; m cards of the new card's rank in
    a row at the end score 2, 6 or 12; the longest run of the last n >= 3 cards with n
    distinct consecutive ranks (any order) scores the value of n; the last n >= 3 cards
    of one suit score n. Ace bonuses and the knave never score in the play.

    Args:
        pile: the play pile, oldest card first, the new card last.
        rules: the scoring options.

    Returns:
        The new card's points by combination type.
    """
    if not pile:
        raise ValueError("the pile is empty: no card to score")
    ids = [c.id for c in pile]
    return play_ids(ids, sum(PIP[c] for c in ids), rules)


# ---- table-driven fast paths (the game's per-play and per-hand work) ---------------------

Award = tuple[tuple[tuple[str, int], ...], int]
"""An award as ``(parts, total)``, the fields of a :class:`Breakdown`."""


_RANK_BIT: Final = tuple(1 << SEQ[c] for c in range(52))
"""Per card id, a bit for its sequence rank (1-13)."""
_FULL: Final = tuple((1 << k) - 1 for k in range(8))


def pile_code(pile: Sequence[int]) -> int:
    """The pairs, sequence and flush of the pile's last card (ND-6.3) as a small int.

    ``pairs * 49 + run * 7 + flush``, where ``pairs`` is 0 (none), 1, 2 or 3 (2, 3 or 4
    of a kind), ``run`` the scoring run length (0 or 3-6) and ``flush`` the scoring
    same-suit length (0 or 3-6); add ``196 * total code`` and look it up in
    :func:`award_table`. The same counting as :func:`play_ids`, without building parts.
    """
    return pile_code_of(tuple(pile))


def pile_code_of(pile: tuple[int, ...]) -> int:
    """:func:`pile_code` of a tuple: the game's path.

    Compiled, a tuple's items are read directly, any other sequence's through the generic
    item lookup; the counts are ``i64``, plain C arithmetic (``int`` in the pure build).
    """
    n: i64 = len(pile)
    if n < 2:
        return 0
    last = pile[n - 1]
    rank: i64 = SEQ[last]
    if SEQ[pile[n - 2]] == rank:
        # A pair at the end: two cards of one rank differ in suit, so neither a flush
        # nor a run (which needs distinct ranks) ends here.
        k: i64 = 2
        while k < n and SEQ[pile[n - k - 1]] == rank:
            k += 1
        return (k - 1) * 49
    if n == 2:
        return 0
    seen: i64 = _RANK_BIT[last] | _RANK_BIT[pile[n - 2]]
    run: i64 = 0
    k = 2
    while k < n:
        bit: i64 = _RANK_BIT[pile[n - k - 1]]
        if seen & bit:
            break
        seen |= bit
        k += 1
        if seen // (seen & -seen) == _FULL[k]:
            run = k
    suit: i64 = SUIT[last]
    flush: i64 = 1
    while flush < n and SUIT[pile[n - flush - 1]] == suit:
        flush += 1
    return run * 7 + (flush if flush >= 3 else 0)


def total_codes(rules: ScoringRules) -> tuple[int, ...]:
    """Per running total (0-31), its code for :func:`award_table`.

    1 for 15, 2 for 25 (when it scores), 3 for 31, else 0.
    """
    return tuple(
        1 if t == 15 else 2 if t == 25 and rules.twentyfive else 3 if t == 31 else 0
        for t in range(32)
    )


def award_table(rules: ScoringRules) -> tuple[Award, ...]:
    """Per ``196 * total code + pile code``, the play award as :func:`play_ids` gives it."""
    out: list[Award] = []
    for tc in range(4):
        for pc in range(4):
            for run in range(7):
                for flush in range(7):
                    parts: list[tuple[str, int]] = []
                    if tc:
                        parts.append(((FIFTEENS, TWENTYFIVES, THIRTYONE)[tc - 1], 2))
                    if pc:
                        parts.append((PAIRS, _PAIR_POINTS[pc + 1]))
                    if run:
                        parts.append((SEQUENCES, rules.run_values[run]))
                    if flush:
                        parts.append((FLUSH, flush))
                    out.append((tuple(parts), sum(p for _, p in parts)))
    return tuple(out)


_SHOW_LOW: Final = (1 << 44) - 1
_TURNUP_COUNTS: Final = (1 << 56) - 1
_HAND_KEY: Final = tuple(
    _RANK_KEY[c] | (int(SEQ[c] == 1) << 42) | (1 << (44 + 3 * SUIT[c])) for c in range(52)
)
"""Per card in hand: its rank count (bits 3-41), ace count (42-43), suit count (44-55)."""
_TURNUP_KEY: Final = tuple(
    _RANK_KEY[t]
    | (1 << (44 + 3 * SUIT[t]))
    | (int(SEQ[t] == 1) << 57)
    | ((1 << JACK_OF[SUIT[t]]) << 64)
    for t in range(52)
)
"""Per turn-up: rank and suit counts, a turned-up ace flag (bit 57), the knave's bit (64+)."""
_FLUSH_KEY: Final = tuple(
    (max((k >> (3 * s)) & 7 for s in range(4)) << 44)
    if max((k >> (3 * s)) & 7 for s in range(4)) >= 3
    else 0
    for k in range(1 << 12)
)
"""Per 4 suit counts (3 bits each), the flush size (3 or 4, else 0) in bits 44-46."""


def show_key(hand: int, turnup: int, dealer: bool) -> int:
    """A small int that decides the show of a 3-card ``hand`` mask (ND-6.1).

    Rank multiset, flush size, aces in hand, a turned-up ace for the dealer and the
    knave noddy in hand: every input of :func:`show_mask`, so equal keys give equal shows.
    """
    nd_key, d_key = show_keys(hand, hand, turnup)
    return d_key if dealer else nd_key


def show_keys(nd_hand: int, d_hand: int, turnup: int) -> tuple[int, int]:
    """:func:`show_key` of the non-dealer's hand and of the dealer's, in one call (step 3)."""
    t = _TURNUP_KEY[turnup]
    counts = t & _TURNUP_COUNTS
    knave = t >> 64
    keys = []
    for hand in (nd_hand, d_hand):
        low = hand & -hand
        m = hand ^ low
        mid = m & -m
        m ^= mid
        s = (
            _HAND_KEY[low.bit_length() - 1]
            + _HAND_KEY[mid.bit_length() - 1]
            + _HAND_KEY[m.bit_length() - 1]
            + counts
        )
        key = (s & _SHOW_LOW) | _FLUSH_KEY[(s >> 44) & 0xFFF]
        if hand & knave:
            key |= 1 << 48
        keys.append(key)
    nd_key, d_key = keys
    if (t >> 57) & 1:  # a turned-up ace scores for the dealer only
        d_key |= 1 << 47
    return nd_key, d_key
