"""The web table in a real browser: whole games played by clicks, and two people at once."""

from __future__ import annotations

import json
from typing import Any

import pytest
from selenium.webdriver.common.by import By

from cardcore._engine import initial_state_of

from ._browser import (
    ARTIFACTS,
    RECORD_SOCKET,
    cards_of_others,
    click_and_wait,
    known_to,
    play_out,
    wait_turn,
)
from .conftest import Serve


@pytest.mark.parametrize(
    "argv",
    [
        ["highcard", "--bots", "random"],
        ["noddy", "--bots", "random"],
        ["box", "--bots", "random"],
        ["nestors", "--bots", "random", "--option", "threshold=100"],
        ["nyuri", "--bots", "random"],
    ],
    ids=lambda a: a[0],
)
def test_a_whole_game_is_played_by_clicks_against_bots(
    browser: Any, serve: Serve, argv: list[str]
) -> None:
    """From the first deal to the result, every decision is a click; the end shows every hand."""
    server, _ = serve(*argv, "--seed", "3", "--human", "0")
    browser.get(server.links(_)[0])
    assert play_out(browser) > 0
    result = browser.find_element(By.ID, "result")
    assert result.is_displayed()
    assert "The deal is over" in browser.find_element(By.ID, "result-text").text
    assert server.table.outcome is not None
    assert browser.find_element(By.ID, "tally").text.startswith("wins after 1 deal")
    ARTIFACTS.mkdir(exist_ok=True)
    browser.save_screenshot(str(ARTIFACTS / f"web-{argv[0]}-end.png"))


def test_two_people_never_see_each_others_hidden_cards(browser: Any, serve: Serve) -> None:
    """Two windows play Noddy; no page, and no socket message, holds the other's hidden cards."""
    server, base = serve("noddy", "--human", "0", "--human", "1", "--seed", "5")
    links = server.links(base)
    game = server.table.game
    windows = {}
    for seat in (0, 1):
        if seat == 1:
            browser.switch_to.new_window("window")
        browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": RECORD_SOCKET})
        browser.get(links[seat])
        windows[seat] = browser.current_window_handle
    checked = 0
    while server.table.outcome is None:
        mover = server.table.to_move()
        assert mover is not None
        seat = mover
        browser.switch_to.window(windows[seat])
        if wait_turn(browser) != "your turn":
            break
        known = known_to(game, server.table.state, seat)
        drawn = {
            e.get_attribute("data-card")
            for e in browser.find_elements(By.CSS_SELECTOR, "[data-card]")
        }
        assert drawn <= known, drawn - known
        assert not browser.find_elements(
            By.CSS_SELECTOR, f'#others [data-owner="{1 - seat}"] [data-card]'
        )
        checked += 1
        click_and_wait(browser, browser.find_element(By.CSS_SELECTOR, "#actions .action"))
    assert checked > 2
    record = server.table.record()
    states = [initial_state_of(record, game)]
    for a in record.actions:
        states.append(game.apply(states[-1], game.parse_action(a)))
    for seat in (0, 1):
        browser.switch_to.window(windows[seat])
        seen = [json.loads(m) for m in browser.execute_script("return window.__seen")]
        views = [m for m in seen if m["type"] == "view"]
        assert views
        for m in views:
            state = states[m["version"]]
            if m["over"]:
                continue  # every hand is public at the end
            known = known_to(game, state, seat)
            hidden = set(cards_of_others(game, state, seat)) - known
            body = json.dumps({k: v for k, v in m.items() if k != "log"}, ensure_ascii=False)
            assert not {c for c in hidden if c in body}, m["version"]
            for i, entry in enumerate(m["log"]):
                later = states[i + 1]
                hid = set(cards_of_others(game, later, seat)) - known_to(game, later, seat)
                assert not {c for c in hid if c in entry["text"]}
    browser.switch_to.window(windows[1])
    browser.close()
    browser.switch_to.window(windows[0])
