"""One web table: the match, who sits where, and what each seat may be told.

Free of any web library, so that it can be tested on its own. Every answer for a seat
is built from that seat's observation (:meth:`cardcore.Game.observe`) and the public
facts of the table (who sits where, whose turn it is); once a deal is over every hand is
public and is shown. Undo and save rest on states being values, as in terminal play.
"""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import Sequence
from pathlib import Path
from typing import Any, final

import attrs

from cardcore._engine import MatchRecord, initial_state_of, replay
from cardcore._game import Game, Outcome
from cardcore._hooks import LayoutHints
from cardcore._transcript_keeper import TranscriptKeeper
from cardcore.web._layout import ZonePlan
from cardcore.web._saves import record_path_of_deal, save_new
from cardcore.web._screen import Screen
from cardcore.web._seats import HUMAN, Seats, Tally
from cardcore.web._views import move_seen, seat_view, suggestion

__all__ = ["HUMAN", "WebTable"]


@final
class WebTable:
    """A match at a web table, and the deals played after it (``play again``).

    Args:
        game: the rules.
        record: the match so far (its ``bots`` say who sits where: a bot, or ``human``).
        make_bots: builds the bots of a deal from the entries and the seed.
        hint_bot: builds the hint bot for a seat (or None: no hints).
        save_dir: where saves go.
        record_path: where a finished deal's record is written (``--record``), or None.
        hot_seat: the people share one screen (:attr:`screen`) instead of a link each.
        layout_hints: the plugins' hints for drawing the game's zones (may be none).
    """

    def __init__(
        self,
        game: Game[Any, Any, Any],
        record: MatchRecord,
        *,
        make_bots: Any,
        hint_bot: Any = None,
        save_dir: Path | None = None,
        record_path: str | None = None,
        draw_seed: Any = None,
        hot_seat: bool = False,
        layout_hints: Sequence[LayoutHints] = (),
    ) -> None:
        self.game = game
        self.n = record.num_players
        self.seats = Seats(record.bots, own_links=not hot_seat)
        self.entries = self.seats.entries
        self.humans = self.seats.humans
        self.tokens = self.seats.tokens
        self.autoplay = self.seats.autoplay
        self._make_bots = make_bots
        self._hint_bot = hint_bot
        self._draw_seed = draw_seed or (lambda: secrets.randbelow(2**31))
        self.save_dir = save_dir or Path.cwd()
        self.record_path = record_path
        self.tally = Tally(self.n)
        self.thinking: int | None = None
        self.epoch = 0
        """Bumped by every change: a bot's answer to an older table is dropped."""
        self.saved: list[str] = []
        self.hints: dict[int, str] = {}
        self._start(record)
        self.screen = Screen(self) if hot_seat else None
        """The shared screen of a hot-seat table, else None."""
        zones = game.observe(self.state, 0).table.layout.zones
        self.plan = ZonePlan(game.name, layout_hints, [z.name for z in zones])

    # ---- a deal's life ---------------------------------------------------------------

    def _start(self, record: MatchRecord) -> None:
        self.base = attrs.evolve(record, actions=(), outcome=None, transcripts=())
        self.states = [initial_state_of(self.base, self.game)]
        self.actions: list[str] = []
        self.movers: list[int] = []
        self.forced_at: set[int] = set()
        """The decisions played for a person because they were the only legal one."""
        self.outcome: Outcome | None = None
        self.bots = self._make_bots(self.game, self.entries, self.base.seed)
        self.transcripts = TranscriptKeeper(record)
        self.logs: dict[int, list[dict[str, Any]]] = {s: [] for s in self.humans}
        for step in replay(record, self.game):
            self._push(step.seat, step.action, step.after, forced=False)
        self._check_over()
        self.epoch += 1

    def new_deal(self) -> None:
        """Deal again with a new seed, the same seats (only once this deal is over)."""
        seed = int(self._draw_seed())
        self._start(attrs.evolve(self.base, seed=seed, actions=(), outcome=None))
        self.hints.clear()

    @property
    def state(self) -> Any:
        return self.states[-1]

    def to_move(self) -> int | None:
        return None if self.outcome is not None else self.game.current_player(self.state)

    def _push(self, seat: int, action: Any, after: Any, *, forced: bool) -> None:
        text = str(action)
        if forced:
            self.forced_at.add(len(self.actions))
        self.states.append(after)
        self.actions.append(text)
        self.movers.append(seat)
        for h in self.humans:
            seen = move_seen(self.game, after, h, seat, text)
            self.logs[h].append({"seat": seat, "text": seen, "forced": forced})

    def _check_over(self) -> None:
        if self.outcome is None and self.game.current_player(self.state) is None:
            outcome = self.game.outcome(self.state)
            assert outcome is not None
            self._finish(outcome)

    def _finish(self, outcome: Outcome) -> None:
        self.outcome = outcome
        self.tally.count(outcome)
        for bot in self.bots:
            end = getattr(bot, "end_match", None)
            if end is not None:
                with contextlib.suppress(Exception):  # the result stands whatever a bot does
                    end(outcome)
        if self.record_path is not None:
            path = record_path_of_deal(self.record_path, self.tally.deals)
            self.record().save(str(path))
            self.saved.append(str(path))

    def apply(self, seat: int, action: Any, *, forced: bool = False) -> None:
        """Play a legal action (already checked) for ``seat``."""
        after = self.game.apply(self.state, action)
        self.hints.pop(seat, None)
        self._push(seat, action, after, forced=forced)
        self.epoch += 1
        self._check_over()

    def forfeit(self, seat: int, why: str) -> None:
        """A bot that failed: it (and its team) loses the deal."""
        self._finish(Outcome.forfeited(self.n, seat, f"seat {seat} {why}", self.game.teams(self.n)))
        self.epoch += 1

    def record(self) -> MatchRecord:
        """The deal so far, with every seat's transcript: for files, never for a page."""
        record = attrs.evolve(self.base, actions=tuple(self.actions), outcome=self.outcome)
        return self.transcripts.record(self.game, record)

    # ---- what a person asks ----------------------------------------------------------

    def seat_of(self, seat: int, token: str) -> bool:
        """Whether ``token`` is the secret of human seat ``seat``."""
        return self.seats.seat_of(seat, token)

    def undo(self, seat: int) -> str:
        """Take back ``seat``'s last decision and the bots' moves since; says what happened.

        Raises:
            ValueError: naming why it cannot be undone.
        """
        mine = [i for i, s in enumerate(self.movers) if s == seat and i not in self.forced_at]
        if not mine:
            raise ValueError("nothing to undo: you have not decided yet in this deal")
        i = mine[-1]
        others = sorted({s for s in self.movers[i + 1 :] if s in self.humans and s != seat})
        if others:
            who = ", ".join(str(s) for s in others)
            raise ValueError(f"cannot undo: seat {who} (a person) decided since")
        self.transcripts.restart(self.game, self.record(), i)
        if self.outcome is not None:
            self.tally.count(self.outcome, -1)
            self.outcome = None
        dropped = len(self.actions) - i
        del self.states[i + 1 :]
        del self.movers[i:]
        del self.actions[i:]
        self.forced_at = {k for k in self.forced_at if k < i}
        for log in self.logs.values():
            del log[i:]
        # Fresh bots: a bot must not remember moves that were taken back.
        self.bots = self._make_bots(self.game, self.entries, self.base.seed)
        self.hints.clear()
        self.epoch += 1
        return f"undone: {dropped} decision{'s' if dropped != 1 else ''} taken back"

    def save(self) -> str:
        """Save the deal so far to a new file (never over another); its path."""
        path = save_new(self.record(), self.save_dir, self.game.name)
        self.saved.append(path)
        return path

    def hint(self, seat: int) -> str:
        """What the hint bot would play for ``seat`` now.

        Raises:
            ValueError: not this seat's turn, or no hint bot.
        """
        if self.to_move() != seat:
            raise ValueError("a hint is for your turn")
        if self._hint_bot is None:
            raise ValueError("this game has no bot to give hints")
        seed = self.base.seed * 1000 + len(self.actions)
        name, bot = self._hint_bot(self.game, seat, self.n, seed)
        self.hints[seat] = suggestion(self.game, self.game.observe(self.state, seat), name, bot)
        return f"{name} would play: {self.hints[seat]}"

    def forced(self, seat: int) -> Any | None:
        """The single legal action of a person on autoplay whose turn it is, else None."""
        if self.to_move() != seat or not self.autoplay.get(seat, False):
            return None
        legal = self.game.observe(self.state, seat).legal_actions
        return legal[0] if len(legal) == 1 else None

    # ---- what a seat is told -------------------------------------------------------------

    def view(self, seat: int, notice: str = "") -> dict[str, Any]:
        """Everything the page of ``seat`` shows, from that seat's observation only."""
        return seat_view(self, seat, notice)
