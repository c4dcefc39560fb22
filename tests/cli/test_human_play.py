"""Human play at the terminal: ``cardcore play --human`` and ``cardcore play --resume``.

Every match here is driven through the command line with scripted input (standard input
is not a terminal), as a person would type it, wrong input included.
"""

from __future__ import annotations

import io
import json
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from cardcore import (
    BotSpec,
    MatchRecord,
    PluginHost,
    hookimpl,
    load_game,
    parse_card,
    replay,
    verify,
)
from cardcore.cli import main
from cardcore.cli._human_io import Terminal, changed_lines, columns, matches, wants_color
from cardcore.cli._human_text import known_cards, move_text, past_tense, without_legal

GAMES = ("highcard", "nyuri", "noddy", "box", "nestors")
DOC = Path(__file__).resolve().parents[2] / "docs" / "play.md"
PROMPT = re.compile(r"^(?:seat \d+> |replay \d+/\d+> |Save before leaving\? \[Y/n/c\] )(.*)$")


def installed(name: str) -> Any:
    """The game, or skip the test when its plugin is not installed."""
    try:
        return load_game(name)
    except LookupError:
        pytest.fail(
            f"the {name} plugin is not installed: run make test, which installs every plugin"
        )


def run(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    argv: Sequence[str],
    lines: Sequence[str],
) -> tuple[int, str, str]:
    """Run ``cardcore ARGV`` with ``lines`` as what the person types."""
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(f"{x}\n" for x in lines)))
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def firsts(game: Any, n: int) -> list[str]:
    """Enough answers of "1" (the first legal action) to finish any match."""
    return ["1"] * (game.max_decisions(n) + 2)


def first_legal(game: Any, seed: int, n: int, seat: int, dealer: int | None = None) -> list[str]:
    """The legal actions of ``seat`` at its first decision when everybody plays "1"."""
    state = game.initial_state(n, seed, dealer=dealer)
    while game.current_player(state) != seat:
        state = game.apply(state, game.legal_actions(state)[0])
    return [str(a) for a in game.legal_actions(state)]


def complaint_after(out: str, prompt: str, typed: str) -> str:
    """The one line printed after ``typed`` at ``prompt``; the prompt must come right back."""
    m = re.search(re.escape(f"{prompt}{typed}\n") + r"([^\n]*)\n" + re.escape(prompt), out)
    assert m is not None, f"no one-line answer to {typed!r} followed by the prompt again"
    return m.group(1)


# ---- whole matches, every game -------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_scripted_match_with_wrong_input_undo_save_and_resume(
    name: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A person plays a whole match against bots, with mistakes, undo, save and resume."""
    game = installed(name)
    monkeypatch.chdir(tmp_path)
    n = game.min_players
    seat = n - 1
    bots = ",".join(["random"] * (n - 1))
    prompt = f"seat {seat}> "
    script = ["0", "this is no action", "1", "undo", "1", "save part.json", "quit"]
    code, out, err = run(
        monkeypatch, capsys, ["play", name, "--human", str(seat), "--bots", bots], script
    )
    assert code == 0, err
    assert "there is no action 0" in complaint_after(out, prompt, "0")
    assert "is neither a command nor an action" in complaint_after(out, prompt, "this is no action")
    assert "taken back" in out
    saved = MatchRecord.load("part.json")
    assert saved.outcome is None
    assert saved.bots[seat] == "human"
    assert [b for i, b in enumerate(saved.bots) if i != seat] == ["random"] * (n - 1)
    assert saved.actions, "the person's decision is in the saved record"
    assert "before leaving?" not in out, "a match just saved is left without asking"

    code, out, err = run(
        monkeypatch,
        capsys,
        ["play", "--resume", "part.json", "--record", "done.json"],
        firsts(game, n),
    )
    assert code == 0, err
    assert f"resumed after {len(saved.actions)} decisions" in out
    assert "Game over after" in out
    done = MatchRecord.load("done.json")
    assert done.outcome is not None
    assert done.actions[: len(saved.actions)] == saved.actions
    assert done.bots == saved.bots
    verify(done)


@pytest.mark.parametrize("name", GAMES)
def test_person_sees_only_their_own_observations(
    name: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every table drawn during a match is the human seat's observation."""
    game = installed(name)
    n = game.min_players
    seen: list[int] = []
    original = type(game).render

    def spy(self: Any, observation: Any) -> str:
        seen.append(observation.seat)
        return str(original(self, observation))

    monkeypatch.setattr(type(game), "render", spy)
    argv = ["play", name, "--human", "0", "--bots", "random", "--players", str(n)]
    code, out, err = run(monkeypatch, capsys, argv, firsts(game, n))
    assert code == 0, err
    assert "Game over after" in out
    assert seen
    assert set(seen) == {0}


@pytest.mark.parametrize("name", GAMES)
def test_every_move_is_told_as_far_as_the_person_may_know_it(
    name: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Each decision is one line saying what was done; hidden cards show as ``?``.

    The person's own moves are told in full; a bot's move names only the cards the
    person's observation places after it (so nothing hidden is told), and no line says
    just "made a move".
    """
    game = installed(name)
    n = game.min_players
    bots = ",".join(["random"] * (n - 1))
    record = tmp_path / "r.json"
    argv = ["play", name, "--human", "0", "--bots", bots, "--seed", "2", "--record", str(record)]
    code, out, err = run(monkeypatch, capsys, argv, firsts(game, n))
    assert code == 0, err
    assert "made a move" not in out
    rec = MatchRecord.load(record)
    lines = iter(out.splitlines())
    told = 0
    for step in replay(rec, game):
        if step.seat == 0:
            expected = f"seat 0 (you) {past_tense(str(step.action))}"
        else:
            known = known_cards(game.observe(step.after, 0).table)
            expected = f"seat {step.seat} (random) {move_text(str(step.action), known)}"
            for card in re.findall(r"(?:10|[2-9JQKA])[♣♦♥♠]", expected):
                assert known >> parse_card(card).id & 1, f"{card} told but hidden from seat 0"
        assert expected in lines, f"the move {step.action} of seat {step.seat} is not told"
        told += 1
    assert told == len(rec.actions)


def test_hidden_cards_of_a_move_show_as_question_marks() -> None:
    """A card the viewer cannot place is never named: ``leave 7♦`` face down is ``left ?``."""
    seven = parse_card("7♦")
    assert move_text("leave 7♦", 0) == "left ?"
    assert move_text("leave 7♦", seven.bit) == "left 7♦"
    assert move_text("steal 9♠+7♦", seven.bit) == "offered to steal with ?+7♦"
    assert move_text("lay 10♥ guard 7♦", seven.bit) == "laid ? guard 7♦"
    assert move_text("bid 120", 0) == "bid 120"
    assert move_text("turn up", 0) == "turned up"
    # The text is made from the viewer's knowledge: a wrong mask would tell the card.
    assert "7♦" not in move_text("play 7♦", parse_card("7♠").bit)


@pytest.mark.parametrize(
    ("text", "done"),
    [
        ("play 7♦", "played 7♦"),
        ("pass", "passed"),
        ("decline", "declined"),
        ("swap", "swapped"),
        ("take back", "took back"),
        ("show knave", "showed knave"),
        ("trump Q", "named trump Q"),
        ("draw", "drew"),
        ("carry", "carried"),
        ("Odd text", "Odd text"),
    ],
)
def test_past_tense(text: str, done: str) -> None:
    """Actions read as what was done."""
    assert past_tense(text) == done


def test_the_games_own_list_of_legal_actions_is_left_out(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The legal actions are listed once, numbered, not also in the game's rendering."""
    argv = ["play", "noddy", "--human", "0", "--bots", "random", "--seed", "1"]
    code, out, _ = run(monkeypatch, capsys, argv, ["quit"])
    assert code == 0
    assert "legal:" not in out
    assert "   1. pass" in out
    game = load_game("noddy")
    obs = game.observe(game.initial_state(2, 1), 0)
    assert "legal:" in game.render(obs), "the game's own rendering lists them (checked here)"
    assert without_legal(obs).legal_actions == ()
    assert without_legal(obs).seat == obs.seat


def test_every_hand_is_shown_at_game_over(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """At the end each seat's own cards are shown, face-down ones included (box's boxes)."""
    game = installed("box")
    record = tmp_path / "r.json"
    argv = ["play", "box", "--human", "0", "--bots", "random,random,random", "--seed", "2"]
    code, out, err = run(monkeypatch, capsys, [*argv, "--record", str(record)], firsts(game, 4))
    assert code == 0, err
    assert "Every hand at the end:" in out
    final = list(replay(MatchRecord.load(record), game))[-1].after
    table = final.table
    end = out.split("Every hand at the end:\n", 1)[1]
    for seat in range(4):
        hand = " ".join(str(c) for c in table.cards(table.layout.zone(f"hand{seat}"))) or "-"
        box = " ".join(str(c) for c in table.cards(table.layout.zone(f"box{seat}"))) or "-"
        name = "you" if seat == 0 else "random"
        assert f"    seat {seat} ({name}): hand {hand}; box {box}\n" in end
    assert any(table.cards(table.layout.zone(f"box{s}")) for s in range(4)), (
        "this seed ends with a card left in a box, hidden from everybody until now"
    )


# ---- choosing actions ------------------------------------------------------------------


def test_typed_actions_and_explained_refusals(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """An action can be typed; an illegal one is explained in one line and asked again."""
    game = load_game("highcard")
    legal = first_legal(game, 4, 2, 0, dealer=1)
    mine = {a.split()[1] for a in legal}
    other = next(f"play {c}" for c in ("2♣", "3♣", "4♣", "5♣") if c not in mine)
    record = tmp_path / "r.json"
    script = [other, "play", "99", "-1", legal[-1].upper(), *["1"] * 4]
    argv = ["play", "highcard", "--human", "0", "--bots", "random", "--seed", "4"]
    code, out, _ = run(
        monkeypatch, capsys, [*argv, "--dealer", "1", "--record", str(record)], script
    )
    assert code == 0
    said = complaint_after(out, "seat 0> ", other)
    assert said == f"{other} is not legal now: {other.split()[1]} is not in seat 0's hand."
    assert "neither a command nor an action" in complaint_after(out, "seat 0> ", "play")
    assert "choose 1-3" in complaint_after(out, "seat 0> ", "99")
    assert "neither a command nor an action" in complaint_after(out, "seat 0> ", "-1")
    assert MatchRecord.load(record).actions[0] == legal[-1]


def test_help_and_show_repeat_the_table(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """'help' lists the commands; 'show' draws the same table and choices again."""
    argv = ["play", "highcard", "--human", "0", "--bots", "random", "--dealer", "1"]
    code, out, _ = run(monkeypatch, capsys, argv, ["help", "show", "quit", "n"])
    assert code == 0
    for command in ("hint", "undo", "save [FILE]", "quit"):
        assert command in out
    views = re.findall(r"Your turn, seat 0 \(decision 1\):\n((?:    .*\n|   ?\d.*\n)+)", out)
    assert len(views) == 2
    assert views[0] == views[1]


def test_end_of_input_leaves_without_saving(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """When the script runs out, the match stops and nothing is written."""
    monkeypatch.chdir(tmp_path)
    argv = ["play", "highcard", "--human", "0", "--bots", "random"]
    code, out, _ = run(monkeypatch, capsys, argv, ["1"])
    assert code == 0
    assert "end of input" in out
    assert "Game over" not in out
    assert list(tmp_path.iterdir()) == []


def test_quit_offers_to_save(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """'quit' asks before leaving an unsaved match; 'y' saves to the default file."""
    monkeypatch.chdir(tmp_path)
    argv = ["play", "highcard", "--human", "0", "--bots", "random", "--seed", "6"]
    code, out, _ = run(monkeypatch, capsys, argv, ["1", "quit", "perhaps", "y"])
    assert code == 0
    assert "please answer y (save and leave), n (leave) or c (carry on)" in out
    saved = MatchRecord.load(tmp_path / "highcard-seed6.cardcore.json")
    assert saved.outcome is None
    assert saved.bots == ("human", "random")

    other = tmp_path / "other"
    other.mkdir()
    monkeypatch.chdir(other)
    code, out, _ = run(monkeypatch, capsys, argv, ["1", "quit", "n"])
    assert code == 0
    assert "y saves it to highcard-seed6.cardcore.json first" in out
    assert "Save before leaving? [Y/n/c] n\n" in out
    assert list(other.iterdir()) == []


def test_save_to_an_unwritable_place_is_explained(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A failed save says so in one line and the match goes on."""
    bad = tmp_path / "missing-dir" / "x.json"
    argv = ["play", "highcard", "--human", "0", "--bots", "random", "--dealer", "1"]
    code, out, _ = run(monkeypatch, capsys, argv, [f"save {bad}", *["1"] * 4])
    assert code == 0
    assert f"cannot save to {bad}" in complaint_after(out, "seat 0> ", f"save {bad}")
    assert "Game over" in out


# ---- hints ---------------------------------------------------------------------------


class _Last:
    """A stand-in heuristic: always the last legal action."""

    def __init__(self, game: object = None, *, seed: int = 0) -> None:
        self.seed = seed

    def act(self, observation: Any) -> Any:
        return observation.legal_actions[-1]


class _HeuristicPlugin:
    @hookimpl
    def cardcore_register_bots(self) -> Iterator[BotSpec]:
        yield BotSpec(name="highcard-heuristic", factory=_Last, games=("highcard",))


def test_hint_asks_the_heuristic_bot_when_there_is_one(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """'hint' names what ``<game>-heuristic`` would play, by number and text."""
    import cardcore.cli._common
    import cardcore_highcard.hooks

    host = PluginHost(load_entrypoints=False)
    host.register(cardcore_highcard.hooks.plugin, name="highcard")
    host.register(_HeuristicPlugin(), name="heuristic")
    monkeypatch.setattr(cardcore.cli._common, "_host", lambda: host)
    legal = first_legal(load_game("highcard"), 0, 2, 0, dealer=1)
    argv = ["play", "highcard", "--human", "0", "--bots", "random", "--dealer", "1", "--seed", "0"]
    code, out, _ = run(monkeypatch, capsys, argv, ["hint", "quit", "n"])
    assert code == 0
    assert f"hint (highcard-heuristic): {len(legal)}. {legal[-1]}" in out


def test_hint_falls_back_to_random(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without a heuristic bot for the game, the hint comes from ``random`` and is legal."""
    legal = first_legal(load_game("highcard"), 0, 2, 0, dealer=1)
    argv = ["play", "highcard", "--human", "0", "--bots", "random", "--dealer", "1", "--seed", "0"]
    code, out, _ = run(monkeypatch, capsys, argv, ["hint", "quit", "n"])
    assert code == 0
    m = re.search(r"hint \(random\): (\d+)\. (.+)\n", out)
    assert m is not None
    assert legal[int(m.group(1)) - 1] == m.group(2)


# ---- undo ----------------------------------------------------------------------------


def test_undo_is_exact(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Undo returns to the person's previous decision: the match ends as if never taken."""
    argv = ["play", "highcard", "--human", "0", "--bots", "random", "--seed", "8"]
    argv += ["--dealer", "1", "--record"]
    straight, undone = tmp_path / "a.json", tmp_path / "b.json"
    code, _, _ = run(monkeypatch, capsys, [*argv, str(straight)], ["2", *["1"] * 4])
    assert code == 0
    script = ["undo", "1", "1", "undo", "undo", "2", *["1"] * 4]
    code, out, _ = run(monkeypatch, capsys, [*argv, str(undone)], script)
    assert code == 0
    assert "nothing to undo" in complaint_after(out, "seat 0> ", "undo")
    assert out.count("taken back") == 2
    assert MatchRecord.load(straight) == MatchRecord.load(undone)
    for decision in (1, 3):
        views = re.findall(rf"Your turn, seat 0 \(decision {decision}\):\n((?:    .*\n)+)", out)
        assert len(views) >= 2
        assert views[0] == views[1], "undo shows that decision's table again"


# ---- several people, seats, options ------------------------------------------------------


def _seed_where_seat_0_leads_again() -> int:
    game = load_game("highcard")
    for seed in range(100):
        state = game.initial_state(2, seed, dealer=1)
        for _ in range(2):
            state = game.apply(state, game.legal_actions(state)[0])
        if game.current_player(state) == 0:
            return seed
    raise AssertionError("no such seed")


def test_hot_seat_keeps_each_persons_moves_private(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Two people share the screen: actions show as moves; undo never takes back another's."""
    seed = _seed_where_seat_0_leads_again()
    record = tmp_path / "r.json"
    argv = ["play", "highcard", "--human", "0", "--human", "1", "--dealer", "1"]
    argv += ["--seed", str(seed), "--record", str(record)]
    code, out, _ = run(monkeypatch, capsys, argv, ["1", "1", "undo", *["1"] * 6])
    assert code == 0
    assert "cannot undo: seat 1 (human) decided since" in complaint_after(out, "seat 0> ", "undo")
    rec = MatchRecord.load(record)
    assert rec.bots == ("human", "human")
    assert "Your turn, seat 1" in out
    # Moves are told from the onlookers' view: high card's played cards are face up.
    game = load_game("highcard")
    for step in replay(rec, game):
        assert f"seat {step.seat} (human) {past_tense(str(step.action))}" in out


@pytest.mark.parametrize(
    ("seed", "line"),
    [
        ([], "(a seed drawn at random: --seed 1234567 deals this match again)"),
        (["--seed", "1234567"], "(seed 1234567: --seed 1234567 deals this match again)"),
    ],
)
def test_hot_seat_shows_the_seed_only_when_the_match_is_over(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    seed: list[str],
    line: str,
) -> None:
    """Two people at one screen: the seed, which deals every hidden card, is not shown and
    names no save file until the match is over, and is shown then."""
    import secrets

    monkeypatch.setattr(secrets, "randbelow", lambda _n: 1234567)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "highcard-table.cardcore.json").write_text("another match's save\n")
    argv = ["play", "highcard", "--human", "0", "--human", "1", "--dealer", "1", *seed]
    code, out, _ = run(monkeypatch, capsys, argv, ["1", "save", *firsts(load_game("highcard"), 2)])
    assert code == 0
    before, over, after = out.partition("Game over")
    assert over
    assert "1234567" not in before
    assert "highcard: 2 players, preset default, the seed is shown when the match is over" in out
    assert "saved 1 decisions to highcard-table-2.cardcore.json" in before
    assert MatchRecord.load(tmp_path / "highcard-table-2.cardcore.json").seed == 1234567
    assert f"  {line}\n" in after


def test_one_person_sees_a_drawn_seed_only_when_the_match_is_left(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Alone against bots, a drawn seed (which deals every hidden card) is shown only once
    the person leaves the match, and saves are not named by it."""
    import secrets

    monkeypatch.setattr(secrets, "randbelow", lambda _n: 1234567)
    monkeypatch.chdir(tmp_path)
    argv = ["play", "highcard", "--human", "0", "--bots", "random", "--dealer", "1"]
    code, out, _ = run(monkeypatch, capsys, argv, ["save", "quit"])
    assert code == 0
    assert out.startswith(
        "highcard: 2 players, preset default, the seed is shown when the match is over\n"
    )
    before, left, after = out.partition("match left unfinished after 0 decisions.")
    assert left
    assert "1234567" not in before
    assert "to highcard-table.cardcore.json" in before
    assert MatchRecord.load(tmp_path / "highcard-table.cardcore.json").seed == 1234567
    assert "  (a seed drawn at random: --seed 1234567 deals this match again)\n" in after


def test_one_person_who_chose_the_seed_is_shown_it_at_the_start(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A seed given with --seed is the person's own: the header names it and saves use it."""
    monkeypatch.chdir(tmp_path)
    argv = ["play", "highcard", "--human", "0", "--bots", "random", "--seed", "77"]
    code, out, _ = run(monkeypatch, capsys, argv, ["save", "quit"])
    assert code == 0
    assert out.startswith("highcard: 2 players, preset default, seed 77\n")
    assert "to highcard-seed77.cardcore.json" in out
    assert "deals this match again" not in out


def test_bots_fill_the_other_seats_in_order_with_their_options(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``--bots`` fills the seats without ``--human`` in seat order; options are kept."""
    record = tmp_path / "r.json"
    argv = ["play", "highcard", "--human", "1", "--bots", "random,ismcts:iterations=3"]
    code, _, err = run(monkeypatch, capsys, [*argv, "--record", str(record)], ["1"] * 4)
    assert code == 0, err
    assert MatchRecord.load(record).bots == ("random", "human", "ismcts:iterations=3")


def test_verbose_draws_the_table_after_every_decision(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """With ``-v`` each decision is followed by the whole table from the person's seat."""
    argv = ["play", "highcard", "--human", "0", "--bots", "random", "-v", "--dealer", "1"]
    code, out, _ = run(monkeypatch, capsys, argv, ["1"] * 3)
    assert code == 0
    blocks = re.findall(r"(?:seat 1 \(random\)|seat 0 \(you\)) played .*\n    High card", out)
    assert len(blocks) == 6


def test_json_prints_the_outcome(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--json`` ends with the outcome as one JSON line."""
    argv = ["play", "highcard", "--human", "1", "--bots", "random", "--json"]
    code, out, _ = run(monkeypatch, capsys, argv, ["1"] * 3)
    assert code == 0
    data = json.loads(out.splitlines()[-1])
    assert data["bots"] == ["random", "human"]
    assert data["decisions"] == 6


# ---- resume errors -----------------------------------------------------------------------


def test_resume_refuses_what_it_cannot_continue(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A finished match, another game, seats given again, or unknown seats: one-line errors."""
    done = tmp_path / "done.json"
    argv = ["play", "highcard", "--human", "0", "--bots", "random", "--record", str(done)]
    assert run(monkeypatch, capsys, argv, ["1"] * 3)[0] == 0
    code, _, err = run(monkeypatch, capsys, ["play", "--resume", str(done)], [])
    assert code == 2
    assert "this match is over" in err

    part = tmp_path / "part.json"
    argv = ["play", "highcard", "--human", "0", "--bots", "random", "--dealer", "1"]
    assert run(monkeypatch, capsys, argv, [f"save {part}", "quit"])[0] == 0
    code, _, err = run(monkeypatch, capsys, ["play", "nyuri", "--resume", str(part)], [])
    assert code == 2
    assert "is a match of 'highcard', not 'nyuri'" in err
    code, _, err = run(monkeypatch, capsys, ["play", "--resume", str(part), "--human", "1"], [])
    assert code == 2
    assert "drop --human" in err

    nobody = tmp_path / "nobody.json"
    rec = MatchRecord.load(part)
    MatchRecord.from_json({**rec.to_json(), "bots": []}).save(nobody)
    code, _, err = run(monkeypatch, capsys, ["play", "--resume", str(nobody)], [])
    assert code == 2
    assert "field 'bots'" in err


def test_resume_of_a_bots_only_record_finishes_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A saved record whose seats are all bots just plays on to the end."""
    part = tmp_path / "part.json"
    argv = ["play", "highcard", "--human", "0", "--bots", "random", "--dealer", "1"]
    assert run(monkeypatch, capsys, argv, ["1", f"save {part}", "quit"])[0] == 0
    rec = MatchRecord.load(part)
    MatchRecord.from_json({**rec.to_json(), "bots": ["random", "random"]}).save(part)
    code, out, _ = run(monkeypatch, capsys, ["play", "--resume", str(part)], [])
    assert code == 0
    assert "Game over after 6 decisions" in out
    assert "seat 0>" not in out


# ---- the terminal ----------------------------------------------------------------------


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_colour_only_on_a_terminal_without_no_color() -> None:
    """Colour needs a terminal, no ``NO_COLOR`` and a capable ``TERM``; else plain text."""
    assert wants_color(_Tty(), {"TERM": "xterm"})
    assert not wants_color(_Tty(), {"TERM": "xterm", "NO_COLOR": "1"})
    assert not wants_color(_Tty(), {"TERM": "dumb"})
    assert not wants_color(io.StringIO(), {"TERM": "xterm"})
    assert wants_color(_Tty(), {"NO_COLOR": ""}), "an empty NO_COLOR does not count"

    out = _Tty()
    Terminal(io.StringIO(), out, environ={"TERM": "xterm"}).view("hand [10♥ 3♠ ?]")
    assert "\x1b[" in out.getvalue()
    assert re.sub(r"\x1b\[[0-9;]*m", "", out.getvalue()) == "    hand [10♥ 3♠ ?]\n"
    plain = _Tty()
    Terminal(io.StringIO(), plain, environ={"NO_COLOR": "1"}).view("hand [10♥ 3♠ ?]")
    assert plain.getvalue() == "    hand [10♥ 3♠ ?]\n"


def test_scripted_input_is_echoed_and_end_of_input_is_none() -> None:
    """Lines from a script are echoed after the prompt; the end of input reads as None."""
    out = io.StringIO()
    term = Terminal(io.StringIO("  play 10♥ \n"), out, color=False)
    assert term.ask("> ") == "play 10♥"
    assert term.ask("> ") is None
    assert out.getvalue() == "> play 10♥\n> \n"


def test_columns_and_changed_lines() -> None:
    """Choices are laid out column by column; a report shows only what changed."""
    items = [f"{i}. x" for i in range(1, 6)]
    assert columns(items, width=21) == ["1. x   3. x   5. x", "2. x   4. x"]
    assert columns(items, width=20) == ["1. x   4. x", "2. x   5. x", "3. x"]
    assert columns([], width=20) == []
    assert changed_lines("a\nb\nc", "a\nB\nc\nd") == ["B", "d"]


def test_plain_text_through_a_pipe() -> None:
    """A real process with piped input plays to the end and writes no colour codes."""
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    env["TERM"] = "xterm-256color"
    code = "from cardcore.cli import main; raise SystemExit(main())"
    proc = subprocess.run(
        [sys.executable, "-c", code, "play", "highcard", "--human", "0", "--bots", "random"],
        input="1\n" * 5,
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=env,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "Game over after 6 decisions" in proc.stdout
    assert "\x1b[" not in proc.stdout


@pytest.mark.parametrize("module", ["rich", "prompt_toolkit", "readline"])
def test_importing_cardcore_does_not_import_the_terminal_libraries(module: str) -> None:
    """The library and the CLI modules load without rich or a line editor; play imports them."""
    code = (
        "import sys, cardcore, cardcore.cli, cardcore.cli._human, cardcore.cli._human_text; "
        f"sys.exit({module!r} in sys.modules)"
    )
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0


def test_the_transcripts_in_the_docs_are_real(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Each ``$ cardcore ...`` transcript in docs/play.md is what that command prints today."""
    blocks = re.findall(r"```console\n\$ cardcore (.*?)\n(.*?)```", DOC.read_text("utf-8"), re.S)
    assert len(blocks) == 3
    monkeypatch.chdir(tmp_path)
    regen = os.environ.get("CARDCORE_REGEN_DOCS") == "1"  # rewrite the page from real runs
    text = DOC.read_text("utf-8")
    for command, transcript in blocks:
        typed = [m.group(1) for line in transcript.splitlines() if (m := PROMPT.match(line))]
        code, out, err = run(monkeypatch, capsys, shlex.split(command), typed)
        assert code == 0, err
        if regen:
            text = text.replace(
                f"$ cardcore {command}\n{transcript}", f"$ cardcore {command}\n{out}"
            )
            continue
        assert out == transcript, f"docs/play.md is out of date for: cardcore {command}"
    if regen:
        DOC.write_text(text, "utf-8")


class _Crasher:
    """A bot that fails on its first decision."""

    def __init__(self, game: object = None, *, seed: int = 0) -> None:
        self.seed = seed

    def act(self, observation: Any) -> Any:
        raise RuntimeError("out of ideas")


class _CrasherPlugin:
    @hookimpl
    def cardcore_register_bots(self) -> Iterator[BotSpec]:
        yield BotSpec(name="crasher", factory=_Crasher)


def test_a_failing_bot_forfeits_as_in_bot_matches(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A bot that raises loses the match; the person is told why and the record says so."""
    import cardcore.cli._common
    import cardcore_highcard.hooks

    host = PluginHost(load_entrypoints=False)
    host.register(cardcore_highcard.hooks.plugin, name="highcard")
    host.register(_CrasherPlugin(), name="crasher")
    monkeypatch.setattr(cardcore.cli._common, "_host", lambda: host)
    record = tmp_path / "r.json"
    # A bot registered here only: it plays in this process (its own could not build it).
    argv = ["play", "highcard", "--human", "0", "--bots", "crasher", "--dealer", "1"]
    argv += ["--isolation", "none"]
    code, out, _ = run(monkeypatch, capsys, [*argv, "--record", str(record)], ["1"])
    assert code == 0
    assert "Game over after 1 decision (seat 1 raised RuntimeError: out of ideas)." in out
    outcome = MatchRecord.load(record).outcome
    assert outcome is not None
    assert outcome.forfeit == 1
    assert outcome.winners == (0,)


def test_seats_without_a_person_need_bots(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--players 3`` with one ``--human`` and no ``--bots`` is a one-line error."""
    code, out, err = run(
        monkeypatch, capsys, ["play", "highcard", "--human", "0", "--players", "3"], []
    )
    assert code == 2
    assert out == ""
    assert "--bots needs at least one bot name" in err


def test_hot_seat_at_a_terminal_hands_over_the_keyboard(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """At a terminal, each change of person waits for Enter before showing a hand."""
    monkeypatch.setattr(sys, "stdin", _Tty("1\n" * 40))
    argv = ["play", "highcard", "--human", "0", "--human", "1", "--dealer", "1", "--seed", "0"]
    code = main([*argv, "--no-auto-forced"])
    out = capsys.readouterr().out
    assert code == 0
    assert "Game over after 6 decisions" in out
    handovers = re.findall(r"Seat (\d), your turn: press Enter", out)
    decisions = re.findall(r"Your turn, seat (\d) \(decision", out)
    assert handovers[0] == "0"
    assert len(handovers) >= 2
    assert len(decisions) == 6
    # A hand is only shown right after its owner's handover, never after another's.
    shown = re.findall(r"(Seat (\d), your turn: press|Your turn, seat (\d) \(decision)", out)
    owner = None
    for _, handover, decision in shown:
        if handover:
            owner = handover
        else:
            assert decision == owner


# ---- Ctrl-C, Ctrl-D and completion ---------------------------------------------------------


def _ctrl_c_on(monkeypatch: pytest.MonkeyPatch, key: str = "^C") -> None:
    """Make a scripted line ``^C`` act as Ctrl-C pressed at that prompt."""
    original = Terminal.ask

    def ask(self: Terminal, prompt: str, choices: Sequence[str] = ()) -> str | None:
        line = original(self, prompt, choices)
        if line == key:
            raise KeyboardInterrupt
        return line

    monkeypatch.setattr(Terminal, "ask", ask)


def test_ctrl_c_offers_to_save_or_carry_on_and_never_loses_the_match(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Ctrl-C asks as 'quit' does; 'c' plays on; Ctrl-C again at the question saves."""
    monkeypatch.chdir(tmp_path)
    _ctrl_c_on(monkeypatch)
    argv = ["play", "highcard", "--human", "0", "--bots", "random", "--seed", "8", "--dealer", "1"]
    code, out, _ = run(monkeypatch, capsys, argv, ["1", "^C", "c", "1", "^C", "^C"])
    assert code == 130
    assert out.count("Interrupted after 2 decisions.") == 1
    assert out.count("Interrupted after 4 decisions.") == 1
    assert out.count("y saves it to highcard-seed8.cardcore.json first") == 2
    assert out.count("Save before leaving? [Y/n/c] ") == 2
    # After 'c' the table is drawn again and the match goes on.
    assert out.split("[Y/n/c] c\n", 1)[1].startswith("\nYour turn, seat 0 (decision 3):")
    saved = MatchRecord.load(tmp_path / "highcard-seed8.cardcore.json")
    assert len(saved.actions) == 4
    assert saved.outcome is None
    assert "match left unfinished after 4 decisions" in out


def test_ctrl_c_with_nothing_to_lose_just_leaves(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Before any decision, or right after a save, Ctrl-C leaves without a question."""
    monkeypatch.chdir(tmp_path)
    _ctrl_c_on(monkeypatch)
    argv = ["play", "highcard", "--human", "0", "--bots", "random", "--dealer", "1", "--seed", "0"]
    code, out, _ = run(monkeypatch, capsys, argv, ["^C"])
    assert code == 130
    assert "before leaving?" not in out
    assert "match left unfinished after 0 decisions" in out
    assert list(tmp_path.iterdir()) == []
    code, out, _ = run(monkeypatch, capsys, argv, ["1", "save", "^C"])
    assert code == 130
    assert "before leaving?" not in out
    assert MatchRecord.load(tmp_path / "highcard-seed0.cardcore.json").actions


class _Interrupted:
    """A bot that is interrupted (Ctrl-C) in its first decision of the process."""

    pressed: bool = False

    def __init__(self, game: object = None, *, seed: int = 0) -> None:
        self.seed = seed

    def act(self, observation: Any) -> Any:
        if not _Interrupted.pressed:
            _Interrupted.pressed = True
            raise KeyboardInterrupt
        return observation.legal_actions[0]


class _InterruptedPlugin:
    @hookimpl
    def cardcore_register_bots(self) -> Iterator[BotSpec]:
        yield BotSpec(name="slow", factory=_Interrupted)


def test_ctrl_c_while_a_bot_thinks_loses_nothing(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Ctrl-C during a bot's turn asks the same; carrying on finishes a sound match."""
    import cardcore.cli._common
    import cardcore_highcard.hooks

    host = PluginHost(load_entrypoints=False)
    host.register(cardcore_highcard.hooks.plugin, name="highcard")
    host.register(_InterruptedPlugin(), name="slow")
    monkeypatch.setattr(cardcore.cli._common, "_host", lambda: host)
    monkeypatch.setattr(_Interrupted, "pressed", False)
    record = tmp_path / "r.json"
    # A bot registered here only: it plays in this process (its own could not build it).
    argv = ["play", "highcard", "--human", "0", "--bots", "slow", "--dealer", "1"]
    argv += ["--isolation", "none"]
    code, out, _ = run(monkeypatch, capsys, [*argv, "--record", str(record)], ["1", "c", "1", "1"])
    assert code == 0
    assert "Interrupted after 1 decisions." in out
    assert "Game over after 6 decisions" in out
    verify(MatchRecord.load(record))


def test_ctrl_d_at_a_terminal_is_quit(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """At a terminal the end of input (Ctrl-D) quits, and at the question saves."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "stdin", _Tty("1\n"))
    argv = ["play", "highcard", "--human", "0", "--bots", "random", "--dealer", "1", "--seed", "0"]
    code = main([*argv, "--no-auto-forced"])
    out = capsys.readouterr().out
    assert code == 0
    assert "Ctrl-D: leaving the match." in out
    assert "before leaving?" in out
    assert len(MatchRecord.load(tmp_path / "highcard-seed0.cardcore.json").actions) == 2


def test_completion_matches_actions_by_prefix_and_suit_letters() -> None:
    """Tab offers the choices that start with the typed text; suits may be letters."""
    choices = ["decline", "steal 9♥+3♣", "steal 9♥+4♥", "steal 10♦+3♣", "show", "steal 9♥+3♣"]
    assert matches("st", choices) == ["steal 9♥+3♣", "steal 9♥+4♥", "steal 10♦+3♣"]
    assert matches("steal 9h+3", choices) == ["steal 9♥+3♣"]
    assert matches("STEAL 10D", choices) == ["steal 10♦+3♣"]
    assert matches("", choices)[0] == "decline"
    assert matches("x", choices) == []
