"""The ``nyuri-heuristic`` bot (plays Nyuri like a sensible beginner) and search hints.

The bot decides from a few card masks (its hand, the cards it has not seen, the
target), never by listing and weighing every legal action: with large hands (the
``pagat`` preset) there are hundreds of lays and thousands of steal sets, and the bot
plays every move of the search bots' play-outs. Its choices are those of the plain
rules of thumb (:meth:`NyuriHeuristic._lay_among` and :meth:`NyuriHeuristic._offer_among`
weigh every legal action; the tests hold the two to the same choices). For the play-outs,
:func:`heuristic_policy` makes the same choices from full states, without building an
observation.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from math import comb
from typing import Any, Final, final

import attrs

from cardcore import SPECTATOR
from cardcore_nyuri.actions import (
    _HIGHER_SAME_SUIT,
    _LAYS,
    _VALUE,
    Decline,
    Lay,
    NyuriAction,
    Steal,
    Swap,
    TakeBack,
)
from cardcore_nyuri.options import NyuriOptions
from cardcore_nyuri.rules import Nyuri
from cardcore_nyuri.state import NyuriObservation, NyuriState, Phase
from cardcore_nyuri.steals import _OF_VALUE, _VALUE_ABOVE, _mask_value, cheapest_set, highest_set

__all__ = [
    "PLAYOUT_HORIZON",
    "NyuriHeuristic",
    "count_value",
    "heuristic_policy",
    "playout_value",
]

_KEEP_HIGH = 0.01
"""Cost per point of target value laid: high cards are worth keeping for stealing."""
_OFFER_GUESS = 1.5
"""About how many cards a thief adds to the target (its offer), for the lay estimate."""

_DECK: Final = (1 << 52) - 1
_SUIT: Final[tuple[int, ...]] = tuple(0x1FFF << (13 * s) for s in range(4))
"""Per suit (0 ♣, 1 ♦, 2 ♥, 3 ♠), its cards as a mask."""
_DECLINE: Final = Decline()
_TAKE_BACK: Final = TakeBack()
_SWAP: Final = Swap()
_FOURTEEN_UP: Final = ~((1 << 14) - 1)
"""Target values 14 and more as bits: no single card beats them (NY-4.4a)."""
_LAY: Final = Phase.LAY
_OFFER: Final = Phase.OFFER
_OVER: Final = Phase.OVER


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

    Between equally good choices the bot takes the first in the order of the legal
    actions.

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
        if observation.phase is _LAY:
            return self._lay(observation, legal)
        if observation.phase is _OFFER:
            return self._offer(observation, legal)
        return self._return(observation, legal)

    # ---- laying ----------------------------------------------------------------------

    def _lay(self, obs: NyuriObservation, legal: Sequence[NyuriAction]) -> NyuriAction:
        hand, unseen, h = _lay_facts(obs)
        action = _LAYS[self.lay_index(hand, unseen, h)] if hand else None
        if action is None or action not in legal:  # legal actions not from these rules
            return self._lay_among(obs, legal)
        return action

    def lay_index(self, hand: int, unseen: int, h: int) -> int:
        """The lay the rules of thumb choose from a hand, as an index into the shared lays.

        Of every lay of ``hand`` in the rules' order (each card in card order,
        unguarded, then under each bodyguard), the first of least cost. The cost of a lay
        depends only on whether it is guarded, on its target value and (for the single
        cards that beat it) on its suit, so it is worked out once per such kind: a lay
        whose kind came earlier costs the same and cannot come first.

        Args:
            hand: the laying seat's hand, a card mask (not empty).
            unseen: the cards the seat has not seen (in the stock or in other hands).
            h: a typical other hand's size.

        Returns:
            ``53 * card + guard`` (``guard`` 52: unguarded), the lay's index in ``_LAYS``.
        """
        odds = _LayOdds(unseen, h, self._any_suit)
        any_suit = self._any_suit
        best_cost = 0.0
        best_t = 0
        best = -1
        # The guarded target values met so far: for each suit, those that single cards of
        # the suit may beat (13 or less, same suit), and for all suits the others.
        seen_any = 0
        seen_suit = [0, 0, 0, 0]
        m = hand
        while m:
            low = m & -m
            m ^= low
            c = low.bit_length() - 1
            suit = c // 13
            t = _VALUE[c]
            # A lay costs at least _KEEP_HIGH * t: one that cannot cost less than the
            # best so far is not worked out (a tie would go to the earlier lay).
            if best < 0 or _KEEP_HIGH * t < best_cost:
                cost = odds.cost(suit, t, guarded=False)
                if best < 0 or cost < best_cost or (cost == best_cost and t < best_t):
                    best, best_cost, best_t = 53 * c + 52, cost, t
            guards = (hand & _HIGHER_SAME_SUIT[c]) >> (13 * suit)
            if not guards:
                continue
            # The bodyguards as target values: bit t for the lay worth t (rank r: t + r + 2).
            sums = guards << (t + 2)
            if any_suit:
                new = sums & ~seen_any
                seen_any |= sums
            else:
                high = sums & _FOURTEEN_UP
                new = (high & ~seen_any) | (sums & ~high & ~seen_suit[suit])
                seen_any |= high
                seen_suit[suit] |= sums & ~high
            while new:
                tbit = new & -new
                new ^= tbit
                tg = tbit.bit_length() - 1
                if _KEEP_HIGH * tg >= best_cost:
                    break  # the rest are worth more still
                cost = odds.cost(suit, tg, guarded=True)
                if cost < best_cost or (cost == best_cost and tg < best_t):
                    best, best_cost, best_t = 53 * c + 13 * suit + tg - t - 2, cost, tg
        return best

    def _lay_among(self, obs: NyuriObservation, legal: Sequence[NyuriAction]) -> NyuriAction:
        """The lay the rules of thumb choose, read from the legal actions themselves."""
        _, unseen, h = _lay_facts(obs)
        odds = _LayOdds(unseen, h, self._any_suit)

        def cost(a: NyuriAction) -> tuple[float, int]:
            assert isinstance(a, Lay)
            guarded = a.guard is not None
            return (odds.cost(int(a.card.suit), a.value, guarded=guarded), a.value)

        return min(legal, key=cost)

    # ---- offering --------------------------------------------------------------------

    def _offer(self, obs: NyuriObservation, legal: Sequence[NyuriAction]) -> NyuriAction:
        z = obs.zones
        view = obs.table
        best = max(_mask_value(view.mask(z.offer(s))) for s in range(obs.num_players))
        tmask = view.mask(z.target)
        if not tmask:
            return self._offer_among(legal, best)
        hand = view.mask(z.hand(obs.seat)) if obs.seat != SPECTATOR else 0
        gmask = view.mask(z.guard)
        m = self.steal_mask(hand, tmask.bit_length() - 1, gmask.bit_length() - 1, best)
        action: NyuriAction = Steal.from_mask(m) if m else _DECLINE
        if action not in legal:  # legal actions not from these rules: weigh them instead
            return self._offer_among(legal, best)
        return action

    def steal_mask(self, hand: int, target: int, guard: int, best: int) -> int:
        """The steal the rules of thumb choose, as a card mask; 0 to decline.

        Built from the hand's values, not by listing the legal steals: the strongest set
        (``capture=hand``) is made of the highest cards, the cheapest of the most cards
        (``capture=pile``) is found over the values the hand holds. Between sets of the
        same size and value it is the first the rules list (NY-4.4 order: lower values,
        then lower card ids, first): within each value, the lowest card ids.

        Args:
            hand: the offering seat's hand, a card mask.
            target: the target's card id.
            guard: the bodyguard's card id, ``-1`` when unguarded.
            best: the highest offer value made so far this turn (0 if none).
        """
        if not hand:
            return 0
        tv = _VALUE[target]
        if guard >= 0:  # NY-4.4a: a single card worth more than both, of the suit
            tv += _VALUE[guard]
            suited = _DECK if self._any_suit else _HIGHER_SAME_SUIT[target]
            singles = hand & suited & _VALUE_ABOVE[tv]
        else:  # unguarded: same suit, higher rank
            singles = hand & _HIGHER_SAME_SUIT[target]
        singles &= _VALUE_ABOVE[best] if best < 28 else 0  # strictly above the best so far
        sets = hand & (hand - 1) != 0  # two cards or more (NY-4.4b, c)
        triples = sets and tv > 10 and hand.bit_count() >= 3  # NY-4.4c
        above = best if best > tv else tv
        if self._pile:  # the most cards, then the cheapest set
            if triples and (m := cheapest_set(hand, 3, above)):
                return m
            if sets and (m := cheapest_set(hand, 2, above)):
                return m
            for v in range(2, 15):  # the cheapest single, the first in card order
                if singles & _OF_VALUE[v]:
                    s = singles & _OF_VALUE[v]
                    return s & -s
            return 0
        # capture=hand: the strongest set, a single card before a set of the same value
        if triples and not self._penalty:
            m = highest_set(hand, 3)
            if _mask_value(m) > above:
                return m
        pick = 0
        pick_value = 0
        for v in range(14, 1, -1):  # the strongest single, the first in card order
            if singles & _OF_VALUE[v]:
                s = singles & _OF_VALUE[v]
                pick, pick_value = s & -s, v
                break
        if sets:
            m = highest_set(hand, 2)
            if _mask_value(m) > max(above, pick_value):
                pick = m
        if pick or not (triples and self._penalty):
            return pick
        # Under the penalty rule (NY-4.5) three cards only when nothing smaller steals.
        m = highest_set(hand, 3)
        return m if _mask_value(m) > above else 0

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


def _lay_facts(obs: NyuriObservation) -> tuple[int, int, int]:
    """The layer's hand, the cards it has not seen, and a typical other hand's size."""
    # Cards that may be in another hand: all but this hand, the piles, the table and
    # the stock cards known (swapped under it).
    z = obs.zones
    view = obs.table
    hand = view.mask(z.hand(obs.seat)) if obs.seat != SPECTATOR else 0
    out = view.mask(z.stock) | hand
    for s in range(obs.num_players):
        out |= view.mask(z.pile(s))
    others = [
        view.size(z.hand(s)) for s in range(obs.num_players) if s not in (obs.seat, SPECTATOR)
    ]
    h = round(sum(others) / len(others)) if others else 0
    return hand, _DECK & ~out, h


@final
class _LayOdds:
    """How likely the others are to steal a lay, from the cards the layer has not seen.

    Args:
        unseen: the cards that may be in other hands.
        h: a typical other hand's size.
        any_suit: whether any single card worth more may steal a guarded target.
    """

    def __init__(self, unseen: int, h: int, any_suit: bool) -> None:
        self.unseen = unseen
        self.u = unseen.bit_count()
        self.h = h
        self.any_suit = any_suit
        self.pairs, self.triples = _prefix_counts(unseen)
        self.parts: list[tuple[float, float] | None] = [None] * 28
        u = self.u
        self.d2 = comb(u, 2)
        self.d3 = comb(u, 3)
        self.c2 = comb(h, 2)
        self.c3 = comb(h, 3)

    def cost(self, suit: int, t: int, *, guarded: bool) -> float:
        """The cost of laying a target worth ``t`` of ``suit``, guarded or not.

        The chance-weighted cards a theft hands the others, plus a little per point laid.
        """
        u = self.u
        # The unseen cards worth more than the bar, of the target's suit (of any suit
        # against a guard where the options allow it); unguarded, the bar is the rank.
        beat = self.unseen & _VALUE_ABOVE[t]
        if not guarded or not self.any_suit:
            beat &= _SUIT[suit]
        p1 = beat.bit_count() / u if u else 0.0
        part = self.parts[t]
        if part is None:
            part = self.parts[t] = self._sets_part(t)
        k = self.h * p1 + part[0] + part[1]
        lost = (2 if guarded else 1) + _OFFER_GUESS
        return k / (1 + k) * lost + _KEEP_HIGH * t

    def _sets_part(self, t: int) -> tuple[float, float]:
        """What the pairs and the triples worth more than ``t`` add to the expected thefts."""
        u = self.u
        # Pairs (triples) worth more than t: all of them, less those worth t or less.
        shift = _BITS * t
        if u >= 2:
            d2 = self.d2
            p2 = (d2 - (self.pairs >> shift & _LANE) // 2) / d2
        else:
            p2 = 0.0
        if u >= 3 and t > 10:
            d3 = self.d3
            p3 = (d3 - (self.triples >> shift & _LANE) // 6) / d3
        else:
            p3 = 0.0
        return self.c2 * p2, self.c3 * p3


# ---- the lay odds: pairs and triples of the unseen cards per total ---------------------

_BITS = 24
"""Bits per coefficient of the polynomials :func:`_sum_counts` and :func:`_prefix_counts`
pack into one integer (the largest, 52**3 before the division by 6, needs 18)."""
_LANE: Final = (1 << _BITS) - 1
_RUNNING: Final = sum(1 << (_BITS * t) for t in range(44))
"""The polynomial ``1 + x + ... + x**43``: a product with it is the running totals."""


def _spread(pattern: int, step: int) -> int:
    """The packed polynomial of one suit's cards: ``x ** (step * value)`` per card."""
    return sum(1 << (_BITS * step * (r + 2)) for r in range(13) if pattern >> r & 1)


@functools.cache
def _suit_powers(pattern: int) -> tuple[int, int, int]:
    """One suit's part of the power sums ``p_1``, ``p_2``, ``p_3`` (13-bit rank pattern)."""
    return _spread(pattern, 1), _spread(pattern, 2), _spread(pattern, 3)


def _prefix_counts(cards: int) -> tuple[int, int]:
    """Running totals of the pairs and triples of ``cards`` by value sum, packed.

    Coefficient ``t`` of the first (every :data:`_BITS` bits) is twice the number of
    pairs worth ``t`` or less; of the second, six times the number of triples. The
    polynomials are those of :func:`_sum_counts`, summed from the bottom by one more
    product, so that a lay reads its count with a shift.
    """
    p1 = p2 = p3 = 0
    for s in range(4):
        a, b, c = _suit_powers(cards >> (13 * s) & 0x1FFF)
        p1 += a
        p2 += b
        p3 += c
    sq = p1 * p1
    two = sq - p2
    three = sq * p1 - 3 * p1 * p2 + 2 * p3
    return two * _RUNNING, three * _RUNNING


@functools.lru_cache(maxsize=4096)
def _sum_counts(counts: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """How many pairs and triples of cards make each total or more, from counts per value.

    With ``p_k`` the polynomial of the cards, each card ``x ** (k * value)``, the pairs
    of distinct cards are ``(p_1**2 - p_2) / 2`` and the triples ``(p_1**3 - 3 p_1 p_2 +
    2 p_3) / 6``, by total. Each polynomial is packed into one integer (a coefficient
    every :data:`_BITS` bits), so the products are a few integer multiplications rather
    than a loop over every pair and triple of values.
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


def heuristic_policy(game: Nyuri, seed: int) -> Callable[[NyuriState], NyuriAction]:
    """The heuristic as a play-out policy on full states, for one seat's moves.

    It chooses exactly as ``NyuriHeuristic(game, seed=seed)`` does from the mover's
    observation, but reads the few masks it needs from the state, so no observation
    (and no list of legal actions) is built. Search bots play their determinised
    samples out with it. For a game that is not exactly :class:`Nyuri` (a subclass may
    change what is legal) it asks the bot with the observation.
    """
    bot = NyuriHeuristic(game, seed=seed)
    if type(game) is not Nyuri:
        observe = game.observe

        def by_observation(state: NyuriState) -> NyuriAction:
            assert state.current is not None
            return bot.act(observe(state, state.current))

        return by_observation
    return _StatePolicy(bot)


@final
class _StatePolicy:
    """:func:`heuristic_policy` for the plain rules: the bot's choice from the state."""

    def __init__(self, bot: NyuriHeuristic) -> None:
        self.bot = bot

    def __call__(self, state: NyuriState) -> NyuriAction:
        seat = state.current
        assert seat is not None
        layout, masks, _, known = state.table
        n = layout.num_seats
        phase = state.phase
        if phase is _OFFER:
            oz = 3 + 2 * n
            best = 0
            for m in masks[oz : oz + n]:
                if m:
                    v = _mask_value(m)
                    best = max(best, v)
            target = masks[1 + 2 * n].bit_length() - 1
            guard = masks[2 + 2 * n].bit_length() - 1
            steal = self.bot.steal_mask(masks[1 + seat], target, guard, best)
            return Steal.from_mask(steal) if steal else _DECLINE
        if phase is _LAY:
            hand = masks[1 + seat]
            out = masks[0] | hand
            total = 0
            for s in range(n):
                out |= masks[1 + n + s]
                if s != seat:
                    total += masks[1 + s].bit_count()
            # What the seat's view shows: the cards it knows of those zones.
            out &= known[seat]
            h = round(total / (n - 1))
            return _LAYS[self.bot.lay_index(hand & known[seat], _DECK & ~out, h)]
        # Nobody stole (NY-4.7): swap a low target when the stock allows.
        tmask = masks[1 + 2 * n]
        gmask = masks[2 + 2 * n]
        value = _VALUE[tmask.bit_length() - 1]
        if gmask:
            low = value + _VALUE[gmask.bit_length() - 1] < 16
        else:
            low = value <= 8
        return _SWAP if masks[0] and low else _TAKE_BACK


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
    if type(game) is Nyuri:  # its outcome's reward, without building the outcome
        won = 0.5
        if state.phase is _OVER:  # NY-6: the highest counts share the win
            top = max(counts)
            won = 1 / counts.count(top) if counts[seat] == top else 0.0
    else:
        outcome = game.outcome(state)
        won = outcome.reward(seat) if outcome is not None else 0.5
    return (1 - _MARGIN_WEIGHT) * won + _MARGIN_WEIGHT * margin


# ---- play-outs to the end, over the circles of hand capture ----

PLAYOUT_HORIZON: Final = 9
"""The play-out decisions a search makes before :func:`playout_value` plays on (the hints'
horizon): 2N + 1 or more, so every seat has moved and made its policy by then, as before."""


def playout_value(game: Nyuri, state: NyuriState, seat: int) -> float:
    """:func:`count_value` where the heuristic's play from ``state`` ends.

    A play-out to the end's score, for play-outs cut at the hints' horizon. With
    ``capture=hand`` and two players a theft draws nobody a card, and the heuristic's
    play goes round the same positions to the turn limit: :func:`_play_on` skips rounds.
    """
    return count_value(game, _played_out(game, state), seat)


_LAST: Final[list[Any]] = [None, None, None, None]
"""The last game, its policy, state played out and end (asked once per seat on a path)."""


def _played_out(game: Nyuri, state: NyuriState) -> NyuriState:
    """Where the heuristic's play from ``state`` ends (``state`` itself once over)."""
    last = _LAST
    if last[2] is not state or last[0] is not game:
        if last[0] is not game:
            last[0], last[1] = game, heuristic_policy(game, 0)  # the bot ignores its seed
        last[2], last[3] = state, _play_on(game, last[1], state)
    return last[3]  # type: ignore[no-any-return]


def _play_on(
    game: Nyuri, policy: Callable[[NyuriState], NyuriAction], state: NyuriState
) -> NyuriState:
    """Play ``state`` to the end with ``policy``, skipping the rounds of a circle.

    With ``capture=hand`` the positions at the start of a turn are remembered (with
    ``capture=pile`` every turn fills a pile, draws or counts a dead turn: none comes
    back). The policy and the rules read the table, the random state, the seats and the
    dead turns, and the turn number only for the turn limit: once a position comes back,
    the same turns go round until the limit. Whole rounds are skipped, as near the limit
    as they go; only the turn's number and the latest turn's move on. A subclass's rules
    may differ: its play is played out move by move.
    """
    apply, limit, current = game.apply, game.options.turn_limit, game.current_player
    plain = type(game) is Nyuri and game.options.capture == "hand"
    seen: dict[Any, int] | None = {} if plain else None
    while current(state) is not None:
        if seen is not None and state.phase is _LAY:
            t = state.table
            key = (t.masks, t.orders, t.known, state.layer, state.rng, state.dead_turns)
            first = seen.setdefault(key, state.turn)
            if first != state.turn:
                period = state.turn - first
                skip = (limit - state.turn) // period * period
                if skip and state.last is not None:
                    last = attrs.evolve(state.last, turn=state.last.turn + skip)
                    state = attrs.evolve(state, turn=state.turn + skip, last=last)
                seen = None
        state = apply(state, policy(state))
    return state
