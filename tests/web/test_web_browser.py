"""The web table in a real browser: whole games played by clicks, and two people at once."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from cardcore._cards import Card, parse_card
from cardcore._engine import initial_state_of
from cardcore.cli._human_text import _CARD, known_cards

from .conftest import Serve

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
HANG: float = 120.0
"""Seconds before a wait is taken for a hang: a guard only, never a timing check."""


def _status(browser: Any) -> str:
    return str(browser.find_element(By.ID, "status").text)


def _log_size(browser: Any) -> int:
    return len(browser.find_elements(By.CSS_SELECTOR, "#log li"))


def _wait(browser: Any, cond: Any) -> Any:
    return WebDriverWait(browser, HANG, poll_frequency=0.05).until(cond)


def _wait_turn(browser: Any) -> str:
    """Wait until it is this page's turn or the deal is over; the status then."""
    return str(
        _wait(browser, lambda d: _status(d) in ("your turn", "the deal is over") and _status(d))
    )


def _click_and_wait(browser: Any, element: Any) -> None:
    """Click, then wait for the table to take the move (or to ask for more cards)."""
    before = _log_size(browser)
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()
    _wait(
        browser,
        lambda d: (
            _log_size(d) > before
            or d.find_elements(By.ID, "clear")
            or d.find_element(By.ID, "error").text
        ),
    )
    error = browser.find_element(By.ID, "error").text
    assert not error, error


def _play_out(browser: Any, *, cards_first: bool = True) -> int:
    """Play this page's seat to the end of the deal by clicks; how many clicks it took."""
    clicks = 0
    while _wait_turn(browser) == "your turn":
        playable = browser.find_elements(By.CSS_SELECTOR, ".card.playable")
        if cards_first and playable:
            _click_and_wait(browser, playable[0])
            if browser.find_elements(By.ID, "clear"):  # a card of several actions: choose one
                _click_and_wait(browser, browser.find_element(By.CSS_SELECTOR, "#actions .action"))
        else:
            _click_and_wait(browser, browser.find_element(By.CSS_SELECTOR, "#actions .action"))
        clicks += 1
    return clicks


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
    assert _play_out(browser) > 0
    result = browser.find_element(By.ID, "result")
    assert result.is_displayed()
    assert "The deal is over" in browser.find_element(By.ID, "result-text").text
    assert server.table.outcome is not None
    assert browser.find_element(By.ID, "tally").text.startswith("wins after 1 deal")
    ARTIFACTS.mkdir(exist_ok=True)
    browser.save_screenshot(str(ARTIFACTS / f"web-{argv[0]}-end.png"))


_RECORD_SOCKET = """
(() => {
  const Native = window.WebSocket;
  window.__seen = [];
  function Recorded(...args) {
    const ws = new Native(...args);
    ws.addEventListener("message", (e) => window.__seen.push(e.data));
    return ws;
  }
  Recorded.prototype = Native.prototype;
  Recorded.OPEN = Native.OPEN;
  window.WebSocket = Recorded;
})();
"""
"""Keeps every message the page's socket receives, for the test to read."""


def _known(game: Any, state: Any, seat: int) -> set[str]:
    """The card texts ``seat`` may know in ``state``: its table view, and its text."""
    obs = game.observe(state, seat)
    mask = known_cards(obs.table)
    for c in _CARD.findall(game.render(obs)):
        mask |= 1 << parse_card(c).id
    return {str(Card.of(c)) for c in range(52) if mask >> c & 1}


def test_two_people_never_see_each_others_hidden_cards(browser: Any, serve: Serve) -> None:
    """Two windows play Noddy; no page, and no socket message, holds the other's hidden cards."""
    server, base = serve("noddy", "--human", "0", "--human", "1", "--seed", "5")
    links = server.links(base)
    game = server.table.game
    windows = {}
    for seat in (0, 1):
        if seat == 1:
            browser.switch_to.new_window("window")
        browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": _RECORD_SOCKET})
        browser.get(links[seat])
        windows[seat] = browser.current_window_handle
    checked = 0
    while server.table.outcome is None:
        mover = server.table.to_move()
        assert mover is not None
        seat = mover
        browser.switch_to.window(windows[seat])
        if _wait_turn(browser) != "your turn":
            break
        known = _known(game, server.table.state, seat)
        drawn = {
            e.get_attribute("data-card")
            for e in browser.find_elements(By.CSS_SELECTOR, "[data-card]")
        }
        assert drawn <= known, drawn - known
        assert not browser.find_elements(
            By.CSS_SELECTOR, f'#others [data-owner="{1 - seat}"] [data-card]'
        )
        checked += 1
        _click_and_wait(browser, browser.find_element(By.CSS_SELECTOR, "#actions .action"))
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
            known = _known(game, state, seat)
            hidden = set(_cards_of_others(game, state, seat)) - known
            body = json.dumps({k: v for k, v in m.items() if k != "log"}, ensure_ascii=False)
            assert not {c for c in hidden if c in body}, m["version"]
            for i, entry in enumerate(m["log"]):
                later = states[i + 1]
                hid = set(_cards_of_others(game, later, seat)) - _known(game, later, seat)
                assert not {c for c in hid if c in entry["text"]}
    browser.switch_to.window(windows[1])
    browser.close()
    browser.switch_to.window(windows[0])


def _cards_of_others(game: Any, state: Any, seat: int) -> list[str]:
    """Every card in the other seats' own zones, read from the full state."""
    table = state.table
    out = []
    for i, z in enumerate(table.layout.zones):
        if z.owner is not None and z.owner != seat:
            out += [str(c) for c in table.cards(i)]
    return out
