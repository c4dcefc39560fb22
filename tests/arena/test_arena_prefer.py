"""run_arena(host=...): the host's choice among plugins that register one id reaches the games.

A plugin ``twin`` registers a second ``highcard`` game through an
entry point, so the default host refuses the id; the arena's host prefers one provider,
and the workers (which build their own host) must make the same choice.
"""

from __future__ import annotations

import sys
import types
from collections.abc import Iterator
from importlib import metadata
from typing import Any

import attrs
import pytest

from cardcore import GameSpec, PluginHost, hookimpl
from cardcore._botmaking import host_for
from cardcore._host import default_host
from cardcore._isolation import IsolatedBot
from cardcore.arena import run_arena


def _twin_module() -> types.ModuleType:
    spec = PluginHost(prefer={}).game_spec("highcard")
    mod = types.ModuleType("cardcore_twin_hooks")

    @hookimpl
    def cardcore_register_games() -> Iterator[GameSpec]:
        yield attrs.evolve(spec, distribution="", version="", title="Twin High Card")

    mod.cardcore_register_games = cardcore_register_games  # type: ignore[attr-defined]
    return mod


@pytest.fixture
def twin(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Install a second provider of ``highcard`` next to the real one."""
    monkeypatch.delenv("CARDCORE_PREFER", raising=False)
    monkeypatch.setitem(sys.modules, "cardcore_twin_hooks", _twin_module())
    extra = [metadata.EntryPoint(name="twin", value="cardcore_twin_hooks", group="cardcore")]
    real = metadata.entry_points

    def fake(**kw: Any) -> Any:
        if kw.get("group") == "cardcore":
            return [*real(group="cardcore"), *extra]
        return real(**kw)

    monkeypatch.setattr(metadata, "entry_points", fake)
    default_host.cache_clear()
    host_for.cache_clear()
    yield
    default_host.cache_clear()
    host_for.cache_clear()


@pytest.mark.usefixtures("twin")
def test_the_hosts_preference_reaches_the_games() -> None:
    """Without the preference the id is refused; with it every game is played."""
    with pytest.raises(LookupError, match="plugin 'twin'"):
        run_arena("highcard", ["random", "random"], games=2, workers=0, time_limit=None)
    host = PluginHost(prefer={"highcard": "cardcore-highcard"})
    result = run_arena(
        "highcard", ["random", "random"], games=3, workers=0, time_limit=None, host=host
    )
    assert result.played == result.games == 6
    assert result.errors == ()


def test_an_isolated_bot_carries_the_preference_to_its_process() -> None:
    """The bot process builds its host with the arena host's preferences."""
    game = PluginHost(prefer={}).load_game("highcard")
    bot = IsolatedBot("random", game, prefer={"highcard": "cardcore-highcard"})
    try:
        assert bot._spec["prefer"] == {"highcard": "cardcore-highcard"}
    finally:
        bot.close()
