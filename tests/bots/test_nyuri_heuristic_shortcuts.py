"""The Nyuri heuristic's shortcuts (counts by total, steals as masks) change no choice."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from cardcore import load_game
from cardcore_nyuri.bots import NyuriHeuristic, _sum_counts
from cardcore_nyuri.state import Phase


def _direct(pool: list[int]) -> tuple[list[int], list[int]]:
    """Pairs and triples of distinct cards (0-51, value ``c % 13 + 2``) per total or more."""
    pairs, triples = [0] * 30, [0] * 44
    values = [c % 13 + 2 for c in pool]
    for a, b in itertools.combinations(values, 2):
        pairs[a + b] += 1
    for a, b, c in itertools.combinations(values, 3):
        triples[a + b + c] += 1
    return [sum(pairs[t:]) for t in range(30)], [sum(triples[t:]) for t in range(44)]


def test_pair_and_triple_counts_match_every_combination_of_the_cards() -> None:
    """Over random sets of unseen cards (and the full deck), the count of pairs and
    triples worth each total or more is the number of card combinations that are."""
    rng = random.Random(5)
    pools = [list(range(52)), [], [0], [3, 16]]
    pools += [rng.sample(range(52), rng.randrange(2, 30)) for _ in range(40)]
    for pool in pools:
        counts = [0] * 15
        for c in pool:
            counts[c % 13 + 2] += 1
        pairs, triples = _sum_counts.__wrapped__(tuple(counts))
        assert (list(pairs), list(triples)) == _direct(pool)


_OPTIONS = [
    {},
    {"capture": "hand", "end": "stock_exhausted", "three_card_penalty": True},  # pagat
    {"guarded_single": "any_suit"},
    {"capture": "hand", "guarded_single": "any_suit"},
]


@pytest.mark.parametrize("options", _OPTIONS)
@pytest.mark.parametrize("players", [2, 4])
def test_the_offer_read_from_masks_is_the_offer_read_from_the_legal_actions(
    options: dict[str, Any], players: int
) -> None:
    """At every offer of random deals (NY-4.3, NY-4.4), the heuristic's steal chosen from
    card masks is the one it chooses by building and weighing every legal steal."""
    game = load_game("nyuri", **options)
    bot = NyuriHeuristic(game)
    rng = random.Random(players)
    offers = 0
    for seed in range(6):
        state = game.initial_state(players, seed)
        while (seat := game.current_player(state)) is not None:
            obs = game.observe(state, seat)
            legal = obs.legal_actions
            if obs.phase is Phase.OFFER:
                best = max((sum(int(c.rank) for c in o) for o in obs.offers if o), default=0)
                assert bot.act(obs) is bot._offer_among(legal, best)
                offers += 1
            state = game.apply(state, legal[rng.randrange(len(legal))])
    assert offers > 50
