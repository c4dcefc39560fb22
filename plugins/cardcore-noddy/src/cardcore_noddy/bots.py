"""The ``noddy-heuristic`` bot (plays Noddy like a sensible beginner) and search hints."""

from __future__ import annotations

import random
from math import erf, sqrt
from typing import Any, Final, final

from cardcore_noddy.actions import Play, ShowKnave
from cardcore_noddy.options import NoddyOptions
from cardcore_noddy.rules import Noddy
from cardcore_noddy.scoring import PIP, ScoringRules, play_ids
from cardcore_noddy.state import HANDS, NoddyObservation, NoddyState

__all__ = ["NoddyHeuristic", "hand_number", "race_value"]

PIP_BONUS = 0.2
"""Points a pip of the card played is worth to the bot (high cards first)."""


@final
class NoddyHeuristic:
    """A beginner's rules of thumb for Noddy.

    1. Step 2: always show the knave noddy when holding it (a free point, and it comes
       before both shows).
    2. A card that wins the game now is played at once.
    3. Otherwise each playable card is weighed by the points it scores now (15, 25, 31,
       pairs, sequences, flushes) minus what the opponent can expect to score in reply:
       every card it has not seen is a possible reply, weighted by the chance the opponent
       holds it, and a card the opponent is known to hold (a shown knave) counts in full.
       Near the end of the game the reply counts twice as much.
    4. An opponent that has gone (or has no cards left) cannot reply: then the bot plays
       out its own cards in the order that scores most, the last-card point included.
    5. High cards go first (a small bonus per pip): low cards are kept to squeeze in near
       31 and take the last-card point.
    """

    name = "noddy-heuristic"

    def __init__(self, game: object = None, *, seed: int = 0) -> None:
        self._rng = random.Random(seed)
        self._rules: dict[NoddyOptions, ScoringRules] = {}

    def _rules_for(self, options: NoddyOptions) -> ScoringRules:
        rules = self._rules.get(options)
        if rules is None:
            rules = ScoringRules(
                twentyfive=options.twentyfive,
                run_values=ScoringRules.run_table(options.run_values),
                ace_bonus=options.ace_bonus,
                knave_in_count=options.knave_noddy == "in_count",
            )
            self._rules[options] = rules
        return rules

    def act(self, observation: NoddyObservation) -> Any:
        """Choose one of ``observation.legal_actions``."""
        o = observation
        legal = o.legal_actions
        if len(legal) == 1:
            return legal[0]
        for a in legal:
            if isinstance(a, ShowKnave):
                return a
        rules = self._rules_for(o.options)
        me = o.seat
        opp = 1 - me
        target = o.options.target
        pile = [c.id for c in o.pile]
        mine_mask = o.table.mask(HANDS[me])
        opp_known = [c.id for c in o.table.cards(HANDS[opp])]
        opp_unknown = o.table.size(HANDS[opp]) - len(opp_known)
        seen = mine_mask
        for z in range(len(o.table.known)):
            seen |= o.table.known[z]
        unseen = [c for c in range(52) if not (seen >> c) & 1]
        chance = opp_unknown / len(unseen) if unseen else 0.0
        weight = 2.0 if o.scores[opp] + 4 >= target else 1.0
        if o.gone[opp] or o.table.size(HANDS[opp]) == 0:
            # Nobody can reply: play the cards out in the order that scores most.
            mine = [c.id for c in o.my_hand]
            last_at_31 = o.options.last_card_at_31
            most = -1
            pick: Any = legal[0]
            for a in legal:
                assert isinstance(a, Play)
                got = _solo(pile, o.total, a.card.id, mine, rules, last_at_31)
                if got > most:
                    most, pick = got, a
            return pick
        best: float | None = None
        choice: Any = legal[0]
        for a in legal:
            assert isinstance(a, Play)
            c = a.card.id
            total = o.total + PIP[c]
            after = [*pile, c]
            now = play_ids(after, total, rules).total
            if o.scores[me] + now >= target:
                return a
            room = 31 - total
            known = [
                play_ids([*after, x], total + PIP[x], rules).total
                for x in opp_known
                if PIP[x] <= room
            ]
            expected = chance * sum(
                play_ids([*after, x], total + PIP[x], rules).total for x in unseen if PIP[x] <= room
            )
            danger = max([expected, *known])
            value = now - weight * danger + PIP_BONUS * PIP[c] + 0.001 * self._rng.random()
            if best is None or value > best:
                best = value
                choice = a
        return choice


def _solo(
    pile: list[int], total: int, card: int, hand: list[int], rules: ScoringRules, last_at_31: bool
) -> int:
    """The most a player can score playing ``card`` and then its other cards alone."""
    total += PIP[card]
    pile = [*pile, card]
    points = play_ids(pile, total, rules).total
    rest = [c for c in hand if c != card and total + PIP[c] <= 31]
    if not rest:
        return points + (1 if total < 31 or last_at_31 else 0)
    return points + max(_solo(pile, total, c, rest, rules, last_at_31) for c in rest)


# ---- search hints ----

_HAND_POINTS: Final = 5.2
"""About what a player scores in one hand (heuristic play, default rules)."""
_HAND_SPREAD: Final = 4.5
"""About how far one hand moves the difference of the scores."""


def hand_number(game: Noddy, state: NoddyState) -> int:
    """Which hand a state is in: search play-outs stop when the next hand is dealt."""
    return state.hand


def race_value(game: Noddy, state: NoddyState, seat: int) -> float:
    """A 0-to-1 estimate of the seat winning the race, from the scores.

    The lead is weighed against how much the hands still to come can change it (about
    4.5 points a hand, over the hands the leader needs at about 5 points a hand). A
    finished game is worth its win share.
    """
    outcome = game.outcome(state)
    if outcome is not None:
        return outcome.reward(seat)
    mine, theirs = state.scores[seat], state.scores[1 - seat]
    left = max(game.options.target - max(mine, theirs), 1)
    hands = max(1.0, left / _HAND_POINTS)
    z = (mine - theirs) / (_HAND_SPREAD * sqrt(hands))
    return 0.5 * (1.0 + erf(z / sqrt(2.0)))
