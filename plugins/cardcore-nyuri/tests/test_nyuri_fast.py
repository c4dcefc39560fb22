"""The hot-path constructors build exactly what the attrs constructors build."""

from __future__ import annotations

import random

import attrs

from cardcore import load_game
from cardcore_nyuri.state import NyuriState, TurnRecord
from cardcore_nyuri.state import new_record as _record
from cardcore_nyuri.state import new_state as _state


def test_fast_constructors_build_the_attrs_records() -> None:
    """Every state and turn record of random games, rebuilt both ways, is the same value."""
    game = load_game("nyuri")
    rng = random.Random(4)
    records = 0
    for seed in range(3):
        state = game.initial_state(3, seed)
        while game.current_player(state) is not None:
            fields = attrs.astuple(state, recurse=False)
            fast = _state(*fields)
            assert type(fast) is NyuriState
            assert fast == NyuriState(**attrs.asdict(state, recurse=False)) == state
            assert hash(fast) == hash(state) and repr(fast) == repr(state)
            if state.last is not None:
                parts = attrs.astuple(state.last, recurse=False)
                record = _record(*parts)
                assert type(record) is TurnRecord
                slow = TurnRecord(**attrs.asdict(state.last, recurse=False))
                assert record == slow == state.last
                records += 1
            legal = game.legal_actions(state)
            state = game.apply(state, legal[rng.randrange(len(legal))])
    assert records > 20
