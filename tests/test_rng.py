"""The portable immutable RNG."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardcore import rng_below, rng_next, rng_seed, rng_shuffle


def test_known_stream_is_fixed_across_machines() -> None:
    """The first values for seed 0 are pinned: a change would break every record."""
    state = rng_seed(0)
    values = []
    for _ in range(3):
        v, state = rng_next(state)
        values.append(v)
    assert values == PINNED


PINNED = [13898507668257350876, 9874931141998527612, 12936763147494389601]


@given(st.integers(), st.integers(1, 10**6))
def test_below_stays_in_range(seed: int, n: int) -> None:
    """rng_below(n) is in range(n)."""
    v, _ = rng_below(rng_seed(seed), n)
    assert 0 <= v < n


@given(st.integers(), st.lists(st.integers(), max_size=60))
def test_shuffle_is_a_permutation_and_deterministic(seed: int, items: list[int]) -> None:
    """Shuffles keep the items and repeat for the same seed."""
    a, sa = rng_shuffle(rng_seed(seed), items)
    b, sb = rng_shuffle(rng_seed(seed), items)
    assert sorted(a) == sorted(items)
    assert (a, sa) == (b, sb)


def test_shuffle_is_roughly_uniform() -> None:
    """All 6 orders of 3 items come up about equally often."""
    counts: dict[tuple[int, ...], int] = {}
    state = rng_seed(1)
    for _ in range(6000):
        order, state = rng_shuffle(state, [1, 2, 3])
        counts[order] = counts.get(order, 0) + 1
    assert len(counts) == 6
    assert all(850 < c < 1150 for c in counts.values())


def _reference_shuffle(state: int, items: list[int]) -> tuple[tuple[int, ...], int]:
    """``rng_shuffle`` as first written, one ``rng_below`` call per swap (the pinned order)."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j, state = rng_below(state, i + 1)
        out[i], out[j] = out[j], out[i]
    return tuple(out), state


def test_shuffle_draws_are_those_of_rng_below() -> None:
    """The written-out draws give the very shuffles and next states of rng_below's."""
    for seed in range(400):
        state = rng_seed(seed)
        for size in (0, 1, 2, 3, 5, 13, 36, 52, 104):
            items = list(range(size))
            got = rng_shuffle(state, items)
            assert got == _reference_shuffle(state, items), (seed, size)
            state = got[1] ^ seed  # a next state unlike the stream's own
    edge = [0, (1 << 64) - 1, (1 << 64) - 0x9E3779B97F4A7C15, 1 << 63]
    for state in edge:
        assert rng_shuffle(state, range(52)) == _reference_shuffle(state, list(range(52)))


def test_the_compiled_builds_shuffle_draws_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    """Compiled, ``rng_shuffle`` draws one machine-word number at a time: the same
    shuffles and next states (its branch is taken here by saying the module is compiled;
    in a compiled build the digest tests compare deals with the pure build's)."""
    from cardcore import _rng

    monkeypatch.setattr(_rng, "_COMPILED", True)
    for seed in range(200):
        state = rng_seed(seed)
        for size in (2, 3, 36, 52):
            assert rng_shuffle(state, range(size)) == _reference_shuffle(state, list(range(size)))
    for state in [0, (1 << 64) - 1, (1 << 64) - 0x9E3779B97F4A7C15, 1 << 63]:
        assert rng_shuffle(state, range(52)) == _reference_shuffle(state, list(range(52)))


def test_shuffle_reference_catches_a_changed_draw() -> None:
    """The comparison above fails for a shuffle whose draws differ (here: off by one)."""

    def off_by_one(state: int, items: list[int]) -> tuple[tuple[int, ...], int]:
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j, state = rng_below(state, i)
            out[i], out[j] = out[j], out[i]
        return tuple(out), state

    assert any(
        off_by_one(rng_seed(s), list(range(36))) != rng_shuffle(rng_seed(s), range(36))
        for s in range(5)
    )


def _reference_below(state: int, n: int) -> tuple[int, int]:
    """``rng_below`` as first written: 64-bit arithmetic on Python ints."""
    mask = (1 << 64) - 1
    state = (state + 0x9E3779B97F4A7C15) & mask
    z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & mask
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
    return ((z ^ (z >> 31)) * n) >> 64, state


@given(st.integers(-(2**70), 2**70), st.integers(1, 2**30 - 1))
def test_below_in_machine_words_draws_the_same(state: int, n: int) -> None:
    """The compiled build's word-sized ``rng_below`` gives the same value and next state."""
    from cardcore._rng import _below_words

    assert _below_words(state, n) == _reference_below(state, n)
    assert rng_below(state, n) == _reference_below(state, n)


@given(st.integers(min_value=0, max_value=2**64), st.integers(min_value=0, max_value=60))
def test_shuffle_like_random_is_randoms_own_shuffle(seed: int, n: int) -> None:
    """The same order and the same generator state after, as ``random.Random.shuffle``."""
    import random

    from cardcore._rng import shuffle_like_random

    ours, theirs = random.Random(seed), random.Random(seed)
    a, b = list(range(n)), list(range(n))
    shuffle_like_random(ours, a)
    theirs.shuffle(b)
    assert a == b
    assert ours.getstate() == theirs.getstate()


def test_shuffle_like_random_leaves_a_subclass_its_own_shuffle() -> None:
    """A subclass of ``random.Random`` may draw otherwise: its own ``shuffle`` is used."""
    import random

    from cardcore._rng import shuffle_like_random

    class Reversing(random.Random):
        def shuffle(self, x: list[int]) -> None:  # type: ignore[override]
            x.reverse()

    items = [1, 2, 3]
    shuffle_like_random(Reversing(0), items)
    assert items == [3, 2, 1]
