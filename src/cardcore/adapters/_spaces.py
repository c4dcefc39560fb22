"""What the PettingZoo and Gymnasium environments share: spaces and observation arrays.

This module imports numpy and gymnasium; only the environment modules import it.
"""

from __future__ import annotations

import importlib.machinery
import itertools
from collections.abc import Callable, Sequence
from typing import Any, Final, cast, final

import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from cardcore._game import Game
from cardcore._host import PluginHost, default_host
from cardcore._lazy import CardSubsets, ConcatActions
from cardcore.adapters import _codec
from cardcore.adapters._codec import (
    ActionIndex,
    Codec,
    TableCodec,
    mark_card_sets,
    mark_seen,
)
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

    __slots__ = ("_buffer", "_codec", "_encode", "_fill", "_n", "_seen", "action_at", "encode")

    def __init__(self, codec: Codec) -> None:
        self._codec = codec
        self._n = codec.num_actions
        self._encode: Callable[[Any], Sequence[float]] = codec.encode
        self._buffer: Callable[[Any], bytearray] | None = None
        self._fill: Callable[[bytearray, Sequence[Any]], None] = self._fill_any
        self._seen: dict[int, int] | None = None
        self.action_at: Callable[[int], Any] = codec.action_at
        """The codec's ``action_at`` (for a TableCodec, a plain tuple lookup: the
        environments check the range themselves)."""
        if isinstance(codec, TableCodec):  # skip the wrapper layers in the hot path
            self._buffer = codec.encoding.encode_buffer
            self._fill = MaskFiller(codec.actions, self._fill_any)
            self._seen = codec.actions._seen
            self.action_at = codec.actions.actions.__getitem__
        self.encode: Callable[[Any], ObsDict] = self._fast_encoder()
        """What :meth:`__call__` does, as one function with everything bound as locals
        (the environments call it on every step)."""

    def _fast_encoder(self) -> Callable[[Any], ObsDict]:
        n = self._n
        seen = self._seen
        fill = self._fill
        buffer = self._buffer
        if seen is None or buffer is None:
            return self._encode_any
        seen_get = seen.__getitem__
        ones = _ONES
        frombuffer = _frombuffer
        f32 = _FLOAT32
        i8 = _INT8

        def encode(observation: Any) -> ObsDict:
            mask = bytearray(n)
            legal = observation.legal_actions
            if legal.__class__ is tuple:
                try:  # actions met before, by identity
                    if len(legal) <= _FEW:  # the usual few: a plain loop costs less
                        for action in legal:
                            mask[seen_get(id(action))] = 1
                    else:  # many: the whole lookup runs in C
                        any(map(mask.__setitem__, map(seen_get, map(id, legal)), ones))
                except KeyError:
                    fill(mask, legal)
            else:
                fill(mask, legal)
            return {
                "observation": frombuffer(buffer(observation), f32),
                "action_mask": frombuffer(mask, i8),
            }

        def encode_compiled(observation: Any) -> ObsDict:
            mask = bytearray(n)
            legal = observation.legal_actions
            if legal.__class__ is tuple:
                try:  # actions met before, by identity: a loop in C
                    mark(mask, legal, seen)
                except KeyError:
                    fill(mask, legal)
            else:
                fill(mask, legal)
            return {
                "observation": frombuffer(buffer(observation), f32),
                "action_mask": frombuffer(mask, i8),
            }

        mark = mark_seen
        return encode_compiled if _CODEC_COMPILED else encode

    def __call__(self, observation: Any) -> ObsDict:
        """The encoding and the action mask of the observation (new arrays every call)."""
        return self.encode(observation)

    def _encode_any(self, observation: Any) -> ObsDict:
        """The encoding and the action mask of the observation (new arrays every call).

        Both arrays wrap a fresh ``bytearray``: numpy neither copies nor zeroes them again,
        and the mask is filled in C-level passes, never a numpy call per action.
        """
        mask = bytearray(self._n)
        legal = observation.legal_actions
        if legal.__class__ is tuple and self._seen is not None:
            try:  # actions met before, by identity: the whole lookup runs in C
                any(map(mask.__setitem__, map(self._seen.__getitem__, map(id, legal)), _ONES))
            except KeyError:
                self._fill(mask, legal)
        else:
            self._fill(mask, legal)
        buffer = self._buffer
        if buffer is not None:
            encoded = _frombuffer(buffer(observation), _FLOAT32)
        else:
            encoded = np.array(self._encode(observation), dtype=np.float32)
        return {"observation": encoded, "action_mask": _frombuffer(mask, _INT8)}

    def _fill_any(self, mask: bytearray, legal: Sequence[Any]) -> None:
        """Set the legal actions' entries, looked up one by one (any codec)."""
        index = self._codec.action_index
        for a in legal:
            mask[index(a)] = 1


_CODEC_COMPILED: Final = (_codec.__file__ or "").endswith(
    tuple(importlib.machinery.EXTENSION_SUFFIXES)
)
"""Whether the codec module is the compiled build's: then the legal actions' mask
entries are set by :func:`mark_seen`'s loop in C (in Python, ``map`` passes cost less)."""
_frombuffer: Final = np.frombuffer
_FLOAT32: Final = np.dtype(np.float32)
_INT8: Final = np.dtype(np.int8)
_FEW: Final = 4
"""Up to this many legal actions, the mask is set in a plain loop: building the ``map``
pipeline costs more than it saves (about half the time for one to three actions)."""
_ONES: Final = itertools.repeat(1)
"""Endless ones, to set a mask's legal entries with ``map`` (``repeat`` has no state)."""


@final
class MaskFiller:
    """Sets the action-mask entries of legal actions, in C-level passes where it can.

    A tuple of actions the index has met before is looked up by identity
    (:class:`ActionIndex` remembers them); a :class:`cardcore.ConcatActions` is filled
    part by part; a :class:`cardcore.CardSubsets` (Nyuri's steal sets) from the card
    masks of its sets, found in the index by mask, without building one action. Anything
    else goes through the index's ``indices``, and an action the index does not list
    goes to ``fallback``, which looks each action up and names one that is not there.

    Args:
        index: the codec's action index.
        fallback: fills a mask from any sequence of actions.
    """

    __slots__ = ("_by_mask", "_fallback", "_index", "_seen", "_sorted")

    def __init__(
        self, index: ActionIndex[Any], fallback: Callable[[bytearray, Sequence[Any]], None]
    ) -> None:
        self._index = index
        self._seen = index._seen  # the index's own memo: id of an action met -> its index
        self._fallback = fallback
        self._by_mask: dict[type, dict[int, int]] = {}
        """Per card-action class: the card mask of each of its actions -> its index."""
        self._sorted: dict[type, tuple[npt.NDArray[np.uint64], npt.NDArray[np.intp]]] = {}
        """Per card-action class: its actions' card masks, ascending, and their indexes."""

    def __call__(self, mask: bytearray, legal: Sequence[Any]) -> None:
        """Set ``mask[i] = 1`` for the index ``i`` of every action of ``legal``."""
        try:
            self._fill(mask, legal)
        except (KeyError, TypeError, AttributeError):
            # An action met for the first time (remembered now), or one that is not in
            # the index: look them up through the index, which names a missing one.
            try:
                any(map(mask.__setitem__, self._index.indices(legal), _ONES))
            except (KeyError, TypeError, AttributeError):
                self._fallback(mask, legal)

    def _fill(self, mask: bytearray, legal: Sequence[Any]) -> None:
        cls = legal.__class__
        if cls is tuple and _CODEC_COMPILED:
            mark_seen(mask, cast("tuple[Any, ...]", legal), self._seen)
        elif cls is tuple or cls is list:
            any(map(mask.__setitem__, map(self._seen.__getitem__, map(id, legal)), _ONES))
        elif cls is ConcatActions:
            for part in legal._parts:  # type: ignore[attr-defined]
                self._fill(mask, part)
        elif cls is CardSubsets:
            assert isinstance(legal, CardSubsets)
            if not _CODEC_COMPILED and len(legal) >= _MANY_SUBSETS:
                self._fill_many(mask, legal)
                return
            action = legal.action
            by_mask = self._by_mask.get(action)
            if by_mask is None:
                by_mask = self._by_mask[action] = {
                    a.mask: i for i, a in enumerate(self._index.actions) if type(a) is action
                }
            if _CODEC_COMPILED:  # every set in loops in C: less than numpy's passes cost
                mark_card_sets(mask, by_mask, legal._keys, legal._lead_segments())
            else:
                any(map(mask.__setitem__, map(by_mask.__getitem__, legal.masks()), _ONES))
        else:
            any(map(mask.__setitem__, self._index.indices(legal), _ONES))

    def _fill_many(self, mask: bytearray, legal: CardSubsets[Any]) -> None:
        """Mark a long listing of card sets in numpy passes (Nyuri's steals of up to three).

        A set's index is found by bisecting the class's sorted card masks: one
        ``searchsorted`` over all the listing's masks, made by :func:`subset_masks`,
        instead of a generator step, a dict lookup and a store per set.

        Raises:
            KeyError: a set is not in the index (the caller looks them up one by one).
        """
        action = legal.action
        table = self._sorted.get(action)
        if table is None:
            pairs = sorted(
                (a.mask, i) for i, a in enumerate(self._index.actions) if type(a) is action
            )
            table = self._sorted[action] = (
                np.array([m for m, _ in pairs], dtype=np.uint64),
                np.array([i for _, i in pairs], dtype=np.intp),
            )
        masks_sorted, indexes = table
        wanted = subset_masks(legal)
        at = masks_sorted.searchsorted(wanted)
        if not len(masks_sorted) or at.max() >= len(masks_sorted):
            raise KeyError("a card set that the index does not list")
        if (masks_sorted[at] != wanted).any():
            raise KeyError("a card set that the index does not list")
        _frombuffer(mask, _INT8)[indexes[at]] = 1


_MANY_SUBSETS: Final = 80
"""From this many sets on, a :class:`cardcore.CardSubsets` is marked in numpy passes
(below it, their fixed cost is more than a lookup per set saves; measured on Nyuri)."""

_BIT: Final = np.left_shift(np.uint64(1), np.arange(64, dtype=np.uint64))
"""``1 << i`` for each card id ``i``, as ``uint64``."""

_POSITIONS: dict[tuple[int, int], tuple[npt.NDArray[np.intp], ...]] = {}
"""Per (positions, chosen): the position of each choice's cards, in listing order."""


def _positions(n: int, chosen: int) -> tuple[npt.NDArray[np.intp], ...]:
    """Every choice of ``chosen`` of ``n`` positions, in order, as ``chosen`` arrays."""
    got = _POSITIONS.get((n, chosen))
    if got is None:
        combos = np.array(list(itertools.combinations(range(n), chosen)), dtype=np.intp)
        got = _POSITIONS[n, chosen] = tuple(combos.reshape(-1, chosen).T)
    return got


def subset_masks(legal: CardSubsets[Any]) -> npt.NDArray[np.uint64]:
    """The card mask of every set of a listing, in its order: ``list(legal.masks())``.

    The listing's segments (a fixed lead plus every choice of one, two or three cards
    from a position on) are made one numpy pass each.
    """
    keys: Sequence[int] = legal._keys
    segments = legal._lead_segments()
    bits = _BIT[np.array(keys, dtype=np.intp) & 63]
    parts = []
    for lead, start, added in segments:
        tail = bits[start:]
        if added == 1:
            part = tail
        else:
            picks = _positions(len(tail), added)
            part = tail[picks[0]]
            for p in picks[1:]:
                part = part | tail[p]
        parts.append(part | np.uint64(lead) if lead else part)
    if not parts:
        return np.zeros(0, dtype=np.uint64)
    return parts[0] if len(parts) == 1 else np.concatenate(parts)


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
