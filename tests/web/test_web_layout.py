"""Layout hints: a plugin may say where the web table draws its zones; none is needed."""

from __future__ import annotations

import types
import warnings
from typing import Any

import pytest
from selenium.webdriver.common.by import By

from cardcore import LayoutHints, Plugin, PluginHost, hookimpl
from cardcore._html import zone_entries

from ._browser import ARTIFACTS, click_and_wait, play_out, wait_turn
from .conftest import Serve


def _zones(browser: Any, where: str) -> list[str]:
    """The zones drawn in one part of the page, in order."""
    return [
        e.get_attribute("data-zone")
        for e in browser.find_elements(By.CSS_SELECTOR, f"#{where} > .zone")
    ]


def test_nestors_hints_put_the_trick_in_the_centre_and_fan_the_tricks_won(
    browser: Any, serve: Serve
) -> None:
    """Nestors' hints draw the trick in the centre, its order in the middle, won piles fanned."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the plugin's hints name only zones it has
        server, base = serve(
            "nestors",
            "--human",
            "0",
            "--bots",
            "random",
            "--seed",
            "3",
            "--option",
            "threshold=100",
        )
    browser.get(server.links(base)[0])
    # Some way into the deal: until a trick was won and the next one holds a card.
    while not (
        browser.find_elements(By.CSS_SELECTOR, '[data-zone^="won"] [data-card]')
        and browser.find_elements(By.CSS_SELECTOR, '[data-zone="trick"] [data-card]')
    ):
        assert wait_turn(browser) == "your turn"
        click_and_wait(browser, browser.find_element(By.CSS_SELECTOR, "#actions .action"))
        wait_turn(browser)
    assert _zones(browser, "centre") == ["trick"]
    assert "centre" in browser.find_element(By.CSS_SELECTOR, '[data-zone="trick"]').get_attribute(
        "class"
    )
    assert _zones(browser, "middle") == ["row", "hole", "stock", "won0", "won1"]
    for won in ("won0", "won1"):
        assert "stack" in browser.find_element(
            By.CSS_SELECTOR, f'[data-zone="{won}"]'
        ).get_attribute("class")
    ARTIFACTS.mkdir(exist_ok=True)
    browser.save_screenshot(str(ARTIFACTS / "web-nestors-hints.png"))
    play_out(browser)
    assert server.table.outcome is not None


def test_a_game_without_hints_is_drawn_from_its_layout_alone(browser: Any, serve: Serve) -> None:
    """High card registers no hints: its zones are sent as the layout draws them, none centred."""
    server, base = serve("highcard", "--human", "0", "--bots", "random", "--seed", "2")
    table = server.table
    view = table.view(0)
    obs = table.game.observe(table.state, 0)
    assert view["zones"] == zone_entries([obs.table], 0, table.game.teams(table.n))
    browser.get(server.links(base)[0])
    wait_turn(browser)
    assert _zones(browser, "centre") == []
    assert _zones(browser, "middle") == ["stock", "trick", "done"]
    assert play_out(browser) > 0


def test_a_hint_naming_an_unknown_zone_is_ignored_with_a_warning(serve: Serve) -> None:
    """A hint for a zone the table lacks warns, naming it and the zones there are; play goes on."""
    hints = LayoutHints(game="highcard", centre=["nowhere", "trick"], order=["done"])
    with pytest.warns(UserWarning, match=r"centre names zone 'nowhere'.*its zones: stock, hand0"):
        server, _ = serve(
            "highcard", "--human", "0", "--bots", "random", "--seed", "2", layout_hints=[hints]
        )
    zones = server.table.view(0)["zones"]
    assert [z["name"] for z in zones][:1] == ["done"]
    assert [z["name"] for z in zones if z["place"] == "centre"] == ["trick"]
    assert server.table.outcome is None


def test_a_hint_names_a_family_of_numbered_zones(serve: Serve) -> None:
    """``hand`` stands for every seat's hand, at any player count, and warns of nothing."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        server, _ = serve(
            "highcard",
            "--human", "0", "--bots", "random", "--players", "3", "--seed", "2",
            layout_hints=[LayoutHints(game="highcard", stacked=["hand"])],
        )  # fmt: skip
    zones = server.table.view(0)["zones"]
    assert {z["name"] for z in zones if z["stacked"]} == {"hand0", "hand1", "hand2"}


def test_the_host_reads_layout_hints_from_records_and_hook_functions() -> None:
    """A Plugin record's hints and a hook function's are both read, for their game only."""
    host = PluginHost(load_entrypoints=False)
    host.register(Plugin(layout_hints=[LayoutHints(game="a", centre=["trick"])]), name="rec")

    @hookimpl
    def cardcore_register_layout_hints() -> list[LayoutHints]:
        return [LayoutHints(game="a", order=["row"]), LayoutHints(game="b", order=["x"])]

    module = types.ModuleType("hinting")
    module.cardcore_register_layout_hints = cardcore_register_layout_hints  # type: ignore[attr-defined]
    host.register(module)
    assert sorted(h.order + h.centre for h in host.layout_hints("a")) == [("row",), ("trick",)]
    assert host.layout_hints("c") == ()
    assert host.problems == ()


def test_malformed_layout_hints_are_refused_with_the_reason() -> None:
    """A bare string for a list of zones, or a record of another kind, is a TypeError."""
    with pytest.raises(TypeError, match="a list of zone names, not 'trick'"):
        LayoutHints(game="a", centre="trick")
    with pytest.raises(TypeError, match="takes LayoutHints records"):
        Plugin(layout_hints=["trick"])  # type: ignore[list-item]
    host = PluginHost(load_entrypoints=False)

    @hookimpl
    def cardcore_register_layout_hints() -> list[Any]:
        return ["trick"]

    module = types.ModuleType("badhints")
    module.cardcore_register_layout_hints = cardcore_register_layout_hints  # type: ignore[attr-defined]
    host.register(module)
    with pytest.raises(TypeError, match="yielded str, not LayoutHints"):
        host.layout_hints("a")
