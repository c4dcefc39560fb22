"""``play --web`` runs its bots as ``play`` does in the terminal: isolated, and cleaned up.

The attack bots of ``tests/arena/attack_bots.py`` sit at a web table: an untrusted bot
plays from a process of its own, its old process ends when the table deals again, and
what a bot started (even detached) is gone when the server stops.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import websocket

from cardcore._isolation import IsolatedBot
from tests.arena.attack_bots import _marked
from tests.arena.attack_bots import _running as _alive

from .conftest import Serve

ROOT = Path(__file__).resolve().parents[2]
BOTS = "tests.arena.attack_bots"
HANG = 120.0  # a hang is a failure, never a measure of speed


def _views(ws: Any, pred: Any) -> dict[str, Any]:
    """The next view ``pred`` accepts."""
    while True:
        msg: dict[str, Any] = json.loads(ws.recv())
        if msg["type"] == "view" and pred(msg):
            return msg


def _play_out(ws: Any) -> dict[str, Any]:
    """Play the first legal action until the deal is over; the last view."""
    view = _views(ws, lambda v: v["your_turn"] or v["over"])
    while not view["over"]:
        sent = view["version"]
        ws.send(json.dumps({"type": "play", "action": view["legal"][0]["text"], "version": sent}))
        view = _views(ws, lambda v: v["over"] or (v["your_turn"] and v["version"] > sent))  # noqa: B023
    return view


def test_an_untrusted_bot_plays_from_its_own_process(
    serve: Serve, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An import-path bot is isolated by default; a new deal ends its old process."""
    monkeypatch.syspath_prepend(str(ROOT))
    server, base = serve("highcard", "--bots", f"{BOTS}:SeedThief", "--human", "1", "--no-sandbox")
    table = server.table
    bot = table.bots[0]
    assert type(bot) is IsolatedBot
    first = bot.process.pid
    assert first is not None and first != os.getpid() and _alive(first)
    ws = websocket.create_connection(
        base.replace("http", "ws", 1) + f"/ws/1?t={table.tokens[1]}", timeout=HANG
    )
    try:
        over = _play_out(ws)
        assert over["outcome"] is not None and over["outcome"]["forfeit"] is None
        ws.send(json.dumps({"type": "again"}))
        _views(ws, lambda v: v["notice"] and not v["over"])
        again = table.bots[0]
        assert type(again) is IsolatedBot and again is not bot
        assert again.process.pid not in (None, first)
        assert not _alive(first)  # the last deal's bot is stopped, not left running
    finally:
        ws.close()


def test_what_a_bot_detaches_ends_with_the_server(tmp_path: Path) -> None:
    """A bot's detached grandchild is gone once ``play --web`` is stopped with Ctrl-C."""
    marker = f"3604.{os.getpid()}"
    argv = [
        sys.executable, "-m", "cardcore", "play", "highcard", "--web", "--no-browser",
        "--human", "1", "--bots", f"{BOTS}:Detacher:marker={marker}", "--no-sandbox",
    ]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with subprocess.Popen(
        argv, env=env, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    ) as proc:
        try:
            assert proc.stdout is not None
            lines = []
            for line in proc.stdout:
                lines.append(line)
                if "Ctrl-C stops the table" in line:
                    break
            text = "".join(lines)
            assert re.search(r"seat 0: tests\.arena\.attack_bots:Detacher", text), text
            assert "shown when it is over" in lines[0]  # no seed to read off the screen
            assert _marked(marker), "the bot did not start its process"
            proc.send_signal(signal.SIGINT)
            proc.wait(timeout=HANG)  # not to the pipes' end: a leftover may hold them open
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    assert proc.returncode == 0
    assert not _marked(marker)
