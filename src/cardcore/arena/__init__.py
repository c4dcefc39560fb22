"""Tournaments between bots: duplicate deals, confidence intervals, ratings, resumable.

:func:`run_arena` plays every deal once per arrangement of the bots over the seats,
stores each game in SQLite as it finishes (an interrupted run resumes), runs games in
local worker processes or on a Dask cluster with identical results, and returns an
:class:`ArenaResult` with per-bot means, 95% confidence intervals and openskill ratings.
``cardcore arena`` is its command line; see ``docs/arena.md``.

Importing this package loads neither Dask, openskill nor rich.
"""

from cardcore.arena._bots import BotEntry, parse_bots
from cardcore.arena._result import ArenaConfig, ArenaResult, BotStats
from cardcore.arena._run import run_arena
from cardcore.arena._seating import arrangements, bot_seed, deal_seed, default_players
from cardcore.arena._stats import Estimate, Rating, t_quantile
from cardcore.arena._store import ArenaError

__all__ = [
    "ArenaConfig",
    "ArenaError",
    "ArenaResult",
    "BotEntry",
    "BotStats",
    "Estimate",
    "Rating",
    "arrangements",
    "bot_seed",
    "deal_seed",
    "default_players",
    "parse_bots",
    "run_arena",
    "t_quantile",
]
