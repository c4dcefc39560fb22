"""The single-agent Gymnasium environment: check_env, seeding, bots, illegal actions."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from cardcore import Outcome, PluginError
from cardcore.adapters import CodecRegistry
from cardcore.adapters.gymnasium import CardcoreEnv, env, register_envs

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def registry(monkeypatch: pytest.MonkeyPatch) -> CodecRegistry:
    monkeypatch.syspath_prepend(str(ROOT))
    from tests.adapters.rl_highcard import highcard_registry

    return highcard_registry()


def masked_episode(e: CardcoreEnv, seed: int) -> tuple[list[Any], float, dict[str, Any]]:
    """Play one episode with random legal actions; return observations, reward, last info."""
    rng = np.random.default_rng(seed)
    obs, info = e.reset(seed=seed)
    seen = [obs]
    while True:
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, reward, terminated, truncated, info = e.step(action)
        seen.append(obs)
        assert not truncated
        if terminated:
            return seen, float(reward), info
        assert reward == 0.0


@pytest.mark.parametrize(("players", "seat"), [(2, 0), (2, 1), (3, 2), (4, 1)])
def test_check_env_passes(registry: CodecRegistry, players: int, seat: int) -> None:
    """Gymnasium's check_env passes, render modes included (the env carries its spec)."""
    check_env(env("highcard", seat, ["random"], players, registry=registry, render_mode="ansi"))


def test_reward_is_the_seats_outcome(registry: CodecRegistry) -> None:
    """The episode pays Outcome.reward(seat) at the end and nothing before."""
    e = env("highcard", 1, ["random", "random"], registry=registry)
    assert e.num_players == 3
    rewards = set()
    for seed in range(8):
        _, reward, info = masked_episode(e, seed)
        outcome = info["outcome"]
        assert isinstance(outcome, Outcome)
        assert reward == outcome.reward(1)
        rewards.add(reward)
    assert len(rewards) > 1


def test_same_seed_same_episode(registry: CodecRegistry) -> None:
    """reset(seed=s) fixes the deal and every bot decision: the same actions replay alike."""
    a = env("highcard", 0, ["random"], 3, registry=registry, hand_size=6)
    b = env("highcard", 0, ["random"], 3, registry=registry, hand_size=6)
    first, r1, _ = masked_episode(a, 21)
    second, r2, _ = masked_episode(b, 21)
    assert r1 == r2
    assert len(first) == len(second)
    for x, y in zip(first, second, strict=True):
        assert np.array_equal(x["observation"], y["observation"])
        assert np.array_equal(x["action_mask"], y["action_mask"])
    third, _, _ = masked_episode(a, 22)
    assert not np.array_equal(first[0]["observation"], third[0]["observation"])


def test_illegal_action_ends_the_episode(registry: CodecRegistry) -> None:
    """An unmasked index ends the episode with reward -1 and info['illegal_action']."""
    e = env("highcard", 0, ["random"], registry=registry)
    obs, _ = e.reset(seed=4)
    before = e.game_state
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs2, reward, terminated, truncated, info = e.step(illegal)
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert info == {"illegal_action": True, "action": illegal}
    assert e.game_state == before
    assert np.array_equal(obs2["observation"], obs["observation"])
    with pytest.raises(RuntimeError, match="reset"):
        e.step(illegal)
    e.reset(seed=4)
    assert e.step(10_000)[1:3] == (-1.0, True)
    custom = env("highcard", 0, ["random"], registry=registry, illegal_action_reward=-5)
    obs, _ = custom.reset(seed=4)
    assert custom.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))[1] == -5.0


def test_what_the_agent_does_to_its_arrays_does_not_change_the_env(
    registry: CodecRegistry,
) -> None:
    """The env judges an action by the mask it observed, not by the arrays it handed out,
    and every step hands out new arrays."""
    e = env("highcard", 0, ["random"], registry=registry)
    obs, _ = e.reset(seed=4)
    legal = int(np.flatnonzero(obs["action_mask"])[0])
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs["action_mask"][:] = 0
    obs["action_mask"][illegal] = 1
    obs["observation"][:] = 0.5
    nxt, _, terminated, _, info = e.step(legal)
    assert "illegal_action" not in info
    assert not np.shares_memory(nxt["action_mask"], obs["action_mask"])
    assert not np.shares_memory(nxt["observation"], obs["observation"])
    if not terminated:
        nxt["action_mask"][:] = 1
        wrong = int(
            np.flatnonzero(e._encoder.encode(e.game.observe(e.game_state, 0))["action_mask"] == 0)[
                0
            ]
        )
        assert e.step(wrong)[4] == {"illegal_action": True, "action": wrong}


def test_opponents_are_checked_at_construction(registry: CodecRegistry) -> None:
    """Opponent lists must fit the player count; unknown bots fail before any reset."""
    with pytest.raises(ValueError, match="4 players need 3 opponents"):
        env("highcard", 0, ["random", "random"], 4, registry=registry)
    with pytest.raises(ValueError, match="name at least one bot"):
        env("highcard", 0, [], registry=registry)
    with pytest.raises(ValueError, match="seat must be 0-1"):
        env("highcard", 2, registry=registry)
    with pytest.raises(PluginError, match="unknown bot 'nobody'"):
        env("highcard", 0, ["nobody"], registry=registry)
    mixed = env("highcard", 1, ["ismcts", "random"], registry=registry)
    assert mixed.opponents == ("ismcts", "random")
    assert env("highcard", 0, "random", 4, registry=registry).opponents == ("random",) * 3


def test_render_text_and_human(registry: CodecRegistry, capsys: pytest.CaptureFixture[str]) -> None:
    """render() returns the onlooker's text, or prints it in human mode."""
    e = env("highcard", registry=registry)
    assert e.render() is None
    e.reset(seed=0)
    text = e.render()
    assert isinstance(text, str) and "High card" in text
    h = env("highcard", registry=registry, render_mode="human")
    h.reset(seed=0)
    assert h.render() is None
    assert capsys.readouterr().out.strip() == text


def test_register_envs_makes_gymnasium_make_work(registry: CodecRegistry) -> None:
    """register_envs adds cardcore/<game>-v0 ids; gymnasium.make builds working envs."""
    ids = register_envs(registry)
    assert ids == ["cardcore/highcard-v0"]
    made = gymnasium.make("cardcore/highcard-v0", opponents=["random"], num_players=2)
    obs, _ = made.reset(seed=3)
    space = made.observation_space
    assert isinstance(space, gymnasium.spaces.Dict)
    assert obs["observation"].shape == space["observation"].shape
    made.close()
    assert register_envs(registry) == ids  # idempotent
