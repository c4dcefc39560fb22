"""The conformance kit: plays a game at random and checks every promised property.

Each property has a name (used in reports and by ``cardcore certify``). On a failure
Hypothesis shrinks the random play to a small case, and the kit writes that game as a
:class:`cardcore.MatchRecord` that ``cardcore replay`` opens.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from cardcore._game import Game
from cardcore._host import PluginHost, default_host
from cardcore._options import build_options
from cardcore.testing._bots_check import check_bot
from cardcore.testing._clock import DEFAULT_TIMEOUT, Clock, alarm
from cardcore.testing._determinism import hash_seed_checks, seed_check
from cardcore.testing._errors import CheckFailed, ConformanceError, KitTimeout
from cardcore.testing._play import play_one
from cardcore.testing._public_history import declares_public_events, public_history_problems
from cardcore.testing._records import record_failure
from cardcore.testing._report import (
    MAX_GAMES,
    PROPERTIES,
    CheckResult,
    Config,
    Report,
    configurations,
)
from cardcore.testing._rules_check import rules_problems

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
    declared: bool | None = None,
    seen: dict[str, Any] | None = None,
) -> CheckResult:
    """Run the random-play checks with Hypothesis; shrink and record a failure.

    ``declared`` is the game's declared scoring direction (``GameSpec.higher_is_better``);
    ``seen`` receives the direction the outcomes showed (``"direction"``: ``True`` when
    higher scores won, ``None`` when no outcome told).
    """
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as hseed
    from hypothesis import strategies as st

    failure: dict[str, Any] = {}
    prefix = 120
    shared: dict[str, Any] = {"declared": declared}
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
        clock = Clock(timeout)
        try:
            with alarm(timeout + 1.0):
                stats[1] += play_one(
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
        except KitTimeout:
            message = (
                f"the check {clock.check!r} ran over the time limit of {timeout:g} s in one game "
                f"of {where}, at decision {len(actions)} (a game that never ends, or a call "
                f"that never returns)"
            )
            failure.update(prop="time-out", message=message, seed=game_seed, actions=list(actions))
            raise AssertionError(f"[time-out] {message}") from None
        except CheckFailed as f:
            failure.update(prop=f.prop, message=f.message, seed=game_seed, actions=list(actions))
            raise AssertionError(f"[{f.prop}] {f.message}") from None
        except Exception as e:  # noqa: BLE001 - a crash inside the game is a finding
            message = f"the game raised {type(e).__name__}: {e}"
            failure.update(prop="no-crash", message=message, seed=game_seed, actions=list(actions))
            raise AssertionError(f"[no-crash] {message}") from None

    try:
        try:
            with alarm(timeout + 1.0):
                seed_check(g, n)
        except KitTimeout:
            message = (
                f"the check 'seed' ran over the time limit of {timeout:g} s in {where}, "
                f"dealing six games (a call that never returns)"
            )
            return CheckResult("time-out", False, message)
        run()
    except CheckFailed as f:
        return CheckResult(f.prop, False, f.message)
    except Exception as e:  # noqa: BLE001 - Hypothesis' own report, or a crash outside play
        if not failure:
            return CheckResult("no-crash", False, f"the game raised {type(e).__name__}: {e}")
        path = record_failure(
            g, n, failure["seed"], failure["actions"], failure["prop"], failure_dir, label
        )
        return CheckResult(failure["prop"], False, failure["message"], path)
    finally:
        if seen is not None:
            seen["direction"] = shared.get("direction")
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
    declared: bool | None = None
    if isinstance(game, str):
        spec = host.game_spec(game)
        declared = spec.higher_is_better
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
    directions: list[bool | None] = [None] * len(tasks)
    if jobs > 1 and own_host and len(tasks) > 1 and all(t[3] is not None for t in tasks):
        results = _run_parallel(
            tasks, jobs, games, seed, out_dir, timeout, stats, progress, tick, directions
        )
    else:
        results = []
        for i, (label, n, g, _) in enumerate(tasks):
            if progress is not None:
                progress(f"{name} {label} players={n}")
            seen: dict[str, Any] = {}
            result = _check_config(
                g,
                n,
                games,
                seed,
                out_dir,
                stats,
                label=label,
                timeout=timeout,
                tick=tick,
                declared=declared,
                seen=seen,
            )
            directions[i] = seen.get("direction")
            results.append((label, n, result))
    if declared is None:
        _one_direction(results, directions)
    _public_history(results, tasks, games, seed)
    report.results.extend(results)
    if isinstance(game, str):
        problems = rules_problems(host.game_spec(game), host=host)
        if problems:
            text = "; ".join(problems)
            report.results.append(("every configuration", 0, CheckResult("rules", False, text)))
    if hash_seeds:
        if progress is not None:
            progress(f"{name}: seeded games in two fresh processes with other hash seeds")
        # A fresh process knows only the installed plugins: with another host, the
        # games travel as pickles instead of ids. A configuration whose random games ran
        # over the time limit has its verdict: it is not played again.
        kept = [t for t, (_, _, r) in zip(tasks, results, strict=True) if r.property != "time-out"]
        shipped = kept if own_host else [(lb, k, g, None) for lb, k, g, _ in kept]
        for (label, n), result in hash_seed_checks(shipped, seed, timeout).items():
            report.results.append((label, n, result))
    report.games_played, report.decisions = stats
    return report


def _public_history(
    results: list[tuple[str, int, CheckResult]],
    tasks: Sequence[tuple[str, int, Game[Any, Any, Any], Mapping[str, Any] | None]],
    games: int,
    seed: int,
) -> None:
    """Fail the passing configurations of a game that declares public events and loses one.

    A game with ``public_events`` and ``observed_events`` (see
    :func:`cardcore.testing.check_public_history`) plays ``games`` more random games per
    configuration: every seat's observations, joined over its decisions, must hold every
    public event, and none before it happens.
    """
    for i, (label, n, g, _) in enumerate(tasks):
        if not results[i][2].passed or not declares_public_events(g):
            continue
        for k in range(games):
            problems, _, _ = public_history_problems(g, n, seed + k)
            if problems:
                message = f"seed {seed + k}: " + "; ".join(problems[:3])
                results[i] = (label, n, CheckResult("public-history", False, message))
                break


def _one_direction(
    results: list[tuple[str, int, CheckResult]], directions: Sequence[bool | None]
) -> None:
    """Fail the configurations whose outcomes score the other way from the first one's."""
    first = next((i for i, d in enumerate(directions) if d is not None), None)
    if first is None:
        return
    way = directions[first]
    for i, d in enumerate(directions):
        label, n, result = results[i]
        if d is not None and d != way and result.passed:
            results[i] = (
                label,
                n,
                CheckResult(
                    "outcome",
                    False,
                    f"{'higher' if d else 'lower'} scores win here, but "
                    f"{'higher' if way else 'lower'} ones in {results[first][0]} "
                    f"({results[first][1]} players): a game scores the same way in every "
                    f"configuration (GameSpec.higher_is_better declares which)",
                ),
            )


def _job(
    ident: Mapping[str, Any],
    label: str,
    n: int,
    games: int,
    seed: int,
    failure_dir: str,
    timeout: float,
) -> tuple[CheckResult, int, int, bool | None]:
    """One configuration and player count, in a worker process (default plugin host)."""
    spec = default_host().game_spec(ident["game"])
    opts = build_options(spec.options_type, spec.presets, ident["preset"], ident["overrides"])
    stats = [0, 0]
    seen: dict[str, Any] = {}
    result = _check_config(
        spec.factory(opts),
        n,
        games,
        seed,
        Path(failure_dir),
        stats,
        label=label,
        timeout=timeout,
        declared=spec.higher_is_better,
        seen=seen,
    )
    return result, stats[0], stats[1], seen.get("direction")


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
    directions: list[bool | None],
) -> list[tuple[str, int, CheckResult]]:
    """Check the configurations in ``jobs`` worker processes; results in task order.

    ``directions`` receives, by task, the scoring direction its outcomes showed.
    """
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
                    result, played, decisions, directions[i] = fut.result()
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
