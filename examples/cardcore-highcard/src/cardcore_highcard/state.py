"""High card's state, table layout and observation."""

from __future__ import annotations

from typing import Any, Final, final

import attrs

from cardcore import CardTable, JsonCodec, Layout, TableView, Visibility, Zone
from cardcore_highcard.actions import Play, parse_action

__all__ = ["LAYOUTS", "STOCK", "HighcardObservation", "HighcardState"]


def _layout(n: int) -> Layout:
    zones = [Zone("stock", Visibility.HIDDEN, ordered=True)]
    zones += [Zone(f"hand{i}", Visibility.OWNER, owner=i) for i in range(n)]
    zones += [
        Zone("trick", Visibility.PUBLIC, ordered=True),
        Zone("done", Visibility.PUBLIC, ordered=True),
    ]
    return Layout(tuple(zones), n, (1 << 52) - 1)


LAYOUTS: Final = {n: _layout(n) for n in range(2, 5)}
"""The table layout for each player count: the stock, a hand per seat, the trick, done."""
STOCK: Final = 0
"""The stock's zone index (hands follow, one per seat, then the trick and done)."""


@final
@attrs.frozen(kw_only=True)
class HighcardState:
    """A full state; never shown to bots."""

    table: CardTable
    rng: int
    dealer: int
    leader: int
    current: int | None
    wins: tuple[int, ...]


@final
@attrs.frozen(kw_only=True)
class HighcardObservation:
    """What one seat knows: its hand, the cards on the table, the rounds won."""

    seat: int
    num_players: int
    dealer: int
    leader: int
    current_player: int | None
    wins: tuple[int, ...]
    table: TableView
    legal_actions: tuple[Play, ...]

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data."""
        return CODEC.encode(self)  # type: ignore[no-any-return]


CODEC: Final = JsonCodec((Play,), parse_action, LAYOUTS.__getitem__)
"""Observations to and from JSON."""
