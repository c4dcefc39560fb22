"""The engine: play a match between bots, record it, and replay records exactly."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Final, final

import attrs

from cardcore._cards import Card, parse_card
from cardcore._game import Game, IllegalActionError, Outcome
from cardcore._options import OptionError, options_to_json

__all__ = ["MatchRecord", "RecordError", "Step", "play_match", "replay"]

RECORD_FORMAT: Final = "cardcore-match/1"


@final
class RecordError(ValueError):
    """A record file that cannot be read or does not replay; the message says where."""


@final
@attrs.frozen(kw_only=True)
class MatchRecord:
    """Everything needed to replay a match exactly; saved as versioned JSON.

    The actions are stored as their text forms, one per line of the file.
    """

    game: str
    """Game id."""
    options: Mapping[str, Any]
    """Every option of the game, by name."""
    num_players: int
    """Number of seats."""
    seed: int
    """The seed of the state's RNG."""
    actions: tuple[str, ...]
    """The decisions in order, as text."""
    preset: str = "default"
    """The preset the options were built from (for information; ``options`` is complete)."""
    distribution: str = ""
    """The distribution that provided the game."""
    version: str = ""
    """Its version when the match was played."""
    dealer: int | None = None
    """The dealer given at setup, or ``None`` when the rules chose."""
    deck: tuple[str, ...] | None = None
    """A stacked deck (top first) given at setup, or ``None`` for a shuffle."""
    bots: tuple[str, ...] = ()
    """Who sat in each seat (bot names, ``human``)."""
    outcome: Outcome | None = None
    """The result, once the match is over."""

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {
            "format": RECORD_FORMAT,
            "game": self.game,
            "distribution": self.distribution,
            "version": self.version,
            "preset": self.preset,
            "options": dict(self.options),
            "num_players": self.num_players,
            "seed": self.seed,
            "dealer": self.dealer,
            "deck": list(self.deck) if self.deck is not None else None,
            "bots": list(self.bots),
            "outcome": self.outcome.to_json() if self.outcome is not None else None,
            "actions": list(self.actions),
        }

    def dumps(self) -> str:
        """The record as JSON text, one action per line."""
        return json.dumps(self.to_json(), indent=1, ensure_ascii=False) + "\n"

    def save(self, path: str | Path) -> None:
        """Write the record to a file (atomically: a crash never leaves half a file)."""
        p = Path(path)
        tmp = p.with_name(p.name + ".tmp")
        tmp.write_text(self.dumps(), encoding="utf-8")
        tmp.replace(p)

    @classmethod
    def from_json(cls, data: Any, *, source: str = "record") -> MatchRecord:
        """Build from JSON data, checking every field.

        Raises:
            RecordError: naming the field that is missing or wrong.
        """
        if not isinstance(data, dict):
            raise RecordError(f"{source}: expected a JSON object at the top level")
        fmt = data.get("format")
        if fmt != RECORD_FORMAT:
            raise RecordError(f"{source}: field 'format' is {fmt!r}, expected {RECORD_FORMAT!r}")

        def need(name: str, kind: type | tuple[type, ...], optional: bool = False) -> Any:
            if name not in data:
                if optional:
                    return None
                raise RecordError(f"{source}: field {name!r} is missing")
            v = data[name]
            if v is None and optional:
                return None
            if not isinstance(v, kind) or (kind is int and isinstance(v, bool)):
                raise RecordError(f"{source}: field {name!r} has the wrong type ({v!r})")
            return v

        actions = need("actions", list)
        for i, a in enumerate(actions):
            if not isinstance(a, str):
                raise RecordError(f"{source}: action #{i + 1} is not a string ({a!r})")
        deck = need("deck", list, optional=True)
        if deck is not None:
            for i, c in enumerate(deck):
                try:
                    parse_card(str(c))
                except ValueError as e:
                    raise RecordError(f"{source}: field 'deck', card #{i + 1}: {e}") from None
        outcome_data = need("outcome", dict, optional=True)
        try:
            outcome = Outcome.from_json(outcome_data) if outcome_data is not None else None
        except (KeyError, ValueError, TypeError) as e:
            raise RecordError(f"{source}: field 'outcome' is malformed ({e})") from None
        return cls(
            game=need("game", str),
            options=need("options", dict),
            num_players=need("num_players", int),
            seed=need("seed", int),
            actions=tuple(actions),
            preset=need("preset", str, optional=True) or "default",
            distribution=need("distribution", str, optional=True) or "",
            version=need("version", str, optional=True) or "",
            dealer=need("dealer", int, optional=True),
            deck=tuple(deck) if deck is not None else None,
            bots=tuple(str(b) for b in (need("bots", list, optional=True) or [])),
            outcome=outcome,
        )

    @classmethod
    def loads(cls, text: str, *, source: str = "record") -> MatchRecord:
        """Parse JSON text.

        Raises:
            RecordError: with the line and column of a JSON error, or the bad field.
        """
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise RecordError(
                f"{source}: not valid JSON at line {e.lineno}, column {e.colno}: {e.msg}"
            ) from None
        return cls.from_json(data, source=source)

    @classmethod
    def load(cls, path: str | Path) -> MatchRecord:
        """Read a record file.

        Raises:
            RecordError: the file is missing, unreadable or malformed.
        """
        p = Path(path)
        try:
            text = p.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise RecordError(f"{p}: cannot read: {e}") from None
        return cls.loads(text, source=str(p))

    def action_line(self, index: int) -> int | None:
        """The line of the saved file holding action ``index`` (0-based), if saved by us."""
        lines = self.dumps().splitlines()
        for n, line in enumerate(lines, start=1):
            if line.startswith(' "actions": ['):
                return n + 1 + index
        return None


@final
@attrs.frozen
class Step:
    """One decision in a replay: the state before it, who acted and what."""

    index: int
    """0-based decision number."""
    seat: int
    """The seat that decided."""
    action: Any
    """The action."""
    before: Any
    """The state before the action."""
    after: Any
    """The state after it."""


def _game_for(record: MatchRecord, game: Game[Any, Any, Any] | None) -> Game[Any, Any, Any]:
    if game is not None:
        return game
    from cardcore._host import default_host

    host = default_host()
    try:
        return host.load_game(record.game, **dict(record.options))
    except OptionError as e:
        raise RecordError(f"field 'options': {e}") from None
    except LookupError as e:
        raise RecordError(f"field 'game': {e}") from None


def initial_state_of(record: MatchRecord, game: Game[Any, Any, Any]) -> Any:
    """The starting state a record describes."""
    deck = tuple(parse_card(c) for c in record.deck) if record.deck is not None else None
    try:
        return game.initial_state(record.num_players, record.seed, dealer=record.dealer, deck=deck)
    except ValueError as e:
        raise RecordError(f"setup (num_players, dealer, deck): {e}") from None


def replay(record: MatchRecord, game: Game[Any, Any, Any] | None = None) -> Iterator[Step]:
    """Replay a record decision by decision.

    Raises:
        RecordError: an action that does not parse or is illegal (with its number and
            the line of the file), or a game/options that cannot be built.
    """
    game = _game_for(record, game)
    return _steps(record, game, initial_state_of(record, game))


def _steps(record: MatchRecord, game: Game[Any, Any, Any], state: Any) -> Iterator[Step]:
    """Apply a record's actions from ``state``, one step at a time."""
    for i, text in enumerate(record.actions):
        seat = game.current_player(state)
        if seat is None:
            raise RecordError(f"{_where(record, i)}: the game was already over")
        try:
            action = game.parse_action(text)
            after = game.apply(state, action)
        except IllegalActionError as e:
            raise RecordError(f"{_where(record, i)}: illegal for seat {seat}: {e.reason}") from None
        except ValueError as e:
            raise RecordError(f"{_where(record, i)}: {e}") from None
        yield Step(i, seat, action, state, after)
        state = after


def _where(record: MatchRecord, index: int) -> str:
    """Name an action of a record for an error: its number, text and file line."""
    where = f"action #{index + 1} {record.actions[index]!r}"
    line = record.action_line(index)
    return where if line is None else f"{where} (line {line})"


def verify(record: MatchRecord, game: Game[Any, Any, Any] | None = None) -> Any:
    """Replay a record and check it ends with its recorded outcome; return the final state.

    Raises:
        RecordError: the replay fails or its outcome differs from the recorded one.
    """
    game = _game_for(record, game)
    state = initial_state_of(record, game)
    for step in _steps(record, game, state):
        state = step.after
    if record.outcome is not None and record.outcome.forfeit is None:
        got = game.outcome(state)
        if got != record.outcome:
            raise RecordError(
                f"field 'outcome': the replay ends with {got.to_json() if got else None}, "
                f"the record says {record.outcome.to_json()}"
            )
    return state


def _provenance(name: str) -> tuple[str, str]:
    """The distribution and version that registered a game, if installed."""
    from cardcore._host import default_host

    spec = default_host().games().get(name)
    return (spec.distribution, spec.version) if spec is not None else ("", "")


def _bot_name(bot: object) -> str:
    return str(getattr(bot, "name", type(bot).__name__))


def play_match(
    game: Game[Any, Any, Any],
    bots: Sequence[Any],
    *,
    seed: int = 0,
    dealer: int | None = None,
    deck: Sequence[Card] | None = None,
    time_limit: float | None = None,
    names: Sequence[str] | None = None,
    preset: str = "default",
    on_step: Callable[[Step], None] | None = None,
    start: MatchRecord | None = None,
) -> MatchRecord:
    """Play one match; each bot sees only its own observations.

    Forfeit policy: a bot that raises, returns something that is not one of its legal
    actions, or (with ``time_limit`` seconds) takes too long for a decision, forfeits.
    The match stops there: the offender (and its partner) places last, every other seat
    shares the win (:meth:`Outcome.forfeited`), and the outcome's ``reason`` says what
    happened. Nothing a bot does raises out of this function.

    Args:
        game: the rules.
        bots: one bot per seat.
        seed: the match seed (shuffles, random draws).
        dealer: the dealer seat, or ``None`` for the rules' choice.
        deck: a stacked deck, top card first.
        time_limit: seconds allowed per decision, checked when the bot returns.
        names: names for the record (default: each bot's ``name`` attribute or class).
        preset: the preset name, stored in the record.
        on_step: called after every decision (for display).
        start: continue this unfinished record instead of starting afresh.

    Returns:
        The finished record (its ``outcome`` is set).
    """
    n = len(bots)
    if not game.min_players <= n <= game.max_players:
        raise ValueError(
            f"{game.name} needs {game.min_players}-{game.max_players} players, got {n} bots"
        )
    dist, version = _provenance(game.name)
    record = start or MatchRecord(
        game=game.name,
        distribution=dist,
        version=version,
        options=options_to_json(game.options),
        num_players=n,
        seed=seed,
        actions=(),
        preset=preset,
        dealer=dealer,
        deck=tuple(str(c) for c in deck) if deck is not None else None,
        bots=tuple(names) if names is not None else tuple(_bot_name(b) for b in bots),
    )
    state = initial_state_of(record, game)
    for step in _steps(record, game, state):
        state = step.after
    actions = list(record.actions)

    def finish(outcome: Outcome) -> MatchRecord:
        done = attrs.evolve(record, actions=tuple(actions), outcome=outcome)
        for b in bots:
            end = getattr(b, "end_match", None)
            if end is not None:
                with contextlib.suppress(Exception):  # the result stands whatever a bot does
                    end(outcome)
        return done

    teams = game.teams(n)
    for seat, bot in enumerate(bots):
        hook = getattr(bot, "start_match", None)
        if hook is not None:
            try:
                hook(game, seat, n)
            except Exception as e:  # noqa: BLE001 - a bot that cannot start forfeits
                reason = f"seat {seat} raised {type(e).__name__} in start_match: {e}"
                return finish(Outcome.forfeited(n, seat, reason, teams))
    while True:
        to_move = game.current_player(state)
        if to_move is None:
            outcome = game.outcome(state)
            assert outcome is not None
            return finish(outcome)
        seat = to_move
        obs = game.observe(state, seat)
        t0 = time.perf_counter()
        try:
            action = bots[seat].act(obs)
        except Exception as e:  # noqa: BLE001 - a crashing bot forfeits
            return finish(
                Outcome.forfeited(n, seat, f"seat {seat} raised {type(e).__name__}: {e}", teams)
            )
        took = time.perf_counter() - t0
        if time_limit is not None and took > time_limit:
            return finish(
                Outcome.forfeited(
                    n, seat, f"seat {seat} took {took:.2f} s (limit {time_limit} s)", teams
                )
            )
        if isinstance(action, str):
            try:
                action = game.parse_action(action)
            except ValueError as e:
                return finish(
                    Outcome.forfeited(n, seat, f"seat {seat} returned {action!r}: {e}", teams)
                )
        if action not in obs.legal_actions:
            return finish(
                Outcome.forfeited(
                    n, seat, f"seat {seat} returned an illegal action {action!s}", teams
                )
            )
        after = game.apply(state, action)
        actions.append(str(action))
        if on_step is not None:
            on_step(Step(len(actions) - 1, seat, action, state, after))
        state = after
