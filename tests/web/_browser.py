"""Driving the web table's page in a browser, and what a seat may know, for the web tests."""

from __future__ import annotations

import queue
import threading
from pathlib import Path
from typing import IO, Any

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from cardcore._cards import Card, parse_card
from cardcore.cli._human_text import _CARD, known_cards

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
HANG: float = 120.0
"""Seconds before a wait is taken for a hang: a guard only, never a timing check."""


def status(browser: Any) -> str:
    return str(browser.find_element(By.ID, "status").text)


def _log_size(browser: Any) -> int:
    return len(browser.find_elements(By.CSS_SELECTOR, "#log li"))


def wait(browser: Any, cond: Any) -> Any:
    return WebDriverWait(browser, HANG, poll_frequency=0.05).until(cond)


def wait_turn(browser: Any) -> str:
    """Wait until it is this page's turn or the deal is over; the status then."""
    return str(
        wait(browser, lambda d: status(d) in ("your turn", "the deal is over") and status(d))
    )


def click_and_wait(browser: Any, element: Any) -> None:
    """Click, then wait for the table to take the move (or to ask for more cards)."""
    before = _log_size(browser)
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()
    wait(
        browser,
        lambda d: (
            _log_size(d) > before
            or d.find_elements(By.ID, "clear")
            or d.find_element(By.ID, "error").text
            or d.find_element(By.ID, "privacy").is_displayed()
        ),
    )
    error = browser.find_element(By.ID, "error").text
    assert not error, error


def play_out(browser: Any, *, cards_first: bool = True) -> int:
    """Play this page's seat to the end of the deal by clicks; how many clicks it took."""
    clicks = 0
    while wait_turn(browser) == "your turn":
        playable = browser.find_elements(By.CSS_SELECTOR, ".card.playable")
        if cards_first and playable:
            click_and_wait(browser, playable[0])
            if browser.find_elements(By.ID, "clear"):  # a card of several actions: choose one
                click_and_wait(browser, browser.find_element(By.CSS_SELECTOR, "#actions .action"))
        else:
            click_and_wait(browser, browser.find_element(By.CSS_SELECTOR, "#actions .action"))
        clicks += 1
    return clicks


RECORD_SOCKET = """
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


def known_to(game: Any, state: Any, seat: int) -> set[str]:
    """The card texts ``seat`` may know in ``state``: its table view, and its text."""
    obs = game.observe(state, seat)
    mask = known_cards(obs.table)
    for c in _CARD.findall(game.render(obs)):
        mask |= 1 << parse_card(c).id
    return {str(Card.of(c)) for c in range(52) if mask >> c & 1}


def cards_of_others(game: Any, state: Any, seat: int) -> list[str]:
    """Every card in the other seats' own zones, read from the full state."""
    table = state.table
    out = []
    for i, z in enumerate(table.layout.zones):
        if z.owner is not None and z.owner != seat:
            out += [str(c) for c in table.cards(i)]
    return out


def lines_of(stream: IO[str]) -> tuple[queue.Queue[str], threading.Thread]:
    """The lines a process prints, read in a thread (so a hang cannot block the test)."""
    out: queue.Queue[str] = queue.Queue()

    def read() -> None:
        for line in stream:
            out.put(line)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    return out, reader
