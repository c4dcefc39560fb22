"""Arena intervals: Wilson score intervals over deals that never claim false certainty."""

from __future__ import annotations

import math
import random

import pytest

from cardcore.arena._stats import (
    CI_METHOD,
    Estimate,
    GameResult,
    aggregate,
    complete_deals,
    estimate,
    separation_warnings,
    t_quantile,
    wilson,
)


def _two_bot_deals(deals: int, winner: int) -> list[list[GameResult]]:
    """Duplicate deals of two bots in both seatings, every game won by ``winner``."""
    games = []
    for d in range(deals):
        for seats in ((0, 1), (1, 0)):
            win_seat = seats.index(winner)
            shares = ["1" if s == win_seat else "0" for s in range(2)]
            placing = [1 if s == win_seat else 2 for s in range(2)]
            scores = [1.0 if s == win_seat else 0.0 for s in range(2)]
            outcome = {"scores": scores, "placing": placing, "shares": shares, "forfeit": None}
            games.append(GameResult(deal=d, seats=seats, outcome=outcome))
    return complete_deals(games, 2)


def test_eight_deals_always_won_give_an_interval_of_nonzero_width() -> None:
    """8 deals one bot always wins: its win share is 1 but the interval reaches well below."""
    a, b = aggregate(_two_bot_deals(8, winner=0), 2)
    assert a.win_share.mean == 1.0 and b.win_share.mean == 0.0
    assert a.win_share.low is not None and a.win_share.high == 1.0
    assert 0.5 < a.win_share.low < 0.9
    assert b.win_share.low == 0.0 and b.win_share.high is not None
    assert 0.1 < b.win_share.high < 0.5
    # Placing lies in 1-2 and is never shown as certain either.
    assert a.placing.low == 1.0 and a.placing.high is not None and a.placing.high > 1.1
    # A score equal in every deal has no interval rather than a zero-width one.
    assert a.score.low is None and a.score.high is None


def test_the_old_t_interval_would_have_claimed_certainty() -> None:
    """The check above can fail: a t interval over constant per-deal means has zero width."""
    values = [1.0] * 8
    sd = 0.0
    t_half = t_quantile(0.975, 7) * sd / math.sqrt(8)
    assert t_half == 0.0  # what ``1.000 ± 0.000`` came from
    assert wilson(values, trials=16).half_width not in (None, 0.0)


def test_wilson_matches_the_textbook_formula_for_single_results() -> None:
    """One 0/1 result per deal and 20 deals: the classic Wilson interval, with t for 19 df."""
    values = [1.0] * 14 + [0.0] * 6
    e = wilson(values)
    n, p, z = 20, 0.7, t_quantile(0.975, 19)
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    # The effective size of 0/1 values is p(1-p)/(s^2/n) = n (n - 1) / n, close to n.
    assert e.mean == pytest.approx(0.7)
    assert e.low == pytest.approx(centre - half, abs=0.01)
    assert e.high == pytest.approx(centre + half, abs=0.01)


def test_wilson_rescales_bounded_values() -> None:
    """Placings in 1-4 are rescaled: the interval stays inside 1-4 and around the mean."""
    e = wilson([1.0, 2.0, 1.0, 3.0, 1.0, 4.0], low=1, high=4)
    assert e.low is not None and e.high is not None
    assert 1.0 <= e.low < e.mean < e.high <= 4.0
    assert wilson([], low=1, high=4).low is None
    assert wilson([2.0, 2.0], low=2, high=2).low is None


def test_duplicate_deals_that_cancel_luck_narrow_the_interval() -> None:
    """Per-deal means with little spread give a narrower interval than 0/1 results."""
    steady = [0.5, 0.5, 1.0, 0.5, 0.5, 0.5, 1.0, 0.5, 0.5, 0.5, 1.0, 0.5] * 2  # mean 0.625
    noisy = [1.0, 0.0, 1.0, 1.0, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0, 1.0, 0.0] * 2  # mean 0.583
    hw_steady = wilson(steady, trials=2 * len(steady)).half_width
    hw_noisy = wilson(noisy, trials=2 * len(noisy)).half_width
    assert hw_steady is not None and hw_noisy is not None
    assert hw_steady < hw_noisy


def _coverage(interval: object, *, arenas: int, deals: int, share: float, seed: int) -> float:
    """How often the interval covers the true share over simulated arenas.

    Each deal has its own winning chance around ``share`` (some deals favour the bot);
    the bot plays it in two seatings, so a per-deal mean is 0, 1/2 or 1.
    """
    rng = random.Random(seed)
    spread = min(share, 1 - share, 0.3)
    hits = 0
    for _ in range(arenas):
        values = []
        for _ in range(deals):
            chance = share + rng.uniform(-spread, spread)
            values.append(sum(rng.random() < chance for _ in range(2)) / 2)
        e = interval(values)  # type: ignore[operator]
        hits += e.low is not None and e.low <= share <= e.high
    return hits / arenas


@pytest.mark.parametrize(("deals", "share"), [(8, 0.5), (8, 0.9), (30, 0.7), (30, 0.95)])
def test_intervals_cover_the_true_share_at_about_the_nominal_rate(deals: int, share: float) -> None:
    """200 seeded simulated arenas: the 95% interval covers the true share 92-99.5% of the time."""
    rate = _coverage(
        lambda v: wilson(v, trials=2 * len(v)), arenas=200, deals=deals, share=share, seed=deals
    )
    assert 0.92 <= rate <= 0.995


def test_the_coverage_check_catches_an_overconfident_interval() -> None:
    """The same simulation shows the old t interval covering a share of 0.9 far too rarely."""
    rate = _coverage(estimate, arenas=200, deals=8, share=0.9, seed=8)
    assert rate < 0.9


def test_too_few_deals_to_separate_the_bots_is_warned() -> None:
    """Overlapping win-share intervals give one warning naming both bots; separated ones none."""
    close = [wilson([1.0, 0.0, 1.0, 0.5]), wilson([0.0, 1.0, 0.0, 0.5])]
    lines = separation_warnings(["alpha", "beta"], close, 4)
    assert len(lines) == 1
    assert "4 deals cannot tell alpha from beta" in lines[0]
    assert "deals would show it" in lines[0]
    far = [wilson([1.0] * 30, trials=60), wilson([0.0] * 30, trials=60)]
    assert separation_warnings(["alpha", "beta"], far, 30) == []
    # Three bots: the leader stands apart, the two below it overlap: one warning for them.
    three = [wilson([0.0, 1.0, 0.0, 0.0] * 5), wilson([1.0] * 20), wilson([0.0, 0.0, 1.0, 0.0] * 5)]
    (line,) = separation_warnings(["a", "b", "c"], three, 20)
    assert "cannot tell a from c" in line or "cannot tell c from a" in line
    assert "gap" not in line  # equal means: no guess at the deals needed
    unknown = Estimate(mean=math.nan, low=None, high=None)
    assert separation_warnings(["alpha", "beta"], [unknown, unknown], 0) == []


def test_the_method_is_named() -> None:
    """The table's note says which interval each column uses."""
    assert "Wilson score" in CI_METHOD and "Student t for score" in CI_METHOD


def test_the_arena_table_names_the_method_and_warns() -> None:
    """Two random bots over 3 deals: the table shows Wilson ranges and the overlap warning."""
    from cardcore.arena import run_arena

    result = run_arena("highcard", ["random", "random"], games=3, seed=2, workers=0, db=None)
    text = result.table()
    assert "Wilson score" in text
    assert "± 0.000" not in text and "[" in text
    assert "3 deals cannot tell" in text
    assert result.to_json()["warnings"] == result.warnings()
    assert result.warnings()
