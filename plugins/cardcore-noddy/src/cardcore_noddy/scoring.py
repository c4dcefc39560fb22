"""Noddy's scoring: the show counter (ND-6.1) and the play scorer (ND-6.3).

Both are small pure functions of the cards and the scoring rules; the game calls them,
the heuristic bot calls them to weigh its plays, and the tests check them on their own.

Inside, cards are ids (``suit * 13 + rank - 2``, as in :mod:`cardcore`); the public
:func:`count_show` and :func:`score_play` take :class:`cardcore.Card` values.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Final, final

import attrs

from cardcore import Card

__all__ = [
    "MAX_SHOW",
    "PIP",
    "SEQ",
    "SUIT",
    "Breakdown",
    "ScoringRules",
    "count_show",
    "score_play",
]

SEQ: Final[tuple[int, ...]] = tuple(1 if i % 13 == 12 else i % 13 + 2 for i in range(52))
"""Per card id, its sequence rank (ND-2.1): A = 1, 2-10, J = 11, Q = 12, K = 13."""
PIP: Final[tuple[int, ...]] = tuple(min(s, 10) for s in SEQ)
"""Per card id, its pip value (ND-2.2): A = 1, 2-10 face value, J, Q, K = 10."""
SUIT: Final[tuple[int, ...]] = tuple(i // 13 for i in range(52))
"""Per card id, its suit (0-3)."""
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

    @property
    def total(self) -> int:
        """The points of the whole award."""
        return sum(p for _, p in self.parts)

    def __str__(self) -> str:
        return ", ".join(f"{name} {points}" for name, points in self.parts) or "nothing"


_NOTHING: Final = Breakdown()


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
    _rank_cache: dict[tuple[int, ...], tuple[tuple[str, int], ...]] = attrs.field(
        factory=dict, init=False, eq=False, hash=False, repr=False
    )

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
    hit = rules._rank_cache.get(ranks)
    if hit is not None:
        return hit
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
    parts = tuple(
        (name, points)
        for name, points in (
            (PAIRS, pairs),
            (FIFTEENS, fifteens),
            (TWENTYFIVES, twentyfives),
            (SEQUENCES, sequences),
        )
        if points
    )
    rules._rank_cache[ranks] = parts
    return parts


def show_ids(hand: Sequence[int], turnup: int, *, dealer: bool, rules: ScoringRules) -> Breakdown:
    """:func:`count_show` on card ids (the game's fast path)."""
    ids = (*hand, turnup)
    parts = _rank_parts(tuple(sorted(SEQ[c] for c in ids)), rules)
    suits = [SUIT[c] for c in ids]
    flush = max(suits.count(s) for s in set(suits))
    if flush >= 3:
        parts = (*parts, (FLUSH, flush))
    if rules.ace_bonus:
        aces = sum(1 for c in hand if SEQ[c] == 1)
        if aces:
            parts = (*parts, (ACE_IN_HAND, aces))
        if dealer and SEQ[turnup] == 1:
            parts = (*parts, (TURNED_ACE, 2))
    if rules.knave_in_count and JACK_OF[SUIT[turnup]] in hand:
        parts = (*parts, (KNAVE, 1))
    return Breakdown(parts) if parts else _NOTHING


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
    if len(hand) != 3:
        raise ValueError(f"a show needs 3 cards in hand, not {len(hand)}")
    return show_ids([c.id for c in hand], turnup.id, dealer=dealer, rules=rules)


def play_ids(pile: Sequence[int], total: int, rules: ScoringRules) -> Breakdown:
    """:func:`score_play` on card ids (the game's fast path)."""
    parts: list[tuple[str, int]] = []
    if total == 15:
        parts.append((FIFTEENS, 2))
    elif total == 25:
        if rules.twentyfive:
            parts.append((TWENTYFIVES, 2))
    elif total == 31:
        parts.append((THIRTYONE, 2))
    n = len(pile)
    last = pile[-1]
    if n >= 2:
        rank = SEQ[last]
        m = 1
        while m < n and SEQ[pile[-1 - m]] == rank:
            m += 1
        if m >= 2:
            parts.append((PAIRS, _PAIR_POINTS[m]))
        for length in range(n, 2, -1):
            ranks = {SEQ[c] for c in pile[-length:]}
            if len(ranks) == length and max(ranks) - min(ranks) == length - 1:
                parts.append((SEQUENCES, rules.run_values[length]))
                break
        suit = SUIT[last]
        f = 1
        while f < n and SUIT[pile[-1 - f]] == suit:
            f += 1
        if f >= 3:
            parts.append((FLUSH, f))
    return Breakdown(tuple(parts)) if parts else _NOTHING


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
