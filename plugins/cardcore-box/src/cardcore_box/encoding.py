"""The RL codec of Box: every action numbered, every observation as floats.

The action index (53 actions, the same for every option): ``turn up``, then ``play`` of
each of the 52 cards in card order.

The observation: the card table as the seat knows it (the draw pile, hands, boxes, extra
piles, the table and the discard; box cards count only once turned up), the last three
cards on the table in order, the seat and the seat to move, then the public facts of
:func:`box_facts`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from cardcore import DECK_52
from cardcore.adapters import ActionIndex, Slots, TableCodec, TableEncoding, one_hot, scaled
from cardcore_box.game import (
    BOX_SIZE,
    NUM_PLAYERS,
    Box,
    BoxAction,
    BoxObservation,
    Ending,
    Play,
    TurnUp,
)

__all__ = ["FACTS_SIZE", "LAST_PLAYS", "box_actions", "box_codec", "box_facts"]

LAST_PLAYS: Final = 3
"""How many of the latest table cards are encoded in order, with who played them."""
ROUNDS_SCALE: Final = 30
"""Round numbers are scaled by this (games take fewer rounds; later ones read 1)."""
_SEAT_HOT: Final = {s: tuple(one_hot(s, NUM_PLAYERS)) for s in (None, *range(NUM_PLAYERS))}
_ENDINGS: Final = tuple(Ending)
_ENDING_HOT: Final = {e: tuple(one_hot(i, len(_ENDINGS))) for i, e in enumerate(_ENDINGS)}
_NO_PLAY: Final = (0.0,) * (NUM_PLAYERS + 1)
_PLAY_HOT: Final = {
    (s, boxed): (*one_hot(s, NUM_PLAYERS), float(boxed))
    for s in range(NUM_PLAYERS)
    for boxed in (False, True)
}
"""Who played a table card, one-hot, and whether it came from a box."""
_QUARTERS: Final = tuple(k / 4 for k in range(5))
"""Counts of 0 to 4 cards (box plays, hand and box draws) scaled to [0, 1]."""
_NO_ROUND: Final = (0.0,) * (5 * NUM_PLAYERS + len(_ENDINGS))
FACTS_SIZE: Final = (
    NUM_PLAYERS  # dealer
    + 1  # round
    + NUM_PLAYERS  # leader
    + 1  # direction
    + NUM_PLAYERS  # out
    + NUM_PLAYERS  # box plays this round
    + LAST_PLAYS * (NUM_PLAYERS + 1)  # who played the latest table cards, from a box?
    + len(_NO_ROUND)  # the last round
)
"""How many public facts :func:`box_facts` returns."""


def box_actions() -> Iterator[BoxAction]:
    """Every action a Box player can ever take, in the index's fixed order."""
    yield TurnUp()
    for card in DECK_52:
        yield Play(card)


def box_facts(obs: BoxObservation) -> list[float]:
    """The public numbers of an observation, each in ``[-1, 1]`` (``FACTS_SIZE`` of them).

    Returns:
        The dealer; the round number; the leader; the direction (1 clockwise, -1
        anticlockwise); who is out; per seat, its successful box plays this round; for
        each of the latest table cards (newest first), who played it and whether it came
        from a box; and the last round's winner, ending, stuck player, eliminations and
        per seat the cards drawn into hand and box.
    """
    out = [
        *_SEAT_HOT[obs.dealer],
        scaled(obs.round, ROUNDS_SCALE),
        *_SEAT_HOT[obs.leader],
        float(obs.direction),
        *[1.0 if r else 0.0 for r in obs.out],
    ]
    played_by, from_box = obs.played_by, obs.from_box
    plays = [0, 0, 0, 0]
    if True in from_box:
        for seat, boxed in zip(played_by, from_box, strict=True):
            if boxed:
                plays[seat] += 1
    out += [_QUARTERS[min(p, BOX_SIZE)] for p in plays]
    k = len(played_by)
    for i in range(k - 1, k - 1 - LAST_PLAYS, -1):
        out += _PLAY_HOT[played_by[i], from_box[i]] if i >= 0 else _NO_PLAY
    last = obs.last_round
    if last is None:
        out += _NO_ROUND
        return out
    out += _SEAT_HOT[last.winner]
    out += _ENDING_HOT[last.ending]
    out += _SEAT_HOT[last.stuck]
    out += [1.0 if s in last.eliminated else 0.0 for s in range(NUM_PLAYERS)]
    out += [_QUARTERS[min(d, 4)] for d in last.hand_draws]
    out += [_QUARTERS[min(d, 4)] for d in last.box_draws]
    return out


def box_codec(game: Box, num_players: int) -> TableCodec[BoxAction]:
    """The Box codec (registered by the plugin's ``cardcore_register_codecs`` hook)."""
    encoding = TableEncoding.for_game(
        game,
        num_players,
        facts=box_facts,
        facts_size=FACTS_SIZE,
        slots=[Slots("table", LAST_PLAYS, from_top=True)],
    )
    return TableCodec(encoding, ActionIndex(box_actions()))
