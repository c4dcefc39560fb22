"""The RL codec of Nyuri: the codec check, the action index and the public facts."""

from __future__ import annotations

import random
import struct

import pytest

from cardcore import load_game, parse_card, parse_cards
from cardcore.adapters import check_codec, load_codec
from cardcore.testing import check_codec_hook
from cardcore_nyuri import Decline, Lay, Nyuri, Phase, Steal, Swap, TakeBack
from cardcore_nyuri.encoding import (
    facts_size,
    nyuri_actions,
    nyuri_facts,
    nyuri_facts_packer,
)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("preset", ["default", "pagat"])
def test_codec_check_passes(preset: str, players: int) -> None:
    """check_codec passes: fixed index, exact masks, sizes, values, observation only."""
    report = check_codec("nyuri", players, games=2, preset=preset, seed=players)
    assert report.num_actions == 23_845
    assert report.decisions > 5
    assert report.twins > 0


def test_the_hooks_declare_the_codec_by_reference() -> None:
    """The hooks declare the codec by reference: listing the games imports no NumPy."""
    check_codec_hook("nyuri")


def test_action_index_lists_every_action_once() -> None:
    """Three simple actions, 52 + 312 lays, and every steal of one to three cards."""
    actions = list(nyuri_actions())
    assert len(actions) == len(set(actions)) == 3 + 52 + 312 + 52 + 1326 + 22_100
    assert actions[:3] == [Decline(), TakeBack(), Swap()]
    assert actions[3] == Lay(parse_card("2♣"))
    assert Lay(parse_card("5♦"), parse_card("9♦")) in actions[55:367]
    assert all(a.guard is not None and a.guard.suit == a.card.suit for a in actions[55:367])  # type: ignore[union-attr]
    assert actions[367] == Steal(parse_cards("2♣"))
    assert actions[-1] == Steal(parse_cards("K♠ A♠ Q♠"))


def test_equal_actions_share_one_index() -> None:
    """An action however made (cards in any order, parsed, unpickled) has its one index."""
    import pickle

    game = load_game("nyuri")
    codec = load_codec("nyuri", 2)
    index = codec.action_index
    assert index(Steal(parse_cards("4♠ 4♦"))) == index(Steal(parse_cards("4♦ 4♠")))
    assert codec.action_at(index(Steal(parse_cards("4♦ 4♠")))) is Steal(parse_cards("4♠ 4♦"))
    for i in (0, 1, 2, 3, 60, 400, 23_844):
        a = codec.action_at(i)
        assert index(a) == index(game.parse_action(str(a))) == i
        assert index(pickle.loads(pickle.dumps(a))) == i
    assert index(Lay(parse_card("5♦"), parse_card("9♦"))) == index(
        Lay(parse_card("5♦"), parse_card("9♦"))
    )


def test_facts_of_the_first_lay() -> None:
    """At the first decision: lay phase, the dealer and layer known, no turn resolved."""
    game = load_game("nyuri")
    assert isinstance(game, Nyuri)
    state = game.initial_state(3, 8, dealer=2)
    obs = game.observe(state, 0)
    facts = nyuri_facts(obs, 200)
    assert len(facts) == facts_size(3)
    phases = list(Phase)
    assert facts[: len(phases)] == [float(p is Phase.LAY) for p in phases]
    at = len(phases)
    assert facts[at : at + 3] == [0.0, 0.0, 1.0]  # seat 2 deals
    assert facts[at + 3 : at + 6] == [1.0, 0.0, 0.0]  # seat 0 lays first
    assert facts[-(2 * 3 + 4) :] == [0.0] * (2 * 3 + 4)  # no turn resolved yet
    assert all(-1.0 <= x <= 1.0 for x in facts)


def test_remembered_turn_facts_are_never_stale() -> None:
    """Facts of the latest turn worked out once equal facts worked out afresh, with two
    games played in turns."""
    import random

    from cardcore_nyuri import encoding

    game = load_game("nyuri")
    assert isinstance(game, Nyuri)
    rng = random.Random(5)
    states = [game.initial_state(3, seed, dealer=0) for seed in (1, 2)]
    seen = []
    encode = encoding.nyuri_codec(game, 3).encoding.encode
    while any(game.current_player(s) is not None for s in states):
        for i, state in enumerate(states):
            if game.current_player(state) is None:
                continue
            for seat in (-1, 0, 1, 2):
                obs = game.observe(state, seat)
                seen.append((obs, encode(obs)))
            legal = game.legal_actions(state)
            states[i] = game.apply(state, legal[rng.randrange(len(legal))])
    assert len(seen) > 100
    for obs, encoded in seen:
        encoding._TURN_FACTS.clear()
        assert encode(obs) == encoded


@pytest.mark.parametrize("preset", ["default", "pagat"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_packed_facts_are_the_facts(preset: str, players: int) -> None:
    """The codec's packed facts are nyuri_facts as float32s, for every seat of many games."""
    game = load_game("nyuri", preset=preset)
    assert isinstance(game, Nyuri)
    limit = game.options.turn_limit
    packed = nyuri_facts_packer(players, limit)
    rng = random.Random(players)
    steps = 0
    for seed in range(8):
        state = game.initial_state(players, seed)
        while game.current_player(state) is not None:
            for s in range(players):
                obs = game.observe(state, s)
                floats = nyuri_facts(obs, limit)
                assert packed(obs) == struct.pack(f"<{len(floats)}f", *floats)
            legal = game.legal_actions(state)
            state = game.apply(state, legal[rng.randrange(len(legal))])
            steps += 1
    assert steps > 100
