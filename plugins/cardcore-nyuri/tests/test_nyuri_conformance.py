"""The cardcore conformance kit over every preset and every single-option change."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardcore import load_game
from cardcore.testing import Config, configurations, run_checks
from cardcore_nyuri import Nyuri

_SPEC_CONFIGS = [
    Config("default"),
    Config("pagat"),
    Config("default", {"capture": "hand"}),
    Config("default", {"end": "stock_exhausted"}),
    Config("default", {"three_card_penalty": True}),
    Config("default", {"guarded_single": "any_suit"}),
    Config("default", {"turn_limit": 1}),
]


def test_the_kit_sees_every_configuration() -> None:
    """The kit's list of configurations is exactly the presets and single-option changes."""
    from cardcore import PluginHost

    spec = PluginHost().game_spec("nyuri")
    assert {c.label() for c in configurations(spec)} == {c.label() for c in _SPEC_CONFIGS}


@pytest.mark.parametrize("config", _SPEC_CONFIGS, ids=lambda c: c.label())
def test_conformance(config: Config, tmp_path: Path) -> None:
    """Every property of the kit, for 2, 3 and 4 players."""
    heavy = config.preset == "pagat" or config.overrides.get("capture") == "hand"
    report = run_checks(
        "nyuri", configs=[config], games=2 if heavy else 4, seed=1, failure_dir=tmp_path
    )
    assert [n for _, n, _ in report.results] == [2, 3, 4]
    assert report.ok, [(label, n, r.property, r.message) for label, n, r in report.failures()]


def test_conformance_with_check_game(tmp_path: Path) -> None:
    """check_game on a built game raises nothing."""
    game = load_game("nyuri", preset="pagat", turn_limit=30)
    assert isinstance(game, Nyuri)
    from cardcore.testing import check_game

    check_game(game, games=2, failure_dir=tmp_path)
