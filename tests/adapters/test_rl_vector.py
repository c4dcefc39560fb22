"""Vectorised environments: Gymnasium's async vector env, and the PettingZoo Parallel API.

An async vector env runs each environment in a subprocess; it must give exactly what the
sync vector env gives for the same seeds, episode ends and resets included.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest
from pettingzoo.test import parallel_api_test

from cardcore import IllegalActionError
from cardcore.adapters import gymnasium as cg
from cardcore.adapters import pettingzoo as pz

# (game, options): Nestors to 100 points keeps its episodes short.
CASES: list[tuple[str, dict[str, Any]]] = [
    ("box", {}),
    ("nestors", {"threshold": 100}),
    ("noddy", {}),
    ("nyuri", {}),
]


def _pick(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A random legal index per environment (0 where the mask is empty: an autoreset step)."""
    out = []
    for mask in masks:
        legal = np.flatnonzero(mask)
        out.append(int(legal[rng.integers(len(legal))]) if len(legal) else 0)
    return np.array(out)


def _run(mode: str, game: str, options: dict[str, Any], ends: int) -> list[tuple[Any, ...]]:
    """Step a 2-env vector env of ``mode`` until ``ends`` episodes ended; every result."""
    envs = gymnasium.make_vec(
        f"cardcore/{game}-v0",
        num_envs=2,
        vectorization_mode=mode,
        opponents=["random"],
        **options,
    )
    try:
        obs, _ = envs.reset(seed=11)
        rng = np.random.default_rng(5)
        out: list[tuple[Any, ...]] = [(obs["observation"].copy(), obs["action_mask"].copy())]
        ended = 0
        while ended < ends:
            obs, reward, terminated, truncated, _ = envs.step(_pick(obs["action_mask"], rng))
            ended += int(terminated.sum())
            out.append(
                (
                    obs["observation"].copy(),
                    obs["action_mask"].copy(),
                    reward.copy(),
                    terminated.copy(),
                    truncated.copy(),
                )
            )
        return out
    finally:
        envs.close()


@pytest.mark.parametrize(("game", "options"), CASES, ids=[g for g, _ in CASES])
def test_an_async_vector_env_gives_what_the_sync_one_gives(
    game: str, options: dict[str, Any]
) -> None:
    """Subprocess environments step to several episode ends exactly as in-process ones."""
    cg.register_envs()
    sync = _run("sync", game, options, ends=4)
    async_ = _run("async", game, options, ends=4)
    assert len(sync) == len(async_) > 4
    for one, other in zip(sync, async_, strict=True):
        for a, b in zip(one, other, strict=True):
            np.testing.assert_array_equal(a, b)
    assert any(row[2].any() for row in sync[1:])  # some episode paid a reward


@pytest.mark.parametrize(("game", "options"), CASES, ids=[g for g, _ in CASES])
def test_the_parallel_env_passes_pettingzoo_parallel_api_test(
    game: str, options: dict[str, Any]
) -> None:
    """PettingZoo's own check of the Parallel API passes for every game."""
    parallel_api_test(pz.parallel_env(game, None, **options), num_cycles=60)


def test_the_parallel_env_plays_the_aec_game() -> None:
    """Seeded alike, the Parallel and AEC environments show every agent the same game."""
    par = pz.parallel_env("nyuri", 3)
    aec = pz.env("nyuri", 3)
    observations, _ = par.reset(seed=4)
    aec.reset(seed=4)
    rng = np.random.default_rng(1)
    rewards: dict[str, float] = {}
    while par.agents:
        for agent in par.possible_agents:
            mine, theirs = observations[agent], aec.observe(agent)
            np.testing.assert_array_equal(mine["observation"], theirs["observation"])
            np.testing.assert_array_equal(mine["action_mask"], theirs["action_mask"])
        mover = par.agent_selection
        assert mover == aec.agent_selection
        legal = np.flatnonzero(observations[mover]["action_mask"])
        action = int(legal[rng.integers(len(legal))])
        observations, rewards, terminations, _, _ = par.step({mover: action})
        aec.step(action)
    assert all(terminations.values())
    assert rewards == {a: aec.rewards[a] for a in par.possible_agents}
    assert sum(rewards.values()) == pytest.approx(1.0)


def test_the_parallel_env_needs_the_movers_action() -> None:
    """A step without the agent to move's action is refused and changes nothing."""
    par = pz.parallel_env("noddy", 2)
    before, _ = par.reset(seed=2)
    others = {a: 0 for a in par.possible_agents if a != par.agent_selection}
    with pytest.raises(IllegalActionError, match="is to move"):
        par.step(others)
    again = {a: par.aec_env.observe(a) for a in par.possible_agents}
    for agent in par.possible_agents:
        np.testing.assert_array_equal(before[agent]["observation"], again[agent]["observation"])
