"""The conformance kit on every preset and every single-option change from ``default``."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardcore import PluginHost
from cardcore.testing import Config, check_game, configurations

CONFIGS = configurations(PluginHost().game_spec("box"))


def test_configurations_cover_every_option_value() -> None:
    """Both presets and the single change box_refill=replace_played are checked."""
    labels = {c.label() for c in CONFIGS}
    assert labels == {
        "preset=default",
        "preset=pagat",
        "preset=default box_refill=replace_played",
    }


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: c.label())
def test_conformance(config: Config, tmp_path: Path) -> None:
    """Every property of the kit holds under this configuration (4 players only)."""
    report = check_game(
        "box",
        presets=[config.preset],
        options=dict(config.overrides),
        games=8,
        seed=5,
        failure_dir=str(tmp_path),
    )
    assert report.ok and report.games_played == 8
