"""Registers cardcore's built-in bots through the plugin hooks."""

from __future__ import annotations

from collections.abc import Iterator

from cardcore._game import BotSpec
from cardcore._hooks import hookimpl
from cardcore.bots._random import RandomBot


@hookimpl
def cardcore_register_bots() -> Iterator[BotSpec]:
    """Register ``random``."""
    yield BotSpec(name="random", factory=RandomBot, description="a uniformly random legal action")
