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
from collections.abc import Sequence
from typing import Any, Final, final

import attrs

from cardcore._game import Game, Outcome
from cardcore._host import PluginError
from cardcore._match_record import MatchRecord, RecordError, initial_state_of, replay
from cardcore._options import OptionError, options_to_json
from cardcore._table import SPECTATOR
from cardcore._transcript_keeper import TranscriptKeeper
from cardcore.cli import _common as cli
from cardcore.cli import _human_screen as screen
from cardcore.cli import _human_turns as turns
from cardcore.cli._human_io import Terminal
from cardcore.cli._human_text import (
    final_hands,
    known_cards,
    move_text,
    past_tense,
    without_legal,
)

__all__ = ["HUMAN", "browse_replay", "play_human", "resume_human"]

HUMAN: Final = cli.HUMAN
"""The name a record gives to a seat played by a person."""

INTERRUPTED: Final = 130
"""The exit code after Ctrl-C, as a shell gives a program stopped by SIGINT."""


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
        self.transcripts = TranscriptKeeper(record, time_limit)
        """What the bots logged of their decisions (an ``llm`` bot's prompts), for the record."""
        self.seen: dict[int, str] = {}
        self.last_human: int | None = None

    # ---- the loop ------------------------------------------------------------------

    def run(self) -> int:
        """Play until the game ends or the people quit; return the exit code.

        Ctrl-C, at the prompt or while a bot thinks, asks whether to save before leaving,
        or to carry on: the match is never lost. Leaving after Ctrl-C exits with 130.
        """
        screen.show_header(self)
        while True:
            try:
                return self._play()
            except KeyboardInterrupt:
                self.term.status(None)
                if turns.interrupted(self):
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
                if turns.human_turn(self, seat) == "quit":
                    return 0
                continue
            forfeit = turns.bot_turn(self, seat)
            if forfeit is not None:
                return self._finish(forfeit)

    def _label(self, seat: int) -> str:
        if seat == self.viewer:
            return f"seat {seat} (you)"
        return f"seat {seat} ({self.names[seat]})"

    def _forced(self, i: int) -> bool:
        """Whether decision ``i`` (0-based) was a seat's only legal action, played for it."""
        return self.auto_forced and len(self.game.legal_actions(self.states[i])) == 1

    def _push(self, seat: int, action: Any) -> None:
        self.states.append(self.game.apply(self.states[-1], action))
        self.movers.append(seat)
        self.actions.append(str(action))  # last: a save holds the actions, and only them
        screen.report(self, seat, action)

    # ---- bots ----------------------------------------------------------------------

    # ---- people --------------------------------------------------------------------

    # ---- records -------------------------------------------------------------------

    def _record(self, outcome: Outcome | None) -> MatchRecord:
        record = attrs.evolve(self.base, actions=tuple(self.actions), outcome=outcome)
        return self.transcripts.record(self.game, record)

    @property
    def save_path(self) -> str:
        """Where ``save`` without a file name writes: the match's file, else a new name.

        A new name is ``GAME-seedSEED.cardcore.json`` (``GAME-table.cardcore.json`` while
        the seed is hidden: it deals every hidden card), with ``-2``,
        ``-3``, ... before ``.cardcore.json`` when that file is there already: a save
        never lands on another match's file.
        """
        if self._save_path is not None:
            return self._save_path
        stem = (
            f"{self.game.name}-{'table' if screen.seed_hidden(self) else f'seed{self.base.seed}'}"
        )
        k = 1
        while True:
            path = f"{stem}{'' if k == 1 else f'-{k}'}.cardcore.json"
            if os.path.abspath(path) in self.mine or not os.path.lexists(path):
                return path
            k += 1

    def _save(self, path: str | None = None) -> bool:
        """Save to ``path`` (default: :attr:`save_path`); never over another file unasked."""
        if path is None:
            path = self.save_path
            if self._save_path is None:
                self._save_path = path
        if not turns.may_write(self, path):
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

    def _quit(self, *, ask: bool) -> turns.Turn:
        if ask and self._unsaved() and not turns.leave_or_stay(self):
            return "again"
        self.term.say(f"match left unfinished after {len(self.actions)} decisions.")
        if screen.seed_hidden(self):
            screen.seed_line(self)
        return "quit"

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
        screen.show_end(self, outcome)
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
