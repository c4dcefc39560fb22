"""The engine: play a match between bots and record it.

The record itself, its replay and its verification live in :mod:`cardcore._match_record`;
their names are importable from here too.
"""

from __future__ import annotations

import dataclasses
import enum
import itertools
import operator
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, Protocol, final

import attrs

from cardcore._actions import CardAction
from cardcore._botmaking import exception_text as _exc
from cardcore._botmaking import is_plain as _plain
from cardcore._botmaking import type_name
from cardcore._cards import Card
from cardcore._codec import TEXTS as _TEXTS
from cardcore._codec import action_text as _text
from cardcore._game import Game, Outcome
from cardcore._host import default_host
from cardcore._isolation import TIME_MARGIN, IsolatedBot, transcript_json, transcript_since
from cardcore._isolation import Refused as _Refusal
from cardcore._match_record import (
    RECORD_FORMAT,
    MatchRecord,
    RecordError,
    Step,
    _steps,
    check_outcome,
    initial_state_of,
    replay,
    verify,
)
from cardcore._options import options_to_json

# The record's names are re-exported: code that imported them from here keeps working.
__all__ = [
    "RECORD_FORMAT",
    "TIME_MARGIN",
    "MatchRecord",
    "RecordError",
    "Step",
    "check_outcome",
    "initial_state_of",
    "play_match",
    "replay",
    "verify",
]


_PROVENANCE: dict[tuple[int, str], tuple[object, str, str]] = {}
"""Per (host id, game id): the host (kept, so its id stays its own), distribution, version."""


def _provenance(name: str) -> tuple[str, str]:
    """The distribution and version that registered a game, if installed.

    Asked once per host and game: every match of a game records the same provenance.
    """
    host = default_host()
    hit = _PROVENANCE.get((id(host), name))
    if hit is not None and hit[0] is host:
        return hit[1], hit[2]
    spec = host.games().get(name)
    dist, version = (spec.distribution, spec.version) if spec is not None else ("", "")
    if len(_PROVENANCE) >= 256:
        _PROVENANCE.clear()
    _PROVENANCE[id(host), name] = (host, dist, version)
    return dist, version


def _bot_name(bot: object) -> str:
    try:
        name = getattr(bot, "name", None)
    except Exception:  # noqa: BLE001 - a bot's property must not stop the match
        name = None
    return name if type(name) is str else type_name(type(bot))


def transcript_of(bot: object, limit: float | None = None) -> list[dict[str, Any]]:
    """A JSON copy of what the bot logged of this match (``[]``: it has no ``match_transcript``).

    A bot in its own process (:class:`IsolatedBot`) is asked there, within ``limit``
    seconds (``None``: a minute). Whatever goes wrong (the method raises, gives no list of
    JSON objects, the process is gone or silent) becomes one ``{"error": ...}`` entry
    saying so: a log never changes the result.
    """
    if type(bot) is IsolatedBot:
        return bot.transcript(limit)
    return transcript_json(bot)


def transcript_after(
    bot: object, since: int, last: str, limit: float | None = None
) -> tuple[int, list[dict[str, Any]]]:
    """The entries the bot logged after the ``since`` the caller holds, as :func:`transcript_of`.

    ``last`` is the :func:`~cardcore._isolation.entry_digest` of the last entry held.
    The answer is ``(since, the new entries)``, or ``(0, the whole log)`` when the log no
    longer starts with what is held (see :func:`~cardcore._isolation.transcript_since`).
    A bot in its own process sends only the new entries.
    """
    if type(bot) is IsolatedBot:
        return bot.transcript_since(limit, since, last)
    return transcript_since(bot, since, last)


# ---- accepting what a bot returns ------------------------------------------------------
#
# Nothing here calls a method of an object a bot made: only ``type()``, ``is``, ``id``,
# ``len`` of exact builtins, the game's own methods, and comparisons where both sides have
# an exact builtin type or the exact type of one of the engine's own legal actions.

MAX_ACTION_TEXT: Final = 10_000
"""The longest text a bot may return as an action."""

_DEPTH: Final = 12


def _same(x: object, y: object, depth: int = 0) -> bool:
    """Whether ``x`` (made by a bot) equals ``y`` (made by the game), structurally.

    Every step first checks that ``x`` has exactly the type of ``y``, so that every
    method used belongs to the game or to a builtin type, never to the bot.
    """
    if x is y:
        return True
    tx = type(x)
    if tx is not type(y) or depth > _DEPTH:
        return False
    if _plain(tx):  # an exact builtin type, so == is the builtin's
        return x == y
    if tx is tuple or tx is list:
        assert isinstance(x, tuple | list)
        assert isinstance(y, tuple | list)
        return len(x) == len(y) and all(_same(a, b, depth + 1) for a, b in zip(x, y, strict=True))
    if tx is frozenset:
        assert isinstance(x, frozenset)
        assert isinstance(y, frozenset)
        return len(x) == len(y) and all(any(_same(a, b, depth + 1) for b in y) for a in x)
    if attrs.has(tx):
        return all(
            _same(getattr(x, f.name), getattr(y, f.name), depth + 1)
            for f in attrs.fields(tx)
            if f.eq
        )
    if dataclasses.is_dataclass(tx):
        return all(
            _same(getattr(x, f.name), getattr(y, f.name), depth + 1)
            for f in dataclasses.fields(tx)
            if f.compare
        )
    if isinstance(y, tuple) and not isinstance(y, enum.Enum):  # a NamedTuple action
        assert isinstance(x, tuple)
        n = tuple.__len__(x)
        return n == tuple.__len__(y) and all(
            _same(tuple.__getitem__(x, i), tuple.__getitem__(y, i), depth + 1) for i in range(n)
        )
    return False  # enum members and other values: only the very object will do


def accept(game: Game[Any, Any, Any], legal: Sequence[Any], action: object) -> Any:
    """The engine's own legal action that ``action`` stands for, or a reason it is none.

    Args:
        game: the rules.
        legal: the legal actions, as the engine computed them.
        action: what a bot returned.

    Returns:
        An element of ``legal``, or a ``Refused`` text saying why ``action`` was refused.
    """
    if type(legal) is not tuple:  # a lazy sequence (LazyActions): do not list it all
        found = _accept_lazy(legal, action)
        if found is not None:
            return found
    if any(map(operator.is_, legal, itertools.repeat(action))):  # one of the very objects
        return action
    tp = type(action)
    if tp is str:
        text: str = action  # type: ignore[assignment]
        if len(text) > MAX_ACTION_TEXT:
            return _Refusal(f"returned a text of {len(text)} characters, which is no action")
        try:
            parsed = game.parse_action(text)
        except Exception as e:  # noqa: BLE001 - the game's message says what is wrong
            return _Refusal(f"returned {text!r}: {e}")
        if type(legal) is not tuple:
            return parsed if parsed in legal else _Refusal(f"returned an illegal action {text!r}")
        for a in legal:
            if a == parsed:  # both made by the game
                return a
        return _Refusal(f"returned an illegal action {text!r}")
    try:
        for a in legal:
            if type(a) is tp and _same(action, a):
                return a
    except Exception as e:  # noqa: BLE001 - a malformed object (missing fields) is refused
        return _Refusal(f"returned a malformed {type_name(tp)} ({type(e).__name__})")
    if any(type(a) is tp for a in legal):
        return _Refusal(f"returned an illegal action (a {type_name(tp)} that is not legal now)")
    return _Refusal(
        f"returned an illegal action: a {type_name(tp)}, which is not an action of {game.name} "
        "(return one of observation.legal_actions, or its text)"
    )


_MASK = CardAction.__dict__["mask"].__get__
_MRO = type.__dict__["__mro__"].__get__


def _accept_lazy(legal: Sequence[Any], action: object) -> Any:
    """The fast path for lazy legal actions: a shared card action of the game's own class.

    The class is trusted only when it is exactly that of the first or last legal action
    (read from the sequence, which builds just those two); the action's mask must be an
    exact ``int``, and the shared instance for it must be the very object returned.
    Membership is then asked of the sequence, with the game's object. ``None`` means
    "not decided here" (the caller goes on to the slow, complete checks).
    """
    n = len(legal)
    if not n:
        return None
    tp = type(action)
    if tp is not type(legal[0]) and tp is not type(legal[n - 1]):
        return None
    if not any(base is CardAction for base in _MRO(tp)):
        return None
    try:
        mask = _MASK(action)
    except AttributeError:  # an instance made without its slots filled
        return None
    if type(mask) is not int:
        return None
    shared = tp.from_mask(mask)  # the game's class: its own method
    if shared is not action or shared not in legal:
        return None
    return shared


# ---- watching the time ------------------------------------------------------------------


class Watch(Protocol):
    """Which seat is deciding, since when, and for how long it may (read by a watcher)."""

    def enter(self, seat: int, limit: float) -> None:
        """A bot starts deciding and may take ``limit`` seconds."""
        ...

    def leave(self) -> None:
        """The bot has returned."""
        ...

    def current(self) -> tuple[int, float, float]:
        """The deciding seat (``-1``: none), the ``time.monotonic()`` it started, its limit."""
        ...


@final
class ThreadWatch:
    """A watch read by another thread of the same process."""

    def __init__(self) -> None:
        self._now = (-1, 0.0, 0.0)

    def enter(self, seat: int, limit: float) -> None:
        """A bot starts deciding."""
        self._now = (seat, time.monotonic(), limit)

    def leave(self) -> None:
        """The bot has returned."""
        self._now = (-1, 0.0, 0.0)

    def current(self) -> tuple[int, float, float]:
        """The deciding seat, since when, and its limit."""
        return self._now


@final
class _NoWatch:
    def enter(self, seat: int, limit: float) -> None:
        pass

    def leave(self) -> None:
        pass

    def current(self) -> tuple[int, float, float]:
        return -1, 0.0, 0.0


def hook_limit(time_limit: float) -> float:
    """The time ``start_match`` and ``end_match`` may take: 10 decisions, at least 10 s."""
    return max(10.0, 10.0 * time_limit)


# ---- the match --------------------------------------------------------------------------


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

    Forfeit policy: a bot that raises (or calls ``sys.exit``), returns something that is
    not one of its legal actions, changes its observation's ``legal_actions``, or (with
    ``time_limit`` seconds) takes too long for a decision, forfeits. The match stops
    there: the offender (and its partner) places last, every other seat shares the win
    (:meth:`Outcome.forfeited`), and the outcome's ``reason`` says what happened. Nothing
    a bot does raises out of this function.

    A bot's answer is accepted when it is one of the very objects in its observation's
    ``legal_actions``, its text (a plain ``str``, read by :meth:`Game.parse_action`), or
    an object of exactly the type of a legal action whose fields are equal, compared
    without calling any method the bot could have defined. The engine then plays and
    records its own legal action, never the bot's object.

    A bot with a ``match_transcript()`` method (the ``llm`` bot has one) is asked for it
    when the match ends, before ``end_match``: a list of JSON objects, one per decision
    of this match, kept for its seat in :attr:`MatchRecord.transcripts`. Bots in their
    own processes (:func:`cardcore.isolated_bot`) are asked there (a process that has
    ended or does not answer gives an entry saying so).

    With ``time_limit``, a decision that has not returned after ``time_limit`` plus
    :data:`TIME_MARGIN` seconds forfeits at once: in-process bots are left behind in a
    daemon thread (which keeps running; see ``docs/how-to/hidden-information.md``), a
    bot from :func:`cardcore.isolated_bot` has its process stopped. ``start_match`` and
    ``end_match`` may take 10 times the limit (at least 10 s).

    Args:
        game: the rules.
        bots: one bot per seat (objects with ``act``, or :func:`cardcore.isolated_bot`
            bots, which run in their own processes).
        seed: the match seed (shuffles, random draws).
        dealer: the dealer seat, or ``None`` for the rules' choice.
        deck: a stacked deck, top card first.
        time_limit: seconds allowed per decision.
        names: names for the record (default: each bot's ``name`` attribute or class).
        preset: the preset name, stored in the record.
        on_step: called after every decision (for display).
        start: continue this unfinished record instead of starting afresh.

    Returns:
        The finished record (its ``outcome`` is set).
    """
    match = _Match(
        game, bots, seed=seed, dealer=dealer, deck=deck, time_limit=time_limit,
        names=names, preset=preset, on_step=on_step, start=start,
    )  # fmt: skip
    if time_limit is None or all(type(b) is IsolatedBot for b in bots):
        return match.run()
    return match.run_watched()


def _new_record(
    game: Game[Any, Any, Any],
    bots: Sequence[Any],
    seed: int,
    dealer: int | None,
    deck: Sequence[Card] | None,
    names: Sequence[str] | None,
    preset: str,
) -> MatchRecord:
    """The record of a match about to start: no action yet, no outcome."""
    dist, version = _provenance(game.name)
    return MatchRecord(
        game=game.name,
        distribution=dist,
        version=version,
        options=options_to_json(game.options),
        num_players=len(bots),
        seed=seed,
        actions=(),
        preset=preset,
        dealer=dealer,
        deck=tuple(str(c) for c in deck) if deck is not None else None,
        bots=tuple(names) if names is not None else tuple(_bot_name(b) for b in bots),
    )


def _end_hooks(
    bots: Sequence[Any], outcome: Outcome, limit: float | None, stopped: Callable[[], bool]
) -> None:
    """Call every bot's ``end_match`` until ``stopped()``; what a bot raises is ignored."""
    for b in bots:
        if stopped():
            break
        if type(b) is IsolatedBot:
            b.end(outcome, limit)
            continue
        try:
            end = getattr(b, "end_match", None)
            if end is not None:
                end(outcome)
        except (Exception, SystemExit):  # noqa: BLE001, S110 - the result stands
            pass


def _check_match(game: Game[Any, Any, Any], n: int, time_limit: float | None) -> None:
    """Raise ``ValueError`` for a seat count the game does not take or a bad time limit."""
    if not game.min_players <= n <= game.max_players:
        raise ValueError(
            f"{game.name} needs {game.min_players}-{game.max_players} players, got {n} bots"
        )
    if time_limit is not None and not time_limit > 0:
        raise ValueError(f"time_limit must be a positive number of seconds, not {time_limit}")


def with_transcripts(
    game: Game[Any, Any, Any],
    bots: Sequence[Any],
    first: int,
    record: MatchRecord,
    limit: float | None = None,
) -> MatchRecord:
    """The record with what each bot logged (:func:`transcript_of`, within ``limit`` seconds).

    See :func:`tag_transcripts` for ``first`` and the entries' ``index``.
    """
    return tag_transcripts(game, record, [transcript_of(b, limit) for b in bots], first)


def tag_transcripts(
    game: Game[Any, Any, Any],
    record: MatchRecord,
    logs: Sequence[Sequence[Mapping[str, Any]]],
    first: int,
) -> MatchRecord:
    """The record with ``logs`` (one list of entries per seat) added to its transcripts.

    Each entry is tagged with ``index``: the index in the actions of the seat's decision
    it belongs to, counted in the order the seat decided from action ``first`` on (where
    the bots began: a resumed match, an undo); a last entry past the seat's decisions
    belongs to the decision it forfeited, index ``len(actions)``. The record's own
    transcripts (of the bots before ``first``) stay in front.
    """
    if not any(logs):
        return record
    mine: list[list[int]] = [[] for _ in logs]
    for step in _steps(record, game, initial_state_of(record, game)):
        if step.index >= first:
            mine[step.seat].append(step.index)
    end = len(record.actions)
    old = record.transcripts or ((),) * len(logs)
    return attrs.evolve(
        record,
        transcripts=tuple(
            (
                *old[seat],
                *(
                    {**e, "index": mine[seat][k] if k < len(mine[seat]) else end}
                    for k, e in enumerate(entries)
                ),
            )
            for seat, entries in enumerate(logs)
        ),
    )


@final
class _Match:
    """One match being played: the record so far, the state, the bots."""

    def __init__(
        self,
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
        watch: Watch | None = None,
    ) -> None:
        n = len(bots)
        _check_match(game, n, time_limit)
        self.game = game
        self.bots = tuple(bots)
        self.time_limit = time_limit
        self.on_step = on_step
        self.watch: Watch = watch if watch is not None else _NoWatch()
        self.cancelled = False
        self.result: MatchRecord | None = None
        self.record = start or _new_record(game, bots, seed, dealer, deck, names, preset)
        state = initial_state_of(self.record, game)
        for step in _steps(self.record, game, state):
            state = step.after
        self.state = state
        self.actions = list(self.record.actions)
        self.resumed = self.record.actions
        self.teams = game.teams(n)

    def stopped(self) -> bool:
        """Whether the watcher has given up on this match (read from the game thread)."""
        return self.cancelled

    def forfeit(self, seat: int, reason: str) -> MatchRecord:
        """The record when ``seat`` forfeits now (``end_match`` is called)."""
        outcome = Outcome.forfeited(len(self.bots), seat, f"seat {seat} {reason}", self.teams)
        return self.finish(outcome)

    def abandoned(self, seat: int, reason: str) -> MatchRecord:
        """The record when ``seat`` is given up on (no hook is called any more)."""
        self.cancelled = True
        outcome = Outcome.forfeited(len(self.bots), seat, f"seat {seat} {reason}", self.teams)
        return attrs.evolve(self.record, actions=tuple(self.actions), outcome=outcome)

    def finish(self, outcome: Outcome) -> MatchRecord:
        """The finished record; then every bot's ``end_match`` (which cannot change it).

        ``end_match`` is not watched as a decision: the result is already decided, so a
        bot that hangs there delays only its own cleanup (a watcher returns the result).
        """
        done = attrs.evolve(self.record, actions=tuple(self.actions), outcome=outcome)
        limit = hook_limit(self.time_limit) if self.time_limit is not None else None
        done = with_transcripts(self.game, self.bots, len(self.resumed), done, limit)
        self.result = done
        _end_hooks(self.bots, outcome, limit, self.stopped)
        return done

    def start_hooks(self) -> MatchRecord | None:
        """Call every bot's ``start_match``; the record of a forfeit if one fails."""
        n = len(self.bots)
        limit = hook_limit(self.time_limit) if self.time_limit is not None else None
        for seat, bot in enumerate(self.bots):
            if type(bot) is IsolatedBot:
                failure = bot.start(seat, n, limit)
                if failure is not None:
                    return self.forfeit(seat, failure)
                continue
            try:
                hook = getattr(bot, "start_match", None)
                if hook is not None:
                    self.watch.enter(seat, limit or 0.0)
                    hook(self.game, seat, n)
            except (Exception, SystemExit) as e:  # noqa: BLE001 - a bot that cannot start forfeits
                kind, text = _exc(e)
                return self.forfeit(seat, f"raised {kind} in start_match: {text}")
            finally:
                self.watch.leave()
            if self.cancelled:
                return None
        return None

    def run(self) -> MatchRecord:
        """Play to the end (or a forfeit) in this thread."""
        early = self.start_hooks()
        if early is not None or self.cancelled:
            return early or self.abandoned(-1, "")
        game = self.game
        bots = self.bots
        current_player = game.current_player
        observe = game.observe
        apply = game.apply
        watch = self.watch
        limit = self.time_limit
        isolated = [type(b) is IsolatedBot for b in bots]
        actions = self.actions
        on_step = self.on_step
        state = self.state
        clock = time.perf_counter
        texts = _TEXTS.get
        is_ = operator.is_
        repeat = itertools.repeat
        while True:
            seat = current_player(state)
            if seat is None:
                outcome = game.outcome(state)
                assert outcome is not None
                self.state = state
                return self.finish(outcome)
            obs = observe(state, seat)
            obs_type = type(obs)
            legal = obs.legal_actions
            bot = bots[seat]
            if isolated[seat]:
                action = bot.decide(obs, legal, limit)
                if type(action) is _Refusal:
                    return self.forfeit(seat, action)
            elif limit is None:
                try:
                    action = bot.act(obs)
                except (Exception, SystemExit) as e:  # noqa: BLE001 - a crashing bot forfeits
                    kind, text = _exc(e)
                    return self.forfeit(seat, f"raised {kind}: {text}")
            else:
                watch.enter(seat, limit)
                t0 = clock()
                try:
                    action = bot.act(obs)
                except (Exception, SystemExit) as e:  # noqa: BLE001 - a crashing bot forfeits
                    if self.stopped():
                        return self.abandoned(seat, "")
                    kind, text = _exc(e)
                    return self.forfeit(seat, f"raised {kind}: {text}")
                finally:
                    watch.leave()
                took = clock() - t0
                if self.stopped():
                    return self.abandoned(seat, "")
                if took > limit:
                    return self.forfeit(seat, f"took {took:.2f} s (limit {limit:g} s)")
            if type(obs) is not obs_type or obs.legal_actions is not legal:
                return self.forfeit(seat, "changed its observation (observations are read-only)")
            # The fast path of accept(), inline: the very object, found by identity in C.
            if type(legal) is tuple and any(map(is_, legal, repeat(action))):
                chosen = action
            else:
                chosen = accept(game, legal, action)
                if type(chosen) is _Refusal:
                    return self.forfeit(seat, chosen)
            after = apply(state, chosen)
            hit = texts(id(chosen))
            actions.append(hit[1] if hit is not None and hit[0] is chosen else _text(chosen))
            if on_step is not None:
                on_step(Step(len(actions) - 1, seat, chosen, state, after))
            state = after

    def run_watched(self) -> MatchRecord:
        """Play in a helper thread; give up on a decision that runs past its limit."""
        watch = ThreadWatch()
        self.watch = watch
        box: list[tuple[bool, Any]] = []

        def target() -> None:
            try:
                box.append((True, self.run()))
            except BaseException as e:  # noqa: BLE001 - handed to the caller's thread
                box.append((False, e))

        thread = threading.Thread(target=target, name="cardcore-match", daemon=True)
        thread.start()
        ended = 0.0
        while True:
            thread.join(0.02)
            if box:
                ok, value = box[0]
                if ok:
                    return value  # type: ignore[no-any-return]
                raise value
            if self.result is not None:  # over: give end_match its time, then leave
                ended = ended or time.monotonic()
                if time.monotonic() - ended > hook_limit(self.time_limit or 1.0):
                    self.cancelled = True
                    return self.result
                continue
            seat, since, limit = watch.current()
            if seat >= 0 and time.monotonic() - since > limit + TIME_MARGIN:
                return self.abandoned(
                    seat,
                    f"did not return within {limit:g} s (+{TIME_MARGIN:g} s); it was abandoned",
                )
