"""Box information (section 8): no leaks, determinisation, JSON round trips."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import attrs
import pytest

from cardcore import SPECTATOR, Card
from cardcore_box import PRESETS, Box, BoxState, Play
from cardcore_box.state import BOX, DRAW, HAND, TABLE

SEATS = [0, 1, 2, 3, SPECTATOR]


def reachable(game: Box, seeds: range) -> Iterator[BoxState]:
    """Every state of random games with the given seeds."""
    for seed in seeds:
        rng = random.Random(seed)
        s = game.initial_state(4, seed)
        yield s
        while s.current is not None:
            legal = game.legal_actions(s)
            s = game.apply(s, legal[rng.randrange(len(legal))])
            yield s


@pytest.fixture(params=sorted(PRESETS))
def game(request: pytest.FixtureRequest) -> Box:
    return Box(PRESETS[request.param])


def test_sampled_states_look_the_same(game: Box) -> None:
    """Non-interference: observe(sample_state(observe(s, p)), p) == observe(s, p)."""
    rng = random.Random(1)
    for i, s in enumerate(reachable(game, range(12))):
        for p in SEATS:
            obs = game.observe(s, p)
            sampled = game.sample_state(obs, rng)
            sampled.table.check()
            assert game.observe(sampled, p) == obs, (i, p)
            if p == s.current:
                assert game.legal_actions(sampled) == game.legal_actions(s)


def test_sampled_states_keep_what_the_round_revealed(game: Box) -> None:
    """sample_state: a hand lead holds nothing higher; a player who turned up holds
    nothing that could follow the card they were stuck on (BX-4.3, BX-4.4)."""
    rng = random.Random(2)
    checked = 0
    for s in reachable(game, range(40)):
        order = s.table.orders[TABLE]
        if not order or s.current is None:
            continue
        for p in SEATS:
            t = game.sample_state(game.observe(s, p), rng).table
            if not s.from_box[0]:
                lead = order[0] % 13
                hand = t.masks[HAND + s.played_by[0]]
                assert all(c % 13 <= lead for c in range(52) if (hand >> c) & 1)
            for i in range(1, len(order)):
                if s.from_box[i]:
                    limit = order[i - 1] % 13
                    hand = t.masks[HAND + s.played_by[i]]
                    assert all(c % 13 > limit for c in range(52) if (hand >> c) & 1)
                    checked += 1
    assert checked > 50


def test_sampled_states_play_on(game: Box) -> None:
    """A sampled state is a legal state from which a game plays to its end."""
    rng = random.Random(3)
    for i, s in enumerate(reachable(game, range(4))):
        if i % 5 or s.current is None:
            continue
        t = game.sample_state(game.observe(s, s.current), rng)
        while t.current is not None:
            legal = game.legal_actions(t)
            t = game.apply(t, legal[rng.randrange(len(legal))])
        assert game.outcome(t) is not None


def test_nobody_sees_a_box_card(game: Box) -> None:
    """BX-8.3, BX-8.4, BX-T20: no observation holds an unturned box card, not even the
    owner's; JSON shows every box card as unknown; render never names one."""
    for s in reachable(game, range(6)):
        boxes = 0
        for q in range(4):
            boxes |= s.table.masks[BOX + q]
        for p in SEATS:
            obs = game.observe(s, p)
            for q in range(4):
                assert obs.table.known[BOX + q] == 0
                assert obs.table.size(BOX + q) == s.table.size(BOX + q)
            assert obs.table.known[DRAW] == 0
            data = obs.to_json()
            for q in range(4):
                assert set(data["table"]["zones"][f"box{q}"]) <= {None}
            text = game.render(obs)
            for c in range(52):
                if (boxes >> c) & 1:
                    assert str(Card.of(c)) not in text


def test_hands_are_private(game: Box) -> None:
    """BX-8.2: a seat sees its own hand and no other; the onlooker sees no hand."""
    for s in reachable(game, range(3)):
        for p in SEATS:
            obs = game.observe(s, p)
            for q in range(4):
                want = s.table.masks[HAND + q] if q == p else 0
                assert obs.table.known[HAND + q] == want


def test_turn_up_seen_by_all(game: Box) -> None:
    """BX-8.1, BX-T20: a turned-up box card is seen by every seat and the onlooker."""
    found = 0
    for s in reachable(game, range(5)):
        if s.from_box and s.from_box[-1]:
            up = s.table.orders[TABLE][-1]
            for p in SEATS:
                assert (game.observe(s, p).table.mask(TABLE) >> up) & 1
            found += 1
        r = s.last_round
        if r is not None and r.turned_up is not None:
            for p in SEATS:
                assert r.turned_up in game.observe(s, p).table.cards(f"extra{r.winner}")
    assert found


def test_only_the_player_to_move_sees_legal_actions(game: Box) -> None:
    """BX-8.4: an observation never shows another seat's legal actions."""
    for s in reachable(game, range(3)):
        for p in SEATS:
            obs = game.observe(s, p)
            if p == s.current:
                assert obs.legal_actions == game.legal_actions(s)
            else:
                assert obs.legal_actions == ()


def test_observation_ignores_the_rng(game: Box) -> None:
    """The RNG state is hidden: observations do not depend on it."""
    for s in reachable(game, range(2)):
        other = attrs.evolve(s, rng=s.rng ^ 0xDEADBEEF)
        for p in SEATS:
            assert game.observe(s, p) == game.observe(other, p)
        assert "rng" not in json.dumps(game.observe(s, 0).to_json())


def test_observation_json_round_trip(game: Box) -> None:
    """observation_from_json(obs.to_json()) == obs, for every seat at every step."""
    for s in reachable(game, range(3)):
        for p in SEATS:
            obs = game.observe(s, p)
            text = json.dumps(obs.to_json(), ensure_ascii=False)
            assert game.observation_from_json(json.loads(text)) == obs


def test_observation_from_bad_json() -> None:
    """Malformed observation data is refused with a ValueError."""
    game = Box()
    data = game.observe(game.initial_state(4, 0), 0).to_json()
    with pytest.raises(ValueError, match="num_players"):
        game.observation_from_json({**data, "num_players": 3})
    with pytest.raises(ValueError, match="direction"):
        game.observation_from_json({**data, "direction": "up"})


def test_own_hand_sorted_in_render() -> None:
    """render shows the own hand by rank, high first, and counts for other hands."""
    game = Box()
    s = game.initial_state(4, 0, dealer=0)
    obs = game.observe(s, 1)
    text = game.render(obs)
    hand = sorted(obs.table.cards(HAND + 1), key=lambda c: (-c.rank, c.suit))
    assert "seat 1 (you): hand " + " ".join(map(str, hand)) in text
    assert "seat 2: hand 4 cards" in text
    assert "your move: " in text and "play" in text
    onlooker = game.render(game.observe(s, SPECTATOR))
    assert "onlooker" in onlooker and "your move" not in onlooker


def test_every_observed_seat_agrees_on_public_facts(game: Box) -> None:
    """BX-8.1: every seat sees the same public facts and zone sizes."""
    for s in reachable(game, range(2)):
        obs = [game.observe(s, p) for p in SEATS]
        for o in obs[1:]:
            assert o.table.sizes == obs[0].table.sizes
            assert (o.direction, o.out, o.played_by, o.from_box, o.last_round) == (
                obs[0].direction,
                obs[0].out,
                obs[0].played_by,
                obs[0].from_box,
                obs[0].last_round,
            )
            assert o.table.orders[TABLE] == obs[0].table.orders[TABLE]


def test_play_action_type() -> None:
    """Legal plays are Play values whose card is in the hand."""
    game = Box()
    s = game.initial_state(4, 1)
    for a in game.legal_actions(s):
        assert isinstance(a, Play)
        assert s.current is not None
        assert (s.table.masks[HAND + s.current] >> a.card.id) & 1
