"""The ``cardcore`` command line.

Each sub-command lives in its own function; errors become one clear line on stderr and
a non-zero exit code, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
import tempfile
from collections.abc import Sequence
from typing import Any

import attrs

from cardcore._engine import play_match
from cardcore._game import IllegalActionError
from cardcore._host import PluginError, PluginHost
from cardcore._match_record import MatchRecord, RecordError, Step, replay, verify
from cardcore._options import OptionError, option_infos
from cardcore._table import SPECTATOR
from cardcore.cli import _common
from cardcore.cli._certify import cmd_certify
from cardcore.cli._common import (
    ISOLATION_HELP,
    SANDBOX_HELP,
    SEARCH_SECONDS_HELP,
    SEARCH_WORKERS_HELP,
    CliError,
    _build_game,
    _check_record_path,
    _describe_outcome,
    _indent,
    _num_players,
    parse_bot_list,
    seat_entries,
    secret_deal,
    table_bots_for,
    untrusted,
    with_search_seconds,
)

__all__ = ["build_parser", "main"]


def _host() -> PluginHost:
    """The plugin host (``cardcore.cli._common._host``, which tests replace)."""
    return _common._host()


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
    from cardcore.bots._parallel import with_search_workers

    try:
        args.bots = with_search_workers(args.bots, args.search_workers)
    except ValueError as e:
        raise CliError(str(e)) from None
    if args.web:
        if (
            args.seed is not None
            and args.bots
            and untrusted([p.strip() for p in args.bots.split(",") if p.strip()])
        ):
            args.seed = secret_deal(args.seed)  # as below: a command line is no secret
            args.secret_deal = True
        from cardcore.web import play_web

        return play_web(args)
    if args.resume:
        if args.record:
            _check_record_path(args.record)
        return _play_resume(args)
    if args.game is None:
        raise CliError("give a GAME to play, or --resume FILE")
    args.drawn_seed = args.seed is None
    if args.seed is None:  # a new deal every time; the header says how to play it again
        import secrets

        args.seed = secrets.randbelow(2**31)
    game = _build_game(args)
    humans = sorted(set(args.human or []))
    nbots = len(parse_bot_list(args.bots)) if args.bots else 0
    n = _num_players(game, args, nbots + len(humans))
    for h in humans:
        if not 0 <= h < n:
            raise CliError(f"--human {h} is not a seat (0-{n - 1})")
    if untrusted([p.strip() for p in args.bots.split(",") if p.strip()]):
        # --seed may be read off a command line by any process of the user: deal from it
        # and a secret instead; the record holds the deal.
        args.seed = secret_deal(args.seed)
        args.drawn_seed = False
        args.secret_deal = True  # said once the bots are built
    if args.record:
        _check_record_path(args.record)  # before playing: a finished match is never lost
    if humans:
        from cardcore.cli._human import play_human

        return int(play_human(game, args, n, humans))
    table = table_bots_for(args)
    with table.running():
        bots = table.bots(game, seat_entries(args.bots, n, ()), args.seed)
        names = [getattr(b, "name", type(b).__name__) for b in bots]

        def show(step: Step) -> None:
            if args.json:
                return
            print(f"seat {step.seat} ({names[step.seat]}): {step.action}")
            if args.verbose or game.current_player(step.after) is None:
                print(_indent(game.render(game.observe(step.after, SPECTATOR))))

        if not args.json:
            print(f"{game.name}: {n} players, preset {args.preset}, seed {args.seed}")
            if args.drawn_seed:
                print(f"  (a seed drawn at random: --seed {args.seed} deals this match again)")
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
                {
                    "outcome": outcome.to_json(),
                    "bots": names,
                    "decisions": len(record.actions),
                    "seed": args.seed,
                },
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


# ---- replay ----------------------------------------------------------------------------


def cmd_replay(args: argparse.Namespace) -> int:
    """Show a recorded match, or verify that it replays.

    Every replay checks the recorded outcome against where the actions lead (it costs
    one more pass over the actions); a difference is shown, and the exit code is 1.
    Errors name the file.
    """
    from cardcore.cli._replay_json import read_replay_file

    loaded = read_replay_file(args.file)
    if not isinstance(loaded, MatchRecord):
        return _show_seat_view(loaded, args)
    record = loaded
    seat = args.as_seat if args.as_seat is not None else SPECTATOR
    if seat != SPECTATOR and not 0 <= seat < record.num_players:
        raise CliError(f"--as {seat} is not a seat of this match (0-{record.num_players - 1})")
    if args.verify:
        try:
            verify(record)
        except RecordError as e:
            raise RecordError(f"{args.file}: {e}") from None
        out = record.outcome
        n = len(record.actions)
        if out is None:
            print(
                f"{args.file}: OK, {n} actions replay; the match is unfinished "
                "(no outcome is recorded, and the actions stop before the end)"
            )
        elif out.forfeit is None:
            print(f"{args.file}: OK, {n} actions replay to the recorded outcome")
        else:
            print(
                f"{args.file}: OK, {n} actions replay to the point where seat {out.forfeit} "
                "forfeited"
            )
        return 0
    host = _host()
    try:
        game = host.load_game(record.game, **dict(record.options))
    except (PluginError, OptionError) as e:
        raise RecordError(f"{args.file}: {e}") from None
    mismatch = _outcome_mismatch(record, game, args.file)
    if args.html:
        from cardcore.cli._report import write_replay_html

        code = write_replay_html(game, record, args.as_seat, args.html)
    elif args.json:
        from cardcore.cli._replay_json import replay_json

        print(json.dumps(replay_json(record, game, seat), ensure_ascii=False))
        code = 0
    elif args.interactive:
        from cardcore.cli._human import browse_replay

        if mismatch:
            print(f"warning: {mismatch}", file=sys.stderr)
        code = int(browse_replay(game, record, seat))
    else:
        _print_replay(record, game, seat, full=args.transcripts)
        code = 0
    if mismatch:
        print(f"cardcore replay: {mismatch}", file=sys.stderr)
        return 1
    return code


def _outcome_mismatch(record: MatchRecord, game: Any, path: str) -> str | None:
    """Replay ``record`` and say how its recorded outcome differs from the replay's.

    Returns:
        ``None`` when the outcome is the one the actions give (or a consistent forfeit).

    Raises:
        RecordError: an action does not replay (naming the file).
    """
    from cardcore._match_record import check_outcome, initial_state_of

    try:
        state = initial_state_of(record, game)
        for step in replay(record, game):
            state = step.after
    except RecordError as e:
        raise RecordError(f"{path}: {e}") from None
    try:
        check_outcome(record, game, state)
    except RecordError as e:
        return f"{path}: the recorded outcome is not what the actions give: {e}"
    return None


def _print_replay(record: MatchRecord, game: Any, seat: int, *, full: bool = False) -> None:
    """The text replay: the table, or one seat's view (no seed, no deck, its actions).

    Under each decision, the transcript its bot logged (a seat's view: only its own), in
    one line, or whole with ``full``.
    """
    from cardcore._match_record import check_outcome, initial_state_of
    from cardcore.cli._transcripts import by_decision

    seats = range(record.num_players) if seat == SPECTATOR else (seat,)
    logged = by_decision(record.transcripts, seats)

    if seat == SPECTATOR:
        print(
            f"{record.game}: {record.num_players} players, seed {record.seed}, "
            "seen by the table (every action, public cards)"
        )
    else:
        # A seat's view never shows the seed: with it, every hidden card can be dealt again.
        print(f"{record.game}: {record.num_players} players, seen by seat {seat}")
    state = initial_state_of(record, game)
    print(_indent(game.render(game.observe(state, seat))))
    for step in replay(record, game):
        # The record holds every action; a seat's view shows only its own by name.
        shown = step.action if seat in (SPECTATOR, step.seat) else "(moves)"
        print(f"seat {step.seat}: {shown}")
        _print_transcript(logged.get(step.index, ()), full)
        print(_indent(game.render(game.observe(step.after, seat))))
        state = step.after
    forfeited = logged.get(len(record.actions), ())
    if forfeited:
        print(f"seat {forfeited[0][0]}: (no legal action)")
        _print_transcript(forfeited, full)
    if record.outcome is not None:
        try:
            check_outcome(record, game, state)
        except RecordError:
            print("The recorded outcome below is NOT what the actions give:")
        print(
            _describe_outcome(
                record.outcome, record.bots or ["?"] * record.num_players, len(record.actions)
            )
        )
    elif game.current_player(state) is not None:
        print("The record ends here: the match was not finished.")


def _print_transcript(entries: Any, full: bool) -> None:
    """A decision's transcript entries, indented under it: a summary, or whole."""
    from cardcore.cli._transcripts import entry_lines, summary

    for _, entry in entries:
        print(_indent("\n".join(entry_lines(entry)) if full else summary(entry)))


def _show_seat_view(view: dict[str, Any], args: argparse.Namespace) -> int:
    """``cardcore replay`` of one seat's view: shown as it is; never replayed.

    Raises:
        CliError: what was asked needs the match record (the seed, every action).
    """
    seat = int(view["seen_by"])
    where = f"{args.file} is seat {seat}'s view of a match"
    lacks = "it holds no seed, no deck and not every action"
    if args.verify:
        raise CliError(f"{where}: {lacks}, so it cannot be replayed or verified")
    if args.as_seat is not None and args.as_seat != seat:
        raise CliError(f"{where}: it cannot be shown as seat {args.as_seat}")
    if args.html or args.interactive:
        what = "--html" if args.html else "--interactive"
        raise CliError(
            f"{where}: {what} needs the match record; this file can be shown as text or --json"
        )
    if args.json:
        print(json.dumps(view, ensure_ascii=False))
        return 0
    try:
        game = _host().load_game(view["game"], **dict(view["options"]))
    except (PluginError, OptionError) as e:
        raise RecordError(f"{args.file}: {e}") from None

    def draw(data: Any, what: str) -> None:
        try:
            observation = game.observation_from_json(data)
        except (KeyError, ValueError, TypeError) as e:
            raise RecordError(
                f"{args.file}: {what} is not an observation of {game.name}: {e}"
            ) from None
        print(_indent(game.render(observation)))

    from cardcore.cli._transcripts import by_decision

    print(f"{view['game']}: {view['num_players']} players, seen by seat {seat}")
    draw(view["initial"], "field 'initial'")
    own = view.get("transcript")
    logged = (
        by_decision([[e for e in own if isinstance(e, dict)]], [0]) if isinstance(own, list) else {}
    )
    for i, step in enumerate(view["steps"]):
        shown = step["action"] if step["action"] is not None else "(moves)"
        print(f"seat {step['seat']}: {shown}")
        _print_transcript(logged.get(int(step.get("index", i)), ()), args.transcripts)
        draw(step["observation"], f"step #{i + 1}")
    forfeited = logged.get(len(view["steps"]), ())
    if forfeited:
        print(f"seat {seat}: (no legal action)")
        _print_transcript(forfeited, args.transcripts)
    outcome = view.get("outcome")
    if outcome is not None:
        from cardcore._game import Outcome

        try:
            result = Outcome.from_json(outcome)
        except (KeyError, ValueError, TypeError) as e:
            raise RecordError(f"{args.file}: field 'outcome' is malformed ({e})") from None
        bots = view.get("bots") or ["?"] * int(view["num_players"])
        print(_describe_outcome(result, bots, len(view["steps"])))
    return 0


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
    p.add_argument(
        "--seed",
        type=int,
        help="match seed, to play a deal again (default: drawn at random, and printed)",
    )
    p.add_argument("--dealer", type=int, help="dealer seat (default: as the rules say)")
    p.add_argument(
        "--record",
        metavar="FILE",
        help="save the match record (JSON) here; missing folders are created before play",
    )
    p.add_argument("--resume", metavar="FILE", help="resume a saved match (a human game)")
    p.add_argument(
        "--isolation", choices=("auto", "process", "none"), help=ISOLATION_HELP
    )  # None: auto
    p.add_argument(
        "--sandbox", action=argparse.BooleanOptionalAction, default=None, help=SANDBOX_HELP
    )
    p.add_argument(
        "--time-limit", type=float, help="seconds per bot decision; a slower bot forfeits"
    )
    p.add_argument("--search-seconds", type=float, metavar="SECONDS", help=SEARCH_SECONDS_HELP)
    p.add_argument("--search-workers", type=int, metavar="N", help=SEARCH_WORKERS_HELP)
    p.add_argument("--json", action="store_true", help="print only the outcome as JSON")
    p.add_argument(
        "--verbose", "-v", action="store_true", help="draw the table after every decision"
    )
    p.add_argument(
        "--auto-forced",
        action=argparse.BooleanOptionalAction,
        help="play a person's only legal action for them, and say so (default: on at a "
        "terminal, off when the moves come from a script)",
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
    p.add_argument(
        "--hot-seat",
        action="store_true",
        help="--web: the --human seats share one screen, which hides every card between "
        "two people's turns (the terminal always plays people this way)",
    )
    p.set_defaults(func=cmd_play)

    p = sub.add_parser(
        "replay",
        help="show or verify a recorded match",
        description=(
            "Show a recorded match, as the onlooker or as one seat, or verify that it "
            "replays. Every replay checks the recorded outcome and says when the actions "
            "give another one (exit code 1). A seat's view (--as SEAT, in every form) holds "
            "neither the seed nor a stacked deck, so it can be handed to that seat's player."
        ),
    )
    p.add_argument(
        "file", help="a match record (JSON), or one seat's view written by --json --as SEAT"
    )
    p.add_argument("--verify", action="store_true", help="replay and check the recorded outcome")
    p.add_argument(
        "--as",
        dest="as_seat",
        type=int,
        metavar="SEAT",
        help="show only what this seat saw (without the seed or the deck)",
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
    p.add_argument(
        "--transcripts",
        action="store_true",
        help="show whole what bots logged of each decision (an llm seat's prompts, answers "
        "and refusals; a seat's view: its own only), not just a line each",
    )
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
    # ``cardcore completion`` draws the whole command line without importing this module.
    parser.set_defaults(root_parser=parser)
    return parser


_EXTRA_COMMANDS: tuple[str, ...] = (
    "cardcore.cli._arena",
    "cardcore.cli._bench",
    "cardcore.cli._info",
    "cardcore.cli._newgame",
    "cardcore.cli._rules",
    "cardcore.cli._serve",
)
"""Sub-commands defined in their own modules; each has ``register(subparsers)``."""


def _subparser(parser: argparse.ArgumentParser, command: str) -> argparse.ArgumentParser:
    """The parser of one sub-command (the top-level parser if there is none)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            found = action.choices.get(command)
            if isinstance(found, argparse.ArgumentParser):
                return found
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code."""
    parser = build_parser()
    args, unknown = parser.parse_known_args(argv)
    if unknown:  # with the sub-command's usage, not the top-level one
        _subparser(parser, args.command).error(f"unrecognized arguments: {' '.join(unknown)}")
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
