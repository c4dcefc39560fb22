"""A pytest parametrization over a game's configurations (pytest imported on use)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pytest

    from cardcore._host import PluginHost

__all__ = ["parametrize_configurations"]


def parametrize_configurations(
    game: str, *, host: PluginHost | None = None
) -> pytest.MarkDecorator:
    """A ``pytest.mark.parametrize`` over every preset and single-option change of a game.

    Example:
        ``@parametrize_configurations("nyuri")`` on ``def test_x(config): check_game("nyuri",
        presets=[config.preset], options=config.overrides)``.
    """
    import pytest

    from cardcore._host import PluginHost
    from cardcore.testing._report import configurations

    spec = (host or PluginHost()).game_spec(game)
    configs = configurations(spec)
    return pytest.mark.parametrize("config", configs, ids=[c.label() for c in configs])
