"""The fast paths choose and list exactly what the plain definitions do.

The heuristic decides from card masks (its lay from the kinds of lay, its steal from the
values its hand holds) and the search play-outs call it on full states; the plain
definitions weigh every legal action of the observation. Both must agree on every
state, in every preset and option that changes a rule of thumb.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from math import comb
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from cardcore import SPECTATOR, CardSubsets, ConcatActions, load_game
from cardcore.bots import ISMCTSBot
from cardcore.testing import strategies
from cardcore_nyuri import (
    PRESETS,
    Decline,
    Lay,
    Nyuri,
    NyuriAction,
    NyuriHeuristic,
    NyuriObservation,
    NyuriState,
    Phase,
    Steal,
)
from cardcore_nyuri.actions import _VALUE
from cardcore_nyuri.bots import (
    PLAYOUT_HORIZON,
    _played_out,
    _sum_counts,
    count_value,
    heuristic_policy,
    playout_value,
)
from cardcore_nyuri.options import NyuriOptions
from cardcore_nyuri.steals import offer_actions, offer_masks, steal_problem

CONFIGS: list[dict[str, Any]] = [
    {"preset": "default"},
    {"preset": "pagat"},
    {"guarded_single": "any_suit"},
    {"capture": "hand"},
    {"capture": "hand", "guarded_single": "any_suit"},
    {"three_card_penalty": True},
]
"""Both presets, and each option the heuristic reads changed on its own or together."""
DECK = (1 << 52) - 1


def _plain_lay_among(
    legal: Sequence[NyuriAction], unseen: int, h: int, *, any_suit: bool
) -> NyuriAction:
    """The rules of thumb for a lay, as first written: weigh every legal lay (NY-4.2).

    The cost of a lay: the expected number of thefts ``k`` by a typical other hand of
    ``h`` cards, from the ``unseen`` single cards, pairs and (above 10) triples that beat
    it (NY-4.4), as ``k / (1 + k)`` times the cards a theft hands over, plus a little per
    point laid; the first lay of least cost (then least value) in the legal order.
    """
    pool = [c for c in range(52) if unseen >> c & 1]
    counts = [0] * 15
    for c in pool:
        counts[c % 13 + 2] += 1
    pairs, triples = _sum_counts.__wrapped__(tuple(counts))
    u = len(pool)

    def cost(a: NyuriAction) -> tuple[float, int]:
        assert isinstance(a, Lay)
        t = a.value
        suit = int(a.card.suit)
        bar = t if a.guard is not None else int(a.card.rank)
        beat = sum(1 << c for c in pool if c % 13 + 2 > bar)
        if a.guard is None or not any_suit:
            beat &= 0x1FFF << (13 * suit)
        p1 = beat.bit_count() / u if u else 0.0
        p2 = pairs[t + 1] / comb(u, 2) if u >= 2 else 0.0
        p3 = triples[t + 1] / comb(u, 3) if u >= 3 and t > 10 else 0.0
        k = h * p1 + comb(h, 2) * p2 + comb(h, 3) * p3
        lost = (2 if a.guard is not None else 1) + 1.5
        return (k / (1 + k) * lost + 0.01 * t, t)

    return min(legal, key=cost)


def _plain_lay(game: Nyuri, obs: NyuriObservation) -> NyuriAction:
    """The plain lay from an observation: what the layer has not seen, the others' hands."""
    z = obs.zones
    out = obs.table.mask(z.stock) | obs.table.mask(z.hand(obs.seat))
    for s in range(obs.num_players):
        out |= obs.table.mask(z.pile(s))
    others = [
        obs.table.size(z.hand(s)) for s in range(obs.num_players) if s not in (obs.seat, SPECTATOR)
    ]
    h = round(sum(others) / len(others)) if others else 0
    unseen = DECK & ~out
    any_suit = game.options.guarded_single == "any_suit"
    return _plain_lay_among(obs.legal_actions, unseen, h, any_suit=any_suit)


def _plain_choice(game: Nyuri, bot: NyuriHeuristic, obs: NyuriObservation) -> NyuriAction:
    """The heuristic's choice by its plain definition, from every legal action."""
    legal = obs.legal_actions
    if obs.phase is Phase.LAY:
        return _plain_lay(game, obs)
    if obs.phase is Phase.OFFER:
        # NY-4.3: beat every earlier offer, weighing each legal steal (NY-4.4).
        best = max((sum(int(c.rank) for c in o) for o in obs.offers if o), default=0)
        return bot._offer_among(legal, best)
    # NY-4.7: swap a low target when the stock allows, else take back.
    low = obs.target_value < 16 if obs.guard is not None else obs.target_value <= 8
    words = {str(a): a for a in legal}
    return words["swap"] if "swap" in words and low else words["take back"]


def _check_state(game: Nyuri, state: Any) -> None:
    """The bot, its plain definition and the state policy choose the same action."""
    seat = game.current_player(state)
    assert seat is not None
    obs = game.observe(state, seat)
    bot = NyuriHeuristic(game)
    choice = bot.act(obs)
    assert choice is _plain_choice(game, bot, obs), (obs.phase, str(choice))
    assert heuristic_policy(game, 0)(state) is choice


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data(), config=st.sampled_from(CONFIGS), players=st.integers(2, 4))
def test_heuristic_choices_match_the_plain_rules_of_thumb(
    data: st.DataObject, config: dict[str, Any], players: int
) -> None:
    """On random reachable states of both presets and the heuristic's options, the lay
    (NY-4.2), steal or decline (NY-4.3, NY-4.4) and return (NY-4.7) the heuristic picks
    from card masks, and the one its state policy picks from the state, are the choice
    of its plain definition over the legal actions."""
    game = load_game("nyuri", **config)
    assert isinstance(game, Nyuri)
    state = data.draw(strategies.reachable_states(game, players, max_steps=300))
    if game.current_player(state) is not None:
        _check_state(game, state)


def test_heuristic_choices_match_the_plain_rules_of_thumb_over_whole_games() -> None:
    """At every decision of whole games (half random, half the heuristic's own moves, so
    that the states are those a heuristic play-out meets), in every configuration and
    player count, the fast choices are the plain ones (NY-4.2 to NY-4.7)."""
    decisions = 0
    for config in CONFIGS:
        game = load_game("nyuri", **config)
        assert isinstance(game, Nyuri)
        bot = NyuriHeuristic(game)
        for players in (2, 3, 4):
            rng = random.Random(players)
            state = game.initial_state(players, players)
            while (seat := game.current_player(state)) is not None:
                _check_state(game, state)
                decisions += 1
                legal = game.legal_actions(state)
                if rng.random() < 0.5:
                    action = legal[rng.randrange(len(legal))]
                else:
                    action = bot.act(game.observe(state, seat))
                state = game.apply(state, action)
    assert decisions > 1000


def test_state_policy_of_a_subclass_keeps_to_its_legal_actions() -> None:
    """For a game that derives from Nyuri (here one that forbids laying the card of
    lowest id while there is another), the play-out policy chooses among that game's
    legal actions, as the bot does from its observation, where the plain rules' choice
    would be a lay it forbids (NY-4.2)."""

    class NotLowest(Nyuri):
        def legal_actions(self, state: NyuriState) -> Sequence[NyuriAction]:
            legal = super().legal_actions(state)
            if state.phase is not Phase.LAY:
                return legal
            low = min(a.card.id for a in legal if isinstance(a, Lay))
            return tuple(a for a in legal if isinstance(a, Lay) and a.card.id != low) or legal

    game = NotLowest(PRESETS["pagat"])
    plain = heuristic_policy(Nyuri(PRESETS["pagat"]), 0)
    policy = heuristic_policy(game, 0)
    differ = 0
    for seed in range(4):
        state = game.initial_state(3, seed)
        while (seat := game.current_player(state)) is not None:
            choice = policy(state)
            assert choice in game.legal_actions(state)
            assert choice is NyuriHeuristic(game).act(game.observe(state, seat))
            differ += plain(state) is not choice
            state = game.apply(state, choice)
    assert differ > 0


def _lays(hand: int) -> tuple[Lay, ...]:
    """Every lay of a hand in the rules' order (NY-4.2): each card, then under each guard."""
    cards = [c for c in range(52) if hand >> c & 1]
    out = []
    for c in cards:
        out.append(Lay.of(c))
        out += [Lay.of(c, g) for g in cards if g // 13 == c // 13 and g > c]
    return tuple(out)


@settings(max_examples=300, deadline=None)
@given(
    cards=st.lists(st.integers(0, 51), unique=True, min_size=1, max_size=45),
    split=st.integers(1, 45),
    h=st.integers(0, 30),
    any_suit=st.booleans(),
)
# Two guarded lays of the same value and cost, the cheapest (2♣ under 3♣, 2♦ under 3♦,
# with 4♣ 4♦ 7♣ 7♦ unseen, one card in the other hand): the first in the rules' order.
@example(cards=[0, 1, 13, 14, 2, 15, 5, 18], split=4, h=1, any_suit=False)
def test_lay_from_the_kinds_of_lay_is_the_plain_lay(
    cards: list[int], split: int, h: int, any_suit: bool
) -> None:
    """For any hand, any set of unseen cards (none to many, so that costs tie) and any
    typical hand size, the lay the heuristic picks from the kinds of lay is the first of
    least cost among every lay of the hand (NY-4.2, odds by NY-4.4)."""
    hand = sum(1 << c for c in cards[:split])
    unseen = sum(1 << c for c in cards[split:])
    game = Nyuri(NyuriOptions(guarded_single="any_suit" if any_suit else "same_suit"))
    index = NyuriHeuristic(game).lay_index(hand, unseen, h)
    assert Lay.of(index // 53, index % 53 if index % 53 < 52 else -1) is _plain_lay_among(
        _lays(hand), unseen, h, any_suit=any_suit
    )


@settings(max_examples=300, deadline=None)
@given(
    cards=st.lists(st.integers(0, 51), unique=True, min_size=2, max_size=30),
    guarded=st.booleans(),
    best=st.integers(0, 42),
    config=st.sampled_from(CONFIGS),
)
def test_steal_from_the_hand_values_is_the_plain_steal(
    cards: list[int], guarded: bool, best: int, config: dict[str, Any]
) -> None:
    """For any hand, target (guarded or not) and best earlier offer, in every
    configuration, the steal the heuristic builds from the values of its hand is the one
    its plain rule picks from every legal offer (NY-4.3, NY-4.4; NY-4.5 for the pile, the
    hand and the penalty)."""
    target, *rest = cards
    guard = -1
    if guarded:
        higher = [c for c in rest if c // 13 == target // 13 and c > target]
        if higher:
            guard = higher[0]
    hand = sum(1 << c for c in rest if c != guard)
    game = load_game("nyuri", **config)
    assert isinstance(game, Nyuri)
    bot = NyuriHeuristic(game)
    any_suit = game.options.guarded_single == "any_suit"
    legal = offer_actions(hand, target, guard, any_suit=any_suit)
    m = bot.steal_mask(hand, target, guard, best)
    assert (Steal.from_mask(m) if m else Decline()) is bot._offer_among(legal, best)


def _search(game: Any, obs: NyuriObservation, seed: int, iterations: int, hints: Any) -> Any:
    """The choice of a seeded ISMCTS search and its root's statistics per action."""
    bot = ISMCTSBot(game, seed=seed, iterations=iterations, hints=hints)
    choice = bot.act(obs)
    assert bot.last_tree is not None
    return choice, {a: (e.n, e.w, e.avail) for a, e in bot.last_tree.edges.items()}


def test_searches_with_the_state_policy_grow_the_trees_of_the_bot() -> None:
    """ISMCTS with Nyuri's hints (play-outs by the state policy) and with the same hints
    but the bot asked from observations choose alike and count their trees alike, at
    lays, offers and returns of pagat and default matches (NY-4.2 to NY-4.7)."""
    for preset in ("pagat", "default"):
        game = load_game("nyuri", preset=preset)
        fast = ISMCTSBot(game).hints
        assert fast.state_policy is heuristic_policy
        plain = attrs.evolve(fast, state_policy=None)
        state = game.initial_state(3, 1)
        heuristic = NyuriHeuristic(game)
        phases = set()
        k = 0
        while (seat := game.current_player(state)) is not None:
            obs = game.observe(state, seat)
            if len(obs.legal_actions) > 1 and k % 5 == 0:
                trees = [_search(game, obs, k, 30, hints) for hints in (fast, plain)]
                assert trees[0] == trees[1]
                phases.add(obs.phase)
            k += 1
            state = game.apply(state, heuristic.act(obs))
        assert {Phase.LAY, Phase.OFFER} <= phases


def test_search_value_reads_the_outcome_from_the_counts() -> None:
    """The play-out value's win share, read from the counts, is the outcome's reward
    (NY-6: the highest counts share the win), for every seat of finished and unfinished
    random games of both presets and two to four players."""
    checked = 0
    for preset in ("default", "pagat"):
        game = load_game("nyuri", preset=preset)
        assert isinstance(game, Nyuri)
        for players in (2, 3, 4):
            for seed in range(8):
                rng = random.Random(seed)
                state = game.initial_state(players, seed)
                while True:
                    outcome = game.outcome(state)
                    counts = game.counts(state)
                    for seat in range(players):
                        won = outcome.reward(seat) if outcome is not None else 0.5
                        other = max(c for s, c in enumerate(counts) if s != seat)
                        margin = 0.5 + 0.5 * (counts[seat] - other) / 52
                        assert count_value(game, state, seat) == 0.75 * won + 0.25 * margin
                        checked += 1
                    if game.current_player(state) is None:
                        break
                    legal = game.legal_actions(state)
                    state = game.apply(state, legal[rng.randrange(len(legal))])
    assert checked > 10000


def _lazy_offers(hand: int, target: int, guard: int, *, any_suit: bool) -> tuple[Any, ...]:
    """The legal offers as the lazy listing orders them: decline, singles in card order,
    then the pairs and triples worth more than the target by value, then card id."""
    tv = target % 13 + 2 + (guard % 13 + 2 if guard >= 0 else 0)
    singles = [
        c
        for c in range(52)
        if hand >> c & 1 and steal_problem(1 << c, target, guard, any_suit=any_suit) is None
    ]
    head: tuple[Any, ...] = (Decline(), *(Steal.of(c) for c in singles))
    if hand.bit_count() < 2:
        return head
    sizes = (2, 3) if tv > 10 else (2,)
    return tuple(
        ConcatActions(head, CardSubsets(Steal, hand, sizes=sizes, weights=_VALUE, above=tv))
    )


@settings(max_examples=400, deadline=None)
@given(
    cards=st.lists(st.integers(0, 51), unique=True, min_size=1, max_size=14),
    guarded=st.booleans(),
    any_suit=st.booleans(),
)
def test_listed_offers_are_the_legal_steal_sets_in_the_lazy_order(
    cards: list[int], guarded: bool, any_suit: bool
) -> None:
    """For hands of none to 14 cards (listed in a tuple when small, lazily when large), the
    legal offers are decline and exactly the sets of one to three hand cards that may
    steal the target (NY-4.3, NY-4.4), in the order of the lazy listing, and the steal
    masks the heuristic reads are theirs."""
    target, *rest = cards
    guard = -1
    if guarded:
        higher = [c for c in rest if c // 13 == target // 13 and c > target]
        if higher:
            guard = higher[-1]
    hand = sum(1 << c for c in rest if c != guard)
    legal = offer_actions(hand, target, guard, any_suit=any_suit)
    assert tuple(legal) == _lazy_offers(hand, target, guard, any_suit=any_suit)
    held = [c for c in range(52) if hand >> c & 1]
    sets = {
        sum(1 << c for c in s) for size in (1, 2, 3) for s in itertools.combinations(held, size)
    }
    stealing = {m for m in sets if steal_problem(m, target, guard, any_suit=any_suit) is None}
    assert set(legal) == {Decline()} | {Steal.from_mask(m) for m in stealing}
    assert len(legal) == len(stealing) + 1
    masks = [a.mask for a in legal if isinstance(a, Steal)]
    assert list(offer_masks(hand, target, guard, any_suit=any_suit)) == masks


def _heuristic_end(game: Nyuri, state: NyuriState) -> NyuriState:
    """The plain play-out: the heuristic to the end, move by move."""
    policy = heuristic_policy(game, 0)
    while game.current_player(state) is not None:
        state = game.apply(state, policy(state))
    return state


class _Renamed(Nyuri):
    """A subclass: its play-out value plays move by move."""


@pytest.mark.parametrize(
    ("options", "players"),
    [
        ({"preset": "pagat"}, 2),
        ({"preset": "pagat"}, 3),
        ({"preset": "default"}, 2),
        ({"capture": "hand"}, 2),
        ({"capture": "hand"}, 4),
        ({"capture": "hand", "turn_limit": 37}, 2),
        ({"preset": "pagat", "turn_limit": 51}, 2),
    ],
)
def test_the_playout_value_ends_where_the_heuristic_play_ends(
    options: dict[str, Any], players: int
) -> None:
    """Played on from the horizon, skipping the rounds of a circle (two-player hand
    capture goes round two turns until the turn limit, NY-5.3c), the heuristic's play
    ends in the very state it reaches move by move; so does a subclass's."""
    game = load_game("nyuri", **options)
    assert isinstance(game, Nyuri)
    renamed = _Renamed(game.options)
    long = 0
    for seed in range(3):
        rng = random.Random(seed)
        state = game.initial_state(players, seed)
        k = 0
        while game.current_player(state) is not None:
            k += 1
            if k % 9 == 0:  # every ninth position of the random game
                end = _heuristic_end(game, state)
                assert _played_out(game, state) == end
                assert _played_out(renamed, state) == end
                long += end.turn - state.turn > 20
                for seat in range(players):
                    assert playout_value(game, state, seat) == count_value(game, end, seat)
            legal = game.legal_actions(state)
            state = game.apply(state, legal[rng.randrange(len(legal))])
    if players == 2 and game.options.capture == "hand":
        assert long, "no long play-out to skip rounds of"  # the turn limit ends them


def test_searches_with_the_playout_value_are_those_of_full_playouts() -> None:
    """ISMCTS with Nyuri's hints (play-outs cut at the horizon, played on by the value)
    grows the very trees of play-outs to the end scored by the counts, in two- to
    four-player games of both presets."""
    for preset in ("pagat", "default"):
        game = load_game("nyuri", preset=preset)
        hints = ISMCTSBot(game).hints
        assert hints.value is playout_value and hints.horizon == PLAYOUT_HORIZON
        full = attrs.evolve(hints, value=count_value, horizon=0)
        for players in (2, 3, 4):
            state = game.initial_state(players, players)
            rng = random.Random(players)
            k = 0
            while (seat := game.current_player(state)) is not None and k < 40:
                obs = game.observe(state, seat)
                if len(obs.legal_actions) > 1 and k % 6 == 0:
                    trees = [_search(game, obs, k, 25, h) for h in (hints, full)]
                    assert trees[0] == trees[1]
                legal = obs.legal_actions
                state = game.apply(state, legal[rng.randrange(len(legal))])
                k += 1
