"""Plain-text rendering of a Nestors observation, from the observing seat's point of view."""

from __future__ import annotations

from typing import Final

from cardcore import SPECTATOR, Card
from cardcore_nestors.actions import Bid
from cardcore_nestors.state import (
    HAND,
    HOLE,
    ROW,
    STOCK,
    TRICK,
    HandResult,
    NestorsObservation,
    Phase,
    TrickRecord,
)

__all__ = ["render_observation"]

_TEAM: Final = ("seats 0+2", "seats 1+3")
_RANK: Final = {14: "A", 11: "J", 10: "10", 0: "-"}
_ASK: Final = {
    Phase.AUCTION: "bid or pass",
    Phase.TRUMP: "name the trump rank",
    Phase.LEAD: "play a trump to trick 1",
    Phase.TAKE: "take two face-up cards",
    Phase.PLAY: "play a card",
    Phase.LEAVE: "leave the carry card",
}


def _cards(cards: tuple[Card, ...]) -> str:
    return " ".join(str(c) for c in cards) if cards else "-"


def _trick(t: TrickRecord) -> str:
    if t.number == 1:
        text = f"trick 1: seat {t.leader} played {t.cards[0]}, took {t.cards[1]} {t.cards[2]}"
        return text + f"; {t.carry} stays as the carry card"
    plays = " ".join(f"{c} (seat {(t.leader + i) % 4})" for i, c in enumerate(t.cards))
    text = f"trick {t.number}: {plays}, carry {t.carry}; won by seat {t.winner}"
    if t.left is not None:
        text += f", who left {t.left}"
    return text


def _hand(r: HandResult) -> str:
    if r.void:
        return f"deal {r.deal} was void: all passed and dealer seat {r.dealer} held no A, J or 10"
    assert r.bidder is not None
    decl = r.bidder % 2
    verdict = "made" if r.made else "failed"
    return (
        f"deal {r.deal}: seat {r.bidder} bid {r.contract} with {_RANK[r.trump]} trumps and "
        f"{verdict} it ({r.points[decl]} to {r.points[1 - decl]}); "
        f"{_TEAM[0]} {r.change[0]:+d}, {_TEAM[1]} {r.change[1]:+d}"
    )


def _calls(calls: tuple[tuple[int, int], ...]) -> str:
    return ", ".join(f"seat {s} {'bid ' + str(b) if b else 'pass'}" for s, b in calls) or "-"


def _hand_story(r: HandResult) -> list[str]:
    """A finished deal's auction and tricks, one line each (NS-8.1)."""
    return [f"  auction: {_calls(r.calls)}", *(f"  {_trick(t)}" for t in r.tricks)]


def _hands(o: NestorsObservation) -> str:
    parts = []
    t = o.table
    for s in range(4):
        cards = t.cards(HAND + s)
        size = t.size(HAND + s)
        if len(cards) == size and (size or s == o.seat):
            text = _cards(cards)
        else:
            text = f"{size} card{'' if size == 1 else 's'}"
        v = o.play.voids[s]
        if v:
            text += " (no " + "".join(sym for n, sym in enumerate("♣♦♥♠") if (v >> n) & 1) + ")"
        parts.append(f"seat {s}{' (you)' if s == o.seat else ''}: {text}")
    return "Hands: " + " | ".join(parts)


def render_observation(o: NestorsObservation) -> str:
    """The observation as text: scores, auction, table, hands, last events, whose turn."""
    me = o.seat
    m, d, p = o.match, o.deal, o.play
    who = "onlooker" if me == SPECTATOR else f"seat {me}, partner seat {(me + 2) % 4}"
    lines = [
        f"Nestors deal {d.number}, dealer seat {d.dealer} | scores {_TEAM[0]}: {m.scores[0]}, "
        f"{_TEAM[1]}: {m.scores[1]} | you: {who}"
    ]
    if d.number == 1 and m.first_draw and o.phase is Phase.AUCTION:
        turned = " ".join(f"{c} (seat {i % 4})" for i, c in enumerate(m.first_draw))
        lines.append(f"First dealer chosen by turning up: {turned}")
    # The deals that ended since this seat may last have decided: in full until the
    # next deal's play starts (every seat calls in that auction), then in one line.
    in_full = o.phase is Phase.OVER or not p.done
    for r in m.recent:
        lines.append(f"Last deal: {_hand(r)}")
        if in_full:
            lines.extend(_hand_story(r))
    t = o.table
    if o.phase is not Phase.OVER:
        text = f"Auction: {_calls(d.calls)}"
        if o.phase is not Phase.AUCTION:
            trump = _RANK[d.trump] if d.trump else "not named yet"
            text += f" | bidder seat {d.bidder}, contract {d.high}, trump {trump}"
        lines.append(text)
        if t.size(STOCK) or t.size(HOLE):
            lines.append(
                f"Face down: hole card {t.size(HOLE)}, undealt {t.size(STOCK)} | "
                f"face-up row: {_cards(t.cards(ROW))}"
            )
        elif p.trick <= 1:
            lines.append(f"Face-up row: {_cards(t.cards(ROW))}")
        if p.trick >= 1:
            played = t.cards(TRICK)
            plays = " ".join(f"{c} (seat {(p.leader + i) % 4})" for i, c in enumerate(played))
            carry = f"carry {_cards(t.cards(ROW))} | " if p.trick > 1 else ""
            lines.append(
                f"Trick {p.trick} led by seat {p.leader}: {plays or '-'} | {carry}"
                f"hand points {_TEAM[0]}: {p.points[0]} ({p.tricks[0]} tricks), "
                f"{_TEAM[1]}: {p.points[1]} ({p.tricks[1]} tricks)"
            )
        lines.append(_hands(o))
        if p.done:
            lines.append("Tricks this deal:")
            lines.extend(f"  {_trick(r)}" for r in p.done)
    if o.current_player is None:
        lines.append(f"Game over: {m.reason}; final scores {m.scores[0]} to {m.scores[1]}")
    else:
        lines.append(f"To move: seat {o.current_player} ({_ASK[o.phase]})")
    if o.legal_actions:
        bids = [a.points for a in o.legal_actions if isinstance(a, Bid)]
        rest = [str(a) for a in o.legal_actions if not isinstance(a, Bid)]
        if len(bids) > 2:
            rest.append(f"bid {bids[0]}..{bids[-1]} (steps of 5)")
        else:
            rest += [f"bid {b}" for b in bids]
        lines.append("Your options: " + ", ".join(rest))
    return "\n".join(lines)
