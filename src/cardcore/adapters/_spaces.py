"""What the PettingZoo and Gymnasium environments share: spaces and observation arrays.

This module imports numpy and gymnasium; only the environment modules import it.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any, Final, final

import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from cardcore._game import Game
from cardcore._host import PluginHost, default_host
from cardcore.adapters._codec import Codec, TableCodec, legal_indices
from cardcore.adapters._registry import CodecRegistry, default_registry

__all__ = ["ObsDict", "ObservationEncoder", "observation_space", "resolve"]

ObsDict = dict[str, npt.NDArray[Any]]
"""An environment observation: ``{"observation": float32[size], "action_mask": int8[n]}``."""

RENDER_MODES: Final = ("human", "ansi")


def observation_space(codec: Codec) -> spaces.Dict:
    """The observation space of every seat: the encoding in ``[-1, 1]`` and the mask."""
    return spaces.Dict(
        {
            "observation": spaces.Box(-1.0, 1.0, (codec.observation_size,), np.float32),
            "action_mask": spaces.Box(0, 1, (codec.num_actions,), np.int8),
        }
    )


@final
class ObservationEncoder:
    """Turns cardcore observations into fresh numpy observation dicts for one codec."""

    __slots__ = ("_buffer", "_codec", "_encode", "_indices", "_n", "action_at")

    def __init__(self, codec: Codec) -> None:
        self._codec = codec
        self._n = codec.num_actions
        self._encode: Callable[[Any], Sequence[float]] = codec.encode
        self._buffer: Callable[[Any], bytearray] | None = None
        self._indices: Callable[[Any], list[int]] | None = None
        self.action_at: Callable[[int], Any] = codec.action_at
        """The codec's ``action_at`` (for a TableCodec, a plain tuple lookup: the
        environments check the range themselves)."""
        if isinstance(codec, TableCodec):  # skip the wrapper layers in the hot path
            self._buffer = codec.encoding.encode_buffer
            self._indices = codec.actions.indices
            self.action_at = codec.actions.actions.__getitem__

    def __call__(self, observation: Any) -> ObsDict:
        """The encoding and the action mask of the observation (new arrays every call).

        Both arrays wrap a fresh ``bytearray``: numpy neither copies nor zeroes them again,
        and filling the mask takes one C-level pass instead of a numpy call per action.
        """
        mask = bytearray(self._n)
        legal = observation.legal_actions
        if legal:
            try:
                indices = self._indices(legal)  # type: ignore[misc]  # None: not a TableCodec
            except (KeyError, TypeError, AttributeError):
                # Not a TableCodec, or an unknown action: looked up one by one (the
                # error names the action).
                indices = legal_indices(self._codec, observation)
            any(map(mask.__setitem__, indices, _ONES))
        if self._buffer is not None:
            encoded = np.frombuffer(self._buffer(observation), np.float32)
        else:
            encoded = np.array(self._encode(observation), dtype=np.float32)
        return {"observation": encoded, "action_mask": np.frombuffer(mask, np.int8)}


_ONES: Final = itertools.repeat(1)
"""Endless ones, to set a mask's legal entries with ``map`` (``repeat`` has no state)."""


def resolve(
    game_id: str,
    num_players: int | None,
    options: dict[str, Any],
    host: PluginHost | None,
    registry: CodecRegistry | None,
) -> tuple[Game[Any, Any, Any], int, Codec]:
    """Build the game, check the player count, and find its codec."""
    game = (host or default_host()).load_game(game_id, **options)
    n = game.min_players if num_players is None else num_players
    if not game.min_players <= n <= game.max_players:
        raise ValueError(f"{game_id} is for {game.min_players}-{game.max_players} players, not {n}")
    return game, n, (registry or default_registry()).codec(game, n)


def check_render_mode(render_mode: str | None) -> None:
    """Refuse a render mode the environments do not offer."""
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(f"render_mode must be one of {RENDER_MODES} or None, not {render_mode!r}")
