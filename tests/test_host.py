"""The plugin host: discovery, registration, conflicts and broken plugins."""

from __future__ import annotations

import types
from collections.abc import Iterator
from importlib import metadata

import pytest

from cardcore import BotSpec, GameSpec, PluginError, PluginHost, hookimpl, load_bot, load_game
from cardcore.bots import RandomBot
from cardcore_highcard.game import PRESETS, Highcard, HighcardOptions


def _games_module(name: str, game_name: str = "dup") -> types.ModuleType:
    mod = types.ModuleType(name)

    @hookimpl
    def cardcore_register_games() -> Iterator[GameSpec]:
        yield GameSpec(
            name=game_name,
            title="Dup",
            factory=Highcard,
            options_type=HighcardOptions,
            presets=PRESETS,
            min_players=2,
            max_players=4,
        )

    mod.cardcore_register_games = cardcore_register_games  # type: ignore[attr-defined]
    return mod


def test_isolated_host_has_only_builtins() -> None:
    """With entry points off, only cardcore's own bots are there."""
    host = PluginHost(load_entrypoints=False)
    assert list(host.games()) == []
    assert list(host.bots()) == ["ismcts", "pimc", "random"]


def test_installed_example_is_discovered_through_its_entry_point() -> None:
    """The highcard example, installed with pip, is found with its distribution and version."""
    host = PluginHost()
    spec = host.game_spec("highcard")
    assert spec.distribution == "cardcore-highcard"
    assert spec.version == metadata.version("cardcore-highcard")
    game = load_game("highcard", preset="quick")
    assert game.options.hand_size == 1


def test_programmatic_registration() -> None:
    """host.register(module) adds a plugin for notebooks and tests."""
    host = PluginHost(load_entrypoints=False)
    host.register(_games_module("mine", "mygame"))
    assert "mygame" in host.games()
    assert host.load_game("mygame").name == "highcard"


def test_duplicate_names_name_both_plugins() -> None:
    """Two plugins registering one name is an error that names both."""
    host = PluginHost(load_entrypoints=False)
    host.register(_games_module("first"))
    host.register(_games_module("second"))
    with pytest.raises(PluginError, match="'first' and 'second'"):
        host.games()


def test_a_plugin_whose_hook_raises_is_reported_not_fatal() -> None:
    """A broken plugin becomes a problem entry; other plugins still work."""
    bad = types.ModuleType("bad")

    @hookimpl
    def cardcore_register_games() -> Iterator[GameSpec]:
        raise RuntimeError("boom")

    bad.cardcore_register_games = cardcore_register_games  # type: ignore[attr-defined]
    host = PluginHost(load_entrypoints=False)
    host.register(bad)
    host.register(_games_module("good", "good"))
    assert "good" in host.games()
    assert any("boom" in p.error for p in host.problems)


def test_a_plugin_yielding_the_wrong_type_is_reported() -> None:
    """Hooks must yield GameSpec / BotSpec records."""
    bad = types.ModuleType("wrongtype")

    @hookimpl
    def cardcore_register_bots() -> Iterator[object]:
        yield "not a spec"

    bad.cardcore_register_bots = cardcore_register_bots  # type: ignore[attr-defined]
    host = PluginHost(load_entrypoints=False)
    host.register(bad)
    assert "random" in host.bots()
    assert any("not BotSpec" in p.error for p in host.problems)


def test_a_plugin_that_fails_to_import_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    """An entry point whose module cannot be imported shows up in problems."""
    ep = metadata.EntryPoint(name="ghost", value="no_such_module_xyz.hooks", group="cardcore")
    real = metadata.entry_points

    def fake(**kw: str) -> object:
        if kw.get("group") == "cardcore":
            return [*real(group="cardcore"), ep]
        return real(**kw)

    monkeypatch.setattr(metadata, "entry_points", fake)
    host = PluginHost()
    assert "highcard" in host.games()
    (problem,) = [p for p in host.problems if p.name == "ghost"]
    assert "ModuleNotFoundError" in problem.error


def test_unknown_names_list_what_is_installed() -> None:
    """Unknown game or bot ids give the installed ones."""
    with pytest.raises(PluginError, match=r"installed games: .*highcard"):
        load_game("nope")
    game = load_game("highcard")
    with pytest.raises(PluginError, match=r"installed bots: .*random"):
        load_bot("nope", game)


def test_bot_options_are_checked() -> None:
    """Unknown bot options give a clear error."""
    game = load_game("highcard")
    with pytest.raises(ValueError, match="bot 'random': bad options"):
        load_bot("random", game, depth=3)


def test_bot_spec_limited_to_some_games() -> None:
    """A bot registered for some games refuses others."""
    mod = types.ModuleType("onlynyuri")

    @hookimpl
    def cardcore_register_bots() -> Iterator[BotSpec]:
        yield BotSpec(name="picky", factory=RandomBot, games=("other",))

    mod.cardcore_register_bots = cardcore_register_bots  # type: ignore[attr-defined]
    host = PluginHost(load_entrypoints=False)
    host.register(mod)
    with pytest.raises(PluginError, match="plays other"):
        host.load_bot("picky", Highcard())
