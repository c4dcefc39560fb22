"""The RL codec of Box: every action numbered, every observation as floats.

The action index (53 actions, the same for every option): ``turn up``, then ``play`` of
each of the 52 cards in card order.

The observation: the card table as the seat knows it (the draw pile, hands, boxes, extra
piles, the table and the discard; box cards count only once turned up), the last three
cards on the table in order, the seat and the seat to move, then the public facts of
:func:`box_facts`, which end with the game's public history (BX-8.1): per card, who
played it, whether from a box, in which round, and who turned it up too high, so that
the rounds a seat sat out still reach it.
"""

from __future__ import annotations

import itertools
import struct
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Final

from cardcore import DECK_52
from cardcore.adapters import ActionIndex, Slots, TableCodec, TableEncoding, one_hot, scaled
from cardcore_box.actions import BoxAction, Play, TurnUp
from cardcore_box.options import BOX_SIZE, NUM_PLAYERS
from cardcore_box.rules import Box
from cardcore_box.state import TABLE, BoxObservation, Ending, RoundResult

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
    + 52 * (NUM_PLAYERS + 1 + 1 + NUM_PLAYERS)  # per card: who played it, box, round, turned up
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
        from a box; the last round's winner, ending, stuck player, eliminations and
        per seat the cards drawn into hand and box; then per card (in card order): the
        seat that played it to the table, whether from its box, the round (scaled), and
        the seat that turned it up too high from its box (every round, this one too).
    """
    plays, recent = _plays(obs)
    return [
        *_round_head(obs),
        *plays[0],
        *recent[0],
        *_round_tail(obs.last_round),
        *_history(obs),
    ]


_PER_CARD: Final = NUM_PLAYERS + 1 + 1 + NUM_PLAYERS
_HISTORY_SIZE: Final = 52 * _PER_CARD


def _mark(out: list[float], card: int, seat: int, boxed: bool, round_: int) -> None:
    at = _PER_CARD * card
    out[at + seat] = 1.0
    out[at + NUM_PLAYERS] = float(boxed)
    out[at + NUM_PLAYERS + 1] = scaled(round_, ROUNDS_SCALE)


def _rounds_history(rounds: tuple[RoundResult, ...]) -> list[float]:
    """The per-card facts of the finished rounds (shared: copy before changing)."""
    kept = _ROUNDS_KEPT[0]
    if kept[0] is rounds:
        return kept[1]
    out = [0.0] * _HISTORY_SIZE
    for r in rounds:
        for card, seat, boxed in zip(r.cards, r.played_by, r.from_box, strict=True):
            _mark(out, card.id, seat, boxed, r.number)
        if r.turned_up is not None:
            at = _PER_CARD * r.turned_up.id
            out[at + NUM_PLAYERS + 1] = scaled(r.number, ROUNDS_SCALE)
            out[at + NUM_PLAYERS + 2 + r.stuck] = 1.0
    _ROUNDS_KEPT[0] = (rounds, out)
    return out


def _history(obs: BoxObservation) -> list[float]:
    """Per card, who played it, from a box, in which round, and who turned it up too high."""
    out = _rounds_history(obs.rounds)
    if obs.played_by:
        out = list(out)
        for card, seat, boxed in zip(
            obs.table.orders[TABLE], obs.played_by, obs.from_box, strict=True
        ):
            _mark(out, card, seat, boxed, obs.round)
    return out


def box_facts_bytes(obs: BoxObservation) -> bytes:
    """:func:`box_facts` packed as little-endian float32s, as the codec uses them.

    Every piece is looked up already packed: the round's head (dealer, round number,
    leader, direction, who is out) in one lookup by its values, the box plays and the
    latest plays by the table's entries, and the last round's facts are packed once per
    round record (the latest one is kept, by identity), so a step joins five byte
    strings instead of packing 55 floats.
    """
    played_by, from_box = obs.played_by, obs.from_box
    last = obs.last_round
    kept = _LAST_TAIL[0]
    if kept[0] is last:
        tail = kept[1]
    else:
        tail = _round_tail_bytes(last)
        _LAST_TAIL[0] = (last, tail)
    return b"".join(
        (
            _HEAD_BYTES[obs.dealer, obs.round, obs.leader, obs.direction, obs.out],
            _box_plays_bytes(played_by, from_box) if True in from_box else _NO_BOX_PLAYS[1],
            _RECENT[played_by[-LAST_PLAYS:], from_box[-LAST_PLAYS:]][1],
            tail,
            _history_bytes(obs),
        )
    )


def _history_bytes(obs: BoxObservation) -> bytes:
    """:func:`_history` packed as float32s, without packing 520 floats on every step.

    The finished rounds' part is kept packed (:func:`_rounds_history_bytes`); the cards
    of the current round are written into a copy of it, each float of :func:`_mark` in
    its place. The latest result is kept (``_PLAYS_KEPT``): the history is public, so
    the next observation, of any seat, that shows the same plays and perhaps a few more
    is that result with only the new plays written (:func:`_with_plays`).
    """
    packed = _rounds_history_bytes(obs.rounds)
    played_by = obs.played_by
    if not played_by:
        return packed
    cards = obs.table.orders[TABLE]
    from_box = obs.from_box
    round_ = obs.round
    base, kept_round, kept_cards, kept_by, kept_box, kept = _PLAYS_KEPT[0]
    if (
        base is packed
        and kept_by == played_by
        and kept_round == round_
        and kept_cards == cards
        and kept_box == from_box
    ):
        return kept
    result = bytes(_with_plays(packed, round_, cards, played_by, from_box))
    _PLAYS_KEPT[0] = (packed, round_, cards, played_by, from_box, result)
    return result


def _with_plays(
    base: bytes,
    round_: int,
    cards: tuple[int, ...],
    played_by: tuple[int, ...],
    from_box: tuple[bool, ...],
) -> bytearray:
    """``base`` (the finished rounds' bytes) with a round's plays written into a copy.

    When ``_PLAYS_KEPT`` holds the same base and round with a first part of these plays,
    its result is copied and only the plays after that part are written.
    """
    kept_base, kept_round, kept_cards, kept_by, kept_box, kept = _PLAYS_KEPT[0]
    n = len(kept_by)
    if (
        kept_base is base
        and kept_round == round_
        and n <= len(played_by)
        and played_by[:n] == kept_by
        and cards[:n] == kept_cards
        and from_box[:n] == kept_box
    ):
        out = bytearray(kept)
        if n < len(played_by):
            _write_plays(out, cards[n:], played_by[n:], from_box[n:], round_)
        return out
    out = bytearray(base)
    _write_plays(out, cards, played_by, from_box, round_)
    return out


def _write_plays(
    out: bytearray,
    cards: tuple[int, ...],
    played_by: tuple[int, ...],
    from_box: tuple[bool, ...],
    round_: int,
) -> None:
    """:func:`_mark` each of ``cards`` in packed history bytes.

    Raises:
        ValueError: the three tuples differ in length (as ``zip(strict=True)`` would;
            a loop over positions costs less than that keyword call when compiled).
    """
    if not len(cards) == len(played_by) == len(from_box):
        raise ValueError(f"{len(cards)} cards, {len(played_by)} players, {len(from_box)} flags")
    boxed_round = _BOXED_ROUND[round_ if round_ < ROUNDS_SCALE else ROUNDS_SCALE]
    one = _ONE_BYTES
    for i in range(len(cards)):
        card = cards[i]
        seat = played_by[i]
        boxed = from_box[i]
        at = _CARD_BYTES * card
        out[at + 4 * seat : at + 4 * seat + 4] = one
        out[at + _BOX_AT : at + _BOX_AT + 8] = boxed_round[1] if boxed else boxed_round[0]


def _rounds_history_bytes(rounds: tuple[RoundResult, ...]) -> bytes:
    """:func:`_rounds_history` packed as float32s, kept for the latest ``rounds``.

    The same tuple (by identity) is answered from the kept bytes; one more round than
    the kept ones (the rest equal) is written into a copy of them, as
    :func:`_rounds_history` would add it (its plays from the current round's kept
    history where that holds them); anything else is packed afresh.
    """
    kept_rounds, kept = _ROUNDS_BYTES[0]
    if kept_rounds is rounds:
        return kept
    n = len(kept_rounds)
    if len(rounds) == n + 1 and rounds[:n] == kept_rounds:
        r = rounds[n]
        # Its plays, as the last observations of the round wrote most of them already.
        out = _with_plays(kept, r.number, tuple(c.id for c in r.cards), r.played_by, r.from_box)
        if r.turned_up is not None:
            at = _CARD_BYTES * r.turned_up.id
            number = r.number if r.number < ROUNDS_SCALE else ROUNDS_SCALE
            out[at + _BOX_AT + 4 : at + _BOX_AT + 8] = _BOXED_ROUND[number][0][4:]
            out[at + _BOX_AT + 8 + 4 * r.stuck : at + _BOX_AT + 12 + 4 * r.stuck] = _ONE_BYTES
        packed = bytes(out)
    else:
        packed = _HISTORY_STRUCT.pack(*_rounds_history(rounds))
    _ROUNDS_BYTES[0] = (rounds, packed)
    return packed


def _round_tail_bytes(last: RoundResult | None) -> bytes:
    if last is None:
        return _NO_ROUND_BYTES
    return b"".join(
        (
            _SEAT_BYTES[last.winner],
            _ENDING_BYTES[last.ending],
            _SEAT_BYTES[last.stuck],
            _ELIMINATED_BYTES[last.eliminated],
            _DRAW_BYTES[last.hand_draws],
            _DRAW_BYTES[last.box_draws],
        )
    )


def _box_plays_bytes(played_by: tuple[int, ...], from_box: tuple[bool, ...]) -> bytes:
    plays = [0, 0, 0, 0]
    for seat, boxed in zip(played_by, from_box, strict=True):
        if boxed:
            plays[seat] += 1
    return _BOX_PLAYS[tuple(p if p < BOX_SIZE else BOX_SIZE for p in plays)][1]


def _head_bytes(key: tuple[int, int, int, int, tuple[int, ...]]) -> bytes:
    dealer, round_, leader, direction, out = key
    return b"".join(
        (
            _SEAT_BYTES[dealer],
            _ROUND_BYTES[round_ if round_ < ROUNDS_SCALE else ROUNDS_SCALE],
            _SEAT_BYTES[leader],
            _DIRECTION_BYTES[direction],
            _OUT_BYTES[out],
        )
    )


_Part = tuple[tuple[float, ...], bytes]
"""Some facts, as floats and packed as float32s."""


def _pack(floats: Iterable[float]) -> bytes:
    values = tuple(floats)
    return struct.pack(f"<{len(values)}f", *values)


def _part(values: Iterable[float]) -> _Part:
    floats = tuple(values)
    return floats, _pack(floats)


def _plays(obs: BoxObservation) -> tuple[_Part, _Part]:
    """The facts of this round's box plays per seat, and of the latest table cards."""
    played_by, from_box = obs.played_by, obs.from_box
    if True in from_box:
        plays = [0, 0, 0, 0]
        for seat, boxed in zip(played_by, from_box, strict=True):
            if boxed:
                plays[seat] += 1
        box_plays = _BOX_PLAYS[tuple(p if p < BOX_SIZE else BOX_SIZE for p in plays)]
    else:
        box_plays = _NO_BOX_PLAYS
    return box_plays, _RECENT[played_by[-LAST_PLAYS:], from_box[-LAST_PLAYS:]]


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


class _Packed(dict[tuple[int, ...], bytes]):
    """Per tuple of seat numbers, its facts packed; filled on first use, bounded."""

    __slots__ = ("_floats",)

    def __init__(self, floats: Callable[[tuple[int, ...]], Iterable[float]]) -> None:
        super().__init__()
        self._floats = floats

    def __missing__(self, key: tuple[int, ...]) -> bytes:
        if len(self) >= _PACKED_LIMIT:
            self.clear()
        out = self[key] = _pack(self._floats(key))
        return out


class _Memo(dict[Any, bytes]):
    """Per key, ``pack(key)``; filled on first use, bounded."""

    __slots__ = ("_pack",)

    def __init__(self, pack: Callable[[Any], bytes]) -> None:
        super().__init__()
        self._pack = pack

    def __missing__(self, key: Any) -> bytes:
        if len(self) >= _PACKED_LIMIT:
            self.clear()
        out = self[key] = self._pack(key)
        return out


_PACKED_LIMIT: Final = 1 << 12
_SEAT_BYTES: Final = {s: _pack(hot) for s, hot in _SEAT_HOT.items()}
_ENDING_BYTES: Final = {e: _pack(hot) for e, hot in _ENDING_HOT.items()}
_ROUND_BYTES: Final = tuple(_pack([scaled(r, ROUNDS_SCALE)]) for r in range(ROUNDS_SCALE + 1))
_DIRECTION_BYTES: Final = {d: _pack([float(d)]) for d in (1, -1)}
_OUT_BYTES: Final = _Packed(lambda out: [1.0 if r else 0.0 for r in out])
"""Per ``out`` (the round each seat went out in, 0 while in): who is out."""
_ELIMINATED_BYTES: Final = _Packed(
    lambda gone: [1.0 if s in gone else 0.0 for s in range(NUM_PLAYERS)]
)
_DRAW_BYTES: Final = _Packed(lambda draws: [_QUARTERS[min(d, 4)] for d in draws])
_NO_ROUND_BYTES: Final = _pack(_NO_ROUND)
_LAST_TAIL: Final[list[tuple[RoundResult | None, bytes]]] = [(None, _NO_ROUND_BYTES)]
"""The last round record packed most recently and its bytes (one entry, by identity:
the entry holds the record, so no other object can take its id while it is kept)."""
_ROUNDS_KEPT: Final[list[tuple[tuple[RoundResult, ...], list[float]]]] = [
    ((), [0.0] * _HISTORY_SIZE)
]
"""The rounds whose per-card facts were built most recently, and those facts (by
identity, like ``_LAST_TAIL``)."""
_HISTORY_STRUCT: Final = struct.Struct(f"<{_HISTORY_SIZE}f")
"""Packs the per-card history (:func:`_history`)."""
_ROUNDS_BYTES: Final[list[tuple[tuple[RoundResult, ...], bytes]]] = [
    ((), _HISTORY_STRUCT.pack(*([0.0] * _HISTORY_SIZE)))
]
"""The rounds whose per-card facts were packed most recently, and those bytes (by
identity, like ``_ROUNDS_KEPT``)."""
_PLAYS_KEPT: Final[
    list[tuple[bytes, int, tuple[int, ...], tuple[int, ...], tuple[bool, ...], bytes]]
] = [(b"", 0, (), (), (), b"")]
"""The latest history with plays of the current round (:func:`_history_bytes`): the
finished rounds' bytes it was written on (by identity), the round, the cards, players and
box flags written, and the result."""
_CARD_BYTES: Final = 4 * _PER_CARD
"""The bytes of one card's facts in the packed history."""
_BOX_AT: Final = 4 * NUM_PLAYERS
"""Where a card's "from a box" and round floats start, in bytes from the card's first."""
_ONE_BYTES: Final = struct.pack("<f", 1.0)
_BOXED_ROUND: Final = tuple(
    (
        struct.pack("<2f", 0.0, scaled(r, ROUNDS_SCALE)),
        struct.pack("<2f", 1.0, scaled(r, ROUNDS_SCALE)),
    )
    for r in range(ROUNDS_SCALE + 1)
)
"""Per round number (from ``ROUNDS_SCALE`` on, the same), the packed "from a box" flag
and round of a card played from the hand and from a box."""
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


_HEAD_BYTES: Final = _Memo(_head_bytes)
"""Per (dealer, round, leader, direction, out), those facts packed."""
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
