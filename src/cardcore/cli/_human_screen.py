"""What the people at the terminal see: a seat's table, its legal actions, the moves.

Each function takes the :class:`~cardcore.cli._human._Session` being played, and shows
a seat only what its observation holds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from cardcore._game import Outcome
from cardcore.cli import _common as cli
from cardcore.cli._human_io import changed_lines, columns
from cardcore.cli._human_text import (
    final_hands,
    in_hand_order,
    known_cards,
    move_text,
    own_cards,
    past_tense,
    without_legal,
)

if TYPE_CHECKING:
    from cardcore.cli._human import _Session

__all__ = [
    "legal_in_order",
    "move_line",
    "render",
    "report",
    "seed_hidden",
    "seed_line",
    "show_end",
    "show_full",
    "show_header",
    "show_table",
]


def render(session: _Session, seat: int) -> str:
    """The seat's table, without the game's own list of legal actions (ours is numbered)."""
    obs = session.game.observe(session.states[-1], seat)
    return str(session.game.render(without_legal(obs)))


def show_full(session: _Session, seat: int, title: str) -> None:
    text = render(session, seat)
    session.seen[seat] = text
    session.term.say(title, style="bold")
    session.term.view(text)


def legal_in_order(session: _Session, seat: int, obs: Any) -> tuple[Any, ...]:
    """The seat's legal actions, those of its own cards in the order its hand is drawn."""
    legal = tuple(obs.legal_actions)
    view = getattr(obs, "table", None)
    if len(legal) < 2 or view is None:
        return legal
    try:
        own = own_cards(view, seat)
    except (AttributeError, TypeError):  # an observation without a card table
        return legal
    return tuple(in_hand_order(legal, render(session, seat), own))


def move_line(session: _Session, seat: int, action: Any) -> str:
    """``seat 1 (random) played 7♦``: a decision as far as the viewer may know it.

    The viewer's own moves are told in full; another seat's move is told from its
    action's text with every card the viewer's observation does not place shown as
    ``?`` (the cards of a face-down discard stay hidden).
    """
    forced = ""
    if seat in session.humans and session._forced(len(session.states) - 2):
        forced = " (the only legal action, played for you)"
    if seat == session.viewer:
        return f"{session._label(seat)} {past_tense(str(action))}{forced}"
    view = session.game.observe(session.states[-1], session.viewer).table
    return f"{session._label(seat)} {move_text(str(action), known_cards(view))}"


def report(session: _Session, seat: int, action: Any) -> None:
    """Tell the viewer about a decision, as far as the viewer may know it."""
    line = move_line(session, seat, action)
    if session.verbose:
        show_full(session, session.viewer, line)
        return
    if session.game.current_player(session.states[-1]) in (session.viewer, None):
        # The viewer decides next, or the game is over: the whole table follows.
        session.term.say(line)
        return
    text = render(session, session.viewer)
    lines = changed_lines(session.seen.get(session.viewer, ""), text)
    session.seen[session.viewer] = text
    session.term.say(line)
    if lines:
        session.term.view("\n".join(lines))


def show_table(session: _Session, seat: int, legal: Sequence[Any]) -> None:
    session.term.say()  # a blank line sets each decision apart from the moves before it
    show_full(session, seat, f"Your turn, seat {seat} (decision {len(session.actions) + 1}):")
    items = [f"{i:>2}. {a}" for i, a in enumerate(legal, start=1)]
    session.term.view("\n".join(columns(items, session.term.width - 2)), indent="  ")


def show_end(session: _Session, outcome: Outcome) -> None:
    """The final table, every hand at the end, the outcome, and where the record went."""
    show_full(session, session.viewer, "Final table:")
    hands = final_hands(session.game, session.states[-1], session.n, session._label)
    if hands:
        session.term.say("Every hand at the end:", style="bold")
        session.term.view("\n".join(hands))
    session.term.say(
        cli._describe_outcome(outcome, session.names, len(session.actions)), style="bold"
    )
    if seed_hidden(session):
        seed_line(session)
    if session.final_path:
        session.term.say(f"record saved to {session.final_path}")


def seed_hidden(session: _Session) -> bool:
    """Whether the seed waits until the match is over or left.

    The seed deals every hidden card. A person is shown it while playing only when they
    chose it with ``--seed`` alone at the screen; a seed drawn at random, one derived from
    a secret (an untrusted bot sits), or several people at one screen keep it until the
    end, and saves are then not named by it (as at the web table).
    """
    secret = bool(getattr(session.make_bots, "secret_deal", False))
    return len(session.humans) > 1 or session.drawn_seed or secret


def seed_line(session: _Session) -> None:
    """How to deal this match again: at the start, or at the end when the seed was hidden.

    A deal seeded from a secret (an untrusted bot sits) is not dealt again by ``--seed``:
    its record is.
    """
    rec = session.base
    if session.drawn_seed:
        session.term.say(f"  (a seed drawn at random: --seed {rec.seed} deals this match again)")
    elif seed_hidden(session) and not getattr(session.make_bots, "secret_deal", False):
        session.term.say(f"  (seed {rec.seed}: --seed {rec.seed} deals this match again)")


def show_header(session: _Session) -> None:
    """The match's game, players and seats, and how to choose an action.

    The seed deals every hidden card: unless the person chose it (``--seed``, alone at the
    screen), it waits for the end of the match.
    """
    rec = session.base
    seed = f"seed {rec.seed}"
    if getattr(session.make_bots, "secret_deal", False):
        seed = "dealt from a secret (its record deals it again)"
    elif seed_hidden(session):
        seed = "the seed is shown when the match is over"
    session.term.say(f"{rec.game}: {session.n} players, preset {rec.preset}, {seed}", style="bold")
    for seat, name in enumerate(session.names):
        session.term.say(f"  seat {seat}: {name}")
    if session.actions:
        session.term.say(f"resumed after {len(session.actions)} decisions")
    if session.humans:
        session.term.say("Choose an action by number or type it; 'help' lists the commands.")
