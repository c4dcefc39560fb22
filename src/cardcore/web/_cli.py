"""``cardcore play GAME --web``: build the table from the command line and serve it."""

from __future__ import annotations

import argparse
import contextlib
import secrets
import sys
import warnings
from typing import Any

from cardcore._engine import MatchRecord
from cardcore._game import Game
from cardcore._hooks import LayoutHints
from cardcore._options import options_to_json
from cardcore.cli import _common as cli
from cardcore.web._match import HUMAN, WebTable

__all__ = ["build_table", "play_web", "rules_text"]


def hint_bot(game: Game[Any, Any, Any], seat: int, n: int, seed: int) -> tuple[str, Any]:
    """The game's heuristic bot (else ``random``), ready to advise ``seat``."""
    host = cli._host()
    name = f"{game.name}-heuristic"
    spec = host.bots().get(name)
    if spec is None or (spec.games and game.name not in spec.games):
        name = "random"
    bot = host.load_bot(name, game, seed=seed)
    start = getattr(bot, "start_match", None)
    if start is not None:
        start(game, seat, n)
    return name, bot


def rules_text(game_id: str) -> str:
    """The rules the game's plugin ships (``GameSpec.rules_text``), else its README."""
    from importlib import metadata

    host = cli._host()
    try:
        spec = host.game_spec(game_id)
        if spec.rules_text.strip():
            return spec.rules_text
        meta = metadata.metadata(spec.distribution)
    except Exception:  # noqa: BLE001 - no text is no reason to refuse a table
        return ""
    payload = getattr(meta, "get_payload", None)
    body = payload() if payload is not None else ""
    return str(body or meta["Description"] or meta["Summary"] or "")


def layout_hints(game_id: str) -> tuple[LayoutHints, ...]:
    """The plugins' layout hints for the game; none, with a warning, if they fail."""
    try:
        return cli._host().layout_hints(game_id)
    except Exception as e:  # noqa: BLE001 - a drawing hint is no reason to refuse a table
        warnings.warn(
            f"the layout hints for {game_id!r} are ignored: {type(e).__name__}: {e}",
            UserWarning,
            stacklevel=2,
        )
        return ()


def _seed_given(args: argparse.Namespace) -> bool:
    """Whether ``--seed`` was given (else each table draws a new deal)."""
    return args.seed is not None


def build_table(args: argparse.Namespace, **kwargs: Any) -> WebTable:
    """The table ``cardcore play ... --web`` describes (a new match, or ``--resume``)."""
    if args.resume:
        if args.human or args.bots:
            raise cli.CliError("--resume takes the seats from the file; drop --human and --bots")
        record = MatchRecord.load(str(args.resume))
        if args.game is not None and args.game != record.game:
            raise cli.CliError(f"{args.resume} is a match of {record.game!r}, not {args.game!r}")
        if record.outcome is not None:
            raise cli.CliError(f"{args.resume}: this match is over (see it with: cardcore replay)")
        if HUMAN not in record.bots:
            raise cli.CliError(f"{args.resume}: no seat of this match is played by a person")
        game = cli._host().load_game(record.game, **dict(record.options))
    else:
        if args.game is None:
            raise cli.CliError("give a GAME to play, or --resume FILE")
        game = cli._build_game(args)
        humans = sorted(set(args.human or [0]))
        nbots = len(cli.parse_bot_list(args.bots)) if args.bots else 0
        n = cli._num_players(game, args, nbots + len(humans))
        for h in humans:
            if not 0 <= h < n:
                raise cli.CliError(f"--human {h} is not a seat (0-{n - 1})")
        entries = cli.seat_entries(args.bots or ("random" if n > len(humans) else ""), n, humans)
        seed = args.seed if _seed_given(args) else secrets.randbelow(2**31)
        host = cli._host()
        spec = host.game_spec(game.name) if game.name in host.games() else None
        record = MatchRecord(
            game=game.name,
            options=options_to_json(game.options),
            num_players=n,
            seed=seed,
            actions=(),
            preset=args.preset,
            distribution=spec.distribution if spec is not None else "",
            version=spec.version if spec is not None else "",
            dealer=args.dealer,
            bots=tuple(entries),
        )
    if args.record:
        cli._check_record_path(args.record)
    hot_seat = bool(getattr(args, "hot_seat", False))
    if hot_seat and record.bots.count(HUMAN) < 2:
        raise cli.CliError(
            "--hot-seat passes one screen between people: give two --human seats or more"
        )
    if "layout_hints" not in kwargs:
        kwargs["layout_hints"] = layout_hints(game.name)
    if "make_bots" not in kwargs:  # isolated, sandboxed bots as in the terminal
        kwargs["make_bots"] = cli.table_bots_for(args)
    return WebTable(
        game,
        record,
        hint_bot=hint_bot,
        record_path=args.record,
        hot_seat=hot_seat,
        **kwargs,
    )


def play_web(args: argparse.Namespace) -> int:
    """Serve the table until interrupted; print each human seat's link and open the first.

    The bots are built as ``play`` builds them in the terminal (``--isolation``,
    ``--sandbox``), and what they start ends with the table.
    """
    bots = cli.table_bots_for(args)
    with bots.running():  # what the bots start ends with the table
        return _serve(args, build_table(args, make_bots=bots))


def _serve(args: argparse.Namespace, table: WebTable) -> int:
    from cardcore.web._server import TableServer

    server = TableServer(table, rules=rules_text(table.game.name), time_limit=args.time_limit)
    try:
        sock = server.bind(args.host, args.port)
    except OSError as e:
        raise cli.CliError(f"cannot listen on {args.host}:{args.port}: {e.strerror or e}") from None
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    base = f"http://{shown}:{port}"
    links = server.links(base)
    screen = server.screen_link(base)
    # Ctrl-C may come as soon as the table says it stops it: from the first line on, it
    # stops the table quietly (and saves an unfinished deal), never with a traceback.
    with contextlib.suppress(KeyboardInterrupt):
        if _seed_given(args) and not getattr(args, "secret_deal", False):
            print(f"{table.game.name}: {table.n} players, seed {table.base.seed}")
        else:  # the seed deals every hidden card: the table shows it once the deal is over
            print(f"{table.game.name}: {table.n} players, a new deal (seed shown when it is over)")
        for s, who in enumerate(table.entries):
            print(f"  seat {s}: {who}" + (f"  {links[s]}" if s in links else ""))
        if screen is not None:
            people = ", ".join(str(s) for s in table.humans)
            print(f"seats {people} share one screen: {screen}")
            print(
                "it hides every card between two people's turns; Ctrl-C stops the table", flush=True
            )
        else:
            print("each link is that seat's alone; Ctrl-C stops the table", flush=True)
        if not args.no_browser:
            import webbrowser

            webbrowser.open(screen if screen is not None else links[min(links)])
        server.serve(sock)
    if table.outcome is None and table.actions:
        path = table.save()
        print(
            f"the unfinished deal was saved to {path} (resume: cardcore play --resume {path} --web)"
        )
    sys.stdout.flush()
    return 0
