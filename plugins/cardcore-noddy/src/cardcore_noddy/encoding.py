"""The RL codec of Noddy: every action numbered, every observation as floats.

The action index (54 actions, the same for every option): ``pass``, ``show knave``,
then ``play`` of each of the 52 cards in card order.

The observation: the card table as the seat knows it (stock, both hands, the turn-up,
the pile), the last four cards of the pile in order, the seat and the seat to move, then
the public facts of :func:`noddy_facts`.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Final

from cardcore import DECK_52
from cardcore.adapters import (
    ActionIndex,
    PackedFacts,
    Slots,
    TableCodec,
    TableEncoding,
    one_hot,
    scaled,
)
from cardcore_noddy.actions import NoddyAction, Pass, Play, ShowKnave
from cardcore_noddy.rules import Noddy
from cardcore_noddy.state import MAX_TOTAL, Deal, KnaveShown, NoddyObservation, Phase, Shown

__all__ = ["FACTS_SIZE", "noddy_actions", "noddy_codec", "noddy_facts", "noddy_facts_packer"]

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


def noddy_facts_packer(target: int) -> Callable[[NoddyObservation], bytes]:
    """:func:`noddy_facts` as packed float32s, the way the codec uses them.

    Every fact is looked up already packed (the phase, the dealer, the running total, who
    went, the hand number), the scores are packed once per scores record
    (:class:`cardcore.adapters.PackedFacts`), and this hand's shows are read from its
    few events, packed only when there was one.

    Args:
        target: the game's target score.

    Returns:
        A function from an observation to its ``4 * FACTS_SIZE`` bytes of facts.
    """
    scores = PackedFacts[tuple[int, ...]](lambda s: (scaled(s[0], target), scaled(s[1], target)), 2)
    phase, seat, total, gone, hand = (
        _PHASE_BYTES,
        _SEAT_BYTES,
        _TOTAL_BYTES,
        _GONE_BYTES,
        _HAND_BYTES,
    )
    last_hand = HANDS_SCALE

    def packed(obs: NoddyObservation) -> bytes:
        return b"".join(
            (
                phase[obs.phase],
                scores(obs.scores),  # packed once per scores record (it lasts a hand)
                seat[obs.dealer],
                total[obs.total],
                gone[obs.gone],
                hand[obs.hand if obs.hand < last_hand else last_hand],
                _shows_bytes(obs.events),
            )
        )

    return packed


def _shows_bytes(events: tuple[Any, ...]) -> bytes:
    """This hand's shows and knave shows, packed (no show yet: all zeros, not packed)."""
    facts: list[float] | None = None
    for i in range(len(events) - 1, -1, -1):  # this hand's events only, latest first
        event = events[i]
        kind = event.__class__
        if kind is Deal:
            break
        if kind is Shown or kind is KnaveShown:
            if facts is None:
                facts = [0.0] * 6
            if kind is Shown:
                facts[2 * event.seat] = 1.0
                facts[2 * event.seat + 1] = event.points / MAX_SHOW
            else:
                facts[4 + event.seat] = 1.0
    return _NO_SHOWS if facts is None else _SHOWS.pack(*facts)


def _pack(floats: Iterable[float]) -> bytes:
    values = tuple(floats)
    return struct.pack(f"<{len(values)}f", *values)


_PHASE_BYTES: Final = {p: _pack(hot) for p, hot in _PHASE_HOT.items()}
_SEAT_BYTES: Final = (_pack(_SEAT_HOT[0]), _pack(_SEAT_HOT[1]))
_TOTAL_BYTES: Final = tuple(_pack([t / MAX_TOTAL]) for t in range(MAX_TOTAL + 1))
_GONE_BYTES: Final[dict[tuple[bool, ...], bytes]] = {
    (a, b): _pack([float(a), float(b)]) for a in (False, True) for b in (False, True)
}
_HAND_BYTES: Final = tuple(_pack([scaled(h, HANDS_SCALE)]) for h in range(HANDS_SCALE + 1))
_NO_SHOWS: Final = bytes(4 * 6)
_SHOWS: Final = struct.Struct("<6f")


def noddy_codec(game: Noddy, num_players: int) -> TableCodec[NoddyAction]:
    """The Noddy codec (registered by the plugin's ``cardcore_register_codecs`` hook)."""
    target = game.options.target
    encoding = TableEncoding.for_game(
        game,
        num_players,
        facts=noddy_facts_packer(target),
        facts_size=FACTS_SIZE,
        slots=[Slots("pile", 4, from_top=True)],
    )
    return TableCodec(encoding, ActionIndex(noddy_actions()))
