"""Noddy's rules, paragraph by paragraph (sections 1-6), and the worked examples ND-T10..T23."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from cardcore import DECK_52, Card, IllegalActionError, parse_card, parse_cards
from cardcore_noddy import (
    PRESETS,
    Cut,
    Deal,
    Go,
    KnavePassed,
    KnaveShown,
    LastCard,
    Noddy,
    NoddyState,
    Pass,
    Phase,
    Play,
    Played,
    ShowKnave,
    Shown,
    TurnupJack,
    Won,
    count_show,
)
from cardcore_noddy.state import HANDS, LAYOUT, PILE, STOCK, TURNUP


def game(preset: str = "default", **overrides: Any) -> Noddy:
    return Noddy(attrs.evolve(PRESETS[preset], **overrides))


def stacked(nd: str, d: str, up: str) -> list[Card]:
    """A deck dealing ``nd`` to the non-dealer, ``d`` to the dealer and ``up`` as turn-up."""
    a, b, u = parse_cards(nd), parse_cards(d), parse_card(up)
    top = [a[0], b[0], a[1], b[1], a[2], b[2], u]
    return top + [c for c in DECK_52 if c not in top]


def start(
    g: Noddy,
    nd: str,
    d: str,
    up: str,
    *,
    dealer: int = 0,
    scores: tuple[int, int] | None = None,
) -> NoddyState:
    deck = stacked(nd, d, up)
    if scores is None:
        return g.initial_state(2, 1, dealer=dealer, deck=deck)
    return g.start_hand(scores=scores, dealer=dealer, deck=deck)


def act(g: Noddy, s: NoddyState, *texts: str) -> NoddyState:
    for t in texts:
        s = g.apply(s, g.parse_action(t))
    return s


def to_play(g: Noddy, s: NoddyState) -> NoddyState:
    """Pass through step 2 (if any) to the play."""
    while s.phase is Phase.KNAVE:
        s = g.apply(s, Pass())
    assert s.phase is Phase.PLAY
    return s


def hand_events(s: NoddyState) -> list[Any]:
    """The events of the current hand, from its deal."""
    starts = [i for i, e in enumerate(s.events) if isinstance(e, Deal)]
    return list(s.events[starts[-1] :])


# ---- section 1-2 -----------------------------------------------------------------------


def test_two_players_only() -> None:
    """ND-1.1, ND-1.4: exactly 2 players."""
    g = game()
    assert (g.min_players, g.max_players) == (2, 2)
    assert g.teams(2) is None
    for n in (1, 3, 4):
        with pytest.raises(ValueError, match="2 players"):
            g.initial_state(n, 0)


def test_setup_parameters_are_validated() -> None:
    """ND-3.1, ND-3.3: a wrong dealer seat or deck is refused with a clear message."""
    g = game()
    with pytest.raises(ValueError, match="dealer must be seat 0 or 1"):
        g.initial_state(2, 0, dealer=2)
    with pytest.raises(ValueError, match="52 cards exactly once; got 51"):
        g.initial_state(2, 0, deck=list(DECK_52[:51]))
    with pytest.raises(ValueError, match="repeated: 2♣"):
        g.initial_state(2, 0, deck=[DECK_52[0], *DECK_52[:51]])


def test_zones_and_their_visibility() -> None:
    """ND-2.4: stock (face down), two hands, the turn-up, the play pile."""
    names = [z.name for z in LAYOUT.zones]
    assert names == ["stock", "hand0", "hand1", "turnup", "pile"]
    assert [z.visibility.value for z in LAYOUT.zones] == [
        "hidden",
        "owner",
        "owner",
        "public",
        "public",
    ]


def test_scores_start_at_zero() -> None:
    """ND-2.5: each player's score starts at 0 (before any award of the first hand)."""
    g = game()
    s = start(g, "2♣ 3♦ 9♥", "4♣ 8♦ Q♠", "6♥")
    assert [e for e in s.events if isinstance(e, Shown | TurnupJack | KnaveShown)] == []
    assert s.scores == (0, 0)


def test_trumps_are_the_turnup_suit() -> None:
    """ND-2.3: the knave noddy is the jack of the turn-up's suit; other jacks are not."""
    g = game()
    s = start(g, "J♦ 2♣ 7♥", "J♠ 4♣ 8♦", "9♦")
    assert g.legal_actions(s) == (ShowKnave(), Pass())
    s = g.apply(s, Pass())
    assert g.legal_actions(s) == (Pass(),)


# ---- section 3: setup and deal ---------------------------------------------------------


def test_cut_for_the_first_dealer() -> None:
    """ND-3.1: without a dealer, each seat cuts a random card; the lower rank (A low) deals.

    The cut cards are public: every seat's observation holds them.
    """
    g = game()
    for seed in range(40):
        s = g.initial_state(2, seed)
        cuts = [e for e in s.events if isinstance(e, Cut)]
        assert cuts
        last = cuts[-1].cards
        ranks = [1 if c.rank == 14 else int(c.rank) for c in last]
        assert ranks[0] != ranks[1]
        assert s.dealer == (0 if ranks[0] < ranks[1] else 1)
        for c in cuts[:-1]:
            assert c.cards[0].rank == c.cards[1].rank
        for seat in (0, 1, -1):
            assert [e for e in g.observe(s, seat).events if isinstance(e, Cut)] == cuts


def test_equal_cut_ranks_cut_again() -> None:
    """ND-3.1: equal ranks cut again."""
    g = game()
    seeds = [
        seed
        for seed in range(400)
        if len([e for e in g.initial_state(2, seed).events if isinstance(e, Cut)]) > 1
    ]
    assert seeds, "no seed below 400 gives a tied cut"


def test_given_dealer_skips_the_cut() -> None:
    """ND-3.1: the first dealer is a setup parameter."""
    g = game()
    for dealer in (0, 1):
        s = g.initial_state(2, 5, dealer=dealer)
        assert s.dealer == dealer
        assert not [e for e in s.events if isinstance(e, Cut)]


def test_deal_order_with_a_stacked_deck() -> None:
    """ND-3.3: 3 cards each, one at a time, non-dealer first, then the turn-up; 45 in stock."""
    g = game()
    deck = list(DECK_52)
    for dealer in (0, 1):
        s = g.initial_state(2, 0, dealer=dealer, deck=deck)
        nd = 1 - dealer
        assert s.table.cards(HANDS[nd]) == tuple(sorted([deck[0], deck[2], deck[4]]))
        assert s.table.cards(HANDS[dealer]) == tuple(sorted([deck[1], deck[3], deck[5]]))
        assert s.table.cards(TURNUP) == (deck[6],)
        assert s.table.size(STOCK) == 45
        assert s.table.size(PILE) == 0


def test_later_hands_are_shuffled_and_the_dealer_alternates() -> None:
    """ND-3.2, ND-4.5: after each hand the dealer changes and a new hand is dealt."""
    g = game(target=121)
    s = g.initial_state(2, 3, dealer=1, deck=list(DECK_52))
    first_hand = s.table.cards(HANDS[0])
    while s.hand < 4 and s.current is not None:
        s = g.apply(s, g.legal_actions(s)[0])
    deals = [e for e in s.events if isinstance(e, Deal)]
    assert [d.dealer for d in deals] == [1, 0, 1, 0]
    assert [d.hand for d in deals] == [1, 2, 3, 4]
    assert len({d.turnup for d in deals}) > 1
    assert s.table.cards(HANDS[0]) != first_hand


# ---- step 1: turned-up jack (ND-4.1) -------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "awards"),
    [("default", [(0, 1), (1, 2)]), ("historical", [(0, 2)])],
)
def test_turned_up_jack(preset: str, awards: list[tuple[int, int]]) -> None:
    """ND-T10, ND-4.1: a turned-up J♥ scores D +1 then ND +2 (default) or D +2 (historical),
    before anything else; step 2 is skipped.
    """
    g = game(preset)
    s = start(g, "2♣ 3♦ 9♥", "4♣ 8♦ Q♠", "J♥", dealer=0)
    ev = hand_events(s)
    assert ev[0] == Deal(1, 0, parse_card("J♥"))
    jacks = [(e.seat, e.points) for e in ev if isinstance(e, TurnupJack)]
    assert jacks == awards
    assert [type(e) for e in ev[1 : 1 + len(awards)]] == [TurnupJack] * len(awards)
    assert s.phase is Phase.PLAY
    assert not [e for e in ev if isinstance(e, KnavePassed)]


@pytest.mark.parametrize(("preset", "winner", "score"), [("default", 0, 31), ("historical", 0, 32)])
def test_both_near_the_target_with_a_turned_up_jack(preset: str, winner: int, score: int) -> None:
    """ND-T11: D 30, ND 29, a jack turned: D wins first (31 by default, 32 historical);
    ND's 2 is not awarded.
    """
    g = game(preset)
    s = start(g, "2♣ 3♦ 9♥", "4♣ 8♦ Q♠", "J♥", dealer=0, scores=(30, 29))
    assert s.phase is Phase.OVER and s.current is None
    assert s.scores == (score, 29)
    assert s.events[-1] == Won(winner, score)
    assert [e.seat for e in s.events if isinstance(e, TurnupJack)] == [0]
    outcome = g.outcome(s)
    assert outcome is not None and outcome.winners == (winner,)


def test_turned_up_jack_non_dealer_wins() -> None:
    """ND-T12 (default): D 20 goes to 21, then ND 29 goes to 31 and wins."""
    g = game()
    s = start(g, "2♣ 3♦ 9♥", "4♣ 8♦ Q♠", "J♥", dealer=0, scores=(20, 29))
    assert s.scores == (21, 31)
    assert s.events[-1] == Won(1, 31)
    assert not [e for e in s.events if isinstance(e, Shown)]


def test_turned_up_jack_historical_goes_on() -> None:
    """ND-T12 (historical): D goes to 22 and the hand goes on."""
    g = game("historical")
    assert shows_of(g, "2♣ 4♦ 8♥", "4♣ 8♦ Q♠", "J♥")[1] == 0
    s = start(g, "2♣ 4♦ 8♥", "4♣ 8♦ Q♠", "J♥", dealer=0, scores=(20, 29))
    assert s.phase is Phase.PLAY
    assert [e for e in s.events if isinstance(e, TurnupJack)] == [TurnupJack(0, 2, 22)]


# ---- step 2: the knave noddy (ND-4.2) ------------------------------------------------


def test_knave_wins_out_of_turn_default() -> None:
    """ND-T13 (default): ND must pass; D shows J♠, reaches 31 and wins; ND's show is
    never counted.
    """
    g = game()
    nd_hand = "6♥ 8♥ Q♥"
    assert (
        count_show(parse_cards(nd_hand), parse_card("4♠"), dealer=False, rules=g.rules).total == 3
    )
    s = start(g, nd_hand, "J♠ 2♣ 9♦", "4♠", dealer=0, scores=(30, 28))
    assert s.current == 1 and s.phase is Phase.KNAVE
    assert g.legal_actions(s) == (Pass(),)
    s = g.apply(s, Pass())
    assert s.current == 0
    assert g.legal_actions(s) == (ShowKnave(), Pass())
    s = g.apply(s, ShowKnave())
    assert s.scores == (31, 28)
    assert s.events[-2:] == (KnaveShown(0, parse_card("J♠"), 1, 31), Won(0, 31))
    assert not [e for e in s.events if isinstance(e, Shown)]


def test_knave_wins_out_of_turn_historical() -> None:
    """ND-T13 (historical): no step 2; ND's show comes first; ND reaches 31 and wins."""
    g = game("historical")
    nd_hand = "6♥ 8♥ Q♥"
    assert (
        count_show(parse_cards(nd_hand), parse_card("4♠"), dealer=False, rules=g.rules).total == 3
    )
    s = start(g, nd_hand, "J♠ 2♣ 9♦", "4♠", dealer=0, scores=(30, 28))
    assert s.phase is Phase.OVER
    assert s.scores == (30, 31)
    assert s.events[-2:] == (Shown(1, 3, (("flush", 3),), 31), Won(1, 31))


def test_knave_kept_scores_nothing_but_counts_in_the_show() -> None:
    """ND-T14, ND-4.2: ND holds the trump jack and passes: no knave point now or later,
    but the jack counts in ND's show combinations (fifteens, pairs).
    """
    g = game()
    s = start(g, "J♦ J♣ 5♠", "2♣ 3♦ 9♥", "5♦", dealer=0)
    assert g.legal_actions(s) == (ShowKnave(), Pass())
    s = g.apply(s, Pass())
    assert g.legal_actions(s) == (Pass(),)
    s = g.apply(s, Pass())
    nd_show = next(e for e in s.events if isinstance(e, Shown) and e.seat == 1)
    expected = count_show(parse_cards("J♦ J♣ 5♠"), parse_card("5♦"), dealer=False, rules=g.rules)
    assert nd_show.points == expected.total == 16
    assert dict(nd_show.parts) == {"pairs": 4, "fifteens": 8, "twenty-fives": 4}
    while s.current is not None and s.hand == 1:
        s = g.apply(s, g.legal_actions(s)[0])
    assert not [e for e in s.events if isinstance(e, KnaveShown)]


def test_both_players_are_always_asked_in_step_2() -> None:
    """ND-4.2, ND-8.4: step 2 asks the non-dealer then the dealer, knave or not; a forced
    pass is recorded exactly like a chosen one.
    """
    g = game()
    forced = start(g, "2♣ 3♦ 9♥", "4♣ 8♦ Q♠", "6♥", dealer=0)
    chosen = start(g, "J♥ 3♦ 9♥", "4♣ 8♦ Q♠", "6♥", dealer=0)
    assert forced.current == chosen.current == 1
    after_forced = g.apply(forced, Pass())
    after_chosen = g.apply(chosen, Pass())
    assert after_forced.events[-1] == after_chosen.events[-1] == KnavePassed(1)
    assert g.observe(after_forced, 0).events == g.observe(after_chosen, 0).events
    assert after_forced.current == 0


def test_shown_knave_stays_in_hand_and_is_public() -> None:
    """ND-4.2, ND-8.1: the shown jack stays in the holder's hand, known to both."""
    g = game()
    s = start(g, "J♦ 3♦ 9♥", "4♣ 8♦ Q♠", "6♦", dealer=0)
    s = g.apply(s, ShowKnave())
    jack = parse_card("J♦")
    assert jack in s.table.cards(HANDS[1])
    assert s.scores == (0, 1)
    assert jack in g.observe(s, 0).table.cards(HANDS[1])
    assert jack in g.observe(s, -1).table.cards(HANDS[1])


def test_in_count_skips_step_2_and_scores_the_knave_in_the_show() -> None:
    """ND-4.2, ND-6.1: with `knave_noddy=in_count` step 2 is skipped; the knave is in the show."""
    g = game(knave_noddy="in_count")
    s = start(g, "J♦ 3♣ 9♥", "4♣ 8♦ Q♠", "6♦", dealer=0)
    assert s.phase is Phase.PLAY
    nd_show = next(e for e in s.events if isinstance(e, Shown) and e.seat == 1)
    assert ("knave noddy", 1) in nd_show.parts


# ---- step 3: the show (ND-4.3) -------------------------------------------------------


def test_non_dealer_shows_first() -> None:
    """ND-4.3, ND-5.3: the non-dealer's show is counted before the dealer's."""
    g = game()
    s = to_play(g, start(g, "5♥ 5♣ J♠", "7♣ 8♣ A♥", "5♦", dealer=0))
    shows = [e for e in s.events if isinstance(e, Shown)]
    assert [(e.seat, e.points) for e in shows] == [(1, 16), (0, 3)]
    assert s.scores == (3, 16)


def test_win_in_the_show() -> None:
    """ND-T23: ND has 29 and a show worth 4: ND wins at once with 33; D's show is not counted."""
    g = game()
    hand = "7♣ 8♦ K♠"
    assert count_show(parse_cards(hand), parse_card("A♥"), dealer=False, rules=g.rules).total == 4
    s = to_play_or_over(g, start(g, hand, "2♣ 3♦ 9♥", "A♥", dealer=0, scores=(10, 29)))
    assert s.phase is Phase.OVER
    assert s.scores == (10, 33)
    assert [e.seat for e in s.events if isinstance(e, Shown)] == [1]


def to_play_or_over(g: Noddy, s: NoddyState) -> NoddyState:
    while s.phase is Phase.KNAVE:
        s = g.apply(s, Pass())
    return s


def test_an_award_is_added_as_one_block() -> None:
    """ND-5.4: a show is added whole, even past the target."""
    g = game()
    s = to_play_or_over(g, start(g, "5♥ 5♣ J♠", "2♣ 3♦ 9♥", "5♦", dealer=0, scores=(0, 25)))
    assert s.scores == (0, 41)
    assert g.outcome(s) is not None


# ---- step 4: the play (ND-4.4, ND-6.3) -----------------------------------------------


def test_go_when_holding_no_playable_card() -> None:
    """ND-T15, ND-4.4: at 28 the player holding only a 5 goes (not asked); the opponent
    plays on while it holds a card of pip <= 31 - total.
    """
    g = game()
    s = to_play(g, start(g, "10♠ 7♦ 5♣", "2♥ 9♥ A♠", "4♦", dealer=0))
    s = act(g, s, "play 10♠", "play 2♥", "play 7♦", "play 9♥")
    assert s.total == 28
    assert s.events[-1] == Go(1, 28)
    assert s.current == 0
    assert g.legal_actions(s) == (Play(parse_card("A♠")),)
    s = act(g, s, "play A♠")
    assert s.hand == 2
    assert [e for e in hand_events_of(s, 1) if isinstance(e, LastCard)] == [
        LastCard(0, 1, s.scores[0] if s.phase is Phase.OVER else _score_after_hand(s, 1, 0))
    ]


def test_full_play_example() -> None:
    """ND-T16 under both presets: play scores ND 5, D 2 (fifteen, pair, go, twenty-five,
    last card).
    """
    for preset in ("default", "historical"):
        g = game(preset)
        s = to_play(g, start(g, "7♣ 8♦ 2♠", "8♠ 9♥ K♣", "4♥", dealer=0))
        before = s.scores
        s = act(g, s, "play 7♣", "play 8♠", "play 8♦")
        assert s.events[-1] == Go(0, 23)
        assert s.current == 1
        s = act(g, s, "play 2♠")
        assert s.hand == 2
        assert _first_hand_points(s) == (2, 5)
        assert _score_after_hand(s, 1, 0) - before[0] == 2
        assert _score_after_hand(s, 1, 1) - before[1] == 5


def _score_after_hand(s: NoddyState, hand: int, seat: int) -> int:
    """A seat's score at the end of a hand, from the public events."""
    score = 0
    for e in hand_events_of(s, hand):
        if getattr(e, "seat", None) == seat and hasattr(e, "score"):
            score = e.score
    return score


def _first_hand_points(s: NoddyState) -> tuple[int, int]:
    """Points of the play (Played and LastCard events) of hand 1."""
    pts = [0, 0]
    for e in s.events:
        if isinstance(e, Deal) and e.hand == 2:
            break
        if isinstance(e, Played | LastCard):
            pts[e.seat] += e.points
    return (pts[0], pts[1])


def test_full_play_example_events() -> None:
    """ND-T16, ND-8.1: every play, go and award is a public event with its points."""
    g = game()
    s = to_play(g, start(g, "7♣ 8♦ 2♠", "8♠ 9♥ K♣", "4♥", dealer=0))
    s = act(g, s, "play 7♣", "play 8♠", "play 8♦", "play 2♠")
    assert _first_hand_points(s) == (2, 5)
    ev = [e for e in s.events if isinstance(e, Played | Go | LastCard)]
    assert [(type(e).__name__, e.seat) for e in ev] == [
        ("Played", 1),
        ("Played", 0),
        ("Played", 1),
        ("Go", 0),
        ("Played", 1),
        ("LastCard", 1),
    ]
    played = [e for e in ev if isinstance(e, Played)]
    assert [(e.total, e.points) for e in played] == [(7, 0), (15, 2), (23, 2), (25, 2)]
    assert [dict(e.parts) for e in played][1:] == [
        {"fifteens": 2},
        {"pairs": 2},
        {"twenty-fives": 2},
    ]


@pytest.mark.parametrize(("overrides", "d_points"), [({}, 2), ({"last_card_at_31": True}, 3)])
def test_thirty_one(overrides: dict[str, Any], d_points: int) -> None:
    """ND-T17, ND-4.4: reaching 31 scores 2; the last-card point only with
    `last_card_at_31=true`.
    """
    g = game(**overrides)
    s = to_play(g, start(g, "10♠ 9♦ 5♣", "9♥ 2♣ A♦", "4♥", dealer=0))
    s = act(g, s, "play 10♠", "play 9♥", "play 9♦", "play A♦")
    assert s.events[-1] == Go(1, 29)
    s = act(g, s, "play 2♣")
    assert _first_hand_points(s) == (d_points, 2)
    last = [e for e in s.events if isinstance(e, LastCard)]
    assert len(last) == (1 if overrides else 0)


@pytest.mark.parametrize(("preset", "points"), [("default", 4), ("historical", 5)])
def test_sequence_and_fifteen_in_play(preset: str, points: int) -> None:
    """ND-T18: 4♥ (ND), 6♣ (D), 5♦ (ND): fifteen 2 + sequence 4-5-6."""
    g = game(preset)
    s = to_play(g, start(g, "4♥ 5♦ K♠", "6♣ 9♦ K♦", "2♣", dealer=0))
    s = act(g, s, "play 4♥", "play 6♣", "play 5♦")
    last = s.events[-1]
    assert isinstance(last, Played) and last.card == parse_card("5♦")
    assert last.points == points


def test_flush_in_play() -> None:
    """ND-T19: 2♥, 9♥, 4♥: the player of 4♥ scores fifteen 2 + flush 3 = 5."""
    g = game()
    s = to_play(g, start(g, "2♥ 4♥ K♠", "9♥ Q♦ K♦", "3♣", dealer=0))
    s = act(g, s, "play 2♥", "play 9♥", "play 4♥")
    last = s.events[-1]
    assert isinstance(last, Played) and (last.seat, last.points) == (1, 5)


def test_no_sequence_through_the_ace() -> None:
    """ND-T20: 10♠, K♦, A♣, Q♥ (31): Q♥ scores 2 for 31 only; no last-card point."""
    g = game()
    s = to_play(g, start(g, "10♠ A♣ 3♥", "K♦ Q♥ 4♠", "8♣", dealer=0))
    s = act(g, s, "play 10♠", "play K♦", "play A♣", "play Q♥")
    q = next(e for e in s.events if isinstance(e, Played) and e.card == parse_card("Q♥"))
    assert (q.total, q.points, q.parts) == (31, 2, (("thirty-one", 2),))
    assert not [e for e in s.events if isinstance(e, LastCard)]
    assert s.hand == 2


@pytest.mark.parametrize(("preset", "nd", "d"), [("default", 10, 4), ("historical", 11, 4)])
def test_sequence_of_five(preset: str, nd: int, d: int) -> None:
    """ND-T21: 3♠ 4♦ 5♣ 6♥ 7♠: sequences of 3, 4 and 5, a 25 and the last card."""
    g = game(preset)
    s = to_play(g, start(g, "3♠ 5♣ 7♠", "4♦ 6♥ K♥", "9♣", dealer=0))
    s = act(g, s, "play 3♠", "play 4♦", "play 5♣", "play 6♥", "play 7♠")
    assert _first_hand_points(s) == (d, nd)
    assert Go(0, 25) in s.events


def test_must_play_a_playable_card() -> None:
    """ND-T22, ND-4.4: at 28 with 2♣ and 5♦, 2♣ is the only legal action; passing is
    illegal, and 5♦ would pass 31.
    """
    g = game()
    s = to_play(g, start(g, "10♠ 9♦ 9♣", "9♥ 2♣ 5♦", "4♥", dealer=0))
    s = act(g, s, "play 10♠", "play 9♥", "play 9♦")
    assert s.total == 28 and s.current == 0
    assert g.legal_actions(s) == (Play(parse_card("2♣")),)
    with pytest.raises(IllegalActionError, match="must play") as e:
        g.apply(s, Pass())
    assert e.value.legal == (Play(parse_card("2♣")),)
    with pytest.raises(IllegalActionError, match="5♦ would take the count past 31"):
        g.apply(s, Play(parse_card("5♦")))


def test_non_dealer_plays_first_and_turns_alternate() -> None:
    """ND-4.4: the non-dealer acts first; after a play the opponent acts if able."""
    g = game()
    s = to_play(g, start(g, "2♣ 3♦ 4♥", "5♣ 6♦ 7♥", "K♠", dealer=1))
    assert s.current == 0
    s = act(g, s, "play 2♣")
    assert s.current == 1
    s = act(g, s, "play 5♣")
    assert s.current == 0


def test_a_go_is_final_for_the_hand() -> None:
    """ND-4.4: after a go the player never plays again in the hand; the other plays on."""
    g = game()
    s = to_play(g, start(g, "K♠ 9♦ 10♦", "5♥ A♣ 2♣", "3♣", dealer=0))
    s = act(g, s, "play K♠", "play 5♥", "play 9♦", "play 2♣")
    assert s.total == 26
    assert s.events[-1] == Go(1, 26)
    assert s.current == 0
    s = act(g, s, "play A♣")
    assert s.hand == 2
    hand1 = hand_events_of(s, 1)
    assert [e for e in hand1 if isinstance(e, Go)] == [Go(1, 26)]
    assert isinstance(hand1[-1], LastCard) and hand1[-1].seat == 0


def test_last_card_point_when_both_are_out() -> None:
    """ND-4.4, ND-9.7: when all six cards are played below 31, the last card scores 1."""
    g = game()
    s = to_play(g, start(g, "A♣ 2♦ 3♥", "A♦ 2♥ 4♠", "K♠", dealer=0))
    s = act(g, s, "play A♣", "play A♦", "play 2♦", "play 2♥", "play 3♥", "play 4♠")
    last = [e for e in s.events if isinstance(e, LastCard)]
    assert len(last) == 1 and last[0].seat == 0
    assert s.hand == 2


def test_unplayed_cards_are_not_scored() -> None:
    """ND-4.4: unplayed cards are not shown and not scored."""
    g = game()
    s = to_play(g, start(g, "10♠ 9♦ 5♣", "9♥ 2♣ A♦", "4♥", dealer=0))
    s = act(g, s, "play 10♠", "play 9♥", "play 9♦", "play A♦", "play 2♣")
    assert not [e for e in s.events if isinstance(e, Played) and e.card == parse_card("5♣")]


def shows_of(g: Noddy, nd: str, d: str, up: str) -> tuple[int, int]:
    """(dealer's show, non-dealer's show) points."""
    u = parse_card(up)
    return (
        count_show(parse_cards(d), u, dealer=True, rules=g.rules).total,
        count_show(parse_cards(nd), u, dealer=False, rules=g.rules).total,
    )


def test_win_during_the_play_stops_at_once() -> None:
    """ND-5.2: a play score that reaches the target wins at once; nothing later happens."""
    g = game()
    d_show, _ = shows_of(g, "7♣ 8♦ 2♠", "8♠ 9♥ K♣", "4♥")
    s = to_play(g, start(g, "7♣ 8♦ 2♠", "8♠ 9♥ K♣", "4♥", dealer=0, scores=(29 - d_show, 0)))
    assert s.scores[0] == 29
    s = act(g, s, "play 7♣", "play 8♠")
    assert s.phase is Phase.OVER and s.current is None
    assert s.scores[0] == 31
    assert s.events[-1] == Won(0, 31)
    assert g.legal_actions(s) == ()
    with pytest.raises(IllegalActionError, match="the game is over"):
        g.apply(s, Play(parse_card("8♦")))


def test_last_card_point_can_win() -> None:
    """ND-5.3: the last-card point is the last award of a hand and can win the game."""
    g = game()
    _, nd_show = shows_of(g, "7♣ 8♦ 2♠", "8♠ 9♥ K♣", "4♥")
    s = to_play(g, start(g, "7♣ 8♦ 2♠", "8♠ 9♥ K♣", "4♥", dealer=0, scores=(0, 26 - nd_show)))
    s = act(g, s, "play 7♣", "play 8♠", "play 8♦", "play 2♠")
    assert s.events[-2:] == (LastCard(1, 1, 31), Won(1, 31))
    assert s.hand == 1


# ---- award order and game end (ND-5) -------------------------------------------------


def test_award_order_in_a_hand() -> None:
    """ND-1.3, ND-5.3: turn-up jack, knave, non-dealer's show, dealer's show, plays,
    last card.
    """
    g = game(target=200)
    s = start(g, "J♦ 3♦ 9♥", "4♣ 8♦ Q♠", "6♦", dealer=0)
    s = g.apply(s, ShowKnave())
    s = g.apply(s, Pass())
    while s.hand == 1:
        s = g.apply(s, g.legal_actions(s)[0])
    kinds = [type(e).__name__ for e in hand_events_of(s, 1)]
    first_play = kinds.index("Played")
    assert kinds[:first_play] == ["Deal", "KnaveShown", "KnavePassed", "Shown", "Shown"]
    assert kinds[-1] == "LastCard" or kinds[-1] in ("Played", "Go")


def hand_events_of(s: NoddyState, hand: int) -> list[Any]:
    out: list[Any] = []
    current = 0
    for e in s.events:
        if isinstance(e, Deal):
            current = e.hand
        if current == hand:
            out.append(e)
    return out


def test_target_option() -> None:
    """ND-1.2, ND-5.2, ND-6.4, option `target`: the first to reach the target wins at
    once; the other is below it; there is exactly one winner.
    """
    for target in (1, 5, 61):
        g = game(target=target)
        s = g.initial_state(2, target)
        while s.current is not None:
            s = g.apply(s, g.legal_actions(s)[-1])
        hi, lo = max(s.scores), min(s.scores)
        assert hi >= target > lo
        outcome = g.outcome(s)
        assert outcome is not None and len(outcome.winners) == 1
        assert outcome.reason == f"reached {target}"


def test_max_decisions_bound() -> None:
    """ND-4.4, ND-5.1: at most 8 decisions a hand, and every hand awards at least 1 point."""
    assert game().max_decisions(2) == 8 * 61
    assert game(target=1).max_decisions(2) == 8


def test_start_hand_checks_scores() -> None:
    """`start_hand` refuses scores already at the target."""
    g = game()
    with pytest.raises(ValueError, match="scores must be"):
        g.start_hand(scores=(31, 0), dealer=0)
    s = g.start_hand(scores=(3, 4), dealer=1, hand=5, seed=9)
    assert s.hand == 5 and s.dealer == 1 and s.scores[0] >= 3


# ---- illegal actions -------------------------------------------------------------------


def test_illegal_actions_are_refused_in_the_players_words() -> None:
    """ND-4.2, ND-4.4: each illegal action is refused with the reason; the state is unchanged."""
    g = game()
    s = start(g, "2♣ 3♦ 9♥", "4♣ 8♦ Q♠", "6♥", dealer=0)
    snapshot = attrs.evolve(s)
    cases: list[tuple[Any, str]] = [
        (ShowKnave(), r"you do not hold the knave noddy \(J♥, the jack of trumps\)"),
        (Play(parse_card("2♣")), "step 2 .* comes first"),
        ("pass", "not a Noddy action"),
        (None, "not a Noddy action"),
    ]
    for action, reason in cases:
        with pytest.raises(IllegalActionError, match=reason) as e:
            g.apply(s, action)
        assert e.value.legal == (Pass(),)
    s = to_play(g, s)
    snapshot = attrs.evolve(s)
    cases = [
        (Play(parse_card("4♣")), "4♣ is not in your hand"),
        (ShowKnave(), "only in step 2"),
        (Pass(), "must play"),
        (7, "not a Noddy action"),
    ]
    for action, reason in cases:
        with pytest.raises(IllegalActionError, match=reason):
            g.apply(s, action)
    assert s == snapshot


# ---- text forms ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("play 7♥", Play(parse_card("7♥"))),
        ("play 10h", Play(parse_card("10♥"))),
        ("Play Th", Play(parse_card("10♥"))),
        ("play 10♥", Play(parse_card("10♥"))),
        ("qs", Play(parse_card("Q♠"))),
        ("show knave", ShowKnave()),
        ("show_knave", ShowKnave()),
        ("pass", Pass()),
        ("PASS", Pass()),
    ],
)
def test_parse_actions(text: str, action: Any) -> None:
    """Actions parse from what a person types; `str` gives the canonical text back."""
    g = game()
    assert g.parse_action(text) == action
    assert g.parse_action(str(action)) == action


@pytest.mark.parametrize("text", ["", "play", "play 11h", "show", "bid 5", "go"])
def test_bad_action_text(text: str) -> None:
    """Bad text raises ValueError naming the input."""
    if text == "show":
        assert game().parse_action(text) == ShowKnave()
        return
    with pytest.raises(ValueError, match="not a Noddy action"):
        game().parse_action(text)


def test_action_texts() -> None:
    """The canonical texts: `play 7♥`, `show knave`, `pass`."""
    assert str(Play(parse_card("7h"))) == "play 7♥"
    assert str(ShowKnave()) == "show knave"
    assert str(Pass()) == "pass"
