"""The benchmark behind ``cardcore bench``: how fast each game and the engine run.

A *decision* is one ``legal_actions`` plus one ``apply`` of a player's action in a
random playout. Every figure is measured here, on this machine; nothing in the test
suite asserts a time.
"""

from __future__ import annotations

import copy
import os
import platform
import random
import time
import tracemalloc
from collections.abc import Callable, Iterable
from typing import Any, final

import attrs

from cardcore._engine import play_match
from cardcore._game import Game
from cardcore._host import PluginHost, default_host

__all__ = ["BenchResult", "bench_game", "machine_info", "run_bench"]


@final
@attrs.frozen(kw_only=True)
class BenchResult:
    """What was measured for one game, preset and player count."""

    game: str
    preset: str
    players: int
    decisions_per_s: float
    games_per_s: float
    apply_us: float
    legal_actions_us: float
    observe_us: float
    sample_state_us: float
    engine_decisions_per_s: float
    ismcts_iterations_per_s: float
    state_bytes: int
    rl_step_ratio: float | None = None
    """PettingZoo step cost over the raw API (``None``: no codec, or the rl extra is missing)."""

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data."""
        return attrs.asdict(self)


def machine_info() -> dict[str, str]:
    """Where the numbers were taken."""
    from cardcore import __version__

    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "machine": platform.machine(),
        "system": f"{platform.system()} {platform.release()}",
        "processor": platform.processor() or "unknown",
        "cpus": str(os.cpu_count()),
        "cardcore": __version__,
    }


def _playouts(
    game: Game[Any, Any, Any], n: int, seconds: float, seed: int
) -> tuple[int, int, float, list[Any]]:
    """Random playouts for ``seconds``; return decisions, games, elapsed and sample states."""
    # ``int(random() * k)`` picks uniformly (to within 2**-53) at half the cost of
    # ``randrange``: the pick is the harness's work, not the game's.
    uniform = random.Random(seed).random
    legal_actions, apply, current = game.legal_actions, game.apply, game.current_player
    decisions = games = 0
    samples: list[Any] = []
    start = time.perf_counter()
    deadline = start + seconds
    g_seed = seed
    while True:
        state = game.initial_state(n, g_seed)
        g_seed += 1
        k = 0
        while current(state) is not None:
            legal = legal_actions(state)
            state = apply(state, legal[int(uniform() * len(legal))])
            k += 1
            if k % 7 == 3 and len(samples) < 200:
                samples.append(state)
        decisions += k
        games += 1
        if time.perf_counter() > deadline:
            break
    return decisions, games, time.perf_counter() - start, samples


def _mover(game: Game[Any, Any, Any], state: Any) -> int:
    seat = game.current_player(state)
    assert seat is not None
    return seat


def _per_call_us(fn: Callable[[Any], Any], items: list[Any], repeat: int = 3) -> float:
    if not items:
        return 0.0
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        for x in items:
            fn(x)
        best = min(best, time.perf_counter() - t0)
    return best / len(items) * 1e6


def bench_game(
    game: Game[Any, Any, Any],
    *,
    preset: str = "default",
    players: int | None = None,
    seconds: float = 2.0,
    seed: int = 0,
    ismcts_iterations: int = 100,
) -> BenchResult:
    """Measure one game under one configuration.

    Args:
        game: the rules.
        preset: the preset's name (for the report).
        players: seats (default: the game's largest count).
        seconds: time for the playout measurement (the other parts take a fraction).
        seed: makes the playouts reproducible.
        ismcts_iterations: iterations of the timed ISMCTS decisions.
    """
    from cardcore.bots import ISMCTSBot, RandomBot

    n = players or game.max_players
    decisions, games, elapsed, samples = _playouts(game, n, seconds, seed)
    live = [s for s in samples if game.current_player(s) is not None]
    rng = random.Random(seed)
    moves = [(s, game.legal_actions(s)) for s in live]
    apply_us = _per_call_us(lambda sm: game.apply(sm[0], sm[1][rng.randrange(len(sm[1]))]), moves)
    legal_us = _per_call_us(game.legal_actions, live)
    observe_us = _per_call_us(lambda s: game.observe(s, _mover(game, s)), live)
    observations = [game.observe(s, _mover(game, s)) for s in live[:60]]
    sample_us = _per_call_us(lambda o: game.sample_state(o, rng), observations, repeat=1)

    # Engine: bots receive observations; compare decisions/s with the raw playouts.
    t0 = time.perf_counter()
    engine_decisions = 0
    k = 0
    while time.perf_counter() - t0 < max(0.3, seconds / 3):
        bots = [RandomBot(game, seed=k * 10 + i) for i in range(n)]
        engine_decisions += len(play_match(game, bots, seed=seed + k).actions)
        k += 1
    engine_rate = engine_decisions / (time.perf_counter() - t0)

    # ISMCTS: iterations per second over a few real decisions.
    bot = ISMCTSBot(game, seed=seed, iterations=ismcts_iterations)
    timed = [o for o in observations if len(o.legal_actions) > 1][:3]
    t0 = time.perf_counter()
    for o in timed:
        bot.act(o)
    ismcts_rate = (ismcts_iterations * len(timed)) / (time.perf_counter() - t0) if timed else 0.0

    state_bytes = 0
    if live:
        tracemalloc.start()
        copy.deepcopy(live[len(live) // 2])
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        state_bytes = peak
    return BenchResult(
        game=game.name,
        preset=preset,
        players=n,
        decisions_per_s=decisions / elapsed,
        games_per_s=games / elapsed,
        apply_us=apply_us,
        legal_actions_us=legal_us,
        observe_us=observe_us,
        sample_state_us=sample_us,
        engine_decisions_per_s=engine_rate,
        ismcts_iterations_per_s=ismcts_rate,
        state_bytes=state_bytes,
    )


def run_bench(
    games: Iterable[str] | None = None,
    *,
    presets: Iterable[str] | None = None,
    seconds: float = 2.0,
    host: PluginHost | None = None,
    progress: Callable[[str], None] | None = None,
) -> list[BenchResult]:
    """Bench installed games (default: all) under every preset (or the given ones)."""
    host = host or default_host()
    names = list(games) if games else list(host.games())
    out = []
    for name in names:
        spec = host.game_spec(name)
        for preset in presets or spec.presets:
            if preset not in spec.presets:
                continue
            if progress is not None:
                progress(f"{name} preset={preset}")
            game = host.load_game(name, preset=preset)
            result = bench_game(game, preset=preset, seconds=seconds)
            out.append(attrs.evolve(result, rl_step_ratio=_rl_ratio(name, preset, seconds)))
    return out


def _rl_ratio(name: str, preset: str, seconds: float) -> float | None:
    """The RL adapter's overhead, when the rl extra is installed and the game has a codec."""
    try:
        from cardcore.adapters import CodecError, bench_overhead
    except ImportError:
        return None
    try:
        return bench_overhead(name, max(0.2, seconds / 4), preset=preset)
    except (ImportError, CodecError):
        return None


def to_markdown(results: list[BenchResult], info: dict[str, str]) -> str:
    """The results as a Markdown page (``benchmarks/results.md``)."""
    lines = [
        "# Benchmark results",
        "",
        "Regenerate with `make bench` (or `cardcore bench --markdown benchmarks/results.md`).",
        "A decision is one `legal_actions` plus one `apply` in a random playout, on one core.",
        "",
        "Machine: " + ", ".join(f"{k} {v}" for k, v in info.items()),
        "",
        "| game | preset | players | decisions/s | games/s | apply µs | legal µs | observe µs "
        "| sample µs | engine decisions/s | ISMCTS it/s | state bytes | RL step × |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        lines.append(
            f"| {r.game} | {r.preset} | {r.players} | {r.decisions_per_s:,.0f} | {r.games_per_s:,.1f} "
            f"| {r.apply_us:.1f} | {r.legal_actions_us:.1f} | {r.observe_us:.1f} "
            f"| {r.sample_state_us:.1f} | {r.engine_decisions_per_s:,.0f} "
            f"| {r.ismcts_iterations_per_s:,.0f} | {r.state_bytes:,} "
            f"| {'n/a' if r.rl_step_ratio is None else f'{r.rl_step_ratio:.1f}'} |"
        )
    return "\n".join(lines) + "\n"
