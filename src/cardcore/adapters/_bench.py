"""How much an RL environment step costs over the raw game API."""

from __future__ import annotations

import random
import time
from typing import Any, Final, final

import attrs

from cardcore._game import Game
from cardcore._host import PluginHost, default_host
from cardcore.adapters._registry import CodecRegistry

__all__ = ["Overhead", "bench_overhead", "measure_overhead"]


@final
@attrs.frozen(kw_only=True)
class Overhead:
    """Per-decision times of random play through the raw API and through the adapter."""

    game: str
    """The game id."""
    players: int
    """The seat count."""
    raw_us: float
    """Microseconds per decision with the raw API (``observe`` and ``apply``, deals included)."""
    adapter_us: float
    """Microseconds per decision through the PettingZoo environment (``last`` and ``step``)."""

    @property
    def ratio(self) -> float:
        """How many times slower a decision is through the adapter."""
        return self.adapter_us / self.raw_us


_CLOCK: Final = time.thread_time_ns
"""CPU time of this thread: other load on the machine does not count."""


def _clock_cost() -> float:
    """Nanoseconds one timed section adds through its two clock reads."""
    best = float("inf")
    for _ in range(5):
        t0 = _CLOCK()
        for _ in range(1000):
            _CLOCK()
        best = min(best, (_CLOCK() - t0) / 1001)
    return best


def _raw(game: Game[Any, Any, Any], n: int, seconds: float, seed: int) -> tuple[float, int, int]:
    """Random play with the raw API, the choice not timed: (ns, sections, decisions)."""
    rng = random.Random(seed)
    observe, apply, current = game.observe, game.apply, game.current_player
    clock = _CLOCK
    decisions = spent = sections = 0
    g = seed
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        start = clock()
        state = game.initial_state(n, g)
        g += 1
        while (seat := current(state)) is not None:
            legal = observe(state, seat).legal_actions
            spent += clock() - start
            action = legal[rng.randrange(len(legal))]
            start = clock()
            state = apply(state, action)
            decisions += 1
        spent += clock() - start
        sections += 1
    return spent, sections + decisions, decisions


def _adapter(env: Any, seconds: float, seed: int) -> tuple[float, int, int]:
    """Random play through the AEC environment, the choice not timed: (ns, sections, decisions)."""
    import numpy as np

    rng = random.Random(seed)
    clock = _CLOCK
    decisions = spent = sections = 0
    env.reset(seed=seed)
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        start = clock()
        env.reset()
        while env.agents:
            obs, _, terminated, _, _ = env.last()
            if terminated:
                env.step(None)
                continue
            spent += clock() - start
            action = _pick(obs["action_mask"], rng.random(), np.count_nonzero)
            start = clock()
            env.step(action)
            decisions += 1
        spent += clock() - start
        sections += 1
    return spent, sections + decisions, decisions


def _pick(mask: Any, uniform: float, count_nonzero: Any) -> int:
    """A random legal index of a mask: the k-th one found in its bytes.

    ``np.flatnonzero`` would scan and index all of Nyuri's 23,845 entries (about 55 us,
    more than the step); counting and finding run in C over the bytes. Small masks are
    counted by ``bytes.count``, which costs less than a numpy call.
    """
    data: bytes = mask.tobytes()
    legal = data.count(1) if len(data) <= _SMALL_MASK else count_nonzero(mask)
    index = data.find(1)
    for _ in range(int(uniform * legal)):
        index = data.find(1, index + 1)
    return index


_SMALL_MASK: Final = 4096
"""Masks up to this many entries are counted without numpy."""


def _per_decision_us(result: tuple[float, int, int], clock_cost: float) -> float:
    spent, sections, decisions = result
    return max(0.0, spent - sections * clock_cost) / max(1, decisions) / 1e3


def measure_overhead(
    game_id: str,
    seconds: float = 1.0,
    *,
    num_players: int | None = None,
    seed: int = 0,
    host: PluginHost | None = None,
    registry: CodecRegistry | None = None,
    **options: Any,
) -> Overhead:
    """Time random play of one game through the raw API and through the AEC environment.

    A raw decision is what any agent loop needs: the mover's observation and ``apply``
    (plus the deals). An adapter decision is ``env.last()`` (observation, encoding and
    mask) and ``env.step`` (decode, apply, bookkeeping; plus resets and the finished
    agents' steps). The agent's own choice (a random legal action) is not timed on
    either side: it depends on the agent, and scanning a mask of 24,000 actions would
    measure numpy, not the adapter.

    Args:
        game_id: the game.
        seconds: time for each of the two measurements (split into alternating rounds).
        num_players: seats (default: the game's smallest count).
        seed: makes the play reproducible.
        host: the plugin host (default: installed plugins).
        registry: where the codec is found (default: installed plugins').
        **options: the game's preset and option overrides.

    Returns:
        Both per-decision times.
    """
    from cardcore.adapters.pettingzoo import CardcoreAECEnv

    env = CardcoreAECEnv(game_id, num_players, host=host, registry=registry, **options)
    game = (host or default_host()).load_game(game_id, **options)
    # Thread CPU time, minus what the clock reads themselves cost, in alternating short
    # rounds keeping each side's best: other load on the machine then hardly matters.
    rounds = 5
    part = seconds / rounds
    cost = _clock_cost()
    raw = adapted = float("inf")
    for r in range(rounds):
        raw = min(raw, _per_decision_us(_raw(game, env.num_players, part, seed + r), cost))
        adapted = min(adapted, _per_decision_us(_adapter(env, part, seed + r), cost))
    return Overhead(game=game_id, players=env.num_players, raw_us=raw, adapter_us=adapted)


def bench_overhead(game_id: str, seconds: float = 1.0, **kwargs: Any) -> float:
    """The adapter's per-decision cost over the raw API, as a ratio (target: at most 2).

    Takes the arguments of :func:`measure_overhead`.

    Returns:
        Adapter time per decision divided by raw time per decision.
    """
    return measure_overhead(game_id, seconds, **kwargs).ratio
