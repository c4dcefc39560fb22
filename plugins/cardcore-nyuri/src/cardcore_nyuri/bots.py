"""The ``nyuri-heuristic`` bot (plays Nyuri like a sensible beginner) and search hints."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from math import comb
from typing import Any, final

from cardcore import SPECTATOR
from cardcore_nyuri.actions import (
    Decline,
    Lay,
    NyuriAction,
    Steal,
    Swap,
    TakeBack,
    _mask_value,
)
from cardcore_nyuri.options import NyuriOptions
from cardcore_nyuri.rules import Nyuri
from cardcore_nyuri.state import NyuriObservation, NyuriState, Phase
from cardcore_nyuri.steals import _VALUE_ABOVE, offer_masks

__all__ = ["NyuriHeuristic", "count_value"]

_KEEP_HIGH = 0.01
"""Cost per point of target value laid: high cards are worth keeping for stealing."""
_OFFER_GUESS = 1.5
"""About how many cards a thief adds to the target (its offer), for the lay estimate."""


@final
class NyuriHeuristic:
    """A beginner's rules of thumb for Nyuri; it sees only its observation.

    Rules of thumb:

    * **Laying**: lay what the others are least likely to steal, weighed by what a theft
      would hand them. The bot counts the cards it has not seen (in the stock or in other
      hands) and, for each possible lay, how many single cards, pairs and (above 10)
      triples of them would beat it; with a typical opponent's hand size that gives a
      rough chance of a theft. A guard makes the target harder to steal but gives the
      thief one more card, so it is used only when it lowers the risk enough. Between
      lays of about the same risk the lower cards go first: high cards steal well.
    * **Stealing**: always steal when a set beats every earlier offer (a tie goes to
      the earlier offer, so it must be strictly higher). When captured cards go to a
      pile (``capture=pile``) the offer counts too: use as many cards as possible, and
      of those the cheapest set, to keep high cards for later. When they go to the hand
      (``capture=hand``) the offer comes back, so offer the strongest set to fend off
      later players, avoiding three-card sets under the penalty rule.
    * **Nobody stole**: swap a low target (value 8 or less, or a guarded pair worth less
      than 16) for a fresh card when the stock allows; take back anything better.

    Args:
        game: the rules (its options tune the rules of thumb); ``None`` for the defaults.
        seed: accepted for the bot interface; the bot's play is deterministic.
    """

    name = "nyuri-heuristic"

    def __init__(self, game: Any = None, *, seed: int = 0) -> None:
        options = game.options if isinstance(game, Nyuri) else NyuriOptions()
        self._pile = options.capture == "pile"
        self._penalty = options.three_card_penalty
        self._any_suit = options.guarded_single == "any_suit"

    def act(self, observation: NyuriObservation) -> NyuriAction:
        """Choose one of ``observation.legal_actions``."""
        legal = observation.legal_actions
        if observation.phase is Phase.LAY:
            return self._lay(observation, legal)
        if observation.phase is Phase.OFFER:
            return self._offer(observation, legal)
        return self._return(observation, legal)

    # ---- laying ----------------------------------------------------------------------

    def _lay(self, obs: NyuriObservation, legal: Sequence[NyuriAction]) -> NyuriAction:
        # Cards that may be in another hand: all but this hand, the piles, the table and
        # the stock cards known (swapped under it).
        z = obs.zones
        out = obs.table.mask(z.stock) | obs.table.mask(z.hand(obs.seat))
        for s in range(obs.num_players):
            out |= obs.table.mask(z.pile(s))
        pool = [c for c in range(52) if not out >> c & 1]
        unseen = _DECK & ~out
        counts = [0] * 15
        for c in pool:
            counts[c % 13 + 2] += 1
        pairs, triples = _sum_counts(tuple(counts))
        u = len(pool)
        any_suit = self._any_suit
        others = [
            obs.table.size(obs.zones.hand(s))
            for s in range(obs.num_players)
            if s not in (obs.seat, SPECTATOR)
        ]
        h = round(sum(others) / len(others)) if others else 0

        def cost(a: NyuriAction) -> tuple[float, int]:
            assert isinstance(a, Lay)
            t = a.value
            suit = int(a.card.suit)
            single_bar = t if a.guard is not None else int(a.card.rank)
            # The unseen cards worth more than the bar, of the target's suit (of any
            # suit against a guard where the options allow it).
            beat = unseen & _VALUE_ABOVE[single_bar]
            if a.guard is None or not any_suit:
                beat &= _SUIT[suit]
            singles = beat.bit_count()
            p1 = singles / u if u else 0.0
            p2 = pairs[t + 1] / comb(u, 2) if u >= 2 else 0.0
            p3 = triples[t + 1] / comb(u, 3) if u >= 3 and t > 10 else 0.0
            k = h * p1 + comb(h, 2) * p2 + comb(h, 3) * p3
            lost = (2 if a.guard is not None else 1) + _OFFER_GUESS
            return (k / (1 + k) * lost + _KEEP_HIGH * t, t)

        return min(legal, key=cost)

    # ---- offering --------------------------------------------------------------------

    def _offer(self, obs: NyuriObservation, legal: Sequence[NyuriAction]) -> NyuriAction:
        best = max((sum(int(c.rank) for c in o) for o in obs.offers if o), default=0)
        target, guard = obs.target, obs.guard
        if target is None:
            return self._offer_among(legal, best)
        # The steals as card masks, in the legal order (up to thousands of them): only
        # the one chosen is built as an action.
        hand = obs.table.mask(obs.zones.hand(obs.seat))
        g = -1 if guard is None else guard.id
        value = _mask_value
        steals = [
            (m, v, m.bit_count())
            for m in offer_masks(hand, target.id, g, any_suit=self._any_suit)
            if (v := value(m)) > best
        ]
        if not steals:
            return next(a for a in legal if isinstance(a, Decline))
        if self._pile:
            pick = max(steals, key=lambda s: (s[2], -s[1]))
        else:
            if self._penalty:
                steals = [s for s in steals if s[2] < 3] or steals
            pick = max(steals, key=lambda s: (s[1], -s[2]))
        action = Steal.from_mask(pick[0])
        if action not in legal:  # legal actions not from these rules: weigh them instead
            return self._offer_among(legal, best)
        return action

    def _offer_among(self, legal: Sequence[NyuriAction], best: int) -> NyuriAction:
        """The offer the rules of thumb choose, read from the legal actions themselves."""
        steals = [a for a in legal if isinstance(a, Steal) and a.value > best]
        if not steals:
            return next(a for a in legal if isinstance(a, Decline))
        if self._pile:
            return max(steals, key=lambda a: (len(a.cards), -a.value))
        if self._penalty:
            steals = [a for a in steals if len(a.cards) < 3] or steals
        return max(steals, key=lambda a: (a.value, -len(a.cards)))

    # ---- nobody stole ----------------------------------------------------------------

    def _return(self, obs: NyuriObservation, legal: Sequence[NyuriAction]) -> NyuriAction:
        swap = next((a for a in legal if isinstance(a, Swap)), None)
        low = obs.target_value < 16 if obs.guard is not None else obs.target_value <= 8
        if swap is not None and low:
            return swap
        return next(a for a in legal if isinstance(a, TakeBack))


_DECK = (1 << 52) - 1
_SUIT = tuple(0x1FFF << (13 * s) for s in range(4))
"""Per suit (0 ♣, 1 ♦, 2 ♥, 3 ♠), its cards as a mask."""
_BITS = 24
"""Bits per coefficient of the polynomials :func:`_sum_counts` packs into one integer
(the largest, 52**3 before the division by 6, needs 18)."""


@functools.lru_cache(maxsize=4096)
def _sum_counts(counts: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """How many pairs and triples of cards make each total or more, from counts per value.

    With ``p_k`` the polynomial of the cards, each card ``x ** (k * value)``, the pairs
    of distinct cards are ``(p_1**2 - p_2) / 2`` and the triples ``(p_1**3 - 3 p_1 p_2 +
    2 p_3) / 6``, by total. Each polynomial is packed into one integer (a coefficient
    every :data:`_BITS` bits), so the products are a few integer multiplications rather
    than a loop over every pair and triple of values: the heuristic asks at every lay,
    in search play-outs too, and the loop was a third of a searched Nyuri decision.
    """
    bits = _BITS
    p1 = p2 = p3 = 0
    for v in range(2, 15):
        n = counts[v]
        if n:
            p1 |= n << (bits * v)
            p2 |= n << (bits * 2 * v)
            p3 |= n << (bits * 3 * v)
    sq = p1 * p1
    two = sq - p2
    three = sq * p1 - 3 * p1 * p2 + 2 * p3
    mask = (1 << bits) - 1
    pairs = [(two >> (bits * t) & mask) // 2 for t in range(30)]
    triples = [(three >> (bits * t) & mask) // 6 for t in range(44)]
    # Running totals from the top: entry t counts the sets worth t or more.
    for t in range(28, -1, -1):
        pairs[t] += pairs[t + 1]
    for t in range(42, -1, -1):
        triples[t] += triples[t + 1]
    return tuple(pairs), tuple(triples)


# ---- search hints ----

_MARGIN_WEIGHT = 0.25
"""How much of a search leaf's value is the card margin (the rest is the win share)."""


def count_value(game: Nyuri, state: NyuriState, seat: int) -> float:
    """A score-aware 0-to-1 value of a finished deal for search play-outs.

    Mostly the win share, plus a quarter for the margin over the best other count
    (as a share of the deck): winning by more, or losing by less, is worth more.
    """
    counts = game.counts(state)
    best_other = max(c for s, c in enumerate(counts) if s != seat)
    margin = 0.5 + 0.5 * (counts[seat] - best_other) / 52
    outcome = game.outcome(state)
    won = outcome.reward(seat) if outcome is not None else 0.5
    return (1 - _MARGIN_WEIGHT) * won + _MARGIN_WEIGHT * margin
