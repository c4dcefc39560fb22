"""The plugin's anatomy: every module in its place, imports one way, short modules.

That the checker catches an import against the order is shown by the core's own tests.
"""

from __future__ import annotations

from cardcore.testing import check_plugin_anatomy

RULE_MODULES = ("history", "auction", "tricks", "deal", "cards")
"""Nestors' own rule modules, top to bottom, between ``rules`` and ``render``."""


def test_anatomy() -> None:
    """Modules import one way: hooks, bots/encoding, rules, the moves, deal, cards, render..."""
    check_plugin_anatomy("cardcore_nestors", rule_modules=RULE_MODULES)
