"""``Outcome.from_scores`` against its first, plain writing (placings and win shares)."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from cardcore import Outcome


def _reference(
    scores: Sequence[float], teams: Sequence[Sequence[int]] | None, higher_is_better: bool
) -> tuple[tuple[int, ...], tuple[Fraction, ...]]:
    s = tuple(scores)
    key = s if higher_is_better else tuple(-x for x in s)
    placing = tuple(1 + sum(1 for o in key if o > x) for x in key)
    winners = [i for i, p in enumerate(placing) if p == 1]
    if teams is not None:
        team_of = {seat: t for t, members in enumerate(teams) for seat in members}
        win_teams = {team_of[w] for w in winners}
        k = len(win_teams)
        return placing, tuple(
            Fraction(1, k * len(teams[team_of[i]])) if team_of[i] in win_teams else Fraction(0)
            for i in range(len(s))
        )
    return placing, tuple(Fraction(1, len(winners)) if p == 1 else Fraction(0) for p in placing)


_SCORES = st.lists(st.sampled_from([0.0, 1.0, 2.0, 2.5, -1.0, 7.0]), min_size=1, max_size=20)


@given(_SCORES, st.booleans())
def test_placing_and_shares_are_those_of_the_first_writing(
    scores: list[float], higher_is_better: bool
) -> None:
    """Seats, ties and shares as before; the scores are kept as given."""
    out = Outcome.from_scores(scores, higher_is_better=higher_is_better, reason="r")
    placing, shares = _reference(scores, None, higher_is_better)
    assert (out.placing, out.shares, out.scores) == (placing, shares, tuple(scores))
    assert (out.teams, out.forfeit, out.reason) == (None, None, "r")
    assert type(out) is Outcome
    assert out == Outcome(scores=tuple(scores), placing=placing, shares=shares, reason="r")
    assert Outcome.from_json(out.to_json()) == out


@given(st.lists(st.sampled_from([0, 1, 3]), min_size=4, max_size=4))
def test_team_shares_are_those_of_the_first_writing(points: list[int]) -> None:
    """Partners score alike; the winning teams' shares split among their seats."""
    teams = ((0, 2), (1, 3))
    scores = [float(points[t]) for t in (0, 1, 0, 1)]
    out = Outcome.from_scores(scores, teams=teams)
    assert (out.placing, out.shares) == _reference(scores, teams, True)
    assert out.teams == teams
