"""The RL codec of Nestors: the codec check, the action index and the public facts."""

from __future__ import annotations

import pytest

from cardcore import load_game, parse_card
from cardcore.adapters import check_codec
from cardcore.testing import check_codec_hook
from cardcore_nestors import Bid, Leave, Pass, Phase, Play, Take, Trump
from cardcore_nestors.encoding import FACTS_SIZE, nestors_actions, nestors_facts


@pytest.mark.parametrize("preset", ["default", "pagat"])
def test_codec_check_passes(preset: str) -> None:
    """check_codec passes: fixed index, exact masks, sizes, values, observation only."""
    report = check_codec("nestors", 4, games=2, preset=preset, threshold=200, seed=3)
    assert report.num_actions == 744
    assert report.decisions > 100
    assert report.twins > 0


def test_the_hooks_declare_the_codec_by_reference() -> None:
    """The hooks declare the codec by reference: listing the games imports no NumPy."""
    check_codec_hook("nestors")


def test_action_index_lists_every_kind_of_action_once() -> None:
    """Pass, 38 bids, 3 trumps, 630 takes, 36 plays and 36 leaves, in that order."""
    actions = list(nestors_actions())
    assert len(actions) == len(set(actions)) == 1 + 38 + 3 + 630 + 36 + 36
    assert actions[0] == Pass()
    assert actions[1] == Bid(5) and actions[38] == Bid(190)
    assert actions[39:42] == [Trump(14), Trump(11), Trump(10)]
    assert Take((parse_card("9♠"), parse_card("K♦"))) in actions[42:672]
    assert actions[672] == Play(parse_card("6♣"))
    assert actions[-1] == Leave(parse_card("A♠"))


def test_facts_of_the_first_decision() -> None:
    """At the first call: auction phase, no scores, the dealer known, no bid or trump."""
    game = load_game("nestors")
    state = game.initial_state(4, 5, dealer=2)
    seat = game.current_player(state)
    assert seat is not None
    facts = nestors_facts(game.observe(state, seat), 1000, 420)
    assert len(facts) == FACTS_SIZE
    phases = list(Phase)
    assert facts[: len(phases)] == [float(p is Phase.AUCTION) for p in phases]
    at = len(phases)
    assert facts[at : at + 4] == [0.0, 0.0, 0.0, 0.0]  # scores, then no team made a contract
    assert facts[at + 4] == pytest.approx(1 / 420)  # deal 1
    assert facts[at + 5 : at + 9] == [0.0, 0.0, 1.0, 0.0]  # seat 2 deals
    assert all(-1.0 <= x <= 1.0 for x in facts)


def test_packed_facts_are_the_facts_as_float32() -> None:
    """The codec's packed facts equal ``nestors_facts`` packed, for every seat all through
    two deals played in turns (so records of one game never answer for the other)."""
    import random
    import struct

    from cardcore_nestors.encoding import nestors_facts_packer

    game = load_game("nestors")
    packed = nestors_facts_packer(1000, 420)
    rng = random.Random(3)
    states = [game.initial_state(4, seed) for seed in (4, 5)]
    checked = 0
    for _ in range(150):
        for i, state in enumerate(states):
            if game.current_player(state) is None:
                continue
            for seat in (-1, 0, 1, 2, 3):
                obs = game.observe(state, seat)
                want = struct.pack(f"<{FACTS_SIZE}f", *nestors_facts(obs, 1000, 420))
                assert packed(obs) == want
                assert nestors_facts_packer(1000, 420)(obs) == want  # nothing remembered
                checked += 1
            legal = game.legal_actions(state)
            states[i] = game.apply(state, legal[rng.randrange(len(legal))])
    assert checked > 1000
