"""Outcomes: one score per seat, and placing, shares and teams that follow the scores."""

from __future__ import annotations

from typing import Final

from cardcore._game import Outcome
from cardcore.testing._context import Context
from cardcore.testing._errors import require

__all__ = ["outcome_checks"]

_POINTS: Final = {True: "more points", False: "fewer points"}


def outcome_checks(ctx: Context, out: Outcome) -> None:
    n = ctx.n
    ctx.clock.at("outcome")
    require(isinstance(out, Outcome), "outcome", "outcome is not a cardcore.Outcome")
    require(
        len(out.scores) == n and len(out.placing) == n and len(out.shares) == n,
        "outcome",
        "scores, placing and shares need one entry per seat",
    )
    require(sum(out.shares) == 1, "outcome", f"win shares sum to {sum(out.shares)}, not 1")
    require(1 in out.placing, "outcome", "nobody is placed first")
    for i in range(n):
        better = sum(1 for j in range(n) if out.placing[j] < out.placing[i])
        require(
            out.placing[i] == better + 1,
            "outcome",
            f"placing {out.placing} is not consistent (ties share a place)",
        )
    if ctx.teams is None:
        require(out.teams is None, "outcome", "outcome has teams, the game declares none")
    else:
        require(
            out.teams is not None
            and {frozenset(t) for t in out.teams} == {frozenset(t) for t in ctx.teams},
            "outcome",
            f"outcome teams {out.teams} differ from the game's {ctx.teams}",
        )
        for t in ctx.teams:
            require(
                len({out.placing[i] for i in t}) == 1,
                "outcome",
                f"partners {t} are placed differently",
            )
    # Placing, shares and winners must follow the scores: higher scores win, or
    # lower ones, the same way in every game of this configuration.
    fits = []
    for higher in (True, False):
        expected = Outcome.from_scores(out.scores, teams=ctx.teams, higher_is_better=higher)
        if expected.placing == out.placing:
            fits.append((higher, expected))
    require(
        bool(fits),
        "outcome",
        f"placing {out.placing} does not follow the scores {out.scores} "
        f"(whether higher or lower scores win)",
    )
    declared = ctx.shared.get("declared")
    if declared is not None:
        require(
            any(higher is declared for higher, _ in fits),
            "outcome",
            lambda: (
                f"the game declares that {_POINTS[declared]} win (GameSpec.higher_is_better), "
                f"but placing {out.placing} follows the scores {out.scores} the other way"
            ),
        )
        fits = [fit for fit in fits if fit[0] is declared]
    direction = ctx.shared.get("direction")
    if len(fits) == 1:
        higher = fits[0][0]
        require(
            direction in (None, higher),
            "outcome",
            f"in one game higher scores win, in another lower ones (scores {out.scores}, "
            f"placing {out.placing})",
        )
        ctx.shared["direction"] = higher
    expected = fits[0][1]
    require(
        tuple(out.shares) == tuple(expected.shares),
        "outcome",
        f"the win shares {tuple(str(x) for x in out.shares)} do not go to the seats placed "
        f"first (placing {out.placing}, scores {out.scores}, winners {out.winners})",
    )
