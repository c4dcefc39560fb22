"""Events the game builds once and shares equal the ones their constructors build."""

from __future__ import annotations

import pickle
import random

import pytest

from cardcore import Card, rng_below, rng_seed
from cardcore_noddy import PRESETS, Noddy, NoddyState, Play, Played, Shown
from cardcore_noddy.deal import cut_for_dealer
from cardcore_noddy.rules import _PLAYED_KEPT, _plays
from cardcore_noddy.scoring import SEQ
from cardcore_noddy.state import Cut, Phase, TurnupJack, Won


def _play(g: Noddy, seed: int, r: random.Random) -> tuple[NoddyState, ...]:
    s = g.initial_state(2, seed)
    states = [s]
    while s.current is not None:
        legal = g.legal_actions(s)
        s = g.apply(s, legal[int(r.random() * len(legal))])
        states.append(s)
    return tuple(states)


@pytest.mark.parametrize("preset", ["default", "historical"])
def test_a_game_with_shared_events_equals_one_with_none_shared_yet(preset: str) -> None:
    """The same seeds give equal states on a game whose caches are full of other games'
    events and on a new game object for each seed (whose caches start empty).
    """
    warm = Noddy(PRESETS[preset])
    for seed in range(1000, 1300):
        _play(warm, seed, random.Random(seed))
    for seed in range(60):
        got = _play(warm, seed, random.Random(seed))
        assert got == _play(Noddy(PRESETS[preset]), seed, random.Random(seed)), seed


def test_shared_awards_and_wins_equal_their_constructors() -> None:
    """``turnup_jack`` and ``won`` return one event per value, equal to a new one."""
    start = Noddy(PRESETS["default"])._start
    r = random.Random(7)
    for _ in range(5000):
        seat, points, score = r.randrange(2), r.randint(1, 2), r.randrange(60)
        jack = start.turnup_jack(seat, points, score)
        assert type(jack) is TurnupJack and jack == TurnupJack(seat, points, score)
        assert start.turnup_jack(seat, points, score) is jack
        won = start.won(seat, score)
        assert type(won) is Won and won == Won(seat, score)
        assert start.won(seat, score) is won


def test_shared_show_events_equal_their_constructor() -> None:
    """A show's event, kept per breakdown, seat and score, equals ``Shown(...)``."""
    g = Noddy(PRESETS["historical"])
    for seed in range(40):  # fills the breakdowns
        _play(g, seed, random.Random(seed))
    start = g._start
    slots = len(start._slot_shows)
    assert slots > 5
    r = random.Random(8)
    for _ in range(5000):
        slot, seat, score = r.randrange(slots), r.randrange(2), r.randrange(60)
        show = start._slot_shows[slot]
        event = start._shown(slot, seat, show.total, score)
        plain = Shown(seat, show.total, show.parts, score)
        assert type(event) is Shown and event == plain and repr(event) == repr(plain)
        assert start._shown(slot, seat, show.total, score) is event


def test_shared_cuts_equal_the_plain_cut() -> None:
    """ND-3.1: the cut draws two cards until their ranks differ; its events are shared."""
    for seed in range(3000):
        rng = rng_seed(seed)
        cuts, dealer, after = cut_for_dealer(rng)
        want = []
        while True:
            a, rng = rng_below(rng, 52)
            b, rng = rng_below(rng, 51)
            b += b >= a
            want.append(Cut((Card.of(a), Card.of(b))))
            if SEQ[a] != SEQ[b]:
                break
        assert list(cuts) == want and after == rng
        assert dealer == (0 if SEQ[a] < SEQ[b] else 1)
        assert all(type(c) is Cut for c in cuts)


def test_without_the_knave_step_the_play_is_the_only_phase_with_a_mover() -> None:
    """ND-4.2: with ``knave_noddy=in_count`` no hand has the step-2 decision, which the
    game relies on to skip reading the phase; with ``show_early`` step 2 does occur.
    """
    for preset, step2 in (("historical", False), ("default", True)):
        g = Noddy(PRESETS[preset])
        knave = 0
        for seed in range(200):
            for s in _play(g, seed, random.Random(seed)):
                if s.current is not None:
                    assert s.phase in (Phase.PLAY, Phase.KNAVE)
                    knave += s.phase is Phase.KNAVE
        assert bool(knave) is step2, preset


@pytest.mark.parametrize("preset", ["default", "historical"])
def test_shared_play_events_equal_their_constructor(preset: str) -> None:
    """ND-6.3: every play event, most of them shared, equals ``Played(...)`` of its
    fields and is kept in a bounded table.
    """
    g = Noddy(PRESETS[preset])
    seen: dict[tuple[object, ...], Played] = {}
    shared = 0
    for seed in range(300):
        states = _play(g, seed, random.Random(seed))
        for e in states[-1].events:
            if isinstance(e, Played):
                fields = (e.seat, e.card, e.total, e.points, e.parts, e.score)
                plain = Played(*fields)
                assert type(e) is Played and e == plain and repr(e) == repr(plain)
                shared += seen.setdefault(fields, e) is e
    assert shared > len(seen) > 1000
    assert len(g._played) <= _PLAYED_KEPT


@pytest.mark.parametrize("preset", ["default", "historical"])
def test_the_mover_and_plays_of_the_state_just_played_equal_a_fresh_games(preset: str) -> None:
    """``apply`` works out the next mover and legal plays; they equal those that a game
    that never saw the state reads from it.
    """
    g = Noddy(PRESETS[preset])
    fresh = Noddy(PRESETS[preset])
    asked = 0
    for seed in range(200):
        r = random.Random(seed)
        s = g.initial_state(2, seed)
        while (seat := g.current_player(s)) is not None:
            legal = g.legal_actions(s)
            assert seat == fresh.current_player(s) == s.current
            assert legal == fresh.legal_actions(s) == g.legal_actions(s)
            asked += g._next[0] is s
            s = g.apply(s, legal[int(r.random() * len(legal))])
        assert g.current_player(s) is None and g.legal_actions(s) == ()
    assert asked > 2000


def test_a_pickled_game_leaves_its_shared_plays_and_last_state_behind() -> None:
    """The copy of a game plays the same, and starts its play events and last state
    afresh (its pickle does not grow with the games played).
    """
    g = Noddy(PRESETS["historical"])
    for seed in range(100):
        _play(g, seed, random.Random(seed))
    copy = pickle.loads(pickle.dumps(g))
    assert copy._played == {} and copy._next[0] is None
    assert _play(copy, 7, random.Random(7)) == _play(g, 7, random.Random(7))


def test_the_plays_of_a_mask_are_the_cores_singles() -> None:
    """The game's own listing of a hand's plays equals ``Play.singles``, card order and
    shared plays included, for every mask of up to 2 cards and many of 3 and 4.
    """
    from itertools import combinations

    masks = [0] + [(1 << a) | (1 << b) for a, b in combinations(range(52), 2)]
    masks += [1 << c for c in range(52)]
    r = random.Random(9)
    masks += [sum(1 << c for c in r.sample(range(52), k)) for k in (3, 4) for _ in range(5000)]
    for mask in masks:
        got = _plays(mask)
        want = Play.singles(mask)
        assert got == want and all(g is w for g, w in zip(got, want, strict=True)), mask
