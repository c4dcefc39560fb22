"""Layout hints (:class:`cardcore.LayoutHints`) applied to a web table's zones.

A game with no hints is drawn from its layout alone. Hints only move zones and say how
to draw them; a hint that names a zone the table lacks is ignored, with a warning, so
that a plugin's cosmetic mistake never keeps a game from being played.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any, final

from cardcore._hooks import LayoutHints

__all__ = ["ZonePlan"]


def _fits(name: str, zone: str) -> bool:
    """Whether a hint's ``name`` is ``zone``, or its family (``won`` for ``won1``)."""
    return zone == name or (zone.startswith(name) and zone[len(name) :].isdigit())


@final
class ZonePlan:
    """Where a table draws each of its zones, from the plugins' hints for its game.

    Args:
        game: the game id (for the warnings).
        hints: the hints for that game, applied in turn.
        zones: the names of the table's zones, in the layout's order.
    """

    def __init__(self, game: str, hints: Sequence[LayoutHints], zones: Sequence[str]) -> None:
        self.hinted = bool(hints)
        self.centre: set[str] = set()
        self.stacked: set[str] = set()
        self.rank: dict[str, int] = {}
        """The zones drawn first, and in which order."""
        for hint in hints:
            for field in ("centre", "order", "stacked"):
                for name in getattr(hint, field):
                    found = [z for z in zones if _fits(name, z)]
                    if not found:
                        warnings.warn(
                            f"layout hints for {game!r}: {field} names zone {name!r}, which "
                            f"this table does not have (its zones: {', '.join(zones)}); "
                            "that hint is ignored",
                            UserWarning,
                            stacklevel=3,
                        )
                    elif field == "order":
                        for z in found:
                            self.rank.setdefault(z, len(self.rank))
                    else:
                        getattr(self, field).update(found)

    def apply(self, entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The zones as drawn (see :func:`cardcore._html.zone_entries`), placed by the hints.

        Without hints they are returned as they are. With hints, the zones named by
        ``order`` come first, and each zone says its ``place`` (``centre`` or ``None``,
        where its owner puts it) and whether it is ``stacked``.
        """
        if not self.hinted:
            return entries
        first = len(self.rank)
        ordered = sorted(entries, key=lambda z: self.rank.get(z["name"], first))
        return [
            {
                **z,
                "place": "centre" if z["name"] in self.centre else None,
                "stacked": z["name"] in self.stacked,
            }
            for z in ordered
        ]
