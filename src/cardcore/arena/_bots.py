"""Bot entries of an arena: parsing ``--bots`` and building a bot for one game.

A bot is named by its registered id (``random``, ``nyuri-heuristic``) or by an import
path ``package.module:Attribute`` naming a factory that is called like a registered
one: ``factory(game, seed=..., **options)``. Import paths let tests and notebooks use a
bot without a plugin; the module must be importable in every worker process.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any, final

import attrs

from cardcore._game import Game
from cardcore._host import PluginHost, default_host

__all__ = ["BotEntry", "make_bot", "parse_bots", "resolve_bots"]


@final
@attrs.frozen(kw_only=True)
class BotEntry:
    """One entrant of an arena: a bot name, its options and the label it is shown under."""

    name: str
    """A registered bot id, or an import path ``package.module:Attribute``."""
    options: tuple[tuple[str, Any], ...] = ()
    """Options passed to the bot's factory, sorted by name."""
    label: str = ""
    """How the entrant is shown in reports (unique within an arena); defaults to the spec."""

    @property
    def spec(self) -> str:
        """The entry in ``--bots`` syntax: ``name[:key=value]...``."""
        return ":".join([self.name, *(f"{k}={_text(v)}" for k, v in self.options)])

    @property
    def is_import_path(self) -> bool:
        """Whether :attr:`name` is an import path rather than a registered id."""
        return ":" in self.name

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data (name, options, label)."""
        return {"name": self.name, "options": dict(self.options), "label": self.label}


def _text(v: Any) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)


def coerce(text: str) -> Any:
    """A command-line option value as a bool, int, float or (otherwise) the string."""
    low = text.lower()
    if low in ("true", "false"):
        return low == "true"
    for conv in (int, float):
        try:
            return conv(text)
        except ValueError:
            pass
    return text


def parse_bot(text: str) -> BotEntry:
    """Parse one entry: ``ismcts:iterations=200`` or ``my.module:MyBot:depth=2``.

    Raises:
        ValueError: an empty name or an option that is not ``key=value``.
    """
    parts = [p.strip() for p in text.strip().split(":")]
    name, rest = parts[0], parts[1:]
    if rest and "=" not in rest[0]:
        name, rest = f"{name}:{rest[0]}", rest[1:]
    if not name or name.startswith(":") or name.endswith(":"):
        raise ValueError(f"bot entry {text!r} has no name")
    options: dict[str, Any] = {}
    for item in rest:
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise ValueError(f"bot option {item!r} in {text!r} must look like key=value")
        options[key.strip()] = coerce(value.strip())
    return BotEntry(name=name, options=tuple(sorted(options.items())), label=text.strip())


def parse_bots(text: str) -> tuple[BotEntry, ...]:
    """Parse a comma-separated ``--bots`` list into entries with unique labels.

    Example:
        ``parse_bots("random,ismcts:iterations=200")``

    Raises:
        ValueError: an empty list or a malformed entry.
    """
    items = text.split(",")
    if not text.strip() or any(not t.strip() for t in items):
        raise ValueError(f"--bots {text!r} has an empty bot name")
    return resolve_bots(items)


def resolve_bots(bots: Sequence[str | BotEntry]) -> tuple[BotEntry, ...]:
    """Turn strings into entries and make every label unique (``random``, ``random#2``).

    Raises:
        ValueError: no bots, or a malformed entry.
    """
    if not bots:
        raise ValueError("an arena needs at least one bot")
    entries = [parse_bot(b) if isinstance(b, str) else b for b in bots]
    seen: dict[str, int] = {}
    out = []
    for e in entries:
        base = e.label or e.spec
        seen[base] = seen.get(base, 0) + 1
        label = base if seen[base] == 1 else f"{base}#{seen[base]}"
        out.append(attrs.evolve(e, label=label))
    return tuple(out)


@functools.lru_cache(maxsize=64)
def _import_factory(path: str) -> Callable[..., Any]:
    module_name, _, attr = path.partition(":")
    try:
        obj: Any = importlib.import_module(module_name)
    except ImportError as e:
        raise ValueError(
            f"bot {path!r}: cannot import {module_name!r} ({e}); is its directory on "
            "PYTHONPATH (the command line also looks in the current directory)?"
        ) from None
    for part in attr.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise ValueError(f"bot {path!r}: {module_name!r} has no {attr!r}") from None
    if not callable(obj):
        raise ValueError(f"bot {path!r} is not callable")
    return obj  # type: ignore[no-any-return]


def make_bot(
    name: str,
    options: Mapping[str, Any],
    game: Game[Any, Any, Any],
    *,
    seed: int,
    host: PluginHost | None = None,
) -> Any:
    """Build a fresh bot for one game.

    Args:
        name: a registered id or an import path ``package.module:Attribute``.
        options: keyword options for the bot's factory.
        game: the game it plays.
        seed: its seed.
        host: the plugin host (default: installed plugins).

    Returns:
        The bot.

    Raises:
        ValueError: unknown import path or options the bot does not accept.
        LookupError: unknown bot id, or a bot that does not play this game.
    """
    if ":" in name:
        factory = _import_factory(name)
        try:
            return factory(game, seed=seed, **options)
        except TypeError as e:
            raise ValueError(f"bot {name!r}: bad options {dict(options)!r}: {e}") from None
    return (host or default_host()).load_bot(name, game, seed=seed, **options)
