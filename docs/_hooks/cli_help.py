"""MkDocs hook: fill the command-line reference from the parser's own help texts."""

from __future__ import annotations

from typing import Any

MARKER = "<!-- cli-help -->"


def on_page_markdown(markdown: str, **kwargs: Any) -> str:
    """Replace the marker with every sub-command's ``--help``."""
    if MARKER not in markdown:
        return markdown
    from cardcore.cli._docs import cli_reference

    return markdown.replace(MARKER, cli_reference())
