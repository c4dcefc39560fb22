"""``cardcore rules GAME`` and ``rules`` in ``cardcore play``: the rules a plugin ships."""

from __future__ import annotations

import io
import sys
from collections.abc import Iterator

import attrs
import pytest

import cardcore.cli
import cardcore.cli._common
from cardcore import GameSpec, PluginHost, hookimpl
from cardcore.cli import main
from cardcore.cli._rules import format_rules

GAMES = ("highcard", "nyuri", "noddy", "box", "nestors")


def _words(text: str) -> list[str]:
    """The words of a text without Markdown marks, list markers or underlines."""
    words = (w.replace("*", "").replace("`", "") for w in text.split())
    return [w for w in words if w.strip("-#")]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("width", [40, 100])
def test_rules_are_printed_wrapped_at_word_boundaries(
    game: str, width: int, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every line fits the width (a lone long word excepted) and no word is cut in two."""
    assert main(["rules", game, "--width", str(width)]) == 0
    out = capsys.readouterr().out
    spec = cardcore.cli._host().game_spec(game)
    assert out.splitlines()[0] == spec.title
    for line in out.splitlines():
        assert len(line) <= width or " " not in line.strip(), line
    for preset in spec.presets:
        assert preset in out
    # The same words in the same order as the shipped text, the Markdown marks left out.
    assert _words(out)[len(spec.title.split()) :] == _words(spec.rules_text)


def test_markdown_prints_the_shipped_source(capsys: pytest.CaptureFixture[str]) -> None:
    """--markdown prints the text as the plugin ships it, under a title."""
    assert main(["rules", "nyuri", "--markdown"]) == 0
    out = capsys.readouterr().out
    spec = cardcore.cli._host().game_spec("nyuri")
    assert out == f"# Nyuri\n\n{spec.rules_text.rstrip()}\n"


def test_lists_keep_their_markers_and_indent_their_continuations() -> None:
    """A numbered item's second line starts under its first word; headings are underlined."""
    text = "### A turn\n\n1. **Lay.** one two three four five six seven\n- `x=y` and so on\n"
    out = format_rules(text, 20).splitlines()
    assert out[:2] == ["A turn", "------"]
    assert out[3].startswith("1. Lay. one")
    assert out[4].startswith("   ") and not out[4].startswith("    ")
    assert out[-1] == "- x=y and so on"


class _Bare:
    """A plugin whose one game is highcard under another name, without its rules text."""

    def __init__(self, spec: GameSpec) -> None:
        self.spec = attrs.evolve(spec, name="bare", rules_text="", distribution="", version="")

    @hookimpl
    def cardcore_register_games(self) -> Iterator[GameSpec]:
        yield self.spec


def _bare_host() -> PluginHost:
    host = PluginHost(load_entrypoints=False, builtins=False)
    host.register(_Bare(cardcore.cli._host().game_spec("highcard")), name="bare-plugin")
    return host


def test_a_game_without_rules_is_a_clear_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A game whose plugin ships no rules text says so, with exit 2; an unknown game too."""
    host = _bare_host()
    monkeypatch.setattr(cardcore.cli._common, "_host", lambda: host)
    assert main(["rules", "bare"]) == 2
    assert "game 'bare' ships no rules text" in capsys.readouterr().err
    assert main(["rules", "chess"]) == 2
    assert "chess" in capsys.readouterr().err


def test_rules_inside_play_shows_them(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Typing 'rules' at a decision shows the game's rules and leaves the decision open."""
    monkeypatch.setattr(sys, "stdin", io.StringIO("rules\nquit\nn\n"))
    code = main(["play", "highcard", "--human", "0", "--bots", "random", "--dealer", "1"])
    out = capsys.readouterr().out
    assert code == 0
    before, _, after = out.partition("Win more rounds than anyone else.")
    assert after, out
    assert before.rstrip().endswith("Aim\n---")
    assert "seat 0> " in after  # the decision is asked again
