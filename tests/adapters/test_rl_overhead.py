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
