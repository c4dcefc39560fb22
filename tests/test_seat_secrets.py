"""Nothing a seat receives lets it deal the hidden cards again (no seed, no stacked deck).

Each test gathers everything one seat is given (its replay as text, JSON and HTML, its
seat-view file read back, or every message an isolated bot's process is sent) and tries
to rebuild the deal from it: every number in it as a seed, every list of all the cards
as a stacked deck. The same attack on the full match record succeeds, so it is able to.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from cardcore import DECK_52, MatchRecord, isolated_bot, load_bot, load_game, play_match
from cardcore._cards import parse_card
from cardcore.cli import main

SEED = 918_273_645
"""A match seed unlikely to appear in a replay for any other reason."""

PLAYERS = 4
"""Box is played by four."""


def _cards_in(values: Sequence[Any]) -> tuple[Any, ...] | None:
    """The cards of a list of texts holding each card of the deck once, else ``None``."""
    if len(values) != len(DECK_52) or not all(isinstance(v, str) for v in values):
        return None
    try:
        cards = tuple(parse_card(v) for v in values)
    except ValueError:
        return None
    return cards if len(set(cards)) == len(DECK_52) else None


def _lists(data: Any) -> Iterator[list[Any]]:
    """Every list inside JSON data."""
    if isinstance(data, list):
        yield data
        for item in data:
            yield from _lists(item)
    elif isinstance(data, dict):
        for item in data.values():
            yield from _lists(item)


def _json_documents(text: str) -> Iterator[Any]:
    """The text as JSON, or each JSON document embedded in a page's script elements."""
    try:
        whole = json.loads(text)
    except ValueError:
        whole = None
    if whole is not None:
        yield whole
    for body in re.findall(r'<script type="application/json"[^>]*>(.*?)</script>', text, re.S):
        yield json.loads(body)


def _decks(text: str) -> Iterator[tuple[Any, ...]]:
    """Every full deck that the text spells out, as JSON lists or on one line."""
    for document in _json_documents(text):
        for values in _lists(document):
            cards = _cards_in(values)
            if cards is not None:
                yield cards
    for line in text.splitlines():
        cards = _cards_in(re.findall(r"(?:10|[2-9JQKA])[♣♦♥♠]", line))
        if cards is not None:
            yield cards


def _deals_again(game: Any, truth: list[Any], received: Sequence[str]) -> list[str]:
    """How ``received`` rebuilds the deal whose every-seat views are ``truth``; ``[]``: it cannot."""
    seeds = {int(m) for text in received for m in re.findall(r"-?\d+", text)}
    decks: list[tuple[Any, ...] | None] = [None]
    decks += [d for text in received for d in _decks(text)]
    found = []
    for deck in decks:
        for seed in sorted(seeds | {0}):
            try:
                state = game.initial_state(PLAYERS, seed, deck=deck)
            except (ValueError, OverflowError):
                continue
            if [game.observe(state, s).to_json() for s in range(PLAYERS)] == truth:
                found.append(f"seed {seed}" + ("" if deck is None else ", a stacked deck"))
    return found


def _match(stacked: bool, bots: Sequence[Any] | None = None) -> tuple[Any, MatchRecord, list[Any]]:
    """A Box match with seed :data:`SEED` (and a stacked deck), and every seat's first view."""
    game = load_game("box")
    deck = None
    if stacked:
        cards = list(DECK_52)
        random.Random(7).shuffle(cards)
        deck = cards
    players = bots or [load_bot("random", game, seed=s) for s in range(PLAYERS)]
    record = play_match(game, players, seed=SEED, deck=deck)
    start = game.initial_state(PLAYERS, SEED, deck=deck)
    return game, record, [game.observe(start, s).to_json() for s in range(PLAYERS)]


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(list(argv)) == 0, capsys.readouterr().err
    return capsys.readouterr().out


@pytest.mark.parametrize("stacked", [False, True], ids=["shuffled", "stacked-deck"])
def test_a_seats_replay_in_every_form_cannot_deal_the_cards_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], stacked: bool
) -> None:
    """Seat 0's text, JSON and HTML replays, and its view read back, rebuild no hidden card."""
    game, record, truth = _match(stacked)
    path = tmp_path / "match.json"
    record.save(path)
    assert _deals_again(game, truth, [path.read_text(encoding="utf-8")])  # the attack works
    view = tmp_path / "seat0.json"
    view.write_text(_cli(capsys, "replay", str(path), "--as", "0", "--json"), encoding="utf-8")
    page = tmp_path / "seat0.html"
    _cli(capsys, "replay", str(path), "--as", "0", "--html", str(page))
    received = [
        _cli(capsys, "replay", str(path), "--as", "0"),
        view.read_text(encoding="utf-8"),
        page.read_text(encoding="utf-8"),
        _cli(capsys, "replay", str(view)),
    ]
    assert _deals_again(game, truth, received) == []
    assert json.loads(received[1])["seen_by"] == 0  # what was attacked is seat 0's replay


def test_the_table_html_of_an_unfinished_match_cannot_deal_the_cards_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The onlooker's page of an unfinished match (public cards only) carries no seed either."""
    game, record, truth = _match(stacked=False)
    cut = MatchRecord.from_json(
        {**record.to_json(), "actions": list(record.actions[:5]), "outcome": None}
    )
    path = tmp_path / "unfinished.json"
    cut.save(path)
    page = tmp_path / "table.html"
    _cli(capsys, "replay", str(path), "--html", str(page))
    assert _deals_again(game, truth, [page.read_text(encoding="utf-8")]) == []


@pytest.mark.parametrize("stacked", [False, True], ids=["shuffled", "stacked-deck"])
def test_an_isolated_bot_is_sent_nothing_that_deals_the_cards_again(
    monkeypatch: pytest.MonkeyPatch, stacked: bool
) -> None:
    """Every message an isolated bot's process receives, together, rebuilds no hidden card."""
    from cardcore._isolation import BotProcess

    sent: list[str] = []
    call = BotProcess.call

    def spy(self: BotProcess, message: Any, timeout: float | None) -> Any:
        sent.append(json.dumps(message, ensure_ascii=False))
        return call(self, message, timeout)

    monkeypatch.setattr(BotProcess, "call", spy)
    game = load_game("box")
    with isolated_bot("random", game, seed=5) as seat0:
        bots = [seat0, *(load_bot("random", game, seed=s) for s in range(1, PLAYERS))]
        _, record, truth = _match(stacked, bots)
    assert record.outcome is not None and record.outcome.forfeit is None
    assert sum('"op": "act"' in m for m in sent) >= 1  # the bot did play, through messages
    assert _deals_again(game, truth, sent) == []


def test_an_arenas_isolated_bots_are_sent_nothing_that_deals_the_cards_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """In an arena, the messages to isolated bots' processes rebuild no deal of the run."""
    from cardcore._isolation import BotProcess
    from cardcore.arena import run_arena
    from cardcore.arena._seating import deal_seed

    sent: list[str] = []
    call = BotProcess.call

    def spy(self: BotProcess, message: Any, timeout: float | None) -> Any:
        sent.append(json.dumps(message, ensure_ascii=False))
        return call(self, message, timeout)

    monkeypatch.setattr(BotProcess, "call", spy)
    result = run_arena(
        "box", ["random", "random"], games=2, seed=SEED, workers=0, isolation="process"
    )
    assert result.games == result.total_games > 0
    assert sum('"op": "act"' in m for m in sent) >= result.games
    game = load_game("box")
    for deal in range(2):
        start = game.initial_state(PLAYERS, deal_seed(SEED, deal))
        truth = [game.observe(start, s).to_json() for s in range(PLAYERS)]
        assert _deals_again(game, truth, [f"seed {deal_seed(SEED, deal)}"])  # the attack works
        assert _deals_again(game, truth, sent) == []


def test_a_bot_in_play_cannot_work_out_the_match_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    """`cardcore play`'s bots get seeds hashed from the match seed, not `seed * 1000 + seat`."""
    import cardcore.cli._common as common
    from cardcore._botmaking import make_bot as real

    given: list[int] = []

    def recording(name: str, opts: Any, game: Any, *, seed: int, host: Any) -> Any:
        given.append(seed)
        return real(name, opts, game, seed=seed, host=host)

    monkeypatch.setattr(common, "make_bot", recording)
    game = load_game("highcard")
    common.make_bots(game, "random", 4, 12345)
    assert len(set(given)) == 4
    for seat, seed in enumerate(given):
        assert seed // 1000 != 12345 and seed - seat != 12345 * 1000
        assert seed not in (12345, 12345 + seat)
