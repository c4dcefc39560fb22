"""Matches played one decision at a time by an outside agent, seen from its seats only.

:class:`MatchService` is the core of ``cardcore serve`` (the MCP server), kept free of
any protocol library so that it can be tested, and reused, on its own. An agent starts
a match, sitting at one or more seats; installed bots play the other seats. Every answer
about a running match is built from the observation of one of the agent's own seats
(:meth:`cardcore.Game.observe`) and nothing else: the state itself never leaves the
service, so an agent learns exactly what a bot in that seat would.

The other seats' bots run with a time limit per decision; a bot that raises, runs over
its limit or returns anything but a legal action forfeits, as in
:func:`cardcore.play_match`. Matches left idle are dropped after a while.

The deal is the service's, not the agent's: each match is dealt from a seed drawn at
random, unless whoever runs the service fixes the seeds (``MatchService(seed=S)``, as
``cardcore serve --seed S`` does) or calls :meth:`MatchService.start_match` with a seed
or a stacked deck from their own code. No answer carries the seed before the match is
over: a seed rebuilds every hidden card.

Whoever runs the service may have each finished match's full record (every seat's
transcript too) written to a folder (:class:`RecordWriter`, ``cardcore serve --record``).
"""

from __future__ import annotations

import contextlib
import itertools
import secrets
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final, final

import attrs

from cardcore._botmaking import make_bot
from cardcore._cards import Card, parse_card
from cardcore._engine import accept
from cardcore._game import BotSpec, Game, GameSpec, IllegalActionError, Outcome
from cardcore._host import PluginError, PluginHost, default_host
from cardcore._isolation import Refused
from cardcore._match_record import MatchRecord
from cardcore._options import OptionError, option_infos, options_to_json
from cardcore._transcript_keeper import TranscriptKeeper

__all__ = ["MatchService", "RecordWriter", "ServiceError"]

MAX_MATCHES: Final = 64
"""Matches one service keeps at once, unless told otherwise."""
IDLE_SECONDS: Final = 1800.0
"""A match nobody asked about for this long is dropped."""
BOT_SECONDS: Final = 10.0
"""Default time limit of the other seats' bots, per decision."""


@final
class ServiceError(ValueError):
    """A request the service cannot carry out (unknown match, game, seat, bot, option)."""


@final
@attrs.define(eq=False)
class _Match:
    """One running match: its rules, state, bots and the agent's seats."""

    id: str
    game: Game[Any, Any, Any]
    state: Any
    record: MatchRecord
    agent_seats: tuple[int, ...]
    bots: dict[int, Any]
    actions: list[str]
    touched: float
    transcripts: TranscriptKeeper
    outcome: Outcome | None = None
    on_finish: Callable[[str, MatchRecord], None] | None = None

    def seat_of(self, seat: int | None) -> int:
        """The agent's seat asked about: ``seat``, or (``None``) the one to move, or its first.

        Raises:
            ServiceError: ``seat`` is not one of the agent's.
        """
        if seat is None:
            obs = self.game.observe(self.state, self.agent_seats[0])
            to_move = obs.current_player
            return to_move if to_move in self.agent_seats else self.agent_seats[0]
        if seat not in self.agent_seats:
            raise ServiceError(f"seat {seat} is not yours (your seats: {list(self.agent_seats)})")
        return seat

    def view(self, seat: int | None) -> dict[str, Any]:
        """The agent's view from one of its seats (see :meth:`MatchService.observation`)."""
        s = self.seat_of(seat)
        obs = self.game.observe(self.state, s)
        to_move = obs.current_player
        out: dict[str, Any] = {
            "match": self.id,
            "game": self.game.name,
            "seat": s,
            "your_seats": list(self.agent_seats),
            "to_move": to_move,
            "your_turn": to_move == s and self.outcome is None,
            "over": self.outcome is not None,
            "text": self.game.render(obs),
            "observation": obs.to_json(),
            "legal_actions": [str(a) for a in obs.legal_actions] if self.outcome is None else [],
        }
        if self.outcome is not None:
            out["outcome"] = self.outcome.to_json()
        return out

    def start_bots(self) -> None:
        """Call each bot's ``start_match``; the first that raises forfeits the match."""
        n = self.record.num_players
        for s, bot in self.bots.items():
            hook = getattr(bot, "start_match", None)
            if hook is not None:
                try:
                    hook(self.game, s, n)
                except Exception as e:  # noqa: BLE001 - a bot that cannot start forfeits
                    self.forfeit(s, f"raised {type(e).__name__} in start_match: {e}")
                    break

    def play(self, s: int, action: str) -> dict[str, Any] | None:
        """Play the agent's ``action`` (a text) for seat ``s``: ``None``, or why it is refused.

        A refusal changes nothing; it says why and lists what is legal.
        """
        obs = self.game.observe(self.state, s)
        legal = [str(a) for a in obs.legal_actions]
        if self.outcome is not None or obs.current_player is None:
            return {"ok": False, "error": "the match is over", "legal_actions": []}
        if obs.current_player != s:
            return {
                "ok": False,
                "error": f"it is seat {obs.current_player}'s turn, not seat {s}'s",
                "legal_actions": [],
            }
        try:
            chosen = self.game.parse_action(action)
        except ValueError as e:
            return {
                "ok": False,
                "error": f"cannot read {action!r}: {e}",
                "legal_actions": legal,
            }
        found = accept(self.game, obs.legal_actions, str(chosen))
        if isinstance(found, Refused):
            return {
                "ok": False,
                "error": f"{action!r} is not legal now",
                "legal_actions": legal,
            }
        try:
            self.state = self.game.apply(self.state, found)
        except IllegalActionError as e:
            return {"ok": False, "error": e.reason, "legal_actions": legal}
        self.actions.append(str(found))
        return None

    def advance(self, bot_seconds: float) -> None:
        """Let the bots play until one of the agent's seats is to move or the match ends."""
        while self.outcome is None:
            to_move = self.game.current_player(self.state)
            if to_move is None:
                outcome = self.game.outcome(self.state)
                assert outcome is not None
                self.finish(outcome)
                return
            if to_move in self.agent_seats:
                return
            obs = self.game.observe(self.state, to_move)
            legal = obs.legal_actions
            bot = self.bots[to_move]
            action, why, done = _bot_act(bot, obs, bot_seconds)
            if done:  # not a bot left thinking past its limit
                self.transcripts.note(to_move, bot)
            if why is None:
                chosen = accept(self.game, legal, action)
                if isinstance(chosen, Refused):
                    why = str(chosen)
                else:
                    self.state = self.game.apply(self.state, chosen)
                    self.actions.append(str(chosen))
                    continue
            self.forfeit(to_move, why)

    def forfeit(self, seat: int, why: str) -> None:
        """End the match with ``seat`` forfeiting, for the reason ``why``."""
        n = self.record.num_players
        self.finish(Outcome.forfeited(n, seat, f"seat {seat} {why}", self.game.teams(n)))

    def finish(self, outcome: Outcome) -> None:
        """End the match with ``outcome``; then every bot's ``end_match``."""
        self.outcome = outcome
        for bot in self.bots.values():
            end = getattr(bot, "end_match", None)
            if end is not None:
                with contextlib.suppress(Exception):  # the result stands whatever a bot does
                    end(outcome)
        if self.on_finish is not None:
            self.on_finish(self.id, self.full_record())

    def legal(self, seat: int | None) -> dict[str, Any]:
        """What :meth:`MatchService.legal_actions` answers."""
        s = self.seat_of(seat)
        obs = self.game.observe(self.state, s)
        return {
            "match": self.id,
            "seat": s,
            "to_move": obs.current_player,
            "legal_actions": [str(a) for a in obs.legal_actions],
        }

    def result(self) -> dict[str, Any]:
        """What :meth:`MatchService.result` answers."""
        if self.outcome is None:
            obs = self.game.observe(self.state, self.agent_seats[0])
            return {"match": self.id, "over": False, "to_move": obs.current_player}
        return {
            "match": self.id,
            "over": True,
            "outcome": self.outcome.to_json(),
            "record": _own_transcripts(self.full_record(), self.agent_seats).to_json(),
        }

    def full_record(self) -> MatchRecord:
        """The record so far: actions, the outcome once there is one, every bot's transcript.

        The agent is shown only its own seats' transcripts (see :func:`_own_transcripts`).
        """
        record = attrs.evolve(self.record, actions=tuple(self.actions), outcome=self.outcome)
        return self.transcripts.record(self.game, record)


def _own_transcripts(record: MatchRecord, seats: Sequence[int]) -> MatchRecord:
    """The record without the transcripts of the seats that are not ``seats``."""
    own = tuple(t if s in seats else () for s, t in enumerate(record.transcripts))
    return attrs.evolve(record, transcripts=own if any(own) else ())


@final
class RecordWriter:
    """Writes each finished match's full record to a folder, for ``cardcore replay``.

    A match's file is ``GAME-ID.cardcore.json`` (``GAME-ID-2.cardcore.json``, ... when
    that name is taken: another file is never overwritten); the folder is created when
    missing. A file that cannot be written costs one line on ``warn`` (standard error by
    default) and nothing else: the service carries on, and the record stays in memory.

    Args:
        folder: where the records go.
        warn: what is told a line when a record cannot be written.
    """

    def __init__(self, folder: Path | str, warn: Callable[[str], None] | None = None) -> None:
        self.folder = Path(folder)
        self._warn = warn if warn is not None else _to_stderr
        self.written: list[Path] = []
        """The files written so far, in order."""

    def __call__(self, match_id: str, record: MatchRecord) -> None:
        """Write ``record`` (of the match ``match_id``) to a new file in the folder."""
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            path = self._new_file(f"{record.game}-{match_id}")
            try:
                record.save(path)  # whole or not at all
            except OSError:
                for gone in (path, path.with_name(path.name + ".tmp")):
                    with contextlib.suppress(OSError):
                        gone.unlink()
                raise
        except OSError as e:
            why = e.strerror or str(e)
            self._warn(
                f"cardcore serve: cannot write the record of match {match_id} to "
                f"{self.folder}: {why}; it stays in memory while the match is kept"
            )
            return
        self.written.append(path)

    def _new_file(self, stem: str) -> Path:
        """A new empty file ``STEM.cardcore.json`` (or ``STEM-2``, ...): never one there already."""
        for k in itertools.count(1):
            path = self.folder / (
                f"{stem}.cardcore.json" if k == 1 else f"{stem}-{k}.cardcore.json"
            )
            try:
                with path.open("x", encoding="utf-8"):
                    return path
            except FileExistsError:
                continue
        raise AssertionError("unreachable")  # pragma: no cover


def _to_stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


class _Running(dict[str, _Match]):
    """The running matches by id; one nobody asked about for too long is dropped."""

    def __init__(self, idle_seconds: float, max_matches: int, clock: Callable[[], float]) -> None:
        super().__init__()
        self.idle_seconds = idle_seconds
        self.max_matches = max_matches
        self.clock = clock

    def sweep(self) -> None:
        """Drop the matches idle for longer than ``idle_seconds``."""
        now = self.clock()
        for k in [k for k, m in self.items() if now - m.touched > self.idle_seconds]:
            del self[k]

    def check_room(self) -> None:
        """Raise :class:`ServiceError` if no other match may start now."""
        self.sweep()
        if len(self) >= self.max_matches:
            raise ServiceError(
                f"{len(self)} matches are running (at most {self.max_matches}); close one first"
            )

    def touch(self, match_id: str) -> _Match:
        """A running match, marked as asked about now.

        Raises:
            ServiceError: no such match (the message lists the running ones).
        """
        self.sweep()
        m = self.get(match_id)
        if m is None:
            known = ", ".join(sorted(self)) or "none"
            raise ServiceError(f"no match {match_id!r} (running: {known})")
        m.touched = self.clock()
        return m


def _players(
    game: str, rules: Game[Any, Any, Any], players: int | None, agent: int, bots: int
) -> int:
    """The number of seats of a match: asked for, or what the agent's seats and bots fill."""
    low, high = rules.min_players, rules.max_players
    if players is not None:
        n = players
    elif bots > 1:
        n = agent + bots
        if not low <= n <= high:
            raise ServiceError(
                f"{game} is for {low}-{high} players: {agent} seat(s) of yours and {bots} bots "
                f"make {n}; name one bot to fill every other seat, or give players"
            )
    else:
        n = max(low, min(high, agent + bots))
    if not low <= n <= high:
        raise ServiceError(f"{game} is for {low}-{high} players, not {n}")
    return n


def _seats(
    game: str,
    rules: Game[Any, Any, Any],
    seats: Sequence[int],
    bots: Sequence[str],
    players: int | None,
) -> tuple[tuple[int, ...], int, list[int]]:
    """The agent's seats (sorted), the number of seats, and the other seats, once checked.

    Raises:
        ServiceError: naming the seat, count or bot list that does not fit.
    """
    mine = tuple(sorted(set(seats)))
    if len(mine) != len(seats):
        raise ServiceError(f"seats must be different seats, got {list(seats)}")
    n = _players(game, rules, players, len(mine), len(bots))
    if not mine or any(not 0 <= s < n for s in mine):
        raise ServiceError(f"seats must be among 0-{n - 1}, got {list(seats)}")
    others = [s for s in range(n) if s not in mine]
    if others and not bots:
        raise ServiceError("name at least one bot for the other seats")
    if len(bots) > 1 and len(bots) != len(others):
        raise ServiceError(
            f"{len(bots)} bots for {len(others)} other seat(s) of a {n}-player "
            f"{game} match: name one bot for all of them, or exactly {len(others)}"
        )
    return mine, n, others


def _seat_bots(
    host: PluginHost,
    rules: Game[Any, Any, Any],
    bots: Sequence[str],
    others: Sequence[int],
    n: int,
    seed: int,
) -> tuple[dict[int, Any], list[str]]:
    """The bot of each other seat, and every seat's name (``agent`` for the agent's).

    Raises:
        ServiceError: a bot that cannot be made, with the reason.
    """
    table: dict[int, Any] = {}
    names = ["agent"] * n
    for i, s in enumerate(others):
        bot_name = bots[i % len(bots)]
        try:
            table[s] = make_bot(bot_name, {}, rules, seed=seed * 1009 + s, host=host)
        except (PluginError, ValueError, TypeError) as e:
            raise ServiceError(f"bot {bot_name!r}: {e}") from None
        names[s] = bot_name
    return table, names


def _deal(
    rules: Game[Any, Any, Any], n: int, seed: int, deck: Sequence[str] | None
) -> tuple[tuple[Card, ...] | None, Any]:
    """The stacked deck's cards (if any) and the first state.

    Raises:
        ServiceError: a card that does not read, or a deal the rules refuse.
    """
    cards = None
    if deck is not None:
        try:
            cards = tuple(parse_card(c) for c in deck)
        except ValueError as e:
            raise ServiceError(f"deck: {e}") from None
    try:
        state = rules.initial_state(n, seed, deck=cards)
    except (ValueError, IllegalActionError) as e:
        raise ServiceError(f"cannot deal: {e}") from None
    return cards, state


def _game_entry(name: str, spec: GameSpec, bots: Mapping[str, BotSpec]) -> dict[str, Any]:
    """One game of :meth:`MatchService.list_games`."""
    return {
        "game": name,
        "title": spec.title,
        "description": spec.description,
        "players": [spec.min_players, spec.max_players],
        "presets": sorted(spec.presets),
        "options": [
            {
                "name": o.name,
                "default": o.default,
                "allowed": o.allowed(),
                "doc": o.doc,
            }
            for o in option_infos(spec.options_type)
        ],
        "bots": sorted(b for b, bs in bots.items() if not bs.games or name in bs.games),
        "has_rules": bool(spec.rules_text.strip()),
    }


def _rules_entry(host: PluginHost, game: str) -> dict[str, Any]:
    """What :meth:`MatchService.rules` answers.

    Raises:
        ServiceError: an unknown game, or one whose plugin ships no rules text.
    """
    try:
        spec = host.game_spec(game)
    except PluginError as e:
        raise ServiceError(str(e).strip("'\"")) from None
    if not spec.rules_text.strip():
        raise ServiceError(
            f"game {game!r} ships no rules text; list_games gives its options and presets"
        )
    return {
        "game": spec.name,
        "title": spec.title,
        "players": [spec.min_players, spec.max_players],
        "presets": sorted(spec.presets),
        "rules": spec.rules_text,
    }


def _first_record(
    game: str,
    spec: GameSpec,
    rules: Game[Any, Any, Any],
    n: int,
    seed: int,
    preset: str,
    cards: Sequence[Card] | None,
    names: Sequence[str],
) -> MatchRecord:
    """The record of a match about to start: no action yet, no outcome."""
    return MatchRecord(
        game=game,
        distribution=spec.distribution,
        version=spec.version,
        options=options_to_json(rules.options),
        num_players=n,
        seed=seed,
        actions=(),
        preset=preset,
        deck=tuple(str(c) for c in cards) if cards is not None else None,
        bots=tuple(names),
    )


def _bot_act(bot: Any, observation: Any, limit: float) -> tuple[Any, str | None, bool]:
    """Ask a bot for its action in a thread of its own; ``(action, None)`` or ``(None, why)``.

    The third value says whether the bot is done (not still thinking).

    A bot still thinking when the limit runs out is left behind (Python cannot stop a
    thread) and its answer is never read.
    """
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["action"] = bot.act(observation)
        except Exception as e:  # noqa: BLE001 - a crashing bot forfeits
            box["error"] = f"raised {type(e).__name__}: {e}"

    worker = threading.Thread(target=run, name="cardcore-bot", daemon=True)
    start = time.monotonic()
    worker.start()
    worker.join(limit)
    if worker.is_alive():
        return None, f"took more than {limit:g} s", False
    if "error" in box:
        return None, str(box["error"]), True
    took = time.monotonic() - start
    if took > limit:
        return None, f"took {took:.2f} s (limit {limit:g} s)", True
    return box.get("action"), None, True


@final
class MatchService:
    """Runs matches for an outside agent and answers only from the agent's seats.

    Args:
        host: where games and bots come from (default: the installed plugins).
        bot_seconds: time limit of the other seats' bots, per decision.
        idle_seconds: a match idle for longer than this is dropped.
        max_matches: how many matches may run at once.
        clock: seconds, for the idle clean-up (tests pass their own).
        seed: the operator's fixed seed: the n-th match started (1, 2, ...) is dealt with
            seed ``seed + n - 1``, so a run can be repeated. ``None`` (the default): each
            match's seed is drawn at random. Either way, the agent learns it only from
            the record that :meth:`result` gives once the match is over.
        on_finish: given a match's id and full record when it ends (:class:`RecordWriter`).
    """

    def __init__(
        self,
        *,
        host: PluginHost | None = None,
        bot_seconds: float = BOT_SECONDS,
        idle_seconds: float = IDLE_SECONDS,
        max_matches: int = MAX_MATCHES,
        clock: Callable[[], float] = time.monotonic,
        seed: int | None = None,
        on_finish: Callable[[str, MatchRecord], None] | None = None,
    ) -> None:
        if bot_seconds <= 0 or idle_seconds <= 0 or max_matches < 1:
            raise ValueError("bot_seconds and idle_seconds must be positive, max_matches >= 1")
        if seed is not None and seed < 0:
            raise ValueError(f"seed must be a whole number >= 0, not {seed}")
        self._seed = seed
        self._deals = itertools.count()
        self._host = host if host is not None else default_host()
        self._bot_seconds = bot_seconds
        self._matches = _Running(idle_seconds, max_matches, clock)
        self._ids = itertools.count(1)
        self._lock = threading.RLock()
        self._on_finish = on_finish

    # ---- what is installed ---------------------------------------------------------

    def list_games(self) -> list[dict[str, Any]]:
        """Every installed game: id, title, players, presets, options and its bots."""
        bots = self._host.bots()
        return [_game_entry(name, spec, bots) for name, spec in sorted(self._host.games().items())]

    def rules(self, game: str) -> dict[str, Any]:
        """A game's rules as its plugin ships them (Markdown), with its players and presets.

        Raises:
            ServiceError: an unknown game, or one whose plugin ships no rules text.
        """
        return _rules_entry(self._host, game)

    def _seed_for(self, seed: int | None) -> int:
        """The seed asked for, once checked, or (``None``) the service's next one."""
        if seed is not None:
            if seed < 0:
                raise ServiceError(f"seed must be a whole number >= 0, not {seed}")
            return seed
        n = next(self._deals)
        return secrets.randbits(63) if self._seed is None else self._seed + n

    # ---- a match's life ------------------------------------------------------------

    def start_match(
        self,
        game: str,
        *,
        seats: Sequence[int] = (0,),
        bots: Sequence[str] = ("random",),
        players: int | None = None,
        preset: str = "default",
        options: Mapping[str, Any] | None = None,
        seed: int | None = None,
        deck: Sequence[str] | None = None,
    ) -> dict[str, Any]:
        """Start a match with the agent at ``seats`` and ``bots`` on the other seats.

        ``seed`` and ``deck`` are the operator's, for code that runs the service: an
        agent's requests never reach them (the MCP server does not offer them).

        Args:
            game: the game id.
            seats: the agent's seats.
            bots: bot ids for the other seats: one id fills them all; several give one
                bot per other seat, in seat order, and must be exactly as many.
            players: the number of seats. Default: the agent's seats plus the bots when
                several bots are named, else the game's smallest count.
            preset: the options preset.
            options: option overrides (values or their text forms).
            seed: the match seed (default: the service's, see :class:`MatchService`).
            deck: a stacked deck (card texts, top first) instead of the first shuffle.

        Returns:
            The match id and the agent's first view (see :meth:`observation`).

        Raises:
            ServiceError: naming what is wrong (game, option, seat, bot, too many matches).
        """
        with self._lock:
            self._matches.check_room()
            try:
                rules = self._host.load_game(game, preset=preset, **dict(options or {}))
            except (PluginError, OptionError) as e:
                raise ServiceError(str(e).strip("'\"")) from None
            mine, n, others = _seats(game, rules, seats, bots, players)
            seed = self._seed_for(seed)
            table, names = _seat_bots(self._host, rules, bots, others, n, seed)
            cards, state = _deal(rules, n, seed, deck)
            spec = self._host.game_spec(game)
            first = _first_record(game, spec, rules, n, seed, preset, cards, names)
            match = _Match(
                id=f"m{next(self._ids)}",
                game=rules,
                state=state,
                record=first,
                agent_seats=mine,
                bots=table,
                actions=[],
                touched=self._matches.clock(),
                transcripts=TranscriptKeeper(first),
                on_finish=self._on_finish,
            )
            match.start_bots()
            self._matches[match.id] = match
            match.advance(self._bot_seconds)
            return self._view(match, None)

    def observation(self, match_id: str, seat: int | None = None) -> dict[str, Any]:
        """The agent's view of a match from one of its seats.

        Returns:
            ``match``, ``seat``, ``to_move`` (public), ``your_turn``, ``over``, ``text`` (the
            game's rendering of the seat's observation), ``observation`` (its JSON) and
            ``legal_actions`` (texts; empty unless the seat is to move); ``outcome`` once
            the match is over.

        Raises:
            ServiceError: unknown match or a seat that is not the agent's.
        """
        with self._lock:
            return self._view(self._matches.touch(match_id), seat)

    def legal_actions(self, match_id: str, seat: int | None = None) -> dict[str, Any]:
        """The legal actions of one of the agent's seats, as texts (empty when not to move)."""
        with self._lock:
            return self._matches.touch(match_id).legal(seat)

    def play(self, match_id: str, action: str, seat: int | None = None) -> dict[str, Any]:
        """Play an action (by its text) for one of the agent's seats.

        Returns:
            ``ok`` and the agent's next view after the other seats have played; when the
            action is refused, ``ok`` is false, ``error`` says why and ``legal_actions``
            lists what is legal; nothing changes then.

        Raises:
            ServiceError: unknown match or a seat that is not the agent's.
        """
        with self._lock:
            m = self._matches.touch(match_id)
            s = m.seat_of(seat)
            refused = m.play(s, action)
            if refused is not None:
                return refused
            m.advance(self._bot_seconds)
            return {"ok": True, **self._view(m, s)}

    def result(self, match_id: str) -> dict[str, Any]:
        """Whether the match is over; then the outcome and the record (the agent's transcripts)."""
        with self._lock:
            return self._matches.touch(match_id).result()

    def record(self, match_id: str) -> MatchRecord:
        """A match's record so far with every seat's transcript, for the operator (no tool)."""
        with self._lock:
            return self._matches.touch(match_id).full_record()

    def close(self, match_id: str) -> dict[str, Any]:
        """Drop a match (finished or not)."""
        with self._lock:
            self._matches.touch(match_id)
            del self._matches[match_id]
            return {"match": match_id, "closed": True}

    def matches(self) -> list[str]:
        """The ids of the running matches."""
        with self._lock:
            self._matches.sweep()
            return sorted(self._matches)

    # ---- inside --------------------------------------------------------------------

    def _view(self, m: _Match, seat: int | None) -> dict[str, Any]:
        """Every answer about a running match is built here, from one agent seat's view."""
        return m.view(seat)
