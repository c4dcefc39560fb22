"""The RL codec of Nyuri: every action numbered, every observation as floats.

The action index (23,845 actions, the same for every option and player count):
``decline``, ``take back``, ``swap``; ``lay`` of each card; ``lay`` of each card guarded
by each higher card of its suit (312); then ``steal`` with every set of one, two and
three cards (52 + 1,326 + 22,100), each size in the order of ``itertools.combinations``
over the deck.

The observation: the card table as the seat knows it (stock, hands, capture piles, the
target and bodyguard, the offers), the two bottom cards of the stock (a swapped target
and bodyguard, seen by all), the seat and the seat to move, then the public facts of
:func:`nyuri_facts`.
"""

from __future__ import annotations

import itertools
import struct
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Final

from cardcore import DECK_52, Card
from cardcore.adapters import ActionIndex, Slots, TableCodec, TableEncoding, one_hot, scaled
from cardcore_nyuri.actions import Decline, Lay, NyuriAction, Steal, Swap, TakeBack, card_value
from cardcore_nyuri.rules import Nyuri
from cardcore_nyuri.state import NyuriObservation, Phase, TurnRecord

__all__ = ["facts_size", "nyuri_actions", "nyuri_codec", "nyuri_facts", "nyuri_facts_packer"]

MAX_TARGET: Final = 27
"""The largest target value (a king guarded by the ace): target values are scaled by it."""
_PHASES: Final = tuple(Phase)
_PHASE_HOT: Final = {p: tuple(one_hot(i, len(_PHASES))) for i, p in enumerate(_PHASES)}
_RETURNED: Final = {"": (0.0, 0.0), "take back": (1.0, 0.0), "swap": (0.0, 1.0)}
_SEAT_HOT: Final = {n: {s: tuple(one_hot(s, n)) for s in (None, *range(n))} for n in (2, 3, 4)}
"""Per player count, per seat (or ``None``), its one-hot."""
_NO_TURN: Final = {n: (0.0,) * (2 * n + 4) for n in (2, 3, 4)}
"""The facts of the latest turn before any turn is resolved."""


def facts_size(num_players: int) -> int:
    """How many public facts :func:`nyuri_facts` returns for a player count."""
    return len(_PHASES) + 5 * num_players + 7


def nyuri_actions() -> Iterator[NyuriAction]:
    """Every action a Nyuri player can ever take, in the index's fixed order."""
    yield Decline()
    yield TakeBack()
    yield Swap()
    for card in DECK_52:
        yield Lay(card)
    for card in DECK_52:
        for guard in DECK_52:
            if guard.suit == card.suit and guard.rank > card.rank:
                yield Lay(card, guard)
    for size in (1, 2, 3):
        for cards in itertools.combinations(DECK_52, size):
            yield Steal(cards)


_CARD_VALUE: Final = (0, *(card_value(Card.of(c)) for c in range(52)))
"""Per card id + 1, its value (index 0: no card)."""


def nyuri_facts(obs: NyuriObservation, turn_limit: int) -> list[float]:
    """The public numbers of an observation, each in ``[-1, 1]``.

    Args:
        obs: the observation.
        turn_limit: the game's turn limit (the turn number is scaled by it).

    Returns:
        ``facts_size(num_players)`` floats: phase one-hot; the dealer; the layer; the
        turn number; the dead-turn count; every player's count; the target value; and
        from the latest resolved turn, its thief, whether a penalty card was taken,
        whether the layer took back or swapped, and who drew.
    """
    n = obs.num_players
    hot = _SEAT_HOT[n]
    known = obs.table.known
    # The target and the bodyguard lie face up: their zones' known masks hold them.
    value = _CARD_VALUE[known[1 + 2 * n].bit_length()] + _CARD_VALUE[known[2 + 2 * n].bit_length()]
    return [
        *_PHASE_HOT[obs.phase],
        *hot[obs.dealer],
        *hot[obs.layer],
        scaled(obs.turn, turn_limit),
        scaled(obs.dead_turns, n),
        *[c / 52 for c in obs.counts],
        value / MAX_TARGET,
        *_turn_facts(obs.last, n),
    ]


def _turn_facts(last: TurnRecord | None, n: int) -> tuple[float, ...]:
    """The latest turn's facts, worked out once per turn.

    The memo's entry holds the record, so its id cannot be reused while the entry lives.
    """
    if last is None:
        return _NO_TURN[n]
    hit = _TURN_FACTS.get(id(last))
    if hit is not None and hit[0] is last:
        return hit[1]
    floats = (
        *_SEAT_HOT[n][last.winner],
        1.0 if last.winner is None else 0.0,
        1.0 if last.penalty else 0.0,
        *_RETURNED.get(last.returned, (0.0, 0.0)),
        *[1.0 if s in last.drew else 0.0 for s in range(n)],
    )
    if len(_TURN_FACTS) >= _TURN_FACTS_LIMIT:
        _TURN_FACTS.clear()
    _TURN_FACTS[id(last)] = (last, floats)
    return floats


_TURN_FACTS: Final[dict[int, tuple[TurnRecord, tuple[float, ...]]]] = {}
_TURN_FACTS_LIMIT: Final = 1 << 12


def nyuri_facts_packer(num_players: int, turn_limit: int) -> Callable[[NyuriObservation], bytes]:
    """:func:`nyuri_facts` as packed float32s, the way the codec uses them.

    Each piece (the phase, a seat, the turn number, the counts, the target value, the
    latest turn) is packed once per distinct value and looked up afterwards, so a step
    joins a few byte strings instead of packing ``facts_size`` floats.

    Args:
        num_players: the seat count.
        turn_limit: the game's turn limit.

    Returns:
        A function from an observation to its ``4 * facts_size(num_players)`` bytes.
    """
    n = num_players
    phase = {p: _pack(hot) for p, hot in _PHASE_HOT.items()}
    seat = {s: _pack(hot) for s, hot in _SEAT_HOT[n].items()}
    turn = _Packed(lambda t: (scaled(t, turn_limit),))
    dead = _Packed(lambda d: (scaled(d, n),))
    counts = _Packed(lambda cs: [c / 52 for c in cs])
    value = tuple(_pack((v / MAX_TARGET,)) for v in range(2 * _CARD_VALUE_MAX + 1))

    target, guard = 1 + 2 * n, 2 + 2 * n
    card_value = _CARD_VALUE
    join = b"".join
    # The latest turn record lasts a whole turn: keep the last one packed, by identity
    # (the entry holds the record, so no other object can take its id meanwhile).
    kept: list[tuple[TurnRecord | None, bytes]] = [(None, _NO_TURN_BYTES[n])]

    def packed(obs: NyuriObservation) -> bytes:
        known = obs.table.known
        last = obs.last
        latest = kept[0]
        if latest[0] is last:
            turn_facts = latest[1]
        else:
            turn_facts = _turn_bytes(last, n)
            kept[0] = (last, turn_facts)
        return join(
            (
                phase[obs.phase],
                seat[obs.dealer],
                seat[obs.layer],
                turn[obs.turn],
                dead[obs.dead_turns],
                counts[obs.counts],
                value[
                    card_value[known[target].bit_length()] + card_value[known[guard].bit_length()]
                ],
                turn_facts,
            )
        )

    return packed


def _turn_bytes(last: TurnRecord | None, n: int) -> bytes:
    """The latest turn's facts packed, worked out once per turn record."""
    if last is None:
        return _NO_TURN_BYTES[n]
    hit = _TURN_BYTES.get(id(last))
    if hit is not None and hit[0] is last:
        return hit[1]
    out = _pack(_turn_facts(last, n))
    if len(_TURN_BYTES) >= _TURN_FACTS_LIMIT:
        _TURN_BYTES.clear()
    _TURN_BYTES[id(last)] = (last, out)
    return out


def _pack(floats: Iterable[float]) -> bytes:
    values = tuple(floats)
    return struct.pack(f"<{len(values)}f", *values)


class _Packed(dict[Any, bytes]):
    """Per value (a number, a tuple of counts), its facts packed; filled on first use."""

    __slots__ = ("_floats",)

    def __init__(self, floats: Callable[[Any], Iterable[float]]) -> None:
        super().__init__()
        self._floats = floats

    def __missing__(self, key: Any) -> bytes:
        if len(self) >= _TURN_FACTS_LIMIT:
            self.clear()
        out = self[key] = _pack(self._floats(key))
        return out


_CARD_VALUE_MAX: Final = max(_CARD_VALUE)
_TURN_BYTES: Final[dict[int, tuple[TurnRecord, bytes]]] = {}
_NO_TURN_BYTES: Final = {n: _pack(floats) for n, floats in _NO_TURN.items()}


def nyuri_codec(game: Nyuri, num_players: int) -> TableCodec[NyuriAction]:
    """The Nyuri codec (registered by the plugin's ``cardcore_register_codecs`` hook)."""
    turn_limit = game.options.turn_limit
    encoding = TableEncoding.for_game(
        game,
        num_players,
        facts=nyuri_facts_packer(num_players, turn_limit),
        facts_size=facts_size(num_players),
        slots=[Slots("stock", 2)],
    )
    # Every Nyuri action is a shared instance hashed by identity: the index needs no key.
    return TableCodec(encoding, ActionIndex(nyuri_actions()))
