"""Plain-text rendering of a Box observation (no I/O)."""

from __future__ import annotations

from collections.abc import Iterable

from cardcore import SPECTATOR, Card
from cardcore_box.options import NUM_PLAYERS
from cardcore_box.state import (
    BOX,
    DISCARD,
    DRAW,
    EXTRA,
    HAND,
    TABLE,
    BoxObservation,
    Ending,
    RoundResult,
)

__all__ = ["render"]


def _cards(cards: Iterable[Card]) -> str:
    """Cards by rank, high first (suits only break ties, for a stable order)."""
    return " ".join(str(c) for c in sorted(cards, key=lambda c: (-c.rank, c.suit)))


def _who(seat: int, me: int) -> str:
    return f"seat {seat} (you)" if seat == me else f"seat {seat}"


def _played(cards: Iterable[Card], by: Iterable[int], boxed: Iterable[bool]) -> str:
    parts = []
    for c, s, b in zip(cards, by, boxed, strict=True):
        parts.append(f"{c} (seat {s}{', box' if b else ''})")
    return ", ".join(parts)


def _last_round(r: RoundResult, me: int) -> list[str]:
    lines = [f"round {r.number}: {_played(r.cards, r.played_by, r.from_box) or 'no cards'}"]
    if r.ending is Ending.FAILED_DRAW:
        assert r.turned_up is not None
        last = f" for the {r.cards[-1]}" if r.cards else ""
        lines.append(
            f"  {_who(r.stuck, me)} turned up {r.turned_up} from the box, too high{last}; "
            f"it goes to seat {r.winner}'s extra pile"
        )
    else:
        lines.append(f"  {_who(r.stuck, me)} was stuck with an empty box")
    lines.append(f"  {_who(r.winner, me)} won the round")
    draws = []
    for s in range(NUM_PLAYERS):
        h, b = r.hand_draws[s], r.box_draws[s]
        if h or b:
            bits = [f"{h} to the hand"] if h else []
            bits += [f"{b} to the box"] if b else []
            draws.append(f"seat {s} {' and '.join(bits)}")
    lines.append("  drew: " + ("; ".join(draws) if draws else "nothing"))
    for s in r.eliminated:
        lines.append(f"  {_who(s, me)} has an empty box and is out")
    return lines


def _winners(o: BoxObservation) -> list[int]:
    alive = [s for s in range(NUM_PLAYERS) if not o.out[s]]
    if alive:
        return alive
    final = max(o.out)
    group = [s for s in range(NUM_PLAYERS) if o.out[s] == final]
    most = max(o.table.size(EXTRA + s) for s in group)
    return [s for s in group if o.table.size(EXTRA + s) == most]


def render(observation: BoxObservation) -> str:
    """The table as text for the observing seat (``-1``: an onlooker).

    Shows the seat's own hand sorted, counts of every hidden zone (boxes are never
    shown, not even to their owner), extra piles, the table with who played what, the
    earlier rounds one line each, how the last round ended and the seat's legal actions
    when it is to move.
    """
    o = observation
    v = o.table
    me = o.seat
    who_am_i = "onlooker" if me == SPECTATOR else f"you are seat {me}"
    lines = [f"Box, round {o.round} ({who_am_i})"]
    if o.current_player is None:
        ws = _winners(o)
        lines.append(
            "game over: "
            + (
                f"{_who(ws[0], me)} wins"
                if len(ws) == 1
                else " and ".join(_who(w, me) for w in ws) + " share the win"
            )
        )
    else:
        way = "clockwise" if o.direction > 0 else "anticlockwise"
        lines.append(f"{_who(o.current_player, me)} to play, {way}; seat {o.leader} led")
    lines.append(f"dealer seat {o.dealer}; draw pile {v.size(DRAW)}; discard {v.size(DISCARD)}")
    for s in range(NUM_PLAYERS):
        extra = v.cards(EXTRA + s)
        extra_text = f"extra {len(extra)}" + (f": {_cards(extra)}" if extra else "")
        if o.out[s]:
            lines.append(f"  {_who(s, me)}: out in round {o.out[s]}; {extra_text}")
            continue
        known = v.cards(HAND + s)
        size = v.size(HAND + s)
        if not size:
            hand = "hand empty"
        elif len(known) == size:
            hand = f"hand {_cards(known)}"
        else:
            hand = f"hand {size} card{'' if size == 1 else 's'}"
        plays = o.box_plays(s)
        note = f"; {plays} box play{'' if plays == 1 else 's'} this round" if plays else ""
        lines.append(f"  {_who(s, me)}: {hand}; box {v.size(BOX + s)}; {extra_text}{note}")
    table = v.cards(TABLE)
    lines.append("table: " + (_played(table, o.played_by, o.from_box) if table else "empty"))
    if len(o.rounds) > 1:  # BX-8.1: every round is public, also those a seat sat out
        lines.append("earlier rounds:")
        lines.extend("  " + "; ".join(x.strip() for x in _last_round(r, me)) for r in o.rounds[:-1])
    if o.last_round is not None:
        lines.append("last " + "\n".join(_last_round(o.last_round, me)))
    if o.legal_actions:
        lines.append("your move: " + " | ".join(str(a) for a in o.legal_actions))
    return "\n".join(lines)
