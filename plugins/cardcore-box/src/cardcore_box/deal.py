"""The shuffle and the deal of Box (BX-3).

The shuffle is part of what a seed means: the same seed deals the same cards in every
version of the plugin, so the way it draws its random numbers is fixed here.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import Final

from cardcore import CardTable, Layout, new_table
from cardcore_box.options import NUM_PLAYERS
from cardcore_box.state import BOX, DRAW, HAND

__all__ = ["CLOCKWISE_FROM", "deal", "shuffle52"]

CLOCKWISE_FROM: Final = tuple(
    tuple((w + k) % NUM_PLAYERS for k in range(NUM_PLAYERS)) for w in range(NUM_PLAYERS)
)
"""Per seat, every seat clockwise starting with it (the order of the deal and the refill)."""
_ALL52: Final = (1 << 52) - 1


def deal(lay: Layout, order: Sequence[int], dealer: int) -> CardTable:
    """BX-3.2: deal ``order`` (top first) one card at a time from the dealer's left.

    The first 16 cards make the four boxes (seen by nobody), the next 16 the four hands
    (each seen by its owner); the other 20 stay in the draw pile, top card on top. The
    table is built at once (``cardcore.new_table``); it is what 32 ``draw`` moves from a
    freshly shuffled draw pile give, as the tests check. ``order`` holds each of the 52
    card ids once, so the draw pile is every card not dealt.
    """
    masks = [0] * len(lay.zones)
    known = [0] * NUM_PLAYERS
    # Position i of the deal goes to the (i % 4)-th seat from the dealer's left.
    for i, seat in enumerate(CLOCKWISE_FROM[(dealer + 1) % NUM_PLAYERS]):
        box = 1 << order[i] | 1 << order[i + 4] | 1 << order[i + 8] | 1 << order[i + 12]
        hand = 1 << order[i + 16] | 1 << order[i + 20] | 1 << order[i + 24] | 1 << order[i + 28]
        masks[BOX + seat] = box
        masks[HAND + seat] = hand
        known[seat] = hand
    dealt = 0
    for m in masks:
        dealt |= m
    masks[DRAW] = _ALL52 ^ dealt
    orders: list[tuple[int, ...]] = [()] * len(lay.zones)
    orders[DRAW] = tuple(order[:31:-1])
    return new_table((lay, tuple(masks), tuple(orders), tuple(known)))


# The 26 draws of a deal, computed together: lane k (128 bits wide) of one big integer
# holds the (k + 1)-th SplitMix64 draw (the core's ``rng_next``), so each step of the
# mixing function is one big-integer operation instead of 26. A lane's values stay below
# 2**128, so no carry crosses into the next lane; masking keeps each lane's low 64 bits.
_M64: Final = (1 << 64) - 1
_GAMMA: Final = 0x9E3779B97F4A7C15
_LANES: Final = 26
_LANE_ONES: Final = sum(1 << (128 * k) for k in range(_LANES))
_LANE_MASK: Final = _M64 * _LANE_ONES
_LANE_STEPS: Final = sum(((k + 1) * _GAMMA) << (128 * k) for k in range(_LANES))
_LANE_PIECES: Final = struct.Struct("<" + "HHHH8x" * _LANES)
"""Reads each lane's low 64 bits as four 16-bit pieces, lowest first: the low and high
32-bit halves (the two indices of one draw) are pieces 0-1 and 2-3."""


def shuffle52(rng: int) -> tuple[list[int], int]:
    """A uniformly shuffled deck (Fisher-Yates) and the next RNG state.

    Each 64-bit draw of the state's RNG gives two 32-bit indices (multiply-shift), so
    a deal costs 26 draws instead of 51; the bias is below 52 / 2**32 per swap. Swap
    ``n`` (of positions ``51 - n`` and ``j``) uses the low half of draw ``n // 2`` for
    even ``n`` and its high half for odd ``n``.
    """
    z = (rng * _LANE_ONES + _LANE_STEPS) & _LANE_MASK
    z = ((z ^ (z >> 30)) & _LANE_MASK) * 0xBF58476D1CE4E5B9 & _LANE_MASK
    z = ((z ^ (z >> 27)) & _LANE_MASK) * 0x94D049BB133111EB & _LANE_MASK
    z ^= z >> 31  # each lane's low 64 bits are now its draw
    order = list(range(52))
    pieces: tuple[int, ...] = _LANE_PIECES.unpack(z.to_bytes(16 * _LANES, "little"))
    # Swap n takes half x = p1 * 2**16 + p0 (pieces 2n and 2n + 1) and picks
    # (x * (i + 1)) >> 32, worked out piece by piece with the carry: the same number from
    # products of small ints (machine-word arithmetic in the compiled build). The 52nd
    # half would swap position 0 with itself, so the loop stops before it.
    for n in range(51):
        i = 51 - n
        m = i + 1
        j = (pieces[2 * n + 1] * m + ((pieces[2 * n] * m) >> 16)) >> 16
        order[i], order[j] = order[j], order[i]
    return order, (rng + _LANES * _GAMMA) & _M64
