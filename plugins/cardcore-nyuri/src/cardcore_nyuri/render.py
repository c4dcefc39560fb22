"""Plain-text rendering of a Nyuri observation, from the observing seat's point of view."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from cardcore import SPECTATOR, Card
from cardcore_nyuri.actions import card_value
from cardcore_nyuri.state import NyuriObservation, Phase, TurnRecord

__all__ = ["render_observation"]

_SHOWN_ACTIONS: Final = 12
"""How many legal actions to list before summarising the rest."""


def _cards(cards: Sequence[Card]) -> str:
    return " ".join(str(c) for c in cards)


def _offer(cards: Sequence[Card]) -> str:
    return f"{'+'.join(str(c) for c in cards)} ({sum(card_value(c) for c in cards)})"


def _target(target: Card, guard: Card | None) -> str:
    if guard is None:
        return f"{target} ({card_value(target)})"
    return f"{target} guarded by {guard} ({card_value(target) + card_value(guard)})"


def _seats(seats: Sequence[int]) -> str:
    return ", ".join(f"seat {s}" for s in seats)


def _record(r: TurnRecord, n: int) -> str:
    parts = [f"seat {r.layer} laid {_target(r.target, r.guard)}"]
    for k in range(1, n):
        s = (r.layer + k) % n
        offer = r.offers[s]
        parts.append(f"seat {s} offered {_offer(offer)}" if offer else f"seat {s} declined")
    if r.winner is not None:
        parts.append(f"seat {r.winner} stole it")
        if r.penalty:
            parts.append(f"seat {r.layer} took a random card from seat {r.winner}'s hand")
    if r.drew:
        parts.append(f"{_seats(r.drew)} drew")
    if r.returned == "take back":
        parts.append(f"seat {r.layer} took it back")
    elif r.returned == "swap":
        parts.append(f"seat {r.layer} put it under the stock and drew")
    return "; ".join(parts)


def render_observation(obs: NyuriObservation) -> str:
    """The table as text for the observing seat (``-1``: the onlooker's view).

    Shows the seat's own hand in card order, the counts of hidden cards (and any card of
    another hand that the seat knows), capture piles, the laid target and the offers so
    far, the latest resolved turn, the counts, and whose decision it is.
    """
    n = obs.num_players
    z = obs.zones
    t = obs.table
    who = "an onlooker" if obs.seat == SPECTATOR else f"seat {obs.seat}"
    lines = [f"Nyuri, {n} players, dealer seat {obs.dealer}; you are {who}"]
    stock_known = [c for c in t.slots(z.stock) if c is not None]
    known = f" (known, bottom up: {_cards(stock_known)})" if stock_known else ""
    lines.append(f"turn {obs.turn}; stock {t.size(z.stock)} cards{known}")
    for s in range(n):
        hand = t.cards(z.hand(s))
        size = t.size(z.hand(s))
        mark = "*" if s == obs.current_player else " "
        if s == obs.seat:
            desc = f"hand {size}: {_cards(hand)}" if size else "hand 0"
        else:
            desc = f"hand {size}" + (f" (known: {_cards(hand)})" if hand else "")
        pile = t.cards(z.pile(s))
        pdesc = f"pile {len(pile)}" + (f": {_cards(pile)}" if pile else "")
        you = " (you)" if s == obs.seat else ""
        lines.append(f" {mark}seat {s}{you}: {desc}; {pdesc}; count {obs.counts[s]}")
    if obs.phase is Phase.OFFER or obs.phase is Phase.RETURN:
        target = obs.target
        assert target is not None
        lines.append(f"table: seat {obs.layer} lays {_target(target, obs.guard)}")
        if obs.phase is Phase.OFFER:
            offers = obs.offers
            assert obs.current_player is not None
            k = 1
            while (s := (obs.layer + k) % n) != obs.current_player:
                lines.append(
                    f"  seat {s} offers {_offer(offers[s])}"
                    if offers[s]
                    else f"  seat {s} declines"
                )
                k += 1
    if obs.last is not None:
        label = "this turn" if obs.phase is Phase.RETURN else f"turn {obs.last.turn}"
        lines.append(f"{label}: {_record(obs.last, n)}")
    if obs.current_player is None:
        best = max(obs.counts)
        winners = [s for s in range(n) if obs.counts[s] == best]
        share = "" if len(winners) == 1 else f", 1/{len(winners)} share each"
        lines.append(f"game over: {obs.end_reason}; winner {_seats(winners)}{share}")
    else:
        step = {Phase.LAY: "to lay", Phase.OFFER: "to steal or decline", Phase.RETURN: "to return"}
        lines.append(f"seat {obs.current_player} {step[obs.phase]}")
    if obs.legal_actions:
        acts = [str(a) for a in obs.legal_actions[:_SHOWN_ACTIONS]]
        more = len(obs.legal_actions) - len(acts)
        tail = f", ... ({len(obs.legal_actions)} in all)" if more > 0 else ""
        lines.append(f"your choices: {', '.join(acts)}{tail}")
    return "\n".join(lines)
