"""The conformance kit on every preset and every single-option change from ``default``."""

from __future__ import annotations

import pytest

from cardcore import PluginHost
from cardcore.testing import Config, check_game, configurations

CONFIGS = configurations(PluginHost().game_spec("noddy"))


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: c.label())
def test_conformance(config: Config, tmp_path: object) -> None:
    """Every property of the kit holds under this configuration."""
    report = check_game(
        "noddy",
        presets=[config.preset],
        options=dict(config.overrides),
        games=6,
        seed=3,
        failure_dir=str(tmp_path),
    )
    assert report.ok and report.games_played == 6
