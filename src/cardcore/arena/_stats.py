"""Per-bot statistics of an arena: means with confidence intervals, and ratings.

The unit of independence is the *deal*: its arrangements share the cards, so their
results are correlated (that is the point of duplicate deals: the luck cancels). Each
bot's results are therefore averaged per deal first, and the intervals are taken over
the per-deal means. Only complete deals (every arrangement finished) count.

Win share and placing are bounded (a share lies in 0-1, a placing in 1-players), so
they get a Wilson score interval, which stays inside the bounds and never has zero
width: 8 deals that one bot always wins give ``1.00 [0.74, 1.00]``, not ``1 ± 0``. The
Wilson interval is built for independent 0/1 trials; per-deal means are neither, so it
is applied with an *effective sample size* (Korn and Graubard, 1998): ``n* = p(1-p) / v``
where ``v`` is the squared standard error of the mean over deals, kept between the
deals and the games played, and with Student's t quantile for ``D - 1`` degrees of
freedom in place of the normal one. Duplicate deals that cancel luck show up as a
small ``v`` and so as a narrower interval. The mean score has no known bounds: it gets
a Student t interval over per-deal means, and none at all when every deal gave the
same value (zero spread over a few deals is no proof of zero uncertainty).
"""

from __future__ import annotations

import functools
import itertools
import math
import statistics
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any, Final, final

import attrs

__all__ = [
    "CI_METHOD",
    "Estimate",
    "Rating",
    "Usage",
    "add_usage",
    "aggregate",
    "openskill_ratings",
    "separation_warnings",
    "t_quantile",
    "wilson",
]

CI_METHOD: Final = (
    "95% intervals over deals: Wilson score (effective sample size) for win share and "
    "placing, Student t for score"
)


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
    """The mean of independent values with a 95% Student t confidence interval.

    Fewer than two values, or values that are all equal, give no interval (``None``
    bounds): a spread of zero over a sample is no evidence of zero uncertainty.
    """
    n = len(values)
    if n == 0:
        return Estimate(mean=math.nan, low=None, high=None)
    mean = math.fsum(values) / n
    sd = statistics.stdev(values) if n >= 2 else 0.0
    if sd == 0.0:
        return Estimate(mean=mean, low=None, high=None)
    half = t_quantile(0.975, n - 1) * sd / math.sqrt(n)
    return Estimate(mean=mean, low=mean - half, high=mean + half)


def wilson(
    values: Sequence[float], *, trials: int | None = None, low: float = 0.0, high: float = 1.0
) -> Estimate:
    """The mean of per-deal values in ``[low, high]`` with a 95% Wilson score interval.

    The values are rescaled to 0-1 and treated as a proportion estimated from
    independent deals with the effective sample size ``p(1-p) / v`` (``v``: the squared
    standard error of their mean), which is at least the number of deals when the values
    are single 0/1 results and grows when duplicate deals cancel luck; it is capped at
    ``trials`` (the games behind the values) so that constant values still get an
    interval of honest width. The quantile is Student's t for ``len(values) - 1``
    degrees of freedom (the normal one for a single deal).

    Args:
        values: one value per deal.
        trials: games behind the values (default: one per value).
        low: the smallest possible value.
        high: the largest possible value.

    Returns:
        The mean with its interval; ``None`` bounds when there are no values or no range.
    """
    n = len(values)
    if n == 0:
        return Estimate(mean=math.nan, low=None, high=None)
    mean = math.fsum(values) / n
    span = high - low
    if span <= 0:
        return Estimate(mean=mean, low=None, high=None)
    cap = float(max(trials if trials is not None else n, n))
    p = min(1.0, max(0.0, (mean - low) / span))
    var = statistics.variance([(v - low) / span for v in values]) / n if n >= 2 else 0.0
    # A positive variance implies 0 < p < 1; constant values fall back to the cap.
    n_eff = cap if var <= 0.0 else max(1.0, min(cap, p * (1 - p) / var))
    z = t_quantile(0.975, n - 1) if n >= 2 else statistics.NormalDist().inv_cdf(0.975)
    z2 = z * z
    centre = (p + z2 / (2 * n_eff)) / (1 + z2 / n_eff)
    half = z / (1 + z2 / n_eff) * math.sqrt(p * (1 - p) / n_eff + z2 / (4 * n_eff * n_eff))
    lo, hi = max(0.0, centre - half), min(1.0, centre + half)
    return Estimate(mean=mean, low=low + lo * span, high=low + hi * span)


def separation_warnings(labels: Sequence[str], shares: Sequence[Estimate], deals: int) -> list[str]:
    """Warn where the deals played cannot tell neighbouring bots of the ranking apart.

    The bots are ranked by mean win share; each is compared with the next one down.
    Where their intervals overlap, one line names both and guesses the deals needed to
    separate them if the gap is real (intervals narrow as one over the square root of
    the deals).

    Args:
        labels: the bots' labels.
        shares: their win-share estimates, in the same order.
        deals: the complete deals behind the estimates.

    Returns:
        Warning lines, empty when every bot is told apart from the next one.
    """
    known = [
        (label, e)
        for label, e in zip(labels, shares, strict=True)
        if e.low is not None and e.high is not None and not math.isnan(e.mean)
    ]
    if len(known) < 2 or deals <= 0:
        return []
    ranked = sorted(known, key=lambda le: -le[1].mean)
    out = []
    for (upper, hi), (lower, lo) in itertools.pairwise(ranked):
        assert hi.low is not None
        assert lo.high is not None
        if hi.low > lo.high:
            continue
        gap = hi.mean - lo.mean
        need = ""
        if gap > 0:
            widths = (hi.mean - hi.low) + (lo.high - lo.mean)
            more = float(f"{deals * (widths / gap) ** 2:.2g}")
            need = f"; if the gap of {gap:.2f} is real, about {more:,.0f} deals would show it"
        out.append(
            f"warning: {deals} deal{'s' if deals != 1 else ''} cannot tell {upper} from "
            f"{lower}: their win-share intervals overlap{need}"
        )
    return out


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
    players = max((len(d[0].seats) for d in deals if d), default=1)
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
                win_share=wilson([r[1] for r in per_deal], trials=games),
                placing=wilson([r[2] for r in per_deal], trials=games, low=1, high=players),
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
        return (
            None,
            "no ratings: openskill is not installed (pip install openskill, or './[rating]' in a cardcore checkout)",
        )
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


# ---- what bots logged ------------------------------------------------------------------


@final
@attrs.frozen(kw_only=True)
class Usage:
    """What an entrant's bots logged of their decisions (``MatchRecord.transcripts``).

    Counted over every game of the run that has the entrant's transcripts (an ``llm``
    entrant's: one entry per decision with its answers and refusals).
    """

    decisions: int = 0
    """Decisions logged."""
    answers: int = 0
    """Answers given (a refused answer and the one after it are two)."""
    refused: int = 0
    """Answers refused: unreadable, or not a legal action then."""
    retried: int = 0
    """Decisions with at least one refused answer."""
    input_tokens: int = 0
    """Tokens sent, as the client reported them."""
    output_tokens: int = 0
    """Tokens received, as the client reported them."""
    cost: float | None = None
    """The cost the client reported (in its unit), or ``None`` when it reported none."""
    seconds: float = 0.0
    """Time spent waiting for answers."""

    @property
    def illegal_rate(self) -> float:
        """The share of answers refused (unreadable or illegal): 0 with no answers."""
        return self.refused / self.answers if self.answers else 0.0

    @property
    def retry_rate(self) -> float:
        """The share of decisions that needed a retry: 0 with no decisions."""
        return self.retried / self.decisions if self.decisions else 0.0

    def add(self, entry: Mapping[str, Any]) -> Usage:
        """This usage with one logged decision added (an entry without answers counts none)."""
        answers, errors = entry.get("answers"), entry.get("errors")
        if not isinstance(answers, list):
            return self
        refused = len(errors) if isinstance(errors, list) else 0
        cost = _num(entry.get("cost"))
        return Usage(
            decisions=self.decisions + 1,
            answers=self.answers + len(answers),
            refused=self.refused + refused,
            retried=self.retried + (refused > 0),
            input_tokens=self.input_tokens + int(_num(entry.get("input_tokens")) or 0),
            output_tokens=self.output_tokens + int(_num(entry.get("output_tokens")) or 0),
            cost=self.cost if cost is None else (self.cost or 0.0) + cost,
            seconds=self.seconds + (_num(entry.get("seconds")) or 0.0),
        )

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data, with the two rates."""
        return {
            **attrs.asdict(self),
            "illegal_rate": self.illegal_rate,
            "retry_rate": self.retry_rate,
        }


def _num(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def add_usage(
    tally: list[Usage | None], seats: Sequence[int], record: Mapping[str, Any] | None
) -> None:
    """Add what one game's bots logged to ``tally`` (per entrant; ``None``: nothing yet).

    Args:
        tally: per entrant, its usage so far; updated in place.
        seats: the entrant of each seat of the game.
        record: the game's match record as JSON (its ``transcripts``, if any).
    """
    logs = (record or {}).get("transcripts") or []
    for seat, entries in enumerate(logs):
        if seat >= len(seats) or not isinstance(entries, list):
            continue
        e = seats[seat]
        for entry in entries:
            if isinstance(entry, dict) and isinstance(entry.get("answers"), list):
                tally[e] = (tally[e] or Usage()).add(entry)
