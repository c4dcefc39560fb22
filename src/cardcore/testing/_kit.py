"""The conformance kit: plays a game at random and checks every promised property.

Each property has a name (used in reports and by ``cardcore certify``). On a failure
Hypothesis shrinks the random play to a small case, and the kit writes that game as a
:class:`cardcore.MatchRecord` that ``cardcore replay`` opens.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import pickle
import random
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Final, final

import attrs

from cardcore._engine import MatchRecord, replay
from cardcore._game import Game, GameSpec, IllegalActionError, Outcome
from cardcore._host import PluginHost, default_host
from cardcore._options import build_options, option_infos, options_to_json
from cardcore._table import SPECTATOR, CardTable, sample_table
from cardcore.testing._values import difference, perturb

__all__ = [
    "DEFAULT_TIMEOUT",
    "MAX_GAMES",
    "PROPERTIES",
    "CheckResult",
    "Config",
    "ConformanceError",
    "Report",
    "check_bot",
    "check_game",
    "configurations",
    "run_checks",
]

PROPERTIES: Final[Mapping[str, str]] = {
    "progress": "a live state has a current player and a legal action; a finished one has "
    "none; every game ends within the declared bound on decisions",
    "immutability": "apply never changes its input",
    "determinism": "equal inputs give equal outputs; states hash and compare by value",
    "seed": "the seed decides the deal: different seeds give different deals",
    "illegal-input": "illegal actions, garbage objects and malformed text are refused with "
    "IllegalActionError / ValueError, and the state is unchanged",
    "replay": "the same seed and actions reproduce equal states, observations and outcomes; "
    "a MatchRecord round-trips through JSON and replays to the same final state",
    "round-trip": "actions round-trip through text; observations through JSON",
    "observation-legal": "an observation lists exactly the seat's legal actions when it is to "
    "move, and none otherwise",
    "outcome": "one score per seat; placing, win shares and winners follow the scores (higher "
    "or lower scores win, the same way in every game); shares sum to one; teams as declared",
    "card-conservation": "every card of the deck is in exactly one place at every step",
    "no-leaks": "no seat's whole observation (every field, even those excluded from ==) "
    "changes when the cards it does not know are redealt, the RNG state or a declared hidden "
    "field changes; non-movers see no legal actions; every other state field is public",
    "determinisation": "sampled states are legal states from which play continues to the end",
    "no-crash": "the game raises nothing but IllegalActionError, whatever legal play it meets",
    "hash-seed": "a seeded game is the same in fresh processes with other PYTHONHASHSEED values",
    "time-out": "every check of one game finishes within the time limit",
}


@final
class ConformanceError(AssertionError):
    """A property failed; the message names it and the counterexample."""

    def __init__(self, prop: str, message: str, record_path: Path | None = None) -> None:
        self.property = prop
        self.record_path = record_path
        where = f"\n  minimal replay: {record_path}" if record_path else ""
        super().__init__(f"[{prop}] {message}{where}")


@final
@attrs.frozen
class Config:
    """One configuration to check: a preset plus option overrides."""

    preset: str = "default"
    overrides: Mapping[str, Any] = attrs.field(factory=dict)

    def label(self) -> str:
        """Short text, e.g. ``default capture=hand``."""
        extra = " ".join(f"{k}={_fmt(v)}" for k, v in self.overrides.items())
        return f"preset={self.preset}" + (f" {extra}" if extra else "")


def _fmt(v: Any) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)


def configurations(spec: GameSpec) -> list[Config]:
    """Every preset, plus every single-option change from ``default``.

    For integer options the listed bounds are used (not every integer).
    """
    out = [Config(p) for p in spec.presets]
    base = spec.presets["default"]
    for info in option_infos(spec.options_type):
        for v in info.samples():
            if v != getattr(base, info.name):
                out.append(Config("default", {info.name: v}))
    return out


@final
@attrs.frozen
class CheckResult:
    """The outcome of one property over all games of one configuration."""

    property: str
    passed: bool
    message: str = ""
    record_path: Path | None = None


@final
@attrs.define
class Report:
    """Everything the kit found for one game."""

    game: str
    results: list[tuple[str, int, CheckResult]] = attrs.field(factory=list)
    """(configuration label, player count, result) triples."""
    games_played: int = 0
    decisions: int = 0

    @property
    def ok(self) -> bool:
        """Whether every property passed everywhere."""
        return all(r.passed for _, _, r in self.results)

    def failures(self) -> list[tuple[str, int, CheckResult]]:
        """The failed checks."""
        return [x for x in self.results if not x[2].passed]


class _Fail(Exception):
    def __init__(self, prop: str, message: str) -> None:
        super().__init__(message)
        self.prop = prop
        self.message = message


def _require(cond: bool, prop: str, message: str | Callable[[], str]) -> None:
    if not cond:
        raise _Fail(prop, message() if callable(message) else message)


_GARBAGE: Final[tuple[object, ...]] = (None, 42, "pass", object(), ("x",), 3.5)
_BAD_TEXT: Final[tuple[str, ...]] = ("", "   ", "xyzzy", "play", "9♣9♣9♣ wat", "bid -5", "☃")
_MASK64: Final = (1 << 64) - 1

DEFAULT_TIMEOUT: Final = 120.0
"""Seconds one random game (with every check on every step) may take by default."""


class _Timeout(Exception):
    """The running game passed its deadline."""


@final
class _Clock:
    """The deadline of one game, and the name of the check running now."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.deadline = time.monotonic() + seconds
        self.check = "setup"
        self.step = 0

    def at(self, check: str) -> None:
        self.check = check
        if time.monotonic() > self.deadline:
            raise _Timeout(check)


@contextlib.contextmanager
def _alarm(seconds: float) -> Iterator[None]:
    """Interrupt a call that never returns (main thread on POSIX; elsewhere the clock only)."""
    usable = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    if not usable:
        yield
        return

    def ring(signum: int, frame: object) -> None:
        raise _Timeout("alarm")

    old = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, max(seconds, 0.001))
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def _who(seat: int) -> str:
    return "the onlooker" if seat == SPECTATOR else f"seat {seat}"


def _leak(seat: int, how: str, path: str, equal: bool) -> str:
    """Name the cause of a leak from the first field where the observations differ."""
    who = _who(seat)
    if path.startswith("legal_actions"):
        text = f"{who}'s legal actions change when {how} (a legal-action leak)"
    elif path.startswith("table"):
        text = f"{who} sees cards it does not know: its table view ({path}) changes when {how}"
    else:
        text = f"{who}'s observation changes when {how}: field {path} differs"
    if equal:
        text += " (the two observations compare equal with ==: the field is excluded from equality)"
    return text


@final
class _Checker:
    def __init__(
        self,
        game: Game[Any, Any, Any],
        n: int,
        rng: random.Random,
        clock: _Clock,
        shared: dict[str, Any],
    ) -> None:
        self.game = game
        self.n = n
        self.rng = rng
        self.clock = clock
        self.shared = shared
        self.teams = game.teams(n)
        self.seen_actions: list[Any] = []
        self.seats = [*range(n), SPECTATOR]
        self.hidden = tuple(getattr(game, "hidden_state_fields", ()))
        self.observations: list[list[Any]] = []
        self.twin: Any = None

    # ---- per state -----------------------------------------------------------------

    def state_checks(self, s: Any) -> None:
        g = self.game
        self.clock.at("card-conservation")
        table = getattr(s, "table", None)
        _require(
            isinstance(table, CardTable),
            "card-conservation",
            "the state has no 'table' field holding a cardcore.CardTable",
        )
        assert isinstance(table, CardTable)
        try:
            table.check()
        except AssertionError as e:
            raise _Fail("card-conservation", str(e)) from None
        self.clock.at("determinism")
        twin = pickle.loads(pickle.dumps(s))
        _require(twin == s, "determinism", "a copy of a state does not compare equal")
        _require(hash(s) == hash(twin), "determinism", "equal states hash differently")
        self.twin = twin
        self.clock.at("progress")
        cur = g.current_player(s)
        legal = g.legal_actions(s)
        if cur is None:
            _require(legal == (), "progress", "a finished game still has legal actions")
            _require(g.outcome(s) is not None, "progress", "a finished game has no outcome")
        else:
            _require(
                isinstance(cur, int) and 0 <= cur < self.n,
                "progress",
                f"current player {cur!r} is not a seat",
            )
            _require(len(legal) > 0, "progress", "a live state has no legal action (dead end)")
            _require(len(set(legal)) == len(legal), "progress", "legal actions contain duplicates")
            _require(g.outcome(s) is None, "outcome", "a live game already has an outcome")
        self.clock.at("observation-legal")
        obs_all = [g.observe(s, seat) for seat in self.seats]
        self.observations.append(obs_all)
        for seat, obs in zip(self.seats, obs_all, strict=True):
            self.legal_rule(obs, seat, cur, legal)
        self.clock.at("no-leaks")
        self.hidden_checks(s, obs_all)
        for seat, obs in zip(self.seats, obs_all, strict=True):
            self.redeal_checks(s, seat, cur, legal, obs)
        self.clock.at("determinisation")
        for seat, obs in zip(self.seats[:-1], obs_all[:-1], strict=True):
            self.sample_checks(s, seat, cur, legal, obs)
        self.clock.at("round-trip")
        # The JSON round trip (a codec property, not a leak check, and the costliest
        # check for games with long histories) runs for the mover, the onlooker and one
        # more seat in rotation at every step, and for every seat at the first and the
        # last step.
        every = self.clock.step == 0 or cur is None
        extra = self.clock.step % self.n
        for seat, obs in zip(self.seats, obs_all, strict=True):
            if every or seat in (cur, SPECTATOR, extra):
                self.json_checks(obs, seat)

    def legal_rule(self, obs: Any, seat: int, cur: int | None, legal: Sequence[Any]) -> None:
        _require(obs.seat == seat, "observation-legal", "observation.seat is wrong")
        _require(
            obs.current_player == cur, "observation-legal", "observation.current_player is wrong"
        )
        if seat == cur:
            _require(
                tuple(obs.legal_actions) == legal,
                "observation-legal",
                lambda: (
                    f"seat {seat} observes legal actions {obs.legal_actions}, state says {legal}"
                ),
            )
        else:
            _require(
                tuple(obs.legal_actions) == (),
                "no-leaks",
                lambda: (
                    f"a legal-action leak: {_who(seat)} sees legal actions "
                    f"{tuple(obs.legal_actions)[:6]} although "
                    f"{'nobody' if cur is None else f'seat {cur}'} is to move"
                ),
            )

    def hidden_checks(self, s: Any, obs_all: list[Any]) -> None:
        """The RNG and the declared hidden fields: changing them changes no observation."""
        g = self.game
        if not attrs.has(type(s)) or "rng" not in attrs.fields_dict(type(s)):
            raise _Fail("no-leaks", "the state has no 'rng' field (the kit needs it by that name)")
        fields = attrs.fields_dict(type(s))
        missing = [f for f in self.hidden if f not in fields]
        _require(
            not missing,
            "no-leaks",
            f"hidden_state_fields names {missing}, which the state does not have",
        )
        rng_value = s.rng
        if isinstance(rng_value, int) and not isinstance(rng_value, bool):
            # Every bit flips on even steps; a random half of them on odd steps.
            flip = _MASK64 if self.clock.step % 2 == 0 else self.rng.getrandbits(64) | 1
            other_rng: Any = rng_value ^ flip
        else:
            other_rng = perturb(rng_value, self.rng)
        changes = {"rng": other_rng, **{f: perturb(getattr(s, f), self.rng) for f in self.hidden}}
        other = attrs.evolve(s, **changes)
        for seat, obs in zip(self.seats, obs_all, strict=True):
            try:
                seen = g.observe(other, seat)
            except Exception as e:  # noqa: BLE001 - observe read a hidden value
                seen = e
            where = difference(obs, seen)
            if where is None:
                continue
            # Name the field that leaks: try each change alone.
            culprit = "rng"
            for name, value in changes.items():
                try:
                    alone = g.observe(attrs.evolve(s, **{name: value}), seat)
                except Exception as e:  # noqa: BLE001
                    alone = e
                if difference(obs, alone) is not None:
                    culprit = name
                    break
            how = (
                "only the RNG state changes (a seat could predict the RNG)"
                if culprit == "rng"
                else f"only the hidden state field {culprit!r} changes"
            )
            if isinstance(seen, Exception):
                raise _Fail(
                    "no-leaks",
                    f"{_who(seat)}'s observation reads hidden data: observe raised "
                    f"{type(seen).__name__}: {seen} when {how}",
                )
            raise _Fail("no-leaks", _leak(seat, how, where, obs == seen))

    def redeal_checks(
        self,
        s: Any,
        seat: int,
        cur: int | None,
        legal: Sequence[Any],
        obs: Any,
    ) -> None:
        """The same state with the cards this seat does not know dealt differently."""
        g = self.game
        redealt = attrs.evolve(s, table=sample_table(s.table.view(seat), self.rng))
        obs_r = g.observe(redealt, seat)
        where = difference(obs, obs_r)
        if where is not None:
            raise _Fail(
                "no-leaks",
                _leak(seat, "the cards it does not know are redealt", where, obs == obs_r)
                + f":\n  original: {obs}\n  redealt:  {obs_r}",
            )
        if seat == cur:
            _require(
                g.legal_actions(redealt) == legal,
                "no-leaks",
                f"seat {seat}'s legal actions depend on cards it does not know",
            )

    def sample_checks(
        self,
        s: Any,
        seat: int,
        cur: int | None,
        legal: Sequence[Any],
        obs: Any,
    ) -> None:
        """The game's own determinisation agrees with the observation and the public facts."""
        g = self.game
        sampled = g.sample_state(obs, self.rng)
        try:
            sampled.table.check()
        except AssertionError as e:
            raise _Fail("determinisation", f"sampled state: {e}") from None
        obs2 = g.observe(sampled, seat)
        # Compared with ==: the kit's own perturbations above judge whole observations.
        where = None if obs2 == obs else (difference(obs, obs2) or "an eq-only difference")
        if where is not None:
            raise _Fail(
                "no-leaks",
                _leak(
                    seat,
                    "the game's sample_state redeals what it does not know",
                    where,
                    obs == obs2,
                )
                + f":\n  original: {obs}\n  sampled:  {obs2}",
            )
        if seat == cur:
            _require(
                g.legal_actions(sampled) == legal,
                "no-leaks",
                f"seat {seat}'s legal actions depend on cards it cannot see",
            )
        # Every field but the table, the RNG and the declared hidden fields is public:
        # a determinisation from any seat's observation must reproduce it exactly.
        for name in self.public_fields(s):
            if getattr(sampled, name, _MISSING) != getattr(s, name):
                raise _Fail(
                    "no-leaks",
                    f"hidden data outside the card table: state field {name!r} is not "
                    f"declared hidden (hidden_state_fields), so it must be public, but "
                    f"{_who(seat)}'s observation does not determine it (sample_state gives "
                    f"{_short(getattr(sampled, name, _MISSING))}, the state holds "
                    f"{_short(getattr(s, name))}). Keep hidden cards in the table, or "
                    f"declare the field in hidden_state_fields",
                )

    def public_fields(self, s: Any) -> tuple[str, ...]:
        key = type(s)
        cache: dict[type, tuple[str, ...]] = self.shared.setdefault("public", {})
        if key not in cache:
            skip = {"table", "rng", *self.hidden}
            cache[key] = tuple(f.name for f in attrs.fields(key) if f.name not in skip)
        return cache[key]

    def json_checks(self, obs: Any, seat: int) -> None:
        data = obs.to_json()
        try:
            text = json.dumps(data, ensure_ascii=False)
        except (TypeError, ValueError) as e:
            raise _Fail("round-trip", f"observation.to_json() is not JSON: {e}") from None
        back = self.game.observation_from_json(json.loads(text))
        _require(
            back == obs,
            "round-trip",
            lambda: f"observation of {_who(seat)} does not survive JSON: {text[:300]}",
        )

    def action_checks(self, s: Any, action: Any) -> Any:
        g = self.game
        self.clock.at("immutability")
        after = g.apply(s, action)
        _require(
            s == self.twin,
            "immutability",
            lambda: f"apply({action}) changed its input state",
        )
        self.clock.at("determinism")
        again = g.apply(s, action)
        _require(
            again == after, "determinism", lambda: f"apply({action}) twice gave different states"
        )
        self.clock.at("round-trip")
        text = str(action)
        try:
            parsed = g.parse_action(text)
        except ValueError as e:
            raise _Fail("round-trip", f"str(action) {text!r} does not parse back: {e}") from None
        _require(parsed == action, "round-trip", f"{text!r} parses to {parsed!r}, not {action!r}")
        return after

    def illegal_checks(self, s: Any, legal: Sequence[Any]) -> None:
        g = self.game
        self.clock.at("illegal-input")
        candidates: list[object] = list(_GARBAGE)
        legal_set = set(legal)
        foreign = [a for a in self.seen_actions[-60:] if a not in legal_set]
        candidates += self.rng.sample(foreign, min(4, len(foreign)))
        for bad in candidates:
            try:
                g.apply(s, bad)
            except IllegalActionError:
                pass
            except Exception as e:  # noqa: BLE001 - any other error is the failure
                raise _Fail(
                    "illegal-input",
                    f"apply({bad!r}) raised {type(e).__name__}: {e}, not IllegalActionError",
                ) from None
            else:
                raise _Fail("illegal-input", f"apply accepted an illegal action {bad!r}")
        for text in _BAD_TEXT:
            try:
                a = g.parse_action(text)
            except ValueError:
                continue
            except Exception as e:  # noqa: BLE001
                raise _Fail(
                    "illegal-input",
                    f"parse_action({text!r}) raised {type(e).__name__}, not ValueError",
                ) from None
            if a not in legal_set:
                try:
                    g.apply(s, a)
                except IllegalActionError:
                    continue
                raise _Fail("illegal-input", f"apply accepted {text!r} parsed as {a!r}")
        # ``twin`` is a deep copy of ``s`` taken before any of these attempts.
        if s != self.twin:
            for bad in candidates:  # find the refusal that changed the state
                now = pickle.loads(pickle.dumps(s))
                with contextlib.suppress(Exception):
                    g.apply(s, bad)
                if s != now:
                    raise _Fail("illegal-input", f"refusing {bad!r} changed the state")
            raise _Fail("illegal-input", "refusing an illegal action changed the state")

    def outcome_checks(self, out: Outcome) -> None:
        n = self.n
        self.clock.at("outcome")
        _require(isinstance(out, Outcome), "outcome", "outcome is not a cardcore.Outcome")
        _require(
            len(out.scores) == n and len(out.placing) == n and len(out.shares) == n,
            "outcome",
            "scores, placing and shares need one entry per seat",
        )
        _require(sum(out.shares) == 1, "outcome", f"win shares sum to {sum(out.shares)}, not 1")
        _require(1 in out.placing, "outcome", "nobody is placed first")
        for i in range(n):
            better = sum(1 for j in range(n) if out.placing[j] < out.placing[i])
            _require(
                out.placing[i] == better + 1,
                "outcome",
                f"placing {out.placing} is not consistent (ties share a place)",
            )
        if self.teams is None:
            _require(out.teams is None, "outcome", "outcome has teams, the game declares none")
        else:
            _require(
                out.teams is not None
                and {frozenset(t) for t in out.teams} == {frozenset(t) for t in self.teams},
                "outcome",
                f"outcome teams {out.teams} differ from the game's {self.teams}",
            )
            for t in self.teams:
                _require(
                    len({out.placing[i] for i in t}) == 1,
                    "outcome",
                    f"partners {t} are placed differently",
                )
        # Placing, shares and winners must follow the scores: higher scores win, or
        # lower ones, the same way in every game of this configuration.
        fits = []
        for higher in (True, False):
            expected = Outcome.from_scores(out.scores, teams=self.teams, higher_is_better=higher)
            if expected.placing == out.placing:
                fits.append((higher, expected))
        _require(
            bool(fits),
            "outcome",
            f"placing {out.placing} does not follow the scores {out.scores} "
            f"(whether higher or lower scores win)",
        )
        direction = self.shared.get("direction")
        if len(fits) == 1:
            higher = fits[0][0]
            _require(
                direction in (None, higher),
                "outcome",
                f"in one game higher scores win, in another lower ones (scores {out.scores}, "
                f"placing {out.placing})",
            )
            self.shared["direction"] = higher
        expected = fits[0][1]
        _require(
            tuple(out.shares) == tuple(expected.shares),
            "outcome",
            f"the win shares {tuple(str(x) for x in out.shares)} do not go to the seats placed "
            f"first (placing {out.placing}, scores {out.scores}, winners {out.winners})",
        )


_MISSING: Final = object()


def _short(value: object) -> str:
    text = "(missing)" if value is _MISSING else repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _play_one(
    game: Game[Any, Any, Any],
    n: int,
    seed: int,
    choose: Callable[[int], int],
    rng: random.Random,
    actions: list[str],
    clock: _Clock,
    shared: dict[str, Any],
) -> int:
    """Play one game choosing actions with ``choose``; check everything. Returns decisions."""
    g = game
    chk = _Checker(g, n, rng, clock, shared)
    clock.at("replay")
    s0 = g.initial_state(n, seed)
    _require(
        g.initial_state(n, seed) == s0, "replay", "the same seed gives different initial states"
    )
    s = s0
    states = [s]
    bound = g.max_decisions(n)
    steps = 0
    while True:
        clock.step = steps
        chk.state_checks(s)
        cur = g.current_player(s)
        if cur is None:
            break
        clock.at("progress")
        _require(
            steps < bound,
            "progress",
            f"the game did not end within its declared bound of {bound} decisions",
        )
        legal = g.legal_actions(s)
        chk.illegal_checks(s, legal)
        action = legal[choose(len(legal))]
        chk.seen_actions.extend(legal[:8])
        s = chk.action_checks(s, action)
        actions.append(str(action))
        states.append(s)
        steps += 1
    out = g.outcome(s)
    assert out is not None
    chk.outcome_checks(out)
    clock.at("determinisation")
    for mid in states[1::20]:
        _continue_from_sample(g, n, mid, rng, clock)
    clock.at("replay")
    _replay_checks(g, n, seed, actions, states, chk.observations, out)
    return steps


def _continue_from_sample(
    g: Game[Any, Any, Any], n: int, s: Any, rng: random.Random, clock: _Clock
) -> None:
    cur = g.current_player(s)
    if cur is None:
        return
    sampled = g.sample_state(g.observe(s, cur), rng)
    bound = g.max_decisions(n)
    for _ in range(bound + 1):
        clock.at("determinisation")
        if g.current_player(sampled) is None:
            return
        legal = g.legal_actions(sampled)
        _require(len(legal) > 0, "determinisation", "a sampled state reaches a dead end")
        try:
            sampled = g.apply(sampled, legal[rng.randrange(len(legal))])
        except IllegalActionError as e:
            raise _Fail(
                "determinisation", f"a sampled state refused its own legal action: {e}"
            ) from None
    raise _Fail("determinisation", "play from a sampled state did not end within the bound")


def _replay_checks(
    g: Game[Any, Any, Any],
    n: int,
    seed: int,
    actions: list[str],
    states: list[Any],
    observations: list[list[Any]],
    out: Outcome,
) -> None:
    """Replay the record once; every state and every seat's observation must match."""
    rec = MatchRecord(
        game=g.name,
        options=options_to_json(g.options),
        num_players=n,
        seed=seed,
        actions=tuple(actions),
        outcome=out,
    )
    back = MatchRecord.loads(rec.dumps())
    _require(back == rec, "replay", "a MatchRecord does not survive JSON")
    replayed = [states[0], *(step.after for step in replay(back, g))]
    _require(len(replayed) == len(states), "replay", "the replay has a different length")
    seats = [*range(n), SPECTATOR]
    for i, (a, b) in enumerate(zip(states, replayed, strict=True)):
        _require(a == b, "replay", f"replaying the record gives a different state at step {i}")
        for seat, seen in zip(seats, observations[i], strict=True):
            _require(
                g.observe(b, seat) == seen,
                "replay",
                f"{_who(seat)}'s observation differs at step {i} of the replay",
            )
    _require(g.outcome(replayed[-1]) == out, "replay", "the replay ends with another outcome")


def _seed_check(g: Game[Any, Any, Any], n: int) -> None:
    tables = {g.initial_state(n, seed).table for seed in range(6)}
    _require(len(tables) > 1, "seed", "six different seeds gave the same deal")


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.=-]+", "_", text).strip("_") or "game"


def _record_failure(
    g: Game[Any, Any, Any],
    n: int,
    seed: int,
    actions: Sequence[str],
    prop: str,
    out_dir: Path,
    label: str,
) -> Path:
    """Write the failing game; the file name is unique (never overwrites another record)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    rec = MatchRecord(
        game=g.name,
        options=options_to_json(g.options),
        num_players=n,
        seed=seed,
        actions=tuple(actions),
        bots=("conformance-kit",) * n,
    )
    stem = f"{_slug(g.name)}-{_slug(label)}-{n}p-{prop}-seed{seed}"
    text = rec.dumps()
    for k in itertools.count(1):
        path = out_dir / (f"{stem}.json" if k == 1 else f"{stem}-{k}.json")
        try:
            with path.open("x", encoding="utf-8") as f:
                f.write(text)
        except FileExistsError:
            if path.read_text(encoding="utf-8") == text:
                return path  # the very same failure found again
            continue
        return path
    raise AssertionError("unreachable")  # pragma: no cover


def _check_config(
    g: Game[Any, Any, Any],
    n: int,
    games: int,
    seed: int,
    failure_dir: Path,
    stats: list[int],
    *,
    label: str = "given options",
    timeout: float = DEFAULT_TIMEOUT,
    tick: Callable[[], None] | None = None,
) -> CheckResult:
    """Run the random-play checks with Hypothesis; shrink and record a failure."""
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as hseed
    from hypothesis import strategies as st

    failure: dict[str, Any] = {}
    prefix = 120
    shared: dict[str, Any] = {}
    where = f"{g.name} ({label}, {n} players)"

    @hseed(seed)
    @settings(
        max_examples=games,
        database=None,
        deadline=None,
        phases=(Phase.explicit, Phase.generate, Phase.shrink),
        suppress_health_check=list(HealthCheck),
        derandomize=False,
        report_multiple_bugs=False,
    )
    @given(st.integers(0, 2**31 - 1), st.data())
    def run(game_seed: int, data: st.DataObject) -> None:
        if failure.get("prop") == "time-out":
            return  # no shrinking a game that hangs: the first one is reported
        tail = random.Random(game_seed)
        count = [0]

        def choose(k: int) -> int:
            count[0] += 1
            if count[0] <= prefix and k > 1:
                return data.draw(st.integers(0, k - 1))
            return tail.randrange(k)

        actions: list[str] = []
        clock = _Clock(timeout)
        try:
            with _alarm(timeout + 1.0):
                stats[1] += _play_one(
                    g,
                    n,
                    game_seed,
                    choose,
                    random.Random(game_seed ^ 0x5EED),
                    actions,
                    clock,
                    shared,
                )
            stats[0] += 1
            if tick is not None:
                tick()
        except _Timeout:
            message = (
                f"the check {clock.check!r} ran over the time limit of {timeout:g} s in one game "
                f"of {where}, at decision {len(actions)} (a game that never ends, or a call "
                f"that never returns)"
            )
            failure.update(prop="time-out", message=message, seed=game_seed, actions=list(actions))
            raise AssertionError(f"[time-out] {message}") from None
        except _Fail as f:
            failure.update(prop=f.prop, message=f.message, seed=game_seed, actions=list(actions))
            raise AssertionError(f"[{f.prop}] {f.message}") from None
        except Exception as e:  # noqa: BLE001 - a crash inside the game is a finding
            message = f"the game raised {type(e).__name__}: {e}"
            failure.update(prop="no-crash", message=message, seed=game_seed, actions=list(actions))
            raise AssertionError(f"[no-crash] {message}") from None

    try:
        _seed_check(g, n)
        run()
    except _Fail as f:
        return CheckResult(f.prop, False, f.message)
    except Exception as e:  # noqa: BLE001 - Hypothesis' own report, or a crash outside play
        if not failure:
            return CheckResult("no-crash", False, f"the game raised {type(e).__name__}: {e}")
        path = _record_failure(
            g, n, failure["seed"], failure["actions"], failure["prop"], failure_dir, label
        )
        return CheckResult(failure["prop"], False, failure["message"], path)
    return CheckResult("all", True)


_HASH_SEEDS: Final = ("1", "2")


def _hash_seed_checks(
    jobs: Sequence[tuple[str, int, Game[Any, Any, Any], Mapping[str, Any] | None]],
    seed: int,
    timeout: float,
) -> dict[tuple[str, int], CheckResult]:
    """Compare seeded games across processes with different ``PYTHONHASHSEED`` values.

    Each job is (configuration label, player count, game, how to rebuild it by id or
    ``None``). Returns the failed ones.
    """
    from cardcore.testing._child import fingerprint, game_payload

    seeds = [seed]
    failed: dict[tuple[str, int], CheckResult] = {}
    request_jobs: list[dict[str, Any]] = []
    local: dict[str, Any] = {}
    for label, n, g, ident in jobs:
        key = f"{label}|{n}"
        try:
            payload = game_payload(g, ident)
        except Exception as e:  # noqa: BLE001 - cannot ship this game to another process
            failed[(label, n)] = CheckResult(
                "hash-seed",
                False,
                f"the kit could not send the game to a fresh process to compare hash seeds "
                f"({type(e).__name__}: {e}); define the game class at the top level of a module",
            )
            continue
        request_jobs.append({"key": key, "game": payload, "players": n})
        try:
            with _alarm(timeout + 1.0):
                local[key] = [fingerprint(g, n, s, timeout) for s in seeds]
        except Exception as e:  # noqa: BLE001 - the random-play checks report crashes
            local[key] = {"error": f"{type(e).__name__}: {e}"}
    if not request_jobs:
        return failed
    request = json.dumps(
        {"jobs": request_jobs, "seeds": seeds, "timeout": timeout, "path": sys.path}
    )
    limit = timeout * len(request_jobs) + 60.0
    procs = []
    for hs in _HASH_SEEDS:
        env = {**os.environ, "PYTHONHASHSEED": hs}
        procs.append(
            subprocess.Popen(
                [sys.executable, "-m", "cardcore.testing._child"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                env=env,
            )
        )
    answers: list[dict[str, Any] | str] = []
    for proc in procs:
        try:
            out, err = proc.communicate(request, timeout=limit)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
            answers.append(f"the fresh process ran over its time limit of {limit:g} s")
            continue
        try:
            answers.append(json.loads(out))
        except ValueError:
            answers.append(f"the fresh process failed: {err.strip()[-400:]}")
    for job in request_jobs:
        key = str(job["key"])
        label, _, count = key.rpartition("|")
        n = int(count)
        mine: Any = local[key]
        for hs, answer in zip(_HASH_SEEDS, answers, strict=True):
            if isinstance(answer, str):
                prop = "time-out" if "time limit" in answer else "hash-seed"
                failed[(label, n)] = CheckResult(
                    prop, False, f"the check 'hash-seed' could not finish: {answer}"
                )
                break
            theirs: Any = answer.get(key)
            if isinstance(mine, dict) or isinstance(theirs, dict):
                err_text = (mine if isinstance(mine, dict) else theirs or {}).get("error", "")
                if "ChildTimeoutError" in err_text:
                    failed[(label, n)] = CheckResult(
                        "time-out",
                        False,
                        f"the check 'hash-seed' ran over the time limit of {timeout:g} s "
                        f"playing seed {seed} ({err_text})",
                    )
                    break
                if isinstance(theirs, dict) and not isinstance(mine, dict):
                    failed[(label, n)] = CheckResult(
                        "hash-seed",
                        False,
                        f"under PYTHONHASHSEED={hs} the game fails where it works here: {err_text}",
                    )
                    break
                continue  # the game crashes here too: the random-play checks report it
            if theirs != mine:
                for s, a, b in zip(seeds, mine, theirs, strict=True):
                    if a != b:
                        step = next(
                            (i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y),
                            min(len(a), len(b)),
                        )
                        what = "the deal (the initial state)" if step == 0 else f"step {step}"
                        failed[(label, n)] = CheckResult(
                            "hash-seed",
                            False,
                            f"seed {s} gives a different game under PYTHONHASHSEED={hs} than in "
                            f"this process: it differs from {what} on (the state, the legal "
                            f"actions' order or an observation depends on hash order)",
                        )
                        break
                break
    return failed


def run_checks(
    game: str | Game[Any, Any, Any],
    *,
    configs: Iterable[Config] | None = None,
    players: Iterable[int] | None = None,
    games: int = 10,
    seed: int = 0,
    host: PluginHost | None = None,
    failure_dir: str | Path = "cardcore-failures",
    progress: Callable[[str], None] | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    hash_seeds: bool = True,
    tick: Callable[[], None] | None = None,
    jobs: int = 1,
) -> Report:
    """Check a game (an id, or a Game object for a single configuration); never raises.

    Args:
        game: a game id (every configuration of it is checked) or a built Game.
        configs: the configurations to check (default: every preset and every
            single-option change from ``default``); ignored for a Game object.
        players: player counts (default: every supported count).
        games: random games per configuration and player count.
        seed: makes the whole run reproducible.
        host: the plugin host (default: installed plugins).
        failure_dir: where minimal failing replays are written.
        progress: called with a line of text as each configuration starts.
        timeout: seconds one game (with all its checks) may take; over it, the check
            that was running is reported as ``time-out``.
        hash_seeds: also compare seeded games in two fresh processes with different
            ``PYTHONHASHSEED`` values (property ``hash-seed``).
        tick: called after each random game that passed.
        jobs: worker processes for a game id checked with the installed plugins
            (configurations run side by side; results are the same as with one).
    """
    if not 1 <= games <= MAX_GAMES:
        raise ValueError(f"games must be between 1 and {MAX_GAMES}, not {games}")
    if not timeout > 0:
        raise ValueError(f"timeout must be a positive number of seconds, not {timeout}")
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, not {jobs}")
    own_host = host is None
    host = host or default_host()
    builds: list[tuple[str, Game[Any, Any, Any], Mapping[str, Any] | None]] = []
    ident: Mapping[str, Any] | None
    if isinstance(game, str):
        spec = host.game_spec(game)
        for cfg in configs if configs is not None else configurations(spec):
            opts = build_options(spec.options_type, spec.presets, cfg.preset, cfg.overrides)
            ident = {"game": game, "preset": cfg.preset, "overrides": dict(cfg.overrides)}
            builds.append((cfg.label(), spec.factory(opts), ident))
        name = game
    else:
        builds.append(("given options", game, None))
        name = game.name
    report = Report(game=name)
    stats = [0, 0]
    tasks: list[tuple[str, int, Game[Any, Any, Any], Mapping[str, Any] | None]] = []
    for label, g, ident in builds:
        counts = (
            list(players) if players is not None else list(range(g.min_players, g.max_players + 1))
        )
        for n in counts:
            if not g.min_players <= n <= g.max_players:
                raise ValueError(f"{name} plays {g.min_players}-{g.max_players} players, not {n}")
            tasks.append((label, n, g, ident))
    out_dir = Path(failure_dir)
    if jobs > 1 and own_host and len(tasks) > 1 and all(t[3] is not None for t in tasks):
        results = _run_parallel(tasks, jobs, games, seed, out_dir, timeout, stats, progress, tick)
    else:
        results = []
        for label, n, g, _ in tasks:
            if progress is not None:
                progress(f"{name} {label} players={n}")
            result = _check_config(
                g, n, games, seed, out_dir, stats, label=label, timeout=timeout, tick=tick
            )
            results.append((label, n, result))
    report.results.extend(results)
    if hash_seeds:
        if progress is not None:
            progress(f"{name}: seeded games in two fresh processes with other hash seeds")
        # A fresh process knows only the installed plugins: with another host, the
        # games travel as pickles instead of ids.
        shipped = tasks if own_host else [(lb, k, g, None) for lb, k, g, _ in tasks]
        for (label, n), result in _hash_seed_checks(shipped, seed, timeout).items():
            report.results.append((label, n, result))
    report.games_played, report.decisions = stats
    return report


def _job(
    ident: Mapping[str, Any],
    label: str,
    n: int,
    games: int,
    seed: int,
    failure_dir: str,
    timeout: float,
) -> tuple[CheckResult, int, int]:
    """One configuration and player count, in a worker process (default plugin host)."""
    spec = default_host().game_spec(ident["game"])
    opts = build_options(spec.options_type, spec.presets, ident["preset"], ident["overrides"])
    stats = [0, 0]
    result = _check_config(
        spec.factory(opts), n, games, seed, Path(failure_dir), stats, label=label, timeout=timeout
    )
    return result, stats[0], stats[1]


def _run_parallel(
    tasks: Sequence[tuple[str, int, Game[Any, Any, Any], Mapping[str, Any] | None]],
    jobs: int,
    games: int,
    seed: int,
    failure_dir: Path,
    timeout: float,
    stats: list[int],
    progress: Callable[[str], None] | None,
    tick: Callable[[], None] | None,
) -> list[tuple[str, int, CheckResult]]:
    """Check the configurations in ``jobs`` worker processes; results in task order."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed

    done: dict[int, tuple[str, int, CheckResult]] = {}
    ctx = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=min(jobs, len(tasks)), mp_context=ctx) as pool:
        futures = {}
        for i, (label, n, _, ident) in enumerate(tasks):
            assert ident is not None
            fut = pool.submit(_job, ident, label, n, games, seed, str(failure_dir), timeout)
            futures[fut] = i
        try:
            for fut in as_completed(futures):
                i = futures[fut]
                label, n = tasks[i][0], tasks[i][1]
                try:
                    result, played, decisions = fut.result()
                except Exception as e:  # noqa: BLE001 - a worker died: report, keep the rest
                    result = CheckResult(
                        "no-crash", False, f"the worker process failed: {type(e).__name__}: {e}"
                    )
                    played = decisions = 0
                stats[0] += played
                stats[1] += decisions
                done[i] = (label, n, result)
                if progress is not None:
                    progress(f"{label} players={n} done")
                if tick is not None:
                    for _ in range(games):
                        tick()
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)
            raise
    return [done[i] for i in range(len(tasks))]


MAX_GAMES: Final = 100_000
"""The most random games per configuration that ``run_checks`` accepts."""


def check_game(
    game: str | Game[Any, Any, Any],
    *,
    presets: Iterable[str] | None = None,
    options: Mapping[str, Any] | None = None,
    players: Iterable[int] | None = None,
    games: int = 10,
    seed: int = 0,
    host: PluginHost | None = None,
    failure_dir: str | Path = "cardcore-failures",
    timeout: float = DEFAULT_TIMEOUT,
    hash_seeds: bool = True,
) -> Report:
    """Check a game and raise on the first failed property (for test suites).

    Args:
        game: a game id or a built Game.
        presets: with a game id, check only these presets (each with ``options`` applied);
            with neither, every preset and every single-option change is checked.
        options: overrides applied on top of each preset.
        players: player counts (default: all supported).
        games: random games per configuration and player count.
        seed: makes the run reproducible.
        host: the plugin host.
        failure_dir: where minimal failing replays are written.
        timeout: seconds one game with all its checks may take.
        hash_seeds: also compare seeded games across processes with other hash seeds.

    Raises:
        ConformanceError: naming the property, the configuration and the replay file.
    """
    configs = None
    if isinstance(game, str) and (presets is not None or options is not None):
        configs = [Config(p, dict(options or {})) for p in (presets or ["default"])]
    report = run_checks(
        game,
        configs=configs,
        players=players,
        games=games,
        seed=seed,
        host=host,
        failure_dir=failure_dir,
        timeout=timeout,
        hash_seeds=hash_seeds,
    )
    for label, n, r in report.failures():
        raise ConformanceError(
            r.property, f"{report.game} ({label}, {n} players): {r.message}", r.record_path
        )
    return report


def check_bot(
    bot: str,
    game: str | Game[Any, Any, Any],
    *,
    options: Mapping[str, Any] | None = None,
    games: int = 3,
    players: int | None = None,
    time_limit: float | None = None,
    seed: int = 0,
    host: PluginHost | None = None,
) -> None:
    """Check a bot: declared options, legal, crash-free, within its time limit, reproducible.

    It must declare its options (:func:`check_bot_options`), only return legal actions,
    never crash, keep to ``time_limit`` and play the same way for the same seed.

    The bot plays every seat in turn against ``random`` through :func:`cardcore.play_match`,
    so it only ever receives observations.

    Raises:
        ConformanceError: property ``bot-options``, ``bot-legal`` (forfeit: an illegal
            action, a crash or running over ``time_limit``) or ``bot-determinism``.
    """
    from cardcore._engine import play_match
    from cardcore.testing._bots_check import check_bot_options

    host = host or default_host()
    check_bot_options(bot, host=host)
    g = host.load_game(game) if isinstance(game, str) else game
    n = players or g.min_players
    opts = dict(options or {})
    for k in range(games):
        seat = k % n
        records = []
        for _ in range(2):
            seats = [
                host.load_bot(bot, g, seed=seed + k, **opts)
                if i == seat
                else host.load_bot("random", g, seed=seed + 100 * k + i)
                for i in range(n)
            ]
            rec = play_match(g, seats, seed=seed + k, time_limit=time_limit)
            assert rec.outcome is not None
            if rec.outcome.forfeit is not None:
                raise ConformanceError(
                    "bot-legal", f"{bot} on {g.name}, seat {seat}: {rec.outcome.reason}"
                )
            records.append(rec)
        if records[0] != records[1]:
            raise ConformanceError(
                "bot-determinism", f"{bot} on {g.name}: the same seed gave different games"
            )
