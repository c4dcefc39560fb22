"""Box as a plugin: registration, options, presets and the game's metadata."""

from __future__ import annotations

import pytest

from cardcore import OptionError, PluginHost, load_bot, load_game, option_infos
from cardcore_box import PRESETS, Box, BoxHeuristic, BoxOptions


def test_registered_game_and_bot() -> None:
    """The entry point registers the game ``box`` and the bot ``box-heuristic``."""
    host = PluginHost()
    spec = host.game_spec("box")
    assert spec.title == "Box" and (spec.min_players, spec.max_players) == (4, 4)
    assert spec.distribution == "cardcore-box"
    assert set(spec.presets) == {"default", "pagat"}
    bot = host.bot_spec("box-heuristic")
    assert bot.games == ("box",)
    assert isinstance(load_bot("box-heuristic", load_game("box"), seed=3), BoxHeuristic)


def test_options_and_presets() -> None:
    """BX-7: one option, box_refill, with both values; pagat is replace_played."""
    (info,) = option_infos(BoxOptions)
    assert info.name == "box_refill" and info.default == "fill_to_four"
    assert info.choices == ("fill_to_four", "replace_played")
    assert PRESETS["default"] == BoxOptions()
    assert PRESETS["pagat"] == BoxOptions(box_refill="replace_played")
    g = load_game("box", preset="pagat")
    assert isinstance(g, Box) and g.options.box_refill == "replace_played"
    g = load_game("box", box_refill="replace_played")
    assert isinstance(g, Box) and g.options == PRESETS["pagat"]


def test_bad_options_are_refused() -> None:
    """Unknown options, values and presets are refused by name."""
    with pytest.raises(OptionError, match="box_refill"):
        load_game("box", box_refill="sometimes")
    with pytest.raises(OptionError, match="unknown option"):
        load_game("box", turn_limit=5)
    with pytest.raises(OptionError, match="unknown preset"):
        load_game("box", preset="historical")


def test_game_metadata() -> None:
    """Exactly four players, no teams, at most 52 decisions."""
    g = Box()
    assert (g.name, g.min_players, g.max_players) == ("box", 4, 4)
    assert g.teams(4) is None
    assert g.max_decisions(4) == 52


def test_hooks_module_declares_the_plugin() -> None:
    """The hooks module's ``Plugin`` record is what the entry point names."""
    from importlib import metadata

    from cardcore import CardcoreHooks, Plugin
    from cardcore_box.hooks import plugin

    hooks: CardcoreHooks = plugin
    assert isinstance(plugin, Plugin)
    assert [s.name for s in hooks.cardcore_register_games()] == ["box"]
    assert [b.name for b in hooks.cardcore_register_bots()] == ["box-heuristic"]
    (ep,) = [e for e in metadata.entry_points(group="cardcore") if e.name == "box"]
    assert ep.value == "cardcore_box.hooks:plugin" and ep.load() is plugin
