"""Plain-text rendering of a Noddy observation, from the observing seat's point of view."""

from __future__ import annotations

from cardcore import SPECTATOR, Card
from cardcore_noddy.state import (
    HANDS,
    Cut,
    Deal,
    Event,
    Go,
    KnavePassed,
    KnaveShown,
    LastCard,
    NoddyObservation,
    Phase,
    Played,
    Shown,
    TurnupJack,
    Won,
)

__all__ = ["describe_event", "render"]


def _who(seat: int, me: int) -> str:
    return f"seat {seat} (you)" if seat == me else f"seat {seat}"


def _sorted(cards: tuple[Card, ...]) -> str:
    """Cards sorted by rank (ace low), then suit."""
    ordered = sorted(cards, key=lambda c: (int(c.rank) % 14, int(c.suit)))
    return " ".join(str(c) for c in ordered) or "-"


def _parts(parts: tuple[tuple[str, int], ...]) -> str:
    return ", ".join(f"{name} {points}" for name, points in parts)


def describe_event(event: Event, me: int = SPECTATOR) -> str:
    """One public event in words, e.g. ``seat 1 plays 8♠: total 15, fifteens 2 (score 2)``."""
    e = event
    if isinstance(e, Cut):
        a, b = e.cards
        return f"cut for the deal: seat 0 draws {a}, seat 1 draws {b}"
    if isinstance(e, Deal):
        return f"hand {e.hand}: {_who(e.dealer, me)} deals; turn-up {e.turnup}"
    if isinstance(e, TurnupJack):
        return f"turned-up jack: {_who(e.seat, me)} scores {e.points} (score {e.score})"
    if isinstance(e, KnaveShown):
        return f"{_who(e.seat, me)} shows the knave noddy {e.card}: +1 (score {e.score})"
    if isinstance(e, KnavePassed):
        return f"{_who(e.seat, me)} passes (knave noddy)"
    if isinstance(e, Shown):
        detail = f" ({_parts(e.parts)})" if e.parts else ""
        return f"{_who(e.seat, me)} shows {e.points}{detail} (score {e.score})"
    if isinstance(e, Played):
        gain = f", {_parts(e.parts)}" if e.parts else ""
        score = f" (score {e.score})" if e.points else ""
        return f"{_who(e.seat, me)} plays {e.card}: total {e.total}{gain}{score}"
    if isinstance(e, Go):
        return f"{_who(e.seat, me)}: go at {e.total}"
    if isinstance(e, LastCard):
        return f"last card: {_who(e.seat, me)} +1 (score {e.score})"
    assert isinstance(e, Won)
    return f"{_who(e.seat, me)} reaches {e.score} and wins"


def render(observation: NoddyObservation) -> str:
    """The table as text for the observing seat (``-1``: an onlooker).

    Shows the scores, the dealer, the turn-up and trumps, the observer's own hand
    sorted, the opponent's hand as known cards plus ``?`` for each hidden one, the pile
    and running total, whose turn it is with the legal actions, and the public events of
    the previous and the current hand.
    """
    o = observation
    me = o.seat
    view = "an onlooker" if me == SPECTATOR else f"seat {me}"
    lines = [
        f"Noddy, hand {o.hand}, playing to {o.options.target}; seen by {view}",
        "scores: " + ", ".join(f"{_who(s, me)} {o.scores[s]}" for s in range(2)),
    ]
    turnup = o.turnup
    up = f"; turn-up {turnup} (trumps {turnup.suit.symbol})" if turnup is not None else ""
    lines.append(f"dealer: {_who(o.dealer, me)}{up}")
    for s in range(2):
        zone = HANDS[s]
        known = o.table.cards(zone)
        size = o.table.size(zone)
        if s == me:
            lines.append(f"your hand: {_sorted(known)}")
        else:
            shown = [str(c) for c in known] + ["?"] * (size - len(known))
            cards = " ".join(shown) or "-"
            lines.append(f"seat {s}'s hand: {cards} ({size} card{'' if size == 1 else 's'})")
    pile = " ".join(str(c) for c in o.pile) or "-"
    lines.append(f"pile: {pile} (total {o.total})")
    gone = [str(s) for s in range(2) if o.gone[s]]
    if gone:
        lines.append("gone: seat " + ", seat ".join(gone))
    starts = [i for i, e in enumerate(o.events) if isinstance(e, Deal)]
    first = starts[-2] if len(starts) >= 2 else 0
    lines.append("events:")
    for e in o.events[first:]:
        lines.append("  " + describe_event(e, me))
    if o.phase is Phase.OVER:
        lines.append("game over")
    else:
        step = "step 2, knave noddy" if o.phase is Phase.KNAVE else "the play"
        lines.append(f"to act: {_who(o.current_player or 0, me)} ({step})")
        if o.legal_actions:
            lines.append("legal: " + ", ".join(str(a) for a in o.legal_actions))
    return "\n".join(lines)
