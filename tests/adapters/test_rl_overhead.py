"""bench_overhead measures the adapter against the raw API (figures, never asserted)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from cardcore.adapters import CodecRegistry, Overhead, bench_overhead, measure_overhead

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def registry(monkeypatch: pytest.MonkeyPatch) -> CodecRegistry:
    monkeypatch.syspath_prepend(str(ROOT))
    from tests.adapters.rl_highcard import highcard_registry

    return highcard_registry()


def test_measure_overhead_reports_both_sides(registry: CodecRegistry) -> None:
    """Both per-decision times are positive; the ratio is their quotient."""
    result = measure_overhead("highcard", 0.05, num_players=3, registry=registry)
    assert isinstance(result, Overhead)
    assert (result.game, result.players) == ("highcard", 3)
    assert result.raw_us > 0 and result.adapter_us > 0
    assert result.ratio == result.adapter_us / result.raw_us


def test_bench_overhead_is_a_finite_ratio(registry: CodecRegistry) -> None:
    """bench_overhead returns the ratio as a plain float."""
    ratio = bench_overhead("highcard", 0.05, registry=registry)
    assert isinstance(ratio, float) and math.isfinite(ratio) and ratio > 0


def test_the_bench_picks_each_legal_index_by_its_share() -> None:
    """The untimed pick finds the k-th set entry of the mask for k = floor(u * count)."""
    import numpy as np

    from cardcore.adapters._bench import _pick

    mask = np.zeros(30, np.int8)
    mask[[3, 10, 20]] = 1
    picks = [_pick(mask, u, np.count_nonzero) for u in (0.0, 0.33, 0.34, 0.66, 0.67, 0.999)]
    assert picks == [3, 3, 10, 10, 20, 20]
    large = np.zeros(30_000, np.int8)  # counted by numpy
    large[[5, 29_999]] = 1
    assert [_pick(large, u, np.count_nonzero) for u in (0.2, 0.7)] == [5, 29_999]
