"""The ``cardcore`` command line.

Each sub-command lives in its own function; errors become one clear line on stderr and
a non-zero exit code, never a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import os
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs

from cardcore._engine import MatchRecord, RecordError, Step, play_match, replay, verify
from cardcore._game import IllegalActionError
from cardcore._host import PluginError, PluginHost, default_host
from cardcore._options import OptionError, option_infos
from cardcore._table import SPECTATOR

__all__ = ["build_parser", "main"]


class CliError(Exception):
    """A user error: printed as one line, exit code 2."""


def _parse_kv(items: Sequence[str], what: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in items:
        if "=" not in item:
            raise CliError(f"{what} {item!r} must look like key=value")
        k, v = item.split("=", 1)
        out[k.strip()] = v.strip()
    return out


def parse_bot_list(text: str) -> list[tuple[str, dict[str, str]]]:
    """Parse ``ismcts:iterations=200,my_pkg.bots:Greedy`` into names with text options.

    The same parser reads ``cardcore arena --bots`` and :func:`cardcore.load_bot`;
    option values are converted to the types each bot declares when it is built.
    """
    from cardcore._botspec import parse_bot_spec

    out = []
    for part in text.split(","):
        if not part.strip():
            raise CliError(f"empty bot name in {text!r}")
        try:
            out.append(parse_bot_spec(part))
        except ValueError as e:
            raise CliError(str(e)) from None
    return out


SEARCH_SECONDS_HELP = (
    "search budget in seconds per decision for every bot that takes a 'seconds' option "
    "(ismcts, pimc), unless its own spec sets one; with an 'iterations' option too, "
    "whichever limit comes first. The bots keep it within about 10%% at the 95th "
    "percentile, so it must be at most --time-limit / 1.1"
)
"""The help text of ``--search-seconds`` (``play`` and ``arena``)."""


def with_search_seconds(spec: str, seconds: float | None, time_limit: float | None) -> str:
    """Give ``seconds=S`` to every bot of a ``--bots`` list that takes it and lacks it.

    A bot takes it when its factory declares a ``seconds`` option (the search bots do);
    a spec that sets ``seconds`` itself keeps its own. Names that do not resolve are left
    as they are, for the usual error when the bots are built.

    Raises:
        CliError: ``seconds`` is not positive, or leaves no room under ``time_limit``.
    """
    if seconds is None:
        return spec
    if not seconds > 0:
        raise CliError(f"--search-seconds must be a positive number of seconds, not {seconds}")
    if time_limit is not None and seconds * 1.1 > time_limit:
        raise CliError(
            f"--search-seconds {seconds:g} leaves no room under --time-limit {time_limit:g}: "
            f"a search may run up to 10% over its budget and would forfeit; give "
            f"--time-limit {seconds * 1.1 + 0.05:.2f} or more, or a smaller budget"
        )
    from cardcore._botspec import parse_bot_spec

    host = _host()
    out = []
    for part in spec.split(","):
        try:
            name, options = parse_bot_spec(part)
            takes = any(o.name == "seconds" for o in host.bot_options(name))
        except (ValueError, PluginError):
            takes = False
        out.append(
            f"{part.strip()}:seconds={seconds:g}" if takes and "seconds" not in options else part
        )
    return ",".join(out)


def _import_from_cwd(names: Sequence[str]) -> None:
    """Let import-path bots resolve from the current directory, as with ``python -m``."""
    if any(":" in n for n in names) and os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.append(os.getcwd())  # appended, so it shadows nothing installed


def _host() -> PluginHost:
    return default_host()


# ---- list / doctor ---------------------------------------------------------------------


def _bot_options_json(host: PluginHost, name: str) -> list[dict[str, Any]]:
    return [o.to_json() for o in host.bot_options(name)]


def cmd_list(args: argparse.Namespace) -> int:
    """List installed games and bots, each bot with the options it declares."""
    host = _host()
    games = [
        {
            "id": g.name,
            "title": g.title,
            "players": [g.min_players, g.max_players],
            "presets": list(g.presets),
            "options": [i.name for i in option_infos(g.options_type)],
            "distribution": g.distribution,
            "version": g.version,
            "description": g.description,
        }
        for g in host.games().values()
    ]
    bots = [
        {
            "id": b.name,
            "games": list(b.games) or "all",
            "options": _bot_options_json(host, b.name),
            "distribution": b.distribution,
            "version": b.version,
            "description": b.description,
        }
        for b in host.bots().values()
    ]
    unresolved = [c for c in host.conflicts if not c.resolved]
    if args.json:
        data = {
            "games": games,
            "bots": bots,
            "conflicts": [c.to_json() for c in host.conflicts],
            "problems": len(host.problems),
        }
        print(json.dumps(data, indent=2, ensure_ascii=False))
        return 0
    print("Games:")
    for spec in host.games().values():
        lo, hi = spec.min_players, spec.max_players
        players = f"{lo}" if lo == hi else f"{lo}-{hi}"
        print(
            f"  {spec.name:<10} {spec.title:<12} players {players:<4} "
            f"presets {', '.join(spec.presets)}  ({spec.distribution} {spec.version})"
        )
    print("Bots:")
    for bot in host.bots().values():
        games_txt = ", ".join(bot.games) or "all"
        print(f"  {bot.name:<18} for {games_txt:<10} {bot.description}")
        opts = host.bot_options(bot.name)
        if opts:
            print(f"  {'':<18} options: {'; '.join(o.describe() for o in opts)}")
    if unresolved:
        names = ", ".join(f"{c.kind} {c.name!r}" for c in unresolved)
        print(
            f"\nRegistered by more than one plugin, and refused: {names} (see 'cardcore doctor')."
        )
    if host.problems:
        print(f"\n{len(host.problems)} plugin(s) failed to load: run 'cardcore doctor'.")
    return 0


def cmd_doctor(args: argparse.Namespace) -> int:
    """Show every plugin, its version, load errors and id conflicts.

    Exits 1 when a plugin is broken or an id is registered twice without a choice.
    """
    host = _host()
    problems, conflicts = host.problems, host.conflicts
    unresolved = [c for c in conflicts if not c.resolved]
    status = 1 if problems or unresolved else 0
    if args.json:
        data = {
            "ok": status == 0,
            "plugins": [attrs.asdict(p) for p in host.plugins],
            "problems": [
                {k: v for k, v in attrs.asdict(pr).items() if args.verbose or k != "details"}
                for pr in problems
            ],
            "conflicts": [c.to_json() for c in conflicts],
            "games": len(host.games()),
            "bots": len(host.bots()),
        }
        print(json.dumps(data, indent=2, ensure_ascii=False))
        return status
    print("Plugins:")
    broken = {pr.name for pr in problems}
    for p in host.plugins:
        if p.name not in broken:
            print(f"  ok     {p.name:<16} {p.distribution or '(registered)'} {p.version}")
    for pr in problems:
        print(f"  BROKEN {pr.name:<16} {pr.distribution} : {pr.error}")
        if args.verbose and pr.details:
            print("         " + pr.details.replace("\n", "\n         "))
    if conflicts:
        print("Conflicts:")
        for c in conflicts:
            print(f"  {'chosen' if c.resolved else 'REFUSED':<6} {c.message()}")
    print(
        f"{len(host.games())} games, {len(host.bots())} bots, {len(problems)} problem(s), "
        f"{len(unresolved)} unresolved conflict(s)"
    )
    return status


# ---- play ------------------------------------------------------------------------------


def _build_game(args: argparse.Namespace) -> Any:
    options = _parse_kv(args.option or [], "--option")
    return _host().load_game(args.game, preset=args.preset, **options)


def _num_players(game: Any, args: argparse.Namespace, seats: int) -> int:
    """``--players``, else one seat per bot and human, at least as many as the game needs."""
    if args.players is not None:
        n = args.players
        if not game.min_players <= n <= game.max_players:
            raise CliError(
                f"{game.name} is for {game.min_players}-{game.max_players} players, not {n}"
            )
        return int(n)
    if seats > game.max_players:
        raise CliError(
            f"{game.name} is for {game.min_players}-{game.max_players} players, not {seats} "
            "(one seat per bot and human)"
        )
    return int(max(seats, game.min_players))


def make_bots(game: Any, spec: str, n: int, seed: int, skip: Sequence[int] = ()) -> list[Any]:
    """Build bots for every seat not in ``skip`` from a ``--bots`` list (cycled if short)."""
    entries = parse_bot_list(spec) if spec else []
    seats = [s for s in range(n) if s not in skip]
    if not entries and seats:
        raise CliError("--bots needs at least one bot name")
    _import_from_cwd([name for name, _ in entries])
    bots: list[Any] = [None] * n
    for k, seat in enumerate(seats):
        name, opts = entries[k % len(entries)]
        bot = _host().load_bot(name, game, seed=seed * 1000 + seat, **opts)
        if getattr(bot, "name", None) is None:
            # A bot that cannot take a name is shown by its class.
            with contextlib.suppress(AttributeError, TypeError):
                bot.name = name  # type: ignore[attr-defined]
        bots[seat] = bot
    return bots


def _check_record_path(path: str) -> None:
    """Make sure ``--record`` can be written before a match is played (creates folders)."""
    target = Path(path)
    if target.is_dir():
        raise CliError(f"--record {path}: is a folder; give a file name such as {path}/match.json")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise CliError(f"--record {path}: cannot create its folder: {e.strerror or e}") from None
    if not os.access(target.parent, os.W_OK):
        raise CliError(f"--record {path}: the folder {target.parent} is not writable")


def _save_record(record: MatchRecord, path: str) -> str:
    """Save the record; if that fails after all, save it elsewhere and say where."""
    try:
        record.save(path)
    except OSError as e:
        fd, fallback = tempfile.mkstemp(prefix="cardcore-match-", suffix=".json")
        os.close(fd)
        record.save(fallback)
        raise CliError(
            f"--record {path}: cannot write it ({e.strerror or e}); the match was saved to "
            f"{fallback} instead"
        ) from None
    return path


def cmd_play(args: argparse.Namespace) -> int:
    """Play a match between bots (and humans) and show it."""
    if args.time_limit is not None and not args.time_limit > 0:
        raise CliError(f"--time-limit must be a positive number of seconds, not {args.time_limit}")
    args.bots = with_search_seconds(args.bots, args.search_seconds, args.time_limit)
    if args.web:
        from cardcore.web import play_web

        return play_web(args)
    if args.resume:
        if args.record:
            _check_record_path(args.record)
        return _play_resume(args)
    if args.game is None:
        raise CliError("give a GAME to play, or --resume FILE")
    game = _build_game(args)
    humans = sorted(set(args.human or []))
    nbots = len(parse_bot_list(args.bots)) if args.bots else 0
    n = _num_players(game, args, nbots + len(humans))
    for h in humans:
        if not 0 <= h < n:
            raise CliError(f"--human {h} is not a seat (0-{n - 1})")
    if args.record:
        _check_record_path(args.record)  # before playing: a finished match is never lost
    if humans:
        from cardcore.cli._human import play_human

        return int(play_human(game, args, n, humans))
    bots = make_bots(game, args.bots, n, args.seed)
    names = [getattr(b, "name", type(b).__name__) for b in bots]

    def show(step: Step) -> None:
        if args.json:
            return
        print(f"seat {step.seat} ({names[step.seat]}): {step.action}")
        if args.verbose or game.current_player(step.after) is None:
            print(_indent(game.render(game.observe(step.after, SPECTATOR))))

    if not args.json:
        print(f"{game.name}: {n} players, preset {args.preset}, seed {args.seed}")
        for i, name in enumerate(names):
            print(f"  seat {i}: {name}")
    record = play_match(
        game,
        bots,
        seed=args.seed,
        dealer=args.dealer,
        names=names,
        preset=args.preset,
        on_step=show,
        time_limit=args.time_limit,
    )
    if args.record:
        _save_record(record, args.record)
    outcome = record.outcome
    assert outcome is not None
    if args.json:
        print(
            json.dumps(
                {"outcome": outcome.to_json(), "bots": names, "decisions": len(record.actions)},
                ensure_ascii=False,
            )
        )
    else:
        print(_describe_outcome(outcome, names, len(record.actions)))
        if args.record:
            print(f"record saved to {args.record}")
    return 0


def _play_resume(args: argparse.Namespace) -> int:
    from cardcore.cli._human import resume_human

    return int(resume_human(args))


def _indent(text: str) -> str:
    return "    " + text.replace("\n", "\n    ")


def _describe_outcome(outcome: Any, names: Sequence[str], decisions: int) -> str:
    lines = [
        f"Game over after {decisions} decision{'s' if decisions != 1 else ''}"
        + (f" ({outcome.reason})" if outcome.reason else "")
        + "."
    ]
    for i, (score, place) in enumerate(zip(outcome.scores, outcome.placing, strict=True)):
        share = outcome.shares[i]
        win = f"  wins {share}" if share else ""
        lines.append(f"  seat {i} ({names[i]}): score {score:g}, place {place}{win}")
    return "\n".join(lines)


# ---- replay ----------------------------------------------------------------------------


def cmd_replay(args: argparse.Namespace) -> int:
    """Show a recorded match, or verify that it replays."""
    record = MatchRecord.load(args.file)
    seat = args.as_seat if args.as_seat is not None else SPECTATOR
    if seat != SPECTATOR and not 0 <= seat < record.num_players:
        raise CliError(f"--as {seat} is not a seat of this match (0-{record.num_players - 1})")
    if args.verify:
        verify(record)
        out = record.outcome
        what = (
            "the recorded outcome"
            if out is None or out.forfeit is None
            else f"the point where seat {out.forfeit} forfeited"
        )
        print(f"{args.file}: OK, {len(record.actions)} actions replay to {what}")
        return 0
    host = _host()
    try:
        game = host.load_game(record.game, **dict(record.options))
    except (PluginError, OptionError) as e:
        raise RecordError(f"{args.file}: {e}") from None
    if args.html:
        from cardcore.cli._report import write_replay_html

        return write_replay_html(game, record, args.as_seat, args.html)
    if args.json:
        from cardcore.cli._replay_json import replay_json

        print(json.dumps(replay_json(record, game, seat), ensure_ascii=False))
        return 0
    if args.interactive:
        from cardcore.cli._human import browse_replay

        return int(browse_replay(game, record, seat))
    who = "the table (every action, public cards)" if seat == SPECTATOR else f"seat {seat}"
    print(f"{record.game}: {record.num_players} players, seed {record.seed}, seen by {who}")
    from cardcore._engine import initial_state_of

    state = initial_state_of(record, game)
    print(_indent(game.render(game.observe(state, seat))))
    for step in replay(record, game):
        # The record holds every action; a seat's view shows only its own by name.
        shown = step.action if seat in (SPECTATOR, step.seat) else "(moves)"
        print(f"seat {step.seat}: {shown}")
        print(_indent(game.render(game.observe(step.after, seat))))
    if record.outcome is not None:
        print(
            _describe_outcome(
                record.outcome, record.bots or ["?"] * record.num_players, len(record.actions)
            )
        )
    return 0


# ---- certify ---------------------------------------------------------------------------


def cmd_certify(args: argparse.Namespace) -> int:
    """Run the conformance kit on an installed game."""
    import json
    import os
    import time

    from cardcore.testing import MAX_GAMES, PROPERTIES, Config, configurations, run_checks

    if not 1 <= args.games <= MAX_GAMES:
        raise CliError(f"--games must be between 1 and {MAX_GAMES}, not {args.games}")
    if not -(2**63) <= args.seed < 2**63:
        raise CliError(f"--seed must fit in 64 bits, not {args.seed}")
    if not 0 < args.timeout <= 86_400:
        raise CliError(f"--timeout must be between 0 and 86400 seconds, not {args.timeout:g}")
    cpus = os.cpu_count() or 1
    jobs = args.jobs if args.jobs is not None else cpus
    if not 1 <= jobs <= 256:
        raise CliError(f"--jobs must be between 1 and 256, not {jobs}")
    host = _host()
    spec = host.game_spec(args.game)
    if args.preset:
        if args.preset not in spec.presets:
            raise CliError(f"unknown preset {args.preset!r}; presets are {', '.join(spec.presets)}")
        configs = [Config(args.preset)]
    else:
        configs = configurations(spec)
    if args.players is not None and not spec.min_players <= args.players <= spec.max_players:
        raise CliError(
            f"--players: {args.game} plays {spec.min_players}-{spec.max_players} players, "
            f"not {args.players}"
        )
    players = [args.players] if args.players is not None else None
    counts = 1 if players else spec.max_players - spec.min_players + 1
    total = len(configs) * counts * args.games
    start = time.monotonic()
    show = not args.quiet and sys.stderr.isatty()
    done = [0]

    def clock(seconds: float) -> str:
        m, sec = divmod(int(seconds + 0.5), 60)
        return f"{m}m{sec:02d}s" if m else f"{sec}s"

    def tick() -> None:
        done[0] += 1
        elapsed = time.monotonic() - start
        eta = elapsed / done[0] * (total - done[0])
        sys.stderr.write(
            f"\r  {args.game}: {done[0]}/{total} games, {clock(elapsed)} elapsed, "
            f"about {clock(eta)} left \x1b[K"
        )
        sys.stderr.flush()

    try:
        report = run_checks(
            args.game,
            configs=configs,
            players=players,
            games=args.games,
            seed=args.seed,
            failure_dir=args.failure_dir,
            timeout=args.timeout,
            tick=tick if show else None,
            jobs=jobs,
        )
    finally:
        if show:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()
    seconds = time.monotonic() - start
    failed = {r.property for _, _, r in report.failures()}
    if args.json:
        data = {
            "game": args.game,
            "certified": report.ok,
            "configurations": [c.label() for c in configs],
            "games": report.games_played,
            "decisions": report.decisions,
            "seconds": round(seconds, 3),
            "properties": {p: ("failed" if p in failed else "passed") for p in PROPERTIES},
            "failures": [
                {
                    "property": r.property,
                    "configuration": label,
                    "players": n,
                    "message": r.message,
                    "record": str(r.record_path) if r.record_path else None,
                }
                for label, n, r in report.failures()
            ],
        }
        print(json.dumps(data, indent=1, ensure_ascii=False))
        return 0 if report.ok else 1
    print(
        f"cardcore certify {args.game}: {len(configs)} configuration(s), "
        f"{report.games_played} games, {report.decisions} decisions, {clock(seconds)}"
    )
    for prop, text in PROPERTIES.items():
        mark = "FAILED" if prop in failed else "passed"
        print(f"  {mark:<7}{prop:<19} {text}")
    for label, n, r in report.failures():
        print(f"\nFAILED {r.property} ({label}, {n} players): {r.message}")
        if r.record_path:
            print(f"  minimal replay: {r.record_path} (open with: cardcore replay {r.record_path})")
    print("\ncertified" if report.ok else "\nNOT certified")
    return 0 if report.ok else 1


# ---- parser ----------------------------------------------------------------------------


def _add_game_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", nargs="?", help="game id (see 'cardcore list'); omit with --resume")
    p.add_argument("--preset", default="default", help="rules preset (default: %(default)s)")
    p.add_argument(
        "--option", "-o", action="append", metavar="K=V", help="override one option; repeatable"
    )


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every sub-command."""
    parser = argparse.ArgumentParser(
        prog="cardcore", description="Card games, bots, tournaments and the tools to trust them."
    )
    from cardcore.cli._info import VersionAction

    parser.add_argument("--version", action=VersionAction)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    p = sub.add_parser(
        "list",
        help="list installed games and bots",
        description="List installed games, and bots with the options each declares.",
    )
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_list)

    p = sub.add_parser(
        "doctor",
        help="show plugins, load errors and id conflicts",
        description=(
            "Show every plugin, its version, any load error, and any game or bot id that "
            "several plugins register (refused unless CARDCORE_PREFER=ID=DISTRIBUTION "
            "chooses one). Exit 1 if a plugin is broken or a conflict is unresolved."
        ),
    )
    p.add_argument("--verbose", "-v", action="store_true", help="show tracebacks")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_doctor)

    p = sub.add_parser(
        "play",
        help="play a match",
        description=(
            "Play a match between bots (and humans) and show it turn by turn. The bots "
            "fill the seats without --human in seat order; a shorter --bots list is "
            "repeated, and without --players there are as many seats as bots and humans, "
            "at least the game's minimum (so 'cardcore play nestors --human 0 --bots "
            "nestors-heuristic' gives three heuristic bots)."
        ),
    )
    _add_game_args(p)
    p.add_argument(
        "--bots",
        default="",
        help=(
            "comma-separated bots for the seats: registered ids or package.module:Class "
            "paths, with :key=value options, e.g. random,ismcts:iterations=200 "
            "(repeated to fill the seats; options per bot: 'cardcore list')"
        ),
    )
    p.add_argument(
        "--human",
        type=int,
        action="append",
        metavar="SEAT",
        help="a human plays this seat; repeatable",
    )
    p.add_argument(
        "--players",
        type=int,
        help="number of seats (default: one per bot and human, at least the game's minimum)",
    )
    p.add_argument("--seed", type=int, default=0, help="match seed (default: %(default)s)")
    p.add_argument("--dealer", type=int, help="dealer seat (default: as the rules say)")
    p.add_argument(
        "--record",
        metavar="FILE",
        help="save the match record (JSON) here; missing folders are created before play",
    )
    p.add_argument("--resume", metavar="FILE", help="resume a saved match (a human game)")
    p.add_argument(
        "--time-limit", type=float, help="seconds per bot decision; a slower bot forfeits"
    )
    p.add_argument("--search-seconds", type=float, metavar="SECONDS", help=SEARCH_SECONDS_HELP)
    p.add_argument("--json", action="store_true", help="print only the outcome as JSON")
    p.add_argument(
        "--verbose", "-v", action="store_true", help="draw the table after every decision"
    )
    p.add_argument(
        "--web",
        action="store_true",
        help="play at a card table in the browser (one link per --human seat; needs the web extra)",
    )
    p.add_argument(
        "--host", default="127.0.0.1", help="--web: address to serve on (default: %(default)s)"
    )
    p.add_argument("--port", type=int, default=0, help="--web: port (default: any free port)")
    p.add_argument(
        "--no-browser", action="store_true", help="--web: print the links, open no browser"
    )
    p.set_defaults(func=cmd_play)

    p = sub.add_parser(
        "replay",
        help="show or verify a recorded match",
        description="Show a recorded match, as the onlooker or as one seat, or verify that it replays.",
    )
    p.add_argument("file", help="a match record (JSON)")
    p.add_argument("--verify", action="store_true", help="replay and check the recorded outcome")
    p.add_argument(
        "--as", dest="as_seat", type=int, metavar="SEAT", help="show only what this seat saw"
    )
    p.add_argument(
        "--interactive", "-i", action="store_true", help="step through (next/prev/jump/end)"
    )
    p.add_argument(
        "--html",
        metavar="OUT",
        help="write a self-contained HTML viewer (seen by --as SEAT, or by every seat once "
        "the match is over)",
    )
    p.add_argument("--json", action="store_true", help="print the steps as JSON")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser(
        "certify",
        help="run the conformance kit on a game",
        description="Play a game at random and check every property cardcore promises (leaks included).",
    )
    p.add_argument("game", help="game id")
    p.add_argument(
        "--preset", help="check only this preset (default: every preset and single-option change)"
    )
    p.add_argument("--players", type=int, help="check only this player count")
    p.add_argument(
        "--games",
        type=int,
        default=10,
        help="random games per configuration and player count (default: %(default)s)",
    )
    p.add_argument("--seed", type=int, default=0, help="seed (default: %(default)s)")
    p.add_argument("--failure-dir", default="cardcore-failures", help="where failing replays go")
    p.add_argument(
        "--timeout",
        type=float,
        default=120.0,
        metavar="SECONDS",
        help="time limit for one game with all its checks (default: %(default)g)",
    )
    p.add_argument(
        "--jobs",
        "-j",
        type=int,
        metavar="N",
        help="check configurations in N processes side by side (default: one per CPU)",
    )
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress on the terminal")
    p.set_defaults(func=cmd_certify)

    for module in _EXTRA_COMMANDS:
        importlib.import_module(module).register(sub)
    return parser


_EXTRA_COMMANDS: tuple[str, ...] = (
    "cardcore.cli._arena",
    "cardcore.cli._bench",
    "cardcore.cli._info",
    "cardcore.cli._newgame",
    "cardcore.cli._serve",
)
"""Sub-commands defined in their own modules; each has ``register(subparsers)``."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except (CliError, RecordError, PluginError, OptionError, IllegalActionError, ValueError) as e:
        print(f"cardcore {args.command}: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"cardcore {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


def entry() -> None:
    """Console-script entry point."""
    sys.exit(main())
