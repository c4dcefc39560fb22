"""The typed results of an arena, and their table, JSON and CSV forms."""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final, final

import attrs

from cardcore.arena._bots import BotEntry
from cardcore.arena._seating import Seating
from cardcore.arena._stats import Estimate, Rating, Usage, separation_warnings

__all__ = ["ArenaConfig", "ArenaResult", "BotStats"]


@final
@attrs.frozen(kw_only=True)
class ArenaConfig:
    """Everything that fixes the result of every game of an arena run.

    Two runs with equal configurations play the same games with the same seeds; the
    number of deals, the workers and the scheduler are not part of it.
    """

    game: str
    """Game id."""
    preset: str
    """The preset the options were built from."""
    options: tuple[tuple[str, Any], ...]
    """Every option of the game (resolved), sorted by name."""
    players: int
    """Seats per game."""
    bots: tuple[BotEntry, ...]
    """The entrants."""
    seed: int
    """The arena seed; every game's and bot's seed derives from it."""
    seating: Seating
    """``all`` arrangements of each deal or only ``rotate``-d ones."""
    time_limit: float | None
    """Seconds per decision, or ``None``."""
    distribution: str = ""
    """The distribution providing the game."""
    version: str = ""
    """Its version (a new version may change results, so it is part of the identity)."""

    def identity(self) -> dict[str, Any]:
        """The configuration as JSON data, as stored with a run and compared on resume."""
        return {
            "game": self.game,
            "distribution": self.distribution,
            "version": self.version,
            "preset": self.preset,
            "options": dict(self.options),
            "players": self.players,
            "bots": [b.to_json() for b in self.bots],
            "seed": self.seed,
            "seating": self.seating,
            "time_limit": self.time_limit,
        }


@final
@attrs.frozen(kw_only=True)
class BotStats:
    """The results of one entrant over an arena run."""

    bot: str
    """Its label (unique in the run)."""
    name: str
    """The bot id or import path."""
    games: int
    """Games it played in complete deals."""
    forfeits: int
    """Games it lost by forfeit (crash, illegal action, time)."""
    score: Estimate
    """Mean game score (over its seats); with a 95% interval."""
    win_share: Estimate
    """Mean share of the win per game (1: won alone; ties split); with a 95% interval."""
    placing: Estimate
    """Mean placing (1 is first; over its seats); with a 95% interval."""
    rating: Rating | None
    """openskill rating, or ``None`` when openskill is not installed."""
    forfeit_reasons: tuple[str, ...] = ()
    """Up to three distinct forfeit reasons, as recorded."""
    usage: Usage | None = None
    """What its bots logged of their decisions (an ``llm`` entrant: answers, refusals,
    tokens, cost), over every game of the run; ``None`` when they logged nothing."""

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {
            "bot": self.bot,
            "name": self.name,
            "games": self.games,
            "forfeits": self.forfeits,
            "score": self.score.to_json(),
            "win_share": self.win_share.to_json(),
            "placing": self.placing.to_json(),
            "rating": None if self.rating is None else self.rating.to_json(),
            "forfeit_reasons": list(self.forfeit_reasons),
            "usage": None if self.usage is None else self.usage.to_json(),
        }


@final
@attrs.frozen(kw_only=True)
class ArenaResult:
    """What :func:`cardcore.arena.run_arena` returns: per-bot statistics and the run's facts."""

    run: str
    """The run name in the database."""
    db: str | None
    """The database file (``None``: in memory)."""
    config: ArenaConfig
    """The configuration."""
    deals: int
    """Deals asked for (``--games``)."""
    arrangements: tuple[tuple[int, ...], ...]
    """The seating plan of each deal: the entrant index of every seat."""
    games: int
    """Games counted in the statistics (complete deals only)."""
    played: int
    """Games played by this call."""
    reused: int
    """Games found already stored (a resumed run)."""
    incomplete_deals: int
    """Deals left out because a game of theirs failed (see :attr:`errors`)."""
    errors: tuple[str, ...]
    """Games without an outcome (a rules bug, a worker lost outside any bot), described."""
    bots: tuple[BotStats, ...]
    """Per entrant, in the order given."""
    ratings_note: str
    """How ratings were computed, or why there are none."""
    rejected: tuple[str, ...] = ()
    """Stored games that did not verify (edited or damaged), played again; described."""
    ci_method: str
    """How the confidence intervals were computed."""
    seconds: float
    """Wall time of this call."""

    @property
    def total_games(self) -> int:
        """Games the run has when complete: deals times arrangements."""
        return self.deals * len(self.arrangements)

    def headline(self) -> str:
        """One line: game, seats, deals and games, seed, run."""
        c = self.config
        where = f" in {self.db}" if self.db else ""
        return (
            f"{c.game} (preset {c.preset}, {c.players} players): {self.deals} deals x "
            f"{len(self.arrangements)} seatings = {self.total_games} games, seed {c.seed}; "
            f"run {self.run!r}{where}"
        )

    def notes(self) -> list[str]:
        """The lines printed under the table."""
        lines = [f"{self.ci_method}.", f"{self.ratings_note[:1].upper()}{self.ratings_note[1:]}."]
        lines.append(
            f"{self.played} games played now, {self.reused} reused from the database, "
            f"in {self.seconds:.1f} s."
        )
        if self.incomplete_deals:
            lines.append(
                f"{self.incomplete_deals} deal(s) left out: {len(self.errors)} game(s) failed."
            )
        lines.extend(self.warnings())
        lines.extend(f"error: {e}" for e in self.errors[:5])
        if self.rejected:
            lines.append(
                f"{len(self.rejected)} stored game(s) did not verify and were played again."
            )
            lines.extend(f"rejected: {r}" for r in self.rejected[:5])
        for b in self.bots:
            lines.extend(f"forfeit by {b.bot}: {r}" for r in b.forfeit_reasons)
        if any(b.usage is not None for b in self.bots):
            lines.append(USAGE_NOTE)
        return lines

    def warnings(self) -> list[str]:
        """Lines saying where too few deals were played to be sure of a figure."""
        deals = self.games // len(self.arrangements) if self.arrangements else 0
        out = separation_warnings(
            [b.bot for b in self.bots], [b.win_share for b in self.bots], deals
        )
        flat = [b.bot for b in self.bots if b.games and b.score.low is None]
        if flat:
            out.append(
                f"note: no interval for the score of {', '.join(flat)}: it was the same in "
                + (f"all {deals} deals" if deals > 1 else "the only deal")
                + ", too few to call it certain"
            )
        return out

    def rows(self) -> list[dict[str, str]]:
        """The table's rows as display strings, by column."""
        out = []
        logged = any(b.usage is not None for b in self.bots)
        for b in self.bots:
            out.append(
                {
                    "bot": b.bot,
                    "games": str(b.games),
                    "score": _pm(b.score, 2),
                    "win share": _range(b.win_share, 2),
                    "placing": _range(b.placing, 2),
                    "rating": "-"
                    if b.rating is None
                    else f"{b.rating.mu:.1f} ± {b.rating.sigma:.1f}",
                    "forfeits": str(b.forfeits),
                    **(_usage_cells(b.usage) if logged else {}),
                }
            )
        return out

    def table(self) -> str:
        """The report as plain text: headline, one row per bot, notes."""
        rows = self.rows()
        cols = list(rows[0]) if rows else []
        width = {c: max([len(c)] + [len(r[c]) for r in rows]) for c in cols}
        left = {"bot"}

        def line(cells: Mapping[str, str]) -> str:
            return "  ".join(
                cells[c].ljust(width[c]) if c in left else cells[c].rjust(width[c]) for c in cols
            ).rstrip()

        out = [self.headline(), "", line({c: c for c in cols})]
        out.append("  ".join("-" * width[c] for c in cols))
        out += [line(r) for r in rows]
        out += ["", *self.notes()]
        return "\n".join(out)

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data: the configuration, the facts of the run and per-bot stats."""
        return {
            "run": self.run,
            "db": self.db,
            "config": self.config.identity(),
            "deals": self.deals,
            "arrangements": [list(a) for a in self.arrangements],
            "games": self.games,
            "total_games": self.total_games,
            "played": self.played,
            "reused": self.reused,
            "incomplete_deals": self.incomplete_deals,
            "errors": list(self.errors),
            "rejected": list(self.rejected),
            "ci_method": self.ci_method,
            "warnings": self.warnings(),
            "ratings_note": self.ratings_note,
            "seconds": self.seconds,
            "bots": [b.to_json() for b in self.bots],
        }

    def csv(self) -> str:
        """One CSV row per bot (means, interval ends, rating)."""
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(
            [
                "bot",
                "name",
                "games",
                "forfeits",
                *(
                    f"{m}_{p}"
                    for m in ("score", "win_share", "placing")
                    for p in ("mean", "low", "high")
                ),
                "rating_mu",
                "rating_sigma",
                *USAGE_COLUMNS,
            ]
        )
        for b in self.bots:
            w.writerow(
                [
                    b.bot,
                    b.name,
                    b.games,
                    b.forfeits,
                    *(
                        _num(v)
                        for e in (b.score, b.win_share, b.placing)
                        for v in (e.mean, e.low, e.high)
                    ),
                    _num(None if b.rating is None else b.rating.mu),
                    _num(None if b.rating is None else b.rating.sigma),
                    *_usage_csv(b.usage),
                ]
            )
        return buf.getvalue()

    def write_csv(self, path: str | Path) -> None:
        """Write :meth:`csv` to a file."""
        Path(path).write_text(self.csv(), encoding="utf-8")


USAGE_NOTE: Final = (
    "Illegal: the share of answers refused (unreadable, or not a legal action); retries: "
    "the share of decisions that needed another answer; tokens (in/out) and cost as the "
    "model's client reported them; over every game played."
)
"""The note under a table with logged decisions."""

USAGE_COLUMNS: Final = (
    "decisions_logged",
    "answers",
    "refused",
    "illegal_rate",
    "retry_rate",
    "input_tokens",
    "output_tokens",
    "cost",
)
"""The CSV columns of :class:`~cardcore.arena._stats.Usage` (empty for a bot without)."""


def _usage_cells(u: Usage | None) -> dict[str, str]:
    """The table's cells of what a bot logged (``-`` for a bot that logged nothing)."""
    if u is None:
        return dict.fromkeys(("illegal", "retries", "tokens", "cost"), "-")
    return {
        "illegal": f"{u.illegal_rate:.1%}",
        "retries": f"{u.retry_rate:.1%}",
        "tokens": f"{u.input_tokens:,}/{u.output_tokens:,}",
        "cost": "-" if u.cost is None else f"{u.cost:.4g}",
    }


def _usage_csv(u: Usage | None) -> list[str]:
    if u is None:
        return [""] * len(USAGE_COLUMNS)
    values = (u.decisions, u.answers, u.refused, u.illegal_rate, u.retry_rate)
    return [*(str(v) if isinstance(v, int) else repr(v) for v in values),
            str(u.input_tokens), str(u.output_tokens), _num(u.cost)]  # fmt: skip


def _num(v: float | None) -> str:
    return "" if v is None or math.isnan(v) else repr(float(v))


def _pm(e: Estimate, digits: int) -> str:
    if math.isnan(e.mean):
        return "-"
    half = e.half_width
    if half is None:
        return f"{e.mean:.{digits}f}"
    return f"{e.mean:.{digits}f} ± {half:.{digits}f}"


def _range(e: Estimate, digits: int) -> str:
    """``mean [low, high]``: for intervals that need not be symmetric (Wilson)."""
    if math.isnan(e.mean):
        return "-"
    if e.low is None or e.high is None:
        return f"{e.mean:.{digits}f}"
    return f"{e.mean:.{digits}f} [{e.low:.{digits}f}, {e.high:.{digits}f}]"
