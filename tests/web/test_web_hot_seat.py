"""Hot seat: people share one screen, which shows no card between two people's turns."""

from __future__ import annotations

import itertools
import json
import re
import signal
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
import websocket
from selenium.webdriver.common.by import By

from cardcore._cards import Card
from cardcore._engine import initial_state_of
from cardcore.cli._common import CliError

from ._browser import (
    ARTIFACTS,
    HANG,
    RECORD_SOCKET,
    cards_of_others,
    click_and_wait,
    known_to,
    lines_of,
    status,
    wait,
)
from .conftest import Serve

EVERY_CARD = [str(Card.of(c)) for c in range(52)]


def _privacy_up(browser: Any) -> bool:
    return bool(browser.find_element(By.ID, "privacy").is_displayed())


def _screen_state(browser: Any) -> str:
    """Wait until the screen asks to be passed, or shows a turn or the end; which."""

    def settled(d: Any) -> str | bool:
        if _privacy_up(d):
            return "privacy"
        return status(d) in ("your turn", "the deal is over") and status(d)

    return str(wait(browser, settled))


def test_a_shared_screen_holds_no_card_between_two_peoples_turns(
    browser: Any, serve: Serve
) -> None:
    """Two people play Noddy at one screen: each privacy step drops every card from the page.

    The screen shows a seat's view only after the click for that seat, and every view the
    socket carried is built from the seat it was revealed to.
    """
    server, base = serve("noddy", "--human", "0", "--human", "1", "--seed", "5", "--hot-seat")
    table = server.table
    game = table.game
    assert server.links(base) == {}  # no per-seat links: one screen
    link = server.screen_link(base)
    assert link is not None
    browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": RECORD_SOCKET})
    browser.get(link)
    passes: list[int] = []
    turns = 0
    while (kind := _screen_state(browser)) != "the deal is over":
        if kind == "privacy":
            seat = int(browser.find_element(By.ID, "privacy").get_attribute("data-seat"))
            assert seat == table.to_move()
            assert f"Pass to seat {seat}" in browser.find_element(By.ID, "privacy-text").text
            assert not browser.find_elements(By.CSS_SELECTOR, "[data-card], .card, #log li")
            page = browser.execute_script(
                "return document.documentElement.outerHTML + document.body.innerText"
            )
            assert not [c for c in EVERY_CARD if c in page], "a card stayed on the page"
            if turns == 2:
                ARTIFACTS.mkdir(exist_ok=True)
                browser.save_screenshot(str(ARTIFACTS / "web-hot-seat-privacy.png"))
            browser.find_element(By.ID, "reveal-seat").click()
            wait(browser, lambda d: not _privacy_up(d))
            passes.append(seat)
            continue
        mover = table.to_move()
        assert mover is not None and passes[-1] == mover
        seat = mover
        assert browser.find_element(By.ID, "title").text.endswith(f"seat {seat}")
        known = known_to(game, table.state, seat)
        drawn = {
            e.get_attribute("data-card")
            for e in browser.find_elements(By.CSS_SELECTOR, "[data-card]")
        }
        assert drawn and drawn <= known, drawn - known
        turns += 1
        click_and_wait(browser, browser.find_element(By.CSS_SELECTOR, "#actions .action"))
    assert set(passes) == {0, 1} and len(passes) > 3
    assert all(a != b for a, b in itertools.pairwise(passes))
    record = table.record()
    states = [initial_state_of(record, game)]
    for a in record.actions:
        states.append(game.apply(states[-1], game.parse_action(a)))
    seen = [json.loads(m) for m in browser.execute_script("return window.__seen")]
    revealed: int | None = None
    views = 0
    for m in seen:
        if m["type"] == "privacy":
            assert not [c for c in EVERY_CARD if c in json.dumps(m, ensure_ascii=False)]
            revealed = m["seat"]
            continue
        if m["type"] != "view":
            continue
        views += 1
        assert m["seat"] == revealed  # a view only for the seat the screen was passed to
        if m["over"]:
            continue  # every hand is public at the end
        state = states[m["version"]]
        hidden = set(cards_of_others(game, state, m["seat"])) - known_to(game, state, m["seat"])
        body = json.dumps({k: v for k, v in m.items() if k != "log"}, ensure_ascii=False)
        assert not {c for c in hidden if c in body}, m["version"]
        for i, entry in enumerate(m["log"]):
            later = states[i + 1]
            hid = set(cards_of_others(game, later, m["seat"])) - known_to(game, later, m["seat"])
            assert not {c for c in hid if c in entry["text"]}
    assert views > len(passes)


def test_the_screen_shows_no_seat_until_passed_and_refuses_the_wrong_seat(serve: Serve) -> None:
    """Before the click for the seat to move, the screen plays nothing and reveals no one else."""
    server, base = serve("highcard", "--human", "0", "--human", "1", "--seed", "3", "--hot-seat")
    table = server.table
    assert table.screen is not None
    with pytest.raises(urllib.error.HTTPError) as e:
        urllib.request.urlopen(f"{base}/seat/0?t={table.screen.token}", timeout=HANG)
    e.value.close()
    assert e.value.code == 403  # one screen, no per-seat links
    with urllib.request.urlopen(f"{base}/rules/screen?t={table.screen.token}", timeout=HANG) as r:
        assert r.status == 200  # the rules are one click away at the screen too
    forged = websocket.create_connection(
        base.replace("http", "ws", 1) + "/ws/screen?t=x", timeout=HANG
    )
    try:
        assert "not the table's screen" in json.loads(forged.recv())["message"]
    finally:
        forged.close()
    ws = websocket.create_connection(
        base.replace("http", "ws", 1) + f"/ws/screen?t={table.screen.token}", timeout=HANG
    )
    try:
        first = json.loads(ws.recv())
        mover = table.to_move()
        assert mover is not None
        assert first["type"] == "privacy" and first["seat"] == mover
        ws.send(json.dumps({"type": "play", "action": "play 2♣", "version": 0}))
        assert "pass it to seat" in _next(ws, "error")["message"]
        ws.send(json.dumps({"type": "reveal", "seat": 1 - mover}))
        assert f"for seat {mover} now" in _next(ws, "error")["message"]
        assert table.actions == []
        ws.send(json.dumps({"type": "reveal", "seat": mover}))
        view = _next(ws, "view")
        assert view["seat"] == mover and view["your_turn"]
        ws.send(json.dumps({"type": "play", "action": view["legal"][0]["text"], "version": 0}))
        step = json.loads(ws.recv())
        assert step == {**step, "type": "privacy", "seat": 1 - mover}
        assert "zones" not in step and "log" not in step
    finally:
        ws.close()


def test_hot_seat_needs_two_people(serve: Serve) -> None:
    """--hot-seat with one person is refused with an error that says what it needs."""
    with pytest.raises(CliError, match="give two --human seats or more"):
        serve("highcard", "--human", "0", "--bots", "random", "--hot-seat")


def _next(ws: Any, kind: str) -> dict[str, Any]:
    """The next message of a kind (others sent meanwhile are skipped)."""
    while True:
        msg = json.loads(ws.recv())
        if msg["type"] == kind:
            return dict(msg)


def test_a_new_deal_at_a_shared_screen_starts_with_the_privacy_step(serve: Serve) -> None:
    """After 'play again' the screen shows no one's new cards until it is passed again.

    Even when the first to move in the new deal is the seat the screen showed last.
    """
    seeds: list[int] = []
    server, base = serve(
        "highcard", "--human", "0", "--human", "1", "--seed", "6", "--hot-seat",
        draw_seed=lambda: seeds[-1],
    )  # fmt: skip
    table = server.table
    game = table.game
    assert table.screen is not None
    ws = websocket.create_connection(
        base.replace("http", "ws", 1) + f"/ws/screen?t={table.screen.token}", timeout=HANG
    )
    try:
        msg = json.loads(ws.recv())
        played: set[int] = set()
        while not (msg["type"] == "view" and msg["over"]):
            if msg["type"] == "error":  # a move the table played for us as forced first
                assert "table changed" in msg["message"] or "over" in msg["message"]
            elif msg["type"] == "privacy":
                ws.send(json.dumps({"type": "reveal", "seat": msg["seat"]}))
            elif msg["your_turn"] and msg["version"] not in played:
                played.add(msg["version"])
                play = {"type": "play", "action": msg["legal"][0]["text"]}
                ws.send(json.dumps({**play, "version": msg["version"]}))
            msg = json.loads(ws.recv())
        last = table.screen.shown
        assert last is not None
        seeds.append(
            next(s for s in range(1000) if game.current_player(game.initial_state(2, s)) == last)
        )
        ws.send(json.dumps({"type": "again"}))
        fresh = json.loads(ws.recv())
        # Messages already on their way about the finished deal come first.
        while fresh.get("over") or (fresh["type"] == "error" and "over" in fresh["message"]):
            fresh = json.loads(ws.recv())
        assert fresh["type"] == "privacy" and "zones" not in fresh, fresh
        assert fresh["seat"] == last == table.to_move()
        assert table.outcome is None and table.screen.shown is None
    finally:
        ws.close()


def test_the_command_line_prints_one_link_for_the_shared_screen(tmp_path: Path) -> None:
    """`play --web --hot-seat` prints the screen's link and no seat's own link."""
    argv = ["play", "noddy", "--web", "--no-browser", "--human", "0", "--human", "1"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "cardcore", *argv, "--hot-seat", "--seed", "2"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert proc.stdout is not None
    printed, reader = lines_of(proc.stdout)
    shown: list[str] = []
    try:
        while not shown or "Ctrl-C" not in shown[-1]:
            shown.append(printed.get(timeout=HANG))  # a hang guard only
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=HANG)
        reader.join(HANG)
        proc.stdout.close()
    text = "".join(shown)
    assert re.search(r"seats 0, 1 share one screen: http://127\.0\.0\.1:\d+/screen\?t=\S+", text)
    assert "/seat/" not in text
