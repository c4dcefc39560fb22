"""llm entrants in an arena: the report's rates, tokens and cost; games played concurrently."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cardcore import MatchRecord, replay
from cardcore.arena import run_arena
from cardcore.arena._result import USAGE_NOTE
from cardcore.arena._store import ArenaError, Store
from cardcore.cli import main
from tests.llmbot import fake_models
from tests.llmbot.test_llm_bot import PLUGIN

FIRST, ILLEGAL, SLOW = (
    f"llm:model={m}:{PLUGIN}" for m in ("fake-first", "fake-illegal", "fake-slow")
)


@pytest.fixture(autouse=True)
def _llm_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The llm library keeps its settings in a folder of the test's own; workers find tests."""
    monkeypatch.setenv("LLM_USER_PATH", str(tmp_path / "llm-home"))
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[2]))  # spawn passes it on


def _records(db: Path, run: str) -> dict[tuple[int, int], tuple[tuple[int, ...], MatchRecord]]:
    with Store(db) as store:
        return {
            (r.deal, r.arrangement): (r.seats, MatchRecord.from_json(r.record))
            for r in store.games(run, records=True)
            if r.record is not None
        }


def test_the_report_gives_the_illegal_and_retry_rates_the_fake_models_imply(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """fake-illegal names a stale action at every third decision of a match, then a legal one."""
    db = tmp_path / "a.sqlite"
    result = run_arena(
        "highcard", [FIRST, ILLEGAL, "random"], games=2, seed=5, workers=2, time_limit=60, db=db
    )
    assert result.played == result.games == 12 and result.errors == ()
    assert not any(b.forfeits for b in result.bots), result.table()
    # The script, applied to the decisions each entrant made (read from the actions).
    decisions = [0, 0, 0]
    for seats, record in _records(db, result.run).values():
        mine = [step.seat for step in replay(record)]
        for seat, entrant in enumerate(seats):
            decisions[entrant] += mine.count(seat)
    refused = 0
    for seats, record in _records(db, result.run).values():
        seat = seats.index(1)
        refused += sum(1 for k in range([s.seat for s in replay(record)].count(seat)) if k % 3 == 2)
    assert refused > 0
    first, illegal, rand = (b.usage for b in result.bots)
    assert rand is None
    assert first is not None and illegal is not None
    assert (first.decisions, first.answers, first.refused, first.retried) == (
        decisions[0],
        decisions[0],
        0,
        0,
    )
    assert (illegal.decisions, illegal.refused, illegal.retried) == (decisions[1], refused, refused)
    assert illegal.answers == decisions[1] + refused
    assert illegal.illegal_rate == refused / (decisions[1] + refused)
    assert illegal.retry_rate == refused / decisions[1]
    for u in (first, illegal):
        assert u.input_tokens > 0 and u.cost == fake_models.PRICE * (
            u.input_tokens + u.output_tokens
        )
    table = result.table()
    assert USAGE_NOTE in table
    header, _, *rows = table.splitlines()[2:7]
    assert header.split()[-4:] == ["illegal", "retries", "tokens", "cost"]
    assert f"{illegal.illegal_rate:.1%}" in rows[1] and f"{illegal.retry_rate:.1%}" in rows[1]
    assert rows[2].split()[-4:] == ["-"] * 4
    data = result.to_json()["bots"][1]["usage"]
    assert data["retry_rate"] == illegal.retry_rate and data["refused"] == refused
    csv_head, _, csv_illegal, _ = result.csv().splitlines()
    assert csv_head.endswith(",illegal_rate,retry_rate,input_tokens,output_tokens,cost")
    assert f",{refused},{illegal.illegal_rate!r},{illegal.retry_rate!r}," in csv_illegal
    report = tmp_path / "report.html"
    args = ["arena", "highcard", "--bots", f"{FIRST},{ILLEGAL},random", "--games", "2"]
    args += ["--seed", "5", "--db", str(db), "--time-limit", "60", "--report", str(report)]
    assert main([*args, "--report-replays", "0", "--no-progress"]) == 0  # all reused
    assert f"{illegal.retry_rate:.1%}" in capsys.readouterr().out
    assert f"<td>{illegal.illegal_rate:.1%}</td>" in report.read_text(encoding="utf-8")


def _overlap(events: Path) -> bool:
    """Whether an answer of one match began while an answer of another was under way."""
    inside: set[str] = set()
    for line in events.read_text(encoding="utf-8").splitlines():
        what, conversation = line.split()
        if what == "enter":
            if inside - {conversation}:
                return True
            inside.add(conversation)
        else:
            inside.discard(conversation)
    return False


def _without_seconds(record: MatchRecord) -> Any:
    data = record.to_json()
    data["transcripts"] = [
        [{k: v for k, v in e.items() if k != "seconds"} for e in seat]
        for seat in data["transcripts"]
    ]
    return data


@pytest.mark.parametrize("workers", [0, 1])
def test_concurrent_games_overlap_and_give_the_same_results(
    workers: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With --concurrency 4 the slow model's matches overlap; every result is as with 1."""
    runs = {}
    for concurrency in (1, 4):
        events = tmp_path / f"events{concurrency}.txt"
        monkeypatch.setenv(fake_models.EVENTS, str(events))
        db = tmp_path / f"c{concurrency}.sqlite"
        result = run_arena(
            "highcard",
            [SLOW, ILLEGAL],
            games=4,
            seed=3,
            workers=workers,
            time_limit=60,
            db=db,
            concurrency=concurrency,
        )
        assert result.played == 8 and result.errors == (), result.errors
        assert not any(b.forfeits for b in result.bots), result.table()
        runs[concurrency] = (result, _records(db, result.run), _overlap(events))
    (one, records_one, overlap_one), (four, records_four, overlap_four) = runs[1], runs[4]
    assert not overlap_one and overlap_four
    assert [b.to_json() | {"usage": None} for b in one.bots] == [
        b.to_json() | {"usage": None} for b in four.bots
    ]
    for a, b in zip(one.bots, four.bots, strict=True):
        assert a.usage is not None and b.usage is not None
        assert (a.usage.answers, a.usage.refused, a.usage.cost) == (
            b.usage.answers,
            b.usage.refused,
            b.usage.cost,
        )
    assert records_one.keys() == records_four.keys()
    for key, (seats, record) in records_one.items():
        assert records_four[key][0] == seats
        assert _without_seconds(records_four[key][1]) == _without_seconds(record), key


def test_concurrency_is_refused_with_isolated_bots_and_out_of_range() -> None:
    """Isolated seats have one process per seat and worker: threads cannot share them."""
    with pytest.raises(ArenaError, match=r"isolated bots \(random, random#2\) cannot share"):
        run_arena(
            "highcard", ["random", "random"], games=1, workers=0, isolation="process", concurrency=2
        )
    with pytest.raises(ArenaError, match="--concurrency must be 1-256, not 0"):
        run_arena("highcard", ["random", "random"], games=1, workers=0, concurrency=0)
