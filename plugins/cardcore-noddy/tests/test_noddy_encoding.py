"""The RL codec of Noddy: the codec check, the action index and the public facts."""

from __future__ import annotations

import random
import struct

import pytest

from cardcore import load_game, parse_card
from cardcore.adapters import check_codec
from cardcore.testing import check_codec_hook
from cardcore_noddy import Noddy
from cardcore_noddy.actions import Pass, Play, ShowKnave
from cardcore_noddy.encoding import (
    FACTS_SIZE,
    noddy_actions,
    noddy_facts,
    noddy_facts_packer,
)
from cardcore_noddy.state import Phase, Shown


@pytest.mark.parametrize("preset", ["default", "historical"])
def test_codec_check_passes(preset: str) -> None:
    """check_codec passes: fixed index, exact masks, sizes, values, observation only."""
    report = check_codec("noddy", 2, games=6, preset=preset, seed=5)
    assert report.num_actions == 54
    assert report.decisions > 50
    assert report.twins > 0


def test_the_hooks_declare_the_codec_by_reference() -> None:
    """The hooks declare the codec by reference: listing the games imports no NumPy."""
    check_codec_hook("noddy")


def test_action_index_order() -> None:
    """Pass, show knave, then one play per card in card order."""
    actions = list(noddy_actions())
    assert len(actions) == len(set(actions)) == 54
    assert actions[:2] == [Pass(), ShowKnave()]
    assert actions[2] == Play(parse_card("2♣"))
    assert actions[-1] == Play(parse_card("A♠"))


def test_facts_follow_the_hand() -> None:
    """Facts start at zero scores with the dealer known, and record this hand's shows."""
    game = load_game("noddy")
    assert isinstance(game, Noddy)
    state = game.initial_state(2, 4, dealer=1)
    obs = game.observe(state, 0)
    facts = noddy_facts(obs, 31)
    assert len(facts) == FACTS_SIZE
    phases = list(Phase)
    assert facts[: len(phases)] == [float(p is obs.phase) for p in phases]
    at = len(phases)
    assert facts[at + 2 : at + 4] == [0.0, 1.0]  # seat 1 deals
    while not any(isinstance(e, Shown) for e in obs.events):
        state = game.apply(state, game.legal_actions(state)[0])
        obs = game.observe(state, 0)
    shows = {e.seat: e.points for e in obs.events if isinstance(e, Shown)}
    facts = noddy_facts(obs, 31)
    show_facts = facts[at + 8 : at + 12]
    for seat, points in shows.items():
        assert show_facts[2 * seat : 2 * seat + 2] == [1.0, pytest.approx(points / 20)]
    assert all(-1.0 <= x <= 1.0 for x in facts)


@pytest.mark.parametrize("preset", ["default", "historical"])
def test_packed_facts_are_the_facts(preset: str) -> None:
    """The codec's packed facts are noddy_facts as float32s, at every step of many games."""
    game = load_game("noddy", preset=preset)
    assert isinstance(game, Noddy)
    target = game.options.target
    packed = noddy_facts_packer(target)
    rng = random.Random(5)
    steps = 0
    for seed in range(25):
        state = game.initial_state(2, seed)
        while game.current_player(state) is not None:
            for s in (0, 1):
                obs = game.observe(state, s)
                assert packed(obs) == struct.pack(f"<{FACTS_SIZE}f", *noddy_facts(obs, target))
            legal = game.legal_actions(state)
            state = game.apply(state, legal[rng.randrange(len(legal))])
            steps += 1
    assert steps > 500
