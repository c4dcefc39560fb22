"""The JSON codec's per-type functions decode exactly what its plain walk decodes.

The first decode of a hint builds a function for it; data that does not fit is walked
again by the plain decoder, so that its error still names the part that does not fit.
"""

from __future__ import annotations

import enum
from fractions import Fraction
from typing import Any, Literal

import attrs
import pytest

from cardcore import DECK_52, CardAction, JsonCodec, Layout, Visibility, Zone
from cardcore._cards import Card


class Play(CardAction, verb="play"):
    """Play one card."""


class Phase(enum.Enum):
    BID = "bid"
    PLAY = "play"


@attrs.frozen
class Bid:
    seat: int
    amount: int


@attrs.frozen
class Played:
    seat: int
    card: Card


@attrs.frozen
class Seen:
    phase: Phase
    share: Fraction
    mood: Literal["calm", "cross"]
    events: tuple[Bid | Played, ...]
    last: Play | None
    pair: tuple[int, float]
    friends: frozenset[int]
    note: str | None = None
    anything: Any = None


LAYOUT = Layout((Zone("stock", Visibility.HIDDEN, ordered=True),), 2, (1 << 52) - 1)


def _codec() -> JsonCodec:
    return JsonCodec((Play,), Play.parse, lambda n: LAYOUT)


def _value() -> Seen:
    return Seen(
        Phase.PLAY,
        Fraction(2, 3),
        "cross",
        (Bid(0, 120), Played(1, DECK_52[5])),
        Play.of(7),
        (1, 2.5),
        frozenset({0, 1}),
        anything={"x": [1]},
    )


def test_values_round_trip_and_decode_as_the_plain_walk_does() -> None:
    codec = _codec()
    data = codec.encode(_value())
    for _ in range(2):  # the first decode builds the functions, the second reuses them
        back = codec.decode(data, Seen)
        assert back == _value()
        assert back == codec._decode(data, Seen, "$", None)
        assert codec.encode(back) == data
    assert codec.decode({**data, "last": None}, Seen).last is None


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"events": "no list"}, r"\$\.events: expected a list"),
        ({"events": [{"type": "Bid", "seat": 0}]}, r"Bid is missing 'amount'"),
        ({"pair": [1]}, r"\$\.pair: expected 2 items"),
        ({"pair": [1, "x"]}, r"\$\.pair\[1\]: expected a number"),
        ({"mood": "glad"}, r"\$\.mood: 'glad' is not one of"),
        ({"phase": "deal"}, r"\$\.phase: 'deal' is not a Phase"),
        ({"last": 7}, r"\$\.last: expected an action's text"),
        ({"friends": [True]}, r"\$\.friends\[\]: expected an integer"),
        ({"events": [{"seat": 1, "card": "Zz"}]}, r"\$\.events\[0\]: matches no alternative"),
    ],
)
def test_data_that_does_not_fit_is_named_as_before(change: dict[str, Any], message: str) -> None:
    codec = _codec()
    data = {**codec.encode(_value()), **change}
    codec.decode(codec.encode(_value()), Seen)  # the functions exist already
    with pytest.raises(ValueError, match=message):
        codec.decode(data, Seen)
