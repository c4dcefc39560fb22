"""A tiny, portable, immutable random number generator (SplitMix64).

States are frozen values, so their randomness must be too: an RNG state is a plain
``int`` and every draw returns ``(value, next_state)``. The same seed gives the same
stream on every machine and Python version (unlike :mod:`random`, whose algorithms for
``shuffle`` and ``randrange`` are not promised to stay fixed).

The RNG state is hidden information: games keep it in the state and never put it in an
observation.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, TypeVar

__all__ = ["rng_below", "rng_next", "rng_seed", "rng_shuffle"]

_MASK64: Final = (1 << 64) - 1
_GAMMA: Final = 0x9E3779B97F4A7C15
T = TypeVar("T")


def rng_seed(seed: int) -> int:
    """Turn any integer seed into an RNG state."""
    return (seed * 0xD1B54A32D192ED03 + 0x2545F4914F6CDD1D) & _MASK64


def rng_next(state: int) -> tuple[int, int]:
    """Return a uniform 64-bit value and the next state."""
    state = (state + _GAMMA) & _MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return z ^ (z >> 31), state


def rng_below(state: int, n: int) -> tuple[int, int]:
    """Return a uniform integer in ``range(n)`` (``n >= 1``) and the next state."""
    state = (state + _GAMMA) & _MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return ((z ^ (z >> 31)) * n) >> 64, state


def rng_shuffle(state: int, items: Sequence[T]) -> tuple[tuple[T, ...], int]:
    """Return a uniformly shuffled copy of ``items`` (Fisher-Yates) and the next state.

    Swap ``i`` (from the last position down to 1) takes ``j, state = rng_below(state, i + 1)``;
    the draws are written out in the loop (games shuffle on every deal), the same numbers.
    """
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        state = (state + _GAMMA) & _MASK64
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        j = ((z ^ (z >> 31)) * (i + 1)) >> 64
        out[i], out[j] = out[j], out[i]
    return tuple(out), state
