"""Golden playthroughs: one seeded game per preset, every observation of every seat rendered."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardcore.testing import assert_golden, playthrough
from cardcore_box import PRESETS, Box

GOLDEN = Path(__file__).parent / "golden"


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_golden_playthrough(preset: str) -> None:
    """A seeded random game under each preset renders exactly as stored
    (``CARDCORE_REGEN_GOLDEN=1`` rewrites the files).
    """
    text = playthrough(Box(PRESETS[preset]), 4, seed=5)
    assert_golden(GOLDEN / f"box-{preset}.txt", text)
