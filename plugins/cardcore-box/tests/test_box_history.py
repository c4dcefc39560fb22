"""Box's public history (BX-8.1): what a seat misses between its decisions still reaches it."""

from __future__ import annotations

import json
import random
import struct
from collections.abc import Iterator
from typing import Any

import attrs
import pytest

from cardcore import SPECTATOR
from cardcore.testing import ConformanceError, check_public_history
from cardcore_box import PRESETS, Box, BoxObservation, BoxState
from cardcore_box.encoding import FACTS_SIZE, box_facts, box_facts_bytes

GAME = Box()


def play(game: Box, seed: int) -> list[tuple[BoxState, Any, BoxState]]:
    """The moves of one random game: (before, action, after)."""
    rng = random.Random(seed)
    s = game.initial_state(4, seed)
    moves = []
    while s.current is not None:
        legal = game.legal_actions(s)
        action = legal[rng.randrange(len(legal))]
        after = game.apply(s, action)
        moves.append((s, action, after))
        s = after
    return moves


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_seat_observes_every_public_event(preset: str) -> None:
    """BX-8.1: joined over a seat's decisions (and its last look), its observations hold
    every card played and by whom, every turn-up, every round's end, draws and exits."""
    report = check_public_history("box", presets=[preset], games=60, seed=1)
    assert report.games_played == 60
    assert report.events > report.decisions  # every move shows a card, rounds end too


def _rounds_in(data: Any) -> Iterator[dict[str, Any]]:
    """Every round record anywhere in an observation's JSON form."""
    if isinstance(data, dict):
        if data.get("type") == "RoundResult":
            yield data
        for value in data.values():
            yield from _rounds_in(value)
    elif isinstance(data, list):
        for value in data:
            yield from _rounds_in(value)


def test_a_seat_that_sat_out_rounds_learns_them_at_its_next_decision() -> None:
    """BX-8.1: rounds that ended without a seat deciding are in its next observation (its
    JSON form), with who played each card and how the round ended."""
    met = 0
    for seed in range(40):
        last_decided: dict[int, int] = {}
        for before, _action, _after in play(GAME, seed):
            seat = before.current
            assert seat is not None
            since = last_decided.get(seat)
            if since is not None and before.round - since >= 2:
                data = GAME.observe(before, seat).to_json()
                shown = {r["number"]: r for r in _rounds_in(data)}
                for number in range(since, before.round):
                    assert number in shown, (seed, seat, number)
                    r = shown[number]
                    assert len(r["cards"]) == len(r["played_by"]) == len(r["from_box"])
                met += 1
            last_decided[seat] = before.round
    assert met > 10


def test_the_rounds_survive_json_and_reach_the_text_form() -> None:
    """The JSON form carries every finished round; render() lists the earlier rounds."""
    moves = play(GAME, 7)
    final = moves[-1][2]
    assert len(final.rounds) >= 3
    obs = GAME.observe(final, SPECTATOR)  # an onlooker: no "(you)" in the text
    back = GAME.observation_from_json(json.loads(json.dumps(obs.to_json())))
    assert back == obs and back.rounds == final.rounds
    assert GAME.observed_events(back) == GAME.observed_events(obs)
    text = GAME.render(obs)
    assert "earlier rounds:" in text
    for r in final.rounds[:-1]:
        assert f"  round {r.number}: " in text
        assert f"seat {r.winner} won the round" in text


def test_the_encoding_holds_who_played_each_card_of_every_round() -> None:
    """The RL facts end with, per card, the seat that played it and its round, for the
    finished rounds too; their packed form is the same numbers."""
    final = play(GAME, 3)[-1][2]
    obs = GAME.observe(final, 0)
    facts = box_facts(obs)
    assert len(facts) == FACTS_SIZE
    assert box_facts_bytes(obs) == struct.pack(f"<{FACTS_SIZE}f", *facts)
    per_card = 10
    history = facts[-52 * per_card :]
    for r in final.rounds:
        for card, seat, boxed in zip(r.cards, r.played_by, r.from_box, strict=True):
            at = per_card * card.id
            assert history[at : at + 4] == [float(s == seat) for s in range(4)]
            assert history[at + 4] == float(boxed)
        if r.turned_up is not None:
            at = per_card * r.turned_up.id
            assert history[at + 6 : at + 10] == [float(s == r.stuck) for s in range(4)]


class _LatestRoundOnly(Box):
    """Box as it was: an observation keeps only the latest finished round."""

    def observe(self, state: BoxState, seat: int) -> BoxObservation:
        obs = super().observe(state, seat)
        return attrs.evolve(obs, rounds=obs.rounds[-1:])


def test_the_check_fails_when_observations_keep_only_the_latest_round() -> None:
    """Keeping only the latest round (BX-8.1 broken) loses rounds a seat sat out."""
    with pytest.raises(ConformanceError, match=r"public-history.*never observes"):
        check_public_history(_LatestRoundOnly(), games=40, seed=1)
