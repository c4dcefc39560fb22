"""The PettingZoo AEC environment: API test, seeding, rewards, masks, rendering."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from cardcore import GameSpec, IllegalActionError, Outcome, PluginHost, hookimpl, load_game
from cardcore.adapters import CodecError, CodecRegistry, CodecSpec, legal_indices
from cardcore.adapters.pettingzoo import CardcoreAECEnv, env

ROOT = Path(__file__).resolve().parents[2]

# api_test warns about things that are right for a card game: observations are Dict
# spaces with an "action_mask" (PettingZoo's own convention, but api_test only exempts its
# classic envs, by name), and a finished agent has no legal action, so its mask is zeros.
IGNORE_DICT_OBS = "ignore:Observation is not a NumPy array"
IGNORE_DICT_SPACE = "ignore:Observation space for each agent probably should be"
IGNORE_DONE_MASK = "ignore:Action mask numpy array is all zeros"


@pytest.fixture
def support(monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.syspath_prepend(str(ROOT))
    from tests.adapters import rl_highcard

    return rl_highcard


@pytest.fixture
def registry(support: Any) -> CodecRegistry:
    reg: CodecRegistry = support.highcard_registry()
    return reg


def play_out(e: CardcoreAECEnv, rng: np.random.Generator) -> Iterator[tuple[str, Any]]:
    """Play random masked actions to the end; yield (agent, last()) at every turn."""
    for agent in e.agent_iter():
        last = e.last()
        yield agent, last
        obs, _, terminated, truncated, _ = last
        if terminated or truncated:
            e.step(None)
        else:
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


@pytest.mark.filterwarnings(IGNORE_DICT_OBS, IGNORE_DICT_SPACE, IGNORE_DONE_MASK)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_api_test_passes(registry: CodecRegistry, players: int) -> None:
    """PettingZoo's own api_test passes for every player count."""
    api_test(env("highcard", players, registry=registry), num_cycles=60)


@pytest.mark.parametrize("players", [2, 4])
def test_seed_test_passes(registry: CodecRegistry, players: int) -> None:
    """PettingZoo's seed_test: two environments with one seed play alike."""
    seed_test(functools.partial(env, "highcard", players, registry=registry), num_cycles=40)


def test_same_seed_same_game_other_seed_other_game(registry: CodecRegistry) -> None:
    """reset(seed=s) fixes the deal; another seed deals differently; unseeded resets go on."""
    e = env("highcard", 3, registry=registry)
    e.reset(seed=11)
    first = [e.observe(a)["observation"] for a in e.agents]
    e.reset(seed=11)
    assert all(
        np.array_equal(x, e.observe(a)["observation"]) for x, a in zip(first, e.agents, strict=True)
    )
    e.reset(seed=12)
    assert not all(
        np.array_equal(x, e.observe(a)["observation"]) for x, a in zip(first, e.agents, strict=True)
    )
    e.reset(seed=11)
    e.reset()
    after = [e.observe(a)["observation"] for a in e.agents]
    e.reset(seed=11)
    e.reset()
    assert all(
        np.array_equal(x, e.observe(a)["observation"]) for x, a in zip(after, e.agents, strict=True)
    )


def test_mask_is_the_legal_actions_of_the_seat_to_move(registry: CodecRegistry) -> None:
    """The mover's mask marks exactly its legal actions; every other seat's is all zeros."""
    e = env("highcard", 4, registry=registry)
    e.reset(seed=3)
    rng = np.random.default_rng(0)
    turns = 0
    for agent, (obs, _, terminated, _, _) in play_out(e, rng):
        if terminated:
            continue
        turns += 1
        seat = e.possible_agents.index(agent)
        state = e.game_state
        assert e.game.current_player(state) == seat
        legal = legal_indices(e.codec, e.game.observe(state, seat))
        assert sorted(np.flatnonzero(obs["action_mask"]).tolist()) == sorted(legal)
        assert obs["action_mask"].dtype == np.int8
        assert obs["observation"].dtype == np.float32
        for other in e.agents:
            if other != agent:
                assert not e.observe(other)["action_mask"].any()
    assert turns == 4 * 3


def test_observations_are_fresh_writable_arrays(registry: CodecRegistry) -> None:
    """Each call returns new arrays an agent may change without touching the next ones."""
    e = env("highcard", 2, registry=registry)
    e.reset(seed=5)
    agent = e.agent_selection
    first = e.observe(agent)
    second = e.observe(agent)
    for key in ("observation", "action_mask"):
        assert first[key].flags.writeable
        assert not np.shares_memory(first[key], second[key])
        first[key][:] = 0
    assert second["action_mask"].any()
    assert second["observation"].any()
    third = e.observe(agent)
    assert np.array_equal(third["action_mask"], second["action_mask"])
    assert np.array_equal(third["observation"], second["observation"])


class PlainCodec:
    """A codec that is not a TableCodec: the environments take the general path."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.observation_size = inner.observation_size
        self.num_actions = inner.num_actions

    def encode(self, observation: Any) -> list[float]:
        return list(self.inner.encode(observation))

    def action_index(self, action: Any) -> int:
        return int(self.inner.action_index(action))

    def action_at(self, index: int) -> Any:
        return self.inner.action_at(index)


@pytest.mark.filterwarnings(IGNORE_DICT_OBS, IGNORE_DICT_SPACE, IGNORE_DONE_MASK)
def test_any_codec_gives_the_same_observations(support: Any) -> None:
    """A plain codec object works like the TableCodec it wraps, step for step."""
    plain = CodecRegistry(load_entrypoints=False)
    plain.register(
        CodecSpec(
            game="highcard",
            factory=lambda game, n: PlainCodec(support.highcard_codec(game, n)),
            description="plain",
        )
    )
    api_test(env("highcard", 3, registry=plain), num_cycles=30)
    a = env("highcard", 3, registry=support.highcard_registry())
    b = env("highcard", 3, registry=plain)
    a.reset(seed=4)
    b.reset(seed=4)
    rng = np.random.default_rng(1)
    steps = 0
    for agent in a.agent_iter():
        obs_a, _, done, _, _ = a.last()
        obs_b, _, _, _, _ = b.last()
        assert agent == b.agent_selection
        assert np.array_equal(obs_a["observation"], obs_b["observation"])
        assert np.array_equal(obs_a["action_mask"], obs_b["action_mask"])
        action = None if done else int(rng.choice(np.flatnonzero(obs_a["action_mask"])))
        a.step(action)
        b.step(action)
        steps += 1
    assert steps > 10


def test_rewards_are_the_outcome_at_the_end(registry: CodecRegistry) -> None:
    """Nothing is paid until the end; then each agent's reward is Outcome.reward(seat)."""
    e = env("highcard", 3, registry=registry)
    e.reset(seed=5)
    rng = np.random.default_rng(1)
    final: dict[str, float] = {}
    outcome: Outcome | None = None
    for agent, (_, reward, terminated, _, info) in play_out(e, rng):
        if terminated:
            final[agent] = reward
            outcome = info["outcome"]
        else:
            assert reward == 0.0
    assert outcome is not None
    assert final == {f"player_{s}": outcome.reward(s) for s in range(3)}
    assert sum(final.values()) == pytest.approx(1.0)
    assert e.agents == []


class TeamHighcard:
    """Highcard for four with partnerships 0+2 and 1+3 (a team's rounds count together)."""

    name = "teamcard"
    min_players = max_players = 4

    def __init__(self, options: Any) -> None:
        self._inner = load_game("highcard", hand_size=options.hand_size)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def teams(self, num_players: int) -> tuple[tuple[int, ...], ...]:
        return ((0, 2), (1, 3))

    def outcome(self, state: Any) -> Outcome | None:
        if self._inner.outcome(state) is None:
            return None
        w = state.wins
        team = (w[0] + w[2], w[1] + w[3])
        return Outcome.from_scores([team[s % 2] for s in range(4)], teams=self.teams(4))


def test_partnerships_share_the_team_reward(support: Any) -> None:
    """In a partnership game both partners receive their team's win share."""
    from cardcore_highcard import HighcardOptions

    class Plugin:
        @hookimpl
        def cardcore_register_games(self) -> Iterator[GameSpec]:
            yield GameSpec(
                name="teamcard",
                title="Team high card",
                factory=TeamHighcard,
                options_type=HighcardOptions,
                presets={"default": HighcardOptions(hand_size=5)},
                min_players=4,
                max_players=4,
            )

    host = PluginHost(load_entrypoints=False)
    host.register(Plugin())
    reg = CodecRegistry(load_entrypoints=False)
    reg.register(CodecSpec(game="teamcard", factory=support.highcard_codec))
    e = env("teamcard", host=host, registry=reg)
    assert e.num_players == 4
    seen_outcomes = set()
    for seed in range(6):
        e.reset(seed=seed)
        final = {a: r for a, (_, r, t, _, _) in play_out(e, np.random.default_rng(seed)) if t}
        assert final["player_0"] == final["player_2"]
        assert final["player_1"] == final["player_3"]
        assert final["player_0"] + final["player_1"] == pytest.approx(1.0)
        seen_outcomes.add(final["player_0"])
    assert seen_outcomes - {0.5}  # some games were won outright, not only ties


def test_illegal_action_raises_and_changes_nothing(registry: CodecRegistry) -> None:
    """A masked-out or out-of-range index raises IllegalActionError; the game is unchanged."""
    e = env("highcard", 2, registry=registry)
    e.reset(seed=2)
    before = e.game_state
    obs = e.observe(e.agent_selection)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError):
        e.step(illegal)
    with pytest.raises(IllegalActionError, match=r"outside 0\.\.51"):
        e.step(52)
    with pytest.raises(IllegalActionError, match="must act"):
        e.step(None)
    assert e.game_state == before
    e.step(np.int64(np.flatnonzero(obs["action_mask"])[0]))  # numpy integers are fine
    assert e.game_state != before


def test_render_modes(registry: CodecRegistry, capsys: pytest.CaptureFixture[str]) -> None:
    """render() gives the onlooker's text: returned (ansi, None) or printed (human)."""
    e = env("highcard", 2, render_mode="ansi", registry=registry)
    assert e.render() is None  # nothing dealt yet
    e.reset(seed=0)
    text = e.render()
    assert isinstance(text, str) and text.startswith("High card, 2 players")
    assert "?" in text  # the onlooker sees no hand
    human = env("highcard", 2, render_mode="human", registry=registry)
    human.reset(seed=0)
    assert human.render() is None
    assert capsys.readouterr().out.strip() == text
    with pytest.raises(ValueError, match="render_mode"):
        env("highcard", 2, render_mode="rgb_array", registry=registry)
    e.close()


def test_construction_errors(registry: CodecRegistry) -> None:
    """Bad player counts and games without a codec are refused at construction."""
    with pytest.raises(ValueError, match="2-4 players, not 5"):
        env("highcard", 5, registry=registry)
    with pytest.raises(CodecError, match="cardcore_register_codecs"):
        env("highcard", 2, registry=CodecRegistry(load_entrypoints=False))
    e = env("highcard", registry=registry, preset="quick")
    assert e.possible_agents == ["player_0", "player_1"]
    assert str(e) == "cardcore_highcard_v0"
    e.reset(seed=0)
    assert e.np_random is not None
