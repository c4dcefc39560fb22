"""The plugin host: discovery, registration, conflicts and broken plugins."""

from __future__ import annotations

import types
from collections.abc import Iterator
from importlib import metadata

import pytest

from cardcore import BotSpec, GameSpec, PluginError, PluginHost, hookimpl, load_bot, load_game
from cardcore.bots import RandomBot
from cardcore_highcard import PRESETS, Highcard, HighcardOptions


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
    assert list(host.bots()) == ["ismcts", "llm", "pimc", "random"]


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


def test_duplicate_names_refuse_only_that_id_and_name_both_plugins() -> None:
    """Two plugins registering one id: that id is refused naming both; the rest works."""
    host = PluginHost(load_entrypoints=False, prefer={})
    host.register(_games_module("first"))
    host.register(_games_module("second"))
    host.register(_games_module("third", "other"))
    assert list(host.games()) == ["other"]
    assert host.load_game("other").name == "highcard"
    with pytest.raises(PluginError, match=r"'first'.* and .*'second'.*refused"):
        host.game_spec("dup")
    with pytest.raises(LookupError, match="registered by"):
        load_game("dup", host=host)
    (conflict,) = host.conflicts
    assert (conflict.kind, conflict.name, conflict.resolved) == ("game", "dup", False)
    assert conflict.providers == ("plugin 'first'", "plugin 'second'")


def test_prefer_chooses_the_provider_of_a_contested_id() -> None:
    """``prefer={id: plugin or distribution}`` picks one provider and records the choice."""
    host = PluginHost(load_entrypoints=False, prefer={"dup": "second"})
    host.register(_games_module("first"))
    host.register(_games_module("second"))
    assert "dup" in host.games()
    (conflict,) = host.conflicts
    assert conflict.resolved and conflict.chosen == "plugin 'second'"
    assert "using plugin 'second'" in conflict.message()


def test_prefer_that_names_no_provider_still_refuses() -> None:
    """A preference naming neither provider does not pick one at random."""
    host = PluginHost(load_entrypoints=False, prefer={"dup": "nobody"})
    host.register(_games_module("first"))
    host.register(_games_module("second"))
    assert "dup" not in host.games()
    assert not host.conflicts[0].resolved


def test_prefer_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """CARDCORE_PREFER=id=dist,... is read when prefer is not given; junk is a problem."""
    monkeypatch.setenv("CARDCORE_PREFER", "dup=first, junk")
    host = PluginHost(load_entrypoints=False)
    host.register(_games_module("first"))
    host.register(_games_module("second"))
    assert host.conflicts[0].chosen == "plugin 'first'"
    assert any(p.name == "CARDCORE_PREFER" and "'junk'" in p.error for p in host.problems)
    ignoring = PluginHost(load_entrypoints=False, prefer={})
    ignoring.register(_games_module("first"))
    ignoring.register(_games_module("second"))
    assert "dup" not in ignoring.games()


def test_duplicate_bot_id_refuses_only_that_bot() -> None:
    """A plugin registering a second ``random`` leaves the other bots usable."""
    mod = types.ModuleType("twin")

    @hookimpl
    def cardcore_register_bots() -> Iterator[BotSpec]:
        yield BotSpec(name="random", factory=RandomBot)
        yield BotSpec(name="twin-only", factory=RandomBot)

    mod.cardcore_register_bots = cardcore_register_bots  # type: ignore[attr-defined]
    host = PluginHost(load_entrypoints=False, prefer={})
    host.register(mod)
    assert "random" not in host.bots()
    assert {"ismcts", "pimc", "twin-only"} <= set(host.bots())
    with pytest.raises(PluginError, match=r"cardcore \(plugin 'cardcore-builtins'\) and plugin"):
        host.load_bot("random", Highcard())
    assert host.load_bot("twin-only", Highcard()) is not None
    chosen = PluginHost(load_entrypoints=False, prefer={"random": "cardcore"})
    chosen.register(mod)
    assert chosen.bots()["random"].distribution == "cardcore"


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


@pytest.mark.parametrize(
    "garbage",
    [42, "nyuri", [None], [GameSpec], None],
    ids=["int", "str", "list-of-none", "list-of-class", "none"],
)
def test_a_hook_returning_garbage_is_reported_not_fatal(garbage: object) -> None:
    """Whatever a hook returns, the host reports it and the other plugins keep working."""
    bad = types.ModuleType("garbage")

    @hookimpl
    def cardcore_register_games() -> object:
        return garbage

    bad.cardcore_register_games = cardcore_register_games  # type: ignore[attr-defined]
    host = PluginHost(load_entrypoints=False)
    host.register(bad)
    host.register(_games_module("good", "good"))
    assert list(host.games()) == ["good"]
    assert "random" in host.bots()
    if garbage is not None:  # returning None registers nothing, like an empty list
        (problem,) = host.problems
        assert problem.name == "garbage" and problem.error.startswith("register: TypeError")


@pytest.mark.parametrize("bad_id", [42, "", None])
def test_a_spec_with_a_bad_id_is_reported(bad_id: object) -> None:
    """A record whose id is not a non-empty string is a problem of its plugin only."""
    bad = types.ModuleType("badid")

    @hookimpl
    def cardcore_register_bots() -> Iterator[BotSpec]:
        yield BotSpec(name=bad_id, factory=RandomBot)  # type: ignore[arg-type]

    bad.cardcore_register_bots = cardcore_register_bots  # type: ignore[attr-defined]
    host = PluginHost(load_entrypoints=False)
    host.register(bad)
    assert list(host.bots()) == ["ismcts", "llm", "pimc", "random"]
    assert "not a non-empty string" in host.problems[0].error


def test_a_plugin_yielding_one_id_twice_is_reported() -> None:
    """One plugin giving the same id twice is its own bug, reported against it."""
    bad = types.ModuleType("twice")

    @hookimpl
    def cardcore_register_bots() -> Iterator[BotSpec]:
        yield BotSpec(name="again", factory=RandomBot)
        yield BotSpec(name="again", factory=RandomBot)

    bad.cardcore_register_bots = cardcore_register_bots  # type: ignore[attr-defined]
    host = PluginHost(load_entrypoints=False)
    host.register(bad)
    assert "again" not in host.bots() and not host.conflicts
    assert "yielded the id 'again' twice" in host.problems[0].error


def test_a_misspelt_hook_is_reported() -> None:
    """A hookimpl whose name is not a cardcore hook would be silently ignored: it is reported."""
    typo = types.ModuleType("typo")

    @hookimpl
    def cardcore_register_game() -> Iterator[GameSpec]:
        yield from ()

    typo.cardcore_register_game = cardcore_register_game  # type: ignore[attr-defined]
    host = PluginHost(load_entrypoints=False)
    host.register(typo)
    (problem,) = host.problems
    assert problem.name == "typo"
    assert problem.error.startswith("cardcore_register_game is not a cardcore hook")
    assert "cardcore_register_games" in problem.error


def test_a_hook_with_a_wrong_signature_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    """An installed plugin whose hook takes arguments the spec does not have is reported."""
    wrong = types.ModuleType("wrongsig")

    @hookimpl
    def cardcore_register_games(host: object) -> Iterator[GameSpec]:
        yield from ()

    wrong.cardcore_register_games = cardcore_register_games  # type: ignore[attr-defined]

    class _EP:
        name = "wrongsig"
        dist = None

        def load(self) -> types.ModuleType:
            return wrong

    real = metadata.entry_points
    monkeypatch.setattr(
        metadata,
        "entry_points",
        lambda **kw: [*real(**kw), _EP()] if kw.get("group") == "cardcore" else real(**kw),
    )
    host = PluginHost()
    assert "highcard" in host.games()
    (problem,) = [p for p in host.problems if p.name == "wrongsig"]
    assert "PluginValidationError" in problem.error


def test_a_plugin_calling_sys_exit_is_reported_not_fatal(monkeypatch: pytest.MonkeyPatch) -> None:
    """``sys.exit`` at import or in a hook ends neither the host nor the program."""
    exits = types.ModuleType("exits")

    @hookimpl
    def cardcore_register_bots() -> Iterator[BotSpec]:
        raise SystemExit(3)

    exits.cardcore_register_bots = cardcore_register_bots  # type: ignore[attr-defined]

    class _EP:
        name = "exits-at-import"
        dist = None

        def load(self) -> types.ModuleType:
            raise SystemExit("bye")

    real = metadata.entry_points
    monkeypatch.setattr(
        metadata,
        "entry_points",
        lambda **kw: [*real(**kw), _EP()] if kw.get("group") == "cardcore" else real(**kw),
    )
    host = PluginHost()
    host.register(exits)
    assert "highcard" in host.games() and "random" in host.bots()
    errors = {p.name: p.error for p in host.problems}
    assert errors["exits-at-import"] == "SystemExit: bye"
    assert errors["exits"] == "register: SystemExit: 3"


def test_a_hook_that_never_ends_is_cut_off() -> None:
    """A hook yielding for ever is stopped after MAX_RECORDS and reported."""
    endless = types.ModuleType("endless")

    @hookimpl
    def cardcore_register_bots() -> Iterator[BotSpec]:
        k = 0
        while True:
            k += 1
            yield BotSpec(name=f"bot-{k}", factory=RandomBot)

    endless.cardcore_register_bots = cardcore_register_bots  # type: ignore[attr-defined]
    host = PluginHost(load_entrypoints=False)
    host.register(endless)
    assert list(host.bots()) == ["ismcts", "llm", "pimc", "random"]
    assert "yielded more than 1000 records" in host.problems[0].error


def test_a_plugin_that_fails_half_way_registers_nothing() -> None:
    """A hook that yields one game and then raises adds none of its games."""
    bad = types.ModuleType("halfway")

    @hookimpl
    def cardcore_register_games() -> Iterator[GameSpec]:
        yield from _games_module("x", "half").cardcore_register_games()
        raise RuntimeError("boom")

    bad.cardcore_register_games = cardcore_register_games  # type: ignore[attr-defined]
    host = PluginHost(load_entrypoints=False)
    host.register(bad)
    assert "half" not in host.games()
    assert "boom" in host.problems[0].error


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
    """Unknown bot options give a clear error naming the options the bot has."""
    game = load_game("highcard")
    with pytest.raises(ValueError, match="bot 'random' has no option 'depth'; it takes no options"):
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


def _highcard_spec(name: str) -> GameSpec:
    return GameSpec(
        name=name,
        title="Declared",
        factory=Highcard,
        options_type=HighcardOptions,
        presets=PRESETS,
        min_players=2,
        max_players=4,
    )


def test_a_plugin_record_registers_what_it_declares() -> None:
    """cardcore.Plugin(...) stands for the hook functions: games, bots, codecs, hints."""
    from cardcore import CodecSpec, Plugin, SearchHints

    plugin = Plugin(
        games=[_highcard_spec("declared")],
        bots=[BotSpec(name="declared-random", factory=RandomBot, games=("declared",))],
        codecs=[CodecSpec(game="declared", factory=lambda game, n: None)],
        search_hints=[SearchHints(game="declared", rollout="declared-random")],
    )
    host = PluginHost(load_entrypoints=False)
    host.register(plugin, name="declared")
    assert host.problems == ()
    assert host.game_spec("declared").title == "Declared"
    assert "declared-random" in host.bots()
    assert "declared" in host.codecs()
    assert host.search_hints()["declared"].rollout == "declared-random"
    assert Plugin() != Plugin() and len({Plugin(), Plugin()}) == 2, "hashed by identity"


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("games", "highcard", "takes a list of GameSpec records"),
        ("bots", [1], "takes BotSpec records, not int"),
        ("codecs", None, "takes a list of CodecSpec records"),
        ("search_hints", [object()], "takes SearchHints records, not object"),
    ],
)
def test_a_plugin_record_refuses_the_wrong_records(field: str, value: object, message: str) -> None:
    from cardcore import Plugin

    with pytest.raises(TypeError, match=message):
        Plugin(**{field: value})  # type: ignore[arg-type]


def test_an_entry_point_naming_a_plugin_record_is_loaded(monkeypatch: pytest.MonkeyPatch) -> None:
    """``name = "package.hooks:plugin"`` loads the record; doctor shows where it came from."""
    from cardcore import Plugin

    mod = types.ModuleType("cardcore_declared_hooks")
    mod.plugin = Plugin(games=[_highcard_spec("declared")])  # type: ignore[attr-defined]
    monkeypatch.setitem(__import__("sys").modules, "cardcore_declared_hooks", mod)
    ep = metadata.EntryPoint(
        name="declared", value="cardcore_declared_hooks:plugin", group="cardcore"
    )
    real = metadata.entry_points
    monkeypatch.setattr(
        metadata,
        "entry_points",
        lambda **kw: [*real(**kw), ep] if kw.get("group") == "cardcore" else real(**kw),
    )
    host = PluginHost()
    assert host.problems == ()
    assert "declared" in host.games() and "highcard" in host.games()
    (info,) = [p for p in host.plugins if p.name == "declared"]
    assert info.module == "cardcore_declared_hooks:plugin"


def test_an_unhashable_plugin_object_is_reported_not_fatal(monkeypatch: pytest.MonkeyPatch) -> None:
    """pluggy keeps plugins in a set: an unhashable object must not break every plugin."""

    class Unhashable:
        __hash__ = None  # type: ignore[assignment]

    mod = types.ModuleType("cardcore_unhashable_hooks")
    mod.plugin = Unhashable()  # type: ignore[attr-defined]
    monkeypatch.setitem(__import__("sys").modules, "cardcore_unhashable_hooks", mod)
    ep = metadata.EntryPoint(name="bad", value="cardcore_unhashable_hooks:plugin", group="cardcore")
    real = metadata.entry_points
    monkeypatch.setattr(
        metadata,
        "entry_points",
        lambda **kw: [*real(**kw), ep] if kw.get("group") == "cardcore" else real(**kw),
    )
    host = PluginHost()
    assert "highcard" in host.games() and "nyuri" in host.games()
    (problem,) = [p for p in host.problems if p.name == "bad"]
    assert "cannot be hashed" in problem.error and "cardcore.Plugin" in problem.error


def test_a_module_declaring_a_plugin_record_registers_it() -> None:
    """register(module) and an entry point naming the module find its ``Plugin``."""
    import cardcore_highcard.hooks

    host = PluginHost(load_entrypoints=False)
    host.register(cardcore_highcard.hooks, name="highcard")
    assert list(host.games()) == ["highcard"] and host.problems == ()
    assert host.plugins[-1].module == "cardcore_highcard.hooks:plugin"


def test_the_preferences_are_readable_and_not_writable() -> None:
    host = PluginHost(load_entrypoints=False, prefer={"nyuri": "cardcore-nyuri"})
    assert dict(host.prefer) == {"nyuri": "cardcore-nyuri"}
    with pytest.raises(TypeError):
        host.prefer["box"] = "x"  # type: ignore[index]
