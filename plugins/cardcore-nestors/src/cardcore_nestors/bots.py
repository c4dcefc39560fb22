"""The Nestors heuristic bot (a sensible beginner) and the game's search hints."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from math import comb, erf, sqrt
from typing import Final, Protocol, cast, final

from cardcore import SPECTATOR, IllegalActionError
from cardcore_nestors.actions import TRUMP_RANKS, Bid, Leave, NestorsAction, Pass, Play, Take, Trump
from cardcore_nestors.cards import HIGH, RANK_MASK, SUIT_MASK, card_points, mask_points, points_of
from cardcore_nestors.options import NestorsOptions
from cardcore_nestors.rules import Nestors
from cardcore_nestors.state import (
    DECK,
    DECK_IDS,
    HAND,
    PH_AUCTION,
    PH_LEAD,
    PH_LEAVE,
    PH_PLAY,
    PH_TAKE,
    PH_TRUMP,
    ROW,
    TRICK,
    DealInfo,
    NestorsObservation,
    NestorsState,
    Phase,
    PlayInfo,
)
from cardcore_nestors.tricks import c_may_play, leave_carry, play_card, two_card_winner

__all__ = ["NestorsHeuristic", "hand_apply", "hand_number", "heuristic_policy", "match_value"]

_SPADE: Final = 3
_SPADES: Final = SUIT_MASK[_SPADE]
_INF: Final = float("inf")


_BELOW: Final = tuple(sum(1 << c for c in DECK_IDS if c % 13 < r) for r in range(13))
"""Per rank index (``id % 13``), the deck's cards of lower ranks, in every suit."""


def _c_beats(a: int, b: int, trump: int) -> int:
    """The cards with which C keeps B from winning the trick A, B (a mask of card ids).

    Worked out suit by suit from the trick rules (NS-4.14, as in
    :func:`~cardcore_nestors.tricks.trick_winner`): B wins the trick with C's card
    ``c`` exactly when ``c`` is in the mask ``b_wins`` below.
    """
    sa, sb = a // 13, b // 13
    trumps = RANK_MASK[trump]
    ta, tb = a % 13 + 2 == trump, b % 13 + 2 == trump
    # C "matches" (W1, W2) by following a suit both played, or by a third suit.
    match = SUIT_MASK[sa] if sa == sb else DECK & ~SUIT_MASK[sa] & ~SUIT_MASK[sb]
    rest = DECK & ~match
    if tb:  # B's trump wins unless C plays a trump after it where that decides
        b_wins = match & ~trumps
        b_wins |= rest & ~(trumps & ~SUIT_MASK[sa] & ~SUIT_MASK[sb])
    elif ta:  # A's trump beats B whatever C plays
        b_wins = 0
    else:
        rb = b % 13
        b_wins = match & ~trumps & _BELOW[rb] if rb >= a % 13 else 0
        if two_card_winner(a, b, trump) == 1:  # W3c: A and B alone decide
            b_wins |= rest & ~trumps
    return DECK & ~(1 << a) & ~(1 << b) & ~b_wins


_C_BEATS: dict[tuple[int, int], tuple[int, ...]] = {}
"""Memo of :func:`_c_beats_by_b` (at most 36 x 3 rows)."""


def _c_beats_by_b(a: int, trump: int) -> tuple[int, ...]:
    """Per card id of B, :func:`_c_beats` of A's card ``a`` and it (0 where B cannot hold it)."""
    key = (a, trump)
    row = _C_BEATS.get(key)
    if row is None:
        row = _C_BEATS[key] = tuple(
            _c_beats(a, b, trump) if (DECK >> b) & 1 and b != a else 0 for b in range(52)
        )
    return row


_RANKS_LOW: Final = min(c % 13 for c in DECK_IDS)
"""The rank index of the deck's lowest rank (the 6)."""
_SUIT_IDS: Final = tuple(
    tuple(tuple(13 * s + _RANKS_LOW + k for k in range(9) if (p >> k) & 1) for p in range(1 << 9))
    for s in range(4)
)
"""Per suit and pattern of the suit's 9 ranks (bit 0: the 6), the card ids it holds."""


def _ids(mask: int) -> tuple[int, ...]:
    """The card ids of ``mask`` (deck cards), in id order."""
    clubs, diamonds, hearts, spades = _SUIT_IDS
    return (
        clubs[(mask >> _RANKS_LOW) & 511]
        + diamonds[(mask >> (13 + _RANKS_LOW)) & 511]
        + hearts[(mask >> (26 + _RANKS_LOW)) & 511]
        + spades[(mask >> (39 + _RANKS_LOW)) & 511]
    )


_VOID_CARDS: Final = tuple(sum(SUIT_MASK[s] for s in range(4) if (v >> s) & 1) for v in range(16))
"""Per mask of suits (bit = suit), the cards of those suits."""

_HOLD_ODDS: dict[tuple[int, int], tuple[float, ...]] = {}
"""Memo of :func:`_hold_odds`."""


def _hold_odds(pool: int, k: int) -> tuple[float, ...]:
    """Per number ``b`` of beaters among ``pool`` cards, the chance ``k`` drawn miss them all."""
    key = (pool, k)
    odds = _HOLD_ODDS.get(key)
    if odds is None:
        if pool >= k:
            odds = tuple(
                comb(pool - b, k) / comb(pool, k) if pool else 1.0 for b in range(pool + 1)
            )
        else:
            odds = (0.0,) * (pool + 1)
        _HOLD_ODDS[key] = odds
    return odds


def _cost_table(trump: int) -> tuple[float, ...]:
    """Per card id, how much giving the card up hurts: points, trumps and spades count."""
    out = []
    for c in range(52):
        v = float(card_points(c, trump))
        if c % 13 + 2 == trump:
            v += 6.0
        if c // 13 == _SPADE:
            v += 1.5
        out.append(v + (c % 13) * 0.05)
    return tuple(out)


_COST: Final = {r: _cost_table(r) for r in TRUMP_RANKS}
"""Per trump rank, :func:`_cost_table`."""
_POINTS: Final = {r: points_of(r) for r in TRUMP_RANKS}
"""Per trump rank, the points of each card id."""
_TAKE_VALUE: Final = {
    r: tuple(points_of(r)[c] + (0.5 if c // 13 == _SPADE else 0.0) for c in range(52))
    for r in TRUMP_RANKS
}
"""Per trump rank and card id, what taking the card from the row is worth."""


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

    The bot reads only a few facts of the observation (its hand, the trick, the row,
    which cards it has seen), so the same rules also play straight from a state:
    :func:`heuristic_policy` makes the very same choices without an observation.
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
        t = o.table
        known = t.known
        if o.phase is PH_PLAY and len(t.orders[TRICK]) == 1:
            seen = 0
            for m in known:
                seen |= m
            c_cards = t.sizes[HAND + (o.play.leader + 2) % 4]
        else:
            seen = c_cards = 0
        hand = known[HAND + o.seat] if o.seat != SPECTATOR else 0
        return self.decide(
            o.seat, o.phase, legal, o.deal, o.play, hand, known[ROW], t.orders[TRICK], seen, c_cards
        )

    def decide(
        self,
        seat: int,
        phase: Phase,
        legal: Sequence[NestorsAction],
        deal: DealInfo,
        play: PlayInfo,
        hand: int,
        row: int,
        trick: Sequence[int],
        seen: int,
        c_cards: int,
    ) -> NestorsAction:
        """Choose one of ``legal`` (two or more) from the facts the rules of thumb read.

        Args:
            seat: the seat to move.
            phase: the phase.
            legal: the legal actions, in the rules' order.
            deal: the deal's public facts.
            play: the trick play's public facts.
            hand: the seat's cards (a mask).
            row: the face-up row or carry card (a mask).
            trick: the cards played to the current trick, in order.
            seen: every card the seat knows the place of (a mask); read by B only.
            c_cards: how many cards C (the leader's partner) holds; read by B only.
        """
        if phase is PH_PLAY:
            mask = 0
            for p in cast("Sequence[Play]", legal):
                mask |= p.mask
            return self._play(_ids(mask), deal.trump, play, row, trick, seen, c_cards)
        if phase is PH_LEAVE:
            cost = _COST[deal.trump]
            choice, low = legal[0], _INF  # the first of the cheapest
            for a in cast("Sequence[Leave]", legal):
                v = cost[a.mask.bit_length() - 1]
                if v < low:
                    choice, low = a, v
            return choice
        if phase is PH_AUCTION:
            return self._auction(seat, legal, deal, hand)
        if phase is PH_TRUMP:
            return self._trump(legal, hand)
        if phase is PH_LEAD:
            rnd = self._rng.random
            plays = cast("Sequence[Play]", legal)
            return min(plays, key=lambda a: (not a.mask & _SPADES, rnd()))
        assert phase is PH_TAKE
        value = _TAKE_VALUE[deal.trump]
        takes = cast("Sequence[Take]", legal)
        return max(takes, key=lambda a: sum([value[c.id] for c in a.cards]))

    # ---- auction ----

    @staticmethod
    def _best_rank(hand: int) -> tuple[int, int, int]:
        """(count of the best trump rank, count of other A/J/10, rank)."""
        best = (0, 0, 0)
        high = (hand & HIGH).bit_count()
        for r in (14, 11, 10):
            n = (hand & RANK_MASK[r]).bit_count()
            others = high - n
            if n and (n, others) > best[:2]:
                best = (n, others, r)
        return best

    def _auction(
        self, seat: int, legal: Sequence[NestorsAction], deal: DealInfo, hand: int
    ) -> NestorsAction:
        bids = [a for a in legal if isinstance(a, Bid)]
        if not bids:
            return Pass()
        forced = not any(isinstance(a, Pass) for a in legal)
        if forced:
            return bids[0]
        if deal.bidder is not None and deal.bidder % 2 == seat % 2:
            return Pass()  # never outbid the partner
        n, others, _ = self._best_rank(hand)
        limit = 95 + 14 * n + 4 * others
        if bids[0].points <= limit:
            return bids[0]
        return Pass()

    def _trump(self, legal: Sequence[NestorsAction], hand: int) -> NestorsAction:
        _, _, rank = self._best_rank(hand)
        for a in legal:
            if isinstance(a, Trump) and int(a.rank) == rank:
                return a
        return legal[0]

    # ---- trick play ----

    def _play(
        self,
        legal: Sequence[int],
        trump: int,
        play: PlayInfo,
        row: int,
        played: Sequence[int],
        seen: int,
        c_cards: int,
    ) -> NestorsAction:
        """A card to play, of the ``legal`` card ids (two or more, in id order)."""
        cost = _COST[trump]
        if not played:  # A: lead cheap (the cheapest card; a random one of equals)
            rnd = self._rng.random
            choice, low, low_r = legal[0], _INF, _INF
            for c in legal:
                v, r = cost[c], rnd()
                if v < low or (v == low and r < low_r):
                    choice, low, low_r = c, v, r
            return _PLAY[choice]
        pts = _POINTS[trump]
        if play.trick == 12:  # B in the last trick: one card each, nothing to choose
            a = played[0]
            return _PLAY[max(legal, key=lambda c: (two_card_winner(a, c, trump) == 1, -cost[c]))]
        # The points on the table: the carry card and the trick so far.
        if row and not row & (row - 1):  # one carry card, as from trick 2 on
            pot = pts[row.bit_length() - 1] + 5
        else:
            pot = mask_points(row, pts) + 5
        for c in played:
            pot += pts[c]
        if len(played) == 1:
            return _PLAY[self._second(legal, played[0], pot, trump, play, seen, c_cards)]
        a, b = played
        # The cards that keep the trick from B.
        ours_with = (_C_BEATS.get((a, trump)) or _c_beats_by_b(a, trump))[b]
        # C: the most won (or least lost), then the cheapest card.
        choice, best, best_cost = legal[0], -_INF, -_INF
        for c in legal:
            value = pot + pts[c]
            score = value if (ours_with >> c) & 1 else -value
            if score > best or (score == best and -cost[c] > best_cost):
                choice, best, best_cost = c, float(score), float(-cost[c])
        return _PLAY[choice]

    @staticmethod
    def _second(
        legal: Sequence[int], a: int, pot: int, trump: int, play: PlayInfo, seen: int, k: int
    ) -> int:
        """B: weigh each card by the chance C cannot take the trick back."""
        unseen = DECK & ~seen & ~_VOID_CARDS[play.voids[(play.leader + 2) % 4]]
        pool = unseen.bit_count()
        odds = _HOLD_ODDS.get((pool, k)) or _hold_odds(pool, k)
        beats = _C_BEATS.get((a, trump)) or _c_beats_by_b(a, trump)
        cost, pts = _COST[trump], _POINTS[trump]
        # The best expected gain, then the cheapest card.
        choice, best, best_cost = legal[0], -_INF, -_INF
        for x in legal:
            p = odds[(beats[x] & unseen).bit_count()]
            score = (2 * p - 1) * (pot + pts[x] + 2)
            if score > best or (score == best and -cost[x] > best_cost):
                choice, best, best_cost = x, score, -cost[x]
        return choice


_PLAY: Final = tuple(Play.of(c) for c in range(52))
"""The play of each card id."""


def heuristic_policy(game: Nestors, seed: int) -> Callable[[NestorsState], NestorsAction]:
    """The heuristic as a play-out policy on full states, for one seat's moves.

    It chooses exactly as ``NestorsHeuristic(game, seed=seed)`` does from the mover's
    observation, but reads the facts it needs from the state, so no observation is built.
    Search bots play their determinised samples out with it.
    """
    bot = NestorsHeuristic(game, seed=seed)
    legal_actions, decide, play_card = game.legal_actions, bot.decide, bot._play

    def act(state: NestorsState) -> NestorsAction:
        seat = state.current
        assert seat is not None
        _, masks, orders, known_by = state.table
        trick = orders[TRICK]
        if state.phase is PH_PLAY:  # most moves: straight to the trick play, by card masks
            play = state.play
            hand = masks[HAND + seat]
            n = len(trick)
            trump = state.deal.trump
            if n == 2 and play.trick < 12:  # what the rules allow C (the legal actions)
                hand = c_may_play(hand, trick[0], trick[1], trump)
            if not hand & (hand - 1):
                return _PLAY[hand.bit_length() - 1]
            if n == 1:
                c_cards = masks[HAND + (play.leader + 2) % 4].bit_count()
                seen = known_by[seat] & DECK
            else:
                seen = c_cards = 0
            return play_card(_ids(hand), trump, play, masks[ROW], trick, seen, c_cards)
        legal = legal_actions(state)
        if len(legal) == 1:
            return legal[0]
        return decide(
            seat,
            state.phase,
            legal,
            state.deal,
            state.play,
            masks[HAND + seat],
            masks[ROW],
            trick,
            0,
            0,
        )

    return act


# ---- search hints ----

_HAND_SWING: Final = 150.0
"""About how far one hand moves the score lead (a made or failed contract)."""
_HAND_GAIN: Final = 95.0
"""About how much the leading partnership adds to its score in a hand."""


def hand_number(game: Nestors, state: NestorsState) -> int:
    """Which hand a state is in: search play-outs stop when the next hand is dealt."""
    return state.deal.number


class _Applies(Protocol):
    """What :func:`hand_apply` reads of a game: Nestors, a subclass, or a wrapper."""

    options: NestorsOptions

    def apply(self, state: NestorsState, action: NestorsAction) -> NestorsState:
        """Play ``action``."""
        ...


def hand_apply(game: _Applies) -> Callable[[NestorsState, NestorsAction], NestorsState]:
    """``game.apply`` for search play-outs, which stop when the hand is over.

    The plugin's ``SearchHints.segment_apply``. The last card of a hand scores it as
    ``apply`` does, but the next hand is not shuffled and dealt: nothing reads it before
    the play-out stops (see :func:`~cardcore_nestors.deal.after_deal`). Card plays and
    carry cards, most of a play-out, go straight to their moves.

    A game whose ``apply`` is not Nestors' own (a wrapper that counts or times moves, a
    subclass) gets its own ``game.apply`` back, so that every move still goes through it.
    ``game`` need not be a Nestors at all, only have its ``options`` and ``apply``.
    """
    apply = game.apply
    if getattr(type(game), "apply", None) is not Nestors.apply:
        return apply
    options = game.options

    def step(state: NestorsState, action: NestorsAction) -> NestorsState:
        phase, kind = state.phase, type(action)
        try:
            if phase is PH_PLAY and kind is Play:
                return play_card(options, state, action, False)  # type: ignore[arg-type]
            if phase is PH_LEAVE and kind is Leave:
                return leave_carry(options, state, action)  # type: ignore[arg-type]
        except IllegalActionError:
            pass  # apply raises it again, with the legal actions
        return apply(state, action)

    return step


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
