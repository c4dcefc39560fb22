"""Codec lookup: the plugin hook, registration from code, and clear errors."""

from __future__ import annotations

import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cardcore import load_game
from cardcore.adapters import (
    CodecError,
    CodecRegistry,
    CodecSpec,
    default_registry,
    load_codec,
    register_codec,
)

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def support(monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.syspath_prepend(str(ROOT))
    from tests.adapters import rl_highcard

    return rl_highcard


def _hooks_module(support: Any) -> types.ModuleType:
    """A plugin hooks module declaring the highcard codec through the hook."""
    module = types.ModuleType("fake_plugin.hooks")

    def cardcore_register_codecs() -> Iterator[CodecSpec]:
        yield CodecSpec(game="highcard", factory=support.highcard_codec)

    module.cardcore_register_codecs = cardcore_register_codecs  # type: ignore[attr-defined]
    return module


def test_hook_module_registers_its_codecs(support: Any) -> None:
    """A hooks module's cardcore_register_codecs is read; the source is recorded."""
    reg = CodecRegistry(load_entrypoints=False)
    assert reg.register_module(_hooks_module(support)) == 1
    spec = reg.spec("highcard")
    assert spec.source == "fake_plugin.hooks"
    codec = reg.codec(load_game("highcard"), 3)
    assert codec.num_actions == 52
    assert list(reg.specs()) == ["highcard"]


def test_module_without_the_hook_registers_nothing() -> None:
    """Plugins without codecs are simply skipped."""
    reg = CodecRegistry(load_entrypoints=False)
    assert reg.register_module(types.ModuleType("plain")) == 0
    assert reg.specs() == {}
    assert reg.problems == ()


def test_a_broken_hook_is_a_problem_not_a_crash() -> None:
    """A hook that raises or yields the wrong type is reported in problems."""
    bad = types.ModuleType("bad.hooks")

    def cardcore_register_codecs() -> Iterator[Any]:
        yield "not a spec"

    bad.cardcore_register_codecs = cardcore_register_codecs  # type: ignore[attr-defined]
    reg = CodecRegistry(load_entrypoints=False)
    assert reg.register_module(bad) == 0
    assert [p.name for p in reg.problems] == ["bad.hooks"]
    assert "yielded str, not CodecSpec" in reg.problems[0].error
    assert reg.specs() == {}


def test_duplicates_are_refused_unless_replacing(support: Any) -> None:
    """Two codecs for one game conflict; replace=True swaps them."""
    reg = support.highcard_registry()
    with pytest.raises(CodecError, match="duplicate codec for game 'highcard'"):
        reg.register_module(_hooks_module(support), name="other-plugin")
    other = CodecSpec(game="highcard", factory=support.highcard_codec, description="second")
    register_codec(other, registry=reg, replace=True)
    assert reg.spec("highcard").description == "second"
    with pytest.raises(TypeError, match="CodecSpec"):
        reg.register("highcard")


def test_missing_codec_names_the_hook_and_the_fix() -> None:
    """A game without a codec raises CodecError naming the hook, the plugin and the docs."""
    reg = CodecRegistry(load_entrypoints=False)
    with pytest.raises(CodecError) as info:
        reg.codec(load_game("highcard"), 2)
    text = str(info.value)
    assert "game 'highcard' declares no RL codec" in text
    assert "cardcore_register_codecs" in text
    assert "cardcore-highcard" in text
    assert "docs/how-to/rl.md" in text
    assert "register_codec" in text


def test_a_factory_by_reference_is_imported_on_first_use(support: Any) -> None:
    """A "module:attribute" factory is resolved when a codec is first built, not before."""
    spec = CodecSpec(game="highcard", factory="tests.adapters.rl_highcard:highcard_codec")
    assert spec.resolve() is support.highcard_codec
    reg = CodecRegistry(load_entrypoints=False)
    reg.register(spec)
    assert reg.codec(load_game("highcard"), 3).num_actions == 52


@pytest.mark.parametrize(
    ("reference", "why"),
    [
        ("tests.adapters.no_such_module:codec", "ModuleNotFoundError"),
        ("tests.adapters.rl_highcard:no_such_codec", "AttributeError"),
        ("tests.adapters.rl_highcard:HIGHCARD", "not a function"),
    ],
)
def test_a_reference_that_does_not_resolve_is_named(support: Any, reference: str, why: str) -> None:
    """A factory reference that does not import is a CodecError naming it and the game."""
    reg = CodecRegistry(load_entrypoints=False)
    reg.register(CodecSpec(game="highcard", factory=reference))
    with pytest.raises(CodecError) as info:
        reg.codec(load_game("highcard"), 2)
    text = str(info.value)
    assert f"the codec factory {reference!r} of game 'highcard'" in text
    assert why in text


@pytest.mark.parametrize("reference", ["no_colon", ":codec", "module:", 42])
def test_a_malformed_reference_is_refused_at_once(reference: Any) -> None:
    """A factory that is neither callable nor 'module:attribute' fails when declared."""
    with pytest.raises((ValueError, TypeError), match="module:attribute"):
        CodecSpec(game="highcard", factory=reference)


def test_factory_must_return_a_codec(support: Any) -> None:
    """A factory returning something else, or an empty codec, is a CodecError."""
    reg = CodecRegistry(load_entrypoints=False)
    reg.register(CodecSpec(game="highcard", factory=lambda game, n: "nope"))
    with pytest.raises(CodecError, match="not a Codec"):
        reg.codec(load_game("highcard"), 2)

    class Empty:
        observation_size = 0
        num_actions = 3

        def encode(self, observation: Any) -> list[float]:
            return []

        def action_index(self, action: Any) -> int:
            return 0

        def action_at(self, index: int) -> Any:
            return None

    reg.register(CodecSpec(game="highcard", factory=lambda game, n: Empty()), replace=True)
    with pytest.raises(CodecError, match="observation_size=0"):
        reg.codec(load_game("highcard"), 2)


def test_load_codec_builds_the_game_from_its_id(support: Any) -> None:
    """load_codec accepts an id with options, or a built game; default count is the smallest."""
    reg = support.highcard_registry()
    small = load_codec("highcard", registry=reg)
    assert (
        small.observation_size == support.highcard_codec(load_game("highcard"), 2).observation_size
    )
    four = load_codec(load_game("highcard"), 4, registry=reg)
    assert four.observation_size > small.observation_size
    assert load_codec("highcard", 2, registry=reg, preset="quick").num_actions == 52


def test_installed_plugins_register_codecs_without_problems() -> None:
    """Every installed plugin's codec hook loads cleanly; specs are sorted by game."""
    reg = default_registry()
    assert reg is default_registry()
    assert reg.problems == ()
    assert list(reg.specs()) == sorted(reg.specs())
    for spec in reg.specs().values():
        assert spec.source, spec


def test_the_plugin_host_collects_codecs() -> None:
    """The core's hook specification includes the codec hook; the host gathers them."""
    from cardcore import CardcoreHooks, PluginHost

    doc = CardcoreHooks.cardcore_register_codecs.__doc__ or ""
    assert "Example:" in doc and "Returns:" in doc
    host = PluginHost()
    assert {"nyuri", "noddy", "box", "nestors"} <= set(host.codecs())
    assert host.codecs()["nyuri"].source == "nyuri"
    assert set(CodecRegistry(host=host).specs()) == set(host.codecs())


def test_registry_is_shared_by_copies(support: Any) -> None:
    """gymnasium.make deep-copies its arguments; a registry copies to itself."""
    import copy

    reg = support.highcard_registry()
    assert copy.deepcopy({"registry": reg})["registry"] is reg


def test_codecs_are_built_once_per_game_options_and_count(support: Any) -> None:
    """codec() shares one codec per game, options and player count; build() makes new ones."""
    reg = support.highcard_registry()
    game = load_game("highcard")
    first = reg.codec(game, 2)
    assert reg.codec(load_game("highcard"), 2) is first
    assert reg.codec(game, 3) is not first
    assert reg.codec(load_game("highcard", hand_size=5), 2) is not first
    assert reg.build(game, 2) is not first
    reg.register(CodecSpec(game="highcard", factory=support.highcard_codec), replace=True)
    assert reg.codec(game, 2) is not first  # a replaced spec drops its cached codecs
