"""A PettingZoo AEC environment for every cardcore game that declares a codec.

Example:
    >>> from cardcore.adapters import pettingzoo
    >>> env = pettingzoo.env("nyuri", num_players=3)  # doctest: +SKIP
    >>> env.reset(seed=1)  # doctest: +SKIP
    >>> for agent in env.agent_iter():  # doctest: +SKIP
    ...     obs, reward, terminated, truncated, info = env.last()
    ...     action = None if terminated else env.action_space(agent).sample(obs["action_mask"])
    ...     env.step(action)

One agent per seat (``player_0`` ...). ``agent_selection`` is always the seat to move.
Observations are ``{"observation": float32[size], "action_mask": int8[num_actions]}``;
the mask marks the agent's legal actions when it is to move and is all zeros otherwise.
The only rewards come at the end: each seat gets ``Outcome.reward(seat)``, its (team's)
share of the win, and every agent terminates. An action that is not legal raises
:class:`cardcore.IllegalActionError` and changes nothing.

:func:`parallel_env` is the same game through PettingZoo's Parallel API, for tools that
take that API: every step returns every agent's observation, and only the action of the
agent to move is played (the others' are ignored; their masks are all zeros).
"""

from __future__ import annotations

from typing import Any, final

from cardcore.adapters._extra import missing_rl

try:
    import numpy as np
    from gymnasium import spaces
    from gymnasium.utils import seeding
    from pettingzoo import AECEnv, ParallelEnv
except ModuleNotFoundError as _e:  # no rl extra: say which one to install
    raise missing_rl(__name__, _e) from None

from cardcore._game import IllegalActionError
from cardcore._host import PluginHost
from cardcore._table import SPECTATOR
from cardcore.adapters._registry import CodecRegistry
from cardcore.adapters._spaces import (
    RENDER_MODES,
    ObsDict,
    ObservationEncoder,
    check_render_mode,
    observation_space,
    resolve,
)

__all__ = ["CardcoreAECEnv", "CardcoreParallelEnv", "env", "parallel_env"]


@final
class CardcoreAECEnv(AECEnv):  # type: ignore[misc]  # pettingzoo ships no type information
    """A cardcore game as a PettingZoo AEC environment (build it with :func:`env`).

    Args:
        game_id: the game (``nyuri``).
        num_players: seats (default: the game's smallest count).
        render_mode: ``"ansi"`` (``render()`` returns the text), ``"human"`` (prints it)
            or ``None`` (returns it).
        host: the plugin host that builds the game (default: installed plugins).
        registry: where the game's codec is found (default: installed plugins').
        **options: the game's preset (``preset=...``) and option overrides.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 - PettingZoo's documented class attribute
        "name": "cardcore_v0",
        "render_modes": list(RENDER_MODES),
        "render_fps": 1,
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game_id: str,
        num_players: int | None = None,
        render_mode: str | None = None,
        *,
        host: PluginHost | None = None,
        registry: CodecRegistry | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        check_render_mode(render_mode)
        self.game, self.num_players, self.codec = resolve(
            game_id, num_players, options, host, registry
        )
        self.render_mode = render_mode
        self.metadata = {**type(self).metadata, "name": f"cardcore_{game_id.replace('-', '_')}_v0"}
        self.possible_agents: list[str] = [f"player_{i}" for i in range(self.num_players)]
        self._seat_of = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = observation_space(self.codec)
        act_space = spaces.Discrete(self.codec.num_actions)
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, act_space)
        self._encoder = ObservationEncoder(self.codec)
        # The hot path's callables, bound once.
        self._encode = self._encoder.encode
        self._action_at = self._encoder.action_at
        self._observe = self.game.observe
        self._apply = self.game.apply
        self._current = self.game.current_player
        self._num_actions = self.codec.num_actions
        self._np_random, self._np_random_seed = seeding.np_random(None)
        self._state: Any = None
        self._over = True
        """Whether every agent has terminated (the game is over, or not dealt yet)."""
        self.agents: list[str] = []

    # ---- spaces --------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Dict:
        """The observation space of an agent (the same object on every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        """The action space of an agent: ``Discrete(codec.num_actions)``."""
        return self.action_spaces[agent]

    # ---- the AEC API ---------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game.

        Args:
            seed: seeds the environment; the same seed deals the same game. Without one,
                the next game's seed is drawn from the environment's generator.
            options: accepted for API compatibility; unused.
        """
        if seed is not None:
            self._np_random, self._np_random_seed = seeding.np_random(seed)
        game_seed = int(self._np_random.integers(0, 2**63 - 1))
        self._state = self.game.initial_state(self.num_players, game_seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self._over = False
        current = self.game.current_player(self._state)
        if current is None:  # a deal that is already over: every agent just terminates
            self._finish()
            self._accumulate_rewards()
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.possible_agents[current]

    def observe(self, agent: str) -> ObsDict:
        """The agent's encoded observation and action mask (new arrays every call)."""
        return self._encode(self.game.observe(self._state, self._seat_of[agent]))

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """The selected agent's observation, cumulative reward, termination, truncation, info.

        PettingZoo's ``last`` (``observe=False`` leaves the observation out), one call
        shorter: it encodes without going through :meth:`observe`.
        """
        agent = self.agent_selection
        return (
            self._encode(self._observe(self._state, self._seat_of[agent])) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def step(self, action: Any) -> None:
        """Play ``action`` (an index) for ``agent_selection``; ``None`` for a finished agent.

        Raises:
            IllegalActionError: the index is out of range or not a legal action now (the
                game is unchanged).
        """
        if self._over:  # every agent has terminated: each steps once more, with None
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalActionError(action, f"{self.agent_selection} is to move and must act")
        index = int(action)
        if not 0 <= index < self._num_actions:
            raise IllegalActionError(action, f"index {index} is outside 0..{self._num_actions - 1}")
        state = self._state = self._apply(self._state, self._action_at(index))
        current = self._current(state)
        if current is None:
            self._finish()
            self._accumulate_rewards()
        else:
            # Rewards are paid only at the end, so every cumulative reward is still zero:
            # nothing to clear or accumulate on this step.
            self.agent_selection = self.possible_agents[current]

    def _finish(self) -> None:
        outcome = self.game.outcome(self._state)
        assert outcome is not None, "a finished game has an outcome"
        self._over = True
        for agent in self.agents:
            self.rewards[agent] = outcome.reward(self._seat_of[agent])
            self.terminations[agent] = True
            self.infos[agent] = {"outcome": outcome}

    def render(self) -> str | None:
        """The game as text from an onlooker's point of view (printed in ``human`` mode)."""
        if self._state is None:
            return None
        text: str = self.game.render(self.game.observe(self._state, SPECTATOR))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""

    @property
    def game_state(self) -> Any:
        """The full game state, hidden cards included: for debugging, never for agents."""
        return self._state

    @property
    def np_random(self) -> np.random.Generator:
        """The generator that draws each game's seed (reseeded by ``reset(seed=...)``)."""
        return self._np_random


def env(
    game_id: str,
    num_players: int | None = None,
    render_mode: str | None = None,
    *,
    host: PluginHost | None = None,
    registry: CodecRegistry | None = None,
    **options: Any,
) -> CardcoreAECEnv:
    """A PettingZoo AEC environment for an installed game.

    Args:
        game_id: the game (``nyuri``).
        num_players: seats (default: the game's smallest count).
        render_mode: ``"ansi"``, ``"human"`` or ``None``.
        host: the plugin host that builds the game (default: installed plugins).
        registry: where the game's codec is found (default: installed plugins').
        **options: the game's preset (``preset=...``) and option overrides.

    Returns:
        The environment; call ``reset(seed=...)`` before use.

    Raises:
        CodecError: the game declares no codec.
        ValueError: an unsupported player count or render mode.
    """
    return CardcoreAECEnv(
        game_id, num_players, render_mode, host=host, registry=registry, **options
    )


@final
class CardcoreParallelEnv(ParallelEnv):  # type: ignore[misc]  # pettingzoo ships no types
    """A cardcore game through PettingZoo's Parallel API (build it with :func:`parallel_env`).

    The game stays turn-based: ``agent_selection`` names the agent to move, whose action
    in the dict given to :meth:`step` is played; the other agents' entries are ignored
    (their action masks are all zeros) and may be left out. Observations, rewards,
    terminations, truncations and infos come for every agent on every step; rewards are
    paid at the end, when every agent terminates and ``agents`` empties. The arguments
    are those of :class:`CardcoreAECEnv`, which this wraps (``aec_env``).
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 - PettingZoo's documented class attribute
        "name": "cardcore_parallel_v0",
        "render_modes": list(RENDER_MODES),
        "render_fps": 1,
    }

    def __init__(
        self,
        game_id: str,
        num_players: int | None = None,
        render_mode: str | None = None,
        **kwargs: Any,
    ) -> None:
        self.aec_env = CardcoreAECEnv(game_id, num_players, render_mode, **kwargs)
        """The AEC environment that plays the game."""
        self.metadata = {**self.aec_env.metadata, "is_parallelizable": False}
        self.render_mode = render_mode
        self.possible_agents: list[str] = list(self.aec_env.possible_agents)
        self.agents: list[str] = []
        self.observation_spaces = self.aec_env.observation_spaces
        self.action_spaces = self.aec_env.action_spaces

    def observation_space(self, agent: str) -> spaces.Dict:
        """The observation space of an agent (the same object on every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        """The action space of an agent: ``Discrete(codec.num_actions)``."""
        return self.action_spaces[agent]

    @property
    def agent_selection(self) -> str:
        """The agent whose action the next :meth:`step` plays."""
        return str(self.aec_env.agent_selection)

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, ObsDict], dict[str, dict[str, Any]]]:
        """Deal a new game; every agent's observation and info (see :meth:`CardcoreAECEnv.reset`)."""
        aec = self.aec_env
        aec.reset(seed=seed, options=options)
        self.agents = [] if aec._over else list(aec.agents)
        return {a: aec.observe(a) for a in self.possible_agents}, {
            a: {} for a in self.possible_agents
        }

    def step(
        self, actions: dict[str, Any]
    ) -> tuple[
        dict[str, ObsDict],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        """Play the action of the agent to move; every agent's results.

        Raises:
            IllegalActionError: the agent to move has no action in ``actions``, or its
                action is not legal now (the game is unchanged).
            RuntimeError: the game is over (call ``reset``).
        """
        aec = self.aec_env
        if not self.agents:
            raise RuntimeError("the game is over: call reset() first")
        mover = aec.agent_selection
        if actions.get(mover) is None:
            raise IllegalActionError(None, f"{mover} is to move: actions has no entry for it")
        aec.step(actions[mover])
        agents = self.possible_agents
        observations = {a: aec.observe(a) for a in agents}
        if aec._over:
            self.agents = []
            return (
                observations,
                {a: float(aec.rewards[a]) for a in agents},
                dict.fromkeys(agents, True),
                dict.fromkeys(agents, False),
                {a: dict(aec.infos[a]) for a in agents},
            )
        return (
            observations,
            dict.fromkeys(agents, 0.0),
            dict.fromkeys(agents, False),
            dict.fromkeys(agents, False),
            {a: {} for a in agents},
        )

    def render(self) -> str | None:
        """The game as text from an onlooker's point of view (printed in ``human`` mode)."""
        return self.aec_env.render()

    def close(self) -> None:
        """Nothing to release."""


def parallel_env(
    game_id: str,
    num_players: int | None = None,
    render_mode: str | None = None,
    *,
    host: PluginHost | None = None,
    registry: CodecRegistry | None = None,
    **options: Any,
) -> CardcoreParallelEnv:
    """A PettingZoo Parallel environment for an installed game (arguments as :func:`env`).

    Returns:
        The environment; call ``reset(seed=...)`` before use.

    Raises:
        CodecError: the game declares no codec.
        ValueError: an unsupported player count or render mode.
    """
    return CardcoreParallelEnv(
        game_id, num_players, render_mode, host=host, registry=registry, **options
    )
