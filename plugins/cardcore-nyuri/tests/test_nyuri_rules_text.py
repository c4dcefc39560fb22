"""The rules Nyuri ships to players, agents and the docs page."""

from __future__ import annotations

from cardcore.testing import check_rules


def test_the_rules_text_names_every_preset_and_option() -> None:
    """The hooks ship a player's summary of the rules that names every preset and option."""
    check_rules("nyuri")
