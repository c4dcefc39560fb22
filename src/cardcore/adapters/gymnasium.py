"""A single-agent Gymnasium environment: one seat against installed bots.

Example:
    >>> from cardcore.adapters import gymnasium as cg
    >>> env = cg.env("noddy", seat=0, opponents=["random"])  # doctest: +SKIP
    >>> obs, info = env.reset(seed=7)  # doctest: +SKIP
    >>> obs, reward, terminated, truncated, info = env.step(int(obs["action_mask"].argmax()))

The agent plays ``seat``; the other seats are bots loaded by name with
:func:`cardcore.load_bot`, seeded from the game's seed, so ``reset(seed=s)`` fixes the
deal and every bot decision. Observation and action spaces are those of the PettingZoo
environment. The reward is 0 until the game ends, then ``Outcome.reward(seat)``.

**Illegal actions.** Gymnasium tools (``check_env``, random exploration) sample actions
without the mask. An index that is not a legal action now ends the episode at once:
``terminated=True``, reward ``illegal_action_reward`` (default ``-1.0``) and
``info["illegal_action"] = True``; the game is left as it was. Mask your policy's
actions (``obs["action_mask"]``) to never see this.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any, Final, cast, final

from cardcore.adapters._extra import missing_rl

try:
    import gymnasium
    import numpy as np
    from gymnasium import spaces
    from gymnasium.envs.registration import EnvSpec
except ModuleNotFoundError as _e:  # no rl extra: say which one to install
    raise missing_rl(__name__, _e) from None

from cardcore._host import PluginHost, load_bot
from cardcore._table import SPECTATOR
from cardcore.adapters._registry import CodecRegistry, default_registry
from cardcore.adapters._spaces import (
    RENDER_MODES,
    ObsDict,
    ObservationEncoder,
    check_render_mode,
    observation_space,
    resolve,
)

__all__ = ["CardcoreEnv", "env", "register_envs"]

_BOT_SEED_STRIDE: Final = 7919
"""Spreads the bots' seeds apart (a prime, so seats never share a seed)."""


@final
class CardcoreEnv(gymnasium.Env[ObsDict, np.int64]):
    """One seat of a cardcore game as a Gymnasium environment (build it with :func:`env`).

    Args:
        game_id: the game (``noddy``).
        seat: the agent's seat.
        opponents: bot names for the other seats in seat order, or one name for all.
        num_players: seats (default: one more than the opponents listed when more than one
            is listed, else the game's smallest count).
        render_mode: ``"ansi"`` (``render()`` returns text), ``"human"`` (prints it) or
            ``None`` (returns it).
        illegal_action_reward: the reward of an illegal action, which ends the episode.
        host: the plugin host that builds the game and bots (default: installed plugins).
        registry: where the game's codec is found (default: installed plugins').
        **options: the game's preset (``preset=...``) and option overrides.

    Raises:
        CodecError: the game declares no codec.
        ValueError: a bad seat, player count, opponent list or render mode.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 - Gymnasium's documented class attribute
        "render_modes": list(RENDER_MODES),
        "render_fps": 1,
    }

    def __init__(
        self,
        game_id: str,
        seat: int = 0,
        opponents: Sequence[str] = ("random",),
        num_players: int | None = None,
        render_mode: str | None = None,
        illegal_action_reward: float = -1.0,
        *,
        host: PluginHost | None = None,
        registry: CodecRegistry | None = None,
        **options: Any,
    ) -> None:
        check_render_mode(render_mode)
        if isinstance(opponents, str):
            opponents = (opponents,)
        names = tuple(opponents)
        if not names:
            raise ValueError("opponents: name at least one bot")
        if num_players is None and len(names) > 1:
            num_players = len(names) + 1
        self.game, self.num_players, self.codec = resolve(
            game_id, num_players, options, host, registry
        )
        n = self.num_players
        if not 0 <= seat < n:
            raise ValueError(f"seat must be 0-{n - 1}, not {seat}")
        if len(names) == 1:
            names *= n - 1
        if len(names) != n - 1:
            raise ValueError(f"{n} players need {n - 1} opponents (or one name), not {len(names)}")
        self.seat = seat
        self.opponents = names
        self.illegal_action_reward = float(illegal_action_reward)
        self.render_mode = render_mode
        self._host = host
        self.observation_space = cast("spaces.Space[ObsDict]", observation_space(self.codec))
        self.action_space = spaces.Discrete(self.codec.num_actions)
        self._encoder = ObservationEncoder(self.codec)
        self._state: Any = None
        self._bots: dict[int, Any] = {}
        self._legal: bytes | None = None
        """The agent's action mask as last observed, apart from the arrays handed out."""
        self._done = True
        for name in set(names):  # fail now, not at the first reset
            load_bot(name, self.game, seed=0, host=host)
        creator: Any = CardcoreEnv
        if host is not None or registry is not None:
            creator = functools.partial(CardcoreEnv, host=host, registry=registry)
        self.spec = EnvSpec(
            id=f"cardcore/{game_id}-v0",
            entry_point=creator,
            kwargs={
                "game_id": game_id,
                "seat": seat,
                "opponents": list(names),
                "num_players": n,
                "illegal_action_reward": self.illegal_action_reward,
                **options,
            },
        )

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsDict, dict[str, Any]]:
        """Deal a new game and let the bots play up to the agent's first decision.

        Args:
            seed: seeds the environment; the same seed deals the same game and bot play.
                Without one, the next game's seed comes from the environment's generator.
            options: accepted for API compatibility; unused.

        Returns:
            The agent's first observation, and an empty info dict.
        """
        super().reset(seed=seed)
        game, n = self.game, self.num_players
        for _ in range(100):
            game_seed = int(self.np_random.integers(0, 2**63 - 1))
            self._state = game.initial_state(n, game_seed)
            self._bots = {}
            for s in range(n):
                if s == self.seat:
                    continue
                name = self.opponents[s if s < self.seat else s - 1]
                bot = load_bot(
                    name, game, seed=game_seed + _BOT_SEED_STRIDE * (s + 1), host=self._host
                )
                start = getattr(bot, "start_match", None)
                if start is not None:
                    start(game, s, n)
                self._bots[s] = bot
            self._done = False
            if self._advance():
                break
        else:
            raise RuntimeError(f"seat {self.seat} never got to decide in 100 deals")
        return self._observe(), {}

    def _advance(self) -> bool:
        """Let the bots play until the agent is to move; false if the game ended first."""
        game = self.game
        while True:
            current = game.current_player(self._state)
            if current is None:
                return False
            if current == self.seat:
                return True
            action = self._bots[current].act(game.observe(self._state, current))
            self._state = game.apply(self._state, action)

    def _observe(self) -> ObsDict:
        # The encoder's arrays are new on every call: the agent gets them, and the env
        # keeps the mask's bytes (what the agent does to its arrays cannot change them).
        obs = self._encoder.encode(self.game.observe(self._state, self.seat))
        self._legal = obs["action_mask"].tobytes()
        return obs

    def step(self, action: Any) -> tuple[ObsDict, float, bool, bool, dict[str, Any]]:
        """Play the agent's action (an index), then the bots' until the agent's next turn.

        Returns:
            ``(observation, reward, terminated, truncated, info)``; at the end ``info``
            holds the ``outcome``; after an illegal index, ``illegal_action`` is true.

        Raises:
            RuntimeError: the episode is over (call ``reset``).
        """
        legal = self._legal
        if self._done or legal is None:
            raise RuntimeError("the episode is over: call reset() first")
        index = int(action)
        if not 0 <= index < len(legal) or not legal[index]:
            self._done = True
            return (
                self._observe(),
                self.illegal_action_reward,
                True,
                False,
                {"illegal_action": True, "action": index},
            )
        game = self.game
        self._state = game.apply(self._state, self._encoder.action_at(index))
        if self._advance():
            return self._observe(), 0.0, False, False, {}
        self._done = True
        outcome = game.outcome(self._state)
        assert outcome is not None, "a finished game has an outcome"
        for bot in self._bots.values():
            end = getattr(bot, "end_match", None)
            if end is not None:
                end(outcome)
        return self._observe(), outcome.reward(self.seat), True, False, {"outcome": outcome}

    def render(self) -> str | None:
        """The game as text from an onlooker's point of view (printed in ``human`` mode)."""
        if self._state is None:
            return None
        text: str = self.game.render(self.game.observe(self._state, SPECTATOR))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    @property
    def game_state(self) -> Any:
        """The full game state, hidden cards included: for debugging, never for agents."""
        return self._state


def env(
    game_id: str,
    seat: int = 0,
    opponents: Sequence[str] = ("random",),
    num_players: int | None = None,
    *,
    render_mode: str | None = None,
    illegal_action_reward: float = -1.0,
    host: PluginHost | None = None,
    registry: CodecRegistry | None = None,
    **options: Any,
) -> CardcoreEnv:
    """A Gymnasium environment: ``seat`` of an installed game against installed bots.

    Args:
        game_id: the game (``noddy``).
        seat: the agent's seat.
        opponents: bot names for the other seats in seat order, or one name for all.
        num_players: seats (default: one more than the opponents listed when more than one
            is listed, else the game's smallest count).
        render_mode: ``"ansi"``, ``"human"`` or ``None``.
        illegal_action_reward: the reward of an illegal action, which ends the episode.
        host: the plugin host that builds the game and bots (default: installed plugins).
        registry: where the game's codec is found (default: installed plugins').
        **options: the game's preset (``preset=...``) and option overrides.

    Returns:
        The environment; call ``reset(seed=...)`` before use.
    """
    return CardcoreEnv(
        game_id,
        seat,
        opponents,
        num_players,
        render_mode,
        illegal_action_reward,
        host=host,
        registry=registry,
        **options,
    )


def register_envs(registry: CodecRegistry | None = None) -> list[str]:
    """Register ``cardcore/<game>-v0`` with Gymnasium for every game that has a codec.

    Afterwards ``gymnasium.make("cardcore/noddy-v0", opponents=["random"])`` works; the
    keyword arguments are those of :func:`env`.

    Returns:
        The registered ids.
    """
    reg = registry or default_registry()
    ids = []
    for game in reg.specs():
        env_id = f"cardcore/{game}-v0"
        creator: Any = functools.partial(CardcoreEnv, game, registry=registry)
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point=creator)
        ids.append(env_id)
    return ids
