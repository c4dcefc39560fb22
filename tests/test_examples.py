"""The scripts in examples/ run and do what they say."""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


@pytest.mark.parametrize(
    ("script", "expect"),
    [
        ("my_bot.py", "HighestCardBot wins"),
        ("heuristic_rollout_bot.py", "HeuristicRolloutBot won"),
    ],
)
def test_example_scripts_run(script: str, expect: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Each example script runs to the end and prints its result."""
    runpy.run_path(str(EXAMPLES / script), run_name="__main__")
    assert expect in capsys.readouterr().out
