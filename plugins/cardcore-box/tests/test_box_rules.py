"""Box rules: the worked examples of section 10 and every rule paragraph of sections 3-6.

States are set up either with a stacked deck or directly with :func:`build`, which
places named cards in named zones and gives every seat exactly the knowledge the moves
would give it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from fractions import Fraction

import attrs
import pytest

from cardcore import DECK_52, IllegalActionError, parse_cards, rng_below, rng_next, rng_seed
from cardcore_box import PRESETS, Box, BoxState, Ending, Play, TurnUp
from cardcore_box.state import BOX, DISCARD, DRAW, EXTRA, HAND, TABLE, layout

ALL_PRESETS = sorted(PRESETS)


def ids(text: str) -> list[int]:
    return [c.id for c in parse_cards(text)]


def build(
    *,
    current: int,
    hands: Mapping[int, str] | None = None,
    boxes: Mapping[int, str] | None = None,
    table: Sequence[tuple[int, str, bool]] = (),
    extras: Mapping[int, str] | None = None,
    draw: str | int = 0,
    out: Mapping[int, int] | None = None,
    direction: int = 1,
    leader: int | None = None,
    round_number: int = 3,
    dealer: int = 0,
    rng: int = 1,
) -> BoxState:
    """A mid-game state: named cards in named zones, every other card in the discard.

    ``draw`` is either the draw pile (top card first) or a number of unnamed cards.
    ``table`` lists ``(seat, card, from_box)`` in order of play.
    """
    hands = hands or {}
    boxes = boxes or {}
    extras = extras or {}
    out = out or {}
    named: list[tuple[int, int]] = []
    for s, text in hands.items():
        named += [(c, HAND + s) for c in ids(text)]
    for s, text in boxes.items():
        named += [(c, BOX + s) for c in ids(text)]
    for s, text in extras.items():
        named += [(c, EXTRA + s) for c in ids(text)]
    named += [(parse_cards(card)[0].id, TABLE) for _, card, _ in table]
    used = {c for c, _ in named}
    assert len(used) == len(named), "a card is named twice"
    if isinstance(draw, str):
        pile = ids(draw)
    else:
        pile = [c for c in range(52) if c not in used][:draw]
    rest = [c for c in range(52) if c not in used and c not in pile]
    lay = layout()
    t = lay.new_table(pile + [c for c, _ in named] + rest, DRAW)
    for c, zone in named:
        t = t.move(c, DRAW, zone)
    for c in rest:
        t = t.move(c, DRAW, DISCARD, seen=lay.all_seats)
    active = sum(1 << s for s in range(4) if s not in out)
    return BoxState(
        table=t,
        rng=rng,
        dealer=dealer,
        round=round_number,
        leader=leader if leader is not None else (table[0][0] if table else current),
        current=current,
        direction=direction,
        active=active,
        out=tuple(out.get(s, 0) for s in range(4)),
        played_by=tuple(s for s, _, _ in table),
        from_box=tuple(b for _, _, b in table),
        rounds=(),
    )


def rng_picking(box: str, card: str) -> int:
    """An RNG state whose next turn-up from ``box`` is ``card``."""
    order = sorted(ids(box))
    want = order.index(parse_cards(card)[0].id)
    for r in range(10_000):
        if rng_below(r, len(order))[0] == want:
            return r
    raise AssertionError("no such RNG state")


def act(game: Box, state: BoxState, text: str) -> BoxState:
    return game.apply(state, game.parse_action(text))


def legal(game: Box, state: BoxState) -> list[str]:
    return [str(a) for a in game.legal_actions(state)]


def size(state: BoxState, zone: int) -> int:
    return state.table.size(zone)


def names(state: BoxState, zone: int) -> set[str]:
    return {str(c) for c in state.table.cards(zone)}


@pytest.fixture(params=ALL_PRESETS)
def game(request: pytest.FixtureRequest) -> Box:
    return Box(PRESETS[request.param])


# ---- section 10: worked examples -------------------------------------------------------


def test_t1_follow_with_rank_at_most_the_lead(game: Box) -> None:
    """BX-T1, BX-4.4: after a 10 the next player's legal cards are their cards <= 10."""
    s = build(current=0, hands={0: "10♥ 4♣", 1: "J♠ 10♣ 4♦ A♥", 2: "2♣"}, boxes={1: "5♠"}, draw=5)
    s = act(game, s, "play 10♥")
    assert s.current == 1
    assert set(legal(game, s)) == {"play 10♣", "play 4♦"}


def test_t2_each_card_lowers_the_limit(game: Box) -> None:
    """BX-T2: after 10 then 7, the third player must play a card of rank <= 7."""
    s = build(
        current=1,
        table=[(0, "10♥", False)],
        hands={1: "7♣ 9♣", 2: "8♦ 7♠ 6♥ K♣"},
        boxes={2: "2♠"},
    )
    s = act(game, s, "play 7♣")
    assert s.current == 2
    assert set(legal(game, s)) == {"play 7♠", "play 6♥"}


def test_t3_equal_rank_reverses(game: Box) -> None:
    """BX-T3, BX-4.5: P1 plays 7, P2 plays 7: anticlockwise, and P1 plays next."""
    s = build(
        current=1,
        table=[(0, "10♥", False)],
        hands={1: "7♣ 7♥", 2: "7♦ 2♠", 3: "2♣"},
        boxes={0: "3♦", 1: "3♥", 2: "3♠", 3: "4♦"},
    )
    s = act(game, s, "play 7♣")
    assert (s.current, s.direction) == (2, 1)
    s = act(game, s, "play 7♦")
    assert (s.current, s.direction) == (1, -1)


def test_t4_third_equal_rank_reverses_again(game: Box) -> None:
    """BX-T4: continuing BX-T3, a third 7 makes the direction clockwise; P2 is next."""
    s = build(
        current=1,
        table=[(0, "10♥", False), (1, "7♣", False), (2, "7♦", False)],
        hands={1: "7♥", 2: "2♠", 3: "2♣"},
        boxes={0: "3♦", 1: "3♥", 2: "3♠", 3: "4♦"},
        direction=-1,
    )
    s = act(game, s, "play 7♥")
    assert (s.current, s.direction) == (2, 1)


def test_t5_failed_draw_ends_the_round(game: Box) -> None:
    """BX-T5, BX-4.6a: P3 turns up an 8 over P2's 5: it goes to P2, who wins and leads."""
    s = build(
        current=3,
        table=[(1, "9♦", False), (2, "5♥", False)],
        hands={0: "2♣ 3♣ 4♣", 1: "J♣ Q♣ K♣", 2: "A♣ A♦ A♥", 3: "9♠ K♥"},
        boxes={0: "10♣", 1: "10♦", 2: "10♥", 3: "8♣ 8♦ 8♥ 8♠"},
        draw=20,
    )
    assert legal(game, s) == ["turn up"]
    after = act(game, s, "turn up")
    (eight,) = after.table.cards(EXTRA + 2)
    assert eight.rank == 8
    assert after.round == s.round + 1 and after.leader == 2 and after.current == 2
    assert size(after, BOX + 3) == 3  # not refilled under either preset
    assert after.last_round is not None
    assert after.last_round.ending is Ending.FAILED_DRAW
    assert (after.last_round.winner, after.last_round.stuck) == (2, 3)
    assert after.last_round.box_draws == (0, 0, 0, 0)


def test_t6_playable_box_card_is_played_and_refilled(game: Box) -> None:
    """BX-T6: over a 9, P3 (only a J) turns up a 6: played; the box is back to 4 later."""
    s = build(
        current=3,
        table=[(2, "9♦", False)],
        hands={0: "", 1: "2♣", 2: "3♣", 3: "J♠"},
        boxes={0: "K♣ K♦ K♥ K♠", 1: "2♦", 2: "2♥", 3: "6♣ 6♦ 6♥ 6♠"},
        draw=20,
    )
    s = act(game, s, "turn up")
    assert s.table.cards(TABLE)[-1].rank == 6
    assert s.from_box == (False, True)
    assert s.current == 0 and size(s, BOX + 3) == 3
    s = act(game, s, "turn up")  # P0 turns up a king: too high, P3 wins the round
    assert s.last_round is not None and s.last_round.winner == 3
    assert size(s, BOX + 3) == 4
    assert s.last_round.box_draws[3] == 1


def test_t7_lead_highest_rank(game: Box) -> None:
    """BX-T7, BX-4.3: holding 3, Q, Q, 8 the leader must lead a Q; either Q is legal."""
    s = build(current=0, hands={0: "3♣ Q♦ Q♠ 8♥"}, boxes={0: "2♦", 1: "2♥", 2: "2♠", 3: "4♦"})
    assert set(legal(game, s)) == {"play Q♦", "play Q♠"}
    for q in ("Q♦", "Q♠"):
        assert game.apply(s, game.parse_action(q)).table.cards(TABLE)[0] == parse_cards(q)[0]


def test_t8_empty_hand_must_turn_up(game: Box) -> None:
    """BX-T8: P1 (not leading) with an empty hand must turn up; there is no passing."""
    s = build(current=1, table=[(0, "9♦", False)], hands={1: ""}, boxes={1: "2♦ 3♦"})
    assert legal(game, s) == ["turn up"]
    with pytest.raises(ValueError, match="pass"):
        game.parse_action("pass")
    with pytest.raises(IllegalActionError):
        act(game, s, "play 2♦")


def test_t8_empty_handed_leader_always_plays_the_box_card(game: Box) -> None:
    """BX-T8, BX-4.3: a leader with an empty hand turns up a box card; any card leads."""
    s = build(current=1, hands={1: ""}, boxes={0: "2♣", 1: "A♣ A♦ A♥ A♠", 2: "2♦", 3: "2♥"})
    assert legal(game, s) == ["turn up"]
    s = act(game, s, "turn up")
    assert s.table.cards(TABLE)[0].rank == 14
    assert (s.played_by, s.from_box) == ((1,), (True,))
    assert s.current == 2


def test_t9_last_box_card_lost_means_out(game: Box) -> None:
    """BX-T9, BX-5.3: pile empty, P2's only box card is too high: P2 is out after the round."""
    s = build(
        current=2,
        table=[(0, "9♦", False), (1, "6♦", False)],
        hands={0: "2♣", 1: "3♣", 2: "K♠", 3: "4♣"},
        boxes={0: "5♣", 1: "5♦", 2: "A♠", 3: "5♥"},
    )
    after = act(game, s, "turn up")
    assert size(after, BOX + 2) == 0
    assert after.out == (0, 0, s.round, 0) and not (after.active >> 2) & 1
    assert after.current == 1 == after.leader  # P1 won the round and leads
    assert size(after, HAND + 2) == 0  # the hand went to the discard


def test_t10_initial_counts(game: Box) -> None:
    """BX-T10, BX-9.2, BX-3.3: hands 4, boxes 4, extras 0, draw pile 20, table empty."""
    for seed in range(5):
        s = game.initial_state(4, seed)
        for p in range(4):
            assert (size(s, HAND + p), size(s, BOX + p), size(s, EXTRA + p)) == (4, 4, 0)
        assert (size(s, DRAW), size(s, TABLE), size(s, DISCARD)) == (20, 0, 0)


@pytest.mark.parametrize(("preset", "drawn"), [("default", 2), ("pagat", 1)])
def test_t11_refill_presets_differ(preset: str, drawn: int) -> None:
    """BX-T11, BX-5.2b: box 3, one box play, no failed draw: default draws 2, pagat 1."""
    game = Box(PRESETS[preset])
    s = build(
        current=3,
        table=[(2, "9♦", False)],
        hands={0: "", 1: "2♣", 2: "3♣", 3: "J♠"},
        boxes={0: "K♣ K♦ K♥ K♠", 1: "2♦", 2: "2♥", 3: "4♣ 4♦ 4♥"},
        draw=20,
    )
    s = act(game, s, "turn up")
    assert size(s, BOX + 3) == 2
    s = act(game, s, "turn up")  # P0's king is too high: P3 wins
    assert s.last_round is not None and s.last_round.box_draws[3] == drawn
    assert size(s, BOX + 3) == 2 + drawn


@pytest.mark.parametrize(("preset", "drawn"), [("default", 3), ("pagat", 1)])
def test_t12_success_then_failure(preset: str, drawn: int) -> None:
    """BX-T12: box 2, a box play then a failed draw: default refills to 3, pagat draws 1."""
    game = Box(PRESETS[preset])
    s = build(
        current=1,
        table=[(2, "K♦", False)],
        hands={1: "", 2: "3♥"},
        boxes={1: "5♣ K♠", 2: "2♦ 2♥"},
        out={0: 1, 3: 1},
        draw=20,
        rng=rng_picking("5♣ K♠", "5♣"),
    )
    s = act(game, s, "turn up")
    assert names(s, TABLE) == {"K♦", "5♣"} and size(s, BOX + 1) == 1
    s = act(game, s, "play 3♥")
    assert s.current == 1
    s = act(game, s, "turn up")
    assert names(s, EXTRA + 2) == {"K♠"}
    assert s.last_round is not None and s.last_round.box_draws[1] == drawn
    assert size(s, BOX + 1) == drawn
    assert not s.out[1]


def _t13_state(draw: int) -> BoxState:
    return build(
        current=1,
        table=[(0, "9♣", False)],
        hands={0: "2♦ 3♠", 1: "K♠", 2: "3♦"},
        boxes={0: "2♣", 1: "4♣", 2: "2♥"},
        out={3: 1},
        draw=draw,
    )


@pytest.mark.parametrize(("preset", "drawn"), [("default", 4), ("pagat", 1)])
def test_t13_stuck_with_an_empty_box(preset: str, drawn: int) -> None:
    """BX-T13, BX-4.6b: stuck again with no box card: P0 wins, nothing moves, P1 refills."""
    game = Box(PRESETS[preset])
    s = _t13_state(draw=20)
    s = act(game, s, "turn up")  # 4♣ fits: P1's box is now empty
    s = act(game, s, "play 3♦")
    extras = [size(s, EXTRA + p) for p in range(4)]
    s = act(game, s, "play 2♦")  # P1 is stuck with an empty box: the round ends
    r = s.last_round
    assert r is not None and r.ending is Ending.EMPTY_BOX
    assert (r.winner, r.stuck, r.turned_up) == (0, 1, None)
    assert [size(s, EXTRA + p) for p in range(4)] == extras
    assert r.box_draws[1] == drawn and size(s, BOX + 1) == drawn
    assert not s.out[1] and s.current == 0


def test_t13_stuck_with_an_empty_box_and_no_pile(game: Box) -> None:
    """BX-T13: with the draw pile empty, P1 stays at an empty box and is eliminated."""
    s = _t13_state(draw=0)
    s = act(game, s, "turn up")
    s = act(game, s, "play 3♦")
    s = act(game, s, "play 2♦")
    assert s.out[1] == s.round - 1
    assert s.current == 0


def test_t14_reversal_skips_the_eliminated(game: Box) -> None:
    """BX-T14, BX-4.7: P2 out; P1 plays 7, P3 plays 7: anticlockwise, P1 is next."""
    s = build(
        current=1,
        table=[(0, "9♦", False)],
        hands={1: "7♣ 2♣", 3: "7♦", 0: "3♣"},
        boxes={0: "2♦", 1: "2♥", 3: "2♠"},
        out={2: 1},
    )
    s = act(game, s, "play 7♣")
    assert s.current == 3
    s = act(game, s, "play 7♦")
    assert (s.current, s.direction) == (1, -1)


def test_t15_reversal_with_two_players(game: Box) -> None:
    """BX-T15: only P0 and P2 are in; P0 plays 5, P2 plays 5: P0 plays next."""
    s = build(
        current=0,
        hands={0: "5♣ 3♣", 2: "5♦ 2♦"},
        boxes={0: "2♥", 2: "2♠"},
        out={1: 1, 3: 2},
    )
    s = act(game, s, "play 5♣")
    assert s.current == 2
    s = act(game, s, "play 5♦")
    assert (s.current, s.direction) == (0, -1)


def test_t16_each_round_starts_clockwise(game: Box) -> None:
    """BX-T16, BX-4.2: a round that ends anticlockwise is followed by a clockwise one."""
    s = build(
        current=1,
        table=[(0, "10♥", False), (1, "7♣", False), (2, "7♦", False)],
        hands={0: "A♣", 1: "", 2: "2♠", 3: "2♣"},
        boxes={0: "3♦", 1: "K♣ K♦ K♥ K♠", 2: "3♥", 3: "3♠"},
        direction=-1,
        draw=10,
    )
    s = act(game, s, "turn up")  # a king over the 7: P2 wins
    assert s.last_round is not None and s.last_round.winner == 2
    assert (s.current, s.direction) == (2, 1)


def test_t17_scarce_draw_pile(game: Box) -> None:
    """BX-T17, BX-5.2: 3 cards left; P2 (winner) draws 1, P3 2, P0 none; pile empty."""
    s = build(
        current=3,
        table=[(2, "5♦", False)],
        hands={0: "2♣ 3♣ 4♣", 1: "2♦ 3♦ 4♦ 6♦", 2: "2♥ 3♥ 4♥", 3: "K♠ Q♠"},
        boxes={0: "9♣", 1: "9♦", 2: "9♥", 3: "A♣ A♦ A♥ A♠"},
        draw="10♣ 10♦ 10♥",
    )
    s = act(game, s, "turn up")
    r = s.last_round
    assert r is not None and r.winner == 2
    assert r.hand_draws == (0, 0, 1, 2)
    assert size(s, DRAW) == 0
    assert names(s, HAND + 2) == {"2♥", "3♥", "4♥", "10♣"}
    assert names(s, HAND + 3) == {"K♠", "Q♠", "10♦", "10♥"}


@pytest.mark.parametrize(
    ("extra0", "shares"),
    [("3♣ 3♦ 3♥", (1, 0, 0, 0)), ("3♣", (Fraction(1, 2), 0, Fraction(1, 2), 0))],
)
def test_t18_simultaneous_elimination(game: Box, extra0: str, shares: tuple[Fraction, ...]) -> None:
    """BX-T18, BX-6.2: both last players go out together: most extra cards wins, or share."""
    s = build(
        current=2,
        table=[(0, "9♦", False)],
        hands={0: "", 2: ""},
        boxes={0: "K♠", 2: "5♣"},
        extras={0: extra0},
        out={1: 1, 3: 2},
    )
    s = act(game, s, "turn up")  # P2's 5 fits (box 0)
    s = act(game, s, "turn up")  # P0's king is too high: it goes to P2 (box 0)
    assert size(s, EXTRA + 2) == 1
    assert s.current is None
    out = game.outcome(s)
    assert out is not None and out.shares == shares
    assert out.placing[1] > out.placing[0] and out.placing[3] > out.placing[0]


def test_t19_eliminated_round_winner(game: Box) -> None:
    """BX-T19, BX-4.1: P1 wins the round with an empty box: out, and P2 leads next."""
    s = build(
        current=1,
        table=[(0, "9♦", False)],
        hands={0: "2♣", 1: "", 2: "K♥", 3: "3♣"},
        boxes={0: "5♦", 1: "5♣", 2: "A♠ A♥", 3: "5♥"},
    )
    s = act(game, s, "turn up")
    s = act(game, s, "turn up")  # P2's ace is too high: P1 wins
    r = s.last_round
    assert r is not None and r.winner == 1 and r.eliminated == (1,)
    assert s.out[1] and s.leader == 2 == s.current


def test_t20_own_box_unseen_turn_up_seen_by_all(game: Box) -> None:
    """BX-T20, BX-8.3, BX-8.4: P0 never sees its own box; a turn-up is seen by all four."""
    s = game.initial_state(4, 11, dealer=3)
    box0 = s.table.masks[BOX + 0]
    obs = game.observe(s, 0)
    assert obs.table.mask(BOX + 0) == 0 and obs.table.size(BOX + 0) == 4
    for p in range(4):
        assert game.observe(s, p).table.known[BOX + 0] == 0
    s = build(current=0, hands={0: ""}, boxes={0: "7♣ 7♦ 7♥ 7♠", 1: "2♣", 2: "2♦", 3: "2♥"})
    s = act(game, s, "turn up")
    (up,) = s.table.cards(TABLE)
    for p in [*range(4), -1]:
        assert up in game.observe(s, p).table.cards(TABLE)
    assert box0  # the first state had a box to hide


# ---- section 3: setup --------------------------------------------------------------------


def test_dealer_random_or_given(game: Box) -> None:
    """BX-3.1: without a dealer one is picked at random; a given dealer is used."""
    dealers = Counter(game.initial_state(4, seed).dealer for seed in range(200))
    assert set(dealers) == {0, 1, 2, 3}
    for d in range(4):
        s = game.initial_state(4, 5, dealer=d)
        assert s.dealer == d and s.leader == s.current == (d + 1) % 4


@pytest.mark.parametrize("dealer", [0, 2, 3])
def test_stacked_deal_order(game: Box, dealer: int) -> None:
    """BX-3.2: one card at a time from the dealer's left: 16 box cards, then 16 hand cards."""
    deck = list(reversed(DECK_52))
    s = game.initial_state(4, 0, dealer=dealer, deck=deck)
    for i in range(32):
        seat = (dealer + 1 + i) % 4
        zone = (BOX if i < 16 else HAND) + seat
        assert (s.table.masks[zone] >> deck[i].id) & 1, (i, seat)
    assert s.table.top(DRAW) == deck[32].id
    assert [c.id for c in reversed(s.table.cards(DRAW))] == [c.id for c in deck[32:]]


def test_bad_setup_is_refused(game: Box) -> None:
    """BX-1.1, BX-3.1: only 4 players, a real dealer seat and a full 52-card deck."""
    with pytest.raises(ValueError, match="4 players"):
        game.initial_state(3, 0)
    with pytest.raises(ValueError, match="dealer"):
        game.initial_state(4, 0, dealer=4)
    with pytest.raises(ValueError, match="52"):
        game.initial_state(4, 0, deck=DECK_52[:51])
    with pytest.raises(ValueError, match="52"):
        game.initial_state(4, 0, deck=[*DECK_52[:51], DECK_52[0]])
    with pytest.raises(ValueError, match="cards"):
        game.initial_state(4, 0, deck=["A♠"] * 52)  # type: ignore[list-item]


def test_start_of_game(game: Box) -> None:
    """BX-3.4, BX-4.1: everyone is in, clockwise, the dealer's left leads round 1."""
    s = game.initial_state(4, 3, dealer=1)
    assert s.active == 0b1111 and s.out == (0, 0, 0, 0)
    assert s.direction == 1 and s.round == 1 and s.current == 2


# ---- section 4: the round ----------------------------------------------------------------


def test_winner_leads_next_round(game: Box) -> None:
    """BX-4.1: the winner of a round leads the next one."""
    s = build(
        current=0,
        table=[(3, "4♦", False)],
        hands={0: "9♠", 3: "Q♥ 2♣"},
        boxes={0: "A♣ A♦ A♥ A♠", 1: "2♦", 2: "2♥", 3: "2♠"},
        draw=10,
    )
    s = act(game, s, "turn up")
    assert s.leader == 3 == s.current
    assert legal(game, s) == ["play Q♥"]


def test_box_card_can_reverse(game: Box) -> None:
    """BX-4.5: a box card of the same rank as the card before it reverses the direction."""
    s = build(
        current=2,
        table=[(1, "8♦", False)],
        hands={1: "2♣", 2: ""},
        boxes={0: "3♦", 1: "3♥", 2: "8♣ 8♥ 8♠", 3: "3♠"},
    )
    s = act(game, s, "turn up")
    assert (s.current, s.direction) == (1, -1)


def test_turn_up_is_uniform(game: Box) -> None:
    """BX-4.6a: the box card is chosen uniformly at random with the state's RNG."""
    base = build(
        current=1, table=[(0, "A♦", False)], hands={1: ""}, boxes={1: "2♣ 5♣ 9♣ K♣", 2: "2♦"}
    )
    seen: Counter[str] = Counter()
    for r in range(800):
        after = act(game, attrs.evolve(base, rng=rng_seed(r)), "turn up")
        seen[str(after.table.cards(TABLE)[-1])] += 1
    assert set(seen) == {"2♣", "5♣", "9♣", "K♣"}
    assert all(150 < n < 250 for n in seen.values()), seen


def test_stuck_player_may_not_pass_or_play(game: Box) -> None:
    """BX-4.6: a stuck player may not play a hand card; turning up is the only action."""
    s = build(current=1, table=[(0, "5♦", False)], hands={1: "9♠ K♥"}, boxes={1: "2♣"})
    assert legal(game, s) == ["turn up"]
    with pytest.raises(IllegalActionError, match="higher than the 5♦"):
        act(game, s, "play 9♠")


def test_eliminated_players_are_skipped(game: Box) -> None:
    """BX-4.7: eliminated players take no turns, clockwise or anticlockwise."""
    s = build(
        current=0,
        hands={0: "9♠ 2♣", 1: "", 2: "8♦", 3: ""},
        boxes={0: "3♦", 2: "3♥"},
        out={1: 1, 3: 1},
    )
    s = act(game, s, "play 9♠")
    assert s.current == 2


# ---- section 5: end of a round -------------------------------------------------------------


def test_table_goes_to_discard(game: Box) -> None:
    """BX-5.1: at the end of a round all table cards go to the discard."""
    s = build(
        current=2,
        table=[(0, "9♦", False), (1, "6♦", False)],
        hands={2: "K♠"},
        boxes={0: "2♣", 1: "2♦", 2: "A♠ A♥", 3: "2♥"},
        draw=10,
    )
    discard = size(s, DISCARD)
    s = act(game, s, "turn up")
    assert size(s, TABLE) == 0 and size(s, DISCARD) == discard + 2
    assert {"9♦", "6♦"} <= names(s, DISCARD)
    assert s.played_by == () and s.from_box == ()


def test_refill_order_and_hands(game: Box) -> None:
    """BX-5.2a: hands refill to four, clockwise from the round winner, from the pile top."""
    s = build(
        current=0,
        table=[(3, "4♦", False)],
        hands={0: "9♠", 1: "2♣ 3♣", 2: "2♦ 3♦ 5♦ 6♦", 3: "Q♥"},
        boxes={0: "A♣ A♦ A♥ A♠", 1: "2♥", 2: "2♠", 3: "3♥"},
        draw="10♣ 10♦ 10♥ 10♠ J♣ J♦ J♥ J♠ 9♣",
    )
    s = act(game, s, "turn up")
    assert names(s, HAND + 3) == {"Q♥", "10♣", "10♦", "10♥"}
    assert names(s, HAND + 0) == {"9♠", "10♠", "J♣", "J♦"}
    assert names(s, HAND + 1) == {"2♣", "3♣", "J♥", "J♠"}
    assert names(s, DRAW) == {"9♣"}


@pytest.mark.parametrize(("preset", "drawn"), [("default", 3), ("pagat", 2)])
def test_replace_played_draws_one_per_box_play(preset: str, drawn: int) -> None:
    """BX-5.2b: two box plays: replace_played draws 2 (box 3), fill_to_four fills to 4."""
    game = Box(PRESETS[preset])
    s = build(
        current=2,
        table=[(1, "A♦", False)],
        hands={1: "K♠", 2: ""},
        boxes={1: "A♣", 2: "K♣ K♦ K♥"},
        out={0: 1, 3: 1},
        draw=20,
    )
    s = act(game, s, "turn up")  # a king fits the ace
    s = act(game, s, "play K♠")  # same rank: reversed, but with two players P2 is next
    s = act(game, s, "turn up")  # another king fits
    assert size(s, BOX + 2) == 1
    s = act(game, s, "turn up")  # P1's ace is too high: P2 wins
    assert s.last_round is not None and s.last_round.box_draws[2] == drawn
    assert size(s, BOX + 2) == 1 + drawn <= 4


def test_eliminated_hand_is_discarded_unseen(game: Box) -> None:
    """BX-5.3, BX-8.3: an eliminated player's hand goes to the discard; nobody sees it."""
    s = build(
        current=2,
        table=[(0, "9♦", False), (1, "6♦", False)],
        hands={0: "2♣", 1: "3♣", 2: "K♠ Q♠ J♠", 3: "4♣"},
        boxes={0: "5♣", 1: "5♦", 2: "A♠", 3: "5♥"},
    )
    after = act(game, s, "turn up")
    hand = s.table.masks[HAND + 2]
    assert after.table.masks[DISCARD] & hand == hand
    for p in range(4):
        assert after.table.known[p] & hand == 0
    assert after.table.size(EXTRA + 2) == 0  # extras stay (none here)


def test_game_ends_with_one_player(game: Box) -> None:
    """BX-5.4, BX-6.1: the last player with a box wins, whatever the extra piles."""
    s = build(
        current=2,
        table=[(0, "9♦", False)],
        hands={0: "2♣", 2: "K♠"},
        boxes={0: "5♣", 2: "A♠"},
        extras={2: "3♣ 3♦ 3♥ 3♠"},
        out={1: 1, 3: 2},
    )
    s = act(game, s, "turn up")
    assert s.current is None and game.legal_actions(s) == ()
    out = game.outcome(s)
    assert out is not None and out.winners == (0,)
    assert "last player" in out.reason


def test_extras_only_break_the_final_tie(game: Box) -> None:
    """BX-6.3: extra cards do not change play or a single survivor's win."""
    s = build(
        current=0,
        hands={0: "9♠ 2♣"},
        boxes={0: "3♦", 2: "3♥"},
        extras={2: "A♣ A♦ A♥ A♠"},
        out={1: 1, 3: 1},
    )
    t = build(current=0, hands={0: "9♠ 2♣"}, boxes={0: "3♦", 2: "3♥"}, out={1: 1, 3: 1})
    assert legal(game, s) == legal(game, t)


def test_outcome_is_none_while_playing(game: Box) -> None:
    """BX-5.4: a game in progress has no outcome."""
    assert game.outcome(game.initial_state(4, 0)) is None


def test_turn_up_is_a_play_action() -> None:
    """The two actions print as table talk and compare by value."""
    assert str(TurnUp()) == "turn up"
    assert str(Play(parse_cards("10♥")[0])) == "play 10♥"
    assert Play(parse_cards("10h")[0]) == Play(parse_cards("T♥")[0])


# ---- sections 1 and 2: players, ranks and zones -------------------------------------------


def test_ranks_low_to_high_and_suits_do_not_count(game: Box) -> None:
    """BX-2.1: 2 is lowest, A highest; any suit follows, an equal rank of any suit too."""
    s = build(current=1, table=[(0, "7♠", False)], hands={1: "8♥ 7♥ 2♦ A♣"}, boxes={1: "3♣"})
    assert set(legal(game, s)) == {"play 7♥", "play 2♦"}
    s = build(current=0, hands={0: "A♣ K♠ 2♦"}, boxes={0: "3♣"})
    assert legal(game, s) == ["play A♣"]


def test_zones_and_who_sees_them() -> None:
    """BX-1.2, BX-1.4, BX-2.2: draw pile and boxes hidden from all, hands seen by their
    owner, extra piles and the table public; seat s's left is seat s + 1."""
    from cardcore import Visibility

    lay = layout()
    vis = {z.name: z.visibility for z in lay.zones}
    assert vis["draw"] is Visibility.HIDDEN and lay.zones[DRAW].ordered
    for p in range(4):
        assert vis[f"hand{p}"] is Visibility.OWNER and lay.zones[HAND + p].owner == p
        assert vis[f"box{p}"] is Visibility.HIDDEN
        assert vis[f"extra{p}"] is Visibility.PUBLIC
    assert vis["table"] is Visibility.PUBLIC and lay.zones[TABLE].ordered
    assert vis["discard"] is Visibility.HIDDEN  # played cards enter it seen by all
    game = Box()
    s = game.initial_state(4, 0, dealer=2)
    assert s.current == 3  # the dealer's left leads (BX-1.4, BX-4.1)
    with pytest.raises(ValueError, match="4 players"):
        layout(5)


def test_shuffle_is_a_fair_permutation() -> None:
    """BX-3.2: the shuffle deals every card everywhere about equally often."""
    from cardcore_box.deal import shuffle52 as _shuffle52

    counts = [[0] * 52 for _ in range(52)]
    for seed in range(2600):
        order, _ = _shuffle52(rng_seed(seed))
        assert sorted(order) == list(range(52))
        for pos, c in enumerate(order):
            counts[c][pos] += 1
    # 2600 deals: each (card, position) pair is expected 50 times.
    assert all(15 < n < 95 for row in counts for n in row)
    firsts = [counts[c][0] for c in range(52)]
    assert sum(abs(n - 50) for n in firsts) / 52 < 10


def test_shuffle_is_the_plain_fisher_yates() -> None:
    """BX-3.2: the deal's shuffle (26 draws computed together) equals the plain loop:
    Fisher-Yates from the last position, two 32-bit indices per ``rng_next`` draw."""
    from cardcore_box.deal import shuffle52 as _shuffle52

    def plain(rng: int) -> tuple[list[int], int]:
        order = list(range(52))
        i = 51
        while i > 0:
            z, rng = rng_next(rng)
            for half in (z & 0xFFFFFFFF, z >> 32):
                j = (half * (i + 1)) >> 32
                order[i], order[j] = order[j], order[i]
                i -= 1
        return order, rng

    seeds = [rng_seed(s) for s in range(3000)]
    seeds += [0, 1, (1 << 64) - 1, (1 << 63), (1 << 64) - 0x9E3779B97F4A7C15]
    for rng in seeds:
        assert _shuffle52(rng) == plain(rng)
