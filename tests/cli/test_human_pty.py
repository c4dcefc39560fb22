"""Human play through a real pseudo-terminal, for every game.

Each test starts ``cardcore play GAME --human 0 --bots ...`` in a pty (pexpect), as a
person's terminal would, and types: numbers, action texts completed with Tab, history
with the Up key, Ctrl-C. What the person would read is the output with the terminal's
control sequences taken out. The pty answers the line editor's cursor-position requests
as a terminal does.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import pexpect
import pytest

from cardcore import MatchRecord, load_game, verify
from cardcore.cli._human_io import ascii_cards
from cardcore.cli._human_text import past_tense

_CONTROL = re.compile(
    r"\x1b\[[0-9;?<>=]*[ -/]*[@-~]"  # CSI: colours, cursor moves, erasing
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)"  # OSC: window titles
    r"|\x1b[()][0-9A-Za-z]|\x1b[=>78DEHMNOZc]"  # charsets, keypad modes, saves
)
_ACTION = re.compile(r"(?:^|\s)(\d+)\. (.+?)(?=\s{2,}\d+\. |$)", re.M)
_LIMIT = 60.0
"""Seconds to wait for one expected text before the test fails (a hung game)."""
_BOTS = {
    "box": "random,random,random",
    "noddy": "random",
    "nestors": "random,random,random",
    "nyuri": "random",
}


def _command() -> list[str]:
    script = Path(sys.executable).with_name("cardcore")
    if script.exists():
        return [str(script)]
    found = shutil.which("cardcore")
    if found:
        return [found]
    return [sys.executable, "-c", "from cardcore.cli import main; raise SystemExit(main())"]


class Pty:
    """One ``cardcore`` process at a pseudo-terminal, and what its screen has shown."""

    def __init__(self, args: Sequence[str], cwd: Path, *, width: int = 120) -> None:
        env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "COLUMNS", "LINES")}
        env["TERM"] = "xterm-256color"
        cmd = [*_command(), *args]
        self.child = pexpect.spawn(
            cmd[0], cmd[1:], cwd=str(cwd), env=env, dimensions=(50, width), encoding="utf-8"
        )
        self.raw = ""
        self.mark = 0
        """Where in :attr:`text` the next :meth:`wait` starts looking."""

    @property
    def text(self) -> str:
        """Everything shown so far, as plain text (control sequences removed)."""
        return _CONTROL.sub("", self.raw).replace("\r", "")

    def _read(self) -> bool:
        try:
            chunk = self.child.read_nonblocking(65536, timeout=0.1)
        except pexpect.TIMEOUT:
            return True
        except pexpect.EOF:
            return False
        requests = chunk.count("\x1b[6n")
        self.raw += chunk
        for _ in range(requests):  # a terminal answers where its cursor is
            self.child.send("\x1b[1;1R")
        return True

    def wait(self, pattern: str) -> re.Match[str]:
        """Read until ``pattern`` (a regex) shows after the mark; move the mark past it."""
        deadline = time.monotonic() + _LIMIT
        regex = re.compile(pattern, re.M)
        while True:
            m = regex.search(self.text, self.mark)
            if m is not None:
                self.mark = m.end()
                return m
            alive = self._read()
            if not alive or time.monotonic() > deadline:
                m = regex.search(self.text, self.mark)
                if m is not None:
                    self.mark = m.end()
                    return m
                tail = self.text[self.mark :][-3000:]
                raise AssertionError(f"{pattern!r} never showed; the screen ends with:\n{tail}")

    def prompt(self) -> str:
        """Wait for the next action prompt; return the table and choices shown before it."""
        start = self.mark
        m = self.wait(r"^seat 0> ")
        return self.text[start : m.start()]

    def send(self, keys: str) -> None:
        """Type keys (``\\r`` is Enter, ``\\t`` is Tab, ``\\x03`` is Ctrl-C)."""
        self.child.send(keys)

    def finish(self) -> int:
        """Wait for the process to end; its exit status."""
        deadline = time.monotonic() + _LIMIT
        while self._read():
            if time.monotonic() > deadline:
                raise AssertionError("the process did not end:\n" + self.text[-2000:])
        self.child.close()
        assert self.child.exitstatus is not None, self.text[-2000:]
        return int(self.child.exitstatus)


def _choices(table: str) -> list[str]:
    """The numbered legal actions drawn before a prompt, in order."""
    block = table.rsplit("(decision", 1)[-1]
    found = {int(n): text.strip() for n, text in _ACTION.findall(block)}
    return [found[k] for k in sorted(found)]


def _complete_one(pty: Pty, choices: Sequence[str]) -> str:
    """Type an action by its keyboard spelling short of its last key, Tab, and Enter.

    What was typed (``play 8`` for ``play 8♦``, ``turn u`` for ``turn up``) is no
    action, so the move is played only if Tab completed it.
    """
    for action in choices:
        typed = ascii_cards(action)[:-1].lower()
        rivals = [c for c in choices if ascii_cards(c).lower().startswith(typed)]
        if rivals == [action]:
            break
    else:
        raise AssertionError(f"no action with a unique prefix among {choices}")
    pty.send(typed + "\t")
    pty.wait(re.escape(action))  # completed (and offered in the menu)
    pty.send("\r")
    pty.wait(r"^seat 0 \(you\) " + re.escape(past_tense(action)) + "$")
    return action


def _check_moves_named(text: str) -> None:
    """Other seats' moves read as what they did; no line says just 'made a move'."""
    assert "made a move" not in text
    assert re.search(r"^seat [1-3] \(random\) [a-z]+ ", text, re.M) or re.search(
        r"^seat [1-3] \(random\) [a-z]+$", text, re.M
    ), "no move of another seat was told"


def _ctrl_c_question(pty: Pty) -> None:
    pty.send("\x03")
    pty.wait(r"Interrupted after \d+ decisions\.")
    pty.wait(r"Save before leaving\? \[Y/n/c\] ")


@pytest.mark.parametrize("name", ["box", "noddy"])
def test_a_whole_match_at_a_terminal(name: str, tmp_path: Path) -> None:
    """Play to the end by typing: Tab completion, history, Ctrl-C then carry on."""
    load_game(name)
    record = tmp_path / "done.json"
    args = ["play", name, "--human", "0", "--bots", _BOTS[name], "--seed", "2"]
    pty = Pty([*args, "--record", str(record)], tmp_path)

    table = pty.prompt()
    assert "Your turn, seat 0 (decision" in table
    _complete_one(pty, _choices(table))

    # 'help', then Up and Enter at the next prompt: the same line again, from history.
    pty.prompt()
    pty.send("help\r")
    pty.wait(r"Tab +complete an action")
    pty.wait(r"^seat 0> ")
    pty.send("\x1b[A")
    pty.wait(r"help")  # the line again
    pty.send("\r")
    pty.wait(r"Tab +complete an action")

    # Ctrl-C offers to save; 'c' carries on with the same decision, drawn again.
    _ctrl_c_question(pty)
    pty.send("c\r")
    table = pty.prompt()
    assert "Your turn, seat 0 (decision" in table
    pty.send("1\r")

    while True:
        m = pty.wait(r"^(seat 0> |Game over after \d+ decisions)")
        if m.group(1).startswith("Game over"):
            break
        pty.send("1\r")
    assert pty.finish() == 0
    text = pty.text
    _check_moves_named(text)
    assert "Final table:" in text
    done = MatchRecord.load(record)
    assert done.outcome is not None
    verify(done)
    if name == "box":  # this seed ends with cards still in a box: shown at last
        hands = text.split("Every hand at the end:", 1)[1]
        for seat in range(4):
            assert re.search(rf"seat {seat} \((you|random)\): hand .*; box ", hands)
    # The game's own list of legal actions is not drawn besides the numbered one.
    assert "your move:" not in text
    assert "legal:" not in text


@pytest.mark.parametrize("name", ["nestors", "nyuri"])
def test_some_moves_then_ctrl_c_saves(name: str, tmp_path: Path) -> None:
    """Play a few moves (one by Tab), then Ctrl-C and 'y': the match is saved, resumable."""
    load_game(name)
    args = ["play", name, "--human", "0", "--bots", _BOTS[name], "--seed", "3"]
    pty = Pty(args, tmp_path)
    table = pty.prompt()
    _complete_one(pty, _choices(table))
    for _ in range(3):
        pty.prompt()
        pty.send("1\r")
    pty.prompt()
    _ctrl_c_question(pty)
    pty.send("y\r")
    saved_line = pty.wait(r"saved (\d+) decisions to (\S+) ")
    pty.wait(r"match left unfinished after \d+ decisions\.")
    assert pty.finish() == 130, "leaving with Ctrl-C exits as a shell expects (130)"
    _check_moves_named(pty.text)
    saved = MatchRecord.load(tmp_path / saved_line.group(2))
    assert len(saved.actions) == int(saved_line.group(1)) > 4
    assert saved.outcome is None
    assert saved.bots[0] == "human"


def test_ctrl_c_twice_saves_and_ctrl_d_quits(tmp_path: Path) -> None:
    """A second Ctrl-C at the question saves and leaves; Ctrl-D at a prompt is 'quit'."""
    args = ["play", "nyuri", "--human", "0", "--bots", "random", "--seed", "4"]
    pty = Pty(args, tmp_path)
    pty.prompt()
    pty.send("1\r")
    pty.prompt()
    _ctrl_c_question(pty)
    pty.send("\x03")
    pty.wait(r"saved \d+ decisions to nyuri-seed4\.cardcore\.json")
    assert pty.finish() == 130
    first = MatchRecord.load(tmp_path / "nyuri-seed4.cardcore.json")

    pty = Pty(["play", "--resume", "nyuri-seed4.cardcore.json"], tmp_path)
    pty.wait(rf"resumed after {len(first.actions)} decisions")
    pty.prompt()
    pty.send("1\r")
    pty.prompt()
    pty.send("\x04")
    pty.wait(r"Ctrl-D: leaving the match\.")
    pty.wait(r"before leaving\? ")
    pty.send("n\r")
    pty.wait(r"match left unfinished")
    assert pty.finish() == 0
    again = MatchRecord.load(tmp_path / "nyuri-seed4.cardcore.json")
    assert again == first, "'n' left the saved file as it was"


def _first_table(pty: Pty) -> str:
    """The text up to the first prompt."""
    return pty.prompt()


def _leave(pty: Pty) -> int:
    """Quit without saving; the exit status."""
    pty.send("quit\r")
    m = pty.wait(r"(before leaving\? |match left unfinished)")
    if m.group(1).startswith("before"):
        pty.send("n\r")
        pty.wait(r"match left unfinished")
    return pty.finish()


def test_without_a_seed_each_match_is_a_new_deal_with_its_seed_shown(tmp_path: Path) -> None:
    """No --seed: a seed is drawn, shown only when the person leaves (it deals every hidden
    card), and --seed with it deals that match again."""
    args = ["play", "nyuri", "--human", "0", "--bots", "random", "--no-auto-forced"]
    seeds: list[int] = []
    tables: list[str] = []
    for _ in range(2):
        pty = Pty(args, tmp_path)
        pty.wait(r"the seed is shown when the match is over\n")
        tables.append(_first_table(pty))
        assert "drawn at random" not in pty.text
        assert _leave(pty) == 0
        m = re.search(
            r"match left unfinished after \d+ decisions\.\n"
            r"  \(a seed drawn at random: --seed (\d+) deals this match again\)",
            pty.text,
        )
        assert m is not None, pty.text
        seeds.append(int(m.group(1)))
    assert seeds[0] != seeds[1], "two matches without --seed were dealt the same seed"

    pty = Pty([*args, "--seed", str(seeds[0])], tmp_path)
    pty.wait(rf"seed {seeds[0]}\n")
    again = _first_table(pty)
    assert _leave(pty) == 0
    assert "drawn at random" not in pty.text
    assert again.strip() == tables[0].strip()


def test_save_never_overwrites_another_file_unasked(tmp_path: Path) -> None:
    """'save' names a new file beside an older save; 'save FILE' asks before overwriting."""
    old = tmp_path / "highcard-seed5.cardcore.json"
    old.write_text("an older match\n", encoding="utf-8")
    args = ["play", "highcard", "--human", "0", "--bots", "random", "--seed", "5"]
    pty = Pty(args, tmp_path)
    pty.prompt()
    pty.send("save\r")
    pty.wait(r"saved 0 decisions to highcard-seed5-2\.cardcore\.json ")
    pty.prompt()
    pty.send("save highcard-seed5.cardcore.json\r")
    pty.wait(r"highcard-seed5\.cardcore\.json is there already: overwrite it\? \[y/N\] ")
    pty.send("n\r")
    pty.wait(r"not saved: highcard-seed5\.cardcore\.json is left as it was")
    pty.prompt()
    pty.send("1\r")
    pty.prompt()
    pty.send("save\r")  # its own file again: no question
    pty.wait(r"saved \d+ decisions to highcard-seed5-2\.cardcore\.json ")
    pty.prompt()
    assert _leave(pty) == 0
    assert old.read_text(encoding="utf-8") == "an older match\n"
    assert "overwrite" not in pty.text.rsplit("not saved", 1)[1]
    saved = MatchRecord.load(tmp_path / "highcard-seed5-2.cardcore.json")
    assert saved.seed == 5 and saved.outcome is None and saved.actions


def test_long_lines_wrap_at_word_boundaries_to_the_terminal_width(tmp_path: Path) -> None:
    """At 60 columns no line is longer, and no word (``seat``) is cut in two."""
    width = 60
    args = ["play", "nestors", "--human", "0", "--bots", _BOTS["nestors"], "--seed", "1"]
    pty = Pty(args, tmp_path, width=width)
    table = pty.prompt()
    pty.send("help\r")
    pty.wait(r"Ctrl-D +the same as quit")
    pty.prompt()
    assert _leave(pty) == 0
    text = pty.text
    long = [line for line in text.splitlines() if len(line) > width]
    assert not long, f"lines longer than the terminal's {width} columns: {long}"
    flat = " ".join(table.split())
    assert "you: seat 0, partner seat 2" in flat
    game = load_game("nestors")
    first = game.render(game.observe(game.initial_state(4, 1), 0)).splitlines()[0]
    assert " ".join(first.split()) in flat, "the long first line lost or split a word"
    help_text = " ".join(text.split("Choose an action by its number", 1)[1].split())
    assert "a file that is there already is overwritten only if you say so" in help_text


def _hand_and_actions(table: str) -> tuple[list[str], list[str]]:
    hand = re.search(r"your hand: (.+)$", table, re.M)
    assert hand is not None, table
    cards = hand.group(1).split()
    played = [c.removeprefix("play ") for c in _choices(table) if c.startswith("play ")]
    return cards, played


def test_the_hand_and_the_numbered_actions_are_in_one_order(tmp_path: Path) -> None:
    """Noddy's hand is drawn 9♣ Q♥ K♣; its plays are numbered in that order, not the rules'."""
    game = load_game("noddy")
    state = game.initial_state(2, 1)
    while game.current_player(state) != 0 or len(game.legal_actions(state)) < 3:
        state = game.apply(state, game.legal_actions(state)[0])
    rules_order = [str(a) for a in game.legal_actions(state)]
    assert rules_order == ["play 9♣", "play K♣", "play Q♥"]  # what the person was shown

    # A bot of cardcore's own: with an import-path bot, --seed is dealt with a secret.
    args = ["play", "noddy", "--human", "0", "--bots", "random", "--seed", "1"]
    pty = Pty([*args, "--no-auto-forced"], tmp_path)
    while True:
        table = pty.prompt()
        if sum(c.startswith("play ") for c in _choices(table)) >= 2:
            break
        pty.send("1\r")
    hand, played = _hand_and_actions(table)
    assert hand == ["9♣", "Q♥", "K♣"]
    assert played == hand, f"hand {hand}, actions {played}"
    pty.send("2\r")  # the second card of the hand
    pty.wait(r"^seat 0 \(you\) played Q♥$")
    assert _leave(pty) == 0


def test_forced_moves_play_themselves_and_a_thinking_bot_is_shown(tmp_path: Path) -> None:
    """A lone legal action is played and said; --no-auto-forced asks; bots show thinking."""
    args = ["play", "noddy", "--human", "0", "--bots", "random", "--seed", "1"]
    pty = Pty(args, tmp_path)
    pty.wait(r"^seat 0 \(you\) passed \(the only legal action, played for you\)$")
    table = pty.prompt()
    assert len(_choices(table)) > 1
    assert _leave(pty) == 0
    assert re.search(r"seat 1 \(random\) is thinking\.\.\.", pty.text)

    pty = Pty([*args, "--no-auto-forced"], tmp_path)
    table = pty.prompt()
    assert _choices(table) == ["pass"]
    pty.send("1\r")
    pty.wait(r"^seat 0 \(you\) passed$")
    pty.prompt()
    assert _leave(pty) == 0


def test_ctrl_c_with_nothing_to_lose_exits_130(tmp_path: Path) -> None:
    """Ctrl-C at the first prompt leaves at once, with the exit status of an interrupt."""
    args = ["play", "highcard", "--human", "0", "--bots", "random", "--seed", "8", "--dealer", "1"]
    pty = Pty(args, tmp_path)
    assert "(decision 1)" in pty.prompt()
    pty.send("\x03")
    pty.wait(r"match left unfinished after \d+ decisions\.")
    assert pty.finish() == 130
