"""The conformance kit: plays a game at random and checks every promised property.

Each property has a name (used in reports and by ``cardcore certify``). On a failure
Hypothesis shrinks the random play to a small case, and the kit writes that game as a
:class:`cardcore.MatchRecord` that ``cardcore replay`` opens.
"""

from __future__ import annotations

import json
import pickle
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final, final

import attrs

from cardcore._engine import MatchRecord, replay
from cardcore._game import Game, GameSpec, IllegalActionError, Outcome
from cardcore._host import PluginHost, default_host
from cardcore._options import build_options, option_infos, options_to_json
from cardcore._table import SPECTATOR, CardTable, sample_table

__all__ = [
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
    "outcome": "one score per seat, placing consistent with scores and ties, win shares sum "
    "to one, teams as declared",
    "card-conservation": "every card of the deck is in exactly one place at every step",
    "no-leaks": "a seat's observation is the same in every state it cannot tell apart: "
    "redealt hidden cards, another RNG state",
    "determinisation": "sampled states are legal states from which play continues to the end",
    "no-crash": "the game raises nothing but IllegalActionError, whatever legal play it meets",
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


@final
class _Checker:
    def __init__(self, game: Game[Any, Any, Any], n: int, rng: random.Random) -> None:
        self.game = game
        self.n = n
        self.rng = rng
        self.teams = game.teams(n)
        self.seen_actions: list[Any] = []
        self.step = 0

    # ---- per state -----------------------------------------------------------------

    def state_checks(self, s: Any) -> None:
        g = self.game
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
        twin = pickle.loads(pickle.dumps(s))
        _require(twin == s, "determinism", "a copy of a state does not compare equal")
        _require(hash(s) == hash(twin), "determinism", "equal states hash differently")
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
        self.step += 1
        for seat in [*range(self.n), SPECTATOR]:
            full = seat == cur or self.step % 3 == 0
            self.observation_checks(s, seat, cur, legal, full=full)
        if self.step % 2 == 0:
            self.rng_leak_check(s)

    def observation_checks(
        self, s: Any, seat: int, cur: int | None, legal: Sequence[Any], *, full: bool
    ) -> None:
        g = self.game
        obs = g.observe(s, seat)
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
                f"seat {seat} sees legal actions although seat {cur} is to move",
            )
        if not full:
            return
        data = obs.to_json()
        try:
            text = json.dumps(data, ensure_ascii=False)
        except (TypeError, ValueError) as e:
            raise _Fail("round-trip", f"observation.to_json() is not JSON: {e}") from None
        back = g.observation_from_json(json.loads(text))
        _require(
            back == obs,
            "round-trip",
            lambda: f"observation of seat {seat} does not survive JSON: {text[:300]}",
        )
        if seat == SPECTATOR:
            return
        # Non-interference, judged by the table's own knowledge: the same state with the
        # cards this seat does not know dealt differently must look the same to it.
        redealt = attrs.evolve(s, table=sample_table(s.table.view(seat), self.rng))
        obs_r = g.observe(redealt, seat)
        if obs_r != obs:
            raise _Fail(
                "no-leaks",
                f"seat {seat} sees cards it does not know (redealing them changes its "
                f"observation):\n  original: {obs}\n  redealt:  {obs_r}",
            )
        if seat == cur:
            _require(
                g.legal_actions(redealt) == legal,
                "no-leaks",
                "the mover's legal actions depend on cards it does not know",
            )
        # The game's own determinisation must agree with the observation too.
        for _ in range(1):
            sampled = g.sample_state(obs, self.rng)
            try:
                sampled.table.check()
            except AssertionError as e:
                raise _Fail("determinisation", f"sampled state: {e}") from None
            obs2 = g.observe(sampled, seat)
            if obs2 != obs:
                raise _Fail(
                    "no-leaks",
                    f"seat {seat} can tell a redealt state apart:\n  original: {obs}\n"
                    f"  redealt:  {obs2}",
                )
            if seat == cur:
                _require(
                    g.legal_actions(sampled) == legal,
                    "no-leaks",
                    "legal actions depend on cards the seat cannot see",
                )

    def rng_leak_check(self, s: Any) -> None:
        if not attrs.has(type(s)) or "rng" not in attrs.fields_dict(type(s)):
            raise _Fail("no-leaks", "the state has no 'rng' field (the kit needs it by that name)")
        other = attrs.evolve(s, rng=(s.rng * 6364136223846793005 + 1442695040888963407) % (1 << 64))
        for seat in range(self.n):
            _require(
                self.game.observe(other, seat) == self.game.observe(s, seat),
                "no-leaks",
                f"seat {seat}'s observation depends on the RNG state",
            )

    def action_checks(self, s: Any, action: Any) -> Any:
        g = self.game
        before = pickle.dumps(s)
        after = g.apply(s, action)
        _require(
            pickle.dumps(s) == before,
            "immutability",
            lambda: f"apply({action}) changed its input state",
        )
        again = g.apply(s, action)
        _require(
            again == after, "determinism", lambda: f"apply({action}) twice gave different states"
        )
        text = str(action)
        try:
            parsed = g.parse_action(text)
        except ValueError as e:
            raise _Fail("round-trip", f"str(action) {text!r} does not parse back: {e}") from None
        _require(parsed == action, "round-trip", f"{text!r} parses to {parsed!r}, not {action!r}")
        return after

    def illegal_checks(self, s: Any, legal: Sequence[Any]) -> None:
        g = self.game
        before = pickle.dumps(s)
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
            _require(
                pickle.dumps(s) == before, "illegal-input", f"refusing {bad!r} changed the state"
            )
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

    def outcome_checks(self, out: Outcome) -> None:
        n = self.n
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


def _play_one(
    game: Game[Any, Any, Any],
    n: int,
    seed: int,
    choose: Callable[[int], int],
    rng: random.Random,
    actions: list[str],
) -> int:
    """Play one game choosing actions with ``choose``; check everything. Returns decisions."""
    g = game
    chk = _Checker(g, n, rng)
    s0 = g.initial_state(n, seed)
    _require(
        g.initial_state(n, seed) == s0, "replay", "the same seed gives different initial states"
    )
    s = s0
    states = [s]
    bound = g.max_decisions(n)
    steps = 0
    while True:
        chk.state_checks(s)
        cur = g.current_player(s)
        if cur is None:
            break
        _require(
            steps < bound,
            "progress",
            f"the game did not end within its declared bound of {bound} decisions",
        )
        legal = g.legal_actions(s)
        if steps % 3 == 0:
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
    for mid in states[1::20]:
        _continue_from_sample(g, n, mid, rng)
    _replay_checks(g, n, seed, actions, states, out)
    return steps


def _continue_from_sample(g: Game[Any, Any, Any], n: int, s: Any, rng: random.Random) -> None:
    cur = g.current_player(s)
    if cur is None:
        return
    sampled = g.sample_state(g.observe(s, cur), rng)
    bound = g.max_decisions(n)
    for _ in range(bound + 1):
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
    g: Game[Any, Any, Any], n: int, seed: int, actions: list[str], states: list[Any], out: Outcome
) -> None:
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
    for i, (a, b) in enumerate(zip(states, replayed, strict=True)):
        _require(a == b, "replay", f"replaying the record gives a different state at step {i}")
        for seat in range(n):
            _require(
                g.observe(a, seat) == g.observe(b, seat),
                "replay",
                f"replayed observation differs at step {i}",
            )
    _require(g.outcome(replayed[-1]) == out, "replay", "the replay ends with another outcome")


def _seed_check(g: Game[Any, Any, Any], n: int) -> None:
    tables = {g.initial_state(n, seed).table for seed in range(6)}
    _require(len(tables) > 1, "seed", "six different seeds gave the same deal")


def _record_failure(
    g: Game[Any, Any, Any], n: int, seed: int, actions: Sequence[str], prop: str, out_dir: Path
) -> Path:
    out_dir.mkdir(parents=True, exist_ok=True)
    rec = MatchRecord(
        game=g.name,
        options=options_to_json(g.options),
        num_players=n,
        seed=seed,
        actions=tuple(actions),
        bots=("conformance-kit",) * n,
    )
    path = out_dir / f"{g.name}-{n}p-{prop}-seed{seed}.json"
    rec.save(path)
    return path


def _check_config(
    g: Game[Any, Any, Any],
    n: int,
    games: int,
    seed: int,
    failure_dir: Path,
    stats: list[int],
) -> CheckResult:
    """Run the random-play checks with Hypothesis; shrink and record a failure."""
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as hseed
    from hypothesis import strategies as st

    failure: dict[str, Any] = {}
    prefix = 120

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
        tail = random.Random(game_seed)
        count = [0]

        def choose(k: int) -> int:
            count[0] += 1
            if count[0] <= prefix and k > 1:
                return data.draw(st.integers(0, k - 1))
            return tail.randrange(k)

        actions: list[str] = []
        try:
            stats[1] += _play_one(
                g, n, game_seed, choose, random.Random(game_seed ^ 0x5EED), actions
            )
            stats[0] += 1
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
    except AssertionError as e:
        if not failure:
            return CheckResult("progress", False, str(e))
        path = _record_failure(
            g, n, failure["seed"], failure["actions"], failure["prop"], failure_dir
        )
        return CheckResult(failure["prop"], False, failure["message"], path)
    except Exception as e:  # noqa: BLE001 - a crash inside the game is a finding too
        return CheckResult("no-crash", False, f"the game raised {type(e).__name__}: {e}")
    return CheckResult("all", True)


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
    """
    host = host or default_host()
    builds: list[tuple[str, Game[Any, Any, Any]]] = []
    if isinstance(game, str):
        spec = host.game_spec(game)
        for cfg in configs if configs is not None else configurations(spec):
            opts = build_options(spec.options_type, spec.presets, cfg.preset, cfg.overrides)
            builds.append((cfg.label(), spec.factory(opts)))
        name = game
    else:
        builds.append(("given options", game))
        name = game.name
    report = Report(game=name)
    stats = [0, 0]
    for label, g in builds:
        counts = (
            list(players) if players is not None else list(range(g.min_players, g.max_players + 1))
        )
        for n in counts:
            if progress is not None:
                progress(f"{name} {label} players={n}")
            result = _check_config(g, n, games, seed, Path(failure_dir), stats)
            report.results.append((label, n, result))
    report.games_played, report.decisions = stats
    return report


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
    """Check a bot: legal, crash-free, within its time limit and reproducible.

    It must only return legal actions, never crash, keep to ``time_limit`` and play the
    same way for the same seed.

    The bot plays every seat in turn against ``random`` through :func:`cardcore.play_match`,
    so it only ever receives observations.

    Raises:
        ConformanceError: property ``bot-legal`` (forfeit: an illegal action, a crash or
            running over ``time_limit``) or ``bot-determinism``.
    """
    from cardcore._engine import play_match

    host = host or default_host()
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
