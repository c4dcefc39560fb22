"""The kit's check that a bot declares its options, so the command line can check them.

A bot's options are its factory's named keyword parameters (see :func:`cardcore.load_bot`).
This check makes sure every one of them can be given as ``--bots name:key=value``: it is
annotated with a type a command line can convert to, it has a default (bots are built
by name alone), and there is no ``**kwargs`` catch-all that would swallow a misspelt
option such as ``iters=5`` without a word. An option only Python code can give (an
object, such as the search bots' ``hints``) is fine when it defaults to ``None``: the
bot is then built by name without it, and a command-line value for it is refused.
"""

from __future__ import annotations

import enum
import inspect
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any, Literal

from cardcore._botspec import bot_options
from cardcore._game import BotSpec, Game
from cardcore._host import PluginHost, default_host
from cardcore.testing._errors import ConformanceError

__all__ = ["bot_option_problems", "check_bot", "check_bot_options"]

_TEXT_TYPES: tuple[type, ...] = (bool, int, float, str)


def _convertible(tp: Any) -> bool:
    """Whether a command-line value can be converted to ``tp``."""
    if tp in _TEXT_TYPES or tp is type(None):
        return True
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return True
    origin = typing.get_origin(tp)
    if origin is Literal:
        return all(isinstance(a, (*_TEXT_TYPES, enum.Enum)) for a in typing.get_args(tp))
    if origin in (typing.Union, types.UnionType):
        return all(_convertible(a) for a in typing.get_args(tp))
    return False


def bot_option_problems(factory: Callable[..., Any]) -> list[str]:
    """What keeps a bot factory's options from being declared and checked.

    Returns:
        One sentence per problem; empty when every option is typed, has a default and
        no ``**kwargs`` takes undeclared ones.
    """
    try:
        sig = inspect.signature(factory)
    except (TypeError, ValueError):
        return ["its signature cannot be read, so its options cannot be checked"]
    problems = [
        f"**{p.name} accepts any option without declaring it; make each option a typed "
        "keyword-only parameter"
        for p in sig.parameters.values()
        if p.kind is p.VAR_KEYWORD
    ]
    for opt in bot_options(factory):
        if opt.type is Any:
            problems.append(f"option {opt.name!r} has no type annotation (int, float, str, ...)")
        elif not _convertible(opt.type) and not (opt.default is None and not opt.required):
            problems.append(
                f"option {opt.name!r} is declared as {opt.type_text}, which a command line "
                "cannot give (use bool, int, float, str, a Literal, an Enum or X | None)"
            )
        if opt.required:
            problems.append(
                f"option {opt.name!r} has no default, so the bot cannot be built by name alone"
            )
    return problems


def check_bot_options(
    bot: str | BotSpec | Callable[..., Any], *, host: PluginHost | None = None
) -> None:
    """Check that a bot declares its options in its signature.

    Args:
        bot: a registered bot id, an import path ``package.module:Class``, a
            :class:`cardcore.BotSpec` or the factory itself.
        host: the plugin host (default: installed plugins).

    Raises:
        ConformanceError: property ``bot-options``, naming every problem found.
    """
    if isinstance(bot, BotSpec):
        label, factory = bot.name, bot.factory
    elif isinstance(bot, str):
        label, factory = bot, (host or default_host()).bot_factory(bot)
    else:
        label, factory = getattr(bot, "__qualname__", repr(bot)), bot
    problems = bot_option_problems(factory)
    if problems:
        raise ConformanceError("bot-options", f"bot {label!r}: " + "; ".join(problems))


def check_bot(
    bot: str,
    game: str | Game[Any, Any, Any],
    *,
    options: Mapping[str, Any] | None = None,
    games: int = 3,
    players: int | None = None,
    time_limit: float | None = None,
    seed: int = 0,
    host: PluginHost | None = None,
) -> None:
    """Check a bot: declared options, legal, crash-free, within its time limit, reproducible.

    It must declare its options (:func:`check_bot_options`), only return legal actions,
    never crash, keep to ``time_limit`` and play the same way for the same seed.

    The bot plays every seat in turn against ``random`` through :func:`cardcore.play_match`,
    so it only ever receives observations.

    Raises:
        ConformanceError: property ``bot-options``, ``bot-legal`` (forfeit: an illegal
            action, a crash or running over ``time_limit``) or ``bot-determinism``.
    """
    from cardcore._engine import play_match

    host = host or default_host()
    check_bot_options(bot, host=host)
    g = host.load_game(game) if isinstance(game, str) else game
    n = players or g.min_players
    opts = dict(options or {})
    for k in range(games):
        seat = k % n
        records = []
        for _ in range(2):
            seats = [
                host.load_bot(bot, g, seed=seed + k, **opts)
                if i == seat
                else host.load_bot("random", g, seed=seed + 100 * k + i)
                for i in range(n)
            ]
            rec = play_match(g, seats, seed=seed + k, time_limit=time_limit)
            assert rec.outcome is not None
            if rec.outcome.forfeit is not None:
                raise ConformanceError(
                    "bot-legal", f"{bot} on {g.name}, seat {seat}: {rec.outcome.reason}"
                )
            records.append(rec)
        if records[0] != records[1]:
            raise ConformanceError(
                "bot-determinism", f"{bot} on {g.name}: the same seed gave different games"
            )
