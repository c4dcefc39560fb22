"""What the search bots share that is not search itself: their tree, budgets and collector.

:class:`_Node` and :class:`_Edge` make ISMCTS's tree (and root-parallel search's summed
root); :func:`_budget` checks a bot's iterations and seconds; :func:`_collector_paused`
holds off the garbage collector for the length of one search.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator
from typing import Any, final


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """Hold off Python's cyclic garbage collector for the length of one search.

    A search allocates tens of thousands of short-lived objects a second, so the
    collector runs often, and a full collection of a large heap takes 30-100 ms: one
    that starts just before the deadline makes the decision overshoot a 1 s budget by
    10%. The search creates no reference cycles (its trees and play-outs are freed by
    reference counting alone), so pausing the collector loses no memory; it is switched
    back on afterwards, also when the game raises, and left alone if the caller had
    switched it off.
    """
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def _budget(
    iterations: int | None, seconds: float | None, default: int
) -> tuple[int | None, float | None]:
    """The budget per decision: ``(iterations, seconds)``, checked; neither: ``default``."""
    if iterations is not None and iterations < 1:
        raise ValueError(f"iterations must be >= 1, not {iterations}")
    if seconds is not None and not seconds > 0:
        raise ValueError(f"seconds must be > 0, not {seconds}")
    if iterations is None and seconds is None:
        return default, None
    return iterations, seconds


@final
class _Edge:
    """One action at one node: visits, total reward of the node's mover, availability."""

    __slots__ = ("avail", "n", "w")

    def __init__(self) -> None:
        self.n = 0
        self.w = 0.0
        self.avail = 1


@final
class _Node:
    """A point of the tree where one known seat moves.

    Children are keyed by the action taken *and* the seat that moves next, so that
    where chance decides who moves after an action, each seat gets its own node and
    rewards of different seats are never summed in one place.
    """

    __slots__ = ("edges", "kids", "seat")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.edges: dict[Any, _Edge] = {}
        """The mover's statistics per action."""
        self.kids: dict[tuple[Any, int | None], _Node] = {}
        """The next nodes, by (action, next mover)."""

    def child(self, action: Any, seat: int | None) -> _Node:
        """The node after ``action`` where ``seat`` moves (made on first use)."""
        key = (action, seat)
        node = self.kids.get(key)
        if node is None:
            node = self.kids[key] = _Node(-1 if seat is None else seat)
        return node
