"""The cardcore conformance kit on Nestors: every preset and every single-option change.

A Nestors match runs to +1000 over many hands; to keep the kit's exhaustive per-step
checks affordable, each configuration is checked with ``threshold=200`` (two or three
deals a game) unless the configuration changes the threshold itself. One full-length
game under ``default`` is checked as well.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cardcore.testing import check_bot, check_game, configurations
from cardcore_nestors.hooks import plugin

(SPEC,) = plugin.games


@pytest.mark.parametrize("config", configurations(SPEC), ids=lambda c: c.label())
def test_conformance(config: Any, tmp_path: Path) -> None:
    """The kit passes for this configuration (threshold lowered to 200 if not changed)."""
    options = {"threshold": 200, **dict(config.overrides)}
    check_game("nestors", presets=[config.preset], options=options, games=2, failure_dir=tmp_path)


@pytest.mark.slow
def test_conformance_full_length_default(tmp_path: Path) -> None:
    """The kit passes on one full-length game (threshold 1000) under ``default``."""
    check_game("nestors", presets=["default"], games=1, seed=1, failure_dir=tmp_path)


def test_heuristic_bot_conformance() -> None:
    """The heuristic bot returns legal actions, never crashes and is deterministic."""
    check_bot("nestors-heuristic", "nestors", options=None, games=2)
