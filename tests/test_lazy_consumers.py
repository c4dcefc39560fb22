"""The core's consumers of legal actions work when a game returns a lazy sequence.

A wrapper serves the highcard example's legal actions (and its observations' ones) as a
:class:`cardcore.ConcatActions` instead of a tuple; the engine, the bots, the
conformance kit and the JSON form must behave exactly as with the tuples.
"""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest

from cardcore import ConcatActions, LazyActions, load_bot, load_game, play_match
from cardcore.testing import check_game

pytest.importorskip("cardcore_highcard")


class LazyLegal:
    """A game whose legal actions are lazy sequences; everything else is the wrapped game's."""

    def __init__(self, game: Any) -> None:
        self._game = game

    def __getattr__(self, name: str) -> Any:
        if name == "_game":  # not set yet (while unpickling): no wrapped game to ask
            raise AttributeError(name)
        return getattr(self._game, name)

    def legal_actions(self, state: Any) -> LazyActions[Any]:
        return ConcatActions(self._game.legal_actions(state))

    def observe(self, state: Any, seat: int) -> Any:
        obs = self._game.observe(state, seat)
        return attrs.evolve(obs, legal_actions=ConcatActions(obs.legal_actions))

    def sample_state(self, observation: Any, rng: random.Random) -> Any:
        plain = attrs.evolve(observation, legal_actions=tuple(observation.legal_actions))
        return self._game.sample_state(plain, rng)


def test_play_match_with_lazy_legal_actions_records_the_same_match() -> None:
    """Random and search bots pick the same actions from a lazy sequence as from a tuple."""
    plain = load_game("highcard")
    lazy = LazyLegal(plain)
    for bot in ("random", "ismcts"):
        for seed in range(3):
            records = []
            for g in (plain, lazy):
                opts: dict[str, Any] = {"iterations": 30} if bot == "ismcts" else {}
                bots = [load_bot(bot, plain, seed=seed + i, **opts) for i in range(3)]
                records.append(play_match(g, bots, seed=seed))
            assert records[0].actions == records[1].actions
            assert records[0].outcome == records[1].outcome


def test_observations_with_lazy_legal_actions_compare_and_serialise_alike() -> None:
    """An observation holding a lazy sequence equals, hashes and prints as the tuple one."""
    plain = load_game("highcard")
    lazy = LazyLegal(plain)
    state = plain.initial_state(3, 5)
    seat = plain.current_player(state)
    assert seat is not None
    a, b = plain.observe(state, seat), lazy.observe(state, seat)
    assert isinstance(b.legal_actions, LazyActions)
    assert a == b and hash(a) == hash(b)
    assert a.to_json() == b.to_json()
    assert lazy.legal_actions(state) == plain.legal_actions(state)


def test_conformance_kit_accepts_lazy_legal_actions() -> None:
    """The kit's checks pass for the wrapped game as they do for the plain one."""
    report = check_game(LazyLegal(load_game("highcard")), games=3, players=[3])
    assert report.games_played > 0 and not list(report.failures())
