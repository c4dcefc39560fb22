"""High card's observations as text."""

from __future__ import annotations

from cardcore_highcard.state import HighcardObservation

__all__ = ["render"]


def render(observation: HighcardObservation) -> str:
    """The table as text for the observing seat."""
    o = observation
    lines = [f"High card, {o.num_players} players; rounds won: {list(o.wins)}"]
    for i in range(o.num_players):
        mark = " (you)" if i == o.seat else ""
        lines.append(f"  seat {i}{mark}: hand {o.table.describe(1 + i)}")
    lines.append(f"  trick: {o.table.describe(1 + o.num_players)}")
    done = o.table.cards(2 + o.num_players)
    if done:
        last = " ".join(str(c) for c in done[-o.num_players :])
        lines.append(f"  last round: [{last}]; rounds played: {len(done) // o.num_players}")
    if o.current_player is None:
        lines.append("  game over")
    else:
        lines.append(f"  to play: seat {o.current_player}")
    return "\n".join(lines)
