"""The plugin's anatomy: every module in its place, imports one way, short modules."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardcore.testing import AnatomyError, check_plugin_anatomy

RULE_MODULES = ("auction", "tricks", "deal", "cards")
"""Nestors' own rule modules, top to bottom, between ``rules`` and ``render``."""
SRC = Path(__file__).parents[1] / "src" / "cardcore_nestors"


def test_anatomy() -> None:
    """Modules import one way: hooks, bots/encoding, rules, the moves, deal, cards, render..."""
    check_plugin_anatomy("cardcore_nestors", rule_modules=RULE_MODULES)


def test_the_checker_catches_render_reaching_the_rules(tmp_path: Path) -> None:
    """A copy of the plugin whose render imports the rules is reported."""
    for p in SRC.glob("*.py"):
        (tmp_path / p.name).write_text(p.read_text(encoding="utf-8"), encoding="utf-8")
    with (tmp_path / "render.py").open("a", encoding="utf-8") as f:
        f.write("\nfrom cardcore_nestors.rules import Nestors\n")
    with pytest.raises(AnatomyError, match="render imports rules"):
        check_plugin_anatomy("cardcore_nestors", rule_modules=RULE_MODULES, path=tmp_path)
