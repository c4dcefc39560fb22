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


def _highcard_record(tmp_path: Path) -> tuple[Path, dict[str, object]]:
    """A finished highcard match saved to a file, and its JSON data to edit."""
    g = load_game("highcard")
    rec = play_match(g, [load_bot("random", g, seed=1), load_bot("random", g, seed=2)], seed=3)
    path = tmp_path / "match.json"
    rec.save(path)
    return path, rec.to_json()


@pytest.mark.parametrize("verify", [True, False], ids=["verify", "show"])
def test_an_illegal_action_is_named_with_its_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], verify: bool
) -> None:
    """A record whose first action is not legal fails in one line that names the file."""
    _, data = _highcard_record(tmp_path)
    actions = list(data["actions"])  # type: ignore[call-overload]
    data["actions"] = [actions[1], *actions]  # seat 0 plays seat 1's card
    bad = tmp_path / "illegal.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    code = main(["replay", str(bad), *(["--verify"] if verify else [])])
    captured = capsys.readouterr()
    assert code == 2 and captured.out == ""
    assert f"error: {bad}: action #1" in captured.err
    assert len(captured.err.strip().splitlines()) == 1


def test_a_verify_mismatch_is_named_with_its_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--verify` of a record whose scores were edited names the file and the outcome field."""
    _, data = _highcard_record(tmp_path)
    data["outcome"]["scores"] = [5.0, 5.0]  # type: ignore[index]
    bad = tmp_path / "edited.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    assert main(["replay", str(bad), "--verify"]) == 2
    err = capsys.readouterr().err
    assert f"error: {bad}: field 'outcome': the replay ends with" in err


@pytest.mark.parametrize("form", [[], ["--json"], ["--as", "1"]], ids=["text", "json", "seat"])
def test_an_edited_outcome_is_reported_without_verify(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], form: list[str]
) -> None:
    """Shown without --verify, an outcome the actions do not give is said to differ (exit 1)."""
    path, data = _highcard_record(tmp_path)
    assert main(["replay", str(path), *form]) == 0
    assert "not what the actions give" not in capsys.readouterr().err
    data["outcome"]["scores"] = [5.0, 5.0]  # type: ignore[index]
    bad = tmp_path / "edited.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    assert main(["replay", str(bad), *form]) == 1
    captured = capsys.readouterr()
    assert f"{bad}: the recorded outcome is not what the actions give" in captured.err
    if form != ["--json"]:
        assert "The recorded outcome below is NOT what the actions give" in captured.out


def test_verify_of_an_unfinished_match_does_not_claim_an_outcome(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An unfinished record verifies as unfinished, not as replaying to a recorded outcome."""
    _, data = _highcard_record(tmp_path)
    data["actions"] = list(data["actions"])[:2]  # type: ignore[call-overload]
    data["outcome"] = None
    path = tmp_path / "unfinished.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert main(["replay", str(path), "--verify"]) == 0
    out = capsys.readouterr().out
    assert "OK, 2 actions replay; the match is unfinished" in out
    assert "recorded outcome" not in out
