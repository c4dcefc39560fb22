"""The command-line reference, generated from the parser so the docs cannot drift."""

from __future__ import annotations

import argparse

from cardcore.cli import build_parser

__all__ = ["cli_reference"]


def cli_reference() -> str:
    """Markdown: every sub-command's ``--help`` text."""
    parser = build_parser()
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    out = ["```text", parser.format_help().rstrip(), "```", ""]
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for name, p in sub.choices.items():
        out += [f"## `cardcore {name}`", "", "```text", p.format_help().rstrip(), "```", ""]
    return "\n".join(out)


if __name__ == "__main__":
    print(cli_reference())
