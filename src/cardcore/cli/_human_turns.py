"""One decision at the terminal: a bot's, or a person's read from the commands typed.

Also the questions asked before leaving or overwriting a file. Each function takes the
:class:`~cardcore.cli._human._Session` being played.
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final, Literal

from cardcore._game import IllegalActionError, Outcome
from cardcore._isolation import IsolatedBot, Refused
from cardcore.cli import _common as cli
from cardcore.cli import _human_screen as screen

if TYPE_CHECKING:
    from cardcore.cli._human import _Session

__all__ = [
    "bot_turn",
    "choose",
    "hint",
    "human_turn",
    "interrupted",
    "leave_or_stay",
    "may_write",
    "new_bots",
    "undo",
]

_HELP: Final = """\
Choose an action by its number, or type it (as listed, e.g. the text after the number).
Commands:
  help          this text
  show          draw the table and the legal actions again
  rules         the game's rules
  hint          what a bot would play here (the game's heuristic bot, else random)
  undo          take back your previous decision (and the moves made since)
  save [FILE]   save the match (default: {path}); resume with 'cardcore play --resume FILE';
                a file that is there already is overwritten only if you say so
  quit          stop (you are offered to save first)
A seat's only legal action is played for it, and said, unless you play with
--no-auto-forced (the default at a terminal; with typed-in scripts, --auto-forced).
Keys at a terminal:
  Tab           complete an action or command (suits may be typed as c d h s)
  Up, Down      earlier lines; Left, Right, Home, End edit the line
  Ctrl-C        stop (you are offered to save first, or to carry on)
  Ctrl-D        the same as quit"""

_COMMANDS: Final = ("help", "show", "rules", "hint", "undo", "save", "quit")
"""The commands Tab completes besides the legal actions."""

Turn = Literal["played", "again", "quit"]

_LEAVE: Final = "Save before leaving? [Y/n/c] "
"""The question asked before leaving an unsaved match (Enter alone is yes)."""


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def bot_turn(session: _Session, seat: int) -> Outcome | None:
    """Let a bot decide; return the outcome if it forfeits (as in ``play_match``)."""
    obs = session.game.observe(session.states[-1], seat)
    teams = session.game.teams(session.n)
    session.term.status(f"{session._label(seat)} is thinking...")
    t0 = time.perf_counter()
    bot = session.bots[seat]
    try:
        if type(bot) is IsolatedBot:  # stopped if it overruns, its refusal told as is
            action = bot.decide(obs, obs.legal_actions, session.time_limit)
        else:
            action = bot.act(obs)
    except Exception as e:  # noqa: BLE001 - a crashing bot forfeits, as in play_match
        session.transcripts.note(seat, bot)
        return Outcome.forfeited(
            session.n, seat, f"seat {seat} raised {type(e).__name__}: {e}", teams
        )
    finally:
        session.term.status(None)
    session.transcripts.note(seat, bot)  # not after Ctrl-C: the bot may be mid-answer
    if type(action) is Refused:
        return Outcome.forfeited(session.n, seat, f"seat {seat} {action}", teams)
    took = time.perf_counter() - t0
    if session.time_limit is not None and took > session.time_limit:
        return Outcome.forfeited(
            session.n, seat, f"seat {seat} took {took:.2f} s (limit {session.time_limit} s)", teams
        )
    if isinstance(action, str):
        try:
            action = session.game.parse_action(action)
        except ValueError as e:
            return Outcome.forfeited(
                session.n, seat, f"seat {seat} returned {action!r}: {e}", teams
            )
    if action not in obs.legal_actions:
        return Outcome.forfeited(
            session.n, seat, f"seat {seat} returned an illegal action {action!s}", teams
        )
    session._push(seat, action)
    return None


def human_turn(session: _Session, seat: int) -> Turn:
    """Show the seat its table and read lines until it decides or leaves.

    A seat with one legal action plays it at once when :attr:`auto_forced` is on.
    """
    obs = session.game.observe(session.states[-1], seat)
    if session.auto_forced and len(obs.legal_actions) == 1:
        session._push(seat, obs.legal_actions[0])
        return "played"
    if session.last_human != seat and len(session.humans) > 1 and session.term.interactive:
        session.term.clear()
        if (
            session.term.ask(f"Seat {seat}, your turn: press Enter when only you see the screen.")
            is None
        ):
            return session._quit(ask=True)
    session.last_human = seat
    legal = screen.legal_in_order(session, seat, obs)
    choices = [str(a) for a in legal] + list(_COMMANDS)
    screen.show_table(session, seat, legal)
    while True:
        line = session.term.ask(f"seat {seat}> ", choices)
        if line is None:
            if session.term.interactive:  # Ctrl-D at a terminal: as 'quit'
                session.term.say("Ctrl-D: leaving the match.")
                return session._quit(ask=True)
            session.term.say("end of input: leaving the match.")
            return session._quit(ask=False)
        word, _, rest = line.partition(" ")
        word = word.lower()
        rest = rest.strip()
        if not line:
            continue
        if word in ("help", "?") and not rest:
            session.term.say(_HELP.format(path=session.save_path))
        elif word == "show" and not rest:
            screen.show_table(session, seat, legal)
        elif word == "rules" and not rest:
            from cardcore.cli._rules import rules_for_terminal

            session.term.say(rules_for_terminal(session.game.name))
        elif word == "hint" and not rest:
            hint(session, seat, obs, legal)
        elif word == "undo" and not rest:
            if undo(session, seat):
                return "again"
        elif word == "save":
            session._save(rest or None)
        elif word in ("quit", "exit", "q") and not rest:
            return session._quit(ask=True)
        else:
            action = choose(session, line, legal)
            if action is not None:
                session._push(seat, action)
                return "played"


def choose(session: _Session, line: str, legal: Sequence[Any]) -> Any:
    """The legal action a line names, or ``None`` after saying why it is not one."""
    if line.isdigit():
        k = int(line)
        if 1 <= k <= len(legal):
            return legal[k - 1]
        session.term.error(f"there is no action {k}: choose 1-{len(legal)}, or type 'help'.")
        return None
    for a in legal:
        if str(a).lower() == line.lower():
            return a
    try:
        action = session.game.parse_action(line)
    except Exception as e:  # noqa: BLE001 - a plugin's parser must not end the match
        session.term.error(f"{line!r} is neither a command nor an action: {_one_line(str(e))}")
        return None
    if action in legal:
        return action
    reason = "it is not one of your legal actions"
    try:
        session.game.apply(session.states[-1], action)
    except IllegalActionError as e:
        reason = _one_line(e.reason)
    except Exception as e:  # noqa: BLE001 - any refusal is explained, not raised
        reason = _one_line(str(e))
    session.term.error(f"{action} is not legal now: {reason}.")
    return None


def hint(session: _Session, seat: int, obs: Any, legal: Sequence[Any]) -> None:
    host = cli._host()
    name = f"{session.game.name}-heuristic"
    spec = host.bots().get(name)
    if spec is None or (spec.games and session.game.name not in spec.games):
        name = "random"
    try:
        bot = host.load_bot(
            name, session.game, seed=session.base.seed * 1000 + len(session.actions)
        )
        start = getattr(bot, "start_match", None)
        if start is not None:
            start(session.game, seat, session.n)
        action = bot.act(obs)
        if isinstance(action, str):
            action = session.game.parse_action(action)
        number = legal.index(action) + 1
    except Exception as e:  # noqa: BLE001 - a failing hint must not end the match
        session.term.error(f"no hint: {name} failed ({type(e).__name__}: {_one_line(str(e))}).")
        return
    session.term.say(f"hint ({name}): {number}. {action}")


def undo(session: _Session, seat: int) -> bool:
    """Go back to this seat's previous decision; say why not when it cannot."""
    mine = [i for i, s in enumerate(session.movers) if s == seat and not session._forced(i)]
    if not mine:
        session.term.error("nothing to undo: this is your first decision.")
        return False
    i = mine[-1]
    others = sorted({s for s in session.movers[i + 1 :] if s in session.humans and s != seat})
    if others:
        who = ", ".join(str(s) for s in others)
        session.term.error(f"cannot undo: seat {who} (human) decided since your last decision.")
        return False
    dropped = len(session.actions) - i
    # Fresh bots: a bot must not remember moves that were taken back.
    new_bots(session, i)
    del session.states[i + 1 :]
    del session.movers[i:]
    del session.actions[i:]
    session.seen.clear()
    session.term.say(f"undone: {dropped} decision(s) taken back.")
    return True


def new_bots(session: _Session, at: int) -> None:
    """Fresh bots from decision ``at`` on; what the old ones logged before it is kept.

    Call it before decisions from ``at`` on are taken back.
    """
    session.transcripts.restart(session.game, session._record(None), at)
    session.bots = session.make_bots(session.game, session.names, session.base.seed)


def leave_or_stay(session: _Session) -> bool:
    """Ask whether to save before leaving; True to leave, False to carry on playing.

    Ctrl-C again, or the end of the input at a terminal, saves and leaves: a hurried
    key never loses the match.
    """
    choices = ("yes", "no", "carry on")
    session.term.say(
        f"Leaving the match: y saves it to {session.save_path} first, n leaves without"
        " saving, c carries on playing."
    )
    while True:
        try:
            answer = session.term.ask(_LEAVE, choices)
        except KeyboardInterrupt:  # Ctrl-C again: save and leave
            session.term.say("")
            answer = "y"
        if answer is None:
            if not session.term.interactive:
                return True  # the end of a script's input: leave as it asked
            answer = "y"  # Ctrl-D at a terminal: save and leave
        word = (answer or "y").lower()  # Enter alone: save and leave, the safe choice
        if word in ("y", "yes"):
            if session._save():
                return True
            continue
        if word in ("n", "no"):
            return True
        if word in ("c", "carry on", "carry", "continue"):
            return False
        session.term.error("please answer y (save and leave), n (leave) or c (carry on).")


def may_write(session: _Session, path: str) -> bool:
    """Whether to write ``path``: a file of this match, a new one, or the person agrees."""
    if os.path.abspath(path) in session.mine or not os.path.lexists(path):
        return True
    if os.path.isdir(path):
        session.term.error(f"cannot save to {path}: it is a folder; give a file name.")
        return False
    try:
        answer = session.term.ask(f"{path} is there already: overwrite it? [y/N] ", ("y", "n"))
    except KeyboardInterrupt:
        answer = None
        session.term.say("")
    if (answer or "").lower() in ("y", "yes"):
        return True
    session.term.say(f"not saved: {path} is left as it was (save FILE names another file).")
    return False


def interrupted(session: _Session) -> bool:
    """Ctrl-C: offer to save and leave, or carry on; True to leave."""
    session.term.say("")
    session.term.say(f"Interrupted after {len(session.actions)} decisions.", style="bold")
    if session._unsaved() and not leave_or_stay(session):
        # A bot may have been stopped in the middle of its thinking: fresh bots, and
        # the whole table again.
        new_bots(session, len(session.actions))
        session.seen.clear()
        session.last_human = None
        return False
    session.term.say(f"match left unfinished after {len(session.actions)} decisions.")
    if screen.seed_hidden(session):
        screen.seed_line(session)
    return True
