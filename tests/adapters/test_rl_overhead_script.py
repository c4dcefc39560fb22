"""benchmarks/rl_overhead.py: its two loops play whole games (valgrind is not needed here)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

from cardcore import load_game
from cardcore.adapters.pettingzoo import CardcoreAECEnv

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "rl_overhead.py"


def load_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("rl_overhead", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_raw_and_adapter_loops_play_the_same_kind_of_games() -> None:
    """Both loops play seeded random games to the end and count the decisions."""
    script = load_script()
    game = load_game("box")
    env = CardcoreAECEnv("box")
    raw = script.raw(game, env.num_players, 0, 2)
    adapted = script.adapter(env, 0, 2)
    assert raw > 20 and adapted > 20
    assert script.raw(game, env.num_players, 0, 2) == raw  # seeded: the same games again
    assert not env.agents  # every agent stepped out of the last game


def test_cycle_estimate_weights() -> None:
    """The documented estimate: instructions / 3, 12 per L1 miss, 50 per LL data miss."""
    script = load_script()
    per = {"ir": 300.0, "i1": 1.0, "d1": 2.0, "lld": 1.0}
    assert script.cycles(per) == 100 + 36 + 50


def test_the_script_picks_as_the_bench_does() -> None:
    """The script's copy of the bench's pick gives the same index for every mask size."""
    import numpy as np

    from cardcore.adapters._bench import _pick

    script = load_script()
    for size in (53, 4096, 4097, 23_845):
        mask = np.zeros(size, np.int8)
        mask[[0, size // 3, size - 1]] = 1
        for u in (0.0, 0.4, 0.9):
            want = _pick(mask, u, np.count_nonzero)
            assert script.pick(mask, u, np.count_nonzero) == want
