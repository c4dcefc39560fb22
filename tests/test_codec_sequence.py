"""The JSON codec reads a ``Sequence[...]`` field (legal actions, lazy or not) back as a tuple."""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from cardcore import CardAction, ConcatActions, JsonCodec, Layout


class Play(CardAction, verb="play"):
    """Play one card."""


@attrs.frozen
class Seen:
    turn: int
    legal_actions: Sequence[Play]


def _layout(n: int) -> Layout:
    raise AssertionError("no table in this record")


def test_sequence_fields_round_trip_as_tuples() -> None:
    codec = JsonCodec((Play,), Play.parse, _layout)
    lazy = Seen(3, ConcatActions((Play.of(0),), (Play.of(5), Play.of(51))))
    data = codec.encode(lazy)
    assert data == {"type": "Seen", "turn": 3, "legal_actions": ["play 2♣", "play 7♣", "play A♠"]}
    back = codec.decode(data, Seen)
    assert type(back.legal_actions) is tuple
    assert back == lazy and back.legal_actions == (Play.of(0), Play.of(5), Play.of(51))
    assert codec.decode({"type": "Seen", "turn": 0, "legal_actions": []}, Seen) == Seen(0, ())
