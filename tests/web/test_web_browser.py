"""The web table in a real browser: whole games played by clicks, and two people at once."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from cardcore._cards import parse_card
from cardcore._engine import MatchRecord, initial_state_of
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
        lambda d: _log_size(d) > before
        or d.find_elements(By.ID, "clear")
        or d.find_element(By.ID, "error").text,
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
