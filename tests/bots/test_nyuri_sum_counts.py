"""The Nyuri heuristic's counts of pairs and triples by total match a direct count."""

from __future__ import annotations

import itertools
import random

from cardcore_nyuri.bots import _sum_counts


def _direct(pool: list[int]) -> tuple[list[int], list[int]]:
    """Pairs and triples of distinct cards (0-51, value ``c % 13 + 2``) per total."""
    pairs, triples = [0] * 29, [0] * 43
    values = [c % 13 + 2 for c in pool]
    for a, b in itertools.combinations(values, 2):
        pairs[a + b] += 1
    for a, b, c in itertools.combinations(values, 3):
        triples[a + b + c] += 1
    return pairs, triples


def test_pair_and_triple_counts_match_every_combination_of_the_cards() -> None:
    """Over random sets of unseen cards (and the full deck), each total's count of pairs
    and triples is the number of card combinations that make it."""
    rng = random.Random(5)
    pools = [list(range(52)), [], [0], [3, 16]]
    pools += [rng.sample(range(52), rng.randrange(2, 30)) for _ in range(40)]
    for pool in pools:
        counts = [0] * 15
        for c in pool:
            counts[c % 13 + 2] += 1
        pairs, triples = _sum_counts.__wrapped__(tuple(counts))
        assert (list(pairs), list(triples)) == _direct(pool)
