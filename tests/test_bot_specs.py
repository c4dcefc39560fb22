"""Bot specs: one parser for ``play``, ``arena`` and ``load_bot``; options declared and checked."""

from __future__ import annotations

import enum
import re
import sys
import textwrap
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

import pytest

from cardcore import BotSpec, PluginHost, hookimpl, load_bot, load_game, play_match
from cardcore._botspec import BotOption, bot_options, build_bot, parse_bot_spec
from cardcore.arena import run_arena
from cardcore.bots import ISMCTSBot, RandomBot
from cardcore.testing import ConformanceError, check_bot_options

TUTORIAL_BOT = """
class FirstLegal:
    name = "first-legal"

    def act(self, observation):
        return observation.legal_actions[0]


class NeedsDepth:
    def __init__(self, game, depth):
        self.depth = depth

    def act(self, observation):
        return observation.legal_actions[0]


class OnlyGame:
    def __init__(self, rules):
        self.rules = rules

    def act(self, observation):
        return observation.legal_actions[-1]
"""


@pytest.fixture
def tutorial_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A module written exactly as docs/tutorials/first-bot.md shows, importable by name."""
    name = f"tutorial_bots_{tmp_path.name.replace('-', '_')}"
    (tmp_path / f"{name}.py").write_text(textwrap.dedent(TUTORIAL_BOT))
    monkeypatch.syspath_prepend(str(tmp_path))
    yield name
    sys.modules.pop(name, None)


# ---- the parser ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "name", "options"),
    [
        ("random", "random", {}),
        ("ismcts:iterations=200:rollout=nyuri-heuristic", "ismcts", {"iterations": "200", "rollout": "nyuri-heuristic"}),
        ("pkg.mod:Bot", "pkg.mod:Bot", {}),
        (" pkg.mod:Outer.Inner:depth=2 ", "pkg.mod:Outer.Inner", {"depth": "2"}),
    ],
)  # fmt: skip
def test_parse_bot_spec_reads_ids_paths_and_options(
    text: str, name: str, options: dict[str, str]
) -> None:
    """Ids and import paths, each with ``:key=value`` options kept as text."""
    assert parse_bot_spec(text) == (name, options)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "has no name"),
        ("random:=3", "key=value"),
        ("ismcts:iterations=1:iterations=2", "given twice"),
    ],
)
def test_parse_bot_spec_rejects_malformed_entries(text: str, message: str) -> None:
    """Malformed entries are refused with the reason."""
    with pytest.raises(ValueError, match=message):
        parse_bot_spec(text)


def test_load_bot_takes_a_spec_string() -> None:
    """``load_bot("ismcts:iterations=5", game)`` reads the options of the spec."""
    game = load_game("highcard")
    bot = load_bot("ismcts:iterations=5:opponent_model=true", game, seed=1)
    assert isinstance(bot, ISMCTSBot)
    assert (bot.iterations, bot.opponent_model) == (5, True)
    with pytest.raises(ValueError, match="iterations given twice"):
        load_bot("ismcts:iterations=5", game, iterations=6)


# ---- the tutorial's bot everywhere --------------------------------------------------------


def test_a_zero_argument_bot_class_loads_by_import_path(tutorial_module: str) -> None:
    """The tutorial's class with no constructor is built with no arguments."""
    game = load_game("highcard")
    bot = load_bot(f"{tutorial_module}:FirstLegal", game, seed=3)
    assert type(bot).__name__ == "FirstLegal"
    rec = play_match(game, [bot, load_bot("random", game)], seed=1)
    assert rec.outcome is not None and rec.outcome.forfeit is None


def test_a_bot_taking_only_the_game_gets_it(tutorial_module: str) -> None:
    """A constructor with one required positional parameter receives the game."""
    game = load_game("highcard")
    bot = load_bot(f"{tutorial_module}:OnlyGame", game)
    assert bot.rules is game  # type: ignore[attr-defined]


def test_a_constructor_cardcore_cannot_fill_names_its_signature(tutorial_module: str) -> None:
    """``NeedsDepth(game, depth)`` without a depth: the error shows the signature."""
    game = load_game("highcard")
    with pytest.raises(ValueError, match=r"needs option\(s\) depth .*depth: any, required"):
        load_bot(f"{tutorial_module}:NeedsDepth", game)
    assert load_bot(f"{tutorial_module}:NeedsDepth:depth=3", game).depth == 3  # type: ignore[attr-defined]


def test_a_positional_only_parameter_is_refused_with_the_contract() -> None:
    """A second required positional-only parameter cannot be filled: the message says so."""

    def factory(game: object, depth: int, /) -> RandomBot:
        return RandomBot()

    with pytest.raises(ValueError, match=r"cannot build factory\(game: object, depth: int, /\)"):
        build_bot("f", factory, load_game("highcard"), seed=0, options={})


def test_the_arena_plays_the_tutorial_bot(tutorial_module: str, tmp_path: Path) -> None:
    """``run_arena`` accepts the zero-argument class by import path and plays it."""
    result = run_arena(
        "highcard",
        [f"{tutorial_module}:FirstLegal", "random"],
        games=2,
        workers=0,
        db=tmp_path / "a.sqlite",
    )
    assert result.errors == ()
    first = result.bots[0]
    assert first.bot == f"{tutorial_module}:FirstLegal"
    assert first.games == 4 and first.forfeits == 0


# ---- declared options --------------------------------------------------------------------


class Colour(enum.Enum):
    RED = "red"
    BLACK = "black"


class Typed:
    """A bot with one option of each kind the command line converts.

    Args:
        game: the rules.
        seed: its seed.
        depth: how far to look. More text here.
        budget: seconds, or none.
        style: how to play; another clause.
        colour: a colour.
        fast: whether to hurry.
    """

    def __init__(
        self,
        game: object = None,
        *,
        seed: int = 0,
        depth: int = 2,
        budget: float | None = None,
        style: Literal["safe", "bold"] = "safe",
        colour: Colour = Colour.RED,
        fast: bool = False,
    ) -> None:
        self.values = (depth, budget, style, colour, fast)

    def act(self, observation: Any) -> Any:
        return observation.legal_actions[0]


def test_options_come_from_the_signature() -> None:
    """Names, types, defaults and the docstring's first sentence, in signature order."""
    opts = bot_options(Typed)
    assert [o.describe() for o in opts] == [
        "depth: int = 2",
        "budget: float | None = None",
        "style: 'safe' | 'bold' = 'safe'",
        "colour: Colour = 'red'",
        "fast: bool = false",
    ]
    assert [o.doc for o in opts] == [
        "how far to look",
        "seconds, or none",
        "how to play",
        "a colour",
        "whether to hurry",
    ]
    assert bot_options(RandomBot) == ()
    assert "iterations" in {o.name for o in bot_options(ISMCTSBot)}


def test_command_line_text_is_converted_by_the_declared_type() -> None:
    """Each value is converted to its option's type."""
    game = load_game("highcard")
    text = {"depth": "4", "budget": "none", "style": "bold", "colour": "black", "fast": "yes"}
    bot = build_bot("typed", Typed, game, seed=0, options=text)
    assert bot.values == (4, None, "bold", Colour.BLACK, True)  # type: ignore[attr-defined]
    bot = build_bot("typed", Typed, game, seed=0, options={"budget": "1.5", "depth": 7})
    assert bot.values[:2] == (7, 1.5)  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"depth": "abc"}, "bot 'typed': depth must be an integer, not 'abc'"),
        ({"depth": "2.5"}, "depth must be an integer, not '2.5'"),
        ({"budget": "soon"}, "budget must be a number or none, not 'soon'"),
        ({"style": "wild"}, "style must be one of 'safe', 'bold', not 'wild'"),
        ({"colour": "green"}, "colour must be one of 'red', 'black', not 'green'"),
        ({"fast": "maybe"}, "fast must be true or false, not 'maybe'"),
        ({"deep": "3"}, "bot 'typed' has no option 'deep'; its options are: depth: int = 2, "),
    ],
)
def test_bad_option_values_are_named(options: dict[str, str], message: str) -> None:
    """A wrong value or an unknown option is one clear error."""
    with pytest.raises(ValueError, match=re.escape(message)):
        build_bot("typed", Typed, load_game("highcard"), seed=0, options=options)


def test_ismcts_options_are_checked() -> None:
    """``ismcts:iters=5`` names the bot's options; ``iterations=abc`` says what is wrong."""
    game = load_game("highcard")
    with pytest.raises(
        ValueError, match=r"has no option 'iters'; its options are: iterations: int \| None = None"
    ):
        load_bot("ismcts:iters=5", game)
    with pytest.raises(ValueError, match=r"iterations must be an integer or none, not 'abc'$"):
        load_bot("ismcts:iterations=abc", game)
    with pytest.raises(ValueError, match=r"iterations must be an integer or none, not 'abc'$"):
        load_bot("ismcts", game, iterations="abc")


def test_plugin_bot_options_are_checked_the_same_way() -> None:
    """A plugin's bot declares options by its factory's signature too."""
    mod = types.ModuleType("typedplugin")

    @hookimpl
    def cardcore_register_bots() -> Iterator[BotSpec]:
        yield BotSpec(name="typed", factory=Typed)

    mod.cardcore_register_bots = cardcore_register_bots  # type: ignore[attr-defined]
    host = PluginHost(load_entrypoints=False)
    host.register(mod)
    assert [o.name for o in host.bot_options("typed")] == [
        "depth", "budget", "style", "colour", "fast",
    ]  # fmt: skip
    with pytest.raises(ValueError, match="depth must be an integer, not 'x'"):
        host.load_bot("typed:depth=x", load_game("highcard"))


def test_bot_option_json_is_plain_data() -> None:
    """The listing's JSON form holds text and scalars only."""
    opt = BotOption(name="colour", type=Colour, default=Colour.RED)
    assert opt.to_json() == {
        "name": "colour",
        "type": "Colour",
        "default": "red",
        "required": False,
        "doc": "",
    }


# ---- the kit's check ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "bot", ["random", "box-heuristic", "nestors-heuristic", "noddy-heuristic", "nyuri-heuristic"]
)
def test_installed_bots_declare_their_options(bot: str) -> None:
    """Every installed game's bot, and ``random``, pass the kit's option check."""
    check_bot_options(bot)


def test_the_option_check_catches_undeclared_options() -> None:
    """``**kwargs``, untyped, untypable and required options are each reported."""

    class Sloppy:
        def __init__(  # type: ignore[no-untyped-def]
            self,
            game: object = None,
            *,
            seed: int = 0,
            depth=2,
            table: frozenset[int] = frozenset(),
            need: int,
            **extra: Any,
        ) -> None:
            pass

        def act(self, observation: Any) -> Any:
            return observation.legal_actions[0]

    with pytest.raises(ConformanceError, match=r"\[bot-options\] bot 'sloppy'") as info:
        check_bot_options(BotSpec(name="sloppy", factory=Sloppy))
    text = str(info.value)
    assert "**extra accepts any option" in text
    assert "option 'depth' has no type annotation" in text
    assert "option 'table' is declared as frozenset[int]" in text
    assert "option 'need' has no default" in text
    check_bot_options(Typed)  # a well-declared bot passes

    class PythonOnly:
        """An object option that defaults to None is for Python callers only: declared."""

        def __init__(
            self, game: object = None, *, seed: int = 0, hints: dict[str, int] | None = None
        ) -> None:
            pass

        def act(self, observation: Any) -> Any:
            return observation.legal_actions[0]

    check_bot_options(BotSpec(name="python-only", factory=PythonOnly))


def test_a_factory_that_makes_no_bot_is_refused_at_once(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """load_bot("os:getcwd") makes a str, not a bot: refused before any game is played."""
    from cardcore.cli import main

    game = load_game("highcard")
    with pytest.raises(ValueError, match=r"'os:getcwd' is no bot: it made str .*no act"):
        load_bot("os:getcwd", game)
    assert main(["play", "highcard", "--bots", "os:getcwd,random", "--seed", "1"]) == 2
    out, err = capsys.readouterr()
    assert "Game over" not in out
    assert "'os:getcwd' is no bot" in err


def test_options_that_cannot_be_text_are_not_offered_as_text() -> None:
    """ismcts's hints is a SearchHints: not listed as a text option, and text is refused clearly."""
    host = PluginHost()
    assert "hints" not in {o.name for o in host.bot_options("ismcts")}
    assert "iterations" in {o.name for o in host.bot_options("ismcts")}
    assert "hints" in {o.name for o in bot_options(ISMCTSBot)}  # still a Python option
    with pytest.raises(ValueError) as info:
        load_bot("ismcts:hints=foo", load_game("highcard"))
    message = str(info.value)
    assert "option 'hints' takes a SearchHints" in message
    assert "given in Python" in message
    assert "cannot be given as text (not 'foo') or none" not in message
    assert "hints:" not in message.split("its options are:", 1)[1]
