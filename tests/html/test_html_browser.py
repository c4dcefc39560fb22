"""The replay viewer and the arena report in a real browser (headless Chromium).

``make test`` installs Debian's chromium and chromium-driver when they are missing. A
screenshot of each page is kept in ``test-artifacts/`` for people to look at.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from selenium import webdriver
from selenium.common.exceptions import ElementClickInterceptedException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from cardcore import load_bot, load_game, play_match
from cardcore._html import ALL_SEATS, replay_html
from cardcore.cli import main

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A headless Chromium driven by selenium, using only the system's binaries."""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if chromium is None or driver is None:
        pytest.fail("Chromium and ChromeDriver are needed: run `make browser` (apt-get install)")
    os.environ.setdefault("SE_AVOID_STATS", "true")
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=1200,900",
        f"--user-data-dir={tmp_path_factory.mktemp('chromium')}",
    ):
        options.add_argument(flag)
    drv = webdriver.Chrome(service=Service(executable_path=driver), options=options)
    try:
        yield drv
    finally:
        drv.quit()


def _text(browser: Any, element_id: str) -> str:
    return str(browser.find_element(By.ID, element_id).text)


def _click(browser: Any, by: str, what: str) -> None:
    """Click an element as a user would, scrolled into view first."""
    element = browser.find_element(by, what)
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    try:
        element.click()
    except ElementClickInterceptedException:
        # The page was still laying out (the move list scrolls with the current step).
        browser.execute_script("arguments[0].click()", element)


def test_the_viewer_steps_through_a_match(browser: Any, tmp_path: Path) -> None:
    """Buttons and keys move through the steps; cards are drawn; the end shows the outcome."""
    game = load_game("noddy")
    bots = [load_bot("noddy-heuristic", game, seed=1), load_bot("random", game, seed=2)]
    record = play_match(game, bots, seed=3)
    page = tmp_path / "replay.html"
    page.write_text(replay_html(record, game, ALL_SEATS), encoding="utf-8")
    browser.get(page.as_uri())
    steps = len(record.actions)
    assert _text(browser, "counter") == f"step 0 / {steps}"
    assert _text(browser, "move") == "before the first decision"
    hands = browser.find_elements(By.CSS_SELECTOR, '[data-zone="hand0"] .card:not(.back)')
    assert len(hands) == 3  # every seat's cards face up
    assert browser.find_elements(By.CSS_SELECTOR, ".card.red, .card:not(.red)")
    assert browser.find_element(By.ID, "prev").get_attribute("disabled") is not None

    _click(browser, By.ID, "next")
    assert _text(browser, "counter") == f"step 1 / {steps}"
    assert _text(browser, "move").endswith(": " + record.actions[0])
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
    assert _text(browser, "counter") == f"step 2 / {steps}"
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_LEFT)
    assert _text(browser, "counter") == f"step 1 / {steps}"
    current = browser.find_element(By.CSS_SELECTOR, "#log li.current")
    assert current.get_attribute("data-step") == "1"
    assert current.text.endswith(record.actions[0])

    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.END)
    assert _text(browser, "counter") == f"step {steps} / {steps}"
    assert _text(browser, "next-up") == "the match is over"
    outcome = browser.find_element(By.ID, "outcome")
    assert outcome.is_displayed()
    assert "score" in outcome.text
    ARTIFACTS.mkdir(exist_ok=True)
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.HOME)
    _click(browser, By.ID, "next")
    browser.save_screenshot(str(ARTIFACTS / "replay-viewer.png"))


def test_a_seat_view_shows_other_hands_face_down(browser: Any, tmp_path: Path) -> None:
    """Seen by seat 1, seat 0's hand is drawn as card backs and its moves are not named."""
    game = load_game("noddy")
    bots = [load_bot("random", game, seed=1), load_bot("random", game, seed=2)]
    record = play_match(game, bots, seed=4)
    page = tmp_path / "seat1.html"
    page.write_text(replay_html(record, game, 1), encoding="utf-8")
    browser.get(page.as_uri())
    backs = browser.find_elements(By.CSS_SELECTOR, '[data-zone="hand0"] .card.back')
    faces = browser.find_elements(By.CSS_SELECTOR, '[data-zone="hand1"] .card:not(.back)')
    assert len(backs) == 3
    assert len(faces) == 3
    titles = [h.text for h in browser.find_elements(By.CSS_SELECTOR, ".zone h2")]
    assert "your hand (3)" in titles and "seat 0's hand (3)" in titles
    log = [li.text for li in browser.find_elements(By.CSS_SELECTOR, "#log li")]
    theirs = [t for t in log if t.startswith("seat 0:")]
    assert any(re.fullmatch(r"seat 0: played (10|[2-9JQKA])[♣♦♥♠]", t) for t in theirs)
    assert not any("(moves)" in t for t in log)


def test_every_seat_view_shows_each_seat_its_own_text(browser: Any, tmp_path: Path) -> None:
    """Every hand is face up, and the text beside it is the chosen seat's, not an onlooker's."""
    game = load_game("noddy")
    bots = [load_bot("random", game, seed=1), load_bot("random", game, seed=2)]
    record = play_match(game, bots, seed=4)
    page = tmp_path / "all.html"
    page.write_text(replay_html(record, game, ALL_SEATS), encoding="utf-8")
    browser.get(page.as_uri())
    assert "onlooker" not in _text(browser, "text")
    _click(browser, By.CSS_SELECTOR, '#text-seats button[data-seat="1"]')
    assert "seen by seat 1" in _text(browser, "text")
    _click(browser, By.CSS_SELECTOR, '#text-seats button[data-seat="0"]')
    assert "seen by seat 0" in _text(browser, "text")


def test_the_arena_report_links_to_replays(browser: Any, tmp_path: Path) -> None:
    """The report shows the results table and plots; a replay link opens the viewer."""
    out = tmp_path / "report.html"
    args = ["arena", "noddy", "--bots", "noddy-heuristic,random", "--games", "4", "--seed", "1"]
    args += ["--db", str(tmp_path / "a.sqlite"), "--no-progress", "--report", str(out)]
    assert main(args) == 0
    browser.get(out.as_uri())
    rows = browser.find_elements(By.CSS_SELECTOR, "#results tbody tr")
    assert [r.find_elements(By.TAG_NAME, "td")[0].text for r in rows] == [
        "noddy-heuristic",
        "random",
    ]
    assert browser.find_elements(By.CSS_SELECTOR, "svg rect")
    ARTIFACTS.mkdir(exist_ok=True)
    browser.save_screenshot(str(ARTIFACTS / "arena-report.png"))
    _click(browser, By.CSS_SELECTOR, "#replays a")
    assert _text(browser, "counter").startswith("step 0 / ")


def test_a_decision_of_an_llm_seat_opens_its_transcript(
    browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seen by seat 0, its decisions carry a collapsed panel: prompts, answers, refusals."""
    monkeypatch.setenv("LLM_USER_PATH", str(tmp_path / "llm-home"))
    game = load_game("noddy", target=15)
    plugin = "plugin=tests.llmbot.fake_models"
    bots = [
        load_bot(f"llm:model=fake-illegal:{plugin}", game),
        load_bot(f"llm:model=fake-first:{plugin}", game),
    ]
    record = play_match(game, bots, seed=3)
    retried = next(e for e in record.transcripts[0] if e["errors"])
    page = tmp_path / "seat0.html"
    page.write_text(replay_html(record, game, 0), encoding="utf-8")
    browser.get(f"{page.as_uri()}#step={retried['index'] + 1}")
    browser.refresh()
    panel = browser.find_element(By.CSS_SELECTOR, "#transcripts details")
    summary = panel.find_element(By.TAG_NAME, "summary")
    assert summary.text.startswith("seat 0 (llm): transcript: 2 answers, 1 refused")
    prompt = panel.find_element(By.TAG_NAME, "pre")
    assert not prompt.is_displayed()  # collapsed until opened
    _click(browser, By.CSS_SELECTOR, "#transcripts summary")
    assert prompt.is_displayed()
    texts = [pre.text for pre in panel.find_elements(By.TAG_NAME, "pre")]
    assert retried["errors"][0] in texts and retried["answers"][-1] in texts
    ARTIFACTS.mkdir(exist_ok=True)
    browser.save_screenshot(str(ARTIFACTS / "replay-transcript.png"))
    other = next(e for e in record.transcripts[1])
    browser.get(f"{page.as_uri()}#step={other['index'] + 1}")
    browser.refresh()
    assert not browser.find_element(By.ID, "transcripts").is_displayed()
