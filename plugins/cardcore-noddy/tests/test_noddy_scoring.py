"""The show counter (ND-6.1, ND-6.2) and the play scorer (ND-6.3) on their own."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardcore import DECK_52, Card, Rank, parse_card, parse_cards
from cardcore_noddy import PRESETS, Breakdown, NoddyOptions, ScoringRules, count_show, score_play
from cardcore_noddy.scoring import MAX_SHOW, PIP, SEQ, show_mask


def rules_of(options: NoddyOptions) -> ScoringRules:
    return ScoringRules(
        twentyfive=options.twentyfive,
        run_values=ScoringRules.run_table(options.run_values),
        ace_bonus=options.ace_bonus,
        knave_in_count=options.knave_noddy == "in_count",
    )


DEFAULT = rules_of(PRESETS["default"])
HISTORICAL = rules_of(PRESETS["historical"])
ALL_RULES = [
    ScoringRules(
        twentyfive=tf,
        run_values=ScoringRules.run_table(rv),
        ace_bonus=ab,
        knave_in_count=kn,
    )
    for tf in (True, False)
    for rv in ("seed", "per_card")
    for ab in (True, False)
    for kn in (True, False)
]


def show(text: str, up: str, rules: ScoringRules, *, dealer: bool = False) -> Breakdown:
    return count_show(parse_cards(text), parse_card(up), dealer=dealer, rules=rules)


# ---- an independent, naive reading of ND-6.1 / ND-6.3 to compare against ---------------


def seq_rank(c: Card) -> int:
    return 1 if c.rank is Rank.ACE else int(c.rank)


def pip(c: Card) -> int:
    return min(seq_rank(c), 10)


def naive_show(hand: list[Card], up: Card, rules: ScoringRules, dealer: bool) -> dict[str, int]:
    cards = [*hand, up]
    out: Counter[str] = Counter()
    for a, b in itertools.combinations(cards, 2):
        if seq_rank(a) == seq_rank(b):
            out["pairs"] += 2
    for k in range(1, 5):
        for sub in itertools.combinations(cards, k):
            total = sum(pip(c) for c in sub)
            if total == 15:
                out["fifteens"] += 2
            if total == 25 and rules.twentyfive:
                out["twenty-fives"] += 2
    for length in (5, 4, 3):
        runs = 0
        for sub in itertools.combinations(cards, length):
            ranks = sorted(seq_rank(c) for c in sub)
            if all(ranks[i + 1] == ranks[i] + 1 for i in range(length - 1)):
                runs += 1
        if runs:
            out["sequences"] += runs * rules.run_values[length]
            break
    suits = Counter(c.suit for c in cards).most_common(1)[0][1]
    if suits >= 3:
        out["flush"] += suits
    if rules.ace_bonus:
        out["ace in hand"] += sum(1 for c in hand if c.rank is Rank.ACE)
        if dealer and up.rank is Rank.ACE:
            out["turned-up ace"] += 2
    if rules.knave_in_count and any(c.rank is Rank.JACK and c.suit == up.suit for c in hand):
        out["knave noddy"] += 1
    return {k: v for k, v in out.items() if v}


def naive_play(pile: list[Card], rules: ScoringRules) -> int:
    total = sum(pip(c) for c in pile)
    points = 0
    if total in {15, 31} or (total == 25 and rules.twentyfive):
        points += 2
    last = pile[-1]
    m = 0
    for c in reversed(pile):
        if seq_rank(c) != seq_rank(last):
            break
        m += 1
    points += {1: 0, 2: 2, 3: 6, 4: 12}[m]
    for n in range(len(pile), 2, -1):
        ranks = sorted(seq_rank(c) for c in pile[-n:])
        if all(ranks[i + 1] == ranks[i] + 1 for i in range(n - 1)):
            points += rules.run_values[n]
            break
    f = 0
    for c in reversed(pile):
        if c.suit != last.suit:
            break
        f += 1
    if f >= 3:
        points += f
    return points


# ---- the worked examples ND-T1 .. ND-T9 -----------------------------------------------

SHOW_EXAMPLES = [
    # id, hand, turn-up, dealer?, default points, historical points
    ("ND-T1", "5♥ 5♣ J♠", "5♦", False, 16, 16),
    ("ND-T2", "K♣ Q♦ 5♠", "10♥", False, 12, 12),
    ("ND-T3", "5♥ 6♥ 6♣", "7♥", False, 9, 11),
    ("ND-T4", "J♦ 4♦ A♦", "9♦", False, 7, 7),
    ("ND-T5", "3♠ 4♠ 5♠", "6♠", False, 10, 10),
    ("ND-T6", "7♣ 8♣ A♥", "7♦", False, 9, 8),
    ("ND-T7", "J♣ Q♣ K♣", "9♣", False, 6, 8),
    ("ND-T8", "7♣ 8♦ K♠", "A♥", True, 6, 4),
    ("ND-T8", "7♣ 8♦ K♠", "A♥", False, 4, 4),
    ("ND-T9", "5♥ 5♦ 5♣", "5♠", False, 20, 20),
]


@pytest.mark.parametrize(("rule", "hand", "up", "dealer", "default", "historical"), SHOW_EXAMPLES)
def test_worked_show_examples(
    rule: str, hand: str, up: str, dealer: bool, default: int, historical: int
) -> None:
    """ND-T1..ND-T9: each worked show under `default` and `historical` (ND-6.1, ND-6.2)."""
    assert show(hand, up, DEFAULT, dealer=dealer).total == default, rule
    assert show(hand, up, HISTORICAL, dealer=dealer).total == historical, rule


@pytest.mark.parametrize(
    ("hand", "up", "rules", "dealer", "parts"),
    [
        # ND-T1: three 5s (6); fifteens J+5 x3 and 5+5+5 (8); twenty-five J+5+5+5 (2).
        ("5♥ 5♣ J♠", "5♦", DEFAULT, False, {"pairs": 6, "fifteens": 8, "twenty-fives": 2}),
        # ND-T2: 10-Q-K is not a sequence (no J).
        ("K♣ Q♦ 5♠", "10♥", DEFAULT, False, {"fifteens": 6, "twenty-fives": 6}),
        ("5♥ 6♥ 6♣", "7♥", DEFAULT, False, {"pairs": 2, "sequences": 4, "flush": 3}),
        ("5♥ 6♥ 6♣", "7♥", HISTORICAL, False, {"pairs": 2, "sequences": 6, "flush": 3}),
        ("J♦ 4♦ A♦", "9♦", DEFAULT, False, {"fifteens": 2, "flush": 4, "ace in hand": 1}),
        ("J♦ 4♦ A♦", "9♦", HISTORICAL, False, {"fifteens": 2, "flush": 4, "knave noddy": 1}),
        ("3♠ 4♠ 5♠", "6♠", DEFAULT, False, {"fifteens": 2, "sequences": 4, "flush": 4}),
        ("7♣ 8♣ A♥", "7♦", DEFAULT, False, {"pairs": 2, "fifteens": 6, "ace in hand": 1}),
        ("J♣ Q♣ K♣", "9♣", DEFAULT, False, {"sequences": 2, "flush": 4}),
        ("J♣ Q♣ K♣", "9♣", HISTORICAL, False, {"sequences": 3, "flush": 4, "knave noddy": 1}),
        ("7♣ 8♦ K♠", "A♥", DEFAULT, True, {"fifteens": 2, "twenty-fives": 2, "turned-up ace": 2}),
        ("5♥ 5♦ 5♣", "5♠", DEFAULT, False, {"pairs": 12, "fifteens": 8}),
    ],
)
def test_worked_show_breakdowns(
    hand: str, up: str, rules: ScoringRules, dealer: bool, parts: dict[str, int]
) -> None:
    """ND-T1..ND-T9 and ND-8.1: the breakdown by combination type is the announced one."""
    got = show(hand, up, rules, dealer=dealer)
    assert dict(got.parts) == parts
    assert got.total == sum(parts.values())


def test_show_without_the_knave_in_count_never_scores_the_knave() -> None:
    """ND-6.1: with `knave_noddy=show_early` the knave scores only in step 2, never in a show."""
    assert "knave noddy" not in dict(show("J♦ 4♦ A♦", "9♦", DEFAULT).parts)


def test_turned_up_ace_scores_for_the_dealer_only() -> None:
    """ND-6.1: the turned-up ace is 2 in the dealer's show only (with `ace_bonus`)."""
    assert dict(show("2♣ 9♦ K♠", "A♥", DEFAULT, dealer=True).parts) == {"turned-up ace": 2}
    assert show("2♣ 9♦ K♠", "A♥", DEFAULT, dealer=False).total == 0


def test_ace_in_hand_counts_each_ace() -> None:
    """ND-6.1: each ace among the player's own 3 cards scores 1 with `ace_bonus=true`."""
    got = show("A♣ A♦ 9♠", "3♥", DEFAULT)
    assert dict(got.parts) == {"pairs": 2, "ace in hand": 2}
    off = ScoringRules(ace_bonus=False)
    assert dict(show("A♣ A♦ 9♠", "3♥", off).parts) == {"pairs": 2}


def test_twentyfive_option_in_the_show() -> None:
    """ND-6.1, option `twentyfive`: subsets summing to 25 score 2 each only when on."""
    assert dict(show("K♣ Q♦ 5♠", "10♥", ScoringRules(twentyfive=False)).parts) == {"fifteens": 6}


def test_sequence_of_four_hides_the_threes() -> None:
    """ND-6.1: with a sequence of 4, the 3-card sequences inside it are not scored."""
    assert dict(show("2♣ 3♦ 4♥", "5♠", DEFAULT).parts) == {"sequences": 4}


def test_ace_is_low_in_show_sequences() -> None:
    """ND-2.1: A-2-3 is a sequence, Q-K-A is not."""
    assert dict(show("A♣ 2♦ 3♥", "9♠", DEFAULT).parts).get("sequences") == 2
    assert "sequences" not in dict(show("Q♣ K♦ A♥", "7♠", DEFAULT).parts)


def test_flush_counts_the_largest_suit_group_once() -> None:
    """ND-6.1: a flush counts once, the largest same-suit group (3 or 4)."""
    assert dict(show("2♣ 7♣ 9♣", "K♦", DEFAULT).parts) == {"flush": 3}
    assert dict(show("2♣ 7♣ 9♣", "K♣", DEFAULT).parts) == {"flush": 4}
    assert show("2♣ 7♣ 9♦", "K♥", DEFAULT).total == 0


def test_pip_values() -> None:
    """ND-2.2: A = 1, 2-10 face value, J Q K = 10; ND-2.1: sequence ranks A = 1 .. K = 13."""
    assert [PIP[parse_card(t).id] for t in ("A♠", "2♠", "9♠", "10♠", "J♠", "Q♠", "K♠")] == [
        1,
        2,
        9,
        10,
        10,
        10,
        10,
    ]
    assert [SEQ[parse_card(t).id] for t in ("A♠", "10♠", "J♠", "Q♠", "K♠")] == [1, 10, 11, 12, 13]


def test_show_needs_three_distinct_cards() -> None:
    """ND-6.1: the show set is 3 cards plus the turn-up."""
    with pytest.raises(ValueError, match="3 distinct cards"):
        show("5♥ 5♣", "5♦", DEFAULT)
    with pytest.raises(ValueError, match="3 distinct cards"):
        show("5♥ 5♣ 5♦", "5♦", DEFAULT)


def _canonical_suits() -> list[tuple[int, int, int]]:
    """Hand suits with the turn-up's suit as 0, other suits up to relabelling."""
    out = []
    for suits in itertools.product(range(4), repeat=3):
        others = [s for s in suits if s]
        firsts = list(dict.fromkeys(others))
        if firsts == list(range(1, len(firsts) + 1)):
            out.append((suits[0], suits[1], suits[2]))
    return out


@pytest.mark.parametrize("preset", ["default", "historical"])
def test_show_maximum_is_twenty_exhaustively(preset: str) -> None:
    """ND-9.5: over every show (ranks, turn-up, suit pattern, seat) the total is 0..20."""
    rules = rules_of(PRESETS[preset])
    best = 0
    suit_patterns = _canonical_suits()
    for up_rank in range(13):
        up = up_rank  # suit 0 (clubs): other suits are relabelled
        for ranks in itertools.combinations_with_replacement(range(13), 3):
            for suits in suit_patterns:
                ids = [s * 13 + r for s, r in zip(suits, ranks, strict=True)]
                if len({*ids, up}) != 4:
                    continue
                mask = sum(1 << c for c in ids)
                for dealer in (False, True):
                    total = show_mask(mask, up, dealer=dealer, rules=rules).total
                    assert 0 <= total <= MAX_SHOW
                    best = max(best, total)
    assert best == MAX_SHOW


hands = st.lists(st.sampled_from(DECK_52), min_size=4, max_size=4, unique=True)


@settings(max_examples=300, deadline=None)
@given(hands, st.sampled_from(ALL_RULES), st.booleans(), st.permutations(range(3)))
def test_show_matches_a_naive_count_and_ignores_order(
    cards: list[Card], rules: ScoringRules, dealer: bool, order: list[int]
) -> None:
    """ND-6.1: the counter agrees with a naive reading, is within 0..20 (ND-9.5), and
    does not depend on the order of the hand's cards.
    """
    hand, up = cards[:3], cards[3]
    got = count_show(hand, up, dealer=dealer, rules=rules)
    assert dict(got.parts) == naive_show(hand, up, rules, dealer)
    assert 0 <= got.total <= MAX_SHOW
    assert count_show([hand[i] for i in order], up, dealer=dealer, rules=rules) == got


# ---- the play scorer -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rule", "pile", "rules", "points"),
    [
        ("ND-T16 fifteen", "7♣ 8♠", DEFAULT, 2),
        ("ND-T16 pair", "7♣ 8♠ 8♦", DEFAULT, 2),
        ("ND-T16 twenty-five", "7♣ 8♠ 8♦ 2♠", DEFAULT, 2),
        ("ND-T17 pair", "10♠ 9♥ 9♦", DEFAULT, 2),
        ("ND-T17 31", "10♠ 9♥ 9♦ A♦ 2♣", DEFAULT, 2),
        ("ND-T18 default", "4♥ 6♣ 5♦", DEFAULT, 4),
        ("ND-T18 historical", "4♥ 6♣ 5♦", HISTORICAL, 5),
        ("ND-T19", "2♥ 9♥ 4♥", DEFAULT, 5),
        ("ND-T20", "10♠ K♦ A♣ Q♥", DEFAULT, 2),
        ("ND-T21 5♣ default", "3♠ 4♦ 5♣", DEFAULT, 2),
        ("ND-T21 5♣ historical", "3♠ 4♦ 5♣", HISTORICAL, 3),
        ("ND-T21 6♥", "3♠ 4♦ 5♣ 6♥", DEFAULT, 4),
        ("ND-T21 7♠", "3♠ 4♦ 5♣ 6♥ 7♠", DEFAULT, 7),
        ("ND-6.3 three of a kind", "9♣ 9♦ 9♥", DEFAULT, 6),
        ("ND-6.3 four of a kind", "2♣ 2♦ 2♥ 2♠", DEFAULT, 12),
        ("ND-6.3 pair broken by a gap", "9♣ 3♦ 9♥", DEFAULT, 0),
        ("ND-6.3 run in any order", "4♣ 3♦ 6♥ 5♠", DEFAULT, 4),
        ("ND-6.3 run of six", "A♣ 2♦ 3♥ 4♠ 5♣ 6♦", DEFAULT, 6),
        ("ND-6.3 run only the last cards", "A♣ 9♦ 6♥ 7♠ 8♣", DEFAULT, 2 + 4),
        ("ND-6.3 flush of four", "2♥ 3♥ 9♥ K♥", DEFAULT, 4),
        ("ND-6.3 flush broken", "2♣ 3♥ 9♥ K♥", DEFAULT, 3),
        ("ND-2.1 Q-K-A is not a run", "Q♣ K♦ A♥", DEFAULT, 0),
        ("ND-2.1 A-2-3 is a run", "A♣ 2♦ 3♥", DEFAULT, 2),
        ("ND-6.3 25 without twentyfive", "7♣ 8♠ 8♦ 2♠", ScoringRules(twentyfive=False), 0),
        ("ND-6.3 a single card", "5♣", DEFAULT, 0),
    ],
)
def test_play_scores(rule: str, pile: str, rules: ScoringRules, points: int) -> None:
    """ND-6.3 (and ND-T16..ND-T21): what the last card of the pile scores."""
    assert score_play(parse_cards(pile), rules).total == points, rule


def test_play_breakdown_names_the_combinations() -> None:
    """ND-6.3, ND-8.1: a play's points come with their combination types."""
    got = score_play(parse_cards("3♠ 4♦ 5♣ 6♥ 7♠"), DEFAULT)
    assert dict(got.parts) == {"twenty-fives": 2, "sequences": 5}
    assert str(got) == "twenty-fives 2, sequences 5"
    assert str(score_play(parse_cards("5♣"), DEFAULT)) == "nothing"
    with pytest.raises(ValueError, match="empty"):
        score_play([], DEFAULT)


@st.composite
def piles(draw: st.DrawFn) -> list[Card]:
    cards = draw(st.lists(st.sampled_from(DECK_52), min_size=1, max_size=6, unique=True))
    out: list[Card] = []
    total = 0
    for c in cards:
        if total + pip(c) > 31:
            break
        out.append(c)
        total += pip(c)
    return out


@settings(max_examples=400, deadline=None)
@given(piles(), st.sampled_from(ALL_RULES))
def test_play_matches_a_naive_count(pile: list[Card], rules: ScoringRules) -> None:
    """ND-6.3: the play scorer agrees with a naive reading on random piles up to 31."""
    assert score_play(pile, rules).total == naive_play(pile, rules)


def test_run_values_tables() -> None:
    """ND-6.2: `seed` 2/4/5/6 and `per_card` 3/4/5/6 for lengths 3..6."""
    assert ScoringRules.run_table("seed")[3:] == (2, 4, 5, 6)
    assert ScoringRules.run_table("per_card")[3:] == (3, 4, 5, 6)
    with pytest.raises(ValueError, match="run_values"):
        ScoringRules.run_table("bogus")


def test_find_show_deals_cards_that_fit_an_announced_show() -> None:
    """ND-4.3: the determinisation helper finds hidden cards matching a breakdown, or 0."""
    import random

    from cardcore_noddy.scoring import find_show

    up = parse_card("5♦").id
    fixed = parse_card("5♥").bit
    cards = [c.id for c in DECK_52 if c.id != up and c.id != parse_card("5♥").id]
    wanted = show("5♥ 5♣ J♠", "5♦", DEFAULT).parts
    rnd = random.Random(4).random
    found = find_show(
        fixed, cards, 2, up, dealer=False, rules=DEFAULT, parts=wanted, tries=200_000, rnd=rnd
    )
    assert found and (found & fixed) == 0 and found.bit_count() == 2
    assert show_mask(fixed | found, up, dealer=False, rules=DEFAULT).parts == wanted
    impossible = (("pairs", 12), ("flush", 4))
    assert (
        find_show(
            fixed, cards, 2, up, dealer=False, rules=DEFAULT, parts=impossible, tries=500, rnd=rnd
        )
        == 0
    )
    assert (
        find_show(fixed, [1], 2, up, dealer=False, rules=DEFAULT, parts=(), tries=5, rnd=rnd) == 0
    )
