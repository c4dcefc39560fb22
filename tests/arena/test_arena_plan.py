"""Arena planning: seating arrangements, seeds, bot lists and the statistics helpers."""

from __future__ import annotations

import math
from collections import Counter

import pytest

from cardcore.arena import (
    BotEntry,
    arrangements,
    bot_seed,
    deal_seed,
    default_players,
    parse_bots,
    t_quantile,
)
from cardcore.arena._stats import (
    GameResult,
    aggregate,
    complete_deals,
    estimate,
    per_game,
    wilson,
)

DEAL_1_0 = 9125670256255328672
BOT_1_2_3_1 = 5536486252751412426


def _seat_counts(plan: tuple[tuple[int, ...], ...], bots: int) -> set[int]:
    """How often each (seat, bot) pair occurs over the plan."""
    pairs = Counter((s, b) for arr in plan for s, b in enumerate(arr))
    return {pairs[(s, b)] for s in range(len(plan[0])) for b in range(bots)}


@pytest.mark.parametrize(
    ("bots", "seats", "count"),
    [(1, 2, 1), (2, 2, 2), (2, 3, 6), (2, 4, 6), (3, 3, 6), (3, 4, 36), (4, 4, 24)],
)
def test_all_arrangements_are_balanced_and_fair(bots: int, seats: int, count: int) -> None:
    """Every bot holds its fair number of seats and sits in every seat equally often."""
    plan = arrangements(bots, seats)
    assert len(plan) == count
    assert len(set(plan)) == count
    for arr in plan:
        held = Counter(arr)
        assert set(held) == set(range(bots))
        assert max(held.values()) - min(held.values()) <= 1
    assert len(_seat_counts(plan, bots)) == 1


@pytest.mark.parametrize(("bots", "seats"), [(2, 2), (2, 3), (3, 4), (4, 4), (2, 5)])
def test_rotations_are_fair_too(bots: int, seats: int) -> None:
    """Rotations also give every bot every seat equally often, with fewer games."""
    plan = arrangements(bots, seats, seating="rotate")
    assert len(plan) <= len(arrangements(bots, seats))
    assert len(_seat_counts(plan, bots)) == 1


def test_partnership_bots_play_as_teams() -> None:
    """With teams {0,2} and {1,3}, each bot holds a whole team, and the teams swap."""
    plan = arrangements(2, 4, ((0, 2), (1, 3)))
    assert plan == ((0, 1, 0, 1), (1, 0, 1, 0))


def test_partnership_with_one_bot_per_seat_permutes_seats() -> None:
    """Four bots at a four-seat partnership game: every seat arrangement (24)."""
    assert len(arrangements(4, 4, ((0, 2), (1, 3)))) == 24


def test_partnership_refuses_an_unfair_bot_count() -> None:
    """Three bots cannot be split fairly over two teams of two."""
    with pytest.raises(ValueError, match="at most 2 bots"):
        arrangements(3, 4, ((0, 2), (1, 3)))


def test_more_bots_than_seats_is_refused() -> None:
    """Every bot must get a seat."""
    with pytest.raises(ValueError, match="cannot fill"):
        arrangements(3, 2)


def test_default_players() -> None:
    """One seat per bot when allowed, else the game's minimum; too many bots is an error."""
    assert default_players(3, 2, 4) == 3
    assert default_players(2, 4, 4) == 4
    with pytest.raises(ValueError, match="at most 4"):
        default_players(5, 2, 4)


def test_seeds_are_fixed_distinct_and_in_range() -> None:
    """Seeds derive from the arena seed alone, differ per game, and fit in 63 bits."""
    assert deal_seed(1, 0) == deal_seed(1, 0)
    seeds = {deal_seed(s, d) for s in range(3) for d in range(50)}
    assert len(seeds) == 150
    bots = {bot_seed(1, d, a, s) for d in range(10) for a in range(6) for s in range(4)}
    assert len(bots) == 240
    assert all(0 <= x < 2**63 for x in seeds | bots)
    # Pinned: stored runs resume only if the derivation never changes.
    assert deal_seed(1, 0) == DEAL_1_0
    assert bot_seed(1, 2, 3, 1) == BOT_1_2_3_1


def test_parse_bots_handles_options_paths_and_duplicates() -> None:
    """Ids, import paths and options parse; duplicate entries get distinct labels."""
    got = parse_bots("random,ismcts:iterations=200:explore=1.5,pkg.mod:Bot:depth=2,random")
    assert [b.name for b in got] == ["random", "ismcts", "pkg.mod:Bot", "random"]
    assert got[1].options == (("explore", 1.5), ("iterations", 200))
    assert got[2].options == (("depth", 2),)
    assert got[2].is_import_path and not got[0].is_import_path
    assert [b.label for b in got] == [
        "random",
        "ismcts:iterations=200:explore=1.5",
        "pkg.mod:Bot:depth=2",
        "random#2",
    ]
    assert got[1].spec == "ismcts:explore=1.5:iterations=200"
    assert isinstance(got[0], BotEntry)


@pytest.mark.parametrize("text", ["", "random,,random", "random:=3", "random:a=1:b"])
def test_parse_bots_rejects_malformed_lists(text: str) -> None:
    """Empty names and options without ``=`` are errors."""
    with pytest.raises(ValueError, match=r"empty|key=value|no name"):
        parse_bots(text)


@pytest.mark.parametrize(
    ("df", "value"), [(1, 12.7062), (2, 4.3027), (5, 2.5706), (9, 2.2622), (30, 2.0423)]
)
def test_t_quantile_matches_known_values(df: int, value: float) -> None:
    """The 97.5% quantile of Student's t agrees with published tables to 4 decimals."""
    assert t_quantile(0.975, df) == pytest.approx(value, abs=5e-4)


def test_t_quantile_tends_to_the_normal() -> None:
    """For many degrees of freedom the normal quantile is used."""
    assert t_quantile(0.975, 5000) == pytest.approx(1.95996, abs=1e-4)


def test_estimate_interval() -> None:
    """Mean ± t * s / sqrt(n); a single value, or equal values, have no interval."""
    e = estimate([0.0, 1.0, 0.0, 1.0])
    half = t_quantile(0.975, 3) * math.sqrt(1 / 3) / 2
    assert e.mean == 0.5
    assert e.half_width == pytest.approx(half)
    assert estimate([0.7]).low is None
    assert estimate([0.7, 0.7, 0.7]).low is None


def _outcome(scores: list[float], placing: list[int], shares: list[str]) -> dict[str, object]:
    return {"scores": scores, "placing": placing, "shares": shares, "forfeit": None}


def test_per_game_sums_shares_and_averages_seats() -> None:
    """A bot holding two seats: mean score and placing over them, win shares added."""
    out = _outcome([3.0, 1.0, 3.0, 0.0], [1, 3, 1, 4], ["1/2", "0", "1/2", "0"])
    assert per_game((0, 1, 0, 1), out, 0) == (3.0, 1.0, 1.0)
    assert per_game((0, 1, 0, 1), out, 1) == (0.5, 0.0, 3.5)


def test_aggregate_averages_per_deal_and_keeps_complete_deals() -> None:
    """Deals missing an arrangement are left out; intervals are over per-deal means."""
    win = _outcome([1.0, 0.0], [1, 2], ["1", "0"])
    lose = _outcome([0.0, 1.0], [2, 1], ["0", "1"])
    games = [
        GameResult(deal=0, seats=(0, 1), outcome=win),  # bot 0 wins both seatings
        GameResult(deal=0, seats=(1, 0), outcome=lose),
        GameResult(deal=1, seats=(0, 1), outcome=win),  # split
        GameResult(deal=1, seats=(1, 0), outcome=win),
        GameResult(deal=2, seats=(0, 1), outcome=win),  # incomplete: left out
    ]
    deals = complete_deals(games, 2)
    assert [d[0].deal for d in deals] == [0, 1]
    a, b = aggregate(deals, 2)
    assert a.games == b.games == 4
    assert a.win_share.mean == pytest.approx(0.75)
    assert b.win_share.mean == pytest.approx(0.25)
    # Per-deal means of bot 0: 1.0 and 0.5; the Wilson interval over them (see test_stats).
    assert a.win_share == wilson([1.0, 0.5], trials=4)
    assert a.score == estimate([1.0, 0.5])
    assert a.forfeits == 0
