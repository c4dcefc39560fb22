"""The web table's socket refuses what it must, and loses nothing when it does."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import websocket

from .conftest import Serve

HANG = 60.0
"""Seconds before a read is taken for a hang: a guard only."""


_OPEN: list[Any] = []


@pytest.fixture(autouse=True)
def _close_sockets() -> Iterator[None]:
    """Every socket a test opened is closed after it."""
    yield
    while _OPEN:
        _OPEN.pop().close()


def _socket(base: str, seat: int, token: str) -> Any:
    ws = websocket.create_connection(
        base.replace("http", "ws", 1) + f"/ws/{seat}?t={token}", timeout=HANG
    )
    _OPEN.append(ws)
    return ws


def _next(ws: Any, kind: str) -> dict[str, Any]:
    """The next message of a kind (views sent meanwhile are skipped)."""
    while True:
        msg = json.loads(ws.recv())
        if msg["type"] == kind:
            return dict(msg)


def _until(ws: Any, pred: Any) -> dict[str, Any]:
    """The next view that ``pred`` accepts (views already on their way are skipped)."""
    while True:
        view = _next(ws, "view")
        if pred(view):
            return view


def _turn(ws: Any) -> dict[str, Any]:
    while True:
        view = _next(ws, "view")
        if view["your_turn"] or view["over"]:
            return view


def test_another_seats_token_is_refused(serve: Serve) -> None:
    """Seat 1's token opens neither seat 0's page nor seat 0's socket."""
    server, base = serve("highcard", "--human", "0", "--human", "1", "--seed", "1")
    tokens = server.table.tokens
    with pytest.raises(urllib.error.HTTPError) as e:
        urllib.request.urlopen(f"{base}/seat/0?t={tokens[1]}", timeout=HANG)
    e.value.close()
    assert e.value.code == 403
    ws = _socket(base, 0, tokens[1])
    msg = _next(ws, "error")
    assert msg["fatal"] and "not seat 0's" in msg["message"]
    with urllib.request.urlopen(f"{base}/seat/0?t={tokens[0]}", timeout=HANG) as ok:
        assert ok.status == 200


def test_the_rules_link_shows_the_rules_the_plugin_ships(serve: Serve) -> None:
    """A seat's "rules" link serves the game's packaged rules text, and only with its token."""
    from cardcore import PluginHost

    server, base = serve("noddy", "--human", "0", "--bots", "random", "--seed", "1")
    token = server.table.tokens[0]
    with urllib.request.urlopen(f"{base}/rules/0?t={token}", timeout=HANG) as page:
        text = page.read().decode("utf-8")
    assert text == PluginHost().game_spec("noddy").rules_text
    with pytest.raises(urllib.error.HTTPError) as e:
        urllib.request.urlopen(f"{base}/rules/0?t=forged", timeout=HANG)
    e.value.close()
    assert e.value.code == 403


def test_forged_and_malformed_messages_are_refused_and_change_nothing(serve: Serve) -> None:
    """Illegal, foreign-seat, bad JSON, oversized and binary messages get an error; play goes on."""
    server, base = serve("highcard", "--bots", "random", "--human", "0", "--seed", "2")
    ws = _socket(base, 0, server.table.tokens[0])
    view = _turn(ws)
    legal = [a["text"] for a in view["legal"]]
    hand = {c for z in view["zones"] if z["mine"] for c in z["cards"]}
    stranger = next(f"play {c}" for c in ("2♣", "3♣", "4♣", "5♣", "A♠", "K♠") if c not in hand)
    cases = [
        (
            json.dumps({"type": "play", "action": stranger, "version": view["version"]}),
            "not one of your legal actions",
        ),
        (
            json.dumps({"type": "play", "action": legal[0], "seat": 1, "version": view["version"]}),
            "not seat 1",
        ),
        (
            json.dumps({"type": "play", "action": "fly away", "version": view["version"]}),
            "cannot read",
        ),
        ("{not json", "not JSON"),
        ("[1, 2]", 'with a "type"'),
        (json.dumps({"type": "steal"}), "unknown message type"),
        (json.dumps({"type": "play", "action": "x" * 5000}), "too long"),
    ]
    played = list(server.table.actions)
    for text, why in cases:
        ws.send(text)
        assert why in _next(ws, "error")["message"]
    ws.send_binary(b"\x00\x01")
    assert "binary" in _next(ws, "error")["message"]
    assert server.table.actions == played
    ws.send(json.dumps({"type": "play", "action": legal[0], "version": view["version"]}))
    after = _next(ws, "view")
    assert after["version"] > len(played)
    assert server.table.actions[len(played)] == legal[0]


def test_a_second_tab_takes_the_seat_and_a_reconnect_loses_nothing(serve: Serve) -> None:
    """The older tab is told it stopped; a new socket gets the same table back."""
    server, base = serve("highcard", "--bots", "random", "--human", "0", "--seed", "4")
    token = server.table.tokens[0]
    first = _socket(base, 0, token)
    view = _turn(first)
    first.send(
        json.dumps({"type": "play", "action": view["legal"][0]["text"], "version": view["version"]})
    )
    mine = _turn(first)
    second = _socket(base, 0, token)
    assert "another tab" in _next(first, "replaced")["message"]
    again = _turn(second)
    assert again["version"] == mine["version"]
    assert again["log"] == mine["log"]
    second.close()
    third = _socket(base, 0, token)
    assert _turn(third)["log"] == mine["log"]


def test_undo_hint_save_resume_and_play_again(serve: Serve, tmp_path: Any) -> None:
    """Undo takes back a move and the bots' replies; a save resumes; a new deal keeps the tally."""
    server, base = serve("noddy", "--bots", "noddy-heuristic", "--human", "0", "--seed", "7")
    table = server.table
    ws = _socket(base, 0, table.tokens[0])
    view = _turn(ws)
    assert view["seed"] is None  # the seed deals every hidden card: not before the end
    ws.send(json.dumps({"type": "hint"}))
    hinted = _until(ws, lambda v: v["notice"])
    assert hinted["hint"] in [a["text"] for a in hinted["legal"]]
    assert "would play" in hinted["notice"]
    before = view["version"]
    ws.send(json.dumps({"type": "play", "action": view["legal"][-1]["text"], "version": before}))
    moved = _turn(ws)
    assert moved["version"] > before and moved["can_undo"]
    ws.send(json.dumps({"type": "undo"}))
    undone = _until(ws, lambda v: v["notice"])
    assert undone["version"] == before and "undone" in undone["notice"]
    ws.send(json.dumps({"type": "play", "action": view["legal"][-1]["text"], "version": before}))
    _turn(ws)
    ws.send(json.dumps({"type": "save"}))
    view = _until(ws, lambda v: v["notice"])
    saved = view["saved"]
    assert saved is not None and saved.startswith(str(tmp_path))
    assert "seed" not in saved and "7" not in Path(saved).name  # the path reaches the page
    resumed, rbase = serve("--resume", saved)
    assert resumed.table.actions == table.actions[: len(resumed.table.actions)]
    assert resumed.table.entries == ["human", "noddy-heuristic"]
    while not view["over"]:
        sent = view["version"]
        ws.send(json.dumps({"type": "play", "action": view["legal"][0]["text"], "version": sent}))
        view = _until(ws, lambda v: v["over"] or (v["your_turn"] and v["version"] > sent))  # noqa: B023
    assert view["deals"] == 1 and sum(view["tally"]) == 1
    assert all(None not in z["cards"] for z in view["reveal"] if z["owner"] is not None)
    assert view["seed"] == 7  # shown once the deal is over, to replay it
    ws.send(json.dumps({"type": "again"}))
    fresh = _until(ws, lambda v: v["notice"])
    assert fresh["seed"] is None and not fresh["over"] and table.base.seed != 7
    assert str(table.base.seed) not in fresh["notice"]  # the new deal's seed waits too
    assert fresh["deals"] == 1 and fresh["tally"] == view["tally"]


def test_without_the_web_extra_play_says_which_extra(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`play --web` with the server library missing is one error line naming the extra."""
    import sys

    from cardcore.cli import main

    monkeypatch.setitem(sys.modules, "starlette", None)
    monkeypatch.setitem(sys.modules, "starlette.applications", None)
    monkeypatch.delitem(sys.modules, "cardcore.web._server", raising=False)
    code = main(["play", "highcard", "--web", "--no-browser", "--human", "0", "--seed", "1"])
    err = capsys.readouterr().err
    assert code == 2
    assert "needs the 'web' extra" in err and "Traceback" not in err
