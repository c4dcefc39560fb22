"""What a web table tells one seat: its page's view, built from its observation only."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardcore._cards import parse_card
from cardcore._engine import accept
from cardcore._game import Game
from cardcore._html import zone_entries
from cardcore._isolation import Refused
from cardcore.cli._human_text import _CARD, known_cards, move_text, past_tense, without_legal

if TYPE_CHECKING:
    from cardcore.web._match import WebTable

__all__ = ["move_seen", "seat_view", "suggestion"]


def _cards_in(text: str) -> list[str]:
    """The card texts inside an action's text, in order."""
    return [str(parse_card(c)) for c in _CARD.findall(text)]


def seat_view(table: WebTable, seat: int, notice: str = "") -> dict[str, Any]:
    """Everything the page of ``seat`` shows, from that seat's observation only.

    Every hand is public once the deal is over, and is shown then (``reveal``).
    """
    game, n = table.game, table.n
    obs = game.observe(table.state, seat)
    to_move = table.to_move()
    teams = game.teams(n)
    over = table.outcome is not None
    legal: list[dict[str, Any]] = []
    if to_move == seat:
        legal = [{"text": str(a), "cards": _cards_in(str(a))} for a in obs.legal_actions]
    out: dict[str, Any] = {
        "type": "view",
        "game": game.name,
        "seat": seat,
        "players": n,
        "names": ["you" if s == seat else e for s, e in enumerate(table.entries)],
        # The seed deals every hidden card: a seat learns it only once the deal is over.
        "seed": table.base.seed if over else None,
        "version": len(table.actions),
        "to_move": to_move,
        "your_turn": to_move == seat,
        "thinking": table.thinking,
        "zones": table.plan.apply(zone_entries([obs.table], seat, teams)),
        "text": game.render(without_legal(obs)),
        "legal": legal,
        "log": table.logs[seat],
        "over": over,
        "autoplay": table.autoplay.get(seat, False),
        "can_undo": any(s == seat and i not in table.forced_at for i, s in enumerate(table.movers)),
        "hint": table.hints.get(seat),
        "tally": table.tally.wins,
        "deals": table.tally.deals,
        "notice": notice,
        "saved": table.saved[-1] if table.saved else None,
    }
    if over:
        views = [game.observe(table.state, s).table for s in range(n)]
        out["reveal"] = table.plan.apply(zone_entries(views, seat, teams))
        out["outcome"] = table.outcome.to_json() if table.outcome is not None else None
        out["result"] = _result(table, seat)
    return out


def _result(table: WebTable, seat: int) -> str:
    o = table.outcome
    assert o is not None
    lines = [f"The deal is over{' (' + o.reason + ')' if o.reason else ''}."]
    for s, (score, place) in enumerate(zip(o.scores, o.placing, strict=True)):
        who = "you" if s == seat else f"seat {s} ({table.entries[s]})"
        win = " - wins" if o.shares[s] else ""
        lines.append(f"{who}: score {score:g}, place {place}{win}")
    return "\n".join(lines)


def move_seen(game: Game[Any, Any, Any], after: Any, seat: int, mover: int, action: str) -> str:
    """``mover``'s action as ``seat`` may know it just after it (``seat 2 played ?``)."""
    if seat == mover:
        return past_tense(action)
    obs = game.observe(after, seat)
    named = 0
    for c in _CARD.findall(game.render(obs)):
        named |= 1 << parse_card(c).id
    return move_text(action, known_cards(obs.table) | named)


def suggestion(game: Game[Any, Any, Any], obs: Any, name: str, bot: Any) -> str:
    """The legal action the hint bot ``name`` chooses from a seat's observation.

    Raises:
        ValueError: the bot chose something that is not legal.
    """
    action = bot.act(obs)
    if isinstance(action, str):
        action = game.parse_action(action)
    found = accept(game, obs.legal_actions, action)
    if isinstance(found, Refused):
        raise ValueError(f"{name} suggested something that is not legal")
    return str(found)
