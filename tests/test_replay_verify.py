"""``cardcore replay --verify`` refuses edited outcomes with one clear line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardcore import load_bot, load_game, play_match
from cardcore.cli import main


def test_replay_verify_refuses_a_finished_game_edited_into_a_forfeit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The honest file verifies; the same actions with a forfeit outcome do not."""
    g = load_game("highcard")
    rec = play_match(g, [load_bot("random", g, seed=1), load_bot("random", g, seed=2)], seed=3)
    good = tmp_path / "good.json"
    rec.save(good)
    assert main(["replay", str(good), "--verify"]) == 0
    assert "OK" in capsys.readouterr().out
    data = rec.to_json()
    data["outcome"] = {
        "scores": [0.0, 1.0],
        "placing": [2, 1],
        "shares": ["0", "1"],
        "teams": None,
        "forfeit": 0,
        "reason": "seat 0 raised RuntimeError: x",
    }
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    assert main(["replay", str(bad), "--verify"]) == 2
    err = capsys.readouterr().err
    assert "forfeited, but its actions play to a finished game" in err
    assert len(err.strip().splitlines()) == 1
