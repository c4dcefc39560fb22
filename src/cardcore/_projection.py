"""The two per-zone passes behind a seat's view of a card table (``CardTable.view``).

Every observation of every game counts the cards of each zone and keeps, per zone, only
the cards the seat knows. Each pass has two forms with the same result, each the faster
in its build: in CPython, ``map`` over an ``int`` method (one C-level pass); compiled,
a loop on machine words, where a ``map`` would call back into Python for every zone.
"""

from __future__ import annotations

import itertools
import operator
from typing import Final, cast

__all__ = ["known_of", "sizes_of"]

_COMPILED: Final = not __file__.endswith((".py", ".pyc"))
"""Whether this module is loaded from a mypyc extension (then machine words are fast)."""

_POP11: Final = bytes(map(int.bit_count, range(2048)))
"""The number of cards in each 11-bit piece of a mask: five pieces cover 55 cards."""

_bit_count: Final = int.bit_count
_and: Final = operator.and_
_repeat: Final = itertools.repeat


def sizes_of(masks: tuple[int, ...]) -> tuple[int, ...]:
    """The number of cards in each mask."""
    if not _COMPILED:
        return tuple(map(_bit_count, masks))
    pop = _POP11
    out: list[int] = []
    for m in masks:
        if not m:  # many zones are empty (offers, tricks, piles)
            out.append(0)
            continue
        n = (
            pop[m & 0x7FF]
            + pop[(m >> 11) & 0x7FF]
            + pop[(m >> 22) & 0x7FF]
            + pop[(m >> 33) & 0x7FF]
            + pop[(m >> 44) & 0x7FF]
        )
        if m >> 55:  # a card beyond the 52 of a standard deck
            n += (m >> 55).bit_count()
        out.append(n)
    return tuple(out)


def known_of(masks: tuple[int, ...], k: int) -> tuple[int, ...]:
    """Each mask with only the cards of ``k``; ``masks`` itself when nothing is dropped.

    Compiled, a mask that keeps all its cards is passed on as the same object: an int
    read from the tuple would be unboxed, then boxed anew (a new object for a large mask).
    """
    if not _COMPILED:
        known = tuple(map(_and, masks, _repeat(k)))
        return masks if known == masks else known
    same: tuple[object, ...] = masks
    out: list[object] = []
    dropped = False
    for i, m in enumerate(masks):
        km = m & k
        if km == m:
            out.append(same[i])
        else:
            out.append(km)
            dropped = True
    if not dropped:
        return masks
    return cast("tuple[int, ...]", tuple(out))  # ints, some passed on as the same objects
