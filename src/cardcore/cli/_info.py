"""``cardcore info GAME``, ``cardcore completion SHELL`` and ``cardcore --version``."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

__all__ = ["VersionAction", "game_info", "register", "version_text"]

SHELLS = ("bash", "zsh", "tcsh")
"""The shells ``cardcore completion`` writes scripts for (those shtab supports)."""


def register(sub: Any) -> None:
    """Add ``info`` and ``completion`` to the sub-commands."""
    p = sub.add_parser(
        "info",
        help="describe one game: players, presets, options, bots",
        description="Describe an installed game: its players, presets and what they set, "
        "every option with its allowed values, default and meaning, the bots that play it, "
        "its rules version and the distribution that provides it.",
    )
    p.add_argument("game", help="game id (see 'cardcore list')")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_info)

    p = sub.add_parser(
        "completion",
        help="print a shell completion script",
        description="Print a tab-completion script for cardcore's commands and options. "
        "Bash: cardcore completion bash > ~/.local/share/bash-completion/completions/cardcore "
        '(or eval "$(cardcore completion bash)" in ~/.bashrc). '
        "Zsh: cardcore completion zsh > ~/.zfunc/_cardcore, with ~/.zfunc on $fpath.",
    )
    p.add_argument("shell", choices=SHELLS, help="the shell to complete in")
    p.set_defaults(func=cmd_completion)


# ---- --version -------------------------------------------------------------------------


def version_text() -> str:
    """``cardcore X.Y.Z``, one line per installed plugin distribution, Python, and the build.

    The last line says which distributions are loaded compiled (mypyc) and which pure.
    """
    from cardcore import __version__
    from cardcore._host import default_host

    lines = [f"cardcore {__version__}"]
    seen: dict[str, str] = {}
    try:
        host = default_host()
        for p in host.plugins:
            if p.distribution and p.distribution != "cardcore":
                seen.setdefault(p.distribution, p.version)
        lines += [f"  {dist} {ver}" for dist, ver in sorted(seen.items())]
        lines += [
            f"  {pr.distribution or pr.name} (broken: run 'cardcore doctor')"
            for pr in host.problems
        ]
    except Exception as e:  # noqa: BLE001 - the version must print whatever the plugins do
        lines.append(f"  (plugins could not be listed: {e})")
    lines.append(f"Python {sys.version.split()[0]}")
    from cardcore._build import build_line

    lines.append(build_line(["cardcore", *sorted(seen)]))
    return "\n".join(lines)


class VersionAction(argparse.Action):
    """``--version``: print :func:`version_text` and exit, like argparse's own action."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        kwargs.setdefault("help", "show cardcore's version and the installed plugins', then exit")
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: object,
        option_string: str | None = None,
    ) -> NoReturn:
        print(version_text())
        parser.exit()


# ---- info ------------------------------------------------------------------------------


def _fmt(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def game_info(name: str) -> dict[str, Any]:
    """Everything ``cardcore info`` shows about one game, as JSON-ready data.

    ``teams`` maps a player count to its partnerships (seat numbers), for the counts
    that have them; ``presets`` gives every option for ``default`` and, for the other
    presets, the options they set differently.

    Raises:
        PluginError: no such game (the message names the installed ones).
    """
    from cardcore._host import default_host
    from cardcore._options import option_infos

    host = default_host()
    spec = host.game_spec(name)
    default = spec.presets["default"]
    infos = option_infos(spec.options_type)
    presets = {}
    for preset, opts in spec.presets.items():
        presets[preset] = {
            i.name: getattr(opts, i.name)
            for i in infos
            if preset == "default" or getattr(opts, i.name) != getattr(default, i.name)
        }
    options = []
    for i in infos:
        entry: dict[str, Any] = {
            "name": i.name,
            "type": i.kind.__name__,
            "default": getattr(default, i.name),
            "allowed": i.allowed(),
            "doc": i.doc,
        }
        if i.choices is not None:
            entry["choices"] = list(i.choices)
        if i.minimum is not None:
            entry["minimum"] = i.minimum
        if i.maximum is not None:
            entry["maximum"] = i.maximum
        if i.step is not None:
            entry["step"] = i.step
        options.append(entry)
    bots = [
        {
            "id": b.name,
            "games": list(b.games) or "all",
            "description": b.description,
            "distribution": b.distribution,
            "version": b.version,
            "options": [o.describe() for o in _bot_options(host, b.name)],
        }
        for b in host.bots().values()
        if not b.games or spec.name in b.games
    ]
    game = host.load_game(name)
    teams = {}
    for n in range(spec.min_players, spec.max_players + 1):
        t = game.teams(n)
        if t is not None:
            teams[str(n)] = [list(team) for team in t]
    return {
        "id": spec.name,
        "title": spec.title,
        "description": spec.description,
        "players": {"min": spec.min_players, "max": spec.max_players},
        "teams": teams,
        "rules_version": spec.rules_version,
        "distribution": spec.distribution,
        "version": spec.version,
        "presets": presets,
        "options": options,
        "bots": bots,
    }


def _bot_options(host: Any, name: str) -> tuple[Any, ...]:
    """A bot's declared options; none when its factory cannot be read (a broken plugin)."""
    try:
        return tuple(host.bot_options(name))
    except (ValueError, LookupError):
        return ()


def _info_text(info: dict[str, Any]) -> str:
    lo, hi = info["players"]["min"], info["players"]["max"]
    players = f"{lo}" if lo == hi else f"{lo}-{hi}"
    lines = [
        f"{info['title']} ({info['id']})"
        + (f": {info['description']}" if info["description"] else ""),
        f"  players        {players}",
        *(
            f"  teams          seats {' vs '.join('+'.join(map(str, t)) for t in teams)} with {n} players"
            for n, teams in info["teams"].items()
        ),
        f"  rules version  {info['rules_version']}",
        f"  distribution   {info['distribution'] or '(registered in code)'} {info['version']}".rstrip(),
        "",
        "Presets (use --preset NAME):",
    ]
    width = max(len(p) for p in info["presets"])
    for preset, values in info["presets"].items():
        if preset == "default":
            text = "every option at its default"
        elif not values:
            text = "the same as default"
        else:
            text = ", ".join(f"{k}={_fmt(v)}" for k, v in values.items())
        lines.append(f"  {preset:<{width}}  {text}")
    lines += ["", "Options (use --option NAME=VALUE; default is the default preset's value):"]
    for o in info["options"]:
        lines.append(f"  {o['name']} = {_fmt(o['default'])}")
        lines.append(f"      allowed: {o['allowed']}")
        if o["doc"]:
            lines.append(f"      {o['doc']}")
    if not info["options"]:
        lines.append("  (none)")
    lines += ["", "Bots (use --bots NAME,...):"]
    width = max((len(b["id"]) for b in info["bots"]), default=0)
    for b in info["bots"]:
        scope = "" if b["games"] == "all" else "  [this game]"
        lines.append(f"  {b['id']:<{width}}  {b['description']}{scope}")
        if b["options"]:
            lines.append(f"  {'':<{width}}  options: {', '.join(b['options'])}")
    return "\n".join(lines)


def cmd_info(args: argparse.Namespace) -> int:
    """Describe one installed game."""
    info = game_info(args.game)
    if args.json:
        print(json.dumps(info, indent=2, ensure_ascii=False))
    else:
        print(_info_text(info))
    return 0


# ---- completion ------------------------------------------------------------------------


def completion_script(shell: str, parser: argparse.ArgumentParser) -> str:
    """The completion script of ``parser`` for ``shell``, written by shtab.

    Raises:
        CliError: shtab is not installed (the message says how to install it).
    """
    from cardcore.cli._common import CliError

    try:
        import shtab
    except ImportError:
        raise CliError(
            "shell completion needs shtab, which cardcore depends on: pip install shtab"
        ) from None
    _mark_completions(parser, shtab.FILE, shtab.DIRECTORY)
    return str(shtab.complete(parser, shell=shell))


_GAME_ARGS = frozenset({"game", "games"})
_FILE_ARGS = frozenset({"file", "record", "resume", "db", "markdown", "csv"})
_DIR_ARGS = frozenset({"failure_dir"})


def _word_list(name: str, words: Sequence[str]) -> dict[str, Any]:
    """A shtab completion offering fixed words (the installed games, when the script is made)."""
    text = " ".join(words)
    return {
        "bash": f"_cardcore_{name}",
        "zsh": f"({text})",
        "tcsh": f"({text})",
        "preamble": {"bash": f'_cardcore_{name}() {{\n  compgen -W "{text}" -- "$1"\n}}\n'},
    }


def _mark_completions(parser: argparse.ArgumentParser, files: Any, dirs: Any) -> None:
    """Complete game ids, file and directory names where the commands take them."""
    from cardcore._host import default_host

    games = _word_list("games", list(default_host().games()))
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                _mark_completions(sub, files, dirs)
        elif action.dest in _GAME_ARGS and not action.option_strings:
            action.complete = games  # type: ignore[attr-defined]
        elif action.dest in _FILE_ARGS:
            action.complete = files  # type: ignore[attr-defined]
        elif action.dest in _DIR_ARGS:
            action.complete = dirs  # type: ignore[attr-defined]


def cmd_completion(args: argparse.Namespace) -> int:
    """Print the completion script of the whole command line (``args.root_parser``)."""
    sys.stdout.write(completion_script(args.shell, args.root_parser).rstrip("\n") + "\n")
    return 0
