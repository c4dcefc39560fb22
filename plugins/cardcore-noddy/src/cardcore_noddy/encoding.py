"""The RL codec of Noddy: every action numbered, every observation as floats.

The action index (54 actions, the same for every option): ``pass``, ``show knave``,
then ``play`` of each of the 52 cards in card order.

The observation: the card table as the seat knows it (stock, both hands, the turn-up,
the pile), the last four cards of the pile in order, the seat and the seat to move, then
the public facts of :func:`noddy_facts`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from cardcore import DECK_52
from cardcore.adapters import ActionIndex, Slots, TableCodec, TableEncoding, one_hot, scaled
from cardcore_noddy.actions import NoddyAction, Pass, Play, ShowKnave
from cardcore_noddy.rules import Noddy
from cardcore_noddy.state import MAX_TOTAL, Deal, KnaveShown, NoddyObservation, Phase, Shown

__all__ = ["FACTS_SIZE", "noddy_actions", "noddy_codec", "noddy_facts"]

MAX_SHOW: Final = 20
"""The largest show (four 5s, ND-9.5): show totals are scaled by it."""
HANDS_SCALE: Final = 30
"""Hand numbers are scaled by this (a game rarely lasts 30 hands; later ones read 1)."""
_PHASES: Final = tuple(Phase)
_PHASE_HOT: Final = {p: tuple(one_hot(i, len(_PHASES))) for i, p in enumerate(_PHASES)}
_SEAT_HOT: Final = (tuple(one_hot(0, 2)), tuple(one_hot(1, 2)))
FACTS_SIZE: Final = len(_PHASES) + 2 + 2 + 1 + 2 + 1 + 4 + 2
"""How many public facts :func:`noddy_facts` returns."""


def noddy_actions() -> Iterator[NoddyAction]:
    """Every action a Noddy player can ever take, in the index's fixed order."""
    yield Pass()
    yield ShowKnave()
    for card in DECK_52:
        yield Play(card)


def noddy_facts(obs: NoddyObservation, target: int) -> list[float]:
    """The public numbers of an observation, each in ``[-1, 1]`` (``FACTS_SIZE`` of them).

    Args:
        obs: the observation.
        target: the game's target score (scores are scaled by it).

    Returns:
        Phase one-hot; both scores; the dealer; the running total; who went; the hand
        number; per seat, whether its show of this hand was counted and its total; per
        seat, whether it showed the knave noddy in this hand.
    """
    shown = [0.0, 0.0, 0.0, 0.0]
    knave = [0.0, 0.0]
    for event in reversed(obs.events):  # this hand's events only
        if isinstance(event, Deal):
            break
        if isinstance(event, Shown):
            shown[2 * event.seat] = 1.0
            shown[2 * event.seat + 1] = event.points / MAX_SHOW
        elif isinstance(event, KnaveShown):
            knave[event.seat] = 1.0
    return [
        *_PHASE_HOT[obs.phase],
        scaled(obs.scores[0], target),
        scaled(obs.scores[1], target),
        *_SEAT_HOT[obs.dealer],
        obs.total / MAX_TOTAL,
        float(obs.gone[0]),
        float(obs.gone[1]),
        scaled(obs.hand, HANDS_SCALE),
        *shown,
        *knave,
    ]


def noddy_codec(game: Noddy, num_players: int) -> TableCodec[NoddyAction]:
    """The Noddy codec (registered by the plugin's ``cardcore_register_codecs`` hook)."""
    target = game.options.target
    encoding = TableEncoding.for_game(
        game,
        num_players,
        facts=lambda obs: noddy_facts(obs, target),
        facts_size=FACTS_SIZE,
        slots=[Slots("pile", 4, from_top=True)],
    )
    return TableCodec(encoding, ActionIndex(noddy_actions()))
