"""The web table keeps its bots' transcripts in its saves and records, and no page sees them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import websocket

from cardcore import MatchRecord, replay

from .conftest import Serve

ROOT = Path(__file__).resolve().parents[2]
FIRST = "llm:model=fake-first:plugin=tests.llmbot.fake_models"
ASKED = "Answer with one of them, exactly as written"
"""Words of every decision prompt the llm bot is sent, which no view shows."""
HANG = 120.0  # a hang is a failure, never a measure of speed


@pytest.fixture(autouse=True)
def _llm_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The llm library keeps its settings in a folder of the test's own; bots find tests."""
    monkeypatch.setenv("LLM_USER_PATH", str(tmp_path / "llm-home"))
    monkeypatch.syspath_prepend(str(ROOT))


def _decisions(record: MatchRecord, seat: int) -> list[int]:
    return [step.index for step in replay(record) if step.seat == seat]


def _logged(record: MatchRecord, seat: int) -> list[dict[str, Any]]:
    """``seat``'s entries, once checked: one per decision, each with the action it took."""
    assert record.transcripts, "the record has no transcripts"
    entries = [dict(e) for e in record.transcripts[seat]]
    assert [e["index"] for e in entries] == _decisions(record, seat)
    assert all(e["action"] == record.actions[e["index"]] for e in entries)
    assert all(not t for s, t in enumerate(record.transcripts) if s != seat)
    return entries


@pytest.mark.parametrize("isolation", ["none", "process"])
def test_saves_and_the_finished_record_keep_the_llm_seats_transcript_and_no_page_sees_it(
    isolation: str, serve: Serve, tmp_path: Path
) -> None:
    """A save, an undo and the deal's end: the files hold seat 0's log; seat 1's socket never."""
    done = tmp_path / "done.json"
    server, base = serve(
        "highcard", "--human", "1", "--bots", FIRST, "--seed", "3", "--dealer", "1",
        "--isolation", isolation, "--no-sandbox", "--record", str(done),
    )  # fmt: skip
    table = server.table
    ws = websocket.create_connection(
        base.replace("http", "ws", 1) + f"/ws/1?t={table.tokens[1]}", timeout=HANG
    )
    heard: list[str] = []

    def view(pred: Any) -> dict[str, Any]:
        while True:
            raw = ws.recv()
            assert isinstance(raw, str), "the table sends text"
            heard.append(raw)
            msg: dict[str, Any] = json.loads(raw)
            if msg["type"] == "view" and pred(msg):
                return msg

    def play(v: dict[str, Any]) -> dict[str, Any]:
        sent = v["version"]
        ws.send(json.dumps({"type": "play", "action": v["legal"][0]["text"], "version": sent}))
        return view(lambda m: m["over"] or (m["your_turn"] and m["version"] > sent))

    try:
        v = play(view(lambda m: m["your_turn"]))
        assert not v["over"]
        ws.send(json.dumps({"type": "save"}))
        saved = view(lambda m: m["notice"].startswith("saved to"))["saved"]
        part = MatchRecord.load(saved)
        assert part.outcome is None
        so_far = _logged(part, 0)
        assert so_far, "the llm bot had not decided yet: a weak check"
        ws.send(json.dumps({"type": "undo"}))
        v = view(lambda m: "taken back" in m["notice"])
        while not v["over"]:
            v = play(v)
    finally:
        ws.close()
    record = MatchRecord.load(done)
    assert record.outcome is not None and record.outcome.forfeit is None
    entries = _logged(record, 0)
    assert "The rules of" in entries[0]["system"]
    assert sum("system" in e for e in entries) == 2, "the bot seated after the undo is new"
    mine = {ln.strip() for e in entries for p in e["prompts"] for ln in p.splitlines()}
    secret = {ln for ln in mine if "(you)" in ln} | {ASKED}
    assert len(secret) > 1
    for raw in heard:
        assert "transcript" not in raw
        assert not [ln for ln in secret if json.dumps(ln, ensure_ascii=False)[1:-1] in raw]
