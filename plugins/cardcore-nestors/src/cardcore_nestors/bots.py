"""The Nestors heuristic bot (a sensible beginner) and the game's search hints."""

from __future__ import annotations

import random
from math import comb, erf, sqrt
from typing import Final, final

from cardcore import SPECTATOR, Card
from cardcore_nestors.actions import Bid, NestorsAction, Pass, Play, Take, Trump
from cardcore_nestors.cards import SUIT_MASK, card_points
from cardcore_nestors.rules import Nestors
from cardcore_nestors.state import DECK, HAND, ROW, TRICK, NestorsObservation, NestorsState, Phase
from cardcore_nestors.tricks import trick_winner, two_card_winner

__all__ = ["NestorsHeuristic", "hand_number", "match_value"]

_SPADE: Final = 3


def _ids(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


_C_BEATS: dict[tuple[int, int, int], int] = {}
"""Memo of :func:`_c_beats` (at most 36 x 36 x 3 entries)."""


def _c_beats(a: int, b: int, trump: int) -> int:
    """The cards with which C keeps B from winning the trick A, B (a mask of card ids)."""
    key = (a, b, trump)
    mask = _C_BEATS.get(key)
    if mask is None:
        mask = 0
        for c in _ids(DECK & ~(1 << a) & ~(1 << b)):
            if trick_winner(a, b, c, trump) != 1:
                mask |= 1 << c
        _C_BEATS[key] = mask
    return mask


@final
class NestorsHeuristic:
    """Plays Nestors like a sensible beginner, by a few rules of thumb.

    * Auction: count the cards of the best trump rank (A, J or 10) and the other A, J
      and 10 in the five cards; bid the lowest legal amount while it stays within an
      estimate of what the hand can take (about 95 plus 14 per trump-rank card and 4
      per other high card); never outbid the partner; as forced dealer, bid the minimum.
    * Trump: name the rank held most often (ties: the one with the most other high cards).
    * Trick 1: play a spade trump if possible (spades count for the bonus), and take the
      two row cards worth the most points.
    * Leading (A): lead the cheapest card (no points, not a trump), keeping spades.
    * Second (B): for each card, estimate the chance that the last player (C) cannot
      take the trick for the other side, from the cards still unseen; play the card with
      the best expected gain of the points on the table.
    * Third (C): C sees the whole trick, so it computes the winner of every legal card;
      win the trick as cheaply as possible when it is worth it, otherwise throw the
      cheapest card.
    * Carry card: leave the card worth least (no points, not a trump, not a spade).
    """

    name = "nestors-heuristic"

    def __init__(self, game: object = None, *, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def act(self, observation: NestorsObservation) -> NestorsAction:
        """Choose one of ``observation.legal_actions``."""
        o = observation
        legal = o.legal_actions
        if len(legal) == 1:
            return legal[0]
        if o.phase is Phase.AUCTION:
            return self._auction(o)
        if o.phase is Phase.TRUMP:
            return self._trump(o)
        if o.phase is Phase.LEAD:
            return min(legal, key=lambda a: (a.card.suit != _SPADE, self._rng.random()))  # type: ignore[union-attr]
        if o.phase is Phase.TAKE:
            return max(legal, key=lambda a: self._take_value(o, a))
        if o.phase is Phase.LEAVE:
            return min(legal, key=lambda a: self._cost(o, a.card.id))  # type: ignore[union-attr]
        return self._play(o)

    # ---- auction ----

    @staticmethod
    def _hand(o: NestorsObservation) -> int:
        return o.table.mask(HAND + o.seat) if o.seat != SPECTATOR else 0

    @staticmethod
    def _best_rank(hand: int) -> tuple[int, int, int]:
        """(count of the best trump rank, count of other A/J/10, rank)."""
        best = (0, 0, 0)
        for r in (14, 11, 10):
            n = sum(1 for c in _ids(hand) if c % 13 + 2 == r)
            others = sum(1 for c in _ids(hand) if c % 13 + 2 in (14, 11, 10)) - n
            if n and (n, others) > best[:2]:
                best = (n, others, r)
        return best

    def _auction(self, o: NestorsObservation) -> NestorsAction:
        bids = [a for a in o.legal_actions if isinstance(a, Bid)]
        if not bids:
            return Pass()
        forced = not any(isinstance(a, Pass) for a in o.legal_actions)
        if forced:
            return bids[0]
        if o.deal.bidder is not None and o.deal.bidder % 2 == o.seat % 2:
            return Pass()  # never outbid the partner
        n, others, _ = self._best_rank(self._hand(o))
        limit = 95 + 14 * n + 4 * others
        if bids[0].points <= limit:
            return bids[0]
        return Pass()

    def _trump(self, o: NestorsObservation) -> NestorsAction:
        _, _, rank = self._best_rank(self._hand(o))
        for a in o.legal_actions:
            if isinstance(a, Trump) and int(a.rank) == rank:
                return a
        return o.legal_actions[0]

    # ---- values ----

    def _cost(self, o: NestorsObservation, c: int) -> float:
        """How much giving up a card hurts: points, trumps and spades count."""
        v = float(card_points(c, o.deal.trump))
        if c % 13 + 2 == o.deal.trump:
            v += 6.0
        if c // 13 == _SPADE:
            v += 1.5
        return v + (c % 13) * 0.05

    @staticmethod
    def _take_value(o: NestorsObservation, a: NestorsAction) -> float:
        assert isinstance(a, Take)
        return sum(
            card_points(c, o.deal.trump) + (0.5 if c.suit == _SPADE else 0.0) for c in a.cards
        )

    # ---- trick play ----

    def _play(self, o: NestorsObservation) -> NestorsAction:
        legal = [a.card.id for a in o.legal_actions if isinstance(a, Play)]
        played = [c.id for c in o.table.cards(TRICK)]
        carry = [c.id for c in o.table.cards(ROW)]
        pot = sum(card_points(c, o.deal.trump) for c in played + carry) + 5
        if not played:  # A: lead cheap
            return self._card(min(legal, key=lambda c: (self._cost(o, c), self._rng.random())))
        if o.play.trick == 12:  # B in the last trick: one card each, nothing to choose
            a = played[0]
            return self._card(
                max(
                    legal,
                    key=lambda c: (two_card_winner(a, c, o.deal.trump) == 1, -self._cost(o, c)),
                )
            )
        if len(played) == 1:
            return self._card(self._second(o, legal, played[0], pot))
        a, b = played
        best: tuple[float, float] | None = None
        choice = legal[0]
        for c in legal:
            ours = trick_winner(a, b, c, o.deal.trump) != 1
            value = pot + card_points(c, o.deal.trump)
            score = (value if ours else -value, -self._cost(o, c))
            if best is None or score > best:
                best, choice = score, c
        return self._card(choice)

    def _second(self, o: NestorsObservation, legal: list[int], a: int, pot: int) -> int:
        """B: weigh each card by the chance C cannot take the trick back."""
        t = o.table
        seen = 0
        for z in range(len(t.known)):
            seen |= t.known[z]
        unseen = DECK & ~seen
        c_seat = (o.play.leader + 2) % 4
        for s in range(4):
            if (o.play.voids[c_seat] >> s) & 1:
                unseen &= ~SUIT_MASK[s]
        pool = unseen.bit_count()
        k = t.size(HAND + c_seat)
        best: tuple[float, float] | None = None
        choice = legal[0]
        for x in legal:
            beaters = (_c_beats(a, x, o.deal.trump) & unseen).bit_count()
            if pool >= k:
                p = comb(pool - beaters, k) / comb(pool, k) if pool else 1.0
            else:
                p = 0.0
            value = pot + card_points(x, o.deal.trump) + 2
            score = ((2 * p - 1) * value, -self._cost(o, x))
            if best is None or score > best:
                best, choice = score, x
        return choice

    @staticmethod
    def _card(c: int) -> NestorsAction:
        return Play(Card.of(c))


# ---- search hints ----

_HAND_SWING: Final = 150.0
"""About how far one hand moves the score lead (a made or failed contract)."""
_HAND_GAIN: Final = 95.0
"""About how much the leading partnership adds to its score in a hand."""


def hand_number(game: Nestors, state: NestorsState) -> int:
    """Which hand a state is in: search play-outs stop when the next hand is dealt."""
    return state.deal.number


def match_value(game: Nestors, state: NestorsState, seat: int) -> float:
    """A 0-to-1 estimate of the seat's partnership winning the match, from the scores.

    The lead is weighed against how much the next hands can still change it: about
    ``150`` points a hand, over the hands the leader needs to reach the threshold (at
    ``95`` a hand). So a hand's result counts for more near the end of the match, and a
    made contract is worth more than a failed one at every stage. A finished match is
    worth 1 or 0.
    """
    m = state.match
    team = seat % 2
    if state.phase is Phase.OVER:
        return 1.0 if team in m.winners else 0.0
    mine, theirs = m.scores[team], m.scores[1 - team]
    left = max(game.options.threshold - max(mine, theirs), 1)
    hands = max(1.0, left / _HAND_GAIN)
    z = (mine - theirs) / (_HAND_SWING * sqrt(hands))
    return 0.5 * (1.0 + erf(z / sqrt(2.0)))
