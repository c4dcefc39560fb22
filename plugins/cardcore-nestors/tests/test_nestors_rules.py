"""Nestors trick play, scoring and the end of the game: the worked examples of section 10.

Positions are built directly (every card placed, public facts set) with ``position``;
the cards not named by a test are dealt at random, respecting any suits a hand must not
hold, so the tests check the rules rather than one particular deal.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping, Sequence

import pytest

from cardcore import Card, CardTable, IllegalActionError, mask_of, parse_card, parse_cards
from cardcore_nestors import (
    DealInfo,
    Leave,
    MatchInfo,
    Nestors,
    NestorsOptions,
    NestorsState,
    Phase,
    Play,
    PlayInfo,
    card_points,
    check_invariants,
    trick_winner,
    two_card_winner,
)
from cardcore_nestors.cards import DECK_IDS, points_of
from cardcore_nestors.rules import hand_sizes
from cardcore_nestors.state import EMPTY_ORDERS, HAND, LAYOUT, ROW, TRICK, WON

RANK = {"A": 14, "J": 11, "10": 10}
SUIT_OF = {"♣": 0, "♦": 1, "♥": 2, "♠": 3}


def suit_mask(suits: str) -> int:
    return sum(1 << c for c in DECK_IDS if "♣♦♥♠"[c // 13] in suits)


def position(
    game: Nestors,
    *,
    trump: int,
    bidder: int = 0,
    trick: int = 2,
    played: str = "",
    hands: Mapping[int, str] | None = None,
    avoid: Mapping[int, int] | None = None,
    carry: str = "",
    contract: int = 100,
    scores: tuple[int, int] = (0, 0),
    last_made: int | None = None,
    piles: Mapping[int, Sequence[int]] | None = None,
    seed: int = 0,
) -> NestorsState:
    """A state during trick play: trick ``trick`` with ``played`` already on the table.

    Hands get the cards named in ``hands`` and are filled at random (never with a card
    of ``avoid[seat]``) up to the sizes of the schedule; the other cards are won tricks
    (``piles``: team to card ids, else all to the declarers).
    """
    rng = random.Random(seed)
    played_ids = [c.id for c in parse_cards(played)]
    sizes = hand_sizes(trick, len(played_ids), bidder)
    hand_ids: dict[int, list[int]] = {s: [] for s in range(4)}
    used = set(played_ids)
    for s, text in (hands or {}).items():
        ids = [c.id for c in parse_cards(text)]
        hand_ids[s] = ids
        used |= set(ids)
    carry_id = parse_card(carry).id if carry else None
    if carry_id is not None:
        used.add(carry_id)
    pile_ids: dict[int, list[int]] = {0: [], 1: []}
    for team, team_ids in (piles or {}).items():
        pile_ids[team] = list(team_ids)
        used |= set(team_ids)
    rest = [c for c in DECK_IDS if c not in used]
    rng.shuffle(rest)
    for s in sorted(range(4), key=lambda s: -(avoid or {}).get(s, 0).bit_count()):
        bad = (avoid or {}).get(s, 0)
        while len(hand_ids[s]) < sizes[s]:
            c = next(c for c in rest if not (bad >> c) & 1)
            rest.remove(c)
            hand_ids[s].append(c)
    if carry_id is None:
        carry_id = rest.pop()
    if piles is None:
        pile_ids[bidder % 2] += rest
    else:
        assert not rest, "piles must name every remaining card"
    masks = [0] * len(LAYOUT.zones)
    for s in range(4):
        assert len(hand_ids[s]) == sizes[s], f"seat {s} needs {sizes[s]} cards"
        masks[HAND + s] = sum(1 << c for c in hand_ids[s])
    masks[ROW] = 1 << carry_id
    masks[TRICK] = sum(1 << c for c in played_ids)
    for team in (0, 1):
        masks[WON + team] = sum(1 << c for c in pile_ids[team])
    orders = list(EMPTY_ORDERS)
    orders[TRICK] = tuple(played_ids)
    public = masks[ROW] | masks[TRICK] | masks[WON] | masks[WON + 1]
    known = tuple(masks[HAND + s] | public for s in range(4))
    table = CardTable(LAYOUT, tuple(masks), tuple(orders), known)
    tricks = (len(pile_ids[0]) // 3, len(pile_ids[1]) // 3)
    points = tuple(sum(points_of(trump)[c] for c in pile_ids[t]) + 5 * tricks[t] for t in (0, 1))
    leader = (bidder + trick - 1) % 4 if trick < 12 else bidder
    dealer = (bidder + 3) % 4
    deal = DealInfo(
        number=1,
        dealer=dealer,
        calls=((bidder, contract), *(((bidder + k) % 4, 0) for k in (1, 2, 3))),
        passed=15 ^ (1 << bidder),
        high=contract,
        bidder=bidder,
        trump=trump,
    )
    match = MatchInfo(
        scores=scores, last_made=last_made, first_draw=(), recent=(), winners=(), reason=""
    )
    play = PlayInfo(trick, leader, tricks, (points[0], points[1]), (0, 0, 0, 0), ())
    state = NestorsState(
        table, 12345, Phase.PLAY, (leader + len(played_ids)) % 4, match, deal, play
    )
    check_invariants(game, state)
    return state


def play(game: Nestors, state: NestorsState, *texts: str) -> NestorsState:
    for text in texts:
        state = game.apply(state, game.parse_action(text))
        check_invariants(game, state)
    return state


GAME = Nestors()

# ---- NS-4.14: the winner of a three-card trick --------------------------------------

TRICK_EXAMPLES = [
    # id, R, A, B, C, winner (0 = A, 1 = B, 2 = C)
    ("NS-T1", "J", "10♠", "J♦", "J♣", 2),
    ("NS-T2", "J", "10♠", "J♦", "J♥", 2),
    ("NS-T3", "J", "10♠", "J♦", "J♠", 1),
    ("NS-T4", "J", "10♠", "J♠", "J♦", 2),
    ("NS-T4", "J", "10♠", "J♠", "J♣", 2),
    ("NS-T4", "J", "10♠", "J♠", "J♥", 2),
    ("NS-T5", "J", "10♠", "J♠", "Q♠", 1),
    ("NS-T6", "10", "K♠", "9♠", "A♠", 2),
    ("NS-T7", "10", "K♠", "9♦", "Q♠", 0),
    ("NS-T8", "10", "7♠", "9♠", "10♦", 2),
    ("NS-T9", "10", "7♠", "10♦", "Q♠", 1),
    ("NS-T10", "A", "K♥", "K♦", "K♣", 2),
    ("NS-T11", "J", "J♠", "K♠", "9♠", 0),
    ("NS-T12", "J", "7♠", "9♠", "Q♥", 1),
]


@pytest.mark.parametrize(("rule", "r", "a", "b", "c", "want"), TRICK_EXAMPLES)
def test_trick_examples_winner(rule: str, r: str, a: str, b: str, c: str, want: int) -> None:
    """NS-T1 to NS-T12 (NS-4.14): the winner rules W1, W2, W3a, W3b and W3c."""
    ids = [parse_card(x).id for x in (a, b, c)]
    assert trick_winner(ids[0], ids[1], ids[2], RANK[r]) == want, rule


@pytest.mark.parametrize("preset", ["default", "pagat"])
@pytest.mark.parametrize(("rule", "r", "a", "b", "c", "want"), TRICK_EXAMPLES)
def test_trick_examples_played_out(
    preset: str, rule: str, r: str, a: str, b: str, c: str, want: int
) -> None:
    """NS-T1 to NS-T12 played through ``apply`` (NS-4.13 to NS-4.15): the winner collects.

    Trick 9 with the bidder on seat 0: A = seat 0, B = seat 1, C = seat 2 (3 cards).
    """
    game = Nestors(NestorsOptions(next_dealer="bidder") if preset == "pagat" else None)
    trump = RANK[r]
    ca, cb, cc = (parse_card(x).id for x in (a, b, c))
    sa, sb = ca // 13, cb // 13
    req = (
        suit_mask("♣♦♥♠"[sa])
        if sa == sb
        else suit_mask("".join("♣♦♥♠"[s] for s in range(4) if s not in (sa, sb)))
    )
    # C's other cards never make its card illegal.
    legal_anyway = ((req >> cc) & 1) or cc % 13 + 2 == trump
    avoid = {2: 0 if legal_anyway else req}
    for seed in range(5):
        state = position(
            game, trump=trump, trick=9, hands={0: a, 1: b, 2: c}, avoid=avoid, seed=seed
        )
        assert (state.play.leader, state.current) == (0, 0)
        state = play(game, state, f"play {a}", f"play {b}", f"play {c}")
        assert state.phase is Phase.LEAVE
        assert state.current == want, rule
        carry = state.table.cards(ROW)[0]
        before = state.play.points
        state = play(game, state, f"leave {carry}")
        team = want % 2
        gain = sum(card_points(parse_card(x), trump) for x in (a, b, c)) + 5
        assert state.play.points[team] == before[team] + gain
        assert state.play.tricks[team] == (8 if team == 0 else 0) + 1
        assert state.play.last_trick is not None
        assert state.play.last_trick.winner == want


@pytest.mark.parametrize(
    ("a", "b", "r", "want"),
    [
        ("Q♥", "9♥", "10", 0),  # same suit, higher rank
        ("9♥", "Q♥", "10", 1),
        ("Q♥", "9♦", "10", 0),  # different suits, no trump: A
        ("Q♥", "10♦", "10", 1),  # only B trumps
        ("10♥", "A♦", "10", 0),  # only A trumps
        ("10♥", "10♦", "10", 1),  # both trumps: the last played
    ],
)
def test_two_card_rule(a: str, b: str, r: str, want: int) -> None:
    """NS-4.14 W3c and NS-4.16: the two-card rule."""
    assert two_card_winner(parse_card(a).id, parse_card(b).id, RANK[r]) == want


def test_trumps_keep_their_suit() -> None:
    """NS-2.3: a trump keeps its printed suit for every suit test (NS-T3: J♠ is a spade)."""
    # A 10♠, B J♦, C J♠: the jack of spades does not match (spades is A's suit).
    ids = [parse_card(x).id for x in ("10♠", "J♦", "J♠")]
    assert trick_winner(ids[0], ids[1], ids[2], 11) == 1


def test_non_trump_order_leaves_out_the_trump_rank() -> None:
    """NS-2.4: non-trumps rank A K Q J 10 9 8 7 6; the trump rank beats them all (NS-2.3)."""
    order = ["A♥", "K♥", "Q♥", "J♥", "10♥", "9♥", "8♥", "7♥", "6♥"]
    for hi, lo in itertools.pairwise(order):
        r = next(x for x in (14, 11, 10) if x not in (parse_card(hi).rank, parse_card(lo).rank))
        assert two_card_winner(parse_card(hi).id, parse_card(lo).id, r) == 0
        assert two_card_winner(parse_card(lo).id, parse_card(hi).id, r) == 1
    # With R = J, J♥ beats A♥ whoever plays it first.
    assert two_card_winner(parse_card("A♥").id, parse_card("J♥").id, 11) == 1
    assert two_card_winner(parse_card("J♥").id, parse_card("A♥").id, 11) == 0


# ---- NS-4.13: C's legal plays ------------------------------------------------------


def test_ns_t13_c_follows_the_common_suit_or_trumps() -> None:
    """NS-T13 (NS-4.13): A 9♥, B K♥; C holds 6♥ A♣ J♦ (R = J): 6♥ or J♦, not A♣."""
    state = position(GAME, trump=11, trick=9, played="9♥ K♥", hands={2: "6♥ A♣ J♦"})
    assert state.current == 2
    assert {str(a) for a in GAME.legal_actions(state)} == {"play 6♥", "play J♦"}
    with pytest.raises(IllegalActionError) as err:
        GAME.apply(state, GAME.parse_action("play A♣"))
    assert err.value.reason == (
        "both cards are hearts: you must follow hearts or play a trump (J): you hold 6♥"
    )
    # Without a heart, any card is legal.
    free = position(GAME, trump=11, trick=9, played="9♥ K♥", hands={2: "6♠ A♣ J♦"})
    assert {str(a) for a in GAME.legal_actions(free)} == {"play A♣", "play J♦", "play 6♠"}


def test_ns_t14_c_plays_the_third_suit() -> None:
    """NS-T14 (NS-4.13): A 9♥, B K♣; C holds 7♥ 8♣ Q♠: only Q♠ (the third suit)."""
    state = position(GAME, trump=11, trick=9, played="9♥ K♣", hands={2: "7♥ 8♣ Q♠"})
    assert [str(a) for a in GAME.legal_actions(state)] == ["play Q♠"]
    with pytest.raises(IllegalActionError) as err:
        GAME.apply(state, GAME.parse_action("play 7♥"))
    assert "you must play the third suit (diamonds or spades)" in err.value.reason
    assert err.value.reason.endswith("you hold Q♠")
    # Holding only hearts and clubs, any card is legal.
    free = position(GAME, trump=11, trick=9, played="9♥ K♣", hands={2: "7♥ 8♣ Q♣"})
    assert len(GAME.legal_actions(free)) == 3


def test_c_may_always_trump() -> None:
    """NS-4.13: a trump is always legal for C, even when C could follow."""
    state = position(GAME, trump=10, trick=9, played="9♥ K♥", hands={2: "6♥ 10♣ 7♣"})
    assert {str(a) for a in GAME.legal_actions(state)} == {"play 6♥", "play 10♣"}


def test_a_and_b_play_any_card() -> None:
    """NS-4.13: A and B may play any card they hold."""
    state = position(GAME, trump=11, trick=9, hands={0: "6♥ A♣ J♦", 1: "7♥ 8♣ Q♠"})
    assert len(GAME.legal_actions(state)) == 3
    state = play(GAME, state, "play 6♥")
    assert len(GAME.legal_actions(state)) == 3


def test_c_that_cannot_follow_shows_a_void() -> None:
    """NS-8.4: C's off-suit non-trump shows that C holds no card of the required suits."""
    state = position(GAME, trump=11, trick=9, played="9♥ K♥", hands={2: "6♠ A♣ Q♦"})
    after = play(GAME, state, "play A♣")
    assert after.play.voids[2] == 1 << SUIT_OF["♥"]
    third = position(GAME, trump=11, trick=9, played="9♥ K♣", hands={2: "7♥ 8♣ Q♥"})
    after = play(GAME, third, "play 8♣")
    assert after.play.voids[2] == (1 << SUIT_OF["♦"]) | (1 << SUIT_OF["♠"])
    # A trump shows nothing.
    trumped = position(GAME, trump=11, trick=9, played="9♥ K♥", hands={2: "6♥ J♣ Q♦"})
    assert play(GAME, trumped, "play J♣").play.voids == (0, 0, 0, 0)


# ---- NS-4.11, NS-4.15, NS-4.16 and NS-T18 to NS-T21 ----------------------------------


def test_ns_t20_trick_2_with_a_carry_card() -> None:
    """NS-T20 (NS-4.12, NS-4.15): seat 1 leads K♥, 7♥, 6♣; seat 1 wins and leaves a card."""
    for seed in range(4):
        state = position(
            GAME,
            trump=11,
            trick=2,
            carry="7♣",
            hands={1: "K♥", 2: "7♥", 3: "6♣"},
            avoid={3: suit_mask("♥")},
            seed=seed,
        )
        assert state.current == 1  # NS-4.12: trick 2 is led by the bidder's right
        state = play(GAME, state, "play K♥", "play 7♥", "play 6♣")
        assert (state.phase, state.current) == (Phase.LEAVE, 1)
        assert {str(a) for a in GAME.legal_actions(state)} == {
            "leave K♥",
            "leave 7♥",
            "leave 6♣",
            "leave 7♣",
        }
        before = state.play.points
        state = play(GAME, state, "leave 6♣")
        assert state.play.points == (before[0], before[1] + 5)  # defenders +5
        assert state.table.cards(ROW) == (parse_card("6♣"),)
        assert mask_of(parse_cards("K♥ 7♥ 7♣")) & state.table.masks[WON + 1]
        assert state.current == 2  # NS-4.12: trick 3 is led by seat 2 whoever won


def test_leave_refuses_a_card_not_on_the_table() -> None:
    """NS-4.15: the card left must be one of the four on the table."""
    state = position(
        GAME,
        trump=11,
        trick=2,
        carry="7♣",
        hands={1: "K♥", 2: "7♥", 3: "6♣"},
        avoid={3: suit_mask("♥")},
    )
    state = play(GAME, state, "play K♥", "play 7♥", "play 6♣")
    with pytest.raises(IllegalActionError, match="is not on the table; leave one of"):
        GAME.apply(state, Leave(parse_card("A♠")))


@pytest.mark.parametrize(("right", "winner"), [("9♥", 0), ("10♦", 1)])
def test_ns_t21_trick_12(right: str, winner: int) -> None:
    """NS-T21 (NS-4.16, NS-5.1): bidder Q♥, seat 1 9♥ (or the trump 10♦); the hand ends."""
    game = Nestors(NestorsOptions(threshold=1))  # the game ends: the last table stays
    state = position(game, trump=10, trick=12, carry="6♠", hands={0: "Q♥", 1: right})
    assert state.current == 0
    before = state.play.points
    piles = state.table.masks[WON + winner % 2]
    state = play(game, state, "play Q♥", f"play {right}")
    assert state.phase is Phase.OVER
    t = state.table
    assert t.size(ROW) == 0  # NS-9.3: the table is empty after trick 12
    taken = mask_of(parse_cards(f"Q♥ {right} 6♠"))
    assert t.masks[WON + winner % 2] == piles | taken
    assert state.play.tricks[winner % 2] == (11 if winner == 0 else 0) + 1
    gain = card_points(parse_card(right), 10) + 5
    bonus = [10 if (t.masks[WON + k] & suit_mask("♠")).bit_count() >= 5 else 0 for k in (0, 1)]
    want = [before[k] + (gain if k == winner % 2 else 0) + bonus[k] for k in (0, 1)]
    assert state.match.last_hand is not None
    assert list(state.match.last_hand.points) == want


def test_ns_t18_schedule_and_every_card_in_tricks() -> None:
    """NS-T18 (NS-9.4, NS-9.6): hand sizes after each trick, relative to the bidder."""
    table = {
        1: (8, 8, 8, 8),
        2: (8, 7, 7, 7),
        3: (7, 7, 6, 6),
        4: (6, 6, 6, 5),
        5: (5, 5, 5, 5),
        6: (5, 4, 4, 4),
        7: (4, 4, 3, 3),
        8: (3, 3, 3, 2),
        9: (2, 2, 2, 2),
        10: (2, 1, 1, 1),
        11: (1, 1, 0, 0),
    }
    rng = random.Random(7)
    for seed in range(6):
        state = GAME.initial_state(4, seed)
        while state.phase is not Phase.LEAD:
            legal = GAME.legal_actions(state)
            state = GAME.apply(state, legal[rng.randrange(len(legal))])
        bidder = state.deal.bidder
        assert bidder is not None
        rel = [state.table.size(HAND + (bidder + k) % 4) for k in range(4)]
        assert rel == [9, 8, 8, 8]
        assert state.table.size(ROW) == 3
        deal = state.deal.number
        done = 0
        while state.deal.number == deal and state.current is not None:
            legal = GAME.legal_actions(state)
            state = GAME.apply(state, legal[rng.randrange(len(legal))])
            finished = sum(state.play.tricks)
            if state.deal.number == deal and finished > done and finished < 12:
                done = finished
                rel = [state.table.size(HAND + (bidder + k) % 4) for k in range(4)]
                assert tuple(rel) == table[done], done
                assert state.table.size(ROW) == 1  # NS-9.3: one carry card
        assert done == 11


def test_ns_t19_trick_1() -> None:
    """NS-T19 (NS-4.11): the bidder plays J♣, takes A♠ and 10♥; 7♣ is the carry card."""
    deck = stacked(
        dealer=3,
        hole="6♦",
        row="A♠ 10♥ 7♣",
        first={0: "J♦ J♣ 7♠ 8♠ 9♠", 1: "6♣ 8♣ 9♣ 10♣ Q♣"},
        second={},
    )
    state = GAME.initial_state(4, 0, dealer=3, deck=deck)
    state = play(GAME, state, "bid 100", "pass", "pass", "pass", "trump J")
    assert state.phase is Phase.LEAD
    assert {str(a) for a in GAME.legal_actions(state)} >= {"play J♦", "play J♣"}
    with pytest.raises(IllegalActionError, match=r"trick 1 starts with a trump \(J\)"):
        GAME.apply(state, GAME.parse_action("play 7♠"))
    state = play(GAME, state, "play J♣")
    assert len(GAME.legal_actions(state)) == 3
    with pytest.raises(IllegalActionError, match="is not in the face-up row"):
        GAME.apply(state, GAME.parse_action("take A♠ 6♦"))
    state = play(GAME, state, "take A♠ 10♥")
    assert state.play.points == (15 + 10 + 5 + 5, 0)
    assert state.play.tricks == (1, 0)
    assert state.table.cards(ROW) == (parse_card("7♣"),)
    assert state.current == 1  # NS-4.12


def stacked(
    *, dealer: int, hole: str, row: str, first: Mapping[int, str], second: Mapping[int, str]
) -> list[Card]:
    """A deck, top first, giving the named cards (the rest in id order)."""
    named = {
        c.id for text in (hole, row, *first.values(), *second.values()) for c in parse_cards(text)
    }
    rest = iter([c for c in DECK_IDS if c not in named])
    order = [parse_card(hole).id, *(c.id for c in parse_cards(row))]
    for k in range(4):
        seat = (dealer + 1 + k) % 4
        ids = [c.id for c in parse_cards(first.get(seat, ""))]
        order += ids + [next(rest) for _ in range(5 - len(ids))]
    for k in range(4):
        seat = (dealer + 1 + k) % 4
        ids = [c.id for c in parse_cards(second.get(seat, ""))]
        order += ids + [next(rest) for _ in range(3 - len(ids))]
    return [Card.of(c) for c in order]


# ---- scoring (NS-2.5 to NS-2.7, NS-6.1 to NS-6.4) -----------------------------------


def test_ns_t17_card_points() -> None:
    """NS-T17 (NS-2.5, NS-9.5): card values per trump rank; 120 card points for every R."""
    assert [card_points(parse_card(x), 14) for x in ("A♠", "J♠", "10♠", "K♠")] == [15, 10, 5, 0]
    assert [card_points(parse_card(x), 10) for x in ("A♠", "J♠", "10♠")] == [10, 5, 15]
    assert [card_points(parse_card(x), 11) for x in ("A♠", "J♠", "10♠", "9♠")] == [10, 15, 5, 0]
    for r in (14, 11, 10):
        assert sum(card_points(c, r) for c in DECK_IDS) == 120


def ending(
    game: Nestors,
    *,
    declarer_points: int,
    contract: int,
    scores: tuple[int, int] = (0, 0),
    last_made: int | None = None,
    bidder: int = 0,
) -> NestorsState:
    """Trick 12 about to be played, arranged so that the declarers end with D points.

    The bidder plays Q♥ and its right 9♥ with 6♦ as carry card (R = J): the bidder takes
    the last trick (5 points, no card points, no spade).
    """
    last = {c.id for c in parse_cards("Q♥ 9♥ 6♦")}
    others = [c for c in DECK_IDS if c not in last]
    spades = suit_mask("♠")
    rng = random.Random(declarer_points * 7 + contract)
    for _ in range(200_000):
        rng.shuffle(others)
        k = rng.randrange(1, 12)
        mine = others[: 3 * k]
        got = sum(points_of(11)[c] for c in mine) + 5 * (k + 1)
        if sum(1 for c in mine if (spades >> c) & 1) >= 5:
            got += 10
        if got == declarer_points:
            decl = bidder % 2
            piles = {decl: mine, 1 - decl: others[3 * k :]}
            return position(
                game,
                trump=11,
                bidder=bidder,
                trick=12,
                carry="6♦",
                hands={bidder: "Q♥", (bidder + 1) % 4: "9♥"},
                contract=contract,
                scores=scores,
                last_made=last_made,
                piles=piles,
            )
    raise AssertionError(f"no deal gives D = {declarer_points}")


def finish(game: Nestors, state: NestorsState) -> NestorsState:
    return play(game, state, "play Q♥", "play 9♥")


@pytest.mark.parametrize(("penalty", "declarers"), [("taken", -115), ("bid", -120)])
def test_ns_t15_failed_contract(penalty: str, declarers: int) -> None:
    """NS-T15 (NS-6.3, NS-9.8): contract 120, D = 115: defenders +75, declarers -D or -bid."""
    game = Nestors(NestorsOptions(fail_penalty=penalty))
    state = finish(game, ending(game, declarer_points=115, contract=120))
    r = state.match.last_hand
    assert r is not None
    assert (r.made, r.points, r.change) == (False, (115, 75), (declarers, 75))
    assert state.match.scores == (declarers, 75)
    assert state.match.last_made is None


def test_ns_t16_made_contract() -> None:
    """NS-T16 (NS-6.2): contract 100, D = 120: declarers +120, defenders +70."""
    state = finish(GAME, ending(GAME, declarer_points=120, contract=100, bidder=1))
    r = state.match.last_hand
    assert r is not None
    assert (r.made, r.points, r.change) == (True, (70, 120), (70, 120))
    assert state.match.last_made == 1
    assert state.match.scores == (70, 120)


def test_made_exactly() -> None:
    """NS-6.2: taking exactly the contract makes it ("as many")."""
    state = finish(GAME, ending(GAME, declarer_points=105, contract=105))
    assert state.match.last_hand is not None
    assert state.match.last_hand.made


def test_spade_bonus_and_trick_points() -> None:
    """NS-2.6, NS-2.7, NS-6.1: 5 per trick, 10 for 5+ spades; a hand totals 190."""
    game = Nestors(NestorsOptions(threshold=1))  # the game ends: the last table stays
    state = finish(game, ending(game, declarer_points=150, contract=100))
    t = state.table
    r = state.match.last_hand
    assert r is not None
    for team in (0, 1):
        pile = t.masks[WON + team]
        bonus = 10 if (pile & suit_mask("♠")).bit_count() >= 5 else 0
        cards = sum(points_of(11)[c] for c in DECK_IDS if (pile >> c) & 1)
        assert r.points[team] == cards + 5 * state.play.tricks[team] + bonus
    assert sum(r.points) == 190


def test_scores_accumulate_and_may_be_negative() -> None:
    """NS-6.4: the game score is the sum of hand scores and may be negative."""
    state = finish(GAME, ending(GAME, declarer_points=60, contract=150, scores=(-40, 300)))
    assert state.match.scores == (-100, 430)
    assert state.phase is Phase.AUCTION  # NS-5.3: nobody qualifies, next hand
    assert state.deal.number == 2


# ---- the end of the game (NS-5, NS-6.5, NS-6.6) -------------------------------------


def test_ns_t28_one_partnership_reaches_plus_t() -> None:
    """NS-T28 (NS-5.2, NS-6.5): X 1010, Y 640: X wins."""
    state = finish(GAME, ending(GAME, declarer_points=110, contract=100, scores=(900, 560)))
    assert state.match.scores == (1010, 640)
    assert state.phase is Phase.OVER
    out = GAME.outcome(state)
    assert out is not None
    assert out.winners == (0, 2)
    assert out.teams == ((0, 2), (1, 3))


def test_ns_t29_both_qualify_latest_made_contract_wins() -> None:
    """NS-T29 (NS-6.5, NS-6.6): X 900 makes D = 105, Y 935 -> 1005 vs 1020: X wins."""
    state = finish(GAME, ending(GAME, declarer_points=105, contract=100, scores=(900, 935)))
    assert state.match.scores == (1005, 1020)
    out = GAME.outcome(state)
    assert out is not None
    assert out.winners == (0, 2)
    assert "made the latest contract" in out.reason


@pytest.mark.parametrize(("rule", "winner"), [("loses", (1, 3)), ("wins", (0, 2))])
def test_ns_t30_minus_threshold(rule: str, winner: tuple[int, ...]) -> None:
    """NS-T30 (NS-5.2): X -900 fails 120 with D = 100: -1000 vs 300."""
    game = Nestors(NestorsOptions(minus_1000=rule))
    state = finish(game, ending(game, declarer_points=100, contract=120, scores=(-900, 210)))
    assert state.match.scores == (-1000, 300)
    out = game.outcome(state)
    assert out is not None
    assert out.winners == winner


def test_ns_t31_latest_made_contract_may_be_earlier() -> None:
    """NS-T31 (NS-6.5): minus_1000=wins; X made the previous contract and wins."""
    game = Nestors(NestorsOptions(minus_1000="wins"))
    state = ending(
        game, declarer_points=120, contract=150, scores=(950, -900), last_made=0, bidder=1
    )
    state = finish(game, state)
    assert state.match.scores == (1020, -1020)
    out = game.outcome(state)
    assert out is not None
    assert out.winners == (0, 2)


def test_ns_t32_small_threshold() -> None:
    """NS-T32 (NS-5.2, option threshold): threshold=200; X reaches 205, Y 150: X wins."""
    game = Nestors(NestorsOptions(threshold=200))
    state = finish(game, ending(game, declarer_points=105, contract=100, scores=(100, 65)))
    assert state.match.scores == (205, 150)
    out = game.outcome(state)
    assert out is not None
    assert out.winners == (0, 2)


def test_both_qualify_without_a_made_contract_higher_score_wins() -> None:
    """NS-6.5: both qualify and no contract was ever made: the higher score wins."""
    game = Nestors(NestorsOptions(minus_1000="wins", threshold=200))
    state = finish(game, ending(game, declarer_points=60, contract=150, scores=(-150, 100)))
    assert state.match.scores == (-210, 230)
    out = game.outcome(state)
    assert out is not None
    assert out.winners == (1, 3)


def test_equal_scores_play_another_hand() -> None:
    """NS-6.5, NS-5.4: both qualify, no contract made, equal scores: another hand is dealt."""
    game = Nestors(NestorsOptions(minus_1000="wins", threshold=200))
    state = finish(game, ending(game, declarer_points=95, contract=150, scores=(-110, -300)))
    assert state.match.scores == (-205, -205)
    assert state.phase is Phase.AUCTION
    assert state.deal.number == 2


def test_deal_limit_safety_rule() -> None:
    """The safety rule: after ``max_deals`` deals the game stops; the higher score wins."""
    state = ending(GAME, declarer_points=60, contract=150, scores=(10, 20))
    deal = attrs_evolve_deal(state, GAME.max_deals)
    out_state = finish(GAME, deal)
    out = GAME.outcome(out_state)
    assert out is not None
    assert out.winners == (1, 3)
    assert "safety limit" in out.reason
    assert GAME.max_decisions(4) == GAME.max_deals * (49 + (190 - 100) // 5)


def attrs_evolve_deal(state: NestorsState, number: int) -> NestorsState:
    import attrs

    return attrs.evolve(state, deal=attrs.evolve(state.deal, number=number))


def test_play_refuses_a_card_not_held() -> None:
    """NS-4.13: a player may only play a card from their own hand."""
    state = position(GAME, trump=11, trick=9, hands={0: "6♥ A♣ J♦"})
    with pytest.raises(IllegalActionError) as err:
        GAME.apply(state, Play(parse_card("7♠")))
    assert err.value.reason == "you do not hold 7♠"
    assert err.value.legal == GAME.legal_actions(state)
