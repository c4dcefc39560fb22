"""``cardcore serve --record DIR``: each finished match's whole record, written for replay."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from mcp import ClientSession

from cardcore import MatchRecord
from cardcore._service import MatchService, RecordWriter
from cardcore.cli import main
from tests.llmbot.test_llm_bot import PLUGIN
from tests.serve.test_mcp_stdio import Call, _with_session

FIRST = f"llm:model=fake-first:{PLUGIN}"


@pytest.fixture(autouse=True)
def _llm_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The llm library keeps its settings in a folder of the test's own."""
    monkeypatch.setenv("LLM_USER_PATH", str(tmp_path / "llm-home"))
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[2]))


def _play_out(svc: MatchService, view: dict[str, Any]) -> dict[str, Any]:
    """Play the agent's first legal action until the match is over; the agent's result."""
    while not view["over"]:
        view = svc.play(view["match"], view["legal_actions"][0])
        assert view["ok"], view
    return svc.result(view["match"])


def test_a_finished_match_is_written_whole_and_replays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The file holds the operator's record, the llm seat's transcript too; replay reads it."""
    folder = tmp_path / "new" / "records"
    writer = RecordWriter(folder)
    svc = MatchService(on_finish=writer)
    view = svc.start_match("highcard", seats=[1], bots=[FIRST], seed=3)
    assert not folder.exists(), "written before the match is over"
    result = _play_out(svc, view)
    path = folder / f"highcard-{view['match']}.cardcore.json"
    assert writer.written == [path]
    kept = MatchRecord.load(path)
    assert kept == svc.record(view["match"])
    assert kept.outcome is not None and kept.transcripts[0], "the bot's transcript is kept"
    told = MatchRecord.from_json(result["record"])
    assert told.transcripts == () and told.actions == kept.actions, "the agent's stays its own"
    assert main(["replay", str(path), "--transcripts"]) == 0
    assert "The rules of" in capsys.readouterr().out


def test_a_record_never_overwrites_a_file(tmp_path: Path) -> None:
    """A name already taken (a second run numbers its matches anew) gets -2, -3, ..."""
    taken = [tmp_path / "highcard-m1.cardcore.json", tmp_path / "highcard-m1-2.cardcore.json"]
    for path in taken:
        path.write_text("someone else's", encoding="utf-8")
    svc = MatchService(on_finish=RecordWriter(tmp_path))
    view = svc.start_match("highcard", bots=["random"], seed=5)
    _play_out(svc, view)
    assert view["match"] == "m1"
    assert [p.read_text(encoding="utf-8") for p in taken] == ["someone else's"] * 2
    assert MatchRecord.load(tmp_path / "highcard-m1-3.cardcore.json") == svc.record("m1")


def test_a_record_that_cannot_be_written_is_one_line_and_nothing_is_lost(
    tmp_path: Path,
) -> None:
    """The service carries on and keeps the record in memory; one line says what failed."""
    blocker = tmp_path / "a-file"
    blocker.write_text("", encoding="utf-8")
    lines: list[str] = []
    svc = MatchService(on_finish=RecordWriter(blocker / "records", warn=lines.append))
    for seed in (1, 2):
        view = svc.start_match("highcard", bots=["random"], seed=seed)
        result = _play_out(svc, view)
        assert result["over"] and svc.record(view["match"]).outcome is not None
    assert len(lines) == 2
    assert "match m1" in lines[0] and str(blocker / "records") in lines[0]
    assert "\n" not in lines[0]
    assert list(tmp_path.iterdir()) == [blocker]


def test_serve_refuses_a_record_folder_that_is_a_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--record`` naming a file stops the server before it starts, saying why."""
    path = tmp_path / "f.json"
    path.write_text("{}", encoding="utf-8")
    assert main(["serve", "--record", str(path)]) == 2
    assert f"--record {path}: not a folder" in capsys.readouterr().err
    assert path.read_text(encoding="utf-8") == "{}"


def test_the_server_writes_each_finished_match_to_the_record_folder(tmp_path: Path) -> None:
    """Over stdio, ``cardcore serve --record DIR`` leaves one replayable file per match."""
    folder = tmp_path / "records"

    async def script(session: ClientSession, call: Call) -> None:
        for _ in range(2):
            view = await call("start_match", {"game": "highcard", "bots": ["random"]})
            while not view["over"]:
                action = view["legal_actions"][0]
                view = await call("play_action", {"match_id": view["match"], "action": action})
            result = await call("get_result", {"match_id": view["match"]})
            path = folder / f"highcard-{view['match']}.cardcore.json"
            assert json.loads(path.read_text(encoding="utf-8")) == result["record"]

    _with_session(script, "--record", str(folder))
    assert sorted(p.name for p in folder.iterdir()) == [
        "highcard-m1.cardcore.json",
        "highcard-m2.cardcore.json",
    ]
    for path in folder.iterdir():
        assert main(["replay", str(path)]) == 0
