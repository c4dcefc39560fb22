"""Bot entries of an arena: parsing ``--bots`` and building a bot for one game.

A bot is named by its registered id (``random``, ``nyuri-heuristic``) or by an import
path ``package.module:Attribute`` naming a class or factory, built exactly as
:func:`cardcore.load_bot` builds it (the same parser reads ``--bots`` entries, and the
options are checked against the factory's signature). Import paths let tests and
notebooks use a bot without a plugin; the module must be importable in every worker
process.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, final

import attrs

from cardcore._botmaking import make_bot
from cardcore._botspec import guess, is_import_path, parse_bot_spec

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
        return is_import_path(self.name)

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data (name, options, label)."""
        return {"name": self.name, "options": dict(self.options), "label": self.label}


def _text(v: Any) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)


def parse_bot(text: str) -> BotEntry:
    """Parse one entry: ``ismcts:iterations=200`` or ``my.module:MyBot:depth=2``.

    The entry is read by the parser :func:`cardcore.load_bot` uses; option values are
    stored as the bool, int, float or text they look like, and converted to the types
    the bot declares when it is built.

    Raises:
        ValueError: an empty name or an option that is not ``key=value``.
    """
    name, options = parse_bot_spec(text)
    return BotEntry(
        name=name,
        options=tuple(sorted((k, guess(v)) for k, v in options.items())),
        label=text.strip(),
    )


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
