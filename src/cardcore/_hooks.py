"""The plugin hook specifications: what a plugin may register.

A plugin is a module named by an entry point in the ``cardcore`` group. It implements
some of these hooks with the :data:`hookimpl` marker; each hook yields typed, frozen
records and never touches the host.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

import pluggy

from cardcore._game import BotSpec, CodecSpec, GameSpec

__all__ = ["CardcoreHooks", "hookimpl", "hookspec"]

hookspec = pluggy.HookspecMarker("cardcore")
"""Marks hook specifications (used by cardcore only)."""
hookimpl = pluggy.HookimplMarker("cardcore")
"""Marks a plugin's hook implementations: ``@hookimpl def cardcore_register_games(): ...``."""


class CardcoreHooks(Protocol):
    """The hooks a plugin module may implement (all optional)."""

    @hookspec
    def cardcore_register_games(self) -> Iterable[GameSpec]:
        """Register games.

        Example:
            >>> from cardcore import GameSpec, hookimpl
            >>> @hookimpl
            ... def cardcore_register_games():
            ...     yield GameSpec(name="highcard", ...)  # doctest: +SKIP

        Returns:
            The plugin's games, as :class:`cardcore.GameSpec` records.
        """
        ...

    @hookspec
    def cardcore_register_bots(self) -> Iterable[BotSpec]:
        """Register bots.

        Example:
            >>> from cardcore import BotSpec, hookimpl
            >>> @hookimpl
            ... def cardcore_register_bots():
            ...     yield BotSpec(name="mybot", factory=MyBot)  # doctest: +SKIP

        Returns:
            The plugin's bots, as :class:`cardcore.BotSpec` records.
        """
        ...

    @hookspec
    def cardcore_register_codecs(self) -> Iterable[CodecSpec]:
        """Register RL codecs (observation encoding and action index) for a plugin's games.

        Example:
            >>> from cardcore import CodecSpec, hookimpl
            >>> @hookimpl
            ... def cardcore_register_codecs():
            ...     yield CodecSpec(game="mygame", factory=mygame_codec)  # doctest: +SKIP

        Returns:
            The plugin's codecs, as :class:`cardcore.CodecSpec` records.
        """
        ...
