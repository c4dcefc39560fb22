"""The ``cardcore`` command line.

Each sub-command lives in its own function; errors become one clear line on stderr and
a non-zero exit code, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Sequence
from typing import Any

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
    """Parse ``ismcts:iterations=200,random`` into names with options."""
    out = []
    for part in text.split(","):
        part = part.strip()  # noqa: PLW2901
        if not part:
            raise CliError(f"empty bot name in {text!r}")
        name, *opts = part.split(":")
        out.append((name, _parse_kv(opts, f"bot option for {name}")))
    return out


def _coerce(v: str) -> Any:
    low = v.lower()
    if low in ("true", "false"):
        return low == "true"
    for conv in (int, float):
        try:
            return conv(v)
        except ValueError:
            pass
    return v


def _host() -> PluginHost:
    return default_host()


# ---- list / doctor ---------------------------------------------------------------------


def cmd_list(args: argparse.Namespace) -> int:
    """List installed games and bots."""
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
            "distribution": b.distribution,
            "version": b.version,
            "description": b.description,
        }
        for b in host.bots().values()
    ]
    if args.json:
        print(json.dumps({"games": games, "bots": bots}, indent=2, ensure_ascii=False))
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
    if host.problems:
        print(f"\n{len(host.problems)} plugin(s) failed to load: run 'cardcore doctor'.")
    return 0


def cmd_doctor(args: argparse.Namespace) -> int:
    """Show every plugin, its version, and any load error."""
    host = _host()
    print("Plugins:")
    for p in host.plugins:
        print(f"  ok     {p.name:<16} {p.distribution or '(registered)'} {p.version}")
    for pr in host.problems:
        print(f"  BROKEN {pr.name:<16} {pr.distribution} : {pr.error}")
        if args.verbose and pr.details:
            print("         " + pr.details.replace("\n", "\n         "))
    print(f"{len(host.games())} games, {len(host.bots())} bots, {len(host.problems)} problem(s)")
    return 1 if host.problems else 0


# ---- play ------------------------------------------------------------------------------


def _build_game(args: argparse.Namespace) -> Any:
    options = _parse_kv(args.option or [], "--option")
    return _host().load_game(args.game, preset=args.preset, **options)


def _num_players(game: Any, args: argparse.Namespace, nbots: int) -> int:
    n = args.players if args.players is not None else nbots
    if not game.min_players <= n <= game.max_players:
        raise CliError(
            f"{game.name} is for {game.min_players}-{game.max_players} players, not {n}"
            + ("" if args.players is not None else " (one per bot; use --players)")
        )
    return int(n)


def make_bots(game: Any, spec: str, n: int, seed: int, skip: Sequence[int] = ()) -> list[Any]:
    """Build bots for every seat not in ``skip`` from a ``--bots`` list (cycled if short)."""
    entries = parse_bot_list(spec) if spec else []
    seats = [s for s in range(n) if s not in skip]
    if not entries and seats:
        raise CliError("--bots needs at least one bot name")
    bots: list[Any] = [None] * n
    for k, seat in enumerate(seats):
        name, opts = entries[k % len(entries)]
        bot = _host().load_bot(
            name, game, seed=seed * 1000 + seat, **{o: _coerce(v) for o, v in opts.items()}
        )
        if getattr(bot, "name", None) is None:
            bot.name = name
        bots[seat] = bot
    return bots


def cmd_play(args: argparse.Namespace) -> int:
    """Play a match between bots (and humans) and show it."""
    if args.resume:
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
        record.save(args.record)
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
        print(f"{args.file}: OK, {len(record.actions)} actions replay to the recorded outcome")
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
    from cardcore.testing import PROPERTIES, Config, configurations, run_checks

    host = _host()
    spec = host.game_spec(args.game)
    if args.preset:
        if args.preset not in spec.presets:
            raise CliError(f"unknown preset {args.preset!r}; presets are {', '.join(spec.presets)}")
        configs = [Config(args.preset)]
    else:
        configs = configurations(spec)
    players = [args.players] if args.players else None

    def progress(line: str) -> None:
        print(f"  checking {line} ...", file=sys.stderr, flush=True)

    report = run_checks(
        args.game,
        configs=configs,
        players=players,
        games=args.games,
        seed=args.seed,
        host=host,
        failure_dir=args.failure_dir,
        progress=None if args.quiet else progress,
    )
    print(
        f"cardcore certify {args.game}: {len(configs)} configuration(s), "
        f"{report.games_played} games, {report.decisions} decisions"
    )
    failed = {(r.property) for _, _, r in report.failures()}
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
        "list", help="list installed games and bots", description="List installed games and bots."
    )
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_list)

    p = sub.add_parser(
        "doctor",
        help="show plugins and load errors",
        description="Show every plugin, its version and any load error; exit 1 if a plugin is broken.",
    )
    p.add_argument("--verbose", "-v", action="store_true", help="show tracebacks")
    p.set_defaults(func=cmd_doctor)

    p = sub.add_parser(
        "play",
        help="play a match",
        description="Play a match between bots (and humans) and show it turn by turn.",
    )
    _add_game_args(p)
    p.add_argument(
        "--bots",
        default="",
        help="comma-separated bots for the seats, e.g. random,ismcts:iterations=200",
    )
    p.add_argument(
        "--human",
        type=int,
        action="append",
        metavar="SEAT",
        help="a human plays this seat; repeatable",
    )
    p.add_argument("--players", type=int, help="number of seats (default: one per bot and human)")
    p.add_argument("--seed", type=int, default=0, help="match seed (default: %(default)s)")
    p.add_argument("--dealer", type=int, help="dealer seat (default: as the rules say)")
    p.add_argument("--record", metavar="FILE", help="save the match record (JSON) here")
    p.add_argument("--resume", metavar="FILE", help="resume a saved match (a human game)")
    p.add_argument(
        "--time-limit", type=float, help="seconds per bot decision; a slower bot forfeits"
    )
    p.add_argument("--json", action="store_true", help="print only the outcome as JSON")
    p.add_argument(
        "--verbose", "-v", action="store_true", help="draw the table after every decision"
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
        help="random games per configuration (default: %(default)s)",
    )
    p.add_argument("--seed", type=int, default=0, help="seed (default: %(default)s)")
    p.add_argument("--failure-dir", default="cardcore-failures", help="where failing replays go")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress lines")
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
