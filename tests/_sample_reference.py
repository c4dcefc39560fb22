"""The first ``sample_table``, kept as the reference the faster one must reproduce exactly."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from cardcore import CardTable, TableView, card_ids
from cardcore._table import SPECTATOR


def reference_sample_table(
    view: TableView,
    rng: random.Random,
    *,
    exclude: Mapping[int, int] | None = None,
    tries: int = 200,
) -> CardTable:
    """``sample_table`` as first written: slow, plain, and the behaviour to keep."""
    layout = view.layout
    known_all = 0
    for m in view.known:
        known_all |= m
    unknown = list(card_ids(layout.deck & ~known_all))
    needs = [view.sizes[i] - view.known[i].bit_count() for i in range(len(layout.zones))]
    if sum(needs) != len(unknown):
        raise ValueError("the view is inconsistent")
    exclude = exclude or {}
    for _ in range(tries):
        fill = _deal(unknown, needs, exclude, rng)
        if fill is not None:
            break
    else:
        raise ValueError("no deal of the unknown cards satisfies the constraints")
    masks = list(view.known)
    orders: list[tuple[int, ...]] = []
    for i, z in enumerate(layout.zones):
        cards = fill[i]
        for c in cards:
            masks[i] |= 1 << c
        if z.ordered:
            it = iter(cards)
            orders.append(tuple(c if c >= 0 else next(it) for c in view.orders[i]))
        else:
            orders.append(())
    known = []
    for s in range(layout.num_seats):
        k = 0
        for i, w in enumerate(layout.watchers):
            if (w >> s) & 1:
                k |= masks[i]
        if view.seat in (s, SPECTATOR):
            k |= known_all
        known.append(k)
    return CardTable(layout, tuple(masks), tuple(orders), tuple(known))


def _deal(
    unknown: Sequence[int], needs: Sequence[int], exclude: Mapping[int, int], rng: random.Random
) -> list[list[int]] | None:
    pool = list(unknown)
    rng.shuffle(pool)
    fill: list[list[int]] = [[] for _ in needs]
    order = sorted(range(len(needs)), key=lambda i: (-(exclude.get(i, 0).bit_count()), i))
    for i in order:
        n = needs[i]
        if not n:
            continue
        bad = exclude.get(i, 0)
        took: list[int] = []
        rest: list[int] = []
        for c in pool:
            if len(took) < n and not (bad >> c) & 1:
                took.append(c)
            else:
                rest.append(c)
        if len(took) < n:
            return None
        fill[i] = took
        pool = rest
    return fill
