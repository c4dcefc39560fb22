"""Building bots: the one place that turns a bot spec into a bot, below everything that plays.

The engine, a bot's own process (:mod:`cardcore._isolation`), the arena's workers,
``cardcore play``, ``cardcore serve`` and the MCP server all build their bots here, with
a plugin host that makes the same choices among providers as the process that asked
(see :class:`cardcore.PluginHost`'s ``prefer``). Each process builds such a host once.

It also names what a bot raised without running any of the bot's code, which the
engine and a bot's process both need when they report a failure.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Mapping
from typing import Any, Final

from cardcore._game import Bot, Game
from cardcore._host import PluginHost, default_host

__all__ = [
    "exception_text",
    "host_for",
    "host_preferences",
    "make_bot",
    "seat_seed",
    "type_name",
]

Preferences = tuple[tuple[str, str], ...]
"""A host's choices among providers of one id, as a hashable, sorted tuple."""


def seat_seed(match_seed: int, seat: int) -> int:
    """The seed of the bot in ``seat`` of a match dealt from ``match_seed``.

    A one-way hash: a bot cannot work the match seed (and so every hidden card) back
    out of its own seed, as it could from ``match_seed * 1000 + seat``.
    """
    text = repr((match_seed, seat)).encode("ascii")
    digest = hashlib.blake2b(text, digest_size=8, person=b"cardcore-seat").digest()
    return int.from_bytes(digest, "big") >> 1


def host_preferences(host: PluginHost) -> dict[str, str]:
    """The ids ``host`` takes from a chosen provider (``PluginHost(prefer=...)``), sorted.

    Jobs and bot processes carry them so that the host each builds makes the same
    choices as the one that asked.
    """
    return dict(sorted(host.prefer.items()))


def preference_key(prefer: Mapping[str, str] | None) -> Preferences | None:
    """``prefer`` as the key :func:`host_for` caches on (``None`` stays ``None``)."""
    return None if prefer is None else tuple(sorted(prefer.items()))


@functools.lru_cache(maxsize=8)
def host_for(prefer: Preferences | None) -> PluginHost:
    """The plugin host of some preferences, built once per process (``None``: default)."""
    return default_host() if prefer is None else PluginHost(prefer=dict(prefer))


def make_bot(
    name: str,
    options: Mapping[str, Any],
    game: Game[Any, Any, Any],
    *,
    seed: int,
    host: PluginHost | None = None,
) -> Bot:
    """Build a fresh bot for one game, as :func:`cardcore.load_bot` does.

    Args:
        name: a registered id or an import path ``package.module:Attribute``, optionally
            followed by ``:key=value`` options.
        options: keyword options for the bot's factory.
        game: the game it plays.
        seed: its seed.
        host: the plugin host (default: installed plugins).

    Returns:
        The bot.

    Raises:
        ValueError: unknown import path, an option the bot does not declare, a value of
            the wrong type, or a constructor cardcore cannot call.
        LookupError: unknown bot id, or a bot that does not play this game.
    """
    return (host or default_host()).load_bot(name, game, seed=seed, **options)


# ---- naming what a bot made, without running its code ------------------------------

PLAIN: Final = (int, str, float, bool, bytes, type(None))
"""The builtin value types whose objects may be read as they are."""


def is_plain(tp: type) -> bool:
    """Whether ``tp`` is exactly a builtin value type (compared by identity only)."""
    return any(tp is t for t in PLAIN)


_qualname = type.__dict__["__qualname__"].__get__
_modname = type.__dict__["__module__"].__get__
_args = BaseException.__dict__["args"].__get__


def type_name(tp: type) -> str:
    """A type's name for a message, read without running any code the type defines."""
    try:
        name = _qualname(tp)
        module = _modname(tp)
    except Exception:  # noqa: BLE001 - whatever a strange class does, name it plainly
        return "an object of an unnamed type"
    name = name if type(name) is str else "?"
    if type(module) is str and module != "builtins":
        return f"{module}.{name}"
    return name


def exception_text(e: BaseException) -> tuple[str, str]:
    """The type and message of an exception a bot raised, read without its methods."""
    if type(e) is SystemExit:
        code = e.code if is_plain(type(e.code)) else "?"
        return "SystemExit", f"called exit({code!r})"
    kind = type_name(type(e)).rpartition(".")[2]
    try:
        args = _args(e)
    except Exception:  # noqa: BLE001 - a strange exception is still named
        args = ()
    if type(args) is tuple and len(args) == 1 and type(args[0]) is str:
        return kind, args[0][:500]
    if type(args) is tuple and all(is_plain(type(a)) for a in args):
        return kind, repr(args)[:500] if args else ""
    return kind, "(a message that is not plain text)"
