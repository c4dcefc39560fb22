"""Transcripts in the match record: kept per seat, shown by replay and the viewer, redacted."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import attrs
import pytest

from cardcore import SPECTATOR, MatchRecord, RecordError, load_bot, load_game, play_match, replay
from cardcore._html import ALL_SEATS, replay_html
from cardcore.cli import main
from tests.llmbot.test_llm_bot import GAMES, PLUGIN, SMALL

CARDS = [f"{r}{s}" for r in ("A", *map(str, range(2, 11)), "J", "Q", "K") for s in "♣♦♥♠"]


@pytest.fixture(autouse=True)
def _llm_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The llm library keeps its settings in a folder of the test's own."""
    monkeypatch.setenv("LLM_USER_PATH", str(tmp_path / "llm-home"))


def _cards_in(text: str) -> set[str]:
    return {c for c in CARDS if re.search(rf"(?<![0-9A-Za-z]){re.escape(c)}", text)}


def _match(game_id: str, seed: int = 7) -> tuple[Any, MatchRecord]:
    """A full match: fake-illegal at seat 0, fake-first at seat 1, random elsewhere."""
    game = load_game(game_id, **SMALL.get(game_id, {}))
    bots: list[Any] = [
        load_bot(f"llm:model=fake-illegal:{PLUGIN}", game),
        load_bot(f"llm:model=fake-first:{PLUGIN}", game),
    ]
    bots += [load_bot("random", game, seed=s) for s in range(GAMES[game_id] - 2)]
    return game, play_match(game, bots, seed=seed)


def test_the_record_keeps_each_llm_seats_transcript_and_reads_it_back() -> None:
    """One entry per decision of the seat, tagged with its action's index; a round trip keeps it."""
    game, record = _match("noddy")
    assert record.outcome is not None and record.outcome.forfeit is None
    own, other = record.transcripts
    seats = [step.seat for step in replay(record, game)]
    assert [e["index"] for e in own] == [i for i, s in enumerate(seats) if s == 0]
    assert [e["index"] for e in other] == [i for i, s in enumerate(seats) if s == 1]
    assert "The rules of Noddy" in own[0]["system"] and "system" not in own[1]
    assert all(e["action"] == record.actions[e["index"]] for e in own)
    retried = [e for e in own if e["errors"]]
    assert retried and all(len(e["answers"]) == len(e["errors"]) + 1 for e in retried)
    assert all(e["input_tokens"] > 0 and e["cost"] > 0 and e["seconds"] >= 0 for e in own)
    again = MatchRecord.loads(record.dumps())
    assert again == record
    old = record.to_json()
    del old["transcripts"]  # a record from before transcripts
    assert MatchRecord.from_json(old).transcripts == ()
    assert "transcripts" not in attrs.evolve(record, transcripts=()).to_json()


def test_a_malformed_transcripts_field_is_named() -> None:
    """A record whose transcripts are not one list of objects per seat is refused, saying so."""
    _, record = _match("highcard")
    data = record.to_json()
    data["transcripts"] = [[{"index": 0}]]
    with pytest.raises(RecordError, match="'transcripts' needs one list per seat"):
        MatchRecord.from_json(data)
    data["transcripts"] = [[], ["prompt"], []]
    with pytest.raises(RecordError, match="'transcripts', seat 1: not a list of objects"):
        MatchRecord.from_json(data)


def test_a_forfeited_decision_keeps_its_transcript() -> None:
    """A model that never answers legally: its last entry is the decision it forfeited."""
    game = load_game("highcard")
    bots = [load_bot(f"llm:model=fake-garbage:retries=1:{PLUGIN}", game), load_bot("random", game)]
    record = play_match(game, bots, seed=2)
    assert record.outcome is not None and record.outcome.forfeit == 0
    [entry] = record.transcripts[0]
    assert entry["index"] == len(record.actions) and "action" not in entry
    assert len(entry["answers"]) == 2 and record.transcripts[1] == ()


class _Logs:
    """A bot with a log that is not JSON: the match goes on, the log says what went wrong."""

    def __init__(self, game: Any) -> None:
        self.game = game

    def act(self, observation: Any) -> Any:
        return observation.legal_actions[0]

    def match_transcript(self) -> list[Any]:
        return [{"note": object()}]


def test_a_bot_whose_log_is_not_json_does_not_change_the_result() -> None:
    """Any bot may log; a log that cannot be kept becomes one entry saying why."""
    game = load_game("highcard")
    plain = play_match(
        game, [load_bot("random", game, seed=1), load_bot("random", game, seed=1)], seed=4
    )
    logged = play_match(game, [_Logs(game), load_bot("random", game, seed=1)], seed=4)
    assert logged.actions == plain.actions and logged.outcome == plain.outcome
    [entry] = logged.transcripts[0]
    assert "match_transcript raised TypeError" in entry["error"]


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_seats_replay_files_show_its_transcript_and_no_hidden_card_of_another_seat(
    game_id: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Seat 0's JSON, text and HTML replays hold its own prompts, none of seat 1's secrets."""
    game, record = _match(game_id)
    path = tmp_path / "match.json"
    record.save(path)
    # What seat 1's prompts show that seat 0 never sees in the whole match: lines of its
    # view naming cards (its hand, as it saw it), and the cards themselves (the rules'
    # examples aside).
    attrs.evolve(record, transcripts=()).save(tmp_path / "bare.json")
    assert main(["replay", str(tmp_path / "bare.json"), "--as", "0"]) == 0
    seen = capsys.readouterr().out
    rules = record.transcripts[0][0]["system"]
    theirs = [
        ln.strip() for e in record.transcripts[1] for p in e["prompts"] for ln in p.splitlines()
    ]
    table = {ln for ln in theirs if _cards_in(ln) and not ln.startswith("- ")}  # not the listing
    secret = table - {ln.strip() for ln in seen.splitlines()}
    hidden = _cards_in("\n".join(theirs)) - _cards_in(seen) - _cards_in(rules)
    assert secret, "seat 1 saw nothing that seat 0 does not: the check would prove nothing"
    full = path.read_text(encoding="utf-8")
    assert all(json.dumps(ln, ensure_ascii=False)[1:-1] in full for ln in secret)
    mine = record.transcripts[0][0]["prompts"][0].splitlines()[0]

    assert main(["replay", str(path), "--as", "0", "--transcripts"]) == 0
    text = capsys.readouterr().out
    assert main(["replay", str(path), "--as", "0", "--json"]) == 0
    view = capsys.readouterr().out
    (tmp_path / "seat0.json").write_text(view, encoding="utf-8")
    assert main(["replay", str(tmp_path / "seat0.json"), "--transcripts"]) == 0
    from_view = capsys.readouterr().out
    assert main(["replay", str(path), "--as", "0", "--html", str(tmp_path / "s0.html")]) == 0
    page = (tmp_path / "s0.html").read_text(encoding="utf-8")
    for name, shown in (("text", text), ("json", view), ("view", from_view), ("html", page)):
        assert not _cards_in(shown) & hidden, name
        leaked = [ln for ln in secret if json.dumps(ln, ensure_ascii=False)[1:-1] in shown]
        assert not leaked and not [ln for ln in secret if ln in shown], name
        assert mine in shown or json.dumps(mine, ensure_ascii=False)[1:-1] in shown, name
    assert json.loads(view)["transcript"] == list(record.transcripts[0])


def test_replay_text_shows_a_line_per_decision_and_the_whole_with_a_switch(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without --transcripts a summary line under each llm decision; with it, every prompt."""
    _, record = _match("noddy")
    path = tmp_path / "match.json"
    record.save(path)
    assert main(["replay", str(path)]) == 0
    short = capsys.readouterr().out
    assert main(["replay", str(path), "--transcripts"]) == 0
    full = capsys.readouterr().out
    decisions = sum(len(t) for t in record.transcripts)
    assert short.count("    transcript: ") == decisions == full.count("    transcript: ")
    assert "refused" in short and "prompt 1:" not in short
    retried = next(e for e in record.transcripts[0] if e["errors"])
    assert f"    refused: {retried['errors'][0]}" in full
    assert full.count("    system prompt:") == 2


def test_the_viewer_carries_each_decisions_transcript_for_its_view() -> None:
    """Every seat's view holds both seats' transcripts; a seat's its own; the table's none."""
    game, record = _match("noddy")

    def panels(seat: int) -> dict[int, set[int]]:
        page = replay_html(record, game, seat)
        raw = re.search(r'id="replay-data">(.*?)</script>', page, re.S)
        assert raw is not None
        frames = json.loads(raw.group(1))["frames"]
        return {
            f["step"]: {t["seat"] for t in f["transcripts"]} for f in frames if "transcripts" in f
        }

    every = panels(ALL_SEATS)
    assert every == {e["index"] + 1: {s} for s in (0, 1) for e in record.transcripts[s]}
    assert panels(0) == {k: v for k, v in every.items() if v == {0}}
    assert panels(SPECTATOR) == {}
