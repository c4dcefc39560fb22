"""The RL codec of Box: the codec check, the action index and the public facts."""

from __future__ import annotations

from typing import Any

import pytest

from cardcore import load_game, parse_card
from cardcore.adapters import check_codec
from cardcore.testing import check_codec_hook
from cardcore_box import Box
from cardcore_box.actions import Play, TurnUp
from cardcore_box.encoding import FACTS_SIZE, LAST_PLAYS, box_actions, box_facts


@pytest.mark.parametrize("preset", ["default", "pagat"])
def test_codec_check_passes(preset: str) -> None:
    """check_codec passes: fixed index, exact masks, sizes, values, observation only."""
    report = check_codec("box", 4, games=3, preset=preset, seed=11)
    assert report.num_actions == 53
    assert report.decisions > 60
    assert report.twins > 0


def test_the_hooks_declare_the_codec_by_reference() -> None:
    """The hooks declare the codec by reference: listing the games imports no NumPy."""
    check_codec_hook("box")


def test_action_index_order() -> None:
    """Turn up, then one play per card in card order."""
    actions = list(box_actions())
    assert len(actions) == len(set(actions)) == 53
    assert actions[0] == TurnUp()
    assert actions[1] == Play(parse_card("2♣"))
    assert actions[-1] == Play(parse_card("A♠"))


def test_facts_track_the_round() -> None:
    """The dealer, leader and direction are known from the start; plays are recorded."""
    game = load_game("box")
    assert isinstance(game, Box)
    state = game.initial_state(4, 3, dealer=1)
    obs = game.observe(state, 0)
    facts = box_facts(obs)
    assert len(facts) == FACTS_SIZE
    assert facts[:4] == [0.0, 1.0, 0.0, 0.0]  # seat 1 deals
    assert facts[5:9] == [0.0, 0.0, 1.0, 0.0]  # seat 2 leads
    assert facts[9] == 1.0  # clockwise
    state = game.apply(state, game.legal_actions(state)[0])
    facts = box_facts(game.observe(state, 0))
    latest = 4 + 1 + 4 + 1 + 4 + 4
    assert facts[latest : latest + 5] == [0.0, 0.0, 1.0, 0.0, 0.0]  # seat 2 played, from hand
    assert facts[latest + 5 : latest + 5 * LAST_PLAYS] == [0.0] * (5 * LAST_PLAYS - 5)
    assert all(-1.0 <= x <= 1.0 for x in facts)


def test_packed_fact_tables_are_never_stale() -> None:
    """Packed facts equal the facts worked out afresh, with two games played in turns
    (so the packed tables serve both) and with the tables emptied before each check."""
    import random
    import struct

    from cardcore_box import encoding

    game = load_game("box")
    rng = random.Random(5)
    states = [game.initial_state(4, seed, dealer=0) for seed in (1, 2)]
    seen = []
    while any(game.current_player(s) is not None for s in states):
        for i, state in enumerate(states):
            if game.current_player(state) is None:
                continue
            for seat in (-1, 0, 1, 2, 3):
                obs = game.observe(state, seat)
                seen.append((obs, encoding.box_facts_bytes(obs)))
            legal = game.legal_actions(state)
            states[i] = game.apply(state, legal[rng.randrange(len(legal))])
    assert len(seen) > 100
    assert any(obs.last_round is not None and obs.last_round.eliminated for obs, _ in seen)
    for obs, packed in seen:
        for table in (encoding._OUT_BYTES, encoding._ELIMINATED_BYTES, encoding._DRAW_BYTES):
            table.clear()
        assert packed == encoding.box_facts_bytes(obs)
        assert packed == struct.pack(f"<{FACTS_SIZE}f", *box_facts(obs))


def test_packed_facts_are_the_facts_as_float32() -> None:
    """The codec's packed facts are exactly ``box_facts`` packed, all through a game."""
    import random
    import struct

    from cardcore_box.encoding import box_facts_bytes

    game = load_game("box", preset="pagat")
    rng = random.Random(2)
    state = game.initial_state(4, 9)
    checked = 0
    while game.current_player(state) is not None:
        for seat in (-1, 0, 1, 2, 3):
            obs = game.observe(state, seat)
            assert box_facts_bytes(obs) == struct.pack(f"<{FACTS_SIZE}f", *box_facts(obs))
            checked += 1
        legal = game.legal_actions(state)
        state = game.apply(state, legal[rng.randrange(len(legal))])
    assert checked > 50


@pytest.mark.parametrize("preset", ["default", "pagat"])
def test_packed_history_equals_the_plain_history_over_many_games(preset: str) -> None:
    """The per-card history packed once per round and patched per card (BX-8.1) equals
    ``box_facts`` packed afresh, for every seat, over many seeded random games played
    three at a time (so the kept packings switch between games)."""
    import random
    import struct

    from cardcore_box.encoding import box_facts_bytes

    game = load_game("box", preset=preset)
    rng = random.Random(17)
    checked = boxed = 0
    for first in range(0, 24, 3):
        states = [game.initial_state(4, seed) for seed in range(first, first + 3)]
        while any(game.current_player(s) is not None for s in states):
            for i, state in enumerate(states):
                if game.current_player(state) is None:
                    continue
                for seat in (-1, 0, 1, 2, 3):
                    obs = game.observe(state, seat)
                    plain = struct.pack(f"<{FACTS_SIZE}f", *box_facts(obs))
                    assert box_facts_bytes(obs) == plain
                    checked += 1
                    boxed += True in obs.from_box
                legal = game.legal_actions(state)
                states[i] = game.apply(state, legal[rng.randrange(len(legal))])
    assert checked > 2000
    assert boxed > 100  # box plays in the current round were written too


@pytest.mark.parametrize("preset", ["default", "pagat"])
def test_the_history_of_the_next_step_writes_only_the_new_plays(
    preset: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Observed step by step, as an environment does, the current round's history is the
    last one with the new play written (BX-8.1), and a finished round's history is the
    current round's with its last play: one card a step, not the whole round, and the
    same bytes as ``box_facts`` packed afresh."""
    import random
    import struct

    from cardcore_box import encoding

    written: list[int] = []
    write = encoding._write_plays

    def counting(out: bytearray, cards: tuple[int, ...], *rest: Any) -> None:
        written.append(len(cards))
        write(out, cards, *rest)

    monkeypatch.setattr(encoding, "_write_plays", counting)
    game = load_game("box", preset=preset)
    rng = random.Random(3)
    afresh = 0  # the cards written if every observation wrote its round's plays
    for seed in range(4):
        state = game.initial_state(4, seed)
        while (player := game.current_player(state)) is not None:
            for seat in (player, -1):  # the mover, then a spectator: the same plays
                obs = game.observe(state, seat)
                plain = struct.pack(f"<{FACTS_SIZE}f", *box_facts(obs))
                assert encoding.box_facts_bytes(obs) == plain
                afresh += len(obs.played_by)
            legal = game.legal_actions(state)
            state = game.apply(state, legal[rng.randrange(len(legal))])
    assert len(written) > 100 and afresh > 4 * len(written)
    # Each play is written once: in the step after it, or as a round ends, its last play
    # onto the history its earlier plays were written in.
    assert set(written) == {1}


def test_writing_plays_of_unequal_lengths_is_refused() -> None:
    """The history writer checks its three tuples, as ``zip(strict=True)`` did."""
    from cardcore_box import encoding

    out = bytearray(4 * encoding._HISTORY_SIZE)
    with pytest.raises(ValueError, match="2 cards, 1 players, 2 flags"):
        encoding._write_plays(out, (3, 4), (0,), (False, True), 1)
    encoding._write_plays(out, (3,), (2,), (True,), 1)
    assert out[encoding._CARD_BYTES * 3 + 8 : encoding._CARD_BYTES * 3 + 12] == b"\0\0\x80\x3f"
