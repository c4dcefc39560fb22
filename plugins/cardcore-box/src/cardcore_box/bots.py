"""The Box heuristic bot, ``box-heuristic``, and the game's search hints."""

from __future__ import annotations

import random
from typing import final

from cardcore_box.actions import BoxAction, Play
from cardcore_box.options import NUM_PLAYERS
from cardcore_box.rules import Box
from cardcore_box.state import HAND, TABLE, BoxObservation, BoxState

__all__ = ["BoxHeuristic", "survival_value"]


def _rank(action: Play) -> int:
    return int(action.card.rank)


@final
class BoxHeuristic:
    """Plays Box like a sensible beginner.

    Leading and turning up a box card are forced (any card of the highest rank leads,
    suits play no part), so the bot only chooses which card to follow with. Its rules of
    thumb:

    1. Follow with the **highest** card allowed, keeping low cards for later in the
       round, when the card to beat is lower and being stuck means risking a box card.
    2. Except when the player who would be next is **sure to be stuck** (their hand is
       empty, or they already turned up a box card this round, so nothing in their hand
       can follow): then play the **lowest** card, so that the box card they must turn
       up is as likely as possible to be too high, which wins the round. An equal rank
       reverses the direction, so "next" is worked out for each card.

    The bot is deterministic; ``seed`` is accepted for the common bot signature.
    """

    name = "box-heuristic"

    def __init__(self, game: Box | None = None, *, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def act(self, observation: BoxObservation) -> BoxAction:
        """Choose one of ``observation.legal_actions``."""
        o = observation
        legal = o.legal_actions
        table = o.table.cards(TABLE)
        if len(legal) == 1 or not table:
            return legal[0]
        plays = sorted((a for a in legal if isinstance(a, Play)), key=_rank)
        for a in plays:
            if self._sure_stuck(o, self._next_seat(o, a)):
                return a
        return plays[-1]

    @staticmethod
    def _next_seat(o: BoxObservation, action: Play) -> int:
        """The seat to play after ``action`` (an equal rank reverses, BX-4.5)."""
        table = o.table.cards(TABLE)
        step = o.direction
        if table and table[-1].rank == action.card.rank:
            step = -step
        seat = o.seat
        for _ in range(NUM_PLAYERS):
            seat = (seat + step) % NUM_PLAYERS
            if not o.out[seat]:
                break
        return seat

    @staticmethod
    def _sure_stuck(o: BoxObservation, seat: int) -> bool:
        """Whether ``seat`` surely holds no card it could follow with.

        A hand never grows during a round and the card to beat only falls, so a player
        who had to turn up a box card earlier in the round is stuck again.
        """
        return o.table.size(HAND + seat) == 0 or o.box_plays(seat) > 0


_SURVIVAL_WEIGHT = 0.25
"""How much of a search leaf's value is how long the seat stayed in (the rest: win share)."""


def survival_value(game: Box, state: BoxState, seat: int) -> float:
    """A score-aware 0-to-1 value of a finished game for search play-outs.

    Mostly the win share, plus a quarter for the round the seat went out in as a share
    of the game's length (the outcome's scores): staying in longer is worth more.
    """
    outcome = game.outcome(state)
    if outcome is None:
        return 0.25
    top = max(outcome.scores) or 1.0
    return (1 - _SURVIVAL_WEIGHT) * outcome.reward(seat) + _SURVIVAL_WEIGHT * (
        outcome.scores[seat] / top
    )
