"""The kit's check that a game ships its rules: a player's summary, reachable from its hooks.

A game registers its rules text with :attr:`cardcore.GameSpec.rules_text`; ``cardcore
rules GAME``, ``rules`` in ``cardcore play``, the MCP server and the ``llm`` bot show
it. :func:`check_rules` finds a game without it, and a text that leaves out one of the
game's presets or options (a player who reads it must learn every variant they may be
dealt into).
"""

from __future__ import annotations

import re
from typing import Final

from cardcore._game import GameSpec
from cardcore._host import PluginError, PluginHost, default_host
from cardcore._options import option_infos
from cardcore.testing._errors import ConformanceError

__all__ = ["MIN_RULES_WORDS", "check_rules", "rules_problems"]

MIN_RULES_WORDS: Final = 60
"""Fewer words than this cannot cover the aim, the deal, a turn, scoring and the end."""


def _named(word: str, text: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text) is not None


def rules_problems(game: str | GameSpec, *, host: PluginHost | None = None) -> list[str]:
    """What is missing from a game's rules text.

    Args:
        game: the game id, or its registered spec.
        host: the plugin host that knows the game id (default: installed plugins).

    Returns:
        One sentence per problem; empty when the game has a rules text of at least
        :data:`MIN_RULES_WORDS` words that names every preset and every option.
    """
    if isinstance(game, GameSpec):
        spec = game
    else:
        try:
            spec = (host if host is not None else default_host()).game_spec(game)
        except PluginError as e:
            return [str(e).strip("'\"")]
    text = spec.rules_text
    if not text.strip():
        return [
            f"game {spec.name!r} has no rules text: give its GameSpec a rules_text (a "
            "player's summary: aim, deal, a turn, scoring, the end, the options of each "
            "preset), usually a rules.md file of the package read by its hooks module"
        ]
    problems = []
    words = len(text.split())
    if words < MIN_RULES_WORDS:
        problems.append(
            f"game {spec.name!r}: its rules text has {words} words; a player's summary "
            f"(aim, deal, a turn, scoring, the end) needs at least {MIN_RULES_WORDS}"
        )
    missing = [p for p in sorted(spec.presets) if not _named(p, text)]
    if missing:
        problems.append(
            f"game {spec.name!r}: its rules text never names the preset(s) "
            f"{', '.join(missing)}; say what each preset sets"
        )
    options = [o.name for o in option_infos(spec.options_type)]
    absent = [o for o in options if not _named(o, text)]
    if absent:
        problems.append(
            f"game {spec.name!r}: its rules text never names the option(s) "
            f"{', '.join(absent)}; say what each one changes"
        )
    return problems


def check_rules(game: str | GameSpec, *, host: PluginHost | None = None) -> None:
    """Check that a game ships a player's summary of its rules (see :func:`rules_problems`).

    Args:
        game: the game id, or its registered spec.
        host: the plugin host that knows the game id (default: installed plugins).

    Raises:
        cardcore.testing.ConformanceError: naming every problem found.
    """
    problems = rules_problems(game, host=host)
    if problems:
        raise ConformanceError("rules_text", "; ".join(problems))
