"""Nyuri rules: the worked examples of spec section 10 and every rule paragraph of 3-6.

Situations are set up with stacked decks (turn 1) or by building a state directly; each
test cites the rule or example it checks.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

import pytest

from cardcore import (
    Card,
    IllegalActionError,
    OptionError,
    load_game,
    parse_card,
    parse_cards,
    rng_seed,
)
from cardcore_nyuri import (
    HAND_SIZE,
    Decline,
    Lay,
    Nyuri,
    NyuriAction,
    NyuriState,
    Phase,
    Steal,
    Swap,
    TakeBack,
    nyuri_layout,
)
from cardcore_nyuri.steals import offer_actions

# ---- helpers -----------------------------------------------------------------------


def C(text: str) -> Card:
    return parse_card(text)


def cs(text: str) -> list[Card]:
    return list(parse_cards(text))


def game(preset: str = "default", **options: Any) -> Nyuri:
    g = load_game("nyuri", preset=preset, **options)
    assert isinstance(g, Nyuri)
    return g


def ids(cards: Sequence[Card]) -> set[int]:
    return {c.id for c in cards}


def stacked(
    n: int, hands: Mapping[int, str], stock: str = "", dealer: int | None = None
) -> list[Card]:
    """A deck (top first) dealing the given cards (filled up to 7) and stock top cards."""
    dealer = n - 1 if dealer is None else dealer
    want = {s: cs(hands.get(s, "")) for s in range(n)}
    top = cs(stock)
    used = set().union(*(ids(h) for h in want.values())) | ids(top)
    spare = [Card.of(c) for c in range(52) if c not in used]
    for s in range(n):
        while len(want[s]) < HAND_SIZE:
            want[s].append(spare.pop(0))
    deck = [want[(dealer + 1 + i) % n][i // n] for i in range(HAND_SIZE * n)]
    return deck + top + spare


def build(
    g: Nyuri,
    n: int,
    hands: Mapping[int, str],
    *,
    stock: str | None = None,
    piles: Mapping[int, str] | None = None,
    rest_zone: str = "pile0",
    layer: int = 0,
    turn: int = 1,
    dead_turns: int = 0,
    phase: Phase = Phase.LAY,
) -> NyuriState:
    """A state between turns with exactly these hands and piles.

    The stock holds ``stock`` (top first) when given, and then the cards left over go to
    the zone ``rest_zone``; without ``stock`` every other card is the stock.
    """
    layout = nyuri_layout(n)
    where: dict[int, int] = {}
    for s, text in hands.items():
        for c in cs(text):
            where[c.id] = 1 + s
    for s, text in (piles or {}).items():
        for c in cs(text):
            where[c.id] = 1 + n + s
    top = cs(stock) if stock is not None else []
    for c in top:
        assert c.id not in where
    rest = [i for i in range(52) if i not in where and i not in ids(top)]
    if stock is None:
        order = rest
    else:
        order = [c.id for c in top]
        for i in rest:
            where[i] = layout.zone(rest_zone)
    order += list(where)
    table = layout.new_table(order, 0)
    for i, zone in where.items():
        table = table.move(i, 0, zone)
    over = phase is Phase.OVER
    return NyuriState(
        table=table,
        rng=rng_seed(0),
        dealer=(layer - 1) % n,
        phase=phase,
        layer=layer,
        current=None if over else layer,
        turn=turn,
        dead_turns=dead_turns,
        last=None,
        end_reason="set up" if over else "",
    )


def play(g: Nyuri, state: NyuriState, *actions: str) -> NyuriState:
    for text in actions:
        state = g.apply(state, g.parse_action(text))
        state.table.check()
    return state


def hand(state: NyuriState, seat: int) -> set[Card]:
    return set(state.table.cards(1 + seat))


def pile(state: NyuriState, seat: int) -> set[Card]:
    n = state.table.layout.num_seats
    return set(state.table.cards(1 + n + seat))


def hand_sizes(state: NyuriState) -> list[int]:
    n = state.table.layout.num_seats
    return [state.table.size(1 + s) for s in range(n)]


def stock_size(state: NyuriState) -> int:
    return state.table.size(0)


def stock_top_first(state: NyuriState) -> list[Card]:
    return [Card.of(c) for c in reversed(state.table.orders[0])]


def refused(g: Nyuri, state: NyuriState, action: object) -> str:
    """Apply an illegal action; check the refusal leaves the state as it was."""
    snapshot = (state, hash(state))
    with pytest.raises(IllegalActionError) as info:
        g.apply(state, action)  # type: ignore[arg-type]
    assert (state, hash(state)) == snapshot
    assert info.value.legal == g.legal_actions(state)
    return info.value.reason


# ---- NY-T1 .. NY-T18: steal legality (NY-4.4) ---------------------------------------

STEAL_CASES = [
    # id, target, guard, offer, legal under default, part of the reason when illegal
    ("NY-T1", "7♥", None, "9♥", True, ""),
    ("NY-T2", "7♥", None, "9♠", False, "9♠ cannot steal 7♥: a single card must be of the target's suit"),
    ("NY-T3", "7♥", None, "4♠+4♦", True, ""),
    ("NY-T4", "7♥", None, "3♠+4♦", False, "7 is not more than 7"),
    ("NY-T5", "7♥", None, "2♠+2♦+4♣", False, "three cards may only steal a target worth more than 10"),
    ("NY-T6", "10♦", None, "2♠+3♠+7♠", False, "three cards may only steal a target worth more than 10"),
    ("NY-T7", "10♦", None, "5♠+6♠", True, ""),
    ("NY-T8", "Q♣", None, "5♥+4♠+4♦", True, ""),
    ("NY-T9", "Q♣", None, "6♥+6♦", False, "12 is not more than 12"),
    ("NY-T10", "Q♣", None, "A♠", False, "a single card must be of the target's suit"),
    ("NY-T11", "A♠", None, "K♠", False, "13 is not more than 14"),
    ("NY-T12", "A♠", None, "9♥+6♣", True, ""),
    ("NY-T13", "5♦", "9♦", "A♦", False, "A♦ cannot steal 5♦ guarded by 9♦: 14 is not more than 14"),
    ("NY-T14", "5♦", "9♦", "8♠+7♠", True, ""),
    ("NY-T15", "5♦", "9♦", "5♠+5♣+5♥", True, ""),
    ("NY-T16", "2♠", "3♠", "6♠", True, ""),
    ("NY-T17", "2♠", "3♠", "6♥", False, "a single card must be of the target's suit"),
    ("NY-T18", "2♠", "3♠", "2♥+2♦+2♣", False, "three cards may only steal a target worth more than 10"),
]  # fmt: skip


def _offer_state(g: Nyuri, target: str, guard: str | None, offer: str) -> NyuriState:
    layer_cards = target + (" " + guard if guard else "")
    state = build(g, 3, {0: layer_cards, 1: offer.replace("+", " ")})
    lay = f"lay {target}" + (f" guard {guard}" if guard else "")
    return play(g, state, lay)


@pytest.mark.parametrize("preset", ["default", "pagat"])
@pytest.mark.parametrize(("case", "target", "guard", "offer", "legal", "why"), STEAL_CASES)
def test_steal_legality_examples(
    preset: str, case: str, target: str, guard: str | None, offer: str, legal: bool, why: str
) -> None:
    """NY-T1..NY-T18 (NY-4.4): which sets may steal, and the refusal's reason."""
    g = game(preset)
    state = _offer_state(g, target, guard, offer)
    action = g.parse_action(f"steal {offer}")
    assert (action in g.legal_actions(state)) is legal, case
    if legal:
        after = g.apply(state, action)
        assert set(after.table.cards(after.table.layout.zone("offer1"))) == set(cs(offer))
    else:
        assert why in refused(g, state, action), case


def test_guarded_single_any_suit_example() -> None:
    """NY-T17 with guarded_single=any_suit: 6♥ steals 2♠ guarded by 3♠ (NY-4.4a)."""
    g = game(guarded_single="any_suit")
    state = _offer_state(g, "2♠", "3♠", "6♥")
    assert Steal(cs("6♥")) in g.legal_actions(state)
    # Any suit, but still strictly more than T (NY-T13 is unchanged).
    state = _offer_state(g, "5♦", "9♦", "A♦ A♠")
    legal = g.legal_actions(state)
    assert Steal(cs("A♦")) not in legal and Steal(cs("A♠")) not in legal
    state = _offer_state(g, "5♦", "6♦", "Q♠")
    assert Steal(cs("Q♠")) in g.legal_actions(state)


def test_any_suit_does_not_touch_unguarded_targets() -> None:
    """NY-4.4: a single card of another suit never steals an unguarded target."""
    g = game(guarded_single="any_suit")
    state = _offer_state(g, "7♥", None, "9♠")
    assert Steal(cs("9♠")) not in g.legal_actions(state)
    assert "single card must be of the target's suit" in refused(g, state, Steal(cs("9♠")))


def test_four_cards_never_steal() -> None:
    """NY-4.4: sets of four or more cards are never legal."""
    g = game()
    state = _offer_state(g, "K♥", None, "2♠ 3♠ 4♠ 5♠")
    action = g.parse_action("steal 2♠+3♠+4♠+5♠")
    assert action not in g.legal_actions(state)
    assert "a steal uses one, two or three cards, not 4" in refused(g, state, action)


def test_guarded_target_above_13_cannot_be_stolen_by_one_card() -> None:
    """NY-4.4a: against a guarded target a single card needs v > T, so only when T <= 13."""
    g = game()
    state = _offer_state(g, "4♦", "10♦", "A♦ K♦ Q♦")  # T = 14
    assert not any(isinstance(a, Steal) and len(a.cards) == 1 for a in g.legal_actions(state))
    state = _offer_state(g, "4♦", "9♦", "A♦ K♦ 2♦")  # T = 13
    singles = [a for a in g.legal_actions(state) if isinstance(a, Steal) and len(a.cards) == 1]
    assert singles == [Steal(cs("A♦"))]


def test_offer_list_matches_brute_force() -> None:
    """NY-4.4: the generated offers are exactly the sets a brute-force check accepts."""
    import itertools
    import random

    rng = random.Random(5)
    for any_suit in (False, True):
        for _ in range(150):
            picks = rng.sample(range(52), 2 + rng.randrange(16))
            t, rest = picks[0], picks[1:]
            guard = None
            if rng.random() < 0.5 and t % 13 < 12:
                guard = t + 1 + rng.randrange(12 - t % 13)
                if guard in rest:
                    rest.remove(guard)
            tv = t % 13 + 2 + (guard % 13 + 2 if guard is not None else 0)
            want: list[NyuriAction] = [Decline()]
            for k in (1, 2, 3):
                for combo in itertools.combinations(rest, k):
                    total = sum(c % 13 + 2 for c in combo)
                    if total <= tv or (k == 3 and tv <= 10):
                        continue
                    if k == 1 and combo[0] // 13 != t // 13 and (guard is None or not any_suit):
                        continue
                    want.append(Steal(Card.of(c) for c in combo))
            hand_mask = sum(1 << c for c in rest)
            got = offer_actions(hand_mask, t, -1 if guard is None else guard, any_suit=any_suit)
            assert len(got) == len(set(got))
            assert set(got) == set(want)
            assert got[0] == Decline()
            assert got == offer_actions(
                hand_mask, t, -1 if guard is None else guard, any_suit=any_suit
            )


def test_offer_list_order_matches_brute_force() -> None:
    """The offers come in the documented order, for small hands and for large ones.

    ``decline``, singles by card id, then pairs and triples as combinations of the hand
    sorted by value (then suit order), each combination in lexicographic order.
    """
    import itertools
    import random

    rng = random.Random(11)
    for any_suit in (False, True):
        for _ in range(300):
            picks = rng.sample(range(52), 2 + rng.randrange(24))
            t, rest = picks[0], picks[1:]
            guard = None
            if rng.random() < 0.5 and t % 13 < 12:
                guard = t + 1 + rng.randrange(12 - t % 13)
                if guard in rest:
                    rest.remove(guard)
            tv = t % 13 + 2 + (guard % 13 + 2 if guard is not None else 0)
            want: list[NyuriAction] = [Decline()]
            for c in sorted(rest):
                same = c // 13 == t // 13
                if c % 13 + 2 > tv and (same or (guard is not None and any_suit)):
                    want.append(Steal((Card.of(c),)))
            by_value = sorted(rest, key=lambda c: (c % 13, c // 13))
            for k in (2, 3):
                for combo in itertools.combinations(by_value, k):
                    if sum(c % 13 + 2 for c in combo) > tv and (k == 2 or tv > 10):
                        want.append(Steal(Card.of(c) for c in combo))
            hand_mask = sum(1 << c for c in rest)
            got = offer_actions(hand_mask, t, -1 if guard is None else guard, any_suit=any_suit)
            assert got == tuple(want)


# ---- NY-T19: lay legality (NY-4.2) -----------------------------------------------------


def test_lay_examples() -> None:
    """NY-T19 (NY-4.2): a bodyguard is a higher card of the target's suit; never on an ace."""
    g = game()
    state = build(g, 2, {0: "8♣ 6♣ 10♣ 10♥ A♠ K♠"})
    legal = g.legal_actions(state)
    assert Lay(C("8♣"), C("10♣")) in legal
    assert Lay(C("8♣"), C("6♣")) not in legal
    assert Lay(C("8♣"), C("10♥")) not in legal
    assert not any(isinstance(a, Lay) and a.card.rank == 14 and a.guard for a in legal)
    assert "a bodyguard must be higher" in refused(g, state, Lay(C("8♣"), C("6♣")))
    assert "a bodyguard must be of the same suit" in refused(g, state, Lay(C("8♣"), C("10♥")))
    assert "a bodyguard must be higher" in refused(g, state, Lay(C("A♠"), C("K♠")))
    after = play(g, state, "lay 8♣ guard 10♣")
    assert after.phase is Phase.OFFER and after.current == 1


def test_lay_choices_and_target_value() -> None:
    """NY-4.2: every single card, and every same-suit higher pair; T adds the bodyguard."""
    g = game()
    state = build(g, 2, {0: "3♥ 9♥ Q♥ 5♠"})
    assert [str(a) for a in g.legal_actions(state)] == [
        "lay 3♥",
        "lay 3♥ guard 9♥",
        "lay 3♥ guard Q♥",
        "lay 9♥",
        "lay 9♥ guard Q♥",
        "lay Q♥",
        "lay 5♠",
    ]
    assert Lay(C("3♥"), C("Q♥")).value == 15
    assert Lay(C("5♠")).value == 5
    assert "K♦ is not in your hand" in refused(g, state, Lay(C("K♦")))
    assert "K♥ is not in your hand" in refused(g, state, Lay(C("3♥"), C("K♥")))


# ---- NY-T20 .. NY-T25: full turns ------------------------------------------------------


@pytest.mark.parametrize("preset", ["default", "pagat"])
def test_several_thieves(preset: str) -> None:
    """NY-T20 (NY-4.5, NY-4.6): the highest offer wins; losers take back and draw."""
    g = game(preset)
    deck = stacked(4, {0: "7♥", 1: "K♥", 2: "9♣ 6♦"}, stock="2♠ 3♠")
    state = g.initial_state(4, 1, dealer=3, deck=deck)
    assert hand_sizes(state) == [7] * 4 and stock_size(state) == 24
    state = play(g, state, "lay 7♥", "steal K♥", "steal 9♣+6♦", "decline")
    assert state.last is not None and state.last.winner == 2
    assert C("K♥") in hand(state, 1)
    assert state.last.drew == (1, 3)
    assert C("2♠") in hand(state, 1) and C("3♠") in hand(state, 3)
    assert stock_size(state) == 22
    if preset == "default":
        assert pile(state, 2) == set(cs("7♥ 9♣ 6♦"))
        assert hand_sizes(state) == [6, 8, 5, 8]
        assert sum(hand_sizes(state)) + 3 + stock_size(state) == 52
    else:
        assert pile(state, 2) == set()
        assert set(cs("7♥ 9♣ 6♦")) <= hand(state, 2)
        assert hand_sizes(state) == [6, 8, 8, 8]
        assert not state.last.penalty
    assert state.phase is Phase.LAY and state.layer == 1


@pytest.mark.parametrize("preset", ["default", "pagat"])
@pytest.mark.parametrize("choice", ["take back", "swap"])
def test_nobody_steals(preset: str, choice: str) -> None:
    """NY-T21 (NY-4.6, NY-4.7): the others draw, then L takes back or swaps."""
    g = game(preset)
    deck = stacked(4, {0: "4♣"}, stock="2♠ 3♠ 4♠ 5♠")
    state = g.initial_state(4, 1, dealer=3, deck=deck)
    state = play(g, state, "lay 4♣", "decline", "decline", "decline")
    assert state.phase is Phase.RETURN and state.current == 0
    assert stock_size(state) == 21 and hand_sizes(state)[1:] == [8, 8, 8]
    assert g.legal_actions(state) == (TakeBack(), Swap())
    state = play(g, state, choice)
    assert hand_sizes(state)[0] == 7 and stock_size(state) == 21
    if choice == "take back":
        assert C("4♣") in hand(state, 0)
    else:
        assert stock_top_first(state)[-1] == C("4♣")
        assert C("5♠") in hand(state, 0) and C("4♣") not in hand(state, 0)
    assert state.last is not None and state.last.returned == choice


def test_offer_tie_goes_to_the_earlier_offer() -> None:
    """NY-T22 (NY-4.5): equal offers, the earliest clockwise from L's left wins."""
    g = game()
    state = build(g, 3, {0: "8♠ 2♣", 1: "4♥ 5♥ 2♦", 2: "9♠ 3♦"})
    state = play(g, state, "lay 8♠", "steal 5♥+4♥", "steal 9♠")
    assert state.last is not None and state.last.winner == 1
    assert pile(state, 1) == set(cs("8♠ 5♥ 4♥"))
    assert C("9♠") in hand(state, 2) and state.last.drew == (2,)
    assert hand_sizes(state) == [1, 1, 3]


def test_guarded_swap() -> None:
    """NY-T23 (NY-4.7b): target at the very bottom, bodyguard above it, L draws two."""
    g = game()
    state = build(g, 2, {0: "5♦ 9♦ 2♣", 1: "3♣ 4♣"}, stock="J♠ Q♠ K♠ A♠")
    state = play(g, state, "lay 5♦ guard 9♦", "decline")
    assert stock_top_first(state) == cs("Q♠ K♠ A♠")  # x, y, z after P1's draw
    state = play(g, state, "swap")
    assert stock_top_first(state) == cs("A♠ 9♦ 5♦")
    assert hand(state, 0) == set(cs("2♣ Q♠ K♠"))
    # Everyone saw the cards go under: the bottom of the stock is public (NY-8.1).
    for seat in (-1, 0, 1):
        assert g.observe(state, seat).table.slots(0)[:2] == (C("5♦"), C("9♦"))


@pytest.mark.parametrize("preset", ["default", "pagat"])
def test_three_card_penalty(preset: str) -> None:
    """NY-T24 (NY-4.5): a three-card theft; under pagat L takes a random card from W."""
    g = game(preset)
    deck = stacked(3, {0: "Q♣", 1: "5♥ 4♠ 4♦"})
    state = g.initial_state(3, 1, dealer=2, deck=deck)
    before = hand(state, 1)
    state = play(g, state, "lay Q♣", "steal 5♥+4♠+4♦", "decline")
    assert stock_size(state) == 30
    assert state.last is not None
    if preset == "default":
        assert pile(state, 1) == set(cs("Q♣ 5♥ 4♠ 4♦"))
        assert hand_sizes(state) == [6, 4, 8]
        assert not state.last.penalty
    else:
        assert state.last.penalty
        assert hand_sizes(state) == [7, 7, 8]
        taken = hand(state, 0) - (set(deck[0:21:3]) - {C("Q♣")})
        assert len(taken) == 1
        assert taken <= before | {C("Q♣")}


def test_penalty_is_random_and_from_the_state_rng() -> None:
    """NY-4.5: the penalty card is drawn with the state's RNG: same seed, same card."""
    g = game("pagat")
    deck = stacked(3, {0: "Q♣", 1: "5♥ 4♠ 4♦"})
    taken = set()
    for seed in range(12):
        state = g.initial_state(3, seed, dealer=2, deck=deck)
        state = play(g, state, "lay Q♣", "steal 5♥+4♠+4♦", "decline")
        again = play(g, g.initial_state(3, seed, dealer=2, deck=deck), "lay Q♣")
        again = play(g, again, "steal 5♥+4♠+4♦", "decline")
        assert again == state
        (card,) = hand(state, 0) - (set(deck[0:21:3]) - {C("Q♣")})
        taken.add(card)
    assert len(taken) > 1


def test_no_penalty_when_the_thief_hand_is_empty_or_fewer_cards() -> None:
    """NY-4.5: no penalty for a one- or two-card theft, nor from an empty hand."""
    g = game(capture="pile", three_card_penalty=True, end="stock_exhausted")
    state = build(g, 3, {0: "Q♣ 2♣", 1: "5♥ 4♠ 4♦", 2: "3♣"})
    state = play(g, state, "lay Q♣", "steal 5♥+4♠+4♦", "decline")
    assert state.last is not None and not state.last.penalty
    assert hand_sizes(state)[0] == 1  # P1's hand was empty after the capture
    state = build(g, 3, {0: "Q♣ 2♣", 1: "5♥ 9♠ 4♦", 2: "3♣"})
    state = play(g, state, "lay Q♣", "steal 9♠+5♥", "decline")
    assert state.last is not None and not state.last.penalty
    state = build(g, 3, {0: "Q♣ 2♣", 1: "5♥ 4♠ 4♦ 2♥", 2: "3♣"})
    state = play(g, state, "lay Q♣", "steal 5♥+4♠+4♦", "decline")
    assert state.last is not None and state.last.penalty
    assert hand(state, 0) == set(cs("2♣ 2♥")) and hand_sizes(state)[1] == 0


def test_swap_unavailable_with_an_empty_stock() -> None:
    """NY-T25 (NY-4.7b): with the stock empty, take back is the only choice."""
    g = game()
    state = build(g, 2, {0: "7♥ 2♣", 1: "3♣ 3♦"}, stock="")
    state = play(g, state, "lay 7♥", "decline")
    assert g.legal_actions(state) == (TakeBack(),)
    assert "cannot swap: the stock is empty" in refused(g, state, Swap())


# ---- NY-T26 .. NY-T33: end of the game -----------------------------------------------


def test_thief_empties_his_hand() -> None:
    """NY-T26 (NY-5.1): the thief's hand is empty, so the game ends after the turn."""
    g = game()
    state = build(g, 2, {0: "7♥ 2♣ 3♣", 1: "4♠ 4♦"}, piles={0: "2♥ 3♥ 4♥ 5♥ 6♥", 1: "2♦ 3♦ 5♦ 6♦"})
    state = play(g, state, "lay 7♥", "steal 4♠+4♦")
    assert state.last is not None and state.last.drew == ()
    assert len(pile(state, 1)) == 7 and hand_sizes(state) == [2, 0]
    assert state.phase is Phase.OVER and g.current_player(state) is None
    outcome = g.outcome(state)
    assert outcome is not None and outcome.winners == (1,) and outcome.scores == (5.0, 7.0)
    assert "seat 1's hand is empty" in outcome.reason


def test_layer_empties_his_hand() -> None:
    """NY-T27 (NY-5.1): the layer's last card is stolen; P2 draws; the game ends."""
    g = game()
    state = build(g, 3, {0: "Q♣", 1: "K♣ 2♦", 2: "3♦"})
    state = play(g, state, "lay Q♣", "steal K♣", "decline")
    assert pile(state, 1) == set(cs("Q♣ K♣"))
    assert state.last is not None and state.last.drew == (2,) and hand_sizes(state) == [0, 1, 2]
    assert state.phase is Phase.OVER and state.end_reason == "seat 0's hand is empty"


@pytest.mark.parametrize("preset", ["default", "pagat"])
def test_stock_runs_out(preset: str) -> None:
    """NY-T28 (NY-4.6, NY-5.1, NY-5.2): draws stop when the stock is empty."""
    g = game(preset)
    hands = {0: "7♥ 2♣", 1: "3♣ 4♣", 2: "5♣ 6♣", 3: "7♣ 8♣"}
    state = build(g, 4, hands, stock="J♠ Q♠")
    state = play(g, state, "lay 7♥", "decline", "decline", "decline")
    assert state.last is not None and state.last.drew == (1, 2)
    assert C("J♠") in hand(state, 1) and C("Q♠") in hand(state, 2) and hand_sizes(state)[3] == 2
    assert g.legal_actions(state) == (TakeBack(),)
    state = play(g, state, "take back")
    if preset == "pagat":
        assert state.phase is Phase.OVER and state.end_reason == "the stock is exhausted"
        return
    assert state.phase is Phase.LAY and state.layer == 1
    state = play(g, state, "lay 3♣", "decline", "decline", "decline")
    assert state.last is not None and state.last.drew == ()


@pytest.mark.parametrize("steal_in_second", [False, True])
def test_dead_turns(steal_in_second: bool) -> None:
    """NY-T29 (NY-5.3b): N consecutive dead turns end the game; a steal restarts the count."""
    g = game()
    hands = {0: "2♣ 3♣ 4♣", 1: "2♥ 5♣ 6♣", 2: "3♥ 7♣ 8♣"}
    state = build(g, 3, hands, stock="")
    dead = ["decline", "decline", "take back"]
    state = play(g, state, "lay 2♣", *dead)
    assert state.dead_turns == 1 and state.phase is Phase.LAY
    if steal_in_second:
        state = play(g, state, "lay 2♥", "steal 3♥", "decline")
        assert state.dead_turns == 0
        state = play(g, state, "lay 7♣", *dead, "lay 2♣", *dead)
        assert state.dead_turns == 2 and state.phase is Phase.LAY
        state = play(g, state, "lay 5♣", *dead)
    else:
        state = play(g, state, "lay 2♥", *dead)
        assert state.dead_turns == 2 and state.phase is Phase.LAY
        state = play(g, state, "lay 3♥", *dead)
    assert state.dead_turns == 3
    assert state.phase is Phase.OVER and state.end_reason == "3 dead turns in a row"


def test_turns_with_stock_are_not_dead() -> None:
    """NY-5.3b: a turn that began with cards in the stock is not dead, even without a steal."""
    g = game()
    state = build(g, 2, {0: "2♣ 3♣", 1: "2♥ 3♥"}, stock="4♠")
    state = play(g, state, "lay 2♣", "decline")
    assert state.dead_turns == 0 and stock_size(state) == 0
    state = play(g, state, "take back", "lay 2♥", "decline", "take back")
    assert state.dead_turns == 1 and state.phase is Phase.LAY


@pytest.mark.parametrize(
    ("preset", "counts", "where"),
    [("default", (9, 11, 11, 6), "pile"), ("pagat", (12, 14, 14, 12), "hand")],
)
def test_tied_winners_share(preset: str, counts: tuple[int, ...], where: str) -> None:
    """NY-T30 (NY-6.1, NY-6.2, NY-6.3): the highest counts share the win equally."""
    g = game(preset)
    deck = iter(Card.of(c) for c in range(52))
    spots = {s: " ".join(str(next(deck)) for _ in range(k)) for s, k in enumerate(counts)}
    if where == "pile":
        rest = " ".join(str(c) for c in deck)
        state = build(g, 4, {0: rest}, piles=spots, stock="", phase=Phase.OVER)
    else:
        state = build(g, 4, spots, stock="", phase=Phase.OVER)
    outcome = g.outcome(state)
    assert outcome is not None
    assert outcome.scores == counts
    assert outcome.winners == (1, 2)
    assert outcome.shares == (Fraction(0), Fraction(1, 2), Fraction(1, 2), Fraction(0))


def test_turn_limit() -> None:
    """NY-T31 (NY-5.3c, NY-9.7): pagat, 2 players, steals every turn, limit 3 turns."""
    g = game("pagat", turn_limit=3)
    deck = stacked(2, {0: "2♣ 6♥ 2♦", 1: "3♣ 5♥ 3♦"}, dealer=1)
    state = g.initial_state(2, 0, dealer=1, deck=deck)
    sizes = []
    for lay, steal in [("2♣", "3♣"), ("5♥", "6♥"), ("2♦", "3♦")]:
        state = play(g, state, f"lay {lay}", f"steal {steal}")
        sizes.append(tuple(hand_sizes(state)))
        assert stock_size(state) == 38
    assert sizes == [(6, 8), (7, 7), (6, 8)]
    assert state.phase is Phase.OVER and state.end_reason == "the turn limit (3) was reached"
    outcome = g.outcome(state)
    assert outcome is not None and outcome.winners == (1,) and outcome.scores == (6, 8)


def test_empty_hand_must_decline_and_is_skipped_as_layer() -> None:
    """NY-T32 (NY-4.1, NY-4.3): an empty hand declines and draws; empty, it is skipped."""
    g = game(capture="pile", end="stock_exhausted")
    state = build(g, 3, {0: "7♥ 2♣", 1: "", 2: "3♣"})
    state = play(g, state, "lay 7♥")
    assert state.current == 1 and g.legal_actions(state) == (Decline(),)
    state = play(g, state, "decline", "decline")
    assert state.last is not None and state.last.drew == (1, 2) and hand_sizes(state)[1] == 1
    # P1 steals with its only card, so it neither draws nor can lay next: P2 lays.
    state = build(g, 3, {0: "7♥ 2♣", 1: "K♥", 2: "3♣"})
    state = play(g, state, "lay 7♥", "steal K♥", "decline")
    assert hand_sizes(state)[1] == 0 and stock_size(state) > 0
    assert state.phase is Phase.LAY and state.layer == 2 and state.current == 2
    assert state.turn == 2


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("dealer", [0, 1])
def test_initial_state(n: int, dealer: int) -> None:
    """NY-T33 (NY-3.2, NY-3.3, NY-3.4): 7 cards each, stock 38/31/24, dealer's left lays."""
    g = game()
    state = g.initial_state(n, 42, dealer=dealer)
    assert hand_sizes(state) == [7] * n
    assert stock_size(state) == {2: 38, 3: 31, 4: 24}[n]
    assert all(not pile(state, s) for s in range(n))
    assert state.layer == state.current == (dealer + 1) % n
    assert state.phase is Phase.LAY and state.turn == 1 and state.dead_turns == 0
    state.table.check()
    for s in range(n):
        assert g.observe(state, s).table.mask(1 + s) == state.table.masks[1 + s]


# ---- NY-T34 .. NY-T36: information --------------------------------------------------


def test_a_draw_shows_only_its_size() -> None:
    """NY-T34 (NY-8.1, NY-8.2): P0 sees P1's hand grow by one, not the card drawn."""
    g = game()
    state = build(g, 3, {0: "7♥ 2♣", 1: "3♣", 2: "4♣"}, stock="A♠ K♠")
    before = g.observe(state, 0)
    state = play(g, state, "lay 7♥", "decline", "decline")
    after = g.observe(state, 0)
    assert after.table.size(2) == before.table.size(2) + 1
    assert C("A♠") in hand(state, 1)
    assert C("A♠") not in after.table.cards(2) and after.table.cards(2) == ()
    assert C("A♠") in g.observe(state, 1).table.cards(2)
    assert after.last is not None and after.last.drew == (1, 2)


def test_penalty_card_seen_by_layer_and_thief_only() -> None:
    """NY-T35 (NY-8.2): the penalty card is seen by P0 and P1; P2 sees only that it moved."""
    g = game("pagat")
    deck = stacked(3, {0: "Q♣", 1: "5♥ 4♠ 4♦"})
    state = g.initial_state(3, 3, dealer=2, deck=deck)
    before2 = g.observe(state, 2)
    state = play(g, state, "lay Q♣", "steal 5♥+4♠+4♦", "decline")
    (card,) = hand(state, 0) - (set(deck[0:21:3]) - {C("Q♣")})
    assert g.observe(state, 0).table.mask(1) & card.bit
    assert g.observe(state, 1).table.mask(1) & card.bit
    seen2 = g.observe(state, 2)
    assert not seen2.table.mask(1) & card.bit
    assert seen2.table.cards(2) == ()  # P2 can no longer tell which of P1's cards are left
    assert seen2.table.size(1) == before2.table.size(1) and seen2.table.size(2) == 7
    assert seen2.last is not None and seen2.last.penalty
    onlooker = g.observe(state, -1)
    assert not onlooker.table.mask(1) & card.bit and onlooker.table.cards(2) == ()


def test_forced_decline_looks_like_a_chosen_one() -> None:
    """NY-T36 (NY-8.4): others' observations of a forced and a chosen decline are equal."""
    g = game()
    common = {0: "A♠ 2♠", 1: "3♠ 4♠ 5♠"}
    forced = build(g, 3, {**common, 2: "2♣ 2♦ 2♥ 3♣ 3♦ 3♥ 4♣"}, stock="J♠ Q♠ K♦ K♥ Q♥ J♥")
    chosen = build(g, 3, {**common, 2: "2♣ 2♦ K♥ Q♥ J♥ 3♥ 4♣"}, stock="J♠ Q♠ K♦ 2♥ 3♣ 3♦")
    forced = play(g, forced, "lay A♠", "decline")
    chosen = play(g, chosen, "lay A♠", "decline")
    assert g.legal_actions(forced) == (Decline(),)
    assert len(g.legal_actions(chosen)) > 1
    assert g.observe(forced, 0) == g.observe(chosen, 0)
    forced = play(g, forced, "decline")
    chosen = play(g, chosen, "decline")
    for seat in (-1, 0, 1):
        assert g.observe(forced, seat) == g.observe(chosen, seat)
        assert g.observe(forced, seat).to_json() == g.observe(chosen, seat).to_json()


# ---- sections 1 and 2: players, values, zones -----------------------------------------


def test_player_counts() -> None:
    """NY-1.1: 2, 3 or 4 players, one 52-card deck."""
    g = game()
    assert (g.min_players, g.max_players) == (2, 4)
    assert g.teams(3) is None
    for n in (2, 3, 4):
        assert nyuri_layout(n).deck == (1 << 52) - 1


def test_card_values() -> None:
    """NY-2.1, NY-2.2: 2-10 at face value, J 11, Q 12, K 13, A 14; suits have no order."""
    from cardcore_nyuri import card_value

    hearts = cs("2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ A♥")
    assert [card_value(c) for c in hearts] == list(range(2, 15))
    assert {card_value(C(f"Q{s}")) for s in "♣♦♥♠"} == {12}


def test_zones() -> None:
    """NY-2.4: a hidden ordered stock, private hands, face-up piles and table."""
    from cardcore import Visibility

    layout = nyuri_layout(3)
    kinds = {z.name: (z.visibility, z.ordered) for z in layout.zones}
    assert kinds["stock"] == (Visibility.HIDDEN, True)
    assert kinds["hand1"] == (Visibility.OWNER, False)
    assert kinds["pile2"] == (Visibility.PUBLIC, False)
    assert kinds["target"] == kinds["guard"] == kinds["offer0"] == (Visibility.PUBLIC, False)


# ---- section 3: setup ----------------------------------------------------------------


def test_dealer_by_lot_when_not_given() -> None:
    """NY-3.1: without a dealer one is drawn at random (from the seed)."""
    g = game()
    dealers = {g.initial_state(4, seed).dealer for seed in range(40)}
    assert dealers == {0, 1, 2, 3}
    assert g.initial_state(3, 9) == g.initial_state(3, 9)


def test_setup_is_validated() -> None:
    """NY-3.1: the player count, the dealer seat and a stacked deck are checked."""
    g = game()
    with pytest.raises(ValueError, match="2, 3 or 4 players"):
        g.initial_state(5, 0)
    with pytest.raises(ValueError, match="2, 3 or 4 players"):
        g.initial_state(1, 0)
    with pytest.raises(ValueError, match="dealer must be a seat from 0 to 2"):
        g.initial_state(3, 0, dealer=3)
    deck = [Card.of(c) for c in range(52)]
    with pytest.raises(ValueError, match=r"twice: \[2♣\], missing: \[3♣\]"):
        g.initial_state(3, 0, deck=[deck[0], *deck[0:1], *deck[2:]])
    with pytest.raises(ValueError, match="51 cards"):
        g.initial_state(3, 0, deck=deck[1:])
    with pytest.raises(ValueError, match="sequence of cards"):
        g.initial_state(3, 0, deck=["2♣"] * 52)  # type: ignore[list-item]


@pytest.mark.parametrize("n", [2, 3, 4])
def test_deal_one_at_a_time_from_the_dealers_left(n: int) -> None:
    """NY-3.2, NY-3.3: the top card goes to the dealer's left, then clockwise; rest is stock."""
    g = game()
    deck = [Card.of(c) for c in range(52)]
    dealer = n - 1 - 1 if n > 2 else 0
    state = g.initial_state(n, 0, dealer=dealer, deck=deck)
    for k in range(n):
        seat = (dealer + 1 + k) % n
        assert hand(state, seat) == set(deck[k : HAND_SIZE * n : n])
    assert stock_top_first(state) == deck[HAND_SIZE * n :]
    assert state.layer == (dealer + 1) % n


@pytest.mark.parametrize("n", [2, 3, 4])
def test_fast_deal_equals_the_card_tables_own_deal(n: int) -> None:
    """NY-3.2: the deal built in one step equals dealing card by card with CardTable.draw."""
    import random

    g = game()
    rng = random.Random(n)
    for dealer in range(n):
        deck = [Card.of(c) for c in rng.sample(range(52), 52)]
        state = g.initial_state(n, 0, dealer=dealer, deck=deck)
        table = nyuri_layout(n).new_table([c.id for c in deck], 0)
        for i in range(HAND_SIZE * n):
            _, table = table.draw(0, 1 + (dealer + 1 + i) % n)
        assert state.table == table


# ---- section 4: turns ----------------------------------------------------------------


def test_layer_passes_clockwise() -> None:
    """NY-4.1, NY-4.8: the next layer is the next player clockwise from the last layer."""
    g = game()
    state = g.initial_state(3, 0, dealer=0)
    layers = []
    for _ in range(4):
        layers.append(state.layer)
        first = g.legal_actions(state)[0]
        state = g.apply(state, first)
        while state.phase is Phase.OFFER:
            state = g.apply(state, Decline())
        state = g.apply(state, TakeBack())
    assert layers == [1, 2, 0, 1]


def test_every_hand_empty_ends_the_game() -> None:
    """NY-4.1, NY-5.3a: when no player can lay, the game ends (the stock may still hold cards)."""
    g = game(end="stock_exhausted")
    state = build(g, 2, {0: "7♥", 1: "9♥"})
    state = play(g, state, "lay 7♥", "steal 9♥")
    assert stock_size(state) > 0
    assert state.phase is Phase.OVER and state.end_reason == "every hand is empty"


def test_offers_go_clockwise_and_see_earlier_offers() -> None:
    """NY-4.3: each other player acts once from L's left; an offer need not beat earlier ones."""
    g = game()
    state = build(g, 4, {0: "7♥ 3♣", 1: "K♥ 2♣ 8♣", 2: "9♥ 8♥ 4♣", 3: "5♣"}, layer=2)
    state = play(g, state, "lay 9♥")
    assert state.current == 3
    state = play(g, state, "decline")
    assert state.current == 0
    state = play(g, state, "steal 7♥+3♣")
    assert state.current == 1
    obs = g.observe(state, 1)
    assert obs.offers[0] == tuple(cs("7♥ 3♣"))
    assert Steal(cs("8♣ 2♣")) in obs.legal_actions  # 10 beats T = 9, not P0's 10
    state = play(g, state, "steal K♥")
    assert state.last is not None and state.last.winner == 1  # 13 > 10
    assert state.last.offers == ((C("7♥"), C("3♣")), (C("K♥"),), (), ())


def test_losing_offers_return_and_lower_offer_allowed() -> None:
    """NY-4.3, NY-4.5: a weaker later offer is legal; it loses and returns to its owner."""
    g = game()
    state = build(g, 3, {0: "7♥ 2♣", 1: "K♥ Q♥ 3♣", 2: "9♥ 4♣"})
    state = play(g, state, "lay 7♥", "steal K♥+Q♥")
    assert Steal(cs("9♥")) in g.legal_actions(state)
    state = play(g, state, "steal 9♥")
    assert state.last is not None and state.last.winner == 1
    assert C("9♥") in hand(state, 2) and hand_sizes(state)[2] == 3


@pytest.mark.parametrize("capture", ["pile", "hand"])
def test_capture_option(capture: str) -> None:
    """NY-4.5, NY-6.1: capture=pile counts piles; capture=hand puts it all in W's hand."""
    g = game(capture=capture)
    state = build(g, 2, {0: "7♥ 2♣ 3♣", 1: "9♥ 4♣ 5♣"})
    state = play(g, state, "lay 7♥", "steal 9♥")
    if capture == "pile":
        assert pile(state, 1) == set(cs("7♥ 9♥")) and hand_sizes(state) == [2, 2]
        assert g.counts(state) == (0, 2)
    else:
        assert pile(state, 1) == set() and hand(state, 1) == set(cs("7♥ 9♥ 4♣ 5♣"))
        assert g.counts(state) == (2, 4)


def test_draw_order_and_exhaustion() -> None:
    """NY-4.6: draws one at a time clockwise from L's left, skipping W; stop when empty."""
    g = game()
    state = build(g, 4, {0: "7♥ 2♣", 1: "3♣ 4♣", 2: "9♥ 5♣", 3: "6♣ 8♣"}, stock="A♠ K♠")
    state = play(g, state, "lay 7♥", "decline", "steal 9♥", "decline")
    assert state.last is not None and state.last.drew == (1, 3)
    assert C("A♠") in hand(state, 1) and C("K♠") in hand(state, 3)
    state = build(g, 4, {0: "7♥ 2♣", 1: "3♣ 4♣", 2: "9♥ 5♣", 3: "6♣ 8♣"}, stock="A♠")
    state = play(g, state, "lay 7♥", "decline", "steal 9♥", "decline")
    assert state.last is not None and state.last.drew == (1,)


def test_take_back_restores_the_hand() -> None:
    """NY-4.7a, NY-9.8: after a take-back the layer's hand is as before the lay."""
    g = game()
    state = build(g, 2, {0: "5♦ 9♦ 2♣", 1: "3♣ 4♣"})
    state = play(g, state, "lay 5♦ guard 9♦", "decline", "take back")
    assert hand(state, 0) == set(cs("5♦ 9♦ 2♣"))
    assert state.last is not None and state.last.returned == "take back"
    assert state.layer == 1 and state.turn == 2


# ---- section 5: end ------------------------------------------------------------------


def test_first_empty_hand_end_plays_on_without_stock() -> None:
    """NY-5.1: under end=first_empty_hand play goes on after the stock runs out."""
    g = game()
    state = build(g, 2, {0: "7♥ 2♣ 3♣", 1: "9♥ 4♣ 5♣"}, stock="")
    state = play(g, state, "lay 7♥", "steal 9♥")
    assert state.phase is Phase.LAY and stock_size(state) == 0


def test_stock_exhausted_end() -> None:
    """NY-5.2: under end=stock_exhausted the game ends after a turn that empties the stock."""
    g = game(end="stock_exhausted")
    state = build(g, 2, {0: "7♥ 2♣", 1: "3♣ 4♣"}, stock="A♠")
    state = play(g, state, "lay 7♥", "decline")
    assert state.phase is Phase.RETURN  # the end check waits for the turn's end
    state = play(g, state, "take back")
    assert state.phase is Phase.OVER and state.end_reason == "the stock is exhausted"
    # ... whereas an empty hand alone does not end it.
    state = build(g, 2, {0: "7♥ 2♣", 1: "9♥"}, stock="A♠ K♠")
    state = play(g, state, "lay 7♥", "steal 9♥")
    assert state.phase is Phase.LAY and state.layer == 0  # P1 is skipped: empty hand


@pytest.mark.parametrize("limit", [1, 2])
def test_turn_limit_counts_played_turns(limit: int) -> None:
    """NY-5.3c: the game ends once turn_limit turns are played."""
    g = game(turn_limit=limit)
    state = g.initial_state(2, 0)
    for _ in range(limit):
        assert state.phase is Phase.LAY
        state = g.apply(state, g.legal_actions(state)[0])
        state = g.apply(state, Decline())
        state = g.apply(state, TakeBack())
    assert state.phase is Phase.OVER and state.turn == limit
    assert state.end_reason == f"the turn limit ({limit}) was reached"


def test_turn_limit_ends_two_player_hand_games() -> None:
    """NY-5.4, NY-9.7: with capture=hand and 2 players thefts can go on; the limit stops them."""
    g = game("pagat")
    state = g.initial_state(2, 7)
    while state.current is not None:
        legal = g.legal_actions(state)
        steals = [a for a in legal if isinstance(a, Steal)]
        state = g.apply(state, steals[0] if steals else legal[0])
    assert state.turn <= 200
    assert state.end_reason in ("the turn limit (200) was reached", "the stock is exhausted")


# ---- section 6 and the options -----------------------------------------------------


def test_counts_and_single_winner() -> None:
    """NY-6.1, NY-6.3: counts are pile sizes (hand cards do not count); one winner takes 1."""
    g = game()
    piles = {1: "2♣ 3♣", 2: "4♣"}
    state = build(g, 3, {}, piles=piles, stock="", rest_zone="hand0", phase=Phase.OVER)
    outcome = g.outcome(state)
    assert outcome is not None
    assert outcome.scores == (0.0, 2.0, 1.0) and outcome.winners == (1,)
    assert outcome.shares == (Fraction(0), Fraction(1), Fraction(0))
    assert outcome.reason == "set up"
    assert g.outcome(build(g, 3, {0: "A♠"})) is None


def test_presets_and_options() -> None:
    """Section 7: presets set every option; unknown names and values are refused."""
    pagat = game("pagat").options
    assert (pagat.capture, pagat.end, pagat.three_card_penalty) == ("hand", "stock_exhausted", True)
    assert (pagat.guarded_single, pagat.turn_limit) == ("same_suit", 200)
    default = game().options
    assert (default.capture, default.end, default.three_card_penalty) == (
        "pile",
        "first_empty_hand",
        False,
    )
    assert game("pagat", turn_limit="5").options.turn_limit == 5
    with pytest.raises(OptionError, match="capture"):
        game(capture="table")
    with pytest.raises(OptionError, match="turn_limit"):
        game(turn_limit=0)
    with pytest.raises(OptionError, match="unknown option"):
        game(jokers=True)
    with pytest.raises(OptionError, match="unknown preset"):
        game("house")


def test_max_turns_bounds() -> None:
    """NY-9.6, NY-9.7: the bound on turns used for max_decisions."""
    assert [game().max_turns(n) for n in (2, 3, 4)] == [118, 138, 158]
    assert [game("pagat").max_turns(n) for n in (2, 3, 4)] == [200, 31, 24]
    assert game(capture="hand").max_turns(3) == 200
    assert game(turn_limit=10).max_turns(4) == 10
    assert game().max_decisions(4) == 158 * 5


# ---- refusals and parsing ------------------------------------------------------------


def test_illegal_actions_are_refused_in_players_words() -> None:
    """NY-4.2-NY-4.7: wrong phase, wrong cards and a finished game are refused."""
    g = game()
    state = build(g, 3, {0: "7♥ 2♣", 1: "9♠ 3♣", 2: "4♣"})
    assert "seat 0 must lay a card first" in refused(g, state, Decline())
    assert "not a Nyuri action (str)" in refused(g, state, "lay 7♥")
    state = play(g, state, "lay 7♥")
    assert "may only steal or decline" in refused(g, state, Lay(C("2♣")))
    assert "K♥ not in your hand" in refused(g, state, Steal(cs("K♥")))
    reason = refused(g, state, Steal(cs("9♠")))
    assert reason == "9♠ cannot steal 7♥: a single card must be of the target's suit"
    state = play(g, state, "decline", "decline")
    assert "must take back or swap" in refused(g, state, Decline())
    state = build(g, 2, {0: "7♥", 1: "9♥"})
    state = play(g, state, "lay 7♥", "steal 9♥")
    with pytest.raises(IllegalActionError, match="the game is over"):
        g.apply(state, Decline())
    assert g.legal_actions(state) == ()


ROUND_TRIPS = [
    ("lay 7♥", Lay(C("7♥"))),
    ("lay 5♦ guard 9♦", Lay(C("5♦"), C("9♦"))),
    ("steal 9♥", Steal(cs("9♥"))),
    ("steal 4♠+4♦", Steal(cs("4♦ 4♠"))),
    ("steal 9♣+6♦", Steal(cs("6♦ 9♣"))),
    ("steal 5♥+4♠+4♦", Steal(cs("4♦ 5♥ 4♠"))),
    ("decline", Decline()),
    ("take back", TakeBack()),
    ("swap", Swap()),
]


@pytest.mark.parametrize(("text", "action"), ROUND_TRIPS)
def test_action_text(text: str, action: NyuriAction) -> None:
    """Actions print as table talk and parse back."""
    g = game()
    assert str(action) == text
    assert g.parse_action(text) == action
    assert g.parse_action(str(action)) == action


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("lay 10h", Lay(C("10♥"))),
        ("LAY Th", Lay(C("10♥"))),
        ("lay 5d guard 9d", Lay(C("5♦"), C("9♦"))),
        ("steal 4d 4s", Steal(cs("4♠ 4♦"))),
        ("steal 4d+4s", Steal(cs("4♠ 4♦"))),
        ("steal  qc + 2h", Steal(cs("Q♣ 2♥"))),
        ("offer 9h", Steal(cs("9♥"))),
        ("Decline", Decline()),
        ("take_back", TakeBack()),
        ("takeback", TakeBack()),
        ("SWAP", Swap()),
    ],
)
def test_parse_variants(text: str, action: NyuriAction) -> None:
    """Parsing accepts 10h, Th and 10♥, any card order and spacing."""
    assert game().parse_action(text) == action


@pytest.mark.parametrize(
    "text",
    [
        "",
        "lay",
        "lay 1♥",
        "lay 7♥ guard",
        "lay 7♥ guard 7♥",
        "steal",
        "steal 4♠+4♠",
        "pass",
        "take",
    ],
)
def test_parse_errors_name_the_input(text: str) -> None:
    """Bad text raises ValueError naming the input."""
    with pytest.raises(ValueError, match="not a Nyuri action") as info:
        game().parse_action(text)
    assert repr(text) in str(info.value)


def test_steal_cards_are_canonical() -> None:
    """Equal sets are equal actions whatever the order given."""
    assert Steal(cs("4♦ 4♠ 5♥")) == Steal(cs("5♥ 4♠ 4♦"))
    assert hash(Steal(cs("4♦ 4♠"))) == hash(Steal(cs("4♠ 4♦")))
    assert Steal(cs("4♦ 4♠")).value == 8
    with pytest.raises(ValueError, match="appears twice"):
        Steal(cs("4♦ 4♦"))
    with pytest.raises(ValueError, match="at least one card"):
        Steal(())
