"""Registers cardcore's built-in bots through the plugin hooks."""

from __future__ import annotations

from collections.abc import Iterator

from cardcore._game import BotSpec
from cardcore._hooks import hookimpl
from cardcore.bots._llm import LLMBot
from cardcore.bots._random import RandomBot
from cardcore.bots._search import ISMCTSBot, PIMCBot


@hookimpl
def cardcore_register_bots() -> Iterator[BotSpec]:
    """Register ``random``, ``ismcts``, ``pimc`` and ``llm``.

    Their options are not listed here: each bot declares them by its constructor's typed
    keyword parameters, and ``cardcore list`` reads them from there.
    """
    yield BotSpec(name="random", factory=RandomBot, description="a uniformly random legal action")
    yield BotSpec(name="ismcts", factory=ISMCTSBot, description="information-set MCTS")
    yield BotSpec(name="pimc", factory=PIMCBot, description="perfect-information Monte Carlo")
    yield BotSpec(
        name="llm",
        factory=LLMBot,
        description="a language model through the llm library (the llm extra: pip install './[llm]' in a checkout, or pip install llm)",
    )
