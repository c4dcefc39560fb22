"""The replay viewer's and the arena report's content, without a browser."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from cardcore import SPECTATOR, load_bot, load_game, play_match
from cardcore._cards import parse_card
from cardcore._html import ALL_SEATS, arena_report_html, replay_data, replay_html
from cardcore.cli import main
from cardcore.cli._human_text import _CARD, known_cards


def _record(game_id: str = "noddy", seed: int = 3) -> tuple[Any, Any]:
    game = load_game(game_id)
    n = game.min_players
    bots = [load_bot("random", game, seed=s) for s in range(n)]
    return game, play_match(game, bots, seed=seed)


def _embedded(page: str) -> Any:
    m = re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', page, re.S)
    assert m is not None
    return json.loads(m.group(1))


@pytest.mark.parametrize("game_id", ["box", "nestors", "noddy", "nyuri"])
def test_a_seat_view_holds_only_what_that_seat_knew(game_id: str) -> None:
    """Every frame's cards are exactly the seat's own observation; other actions are hidden."""
    game, record = _record(game_id)
    seat = 1
    data = _embedded(replay_html(record, game, seat))
    from cardcore._match_record import initial_state_of, replay

    states = [initial_state_of(record, game)] + [s.after for s in replay(record, game)]
    assert len(data["frames"]) == len(states) == len(record.actions) + 1
    for frame, state in zip(data["frames"], states, strict=True):
        seen = game.observe(state, seat).table.to_json()["zones"]
        assert {z["name"]: z["cards"] for z in frame["zones"]} == seen
        assert frame["text"] == game.render(game.observe(state, seat))
    for frame, action, state in zip(data["frames"][1:], record.actions, states[1:], strict=True):
        if frame["by"] == seat:
            assert frame["action"] == action
            continue
        known = known_cards(game.observe(state, seat).table)
        for c in _CARD.findall(frame["text"]):  # the seat's own text names what it saw
            known |= 1 << parse_card(c).id
        named = {parse_card(c).id for c in _CARD.findall(frame["action"])}
        assert named <= {c for c in range(52) if known >> c & 1}  # nothing it did not see
        assert named == {parse_card(c).id for c in _CARD.findall(action)} & {
            c for c in range(52) if known >> c & 1
        }  # and every card of the move that it did see
        assert frame["action"].count("?") == len(_CARD.findall(action)) - len(named)


def test_a_seat_view_names_the_cards_others_played_face_up() -> None:
    """Seen by seat 1, seat 0's play to the open pile is named, not hidden as a move."""
    game, record = _record("noddy")
    data = replay_data(record, game, 1)
    plays = [f["action"] for f in data["frames"][1:] if f["by"] == 0 and "play" in f["action"]]
    assert plays
    assert all(re.fullmatch(r"played (10|[2-9JQKA])[♣♦♥♠]", p) for p in plays)
    assert "(moves)" not in json.dumps(data, ensure_ascii=False)


def test_every_seat_view_shows_all_hands_of_a_finished_match() -> None:
    """Seen by every seat, the first frame shows both Noddy hands face up."""
    game, record = _record()
    data = replay_data(record, game, ALL_SEATS)
    first = {z["name"]: z["cards"] for z in data["frames"][0]["zones"]}
    assert all(c is not None for c in first["hand0"] + first["hand1"])
    assert len(first["hand0"]) == 3
    assert [f["action"] for f in data["frames"][1:]] == list(record.actions)


def test_every_seat_view_gives_each_seat_its_own_text() -> None:
    """Beside hands drawn face up, the text is each seat's own, never the onlooker's."""
    game, record = _record()
    data = replay_data(record, game, ALL_SEATS)
    from cardcore._match_record import initial_state_of

    first = data["frames"][0]
    state = initial_state_of(record, game)
    assert "text" not in first
    assert first["texts"] == [game.render(game.observe(state, s)) for s in range(2)]
    assert all("onlooker" not in t for f in data["frames"] for t in f["texts"])


@pytest.mark.parametrize(
    ("game_id", "seat", "titles"),
    [
        ("noddy", 1, {"hand0": "seat 0's hand", "hand1": "your hand", "turnup": "turn-up"}),
        ("nestors", 1, {"won0": "seats 0+2' tricks won", "won1": "your side's tricks won"}),
        ("highcard", SPECTATOR, {"hand0": "seat 0's hand", "trick": "trick"}),
    ],
)
def test_zones_are_named_as_a_player_would(game_id: str, seat: int, titles: dict[str, str]) -> None:
    """Zone titles say whose zone it is in words (``your hand``), not the raw ``hand1``."""
    game, record = _record(game_id)
    data = replay_data(record, game, seat)
    shown = {z["name"]: z["title"] for z in data["frames"][0]["zones"]}
    assert {k: shown[k] for k in titles} == titles


def test_an_unfinished_match_cannot_be_shown_by_every_seat() -> None:
    """Every hand is shown only once the match is over."""
    game, record = _record()
    import attrs

    unfinished = attrs.evolve(record, actions=record.actions[:4], outcome=None)
    with pytest.raises(ValueError, match="unfinished"):
        replay_data(unfinished, game, ALL_SEATS)
    assert len(replay_data(unfinished, game, SPECTATOR)["frames"]) == 5
    with pytest.raises(ValueError, match="not a seat"):
        replay_data(record, game, 5)


def test_the_page_is_self_contained_and_escapes_its_data() -> None:
    """No external resources; a ``</script>`` inside the data cannot end the script."""
    game, record = _record()
    import attrs

    sneaky = attrs.evolve(record, bots=("</script><b>x", "random"))
    page = replay_html(sneaky, game, ALL_SEATS)
    assert "</script><b>" not in page
    assert _embedded(page)["bots"][0] == "</script><b>x"
    assert not re.search(r'(src|href)="(https?:)?//', page)


def test_replay_html_command_writes_the_viewer(tmp_path: Path, capsys: Any) -> None:
    """``cardcore replay FILE --html OUT`` writes the page; a missing folder is an error."""
    _, record = _record()
    rec = tmp_path / "m.json"
    record.save(rec)
    out = tmp_path / "m.html"
    assert main(["replay", str(rec), "--html", str(out)]) == 0
    assert "seen by every seat" in capsys.readouterr().out
    assert _embedded(out.read_text(encoding="utf-8"))["view"] == "every seat"
    assert main(["replay", str(rec), "--html", str(tmp_path / "m0.html"), "--as", "0"]) == 0
    assert main(["replay", str(rec), "--html", str(tmp_path / "nope" / "x.html")]) == 2
    assert "does not exist" in capsys.readouterr().err


def test_arena_report_has_table_plots_and_replay_links(tmp_path: Path) -> None:
    """``arena --report`` writes the results table, SVG plots and replay pages it links to."""
    out = tmp_path / "report.html"
    db = tmp_path / "a.sqlite"
    args = ["arena", "noddy", "--bots", "noddy-heuristic,random", "--games", "3", "--seed", "2"]
    args += ["--db", str(db), "--no-progress", "--report", str(out), "--report-replays", "2"]
    assert main(args) == 0
    page = out.read_text(encoding="utf-8")
    assert page.count("<svg") >= 1
    assert "noddy-heuristic" in page
    links = re.findall(r'<a href="([^"]+)"', page)
    assert len(links) == 2
    for link in links:
        assert (tmp_path / link).is_file()
    missing = tmp_path / "missing" / "r.html"
    assert main([*args[:-4], "--report", str(missing)]) == 2


def test_report_marks_forfeits() -> None:
    """Forfeits and their reasons appear in the report's table."""
    result = {
        "config": {"game": "noddy", "preset": "default", "players": 2, "seed": 0},
        "deals": 1,
        "games": 2,
        "ci_method": "Wilson",
        "ratings_note": "",
        "errors": [],
        "bots": [
            {
                "bot": "crashy",
                "games": 2,
                "forfeits": 2,
                "win_share": {"mean": 0.0, "low": 0.0, "high": 0.6},
                "score": {"mean": 0.0, "low": None, "high": None},
                "rating": None,
                "forfeit_reasons": ["seat 0 raised RuntimeError: boom"],
            }
        ],
    }
    page = arena_report_html(result)
    assert "seat 0 raised RuntimeError: boom" in page
    assert "<td>2</td>" in page
