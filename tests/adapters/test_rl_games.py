"""Every installed game with a codec passes the PettingZoo, Gymnasium and codec checks.

Games run with options that keep a game short where the rules allow it (Nestors to 200
points instead of 1000), so the whole file stays fast.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from cardcore.adapters import check_codec, default_registry
from cardcore.adapters import gymnasium as cg
from cardcore.adapters import pettingzoo as pz

# (game, player count, options)
CASES: list[tuple[str, int, dict[str, Any]]] = [
    ("box", 4, {}),
    ("nestors", 4, {"threshold": 200}),
    ("noddy", 2, {}),
    ("nyuri", 2, {}),
    ("nyuri", 3, {}),
    ("nyuri", 4, {}),
]
IDS = [f"{g}-{n}p" for g, n, _ in CASES]

# See test_rl_pettingzoo_env.py: api_test's warnings about Dict observations with an
# action mask, and about the all-zero mask of a finished agent, do not apply.
API_TEST_FILTERS = (
    "ignore:Observation is not a NumPy array",
    "ignore:Observation space for each agent probably should be",
    "ignore:Action mask numpy array is all zeros",
)


def test_every_game_case_has_an_installed_codec() -> None:
    """The cases below are real: each game declares its codec through the plugin hook."""
    specs = default_registry().specs()
    for game, _, _ in CASES:
        assert game in specs
        assert specs[game].source == game


@pytest.mark.filterwarnings(*API_TEST_FILTERS)
@pytest.mark.parametrize(("game", "players", "options"), CASES, ids=IDS)
def test_pettingzoo_api_test(game: str, players: int, options: dict[str, Any]) -> None:
    """PettingZoo's api_test passes."""
    api_test(pz.env(game, players, **options), num_cycles=40)


@pytest.mark.parametrize(("game", "players", "options"), CASES, ids=IDS)
def test_pettingzoo_seed_test(game: str, players: int, options: dict[str, Any]) -> None:
    """PettingZoo's seed_test passes: one seed, one game."""
    seed_test(functools.partial(pz.env, game, players, **options), num_cycles=30)


@pytest.mark.parametrize(("game", "players", "options"), CASES, ids=IDS)
def test_gymnasium_check_env(game: str, players: int, options: dict[str, Any]) -> None:
    """Gymnasium's check_env passes for the last seat against random bots."""
    e = cg.env(game, players - 1, ["random"], players, render_mode="ansi", **options)
    check_env(e)


@pytest.mark.parametrize(("game", "players", "options"), CASES, ids=IDS)
def test_codec_check(game: str, players: int, options: dict[str, Any]) -> None:
    """check_codec passes."""
    check_codec(game, players, games=1, seed=9, **options)


@pytest.mark.parametrize(("game", "players", "options"), CASES, ids=IDS)
def test_a_whole_game_pays_the_outcome(game: str, players: int, options: dict[str, Any]) -> None:
    """A masked random game ends with every seat paid Outcome.reward(seat) (teams alike)."""
    e = pz.env(game, players, **options)
    e.reset(seed=2)
    rng = np.random.default_rng(2)
    paid: dict[int, float] = {}
    outcome = None
    for agent in e.agent_iter():
        obs, reward, terminated, _, info = e.last()
        if terminated:
            paid[e.possible_agents.index(agent)] = reward
            outcome = info["outcome"]
            e.step(None)
        else:
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert outcome is not None
    assert paid == {s: outcome.reward(s) for s in range(players)}
    for team in e.game.teams(players) or ():
        assert len({paid[s] for s in team}) == 1


@pytest.mark.parametrize(("game", "players", "options"), CASES, ids=IDS)
def test_the_mask_is_the_legal_indices(game: str, players: int, options: dict[str, Any]) -> None:
    """The environment's mask (filled by identity, lazy part by part, steal sets by mask)
    marks exactly the indexes of the legal actions, every step of a few games."""
    import random

    from cardcore.adapters import legal_indices

    env = pz.env(game, players, **options)
    env.reset(seed=3)
    rng = random.Random(3)
    steps = 0
    for _ in range(4):
        env.reset()
        while env.agents:
            obs, _, terminated, _, _ = env.last()
            if terminated:
                env.step(None)
                continue
            seen = env.game.observe(env.game_state, env._seat_of[env.agent_selection])
            legal = sorted(legal_indices(env.codec, seen))
            assert np.flatnonzero(obs["action_mask"]).tolist() == legal
            env.step(legal[rng.randrange(len(legal))])
            steps += 1
    assert steps > 10


def test_an_action_missing_from_the_index_is_named() -> None:
    """A legal action the codec does not number is a KeyError naming it, lazy or not."""
    from cardcore import CardSubsets, ConcatActions
    from cardcore.adapters import ActionIndex, TableCodec
    from cardcore.adapters._spaces import ObservationEncoder

    env = pz.env("nyuri", 2)
    decline = env.game.parse_action("decline")
    steal: Any = type(env.game.parse_action("steal 2♣"))  # a CardAction class
    codec = env.codec
    assert isinstance(codec, TableCodec)
    few = TableCodec(codec.encoding, ActionIndex([decline, steal.of(0), steal.of(1)]))
    encode = ObservationEncoder(few)

    class Obs:
        legal_actions: Any = ConcatActions((decline,), CardSubsets(steal, 0b111, sizes=(2,)))

    with pytest.raises(KeyError, match="is not in the action index"):
        encode._fill(bytearray(3), Obs.legal_actions)
    mask = bytearray(3)
    encode._fill(mask, (decline, steal.of(1)))
    assert mask == b"\x01\x00\x01"
