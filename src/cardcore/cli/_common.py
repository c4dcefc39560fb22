"""What the sub-commands share: the user-error type, the plugin host, bot lists and outcomes.

It sits below ``cardcore.cli`` and every sub-command module, so they import it and
never each other.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import weakref
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, Final, final

from cardcore._botmaking import make_bot, seat_seed
from cardcore._host import PluginError, PluginHost, default_host


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

SEARCH_WORKERS_HELP = (
    "root-parallel search in N processes for every bot that takes a 'workers' option "
    "(ismcts, pimc), unless its own spec sets one; warns when the processes searching "
    "at once exceed the cores"
)
"""The help text of ``--search-workers`` (``play`` and ``arena``)."""


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
        bots[seat] = _in_process_bot(name, opts, game, seat_seed(seed, seat))
    return bots


def _in_process_bot(name: str, opts: dict[str, str], game: Any, seed: int) -> Any:
    bot = make_bot(name, opts, game, seed=seed, host=_host())
    if getattr(bot, "name", None) is None:
        # A bot that cannot take a name is shown by its class.
        with contextlib.suppress(AttributeError, TypeError):
            bot.name = name  # type: ignore[attr-defined]
    return bot


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


HUMAN: Final = "human"
"""The entry of a seat that a person plays (terminal or web table)."""


def seat_entries(spec: str, n: int, humans: Sequence[int]) -> list[str]:
    """Per seat, ``human`` or the ``--bots`` entry (with its options) that sits there."""
    entries = [p.strip() for p in spec.split(",")] if spec else []
    if entries:
        parse_bot_list(spec)  # checks every entry
    if any(e.split(":")[0].strip() == HUMAN for e in entries):
        raise CliError(
            f"{HUMAN!r} is not a bot: a person plays a seat with --human SEAT "
            "(for example --human 0 --bots random)"
        )
    out: list[str] = []
    k = 0
    for seat in range(n):
        if seat in humans:
            out.append(HUMAN)
            continue
        if not entries:
            raise CliError("--bots needs at least one bot name for the seats without --human")
        out.append(entries[k % len(entries)])
        k += 1
    return out


def table_bots(game: Any, entries: Sequence[str], seed: int) -> list[Any]:
    """The bots of a table with people at it (None at their seats), each told its match began."""
    humans = [s for s, e in enumerate(entries) if e == HUMAN]
    spec = ",".join(e for e in entries if e != HUMAN)
    bots = make_bots(game, spec, len(entries), seed, skip=humans)
    for seat, bot in enumerate(bots):
        start = getattr(bot, "start_match", None)
        if start is not None:
            start(game, seat, len(entries))
    return bots


# ---- the bots of a ``play`` table: isolation, sandbox, their processes --------------------

ISOLATION_HELP: Final = (
    "run bots in processes of their own, fed only serialised observations: 'auto' "
    "(default) for import-path bots and bots of third-party plugins, 'process' for every "
    "bot, 'none' for no bot"
)
"""The help text of ``--isolation`` (``play`` and ``arena``)."""

SANDBOX_HELP: Final = (
    "run the isolated bots under bubblewrap (bwrap): no other processes in view, no "
    "network, a read-only file system without your records, saves or home (default: on "
    "when a bot comes from an import path or a third-party plugin)"
)
"""The help text of ``play --sandbox``."""


def untrusted(names: Sequence[str]) -> bool:
    """Whether a bot spec names a bot from an import path or a third-party plugin.

    The arena's test (:func:`cardcore.arena._run.isolated_entries` under ``auto``): the
    bots of cardcore and its own game plugins are trusted, every other one is not.
    """
    from cardcore.arena._bots import parse_bot
    from cardcore.arena._run import isolated_entries

    entries = [parse_bot(n) for n in names if n != HUMAN]
    return any(isolated_entries(entries, "auto", _host()))


def _check_bot_ids(names: Sequence[str]) -> None:
    """Refuse a bot id that no installed plugin registers, before the sandbox is sought.

    Raises:
        CliError: the unknown id, with the installed bots.
    """
    from cardcore.arena._bots import parse_bot
    from cardcore.arena._run import check_bot_ids
    from cardcore.arena._store import ArenaError

    try:
        check_bot_ids([parse_bot(n) for n in names], _host())
    except ArenaError as err:
        raise CliError(str(err)) from None


UNTRUSTED_DEAL_NOTE: Final = (
    "cardcore play: a bot from an import path or a third-party plugin plays, so the deal "
    "is seeded from the seed and a secret drawn now (a bot that reads --seed cannot "
    "rebuild it): --seed does not deal it again; the record does (--record FILE, or save "
    "and --resume FILE)"
)
"""What ``play`` says when it deals with a secret."""


def secret_deal(seed: int) -> int:
    """The seed of a deal derived from ``seed`` and a secret drawn now and kept nowhere.

    What ``play`` deals when an untrusted bot sits at the table: a bot that reads
    ``--seed`` off a command line cannot rebuild the deal from it. The record holds the
    result, so the match replays and resumes from its record.
    """
    import secrets

    from cardcore.arena._seating import deal_seed

    return deal_seed(seed, 0, secrets.token_hex(16))


@final
class TableBots:
    """How ``cardcore play`` builds and runs the bots of a table (``--isolation``, ``--sandbox``).

    Called as ``table_bots(game, entries, seed)`` is, it builds the bots (isolated ones in
    processes of their own, in the sandbox when it is on). :meth:`running` wraps a match:
    the play process caps its memory for the bots that play in it, adopts what a bot
    detaches from its process tree, and, at the end, stops the bot processes and kills
    every process started while the match ran.

    Args:
        isolation: ``auto``, ``process`` or ``none`` (as ``cardcore arena --isolation``).
        sandbox: ``--sandbox`` (``None``: on when an untrusted bot is isolated).
        hidden: files a sandboxed bot must not see (the record, the resumed file).
    """

    def __init__(
        self,
        isolation: str,
        sandbox: bool | None,
        hidden: Sequence[str] = (),
        *,
        note: str | None = None,
    ) -> None:
        self.isolation = isolation
        self.sandbox = sandbox
        self.hidden = tuple(os.path.abspath(h) for h in hidden if h)
        self.note = note
        """Said on standard error once the bots are built (then forgotten)."""
        self.secret_deal = note is not None
        """Whether the deal was seeded with a secret (``--seed`` does not deal it again)."""
        self._made: weakref.WeakSet[Any] = weakref.WeakSet()
        self._last: list[Any] = []

    def _isolated(self, names: Sequence[str]) -> tuple[bool, ...]:
        from cardcore.arena._bots import parse_bot
        from cardcore.arena._run import isolated_entries

        return isolated_entries([parse_bot(n) for n in names], self.isolation, _host())

    def box(self, names: Sequence[str]) -> Any:
        """The sandbox of the isolated bots among ``names``, or ``None``.

        Raises:
            CliError: ``--sandbox`` with ``--isolation none``, or no sandbox here (one
                line that says how to install bubblewrap).
        """
        from cardcore._botspec import is_import_path, parse_bot_spec
        from cardcore._sandbox import Sandbox, sandbox_problem

        names = [n for n in names if n != HUMAN]
        _check_bot_ids(names)
        on = self.sandbox
        if on and self.isolation == "none":
            raise CliError("--sandbox runs isolated bots; it cannot be used with --isolation none")
        if on is None:
            on = self.isolation != "none" and untrusted(names)
        if not on or not any(self._isolated(names)):
            return None
        problem = sandbox_problem()
        if problem is not None:
            raise CliError(problem)
        bare = [parse_bot_spec(n)[0] for n in names]
        modules = sorted({b.split(":")[0] for b in bare if is_import_path(b)})
        return Sandbox(hidden=self.hidden, modules=tuple(modules))

    def bots(self, game: Any, entries: Sequence[str], seed: int) -> list[Any]:
        """The bots of every seat but the people's (``None`` there), not yet started."""
        from cardcore._botmaking import host_preferences
        from cardcore._isolation import START_SECONDS, IsolatedBot

        names = [e for e in entries if e != HUMAN]
        if not names:
            return [None] * len(entries)
        parse_bot_list(",".join(names))  # checks every entry
        box = self.box(names)
        alone = iter(self._isolated(names))
        _import_from_cwd(names)
        prefer = host_preferences(_host())
        out: list[Any] = []
        for seat, entry in enumerate(entries):
            if entry == HUMAN:
                out.append(None)
                continue
            name, opts = parse_bot_list(entry)[0]
            if not next(alone):
                out.append(_in_process_bot(name, opts, game, seat_seed(seed, seat)))
                continue
            bot = IsolatedBot(
                name,
                game,
                seed=seat_seed(seed, seat),
                options=opts,
                name=name,
                prefer=prefer,
                sandbox=box,
            )
            self._made.add(bot)
            failure = bot.build(START_SECONDS)  # a bad name or option: one line, now
            if failure is not None:
                raise CliError(f"bot {entry!r} {failure}")
            bot.name = bot.own_name or name  # as it would be called in this process
            out.append(bot)
        if self.note is not None:
            print(self.note, file=sys.stderr)
            self.note = None
        return out

    def __call__(self, game: Any, entries: Sequence[str], seed: int) -> list[Any]:
        """The bots of a table with people at it, each told its match began (as :func:`table_bots`).

        Raises:
            CliError: an isolated bot that cannot start (why, from its process).
        """
        from cardcore._isolation import IsolatedBot

        for old in self._last:  # the table's earlier bots (before an undo, a new deal)
            old.close()
        bots = self.bots(game, entries, seed)
        self._last = [b for b in bots if type(b) is IsolatedBot]
        for seat, bot in enumerate(bots):
            if type(bot) is IsolatedBot:
                failure = bot.start(seat, len(entries), None)
                if failure is not None:
                    raise CliError(f"seat {seat} ({entries[seat]}) {failure}")
                continue
            start = getattr(bot, "start_match", None)
            if start is not None:
                start(game, seat, len(entries))
        return bots

    @contextlib.contextmanager
    def running(self) -> Iterator[None]:
        """Run a match: memory capped, orphans adopted; at its end, bots' processes gone."""
        from cardcore._sandbox import end_new_processes, memory_capped, process_tree, subreaper

        before = frozenset(process_tree(os.getpid()))
        with subreaper(), memory_capped():
            try:
                yield
            finally:
                for bot in list(self._made):
                    bot.close()
                self._made.clear()
                end_new_processes(before)


def table_bots_for(args: argparse.Namespace) -> TableBots:
    """The :class:`TableBots` of ``cardcore play``'s arguments."""
    return TableBots(
        getattr(args, "isolation", None) or "auto",
        getattr(args, "sandbox", False),
        hidden=[p for p in (getattr(args, "record", None), getattr(args, "resume", None)) if p],
        note=UNTRUSTED_DEAL_NOTE if getattr(args, "secret_deal", False) else None,
    )
