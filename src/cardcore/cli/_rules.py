"""``cardcore rules GAME``: a game's rules, as its plugin ships them, wrapped to the terminal.

The text is :attr:`cardcore.GameSpec.rules_text` (Markdown). :func:`format_rules` turns
its headings, paragraphs and lists into plain text wrapped at word boundaries; ``rules``
inside ``cardcore play`` uses it too.
"""

from __future__ import annotations

import argparse
import re
import shutil
import sys
import textwrap
from typing import Any

__all__ = ["format_rules", "register", "rules_for_terminal", "rules_text"]

_ITEM = re.compile(r"^(\s*)([-*]|\d+\.)\s+(.*)$")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")


def _plain(text: str) -> str:
    """Markdown emphasis and code marks dropped: ``**Lay.**`` reads ``Lay.``."""
    text = re.sub(r"\*\*(.+?)\*\*", r"\1", text)
    text = re.sub(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])", r"\1", text)
    return text.replace("`", "")


def format_rules(text: str, width: int) -> str:
    """A rules text in Markdown as plain text wrapped to ``width`` columns at word boundaries.

    Headings are underlined; list items keep their marker and indent their continuation
    lines under their first word; paragraphs are re-flowed. Words longer than the width
    stay whole.
    """
    width = max(width, 20)
    blocks: list[tuple[str, str, str]] = []  # (kind, first-line prefix, text)
    for raw in text.splitlines():
        line = raw.rstrip()
        if not line.strip():
            blocks.append(("blank", "", ""))
            continue
        heading = _HEADING.match(line)
        item = _ITEM.match(line)
        if heading:
            blocks.append(("heading", "", heading.group(2)))
        elif item:
            indent, marker, rest = item.groups()
            blocks.append(("item", f"{indent}{marker} ", rest))
        elif blocks and blocks[-1][0] in ("item", "para"):
            kind, prefix, body = blocks[-1]
            blocks[-1] = (kind, prefix, f"{body} {line.strip()}")
        else:
            blocks.append(("para", "", line.strip()))
    out: list[str] = []
    for kind, prefix, body in blocks:
        if kind == "blank":
            if out and out[-1]:
                out.append("")
            continue
        plain = _plain(body)
        if kind == "heading":
            out += [plain, "-" * min(len(plain), width)]
            continue
        out += textwrap.wrap(
            plain,
            width=width,
            initial_indent=prefix,
            subsequent_indent=" " * len(prefix),
            break_long_words=False,
            break_on_hyphens=False,
        )
    while out and not out[-1]:
        out.pop()
    return "\n".join(out) + "\n"


def rules_text(game: str) -> tuple[str, str]:
    """The title and the rules text (Markdown) of an installed game.

    Raises:
        ValueError: the game is not installed, or its plugin ships no rules text.
    """
    from cardcore._host import PluginError
    from cardcore.cli import _common as cli

    try:
        spec = cli._host().game_spec(game)
    except PluginError as e:
        raise ValueError(str(e).strip("'\"")) from None
    if not spec.rules_text.strip():
        source = spec.distribution or "its plugin"
        raise ValueError(
            f"game {game!r} ships no rules text ({source} gives its GameSpec no rules_text); "
            f"'cardcore info {game}' lists its options"
        )
    return spec.title, spec.rules_text


def rules_for_terminal(game: str) -> str:
    """A game's rules wrapped to the terminal's width, or one line saying why there are none."""
    try:
        title, text = rules_text(game)
    except ValueError as e:
        return str(e)
    width = shutil.get_terminal_size((80, 24)).columns
    return format_rules(f"# {title}\n\n{text}", max(width, 20)).rstrip("\n")


def register(sub: Any) -> None:
    """Add ``rules`` to the sub-commands."""
    p = sub.add_parser(
        "rules",
        help="print a game's rules: aim, deal, a turn, scoring, the end, the presets",
        description="Print the rules of an installed game as its plugin ships them (a "
        "player's summary: the aim, the deal, a turn, scoring, the end, the options of each "
        "preset and how actions are written), wrapped to the terminal's width.",
    )
    p.add_argument("game", help="game id (see 'cardcore list')")
    p.add_argument(
        "--width",
        type=int,
        default=None,
        help="wrap at this many columns (default: the terminal's width)",
    )
    p.add_argument(
        "--markdown", action="store_true", help="print the Markdown source as it is shipped"
    )
    p.set_defaults(func=cmd_rules)


def cmd_rules(args: argparse.Namespace) -> int:
    """Print the rules of one game."""
    title, text = rules_text(args.game)
    if args.markdown:
        sys.stdout.write(f"# {title}\n\n{text.rstrip()}\n")
        return 0
    width = args.width if args.width is not None else shutil.get_terminal_size((80, 24)).columns
    if width < 20:
        raise ValueError(f"--width must be at least 20 columns, not {width}")
    sys.stdout.write(format_rules(f"# {title}\n\n{text}", width))
    return 0
