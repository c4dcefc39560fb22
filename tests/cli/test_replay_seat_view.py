"""`cardcore replay FILE --json --as SEAT` writes a seat view; `cardcore replay` reads it back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardcore import load_bot, load_game, play_match
from cardcore.cli import main


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, Path]:
    """A finished two-player Noddy match record and seat 1's view of it."""
    game = load_game("noddy")
    record = play_match(game, [load_bot("random", game, seed=s) for s in range(2)], seed=11)
    path = tmp_path / "match.json"
    record.save(path)
    code, out, _ = _run(capsys, "replay", str(path), "--as", "1", "--json")
    assert code == 0
    view = tmp_path / "seat1.json"
    view.write_text(out, encoding="utf-8")
    return path, view


def test_a_seat_view_holds_the_public_header_and_no_seed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The seat view names its format and the match's public facts, never seed, deck or actions."""
    _, view = _files(tmp_path, capsys)
    data = json.loads(view.read_text(encoding="utf-8"))
    assert data["format"] == "cardcore-seat-view/1"
    assert data["game"] == "noddy" and data["num_players"] == 2 and data["seen_by"] == 1
    assert not {"seed", "deck", "actions", "record"} & set(data)
    assert all(s["observation"]["seat"] == 1 for s in data["steps"])


def test_a_seat_view_is_shown_as_the_record_shows_that_seat(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Read back, a seat view prints exactly the text replay of that seat, and --json itself."""
    path, view = _files(tmp_path, capsys)
    from_record = _run(capsys, "replay", str(path), "--as", "1")
    assert _run(capsys, "replay", str(view)) == from_record
    assert _run(capsys, "replay", str(view), "--as", "1") == from_record
    code, out, _ = _run(capsys, "replay", str(view), "--json")
    assert code == 0 and json.loads(out) == json.loads(view.read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    ("extra", "says"),
    [
        (["--verify"], "cannot be replayed or verified"),
        (["--as", "0"], "cannot be shown as seat 0"),
        (["--html", "x.html"], "--html needs the match record"),
        (["-i"], "--interactive needs the match record"),
    ],
)
def test_what_a_seat_view_cannot_do_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], says: str
) -> None:
    """Verifying, another seat, HTML or browsing need the record: one line says so, exit 2."""
    _, view = _files(tmp_path, capsys)
    code, out, err = _run(capsys, "replay", str(view), *extra)
    assert code == 2 and out == ""
    assert f"{view} is seat 1's view of a match" in err and says in err
    assert len(err.strip().splitlines()) == 1


def test_the_tables_json_output_is_not_taken_for_a_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Given back the table's --json output, replay says what it is instead of a field error."""
    path, _ = _files(tmp_path, capsys)
    code, out, _ = _run(capsys, "replay", str(path), "--json")
    assert code == 0
    table = tmp_path / "table.json"
    table.write_text(out, encoding="utf-8")
    code, _, err = _run(capsys, "replay", str(table))
    assert code == 2
    assert "output of 'cardcore replay --json', not a match record" in err


def test_a_damaged_seat_view_names_the_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A seat view with a missing or mistyped field gives one line naming it."""
    _, view = _files(tmp_path, capsys)
    data = json.loads(view.read_text(encoding="utf-8"))
    data["seen_by"] = 7
    view.write_text(json.dumps(data), encoding="utf-8")
    code, _, err = _run(capsys, "replay", str(view))
    assert code == 2 and "field 'seen_by' is 7, not a seat 0-1" in err
    del data["steps"]
    view.write_text(json.dumps(data), encoding="utf-8")
    code, _, err = _run(capsys, "replay", str(view))
    assert code == 2 and "field 'steps' is missing" in err
