"""``run_arena``: plan the games, run the missing ones, store them, and report."""

from __future__ import annotations

import multiprocessing
import os
import time
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from cardcore import __version__
from cardcore._botmaking import host_preferences, make_bot
from cardcore._game import Outcome
from cardcore._host import PluginError, PluginHost, default_host
from cardcore._isolation import START_SECONDS, IsolatedBot
from cardcore._match_record import MatchRecord, RecordError, verify
from cardcore._options import options_to_json
from cardcore._sandbox import Sandbox, sandbox_problem
from cardcore.arena._bots import BotEntry, resolve_bots
from cardcore.arena._executors import (
    BOOTSTRAP_HINT,
    DaskExecutor,
    Executor,
    InlineExecutor,
    ProcessExecutor,
)
from cardcore.arena._progress import Progress
from cardcore.arena._result import ArenaConfig, ArenaResult, BotStats
from cardcore.arena._seating import (
    SEATINGS,
    Seating,
    arrangements,
    bot_seed,
    deal_seed,
    default_players,
)
from cardcore.arena._stats import (
    CI_METHOD,
    GameResult,
    Usage,
    add_usage,
    aggregate,
    complete_deals,
    openskill_ratings,
)
from cardcore.arena._store import ArenaError, GameRow, Store
from cardcore.arena._worker import Job, Result, stop_bot_processes

__all__ = ["DEFAULT_TIME_LIMIT", "make_job", "run_arena"]


DEFAULT_TIME_LIMIT: Final = 5.0
"""Seconds per decision in an arena when none is given."""

MAX_DEALS: Final = 1_000_000
"""The most deals one arena run may have."""

MAX_GAMES: Final = 1_000_000
"""The most games (deals times arrangements) one arena run may have."""

MAX_TIME_LIMIT: Final = 86_400.0
"""The longest time limit per decision (a day)."""

MAX_WORKERS: Final = 1024
"""The most local worker processes."""

MAX_CONCURRENCY: Final = 256
"""The most games one worker plays at once."""

MAX_SEED: Final = 2**63
"""Seeds lie in ``-MAX_SEED < seed < MAX_SEED``."""

ISOLATIONS: Final = ("auto", "process", "none")
"""``auto``: third-party bots in their own processes; ``process``: every bot; ``none``."""

FIRST_PARTY: Final = frozenset(
    {"cardcore", "cardcore-box", "cardcore-nestors", "cardcore-noddy", "cardcore-nyuri"}
)
"""Distributions developed with cardcore, whose bots ``auto`` isolation trusts."""


def isolated_entries(
    entries: Sequence[BotEntry], isolation: str, host: PluginHost
) -> tuple[bool, ...]:
    """Which entrants run in their own processes under an isolation mode.

    ``auto`` isolates import-path bots and bots registered by a distribution outside
    :data:`FIRST_PARTY` (an unknown bot id is isolated too; its check fails later).
    """
    if isolation == "process":
        return (True,) * len(entries)
    if isolation == "none":
        return (False,) * len(entries)
    bots = host.bots()
    out = []
    for e in entries:
        spec = bots.get(e.name)
        out.append(e.is_import_path or spec is None or spec.distribution not in FIRST_PARTY)
    return tuple(out)


def make_job(
    config: ArenaConfig,
    deal: int,
    index: int,
    arrangement: Sequence[int],
    *,
    teams: Sequence[Sequence[int]] | None,
    max_decisions: int,
    isolated: Sequence[bool] = (),
    prefer: Mapping[str, str] | None = None,
    secret: str | None = None,
    sandbox: Sandbox | None = None,
) -> Job:
    """The plain-data job of one game: deal ``deal`` in arrangement number ``index``.

    ``prefer`` is the plugin host's choice among providers of one id (see
    :class:`cardcore.PluginHost`): the worker and the bots' processes build their host
    with it, so that they play the game and bots the arena process chose. ``secret``
    goes into the deal seed (see :func:`~cardcore.arena.deal_seed`); ``sandbox`` is
    where the isolated seats run. A job travels to its worker over a pipe, never on a
    command line.
    """
    entries = config.bots
    return {
        "game": config.game,
        "preset": config.preset,
        "options": dict(config.options),
        "distribution": config.distribution,
        "version": config.version,
        "players": config.players,
        "teams": None if teams is None else [list(t) for t in teams],
        "max_decisions": max_decisions,
        "deal": deal,
        "arrangement": index,
        "seats": list(arrangement),
        "seed": deal_seed(config.seed, deal, secret),
        "seat_bots": [[entries[e].name, dict(entries[e].options)] for e in arrangement],
        "labels": [entries[e].label for e in arrangement],
        "bot_seeds": [bot_seed(config.seed, deal, index, s) for s in range(len(arrangement))],
        "time_limit": config.time_limit,
        "isolated": [bool(isolated and isolated[e]) for e in arrangement],
        "prefer": dict(sorted((prefer or {}).items())),
        "sandbox": None
        if sandbox is None
        else {"hidden": list(sandbox.hidden), "modules": list(sandbox.modules)},
    }


def _row(job: Job, result: Result) -> GameRow:
    if result.get("status") == "done":
        record = result["record"]
        outcome = record["outcome"]
        return GameRow(
            deal=job["deal"],
            arrangement=job["arrangement"],
            status="done",
            seats=tuple(job["seats"]),
            seed=job["seed"],
            bot_seeds=tuple(job["bot_seeds"]),
            forfeit=outcome.get("forfeit"),
            reason=str(outcome.get("reason", "")),
            decisions=len(record["actions"]),
            attempts=int(job.get("attempt", 1)),
            seconds=float(result.get("seconds", 0.0)),
            outcome=outcome,
            record=record,
        )
    return GameRow(
        deal=job["deal"],
        arrangement=job["arrangement"],
        status="error",
        seats=tuple(job["seats"]),
        seed=job["seed"],
        bot_seeds=tuple(job["bot_seeds"]),
        forfeit=None,
        reason=str(result.get("error", "unknown error")),
        decisions=0,
        attempts=int(job.get("attempt", 1)),
        seconds=float(result.get("seconds", 0.0)),
        outcome=None,
    )


def _cpus() -> int:
    """The CPUs this process may use."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # not on every platform
        return os.cpu_count() or 1


def _executor(workers: int, scheduler: Any, jobs: int, concurrency: int = 1) -> Executor:
    if scheduler is not None:
        return DaskExecutor(scheduler)
    if workers == 0:
        return InlineExecutor(concurrency)
    return ProcessExecutor(max(1, min(workers, jobs)), concurrency)


def _check_bots(
    entries: Sequence[BotEntry],
    game: Any,
    host: PluginHost,
    isolated: Sequence[bool],
    prefer: Mapping[str, str],
    sandbox: Sandbox | None = None,
) -> None:
    """Build every bot once, so that a bad name or option fails before any game.

    An isolated entrant is built in a process of its own (in its sandbox), as in its
    games: its code never runs in this process.
    """
    for e, alone in zip(entries, isolated, strict=True):
        if alone:
            probe = IsolatedBot(
                e.name, game, seed=0, options=dict(e.options), prefer=prefer, sandbox=sandbox
            )
            with probe:
                failure = probe.build(START_SECONDS)
            if failure is not None:
                raise ArenaError(f"bot {e.label!r} {failure}")
            continue
        try:
            make_bot(e.name, dict(e.options), game, seed=0, host=host)
        except (PluginError, ValueError) as err:
            raise ArenaError(str(err)) from None  # the message names the bot
        except Exception as err:  # noqa: BLE001 - any failure to build is a configuration error
            raise ArenaError(
                f"bot {e.label!r} fails when built: {type(err).__name__}: {err}"
            ) from None


def run_arena(
    game: str,
    bots: Sequence[str | BotEntry],
    *,
    games: int,
    preset: str = "default",
    options: Mapping[str, Any] | None = None,
    seed: int = 0,
    players: int | None = None,
    seating: Seating = "all",
    workers: int | None = None,
    scheduler: Any = None,
    db: str | Path | None = None,
    name: str | None = None,
    fresh: bool = False,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
    progress: bool | None = False,
    isolation: str = "auto",
    host: PluginHost | None = None,
    sandbox: bool = False,
    deal_secret: bool = False,
    concurrency: int = 1,
) -> ArenaResult:
    """Run (or resume) a duplicate-deal tournament and return per-bot statistics.

    Each of ``games`` deals is played once in every arrangement of the bots over the
    seats (see :func:`cardcore.arena.arrangements`), with the same game seed, so the
    luck of the deal cancels. Each finished game is committed to the database at once;
    calling again with the same configuration and run name plays only what is missing.

    Example:
        ``run_arena("highcard", ["random", "random"], games=100, seed=1, db="a.sqlite")``

    Args:
        game: the game id.
        bots: the entrants: registered ids or ``package.module:Attribute`` paths, with
            ``:key=value`` options (``"ismcts:iterations=200"``), or :class:`BotEntry`.
        games: the number of deals; the run has ``games * len(arrangements)`` games.
        preset: the game's preset.
        options: option overrides (typed values or strings).
        seed: the arena seed; every game seed and bot seed derives from it.
        players: seats per game (default: one per bot if the game allows, else its
            smallest player count).
        seating: ``all`` arrangements per deal, or only ``rotate``-d ones.
        workers: local worker processes (default: one per CPU; ``0``: play in this
            process, without isolation).
        scheduler: a Dask scheduler address (``tcp://host:8786``) or a
            ``distributed.Client``; overrides ``workers``.
        db: the SQLite file (``None``: in memory, nothing kept).
        name: the run name in the database (default: the game id).
        fresh: discard a stored run of that name first.
        time_limit: seconds per decision (default 5; ``None``: no limit); a slower bot
            forfeits the game, and a bot that has not returned 0.25 s after the limit
            is stopped.
        progress: show a progress bar on stderr (``None``: when stderr is a terminal).
        isolation: ``auto`` runs import-path bots and bots of third-party plugins in
            processes of their own, fed only serialised observations; ``process`` runs
            every bot so; ``none`` runs every bot in the worker that holds the game
            state (see ``docs/how-to/hidden-information.md``).
        host: the plugin host that provides the game and bots (default: the installed
            plugins); its preferences (``PluginHost(prefer=...)``) reach every worker
            and bot process, which build their own host with them.
        sandbox: run the isolated bots under bubblewrap: no view of other processes,
            no network, a read-only file system without the database or the home
            directory (see ``docs/arena.md``); needs ``bwrap`` and an isolation mode
            other than ``none``.
        deal_secret: a new run draws a secret, stored with it, that goes into every
            deal seed, so that knowing ``seed`` does not reveal the deals (``cardcore
            arena`` always does). A resumed run uses the secret it was started with.
        concurrency: games each worker (or this process, with ``workers=0``) plays at
            once, in threads: for entrants that wait on a network rather than the CPU
            (``llm``). Each game's result is the same whatever the concurrency; it cannot
            be used with isolated entrants (their processes are one per seat and worker).
            Dask workers run as many games as they have threads instead.

    Returns:
        The statistics of the run's first ``games`` deals.

    Raises:
        ArenaError: a bad configuration, or a stored run of that name with another one.
        LookupError: an unknown game.
        OptionError: a bad preset or option.
    """
    started = time.perf_counter()
    if getattr(multiprocessing.current_process(), "_inheriting", False):
        raise ArenaError(
            f"run_arena was called while a worker process was starting: {BOOTSTRAP_HINT}"
        )
    _check_numbers(games, workers, time_limit, seed, players)
    if isolation not in ISOLATIONS:
        raise ArenaError(f"isolation must be one of {', '.join(ISOLATIONS)}, not {isolation!r}")
    if seating not in SEATINGS:
        raise ArenaError(f"seating must be one of {', '.join(SEATINGS)}, not {seating!r}")
    host = host or default_host()
    spec = host.game_spec(game)
    game_obj = host.load_game(game, preset=preset, **dict(options or {}))
    try:
        entries = resolve_bots(bots)
    except ValueError as e:
        raise ArenaError(str(e)) from None
    try:
        n = players or default_players(len(entries), game_obj.min_players, game_obj.max_players)
    except ValueError as e:
        raise ArenaError(f"{game}: {e}") from None
    if not game_obj.min_players <= n <= game_obj.max_players:
        raise ArenaError(
            f"{game} is for {game_obj.min_players}-{game_obj.max_players} players, not {n}"
        )
    teams = game_obj.teams(n)
    try:
        plan = arrangements(len(entries), n, teams, seating)
    except ValueError as e:
        raise ArenaError(f"{game}, {n} players: {e}") from None
    if games * len(plan) > MAX_GAMES:
        raise ArenaError(
            f"{games} deals x {len(plan)} seatings = {games * len(plan)} games is more than "
            f"one run may hold ({MAX_GAMES}); use fewer deals or --seating rotate"
        )
    isolated = isolated_entries(entries, isolation, host)
    if not 1 <= concurrency <= MAX_CONCURRENCY:
        raise ArenaError(f"--concurrency must be 1-{MAX_CONCURRENCY}, not {concurrency}")
    if concurrency > 1 and any(isolated):
        alone = ", ".join(e.label for e, i in zip(entries, isolated, strict=True) if i)
        raise ArenaError(
            f"--concurrency plays games in threads of one process, which isolated bots "
            f"({alone}) cannot share: use --concurrency 1, or --isolation none for bots "
            "you trust"
        )
    prefer = host_preferences(host)
    check_bot_ids(entries, host)  # before the sandbox, whose hint would hide a typo
    box = _sandbox(sandbox, isolation, entries, db)
    _check_bots(entries, game_obj, host, isolated, prefer, box)
    config = ArenaConfig(
        game=game,
        preset=preset,
        options=tuple(sorted(options_to_json(game_obj.options).items())),
        players=n,
        bots=entries,
        seed=seed,
        seating=seating,
        time_limit=time_limit,
        distribution=spec.distribution,
        version=spec.version,
    )
    run = name or game
    max_decisions = game_obj.max_decisions(n)

    with Store(db) as store:
        store.open_run(run, config.identity(), fresh=fresh, version=__version__)
        secret = store.deal_secret(run, draw=deal_secret)
        finished = store.finished(run)
        rejected = _check_stored(store, run, config, plan, games, game_obj, finished, secret)
        reused = sum(1 for d, _ in finished if d < games)
        played = 0
        tally: list[Usage | None] = [None] * len(entries)
        if reused:  # what the bots of the stored games logged (their records were read)
            for row in store.games(run, deals=games, records=True):
                if (row.deal, row.arrangement) in finished:
                    add_usage(tally, row.seats, row.record)
        # A deal's games are stored only once every seating of it is played: until then
        # a bot that can read the database finds no record of the deal it is playing.
        withheld: dict[int, list[GameRow]] = {}
        stored = {d: sum(1 for dd, _ in finished if dd == d) for d, _ in finished}

        def jobs() -> Iterator[Job]:
            for d in range(games):
                for a in range(len(plan)):
                    if (d, a) not in finished:
                        yield make_job(
                            config,
                            d,
                            a,
                            plan[a],
                            teams=teams,
                            max_decisions=max_decisions,
                            isolated=isolated,
                            prefer=prefer,
                            secret=secret,
                            sandbox=box,
                        )

        with Progress(games * len(plan), reused, enabled=progress) as bar:

            def done(job: Job, result: Result) -> None:
                nonlocal played
                deal = withheld.setdefault(job["deal"], [])
                deal.append(_row(job, result))
                if stored.get(job["deal"], 0) + len(deal) >= len(plan):
                    for row in withheld.pop(job["deal"]):
                        store.add(run, row)
                played += result.get("status") == "done"  # a failed game is not played
                if result.get("status") == "done":
                    add_usage(tally, job["seats"], result.get("record"))
                bar.advance()

            if reused < games * len(plan):
                executor = _executor(
                    _cpus() if workers is None else workers,
                    scheduler,
                    games * len(plan) - reused,
                    concurrency,
                )
                try:
                    executor.run(jobs(), done)
                finally:
                    stop_bot_processes()  # those of isolated seats played in this process
        rows = list(store.games(run, deals=games))
    results = [
        GameResult(deal=r.deal, seats=r.seats, outcome=r.outcome)
        for r in rows
        if r.status == "done" and r.outcome is not None
    ]
    deals = complete_deals(results, len(plan))
    summaries = aggregate(deals, len(entries))
    ratings, note = openskill_ratings((g for deal in deals for g in deal), len(entries))
    reasons: list[list[str]] = [[] for _ in entries]
    for r in rows:
        if r.forfeit is not None and r.reason:
            mine = reasons[r.seats[r.forfeit]]
            if r.reason not in mine and len(mine) < 3:
                mine.append(r.reason)
    stats = tuple(
        BotStats(
            bot=e.label,
            name=e.name,
            games=s.games,
            forfeits=s.forfeits,
            score=s.score,
            win_share=s.win_share,
            placing=s.placing,
            rating=None if ratings is None else ratings[i],
            forfeit_reasons=tuple(reasons[i]),
            usage=tally[i],
        )
        for i, (e, s) in enumerate(zip(entries, summaries, strict=True))
    )
    errors = tuple(
        f"deal {r.deal}, seating {r.arrangement}: {r.reason}" for r in rows if r.status == "error"
    )
    return ArenaResult(
        run=run,
        db=None if db is None else str(db),
        config=config,
        deals=games,
        arrangements=plan,
        games=sum(len(d) for d in deals),
        played=played,
        reused=reused,
        incomplete_deals=len({r.deal for r in rows}) - len(deals),
        errors=errors,
        bots=stats,
        ratings_note=note,
        rejected=tuple(rejected),
        ci_method=CI_METHOD,
        seconds=time.perf_counter() - started,
    )


def check_bot_ids(entries: Sequence[BotEntry], host: PluginHost) -> None:
    """Refuse a bot id that no installed plugin registers, before anything is started.

    An import path is checked when its bot is built. An unknown id counts as an untrusted bot under ``--isolation auto``, so without this
    a typo would be answered by the sandbox's install hint rather than by its name.

    Raises:
        ArenaError: the unknown id, with the installed bots.
    """
    for e in entries:
        if not e.is_import_path:
            try:
                host.bot_spec(e.name)
            except PluginError as err:
                raise ArenaError(str(err)) from None


def _sandbox(
    on: bool, isolation: str, entries: Sequence[BotEntry], db: str | Path | None
) -> Sandbox | None:
    """The sandbox of the isolated seats, or ``None``; refuse one that cannot run here."""
    if not on:
        return None
    if isolation == "none":
        raise ArenaError("--sandbox runs isolated bots; it cannot be used with --isolation none")
    problem = sandbox_problem()
    if problem is not None:
        raise ArenaError(problem)
    hidden: list[str] = []
    if db is not None:
        hidden = [str(db), *(f"{db}{end}" for end in ("-wal", "-shm", "-journal"))]
    modules = sorted({e.name.split(":")[0] for e in entries if e.is_import_path})
    return Sandbox(hidden=tuple(hidden), modules=tuple(modules))


def _check_numbers(
    games: int, workers: int | None, time_limit: float | None, seed: int, players: int | None
) -> None:
    """Refuse numbers that make no sense or could not be stored or held in memory."""
    if not 1 <= games <= MAX_DEALS:
        raise ArenaError(f"--games must be 1-{MAX_DEALS} (it counts deals), not {games}")
    if workers is not None and not 0 <= workers <= MAX_WORKERS:
        raise ArenaError(f"--workers must be 0-{MAX_WORKERS}, not {workers}")
    if time_limit is not None and not 0 < time_limit <= MAX_TIME_LIMIT:
        raise ArenaError(
            f"--time-limit must be more than 0 and at most {MAX_TIME_LIMIT:g} seconds, "
            f"not {time_limit}"
        )
    if not -MAX_SEED < seed < MAX_SEED:
        raise ArenaError(f"--seed must lie strictly between -2**63 and 2**63, not {seed}")
    if players is not None and not 1 <= players <= 64:
        raise ArenaError(f"--players must be 1-64, not {players}")


def _check_stored(
    store: Store,
    run: str,
    config: ArenaConfig,
    plan: Sequence[Sequence[int]],
    games: int,
    game: Any,
    finished: set[tuple[int, int]],
    secret: str | None = None,
) -> list[str]:
    """Verify each stored game that would be reused; drop the ones that do not hold.

    A stored game is reused only if its record belongs to this run (game, options,
    seed, seats, bots) and replays to its outcome (:func:`cardcore.verify`), and if the
    outcome column agrees with the record. The others are removed from ``finished``,
    so they are played again, and described in the returned list.
    """
    rejected = []
    labels = [e.label for e in config.bots]
    options = dict(config.options)
    for row in store.games(run, deals=games, records=True):
        key = (row.deal, row.arrangement)
        if row.damage is not None:  # unreadable cells: played again, whatever its status
            finished.discard(key)
            rejected.append(f"deal {row.deal}, seating {row.arrangement}: {row.damage}")
            continue
        if row.status != "done" or key not in finished:
            continue
        why = None
        try:
            if row.arrangement >= len(plan) or row.record is None or row.outcome is None:
                raise RecordError("the stored game is incomplete or has no seating")
            record = MatchRecord.from_json(row.record, source="stored record")
            seats = tuple(plan[row.arrangement])
            if (
                record.game != config.game
                or dict(record.options) != options
                or record.num_players != config.players
                or record.seed != deal_seed(config.seed, row.deal, secret)
                or row.seed != record.seed
                or tuple(row.seats) != seats
                or record.bots != tuple(labels[e] for e in seats)
            ):
                raise RecordError("it was not played with this run's game, seed or seats")
            verify(record, game)
            stored = Outcome.from_json(row.outcome)
            if record.outcome != stored or row.forfeit != stored.forfeit:
                raise RecordError("its outcome column differs from its record")
        except RecordError as e:
            why = str(e)
        except (KeyError, ValueError, TypeError) as e:
            why = f"malformed ({type(e).__name__}: {e})"
        if why is not None:
            finished.discard(key)
            rejected.append(f"deal {row.deal}, seating {row.arrangement}: {why}")
    return rejected
