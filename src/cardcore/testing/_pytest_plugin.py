"""pytest plugin: fixtures for game plugin test suites (loaded automatically)."""

from __future__ import annotations

import pytest

from cardcore._host import PluginHost


@pytest.fixture
def cardcore_host() -> PluginHost:
    """A fresh plugin host with the installed plugins."""
    return PluginHost()


def parametrize_configurations(
    game: str, *, host: PluginHost | None = None
) -> pytest.MarkDecorator:
    """A ``pytest.mark.parametrize`` over every preset and single-option change of a game.

    Example:
        ``@parametrize_configurations("nyuri")`` on ``def test_x(config): check_game("nyuri",
        presets=[config.preset], options=config.overrides)``.
    """
    from cardcore.testing._kit import configurations

    spec = (host or PluginHost()).game_spec(game)
    configs = configurations(spec)
    return pytest.mark.parametrize("config", configs, ids=[c.label() for c in configs])
