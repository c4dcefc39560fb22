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
import textwrap
import time
import tracemalloc
from collections.abc import Callable, Iterable
from typing import Any, final

import attrs

from cardcore._engine import play_match
from cardcore._game import Game
from cardcore._host import PluginHost, default_host

__all__ = [
    "BenchResult",
    "bench_game",
    "configurations",
    "machine_info",
    "run_bench",
    "to_markdown",
    "to_table",
]


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
    warmup_ms: float = 0.0
    """The untimed first game: one-time set-up (tables, caches) shows here, not in the rates."""
    ismcts_positions: int = 0
    """Positions the ISMCTS rate was measured on (each searched with a fixed budget)."""
    rl_step_ratio: float | None = None
    """PettingZoo step cost over the raw API (``None``: no codec, or the rl extra is missing)."""

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data."""
        return attrs.asdict(self)


def machine_info() -> dict[str, str]:
    """Where the numbers were taken."""
    from cardcore import __version__
    from cardcore._build import build_line, installed_distributions

    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "machine": platform.machine(),
        "system": f"{platform.system()} {platform.release()}",
        "processor": platform.processor() or "unknown",
        "cpus": str(os.cpu_count()),
        "cardcore": __version__,
        "build": build_line(installed_distributions()).removeprefix("Build: "),
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
    ismcts_positions: int = 4,
) -> BenchResult:
    """Measure one game under one configuration.

    Args:
        game: the rules.
        preset: the preset's name (for the report).
        players: seats (default: the game's largest count).
        seconds: time for the playout measurement (the other parts take a fraction).
        seed: makes the playouts reproducible.
        ismcts_iterations: iterations of each timed ISMCTS search.
        ismcts_positions: positions searched (fewer if the sampled games have fewer
            decisions with a choice).
    """
    from cardcore.bots import ISMCTSBot, RandomBot

    n = players or game.max_players
    # Warm-up, untimed: the first game pays for whatever the rules build once (lookup
    # tables, caches); then a short stretch more so that every timed part runs warm.
    t0 = time.perf_counter()
    _playouts(game, n, 0.0, seed + 10**6)
    warmup_ms = (time.perf_counter() - t0) * 1e3
    _playouts(game, n, min(0.5, seconds / 10), seed + 10**6 + 1)
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

    # ISMCTS: a fixed number of iterations from each of a few positions spread over the
    # sampled games (opening to end), after one untimed warm-up search. The bot has no
    # other option, so it plays as the game's search hints say (rollout bot, value, ...).
    # A search of one seed is the same work every time: each is timed three times and
    # the fastest kept, as for the per-call costs (a search of a fast game lasts a few
    # milliseconds, and one run of it shows mostly the machine's other load).
    choices = [o for o in observations if len(o.legal_actions) > 1]
    picks = sorted({i * len(choices) // ismcts_positions for i in range(ismcts_positions)})
    timed = [choices[i] for i in picks] if choices else []
    ismcts_rate = 0.0
    if timed:
        ISMCTSBot(game, seed=seed, iterations=min(10, ismcts_iterations)).act(timed[0])
        spent = 0.0
        for i, o in enumerate(timed):
            fastest = float("inf")
            for _ in range(3):
                bot = ISMCTSBot(game, seed=seed + i, iterations=ismcts_iterations)
                t0 = time.perf_counter()
                bot.act(o)
                fastest = min(fastest, time.perf_counter() - t0)
            spent += fastest
        ismcts_rate = ismcts_iterations * len(timed) / spent

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
        warmup_ms=warmup_ms,
        ismcts_positions=len(timed),
    )


def configurations(
    games: Iterable[str] | None = None,
    *,
    presets: Iterable[str] | None = None,
    host: PluginHost | None = None,
) -> list[tuple[str, str]]:
    """The (game, preset) pairs a bench runs: every preset of every game, or those given.

    Raises:
        PluginError: an unknown game (the message names the installed ones).
        ValueError: a preset that none of the chosen games has.
    """
    host = host or default_host()
    names = list(games) if games else list(host.games())
    wanted = list(presets) if presets else None
    out = []
    for name in names:
        spec = host.game_spec(name)
        out += [(name, p) for p in spec.presets if wanted is None or p in wanted]
    for p in wanted or ():
        if not any(p == q for _, q in out):
            raise ValueError(f"no chosen game has a preset {p!r}")
    return out


def run_bench(
    games: Iterable[str] | None = None,
    *,
    presets: Iterable[str] | None = None,
    seconds: float = 2.0,
    ismcts_iterations: int = 100,
    host: PluginHost | None = None,
    progress: Callable[[int, int, str], None] | None = None,
) -> list[BenchResult]:
    """Bench installed games (default: all) under every preset (or the given ones).

    Args:
        games: game ids (default: every installed game).
        presets: only these presets.
        seconds: playout time per configuration.
        ismcts_iterations: iterations of each timed ISMCTS search.
        host: where the games come from (default: the installed plugins).
        progress: called before each configuration with how many are done, how many
            there are, and a label such as ``nyuri preset=pagat``.

    Returns:
        One result per configuration, in order.
    """
    host = host or default_host()
    todo = configurations(games, presets=presets, host=host)
    out = []
    for i, (name, preset) in enumerate(todo):
        if progress is not None:
            progress(i, len(todo), f"{name} preset={preset}")
        game = host.load_game(name, preset=preset)
        result = bench_game(
            game, preset=preset, seconds=seconds, ismcts_iterations=ismcts_iterations
        )
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


_COLUMNS: tuple[tuple[str, str, Callable[[BenchResult], str]], ...] = (
    ("game", "game", lambda r: r.game),
    ("preset", "preset", lambda r: r.preset),
    ("players", "players", lambda r: str(r.players)),
    ("decisions/s", "decisions/s", lambda r: f"{r.decisions_per_s:,.0f}"),
    ("games/s", "games/s", lambda r: f"{r.games_per_s:,.1f}"),
    ("engine dec/s", "engine decisions/s", lambda r: f"{r.engine_decisions_per_s:,.0f}"),
    (
        "ISMCTS it/s",
        "ISMCTS it/s",
        lambda r: f"{r.ismcts_iterations_per_s:,.0f}" if r.ismcts_positions else "n/a",
    ),
    ("apply", "apply µs", lambda r: f"{r.apply_us:.1f}"),
    ("legal", "legal µs", lambda r: f"{r.legal_actions_us:.1f}"),
    ("observe", "observe µs", lambda r: f"{r.observe_us:.1f}"),
    ("sample", "sample µs", lambda r: f"{r.sample_state_us:.1f}"),
    ("state B", "state bytes", lambda r: f"{r.state_bytes:,}"),
    ("1st ms", "first game ms", lambda r: f"{r.warmup_ms:,.1f}"),
    (
        "RL ×",
        "RL step ×",
        lambda r: "n/a" if r.rl_step_ratio is None else f"{r.rl_step_ratio:.1f}",
    ),
)
"""Short heading (terminal), long heading (Markdown) and cell text of each column."""

_NOTES = (
    "A decision is one legal_actions plus one apply in a random playout, on one core.",
    "engine: play_match with random bots (they receive observations).",
    "ISMCTS: default ismcts (game's hints), {iterations} iterations, up to 4 positions.",
    "1st: the untimed warm-up game (one-time set-up, such as tables, shows here).",
    "RL: a PettingZoo step's cost over the raw API (n/a: no codec or no rl extra).",
)


def _table(headings: list[str], rows: list[list[str]]) -> list[str]:
    width = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headings)]

    def line(cells: list[str]) -> str:
        return "  ".join(
            c.ljust(width[i]) if i < 2 else c.rjust(width[i]) for i, c in enumerate(cells)
        ).rstrip()

    return [line(headings), "  ".join("-" * w for w in width), *(line(r) for r in rows)]


def to_table(
    results: list[BenchResult], info: dict[str, str], *, ismcts_iterations: int = 100
) -> str:
    """The results as plain text for a terminal: two tables of at most 80 columns."""
    if not results:
        return "no configurations were measured"
    parts = (
        ("Speed", (0, 1, 2, 3, 4, 5, 6)),
        (
            "Cost per call in µs, state in bytes, warm-up game in ms",
            (0, 1, 7, 8, 9, 10, 11, 12, 13),
        ),
    )
    out = []
    for title, cols in parts:
        out.append(title)
        out += _table(
            [_COLUMNS[c][0] for c in cols], [[_COLUMNS[c][2](r) for c in cols] for r in results]
        )
        out.append("")
    out += [n.format(iterations=ismcts_iterations) for n in _NOTES]
    machine = "Machine: " + ", ".join(f"{k} {v}" for k, v in info.items())
    out += textwrap.wrap(machine, 80, subsequent_indent="  ")
    return "\n".join(out)


def to_markdown(
    results: list[BenchResult], info: dict[str, str], *, ismcts_iterations: int = 100
) -> str:
    """The results as a Markdown page (what ``--markdown FILE`` writes)."""
    lines = [
        "# Benchmark results",
        "",
        *(
            "- "
            + n.format(iterations=ismcts_iterations).replace(
                "legal_actions plus one apply", "`legal_actions` plus one `apply`"
            )
            for n in _NOTES
        ),
        "",
        "Machine: " + ", ".join(f"{k} {v}" for k, v in info.items()),
        "",
        "| " + " | ".join(c[1] for c in _COLUMNS) + " |",
        "|" + "---|" * len(_COLUMNS),
    ]
    lines += ["| " + " | ".join(c[2](r) for c in _COLUMNS) + " |" for r in results]
    return "\n".join(lines) + "\n"
