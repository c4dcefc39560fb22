"""Per-bot statistics of an arena: means with confidence intervals, and ratings.

The unit of independence is the *deal*: its arrangements share the cards, so their
results are correlated (that is the point of duplicate deals: the luck cancels). Each
bot's results are therefore averaged per deal first, and a Student t interval is taken
over the per-deal means. Only complete deals (every arrangement finished) count.
"""

from __future__ import annotations

import functools
import math
import statistics
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any, Final, final

import attrs

__all__ = ["CI_METHOD", "Estimate", "Rating", "aggregate", "openskill_ratings", "t_quantile"]

CI_METHOD: Final = "95% Student t interval over per-deal means"


@final
@attrs.frozen(kw_only=True)
class Estimate:
    """A mean with its 95% confidence interval (``None`` bounds: too few deals)."""

    mean: float
    """The mean over deals of the per-deal means."""
    low: float | None
    """Lower end of the 95% confidence interval."""
    high: float | None
    """Upper end of the 95% confidence interval."""

    @property
    def half_width(self) -> float | None:
        """Half the interval's width (the ``±`` figure), if known."""
        return None if self.low is None or self.high is None else (self.high - self.low) / 2

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {"mean": self.mean, "low": self.low, "high": self.high}


@final
@attrs.frozen(kw_only=True)
class Rating:
    """An openskill rating: skill ``mu`` with uncertainty ``sigma``."""

    mu: float
    """Estimated skill."""
    sigma: float
    """Its uncertainty (one standard deviation)."""

    @property
    def ordinal(self) -> float:
        """A conservative skill figure, ``mu - 3 sigma``."""
        return self.mu - 3 * self.sigma

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {"mu": self.mu, "sigma": self.sigma, "ordinal": self.ordinal}


# ---- Student t quantile ----------------------------------------------------------------


def _t_density(x: float, df: int) -> float:
    c = math.lgamma((df + 1) / 2) - math.lgamma(df / 2) - 0.5 * math.log(df * math.pi)
    return math.exp(c - (df + 1) / 2 * math.log1p(x * x / df))


def _t_cdf_upper_half(x: float, df: int, steps: int = 400) -> float:
    """P(0 <= T <= x) by Simpson's rule (the density is smooth and bounded)."""
    h = x / steps
    total = _t_density(0.0, df) + _t_density(x, df)
    for i in range(1, steps):
        total += (4 if i % 2 else 2) * _t_density(i * h, df)
    return total * h / 3


@functools.lru_cache(maxsize=256)
def t_quantile(p: float, df: int) -> float:
    """The ``p`` quantile (``0.5 < p < 1``) of Student's t distribution with ``df`` degrees.

    Newton's method on a numerically integrated distribution function, started at the
    normal quantile (below the root, where the function is concave, so every step stays
    below it); past 1000 degrees of freedom the normal quantile itself is used.
    """
    if not 0.5 < p < 1 or df < 1:
        raise ValueError("t_quantile needs 0.5 < p < 1 and df >= 1")
    x = statistics.NormalDist().inv_cdf(p)
    if df > 1000:
        return x
    target = p - 0.5
    for _ in range(100):
        step = (target - _t_cdf_upper_half(x, df)) / _t_density(x, df)
        x += step
        if abs(step) < 1e-10 * x:
            break
    return x


def estimate(values: Sequence[float]) -> Estimate:
    """The mean of independent values with a 95% Student t confidence interval."""
    n = len(values)
    if n == 0:
        return Estimate(mean=math.nan, low=None, high=None)
    mean = math.fsum(values) / n
    if n < 2:
        return Estimate(mean=mean, low=None, high=None)
    half = t_quantile(0.975, n - 1) * statistics.stdev(values) / math.sqrt(n)
    return Estimate(mean=mean, low=mean - half, high=mean + half)


# ---- aggregation -----------------------------------------------------------------------


@final
@attrs.frozen(kw_only=True)
class GameResult:
    """One finished game as the statistics need it."""

    deal: int
    """The deal index."""
    seats: tuple[int, ...]
    """The entrant of each seat."""
    outcome: Mapping[str, Any]
    """``Outcome.to_json`` data."""
    values: Mapping[int, tuple[float, float, float]] = attrs.field(
        init=False,
        default=attrs.Factory(lambda self: _values(self.seats, self.outcome), takes_self=True),
    )
    """Per entrant in the game, its (score, win share, placing): see :func:`per_game`."""


def _values(
    seats: Sequence[int], outcome: Mapping[str, Any]
) -> dict[int, tuple[float, float, float]]:
    return {e: per_game(seats, outcome, e) for e in sorted(set(seats))}


@final
@attrs.frozen(kw_only=True)
class EntrantSummary:
    """The aggregated results of one entrant."""

    games: int
    """Games it played (in complete deals)."""
    forfeits: int
    """Games it lost by forfeit."""
    score: Estimate
    """Mean score (averaged over its seats in a game)."""
    win_share: Estimate
    """Mean share of the win (summed over its seats: 1 when it alone wins)."""
    placing: Estimate
    """Mean placing, 1 for first (averaged over its seats)."""


def per_game(
    seats: Sequence[int], outcome: Mapping[str, Any], entrant: int
) -> tuple[float, float, float]:
    """An entrant's (score, win share, placing) in one game."""
    mine = [s for s, e in enumerate(seats) if e == entrant]
    scores = outcome["scores"]
    placing = outcome["placing"]
    shares = outcome["shares"]
    score = math.fsum(float(scores[s]) for s in mine) / len(mine)
    share = float(sum((_fraction(shares[s]) for s in mine), Fraction(0)))
    place = math.fsum(float(placing[s]) for s in mine) / len(mine)
    return score, share, place


def _fraction(text: str) -> Fraction:
    if text == "0":
        return Fraction(0)
    if text == "1":
        return Fraction(1)
    return Fraction(text)


def complete_deals(games: Iterable[GameResult], arrangements: int) -> list[list[GameResult]]:
    """The games grouped by deal, keeping only deals with every arrangement finished."""
    by_deal: dict[int, list[GameResult]] = {}
    for g in games:
        by_deal.setdefault(g.deal, []).append(g)
    return [by_deal[d] for d in sorted(by_deal) if len(by_deal[d]) == arrangements]


def aggregate(deals: Sequence[Sequence[GameResult]], entrants: int) -> list[EntrantSummary]:
    """Per-entrant means and intervals over complete deals (see the module docstring)."""
    out = []
    for e in range(entrants):
        per_deal: list[tuple[float, float, float]] = []
        games = forfeits = 0
        for deal in deals:
            rows = [g.values[e] for g in deal if e in g.values]
            if not rows:
                continue
            games += len(rows)
            forfeits += sum(
                1
                for g in deal
                if g.outcome.get("forfeit") is not None and g.seats[g.outcome["forfeit"]] == e
            )
            per_deal.append(tuple(math.fsum(r[i] for r in rows) / len(rows) for i in range(3)))  # type: ignore[arg-type]
        out.append(
            EntrantSummary(
                games=games,
                forfeits=forfeits,
                score=estimate([r[0] for r in per_deal]),
                win_share=estimate([r[1] for r in per_deal]),
                placing=estimate([r[2] for r in per_deal]),
            )
        )
    return out


def openskill_ratings(
    games: Iterable[GameResult], entrants: int
) -> tuple[list[Rating] | None, str]:
    """Rate the entrants with openskill's Plackett-Luce model, games in stored order.

    In each game the competitors are the entrants, ranked by the mean placing of their
    seats; where partners are different entrants (one per seat in a partnership game),
    the game's teams are the competitors instead.

    Returns:
        The ratings (``None`` when openskill is not installed) and a note saying how
        they were computed, or why they are missing.
    """
    try:
        from openskill.models import PlackettLuce
    except ImportError:
        return None, "no ratings: openskill is not installed (pip install 'cardcore[rating]')"
    model = PlackettLuce()
    ratings = [model.rating(name=str(e)) for e in range(entrants)]
    for g in games:
        teams = g.outcome.get("teams")
        placing = g.outcome["placing"]
        if (
            teams is not None
            and all(len({g.seats[s] for s in t}) == len(t) for t in teams)
            and len(set(g.seats)) == len(g.seats)
        ):
            groups = [[g.seats[s] for s in t] for t in teams]
            ranks = [min(placing[s] for s in t) for t in teams]
        else:
            present = sorted(set(g.seats))
            groups = [[e] for e in present]
            ranks = [g.values[e][2] for e in present]
        if len(groups) < 2:
            continue
        new = model.rate([[ratings[e] for e in grp] for grp in groups], ranks=ranks)
        for grp, rated in zip(groups, new, strict=True):
            for e, r in zip(grp, rated, strict=True):
                ratings[e] = r
    return (
        [Rating(mu=float(r.mu), sigma=float(r.sigma)) for r in ratings],
        "openskill Plackett-Luce ratings, games taken in deal order",
    )
