"""Nestors' layout hints for the web table name zones of its layout, and the trick first."""

from __future__ import annotations

from cardcore import PluginHost
from cardcore_nestors.hooks import plugin
from cardcore_nestors.state import LAYOUT


def _fits(name: str, zone: str) -> bool:
    return zone == name or (zone.startswith(name) and zone[len(name) :].isdigit())


def test_every_layout_hint_names_a_zone_of_the_layout() -> None:
    """Each zone a hint names (or each numbered family, ``won``) is in the Nestors layout."""
    zones = [z.name for z in LAYOUT.zones]
    (hints,) = plugin.layout_hints
    named = [*hints.centre, *hints.order, *hints.stacked]
    assert named
    assert [n for n in named if not any(_fits(n, z) for z in zones)] == []


def test_the_host_gives_the_trick_the_centre() -> None:
    """Through the plugin host, Nestors asks for its trick in the centre, drawn first."""
    (hints,) = PluginHost().layout_hints("nestors")
    assert hints.centre == ("trick",) and hints.order[0] == "trick"
