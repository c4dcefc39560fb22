"""Golden playthroughs: one seeded random game per preset, every view rendered.

Set ``CARDCORE_REGEN_GOLDEN=1`` to rewrite the files after an intended change.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cardcore import load_game
from cardcore.testing import assert_golden, playthrough

GOLDEN = Path(__file__).parent / "golden"


@pytest.mark.parametrize(
    ("preset", "players", "seed"),
    [("default", 3, 0), ("pagat", 4, 0)],
)
def test_golden_playthrough(preset: str, players: int, seed: int) -> None:
    """Every observation of every seat (and the onlooker) of a seeded game, as stored."""
    game = load_game("nyuri", preset=preset)
    text = playthrough(game, players, seed)
    assert_golden(GOLDEN / f"nyuri-{preset}-{players}p-seed{seed}.txt", text)
