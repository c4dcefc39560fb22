"""A tiny, portable, immutable random number generator (SplitMix64).

States are frozen values, so their randomness must be too: an RNG state is a plain
``int`` and every draw returns ``(value, next_state)``. The same seed gives the same
stream on every machine and Python version (unlike :mod:`random`, whose algorithms for
``shuffle`` and ``randrange`` are not promised to stay fixed).

The RNG state is hidden information: games keep it in the state and never put it in an
observation.
"""

from __future__ import annotations

import functools
import random
import struct
from collections.abc import Callable, Sequence
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
    if _COMPILED and 0 < n < _WORD_N:
        return _below_words(state, n)
    state = (state + _GAMMA) & _MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return ((z ^ (z >> 31)) * n) >> 64, state


_M30: Final = 0x3FFFFFFF
_WORD_N: Final = 1 << 30
"""Bounds below this are drawn by :func:`_below_words` in the compiled build."""
_COMPILED: Final = not __file__.endswith((".py", ".pyc"))
"""Whether this module is loaded from a mypyc extension (then machine words are fast)."""


def _below_words(state: int, n: int) -> tuple[int, int]:
    """:func:`rng_below` for the compiled build and ``0 < n < 2**30``: machine words only.

    The same numbers: the 64-bit state is kept as three pieces of 30, 30 and 4 bits
    (:func:`_draw_words`), so that every factor of a product stays below 2**30, the
    bound under which a compiled multiply stays on machine words (never Python longs).
    """
    # The state: + gamma, piece by piece with the carries.
    a = (state & _M30) + 0x3F4A7C15
    b = ((state >> 30) & _M30) + 0x38DDE6E5 + (a >> 30)
    c = ((state >> 60) + 0x9 + (b >> 30)) & 0xF
    a &= _M30
    b &= _M30
    return _draw_words(a, b, c, n), a | (b << 30) | (c << 60)


def _draw_words(a: int, b: int, c: int, n: int) -> int:
    """SplitMix64's output for the state ``a + b * 2**30 + c * 2**60``, times ``n``, >> 64.

    ``a`` and ``b`` hold 30 bits, ``c`` 4, and ``0 < n < 2**30``: each product is of two
    factors below 2**30 and each sum stays below 2**62.
    """
    # z ^= z >> 30: the pieces move down one place
    a ^= b
    b ^= c
    # z *= 0xBF58476D1CE4E5B9 (mod 2**64), its pieces 0x1CE4E5B9, 0x3D611DB4, 0xB
    t0 = a * 0x1CE4E5B9
    t1 = a * 0x3D611DB4 + b * 0x1CE4E5B9 + (t0 >> 30)
    c = (a * 0xB + b * 0x3D611DB4 + c * 0x1CE4E5B9 + (t1 >> 30)) & 0xF
    a = t0 & _M30
    b = t1 & _M30
    # z ^= z >> 27
    a ^= (a >> 27) | ((b << 3) & _M30)
    b ^= (b >> 27) | (c << 3)
    # z *= 0x94D049BB133111EB (mod 2**64), its pieces 0x133111EB, 0x134126EC, 0x9
    t0 = a * 0x133111EB
    t1 = a * 0x134126EC + b * 0x133111EB + (t0 >> 30)
    c = (a * 0x9 + b * 0x134126EC + c * 0x133111EB + (t1 >> 30)) & 0xF
    a = t0 & _M30
    b = t1 & _M30
    # z ^= z >> 31
    a ^= (b >> 1) | ((c & 1) << 29)
    b ^= c >> 1
    # (z * n) >> 64, a piece at a time from the lowest
    x = (a * n) >> 30
    x = (x + b * n) >> 30
    return (x + c * n) >> 4


def rng_shuffle(state: int, items: Sequence[T]) -> tuple[tuple[T, ...], int]:
    """Return a uniformly shuffled copy of ``items`` (Fisher-Yates) and the next state.

    Swap ``i`` (from the last position down to 1) takes ``j, state = rng_below(state, i + 1)``.
    Games shuffle on every deal (and a search deals once a play-out), so the draws are
    not made one by one: the ``k``-th state of the stream is ``state + k * gamma``, so all
    ``len(items) - 1`` of them are mixed at once, as 64-bit lanes of one large integer
    (:func:`_lanes`); the numbers are exactly those of ``rng_below``. Compiled, where
    ``rng_below`` works on machine words, the draws are made one by one after all.
    """
    out = list(items)
    n = len(out)
    if n < 2:
        return tuple(out), state
    if _COMPILED and n <= _WORD_N:  # compiled, one machine-word draw at a time is cheaper
        a = state & _M30  # the state in pieces, as _below_words keeps it
        b = (state >> 30) & _M30
        c = (state >> 60) & 0xF
        for i in range(n - 1, 0, -1):
            a += 0x3F4A7C15
            b += 0x38DDE6E5 + (a >> 30)
            c = (c + 0x9 + (b >> 30)) & 0xF
            a &= _M30
            b &= _M30
            j = _draw_words(a, b, c, i + 1)
            out[i], out[j] = out[j], out[i]
        return tuple(out), a | (b << 30) | (c << 60)
    ones, steps, lanes, unpack, bounds = _lanes(n - 1)
    s = (state * ones + steps) & lanes  # lane k: (state + (k + 1) * gamma) mod 2**64
    z = ((s ^ (s >> 30)) & lanes) * _MIX1 & lanes
    z = ((z ^ (z >> 27)) & lanes) * _MIX2 & lanes
    z ^= z >> 31  # the high half of each lane now holds junk, which unpack skips
    words = unpack(z.to_bytes(len(bounds) * 16, "little"))
    for bound, w in zip(bounds, words[::2], strict=True):
        j = (w * bound) >> 64
        i = bound - 1
        out[i], out[j] = out[j], out[i]
    return tuple(out), (state + (n - 1) * _GAMMA) & _MASK64


_MIX1: Final = 0xBF58476D1CE4E5B9
_MIX2: Final = 0x94D049BB133111EB
_LANE: Final = 128
"""Bits a lane takes: a 64-bit value times a 64-bit constant needs 128 before masking."""


@functools.cache
def _lanes(m: int) -> tuple[int, int, int, Callable[[bytes], tuple[int, ...]], tuple[int, ...]]:
    """The constants for mixing ``m`` draws at once, one per 128-bit lane.

    ``ones`` has a 1 at the bottom of every lane, ``steps`` holds ``(k + 1) * gamma`` in
    lane ``k``, ``lanes`` masks each lane's low 64 bits, ``unpack`` splits the lanes into
    64-bit words (low, high, low, ...) and ``bounds`` are the draws' ranges, ``m + 1``
    down to 2. Cached per size: a game shuffles a few deck sizes only.
    """
    ones = sum(1 << (_LANE * k) for k in range(m))
    steps = sum(((k + 1) * _GAMMA) << (_LANE * k) for k in range(m))
    unpack = struct.Struct(f"<{2 * m}Q").unpack
    return ones, steps, ones * _MASK64, unpack, tuple(range(m + 1, 1, -1))


def shuffle_like_random(rng: random.Random, items: list[int]) -> None:
    """Shuffle ``items`` in place exactly as ``rng.shuffle(items)`` does.

    The same draws from ``rng.getrandbits`` in the same order (CPython's ``shuffle`` and
    ``_randbelow``), so a search's samples stay the same; compiled, the loop runs as
    machine code instead of the interpreted ``random`` module (a tenth of a search's
    time was there). A subclass of ``random.Random`` may draw otherwise: it shuffles
    with its own method.
    """
    if type(rng) is not random.Random:
        rng.shuffle(items)
        return
    bits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j: int = bits(k)
        while j >= n:
            j = bits(k)
        items[i], items[j] = items[j], items[i]
