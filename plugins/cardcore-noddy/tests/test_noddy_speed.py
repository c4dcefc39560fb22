"""The fast paths of the game equal the plain ones they replace (rules unchanged)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import attrs
import pytest

from cardcore import Card, rng_below
from cardcore_noddy import PRESETS, Noddy, NoddyState, Played, Shown
from cardcore_noddy.deal import _draw7_lanes, _draw7_words, draw7
from cardcore_noddy.scoring import (
    award_table,
    pile_code,
    play_ids,
    show_key,
    show_mask,
    total_codes,
)
from cardcore_noddy.state import (
    HANDS,
    TURNUP,
    Phase,
    new_played,
    new_shown,
    new_state,
)

_CARD = tuple(Card.of(i) for i in range(52))

CONFIGS: list[dict[str, Any]] = [
    {},
    {"twentyfive": False},
    {"run_values": "per_card", "ace_bonus": False, "knave_noddy": "in_count"},
]


def game(preset: str = "default", **overrides: Any) -> Noddy:
    return Noddy(attrs.evolve(PRESETS[preset], **overrides))


@pytest.mark.parametrize("draw", [draw7, _draw7_lanes, _draw7_words])
def test_draw7_is_a_partial_fisher_yates_with_rng_below(
    draw: Callable[[int], tuple[list[int], int]],
) -> None:
    """ND-4.5: both builds' inlined draws (wide lanes, 32-bit halves) are ``rng_below``."""
    r = random.Random(1)
    edges = [0, 1, 2**64 - 1, 2**63, 2**32 - 1, 2**32, 0x9E3779B97F4A7C15]
    edges += [2**64 - k * 0x9E3779B97F4A7C15 % 2**64 for k in range(1, 8)]
    edges += [(2**64 - k * 0x9E3779B97F4A7C15) % 2**32 for k in range(1, 8)]
    for rng in edges + [r.getrandbits(64) for _ in range(20000)]:
        pool = list(range(52))
        state = rng
        for i in range(7):
            j, state = rng_below(state, 52 - i)
            j += i
            pool[i], pool[j] = pool[j], pool[i]
        assert draw(rng) == (pool[:7], state)


def _piles(r: random.Random) -> list[list[int]]:
    """Random piles, many of them from few ranks or one suit (pairs, runs, flushes)."""
    out = []
    for _ in range(20000):
        kind = r.randrange(4)
        n = r.randint(1, 6)
        if kind == 0:
            cards = r.sample(range(52), n)
        elif kind == 1:  # few ranks: pairs and runs
            base = r.randrange(12)
            pool = [s * 13 + (base + k) % 13 for s in range(4) for k in range(3)]
            cards = r.sample(pool, n)
        elif kind == 2:  # mostly one suit: flushes and runs
            suit = r.randrange(4)
            pool = [suit * 13 + k for k in range(13)] + r.sample(range(52), 3)
            cards = r.sample(sorted(set(pool)), n)
        else:  # one rank: 2, 3 and 4 of a kind
            rank = r.randrange(13)
            pool = [s * 13 + rank for s in range(4)] + r.sample(range(52), 2)
            cards = r.sample(sorted(set(pool)), min(n, len(set(pool))))
        out.append(cards)
    return out


@pytest.mark.parametrize("overrides", CONFIGS)
def test_award_table_matches_play_ids(overrides: dict[str, Any]) -> None:
    """ND-6.3: the table-driven play award equals the play scorer's, parts included."""
    rules = game(**overrides).rules
    codes = total_codes(rules)
    awards = award_table(rules)
    r = random.Random(2)
    for pile in _piles(r):
        for total in (r.randrange(32), 15, 25, 31):
            want = play_ids(pile, total, rules)
            assert awards[196 * codes[total] + pile_code(pile)] == (want.parts, want.total), (
                pile,
                total,
            )


@pytest.mark.parametrize("overrides", CONFIGS)
def test_show_key_decides_the_show(overrides: dict[str, Any]) -> None:
    """ND-6.1: shows with equal keys are equal, so the game's show table is exact."""
    g = game(**overrides)
    seen: dict[int, Any] = {}
    r = random.Random(3)
    for _ in range(30000):
        if r.random() < 0.5:
            cards = r.sample(range(52), 4)
        else:  # few ranks or suits, so that many keys repeat
            suit = r.randrange(4)
            pool = sorted({suit * 13 + r.randrange(13) for _ in range(8)} | {9, 22, 35, 48})
            cards = r.sample(pool, 4)
        hand = (1 << cards[0]) | (1 << cards[1]) | (1 << cards[2])
        turnup = cards[3]
        dealer = r.random() < 0.5
        want = show_mask(hand, turnup, dealer=dealer, rules=g.rules)
        key = show_key(hand, turnup, dealer)
        assert g._start._show(key, hand, turnup, dealer) == want
        assert seen.setdefault(key, want) == want


@pytest.mark.parametrize("preset", ["default", "historical"])
def test_events_of_random_games_match_the_scorers(preset: str) -> None:
    """ND-4.3, ND-6.1, ND-6.3: every show and play award equals the plain scorers'."""
    g = game(preset)
    r = random.Random(4)
    plays = shows = 0
    for seed in range(150):
        s = g.initial_state(2, seed)
        while True:
            pile = s.table.orders[4]
            for e in s.events[-4:]:
                if isinstance(e, Played) and pile and pile[-1] == e.card.id:
                    want = play_ids(pile, e.total, g.rules)
                    assert (e.parts, e.points) == (want.parts, want.total)
                    plays += 1
            if s.phase is Phase.PLAY and not pile:
                turnup = s.table.masks[TURNUP].bit_length() - 1
                for e in s.events[-3:]:
                    if isinstance(e, Shown):
                        hand = s.table.masks[HANDS[e.seat]]
                        want = show_mask(hand, turnup, dealer=e.seat == s.dealer, rules=g.rules)
                        assert (e.parts, e.points) == (want.parts, want.total)
                        shows += 1
            if s.current is None:
                break
            legal = g.legal_actions(s)
            s = g.apply(s, legal[r.randrange(len(legal))])
    assert plays > 1000 and shows > 500


def test_fast_constructors_build_equal_frozen_values() -> None:
    """The fast constructors give the same values as the attrs constructors."""
    g = game()
    s = g.initial_state(2, 5)
    fast = new_state(
        s.table, s.rng, s.dealer, s.scores, s.phase, s.current, s.total, s.gone, s.hand, s.events
    )
    assert fast == s and hash(fast) == hash(s) and repr(fast) == repr(s)
    assert attrs.asdict(fast, recurse=False) == attrs.asdict(s, recurse=False)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        fast.total = 3  # type: ignore[misc]
    e = new_played(1, _CARD[7], 21, 2, (("fifteens", 2),), 9)
    assert e == Played(1, _CARD[7], 21, 2, (("fifteens", 2),), 9)
    assert hash(e) == hash(Played(1, _CARD[7], 21, 2, (("fifteens", 2),), 9))
    assert isinstance(fast, NoddyState) and isinstance(e, Played)
    shown = new_shown(0, 8, (("fifteens", 4), ("pairs", 4)), 20)
    assert shown == Shown(0, 8, (("fifteens", 4), ("pairs", 4)), 20)
    assert type(shown) is Shown


def test_four_rank_show_parts_match_the_general_counter() -> None:
    """The written-out rank parts of a 3-card hand and its turn-up equal the general ones."""
    from itertools import combinations_with_replacement

    from cardcore_noddy.scoring import ScoringRules, _rank_parts, _rank_parts4

    for twentyfive in (False, True):
        for runs in ("seed", "per_card"):
            rules = ScoringRules(twentyfive=twentyfive, run_values=ScoringRules.run_table(runs))
            for ranks in combinations_with_replacement(range(1, 14), 4):
                assert _rank_parts4(ranks, rules) == _rank_parts(ranks, rules), ranks


def test_plays_are_shared_card_actions_listed_in_card_order() -> None:
    """One shared Play per card (equality is identity), its text read back to the same
    object, and the legal plays of a hand listed in card order.
    """
    from cardcore_noddy import Play

    for c in range(52):
        play = Play.of(c)
        assert Play(Card.of(c)) is play and Play.parse(str(play)) is play
        assert Noddy.parse(str(play)) is play and play.card == Card.of(c)
    g = game()
    r = random.Random(4)
    plays = 0
    for seed in range(40):
        s = g.initial_state(2, seed)
        while s.current is not None:
            legal = g.legal_actions(s)
            if s.phase is Phase.PLAY:
                shared = [a for a in legal if isinstance(a, Play) and a is Play.of(a.card_id)]
                ids = [a.card_id for a in shared]
                assert len(shared) == len(legal) and ids == sorted(ids)
                plays += 1
            s = g.apply(s, legal[r.randrange(len(legal))])
    assert plays > 500


def test_show_events_built_from_slots_are_ordinary_events() -> None:
    """Shows built by filling slots equal, hash and print like ``Shown(...)``."""
    for preset in ("default", "historical"):
        g = Noddy(PRESETS[preset])
        rng = random.Random(3)
        seen = 0
        for seed in range(20):
            s = g.initial_state(2, seed)
            while s.current is not None:
                actions = g.legal_actions(s)
                s = g.apply(s, actions[int(rng.random() * len(actions))])
            for e in s.events:
                if isinstance(e, Shown):
                    plain = Shown(e.seat, e.points, e.parts, e.score)
                    assert type(e) is Shown and e == plain and hash(e) == hash(plain)
                    assert repr(e) == repr(plain)
                    with pytest.raises(attrs.exceptions.FrozenInstanceError):
                        e.score = 0  # type: ignore[misc]
                    seen += 1
        assert seen > 20
