"""Hidden information (section 8): what each seat sees, determinisation, JSON round trips."""

from __future__ import annotations

import json
import random
from typing import Any

import attrs
import pytest

from cardcore import DECK_52, SPECTATOR, Card, parse_card, parse_cards
from cardcore_noddy import (
    PRESETS,
    Go,
    Noddy,
    NoddyObservation,
    NoddyState,
    Pass,
    Phase,
    Play,
    Played,
    Shown,
)
from cardcore_noddy.scoring import PIP
from cardcore_noddy.state import HANDS, STOCK


def game(preset: str = "default", **overrides: Any) -> Noddy:
    return Noddy(attrs.evolve(PRESETS[preset], **overrides))


def stacked(nd: str, d: str, up: str) -> list[Card]:
    a, b, u = parse_cards(nd), parse_cards(d), parse_card(up)
    top = [a[0], b[0], a[1], b[1], a[2], b[2], u]
    return top + [c for c in DECK_52 if c not in top]


def reachable(g: Noddy, seeds: range, every: int = 1) -> list[NoddyState]:
    out = []
    for seed in seeds:
        rng = random.Random(seed)
        s = g.initial_state(2, seed)
        step = 0
        while True:
            if step % every == 0:
                out.append(s)
            if s.current is None:
                break
            legal = g.legal_actions(s)
            s = g.apply(s, legal[rng.randrange(len(legal))])
            step += 1
    return out


CONFIGS = [
    ("default", {}),
    ("historical", {}),
    ("default", {"knave_noddy": "in_count"}),
    ("default", {"target": 61}),
]


@pytest.mark.parametrize(("preset", "overrides"), CONFIGS)
def test_sampled_states_look_the_same(preset: str, overrides: dict[str, Any]) -> None:
    """ND-8: observe(sample_state(observe(s, p)), p) == observe(s, p) on reachable states,
    for both seats and the onlooker, and sampled states play on.
    """
    g = game(preset, **overrides)
    rng = random.Random(7)
    for s in reachable(g, range(12)):
        for seat in (0, 1, SPECTATOR):
            obs = g.observe(s, seat)
            sampled = g.sample_state(obs, rng)
            sampled.table.check()
            assert g.observe(sampled, seat) == obs
            if seat == s.current:
                assert g.legal_actions(sampled) == g.legal_actions(s)


def test_observations_round_trip_through_json() -> None:
    """Observations survive JSON (and hold no RNG, no deck order)."""
    g = game()
    for s in reachable(g, range(4)):
        for seat in (0, 1, SPECTATOR):
            obs = g.observe(s, seat)
            data = json.loads(json.dumps(obs.to_json(), ensure_ascii=False))
            assert g.observation_from_json(data) == obs
            assert "rng" not in data
    with pytest.raises(ValueError, match="num_players"):
        g.observation_from_json({"num_players": 3})


def test_observation_shows_only_the_seat_s_own_cards() -> None:
    """ND-8.2, ND-8.3: a seat sees its own 3 cards, the turn-up and the pile; never the
    other hand or the stock; an onlooker sees no hand at all.
    """
    g = game()
    s = g.initial_state(2, 0, dealer=0, deck=stacked("2♣ 3♦ 9♥", "4♣ 8♦ Q♠", "6♥"))
    for seat in (0, 1):
        view = g.observe(s, seat).table
        assert view.size(HANDS[1 - seat]) == 3
        assert view.cards(HANDS[1 - seat]) == ()
        assert view.cards(HANDS[seat]) == s.table.cards(HANDS[seat])
        assert view.cards(STOCK) == ()
        assert view.size(STOCK) == 45
        assert g.observe(s, seat).turnup == parse_card("6♥")
    onlooker = g.observe(s, SPECTATOR)
    assert onlooker.table.cards(HANDS[0]) == onlooker.table.cards(HANDS[1]) == ()
    assert onlooker.my_hand == ()
    with pytest.raises(ValueError, match="seat must be"):
        g.observe(s, 2)


def test_no_opponent_legal_actions() -> None:
    """ND-8.4: an observation never shows the opponent's legal actions."""
    g = game()
    s = g.initial_state(2, 0, dealer=0, deck=stacked("J♥ 3♦ 9♥", "4♣ 8♦ Q♠", "6♥"))
    assert s.current == 1
    assert g.observe(s, 1).legal_actions == g.legal_actions(s)
    assert g.observe(s, 0).legal_actions == ()
    assert g.observe(s, SPECTATOR).legal_actions == ()


def test_forced_pass_looks_like_a_chosen_pass() -> None:
    """ND-8.4: the dealer cannot tell a forced pass from a chosen one."""
    g = game()
    forced = g.initial_state(2, 0, dealer=0, deck=stacked("2♣ 3♦ 9♥", "4♣ 8♦ Q♠", "6♥"))
    chosen = g.initial_state(2, 0, dealer=0, deck=stacked("J♥ 3♦ 9♥", "4♣ 8♦ Q♠", "6♥"))
    a, b = g.apply(forced, Pass()), g.apply(chosen, Pass())
    oa, ob = g.observe(a, 0), g.observe(b, 0)
    assert oa.events == ob.events
    assert oa.table == ob.table
    assert attrs.evolve(oa, table=ob.table) == ob


def test_show_total_and_breakdown_but_not_the_cards() -> None:
    """ND-T24: after the show, D's observation holds ND's show total and breakdown by
    type, but none of ND's cards.
    """
    g = game()
    s = g.initial_state(2, 0, dealer=0, deck=stacked("5♥ 5♣ J♠", "2♣ 3♦ 9♥", "5♦"))
    s = g.apply(g.apply(s, Pass()), Pass())
    obs = g.observe(s, 0)
    shown = [e for e in obs.events if isinstance(e, Shown) and e.seat == 1]
    assert shown == [Shown(1, 16, (("pairs", 6), ("fifteens", 8), ("twenty-fives", 2)), 16)]
    assert obs.table.cards(HANDS[1]) == ()
    text = json.dumps(obs.to_json(), ensure_ascii=False)
    for card in ("5♥", "5♣", "J♠"):
        assert card not in text


def test_unplayed_card_never_reaches_the_opponent() -> None:
    """ND-T25, ND-8.3: ND keeps 5♣ unplayed; D's observation never contains it, during
    the hand or after it.
    """
    g = game()
    s = g.initial_state(2, 3, dealer=0, deck=stacked("10♠ 9♦ 5♣", "9♥ 2♣ A♦", "4♥"))
    seen: list[NoddyObservation] = [g.observe(s, 0)]
    s = g.apply(g.apply(s, Pass()), Pass())
    for text in ("play 10♠", "play 9♥", "play 9♦", "play A♦", "play 2♣"):
        s = g.apply(s, g.parse_action(text))
        seen.append(g.observe(s, 0))
    assert s.hand == 2
    five = parse_card("5♣")
    assert five not in s.table.cards(HANDS[0]) and five != s.table.cards(3)[0]
    for obs in seen:
        assert "5♣" not in json.dumps(obs.to_json(), ensure_ascii=False)
        assert all(five not in obs.table.cards(z) for z in range(5))


def test_sampling_respects_a_go() -> None:
    """ND-4.4: a seat that went at total T holds no card of pip <= 31 - T; sampled
    states keep that.
    """
    g = game()
    s = g.initial_state(2, 0, dealer=0, deck=stacked("7♣ 8♦ 2♠", "8♠ 9♥ K♣", "4♥"))
    s = g.apply(g.apply(s, Pass()), Pass())
    for text in ("play 7♣", "play 8♠", "play 8♦"):
        s = g.apply(s, g.parse_action(text))
    assert s.events[-1] == Go(0, 23)
    obs = g.observe(s, 1)
    rng = random.Random(1)
    for _ in range(200):
        sampled = g.sample_state(obs, rng)
        for c in sampled.table.cards(HANDS[0]):
            assert PIP[c.id] > 31 - 23
        assert g.observe(sampled, 1) == obs


def test_observation_helpers() -> None:
    """Observation conveniences: the turn-up, the seat's own hand, the pile."""
    g = game()
    s = g.initial_state(2, 0, dealer=0, deck=stacked("7♣ 8♦ 2♠", "8♠ 9♥ K♣", "4♥"))
    s = g.apply(g.apply(s, Pass()), Pass())
    s = g.apply(s, g.parse_action("play 7♣"))
    obs = g.observe(s, 1)
    assert obs.turnup == parse_card("4♥")
    assert obs.my_hand == parse_cards("8♦ 2♠")
    assert obs.pile == (parse_card("7♣"),)
    assert obs.phase is Phase.PLAY and obs.total == 7


def test_fast_deal_and_play_match_the_card_table() -> None:
    """ND-3.3, ND-4.5: the game's dealing and playing shortcuts move cards, and tell seats
    about them, exactly as gathering, drawing and ``CardTable.move`` would.
    """
    from cardcore_noddy.state import LAYOUT, PILE, TURNUP

    g = game()
    rng = random.Random(2)
    for s in reachable(g, range(3), every=3):
        top = rng.sample(range(52), 7)
        for dealer in (0, 1):
            nd = 1 - dealer
            slow = s.table.gather(STOCK)
            for i, zone in enumerate((HANDS[nd], HANDS[dealer]) * 3 + (TURNUP,)):
                slow = slow.move(top[i], STOCK, zone)
            # The deal inside the game builds the same table.
            deck = [Card.of(c) for c in top] + [Card.of(c) for c in range(52) if c not in top]
            assert g.start_hand(scores=(0, 0), dealer=dealer, deck=deck).table == slow
        if s.phase is Phase.PLAY and s.current is not None:
            for action in g.legal_actions(s):
                assert isinstance(action, Play)
                card = action.card.id
                hand = HANDS[s.current]
                after = g.apply(s, action)
                if after.hand == s.hand:  # not a new deal: the card went to the pile
                    assert after.table == s.table.move(card, hand, PILE)
    assert LAYOUT.zones[STOCK].name == "stock"


def test_sampling_respects_the_announced_show() -> None:
    """ND-4.3, ND-8.1: sampled hidden hands reproduce the opponent's announced show
    (total and breakdown), with the cards it has played this hand and the turn-up.
    """
    from cardcore_noddy import count_show

    g = game()
    s = g.initial_state(2, 0, dealer=0, deck=stacked("7♣ 8♦ 2♠", "8♠ 9♥ K♣", "4♥"))
    s = g.apply(g.apply(s, Pass()), Pass())
    nd_show = next(e for e in s.events if isinstance(e, Shown) and e.seat == 1)
    assert nd_show.points > 0
    checked = 0
    for moves in ((), ("play 7♣",), ("play 7♣", "play 8♠")):
        t = s
        for m in moves:
            t = g.apply(t, g.parse_action(m))
        obs = g.observe(t, 0)
        played = [e.card for e in t.events if isinstance(e, Played) and e.seat == 1]
        rng = random.Random(len(moves))
        for _ in range(100):
            sampled = g.sample_state(obs, rng)
            assert g.observe(sampled, 0) == obs
            hand = [*sampled.table.cards(HANDS[1]), *played]
            got = count_show(hand, parse_card("4♥"), dealer=False, rules=g.rules)
            assert got.parts == nd_show.parts
            checked += 1
    assert checked == 300


def test_sampling_for_an_onlooker_respects_both_shows() -> None:
    """ND-8.1: an onlooker's sampled state fits both announced shows."""
    from cardcore_noddy import count_show

    g = game()
    s = g.initial_state(2, 0, dealer=0, deck=stacked("7♣ 8♦ 2♠", "8♠ 9♥ K♣", "4♥"))
    s = g.apply(g.apply(s, Pass()), Pass())
    shows = {e.seat: e.parts for e in s.events if isinstance(e, Shown)}
    obs = g.observe(s, SPECTATOR)
    rng = random.Random(3)
    for _ in range(50):
        sampled = g.sample_state(obs, rng)
        assert g.observe(sampled, SPECTATOR) == obs
        for seat in (0, 1):
            hand = sampled.table.cards(HANDS[seat])
            got = count_show(hand, parse_card("4♥"), dealer=seat == 0, rules=g.rules)
            assert got.parts == shows[seat]
