"""Human play in the terminal, for every game, with no per-game code.

``cardcore play GAME --human SEAT --bots ...`` seats people at the table;
``cardcore play --resume FILE`` continues a saved match; ``cardcore replay FILE
--interactive`` steps through a record. Everything goes through the game protocol: the
table is the game's own ``render`` of one seat's observation, typed actions are read with
``parse_action``, and an action's text is shown only to the seat that took it.

Undo and resume rest on states being values: the session keeps the state before every
decision, and a saved match is an ordinary :class:`~cardcore.MatchRecord` (outcome
``None`` while unfinished) whose ``bots`` field says who sat where (``human`` for people).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import time
from collections.abc import Sequence
from typing import Any, Final, Literal, final

import attrs

from cardcore._engine import MatchRecord, RecordError, initial_state_of, replay
from cardcore._game import Game, IllegalActionError, Outcome
from cardcore._host import PluginError
from cardcore._isolation import IsolatedBot, Refused
from cardcore._options import OptionError, options_to_json
from cardcore._table import SPECTATOR
from cardcore.cli import _common as cli
from cardcore.cli._human_io import Terminal, changed_lines, columns
from cardcore.cli._human_text import (
    final_hands,
    in_hand_order,
    known_cards,
    move_text,
    own_cards,
    past_tense,
    without_legal,
)

__all__ = ["HUMAN", "browse_replay", "play_human", "resume_human"]

HUMAN: Final = cli.HUMAN
"""The name a record gives to a seat played by a person."""

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

_Turn = Literal["played", "again", "quit"]

_LEAVE: Final = "Save before leaving? [Y/n/c] "
"""The question asked before leaving an unsaved match (Enter alone is yes)."""

INTERRUPTED: Final = 130
"""The exit code after Ctrl-C, as a shell gives a program stopped by SIGINT."""


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


@final
class _Session:
    """One match at the terminal: the states so far, who sits where, and the prompts."""

    def __init__(
        self,
        game: Game[Any, Any, Any],
        record: MatchRecord,
        term: Terminal,
        *,
        save_path: str | None,
        final_path: str | None,
        verbose: bool,
        time_limit: float | None,
        as_json: bool,
        saved: bool = False,
        auto_forced: bool | None = None,
        drawn_seed: bool = False,
        make_bots: Any = None,
    ) -> None:
        self.game = game
        self.make_bots = make_bots or cli.table_bots
        """Builds the bots (``cli.table_bots``'s signature): isolated ones too."""
        self.base = attrs.evolve(record, actions=(), outcome=None)
        self.names = list(record.bots)
        self.n = record.num_players
        self.humans = frozenset(s for s, b in enumerate(self.names) if b == HUMAN)
        self.term = term
        self._save_path = save_path
        """Where ``save`` writes by default; ``None``: a new file, named at the first save."""
        self.mine: set[str] = set()
        """The files this match may overwrite without asking: its own saves, the resumed
        file, the ``--record`` file."""
        if save_path is not None:
            self.mine.add(os.path.abspath(save_path))
        self.auto_forced = term.interactive if auto_forced is None else auto_forced
        """Whether a seat's only legal action is played without asking."""
        self.drawn_seed = drawn_seed
        self.final_path = final_path
        self.verbose = verbose
        self.time_limit = time_limit
        self.as_json = as_json
        # One viewer watches the others move: the human, or the public table when
        # several people share the screen (hot-seat).
        self.viewer = next(iter(self.humans)) if len(self.humans) == 1 else SPECTATOR
        self.states: list[Any] = [initial_state_of(record, game)]
        self.movers: list[int] = []
        self.actions: list[str] = []
        for step in replay(record, game):
            self.states.append(step.after)
            self.movers.append(step.seat)
            self.actions.append(str(step.action))
        self.saved_at: int | None = len(self.actions) if saved else None
        """How many decisions the last save held (``None``: never saved)."""
        self.bots = self.make_bots(game, self.names, record.seed)
        self.seen: dict[int, str] = {}
        self.last_human: int | None = None

    # ---- the loop ------------------------------------------------------------------

    def run(self) -> int:
        """Play until the game ends or the people quit; return the exit code.

        Ctrl-C, at the prompt or while a bot thinks, asks whether to save before leaving,
        or to carry on: the match is never lost. Leaving after Ctrl-C exits with 130.
        """
        self._header()
        while True:
            try:
                return self._play()
            except KeyboardInterrupt:
                self.term.status(None)
                if self._interrupted():
                    return INTERRUPTED

    def _play(self) -> int:
        while True:
            state = self.states[-1]
            seat = self.game.current_player(state)
            if seat is None:
                outcome = self.game.outcome(state)
                assert outcome is not None
                return self._finish(outcome)
            if seat in self.humans:
                if self._human_turn(seat) == "quit":
                    return 0
                continue
            forfeit = self._bot_turn(seat)
            if forfeit is not None:
                return self._finish(forfeit)

    @property
    def _hot_seat(self) -> bool:
        """Whether several people share the screen (hot seat).

        The seed deals every hidden card, so it is then shown only once the match is over,
        and saves are not named by it (as at the web table).
        """
        return len(self.humans) > 1

    def _seed_line(self) -> None:
        rec = self.base
        if self.drawn_seed:
            self.term.say(f"  (a seed drawn at random: --seed {rec.seed} deals this match again)")
        elif self._hot_seat and not getattr(self.make_bots, "secret_deal", False):
            self.term.say(f"  (seed {rec.seed}: --seed {rec.seed} deals this match again)")

    def _header(self) -> None:
        rec = self.base
        seed = "the seed is shown when the match is over" if self._hot_seat else f"seed {rec.seed}"
        self.term.say(f"{rec.game}: {self.n} players, preset {rec.preset}, {seed}", style="bold")
        if not self._hot_seat:
            self._seed_line()
        for seat, name in enumerate(self.names):
            self.term.say(f"  seat {seat}: {name}")
        if self.actions:
            self.term.say(f"resumed after {len(self.actions)} decisions")
        if self.humans:
            self.term.say("Choose an action by number or type it; 'help' lists the commands.")

    def _label(self, seat: int) -> str:
        if seat == self.viewer:
            return f"seat {seat} (you)"
        return f"seat {seat} ({self.names[seat]})"

    def _render(self, seat: int) -> str:
        """The seat's table, without the game's own list of legal actions (ours is numbered)."""
        obs = self.game.observe(self.states[-1], seat)
        return str(self.game.render(without_legal(obs)))

    def _show_full(self, seat: int, title: str) -> None:
        text = self._render(seat)
        self.seen[seat] = text
        self.term.say(title, style="bold")
        self.term.view(text)

    def _forced(self, i: int) -> bool:
        """Whether decision ``i`` (0-based) was a seat's only legal action, played for it."""
        return self.auto_forced and len(self.game.legal_actions(self.states[i])) == 1

    def _legal(self, seat: int, obs: Any) -> tuple[Any, ...]:
        """The seat's legal actions, those of its own cards in the order its hand is drawn."""
        legal = tuple(obs.legal_actions)
        view = getattr(obs, "table", None)
        if len(legal) < 2 or view is None:
            return legal
        try:
            own = own_cards(view, seat)
        except (AttributeError, TypeError):  # an observation without a card table
            return legal
        return tuple(in_hand_order(legal, self._render(seat), own))

    def _move_line(self, seat: int, action: Any) -> str:
        """``seat 1 (random) played 7♦``: a decision as far as the viewer may know it.

        The viewer's own moves are told in full; another seat's move is told from its
        action's text with every card the viewer's observation does not place shown as
        ``?`` (the cards of a face-down discard stay hidden).
        """
        forced = ""
        if seat in self.humans and self._forced(len(self.states) - 2):
            forced = " (the only legal action, played for you)"
        if seat == self.viewer:
            return f"{self._label(seat)} {past_tense(str(action))}{forced}"
        view = self.game.observe(self.states[-1], self.viewer).table
        return f"{self._label(seat)} {move_text(str(action), known_cards(view))}"

    def _report(self, seat: int, action: Any) -> None:
        """Tell the viewer about a decision, as far as the viewer may know it."""
        line = self._move_line(seat, action)
        if self.verbose:
            self._show_full(self.viewer, line)
            return
        if self.game.current_player(self.states[-1]) in (self.viewer, None):
            # The viewer decides next, or the game is over: the whole table follows.
            self.term.say(line)
            return
        text = self._render(self.viewer)
        lines = changed_lines(self.seen.get(self.viewer, ""), text)
        self.seen[self.viewer] = text
        self.term.say(line)
        if lines:
            self.term.view("\n".join(lines))

    def _push(self, seat: int, action: Any) -> None:
        self.states.append(self.game.apply(self.states[-1], action))
        self.movers.append(seat)
        self.actions.append(str(action))  # last: a save holds the actions, and only them
        self._report(seat, action)

    # ---- bots ----------------------------------------------------------------------

    def _bot_turn(self, seat: int) -> Outcome | None:
        """Let a bot decide; return the outcome if it forfeits (as in ``play_match``)."""
        obs = self.game.observe(self.states[-1], seat)
        teams = self.game.teams(self.n)
        self.term.status(f"{self._label(seat)} is thinking...")
        t0 = time.perf_counter()
        bot = self.bots[seat]
        try:
            if type(bot) is IsolatedBot:  # stopped if it overruns, its refusal told as is
                action = bot.decide(obs, obs.legal_actions, self.time_limit)
                if type(action) is Refused:
                    return Outcome.forfeited(self.n, seat, f"seat {seat} {action}", teams)
            else:
                action = bot.act(obs)
        except Exception as e:  # noqa: BLE001 - a crashing bot forfeits, as in play_match
            return Outcome.forfeited(
                self.n, seat, f"seat {seat} raised {type(e).__name__}: {e}", teams
            )
        finally:
            self.term.status(None)
        took = time.perf_counter() - t0
        if self.time_limit is not None and took > self.time_limit:
            return Outcome.forfeited(
                self.n, seat, f"seat {seat} took {took:.2f} s (limit {self.time_limit} s)", teams
            )
        if isinstance(action, str):
            try:
                action = self.game.parse_action(action)
            except ValueError as e:
                return Outcome.forfeited(
                    self.n, seat, f"seat {seat} returned {action!r}: {e}", teams
                )
        if action not in obs.legal_actions:
            return Outcome.forfeited(
                self.n, seat, f"seat {seat} returned an illegal action {action!s}", teams
            )
        self._push(seat, action)
        return None

    # ---- people --------------------------------------------------------------------

    def _human_turn(self, seat: int) -> _Turn:
        """Show the seat its table and read lines until it decides or leaves.

        A seat with one legal action plays it at once when :attr:`auto_forced` is on.
        """
        obs = self.game.observe(self.states[-1], seat)
        if self.auto_forced and len(obs.legal_actions) == 1:
            self._push(seat, obs.legal_actions[0])
            return "played"
        if self.last_human != seat and len(self.humans) > 1 and self.term.interactive:
            self.term.clear()
            if (
                self.term.ask(f"Seat {seat}, your turn: press Enter when only you see the screen.")
                is None
            ):
                return self._quit(ask=True)
        self.last_human = seat
        legal = self._legal(seat, obs)
        choices = [str(a) for a in legal] + list(_COMMANDS)
        self._show_table(seat, legal)
        while True:
            line = self.term.ask(f"seat {seat}> ", choices)
            if line is None:
                if self.term.interactive:  # Ctrl-D at a terminal: as 'quit'
                    self.term.say("Ctrl-D: leaving the match.")
                    return self._quit(ask=True)
                self.term.say("end of input: leaving the match.")
                return self._quit(ask=False)
            word, _, rest = line.partition(" ")
            word = word.lower()
            rest = rest.strip()
            if not line:
                continue
            if word in ("help", "?") and not rest:
                self.term.say(_HELP.format(path=self.save_path))
            elif word == "show" and not rest:
                self._show_table(seat, legal)
            elif word == "rules" and not rest:
                from cardcore.cli._rules import rules_for_terminal

                self.term.say(rules_for_terminal(self.game.name))
            elif word == "hint" and not rest:
                self._hint(seat, obs, legal)
            elif word == "undo" and not rest:
                if self._undo(seat):
                    return "again"
            elif word == "save":
                self._save(rest or None)
            elif word in ("quit", "exit", "q") and not rest:
                return self._quit(ask=True)
            else:
                action = self._choose(line, legal)
                if action is not None:
                    self._push(seat, action)
                    return "played"

    def _show_table(self, seat: int, legal: Sequence[Any]) -> None:
        self.term.say()  # a blank line sets each decision apart from the moves before it
        self._show_full(seat, f"Your turn, seat {seat} (decision {len(self.actions) + 1}):")
        items = [f"{i:>2}. {a}" for i, a in enumerate(legal, start=1)]
        self.term.view("\n".join(columns(items, self.term.width - 2)), indent="  ")

    def _choose(self, line: str, legal: Sequence[Any]) -> Any:
        """The legal action a line names, or ``None`` after saying why it is not one."""
        if line.isdigit():
            k = int(line)
            if 1 <= k <= len(legal):
                return legal[k - 1]
            self.term.error(f"there is no action {k}: choose 1-{len(legal)}, or type 'help'.")
            return None
        for a in legal:
            if str(a).lower() == line.lower():
                return a
        try:
            action = self.game.parse_action(line)
        except Exception as e:  # noqa: BLE001 - a plugin's parser must not end the match
            self.term.error(f"{line!r} is neither a command nor an action: {_one_line(str(e))}")
            return None
        if action in legal:
            return action
        reason = "it is not one of your legal actions"
        try:
            self.game.apply(self.states[-1], action)
        except IllegalActionError as e:
            reason = _one_line(e.reason)
        except Exception as e:  # noqa: BLE001 - any refusal is explained, not raised
            reason = _one_line(str(e))
        self.term.error(f"{action} is not legal now: {reason}.")
        return None

    def _hint(self, seat: int, obs: Any, legal: Sequence[Any]) -> None:
        host = cli._host()
        name = f"{self.game.name}-heuristic"
        spec = host.bots().get(name)
        if spec is None or (spec.games and self.game.name not in spec.games):
            name = "random"
        try:
            bot = host.load_bot(name, self.game, seed=self.base.seed * 1000 + len(self.actions))
            start = getattr(bot, "start_match", None)
            if start is not None:
                start(self.game, seat, self.n)
            action = bot.act(obs)
            if isinstance(action, str):
                action = self.game.parse_action(action)
            number = legal.index(action) + 1
        except Exception as e:  # noqa: BLE001 - a failing hint must not end the match
            self.term.error(f"no hint: {name} failed ({type(e).__name__}: {_one_line(str(e))}).")
            return
        self.term.say(f"hint ({name}): {number}. {action}")

    def _undo(self, seat: int) -> bool:
        """Go back to this seat's previous decision; say why not when it cannot."""
        mine = [i for i, s in enumerate(self.movers) if s == seat and not self._forced(i)]
        if not mine:
            self.term.error("nothing to undo: this is your first decision.")
            return False
        i = mine[-1]
        others = sorted({s for s in self.movers[i + 1 :] if s in self.humans and s != seat})
        if others:
            who = ", ".join(str(s) for s in others)
            self.term.error(f"cannot undo: seat {who} (human) decided since your last decision.")
            return False
        dropped = len(self.actions) - i
        del self.states[i + 1 :]
        del self.movers[i:]
        del self.actions[i:]
        # Fresh bots: a bot must not remember moves that were taken back.
        self.bots = self.make_bots(self.game, self.names, self.base.seed)
        self.seen.clear()
        self.term.say(f"undone: {dropped} decision(s) taken back.")
        return True

    # ---- records -------------------------------------------------------------------

    def _record(self, outcome: Outcome | None) -> MatchRecord:
        return attrs.evolve(self.base, actions=tuple(self.actions), outcome=outcome)

    @property
    def save_path(self) -> str:
        """Where ``save`` without a file name writes: the match's file, else a new name.

        A new name is ``GAME-seedSEED.cardcore.json`` (``GAME-table.cardcore.json`` when
        several people share the screen: the seed deals every hidden card), with ``-2``,
        ``-3``, ... before ``.cardcore.json`` when that file is there already: a save
        never lands on another match's file.
        """
        if self._save_path is not None:
            return self._save_path
        stem = f"{self.game.name}-{'table' if self._hot_seat else f'seed{self.base.seed}'}"
        k = 1
        while True:
            path = f"{stem}{'' if k == 1 else f'-{k}'}.cardcore.json"
            if os.path.abspath(path) in self.mine or not os.path.lexists(path):
                return path
            k += 1

    def _may_write(self, path: str) -> bool:
        """Whether to write ``path``: a file of this match, a new one, or the person agrees."""
        if os.path.abspath(path) in self.mine or not os.path.lexists(path):
            return True
        if os.path.isdir(path):
            self.term.error(f"cannot save to {path}: it is a folder; give a file name.")
            return False
        try:
            answer = self.term.ask(f"{path} is there already: overwrite it? [y/N] ", ("y", "n"))
        except KeyboardInterrupt:
            answer = None
            self.term.say("")
        if (answer or "").lower() in ("y", "yes"):
            return True
        self.term.say(f"not saved: {path} is left as it was (save FILE names another file).")
        return False

    def _save(self, path: str | None = None) -> bool:
        """Save to ``path`` (default: :attr:`save_path`); never over another file unasked."""
        if path is None:
            path = self.save_path
            if self._save_path is None:
                self._save_path = path
        if not self._may_write(path):
            return False
        try:
            self._record(None).save(path)
        except OSError as e:
            self.term.error(f"cannot save to {path}: {e.strerror or e}")
            return False
        self.mine.add(os.path.abspath(path))
        self.saved_at = len(self.actions)
        self.term.say(
            f"saved {len(self.actions)} decisions to {path} "
            f"(resume with: cardcore play --resume {path})"
        )
        return True

    def _unsaved(self) -> bool:
        """Whether leaving now would lose decisions (none made, or all saved: no)."""
        if self.saved_at is None:
            return bool(self.actions)
        return self.saved_at != len(self.actions)

    def _leave_or_stay(self) -> bool:
        """Ask whether to save before leaving; True to leave, False to carry on playing.

        Ctrl-C again, or the end of the input at a terminal, saves and leaves: a hurried
        key never loses the match.
        """
        choices = ("yes", "no", "carry on")
        self.term.say(
            f"Leaving the match: y saves it to {self.save_path} first, n leaves without"
            " saving, c carries on playing."
        )
        while True:
            try:
                answer = self.term.ask(_LEAVE, choices)
            except KeyboardInterrupt:  # Ctrl-C again: save and leave
                self.term.say("")
                answer = "y"
            if answer is None:
                if not self.term.interactive:
                    return True  # the end of a script's input: leave as it asked
                answer = "y"  # Ctrl-D at a terminal: save and leave
            word = (answer or "y").lower()  # Enter alone: save and leave, the safe choice
            if word in ("y", "yes"):
                if self._save():
                    return True
                continue
            if word in ("n", "no"):
                return True
            if word in ("c", "carry on", "carry", "continue"):
                return False
            self.term.error("please answer y (save and leave), n (leave) or c (carry on).")

    def _quit(self, *, ask: bool) -> _Turn:
        if ask and self._unsaved() and not self._leave_or_stay():
            return "again"
        self.term.say(f"match left unfinished after {len(self.actions)} decisions.")
        return "quit"

    def _interrupted(self) -> bool:
        """Ctrl-C: offer to save and leave, or carry on; True to leave."""
        self.term.say("")
        self.term.say(f"Interrupted after {len(self.actions)} decisions.", style="bold")
        if self._unsaved() and not self._leave_or_stay():
            # A bot may have been stopped in the middle of its thinking: fresh bots, and
            # the whole table again.
            self.bots = self.make_bots(self.game, self.names, self.base.seed)
            self.seen.clear()
            self.last_human = None
            return False
        self.term.say(f"match left unfinished after {len(self.actions)} decisions.")
        return True

    def _finish(self, outcome: Outcome) -> int:
        record = self._record(outcome)
        for bot in self.bots:
            end = getattr(bot, "end_match", None)
            if end is not None:
                with contextlib.suppress(Exception):  # the result stands whatever a bot does
                    end(outcome)
        if self.final_path:
            record.save(self.final_path)
        if self.as_json:
            data = {
                "outcome": outcome.to_json(),
                "bots": self.names,
                "decisions": len(self.actions),
                "seed": self.base.seed,
            }
            self.term.say(json.dumps(data, ensure_ascii=False))
            return 0
        self._show_full(self.viewer, "Final table:")
        hands = final_hands(self.game, self.states[-1], self.n, self._label)
        if hands:
            self.term.say("Every hand at the end:", style="bold")
            self.term.view("\n".join(hands))
        self.term.say(cli._describe_outcome(outcome, self.names, len(self.actions)), style="bold")
        if self._hot_seat:
            self._seed_line()
        if self.final_path:
            self.term.say(f"record saved to {self.final_path}")
        return 0


def play_human(
    game: Game[Any, Any, Any], args: argparse.Namespace, n: int, humans: Sequence[int]
) -> int:
    """Play a match with people at the given seats and bots (``--bots``) at the others.

    Args:
        game: the rules.
        args: the parsed ``cardcore play`` arguments (bots, seed, dealer, record, ...).
        n: the number of seats.
        humans: the seats people play.

    Returns:
        The exit code: 0 when the match ends or the people leave it, 130 when they leave
        it with Ctrl-C.
    """
    entries = cli.seat_entries(args.bots, n, humans)
    host = cli._host()
    spec = host.game_spec(game.name) if game.name in host.games() else None
    record = MatchRecord(
        game=game.name,
        options=options_to_json(game.options),
        num_players=n,
        seed=args.seed,
        actions=(),
        preset=args.preset,
        distribution=spec.distribution if spec is not None else "",
        version=spec.version if spec is not None else "",
        dealer=args.dealer,
        bots=tuple(entries),
    )
    table = cli.table_bots_for(args)
    with table.running():  # what the bots start ends with the match
        session = _Session(
            game,
            record,
            Terminal(),
            save_path=args.record,
            final_path=args.record,
            verbose=bool(args.verbose),
            time_limit=args.time_limit,
            as_json=bool(args.json),
            auto_forced=getattr(args, "auto_forced", None),
            drawn_seed=bool(getattr(args, "drawn_seed", False)),
            make_bots=table,
        )
        return session.run()


def resume_human(args: argparse.Namespace) -> int:
    """Continue the saved match ``args.resume``: people where it says ``human``, else bots.

    The bots are rebuilt by name (with their options) and the record's seed; the game by
    its id and options. Saving without a file name writes back to the resumed file.

    Args:
        args: the parsed ``cardcore play`` arguments.

    Returns:
        The exit code: 0 when the match ends or the people leave it, 130 when they leave
        it with Ctrl-C.

    Raises:
        CliError: seats given again on the command line, or a finished match.
        RecordError: a file that cannot be read, or whose game or actions do not replay.
    """
    path = str(args.resume)
    if args.human or args.bots:
        raise cli.CliError("--resume takes the seats from the file; drop --human and --bots")
    record = MatchRecord.load(path)
    if args.game is not None and args.game != record.game:
        raise cli.CliError(f"{path} is a match of {record.game!r}, not {args.game!r}")
    if record.outcome is not None:
        raise cli.CliError(f"{path}: this match is over (see it with: cardcore replay {path})")
    if len(record.bots) != record.num_players:
        raise RecordError(
            f"{path}: field 'bots' must name who sits in each of the {record.num_players} seats"
            f" (a bot, or {HUMAN!r})"
        )
    try:
        game = cli._host().load_game(record.game, **dict(record.options))
    except (PluginError, OptionError) as e:
        raise RecordError(f"{path}: {e}") from None
    table = cli.table_bots_for(args)
    with table.running():  # what the bots start ends with the match
        session = _Session(
            game,
            record,
            Terminal(),
            save_path=args.record or path,
            final_path=args.record,
            verbose=bool(args.verbose),
            time_limit=args.time_limit,
            as_json=bool(args.json),
            saved=not args.record,  # the resumed file already holds these decisions
            auto_forced=getattr(args, "auto_forced", None),
            make_bots=table,
        )
        return session.run()


# ---- replay browser ----------------------------------------------------------------------

_REPLAY_HELP: Final = """\
Commands:
  next, n, Enter  one decision forward
  prev, p         one decision back
  jump N, N       go to just after decision N (0: the deal)
  start, end      the deal, the last decision
  quit, q         leave"""


def browse_replay(game: Game[Any, Any, Any], record: MatchRecord, seat: int) -> int:
    """Step through a record at the terminal, as the table or as one seat.

    A seat's view shows that seat's observations only, and the text of that seat's own
    actions; other seats' decisions show as moves (what they did shows only as far as
    the seat's rendered observation shows it). The table (``seat == -1``) sees every
    action and the public cards.

    Args:
        game: the rules the record was played under.
        record: the match.
        seat: the seat whose view to show, or ``SPECTATOR``.

    Returns:
        The exit code (0).

    Raises:
        RecordError: the record does not replay.
    """
    term = Terminal()
    steps = list(replay(record, game))
    states = [initial_state_of(record, game)] + [s.after for s in steps]
    last = len(steps)
    names = list(record.bots) if len(record.bots) == record.num_players else None
    who = "the table (every action, public cards)" if seat == SPECTATOR else f"seat {seat}"
    term.say(
        f"{record.game}: {record.num_players} players, "
        + (f"seed {record.seed}, " if seat == SPECTATOR else "")  # a seat never sees it
        + f"{last} decisions, seen by {who}",
        style="bold",
    )
    term.say("Commands: next (Enter), prev, jump N, start, end, quit; 'help' says more.")
    choices = ("next", "prev", "jump ", "start", "end", "quit", "help")

    def label(s: int) -> str:
        if s == seat:
            return f"seat {s} (you)"
        return f"seat {s} ({names[s]})" if names is not None else f"seat {s}"

    def show(pos: int) -> None:
        if pos == 0:
            term.say(f"[0/{last}] the deal", style="bold")
        else:
            step = steps[pos - 1]
            name = f" ({names[step.seat]})" if names is not None else ""
            obs = game.observe(states[pos], seat)
            if seat in (SPECTATOR, step.seat):
                done = past_tense(str(step.action))
            else:
                done = move_text(str(step.action), known_cards(obs.table))
            term.say(f"[{pos}/{last}] seat {step.seat}{name} {done}", style="bold")
        term.view(str(game.render(without_legal(game.observe(states[pos], seat)))))
        if pos == last:
            outcome = record.outcome or game.outcome(states[pos])
            if game.current_player(states[pos]) is None:
                hands = final_hands(game, states[pos], record.num_players, label)
                if hands:
                    term.say("Every hand at the end:", style="bold")
                    term.view("\n".join(hands))
            if outcome is not None:
                term.say(
                    cli._describe_outcome(outcome, names or ["?"] * record.num_players, last),
                    style="bold",
                )
            else:
                term.say("The record ends here: the match was not finished.")

    pos = 0
    show(pos)
    while True:
        try:
            line = term.ask(f"replay {pos}/{last}> ", choices)
        except KeyboardInterrupt:  # nothing to lose here: just leave
            term.say("")
            return 0
        if line is None:
            return 0
        word, _, rest = line.lower().partition(" ")
        rest = rest.strip()
        target: int | None = None
        if word in ("", "n", "next") and not rest:
            if pos == last:
                term.error(f"this is the end ({last} decisions): 'quit' to leave.")
                continue
            target = pos + 1
        elif word in ("p", "prev", "previous", "back") and not rest:
            if pos == 0:
                term.error("this is the start: 'next' to go on.")
                continue
            target = pos - 1
        elif word in ("start", "home") and not rest:
            target = 0
        elif word in ("end", "e") and not rest:
            target = last
        elif word in ("q", "quit", "exit") and not rest:
            return 0
        elif word in ("help", "?") and not rest:
            term.say(_REPLAY_HELP)
            continue
        elif (word in ("j", "jump") and rest) or (word.isdigit() and not rest):
            arg = rest if word in ("j", "jump") else word
            if not arg.isdigit() or int(arg) > last:
                term.error(f"jump needs a decision number from 0 to {last}, not {arg!r}.")
                continue
            target = int(arg)
        else:
            term.error(f"unknown command {line!r}: try next, prev, jump N, start, end, quit.")
            continue
        pos = target
        show(pos)
