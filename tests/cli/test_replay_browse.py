"""Stepping through a record: ``cardcore replay FILE --interactive [--as SEAT]``."""

from __future__ import annotations

import io
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs
import pytest

from cardcore import MatchRecord, load_bot, load_game, play_match, replay
from cardcore.cli import main
from cardcore.cli._human_text import known_cards, move_text, past_tense

GAMES = ("highcard", "nyuri", "noddy", "box", "nestors")


def installed(name: str) -> Any:
    """The game, or skip the test when its plugin is not installed."""
    try:
        return load_game(name)
    except LookupError:
        pytest.skip(f"the {name} plugin is not installed")


def recorded(tmp_path: Path, name: str = "highcard", seed: int = 5) -> tuple[Path, MatchRecord]:
    """A finished match between random bots, saved to a file."""
    game = installed(name)
    n = game.min_players
    bots = [load_bot("random", game, seed=s) for s in range(n)]
    record = play_match(game, bots, seed=seed)
    path = tmp_path / f"{name}.json"
    record.save(path)
    return path, record


def browse(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    argv: Sequence[str],
    lines: Sequence[str],
) -> tuple[int, str, str]:
    """Run ``cardcore replay ... --interactive`` with scripted commands."""
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(f"{x}\n" for x in lines)))
    code = main(["replay", *argv, "--interactive"])
    out = capsys.readouterr()
    return code, out.out, out.err


def positions(out: str) -> list[int]:
    """The positions shown, in order (``[k/N]`` headings)."""
    return [int(k) for k in re.findall(r"^\[(\d+)/\d+\]", out, flags=re.MULTILINE)]


def test_next_prev_jump_start_and_end(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Each command moves to the position it names; Enter is next."""
    path, record = recorded(tmp_path)
    last = len(record.actions)
    script = ["", "next", "n", "prev", "jump 4", "2", "end", "start", "p", "quit"]
    code, out, _ = browse(monkeypatch, capsys, [str(path)], script)
    assert code == 0
    assert positions(out) == [0, 1, 2, 3, 2, 4, 2, last, 0]
    assert f"replay {last}/{last}> start" in out


def test_table_view_shows_every_action_and_the_outcome(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The onlooker sees each action's text, and the outcome at the end."""
    path, record = recorded(tmp_path)
    code, out, _ = browse(monkeypatch, capsys, [str(path)], [""] * len(record.actions))
    assert code == 0
    assert "seen by the table" in out
    game = load_game("highcard")
    for step in replay(record, game):
        heading = f"[{step.index + 1}/{len(record.actions)}] seat {step.seat} (random)"
        assert f"{heading} {past_tense(str(step.action))}\n" in out
    assert f"Game over after {len(record.actions)} decisions" in out


def test_a_seat_sees_only_its_own_actions_and_observations(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """As a seat, only that seat's view is drawn, and others' moves as far as it sees them."""
    path, record = recorded(tmp_path)
    game = load_game("highcard")
    seen: list[int] = []
    original = type(game).render

    def spy(self: Any, observation: Any) -> str:
        seen.append(observation.seat)
        return str(original(self, observation))

    monkeypatch.setattr(type(game), "render", spy)
    script = [""] * len(record.actions)
    code, out, _ = browse(monkeypatch, capsys, [str(path), "--as", "1"], script)
    assert code == 0
    assert set(seen) == {1}
    for step in replay(record, game):
        heading = f"[{step.index + 1}/{len(record.actions)}] seat {step.seat} (random)"
        if step.seat == 1:
            assert f"{heading} {past_tense(str(step.action))}\n" in out
        else:
            known = known_cards(game.observe(step.after, 1).table)
            assert f"{heading} {move_text(str(step.action), known)}\n" in out
    assert "made a move" not in out


def test_wrong_commands_are_explained_in_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Unknown commands, out-of-range jumps and moves past either end are refused."""
    path, record = recorded(tmp_path)
    last = len(record.actions)
    script = ["prev", "jump 999", "jump x", "dance", "end", "next", "help"]
    code, out, _ = browse(monkeypatch, capsys, [str(path)], script)
    assert code == 0
    for typed, said in (
        ("prev", "this is the start"),
        ("jump 999", f"from 0 to {last}, not '999'"),
        ("jump x", "not 'x'"),
        ("dance", "unknown command 'dance'"),
    ):
        assert re.search(re.escape(f"replay 0/{last}> {typed}\n") + f".*{re.escape(said)}.*\n", out)
    assert f"replay {last}/{last}> next\nthis is the end" in out
    assert "jump N, N" in out
    assert positions(out) == [0, last]


def test_end_of_input_and_an_unfinished_record(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A saved, unfinished match can be browsed; the end of input leaves quietly."""
    _, record = recorded(tmp_path)
    part = tmp_path / "part.json"
    attrs.evolve(record, actions=record.actions[:3], outcome=None).save(part)
    code, out, _ = browse(monkeypatch, capsys, [str(part)], ["end"])
    assert code == 0
    assert "The record ends here: the match was not finished." in out
    assert positions(out) == [0, 3]


def test_errors_before_browsing(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A seat that is not in the match, or a record that does not replay, is one error."""
    path, record = recorded(tmp_path)
    code, _, err = browse(monkeypatch, capsys, [str(path), "--as", "7"], [])
    assert code == 2
    assert "--as 7 is not a seat" in err
    broken = tmp_path / "broken.json"
    attrs.evolve(record, actions=(*record.actions, "play 2♣")).save(broken)
    code, out, err = browse(monkeypatch, capsys, [str(broken)], [])
    assert code == 2
    assert f"action #{len(record.actions) + 1} 'play 2♣'" in err
    assert "already over" in err
    assert out == ""


@pytest.mark.parametrize("name", GAMES)
def test_every_game_can_be_browsed_as_each_seat(
    name: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """For each game, the onlooker and every seat can step through a whole match."""
    path, record = recorded(tmp_path, name, seed=3)
    game = load_game(name)
    seen: list[int] = []
    original = type(game).render

    def spy(self: Any, observation: Any) -> str:
        seen.append(observation.seat)
        return str(original(self, observation))

    monkeypatch.setattr(type(game), "render", spy)
    last = len(record.actions)
    for seat in range(-1, record.num_players):
        seen.clear()
        args = [str(path)] if seat == -1 else [str(path), "--as", str(seat)]
        code, out, err = browse(monkeypatch, capsys, args, ["next", "jump 2", "end", "quit"])
        assert code == 0, err
        assert positions(out) == [0, 1, 2, last]
        assert f"Game over after {last} decisions" in out
        assert set(seen) == {seat}


def test_ctrl_c_leaves_the_browser_quietly(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Ctrl-C in the replay browser just leaves: there is nothing to lose."""
    from cardcore.cli._human_io import Terminal

    original = Terminal.ask

    def ask(self: Terminal, prompt: str, choices: Sequence[str] = ()) -> str | None:
        line = original(self, prompt, choices)
        if line == "^C":
            raise KeyboardInterrupt
        return line

    monkeypatch.setattr(Terminal, "ask", ask)
    path, _ = recorded(tmp_path)
    code, out, err = browse(monkeypatch, capsys, [str(path)], ["next", "^C", "next"])
    assert code == 0
    assert err == ""
    assert positions(out) == [0, 1], "nothing is read after Ctrl-C"


def test_every_hand_is_shown_at_the_end_of_a_replay(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """At the last decision of a finished match each seat's own cards are shown."""
    for seed in range(20):
        path, record = recorded(tmp_path, "box", seed)
        final = list(replay(record, load_game("box")))[-1].after
        if any(final.table.size(final.table.layout.zone(f"box{s}")) for s in range(4)):
            break
    else:
        raise AssertionError("no seed ends with a card in a box")
    code, out, _ = browse(monkeypatch, capsys, [str(path), "--as", "2"], ["end"])
    assert code == 0
    end = out.split("Every hand at the end:\n", 1)[1]
    for seat in range(4):
        name = "you" if seat == 2 else "random"
        assert re.search(rf"^    seat {seat} \({name}\): hand .*; box ", end, re.M)
