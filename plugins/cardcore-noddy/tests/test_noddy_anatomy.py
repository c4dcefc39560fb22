"""The plugin's anatomy: a place for every module, one-way imports, short modules."""

from __future__ import annotations

from cardcore.testing import check_plugin_anatomy


def test_the_plugin_keeps_the_anatomy() -> None:
    """The start of a hand and the scoring sit below the rules, above render and state."""
    check_plugin_anatomy("cardcore_noddy", rule_modules=("deal", "scoring"))
