"""``cardcore new-game``: write a new game plugin that installs and certifies as generated.

The plugin is rendered from the templates beside this module; the repository's
``examples/cardcore-highcard`` is exactly this template rendered for ``highcard``
(a test keeps the two identical).
"""

from __future__ import annotations

import argparse
import re
from importlib import resources
from pathlib import Path
from typing import Any

__all__ = ["register", "render_plugin"]

_NAME = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")


def names(name: str) -> dict[str, str]:
    """The identifiers derived from a game id: module, class and title."""
    if not _NAME.match(name):
        raise ValueError(
            f"game name {name!r} must be lower kebab-case: letters and digits, words joined by '-'"
        )
    module = name.replace("-", "_")
    cls = "".join(part.capitalize() for part in name.split("-"))
    title = name.replace("-", " ").capitalize()
    return {"name": name, "module": module, "Class": cls, "title": title}


def render_plugin(name: str, *, title: str | None = None) -> dict[str, str]:
    """The files of a new plugin: relative path -> text."""
    values = names(name)
    if title:
        values["title"] = title
    root = resources.files("cardcore.cli").joinpath("_template")
    out: dict[str, str] = {}

    def walk(node: Any, prefix: str) -> None:
        for child in sorted(node.iterdir(), key=lambda c: c.name):
            rel = f"{prefix}{child.name}"
            if child.is_dir():
                walk(child, rel + "/")
            elif child.name.endswith(".tmpl"):
                path = (
                    rel[: -len(".tmpl")]
                    .replace("MODULE", values["module"])
                    .replace("NAME", values["name"])
                )
                text = child.read_text(encoding="utf-8")
                for key, value in values.items():
                    text = text.replace("{{" + key + "}}", value)
                out[path] = text

    walk(root, "")
    return out


def register(sub: Any) -> None:
    """Add ``new-game`` to the sub-commands."""
    p = sub.add_parser(
        "new-game",
        help="write a new game plugin",
        description="Write a new game plugin distribution (pyproject with entry point, a tiny "
        "working game, hooks, tests using the conformance kit, README, CHANGELOG) that installs "
        "with pip and passes `cardcore certify` as generated.",
    )
    p.add_argument("name", help="game id, lower kebab-case (e.g. 'gin-rummy')")
    p.add_argument("--dir", default=".", help="parent folder (default: the current one)")
    p.add_argument("--title", help="display name (default: from the id)")
    p.set_defaults(func=cmd_new_game)


def cmd_new_game(args: argparse.Namespace) -> int:
    """Write the plugin folder ``cardcore-NAME``."""
    files = render_plugin(args.name, title=args.title)
    root = Path(args.dir) / f"cardcore-{args.name}"
    if root.exists():
        raise ValueError(f"{root} already exists; choose another name or --dir")
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    print(f"wrote {root} ({len(files)} files). Next:")
    print(f"  pip install -e {root}")
    print(f"  cardcore certify {args.name}")
    print(
        "  pip install pytest    # or cardcore's 'testing' extra: pip install './[testing]' in a cardcore checkout"
    )
    print(f"  pytest {root / 'tests'}")
    return 0
