"""The RL codec of Box: every action numbered, every observation as floats.

The action index (53 actions, the same for every option): ``turn up``, then ``play`` of
each of the 52 cards in card order.

The observation: the card table as the seat knows it (the draw pile, hands, boxes, extra
piles, the table and the discard; box cards count only once turned up), the last three
cards on the table in order, the seat and the seat to move, then the public facts of
:func:`box_facts`.
"""

from __future__ import annotations

import itertools
import struct
from collections.abc import Iterable, Iterator
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
    RoundResult,
    TurnUp,
)

__all__ = [
    "FACTS_SIZE",
    "LAST_PLAYS",
    "box_actions",
    "box_codec",
    "box_facts",
    "box_facts_bytes",
]

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
    out: list[float] = []
    for floats, _ in _facts_parts(obs):
        out += floats
    return out


def box_facts_bytes(obs: BoxObservation) -> bytes:
    """:func:`box_facts` packed as little-endian float32s, as the codec uses them.

    Each part is packed once (per round, per count of box plays, per latest plays), so
    an environment step joins four byte strings instead of packing 55 floats.
    """
    head, plays, recent, tail = _facts_parts(obs)
    return b"".join((head[1], plays[1], recent[1], tail[1]))


_Part = tuple[tuple[float, ...], bytes]
"""Some facts, as floats and packed as float32s."""


def _part(values: Iterable[float]) -> _Part:
    floats = tuple(values)
    return floats, struct.pack(f"<{len(floats)}f", *floats)


def _facts_parts(obs: BoxObservation) -> tuple[_Part, _Part, _Part, _Part]:
    """The facts in four parts: the round's, the box plays', the latest plays', the last round's."""
    # What stays the same for a whole round is worked out once per round; the key holds
    # the last round's id, and the entry the round itself, so the id cannot be reused.
    last = obs.last_round
    key = (obs.dealer, obs.round, obs.leader, obs.direction, obs.out, id(last))
    hit = _ROUND_FACTS.get(key)
    if hit is None or hit[0] is not last:
        if len(_ROUND_FACTS) >= _ROUND_FACTS_LIMIT:
            _ROUND_FACTS.clear()
        hit = _ROUND_FACTS[key] = (last, _part(_round_head(obs)), _part(_round_tail(last)))
    played_by, from_box = obs.played_by, obs.from_box
    if True in from_box:
        plays = [0, 0, 0, 0]
        for seat, boxed in zip(played_by, from_box, strict=True):
            if boxed:
                plays[seat] += 1
        box_plays = _BOX_PLAYS[tuple(p if p < BOX_SIZE else BOX_SIZE for p in plays)]
    else:
        box_plays = _NO_BOX_PLAYS
    recent = _RECENT[played_by[-LAST_PLAYS:], from_box[-LAST_PLAYS:]]
    return hit[1], box_plays, recent, hit[2]


def _round_head(obs: BoxObservation) -> tuple[float, ...]:
    return (
        *_SEAT_HOT[obs.dealer],
        scaled(obs.round, ROUNDS_SCALE),
        *_SEAT_HOT[obs.leader],
        float(obs.direction),
        *[1.0 if r else 0.0 for r in obs.out],
    )


def _round_tail(last: RoundResult | None) -> tuple[float, ...]:
    if last is None:
        return _NO_ROUND
    return (
        *_SEAT_HOT[last.winner],
        *_ENDING_HOT[last.ending],
        *_SEAT_HOT[last.stuck],
        *[1.0 if s in last.eliminated else 0.0 for s in range(NUM_PLAYERS)],
        *[_QUARTERS[min(d, 4)] for d in last.hand_draws],
        *[_QUARTERS[min(d, 4)] for d in last.box_draws],
    )


_ROUND_FACTS: Final[dict[tuple[object, ...], tuple[RoundResult | None, _Part, _Part]]] = {}
"""Per round (dealer, number, leader, direction, who is out, the last round's id): the
last round, and the facts before and after the round's plays."""
_ROUND_FACTS_LIMIT: Final = 1 << 12
_BOX_PLAYS: Final = {
    counts: _part(_QUARTERS[c] for c in counts)
    for counts in itertools.product(range(BOX_SIZE + 1), repeat=NUM_PLAYERS)
}
"""Per seat's count of box plays this round (at most ``BOX_SIZE``), their facts."""
_NO_BOX_PLAYS: Final = _BOX_PLAYS[(0,) * NUM_PLAYERS]


def _recent_plays() -> dict[tuple[tuple[int, ...], tuple[bool, ...]], _Part]:
    """Per possible (latest players, from a box) of up to three cards, their facts."""
    out = {}
    plays = [(s, boxed) for s in range(NUM_PLAYERS) for boxed in (False, True)]
    for k in range(LAST_PLAYS + 1):
        for combo in itertools.product(plays, repeat=k):
            floats: list[float] = []
            for i in range(k - 1, k - 1 - LAST_PLAYS, -1):
                floats += _PLAY_HOT[combo[i]] if i >= 0 else _NO_PLAY
            key = (tuple(s for s, _ in combo), tuple(b for _, b in combo))
            out[key] = _part(floats)
    return out


_RECENT: Final = _recent_plays()
"""The facts of the latest table cards, by the last three entries of who played them."""


def box_codec(game: Box, num_players: int) -> TableCodec[BoxAction]:
    """The Box codec (registered by the plugin's ``cardcore_register_codecs`` hook)."""
    encoding = TableEncoding.for_game(
        game,
        num_players,
        facts=box_facts_bytes,
        facts_size=FACTS_SIZE,
        slots=[Slots("table", LAST_PLAYS, from_top=True)],
    )
    return TableCodec(encoding, ActionIndex(box_actions()))
