"""The plugin host: the one place that talks to pluggy.

It discovers plugins through the ``cardcore`` entry-point group, checks what they
register, and turns a plugin that fails into a reported problem instead of a crash.
"""

from __future__ import annotations

import functools
import importlib
import importlib.metadata
import itertools
import os
import re
import traceback
import types
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Literal, TypeVar, final

import attrs
import pluggy

from cardcore._botspec import (
    BotOption,
    bot_options,
    build_bot,
    import_bot_factory,
    is_import_path,
    parse_bot_spec,
)
from cardcore._game import Bot, BotSpec, CodecSpec, Game, GameSpec
from cardcore._hooks import CardcoreHooks, LayoutHints, Plugin, SearchHints
from cardcore._options import build_options

__all__ = [
    "PluginConflict",
    "PluginHost",
    "PluginInfo",
    "PluginProblem",
    "default_host",
    "load_bot",
    "load_game",
]

ENTRY_POINT_GROUP = "cardcore"
BUILTIN_PLUGINS = ("cardcore.bots._plugin",)
BUILTIN_NAME = "cardcore-builtins"
MAX_RECORDS = 1000
"""Most records one plugin's hook may yield (a generator that never ends is cut off)."""
PREFER_ENV = "CARDCORE_PREFER"
"""Environment variable choosing a provider for a contested id: ``nyuri=cardcore-nyuri,...``."""

_Kind = Literal["game", "bot", "codec", "search hints"]
_R = TypeVar("_R", GameSpec, BotSpec, CodecSpec, SearchHints)


@final
class PluginError(LookupError):
    """A game or bot name that is not registered, or a conflict between plugins."""


@final
@attrs.frozen(kw_only=True)
class PluginInfo:
    """One registered plugin module."""

    name: str
    """The entry-point name (or module name for built-ins and programmatic plugins)."""
    module: str
    """The hooks module (or the entry point's ``module:object`` for a :class:`Plugin`)."""
    distribution: str
    """The distribution that ships it (``cardcore`` for built-ins)."""
    version: str
    """That distribution's version."""


@final
@attrs.frozen(kw_only=True)
class PluginProblem:
    """A plugin that could not be used, and why."""

    name: str
    """The entry-point or module name."""
    distribution: str
    """The distribution that ships it, if known."""
    error: str
    """One line: the exception."""
    details: str = ""
    """The traceback, for ``cardcore doctor --verbose``."""


@final
@attrs.frozen(kw_only=True)
class PluginConflict:
    """One id registered by more than one plugin, and what the host did about it."""

    kind: str
    """``game``, ``bot``, ``codec`` or ``search hints`` (the last two by their game's id)."""
    name: str
    """The contested id (``nyuri``)."""
    providers: tuple[str, ...]
    """Who registers it: ``cardcore-nyuri (plugin 'nyuri')``, in discovery order."""
    chosen: str = ""
    """The provider in use, chosen by ``prefer`` or ``CARDCORE_PREFER``; empty when the id
    is refused."""

    @property
    def resolved(self) -> bool:
        """Whether one provider was chosen (otherwise the id is refused)."""
        return bool(self.chosen)

    def message(self) -> str:
        """One line naming every provider and how to choose."""
        both = (
            " and ".join(self.providers) if len(self.providers) == 2 else ", ".join(self.providers)
        )
        head = f"{self.kind} id {self.name!r} is registered by {both}"
        if self.chosen:
            return f"{head}; using {self.chosen} (chosen by {PREFER_ENV} or prefer=)"
        return (
            f"{head}; {self.name!r} is refused until you choose one, e.g. "
            f"{PREFER_ENV}={self.name}=DISTRIBUTION or PluginHost(prefer={{{self.name!r}: ...}})"
        )

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {
            "kind": self.kind,
            "id": self.name,
            "providers": list(self.providers),
            "chosen": self.chosen or None,
        }


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _declared_plugin(module: object, where: str = "") -> tuple[object, str]:
    """The record a hooks module declares, if it has a Plugin and no hook functions.

    So an entry point or ``register`` naming the module (``cardcore_mygame.hooks``)
    finds the ``plugin = Plugin(...)`` it holds instead of registering nothing.
    """
    if not isinstance(module, types.ModuleType):
        return module, where
    names = vars(module)
    if any(hasattr(v, f"{ENTRY_POINT_GROUP}_impl") for v in names.values()):
        return module, where
    declared = [k for k, v in names.items() if isinstance(v, Plugin)]
    if len(declared) != 1:
        return module, where
    return names[declared[0]], f"{module.__name__}:{declared[0]}"


def _provider(info: PluginInfo) -> str:
    return (
        f"{info.distribution} (plugin {info.name!r})"
        if info.distribution
        else f"plugin {info.name!r}"
    )


def _parse_prefer(text: str) -> tuple[dict[str, str], list[str]]:
    """``nyuri=cardcore-nyuri,random=cardcore`` as a mapping, and the malformed items."""
    out: dict[str, str] = {}
    bad: list[str] = []
    for item in text.split(","):
        if not item.strip():
            continue
        key, eq, value = item.partition("=")
        if not eq or not key.strip() or not value.strip():
            bad.append(item.strip())
            continue
        out[key.strip()] = value.strip()
    return out, bad


def _version(dist: str) -> str:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return "0+unknown"


@final
class PluginHost:
    """Discovers and holds the games and bots of every plugin.

    Args:
        load_entrypoints: discover installed plugins (turn off for isolated tests).
        builtins: register cardcore's own bots.
        prefer: for an id that several plugins register, the distribution (or plugin
            name) to take it from: ``{"nyuri": "cardcore-nyuri"}``. ``None`` reads the
            ``CARDCORE_PREFER`` environment variable (``nyuri=cardcore-nyuri,...``);
            pass ``{}`` to ignore it.

    Discovery runs once, when the host is built; nothing happens at import time. An id
    registered twice never breaks the other games and bots: without a preference that id
    alone is refused, with an error naming both providers (see :attr:`conflicts`).
    """

    def __init__(
        self,
        *,
        load_entrypoints: bool = True,
        builtins: bool = True,
        prefer: Mapping[str, str] | None = None,
    ) -> None:
        self._pm = pluggy.PluginManager(ENTRY_POINT_GROUP)
        self._pm.add_hookspecs(CardcoreHooks)
        self._plugins: list[PluginInfo] = []
        self._problems: list[PluginProblem] = []
        self._games: dict[str, GameSpec] | None = None
        self._bots: dict[str, BotSpec] | None = None
        self._codecs: dict[str, CodecSpec] | None = None
        self._hints: dict[str, SearchHints] | None = None
        self._conflicts: list[PluginConflict] = []
        if prefer is None:
            prefer = _prefer_from_env(self._problems)
        self._prefer = {k: _norm(v) for k, v in prefer.items()}
        if builtins:
            _register_builtins(self)
        if load_entrypoints:
            _load_entrypoints(self)

    def register(self, module: types.ModuleType | object, *, name: str | None = None) -> None:
        """Register a hooks module (or object) directly, e.g. from a notebook or test.

        A module that declares a :class:`cardcore.Plugin` (``plugin = Plugin(...)``) and
        no hook functions registers that record, as its entry point would.
        """
        label = name or str(getattr(module, "__name__", type(module).__name__))
        module, where = _declared_plugin(module)
        _register_module(self, module, label, "", "", where)

    @property
    def plugins(self) -> tuple[PluginInfo, ...]:
        """The registered plugin modules."""
        return tuple(self._plugins)

    @property
    def prefer(self) -> Mapping[str, str]:
        """The provider chosen for each contested id (``prefer=`` or ``CARDCORE_PREFER``)."""
        return types.MappingProxyType(self._prefer)

    @property
    def problems(self) -> tuple[PluginProblem, ...]:
        """Plugins that failed to load or register, with the reason."""
        _collect(self)
        return tuple(self._problems)

    @property
    def conflicts(self) -> tuple[PluginConflict, ...]:
        """Ids that several plugins register: resolved by a preference, or refused."""
        _collect(self)
        return tuple(self._conflicts)

    def games(self) -> Mapping[str, GameSpec]:
        """Every registered game by id, sorted by id."""
        _collect(self)
        assert self._games is not None
        return self._games

    def bots(self) -> Mapping[str, BotSpec]:
        """Every registered bot by id, sorted by id."""
        _collect(self)
        assert self._bots is not None
        return self._bots

    def codecs(self) -> Mapping[str, CodecSpec]:
        """Every registered RL codec by game id, sorted by id."""
        _collect(self)
        assert self._codecs is not None
        return self._codecs

    def search_hints(self) -> Mapping[str, SearchHints]:
        """Every game's search hints (``cardcore_register_search_hints``) by game id."""
        _collect(self)
        assert self._hints is not None
        return self._hints

    def layout_hints(self, game: str) -> tuple[LayoutHints, ...]:
        """The layout hints the plugins give for ``game``, applied in turn by the web table.

        Read when a table is set up, not at discovery. Raises ``TypeError`` when a hook
        yields something other than LayoutHints (and whatever a plugin's hook raised).
        """
        return _layout_hints(self._pm, game)

    def game_spec(self, name: str) -> GameSpec:
        """The spec of one game.

        Raises:
            PluginError: no such game (the message lists the installed ones).
        """
        games = self.games()
        if name not in games:
            _check_not_refused(self, "game", name)
            known = ", ".join(games) or "none installed"
            raise PluginError(f"unknown game {name!r}; installed games: {known}")
        return games[name]

    def bot_spec(self, name: str) -> BotSpec:
        """The spec of one bot.

        Raises:
            PluginError: no such bot (the message lists the installed ones).
        """
        bots = self.bots()
        if name not in bots:
            _check_not_refused(self, "bot", name)
            raise PluginError(f"unknown bot {name!r}; installed bots: {', '.join(bots)}")
        return bots[name]

    def load_game(
        self, name: str, *, preset: str = "default", **options: Any
    ) -> Game[Any, Any, Any]:
        """Build a game from its id, a preset and option overrides.

        Raises:
            PluginError: unknown game.
            OptionError: unknown preset or option, or a value out of range.
        """
        spec = self.game_spec(name)
        opts = build_options(spec.options_type, spec.presets, preset, options)
        return spec.factory(opts)

    def bot_factory(self, name: str) -> Callable[..., Any]:
        """The factory of a registered bot id or of an import path ``package.module:Class``.

        Raises:
            PluginError: unknown bot id.
            ValueError: an import path that does not import.
        """
        if is_import_path(name):
            return import_bot_factory(name)
        return self.bot_spec(name).factory

    def bot_options(self, name: str) -> tuple[BotOption, ...]:
        """The options a bot takes as text, by id or path: what ``--bots`` may give it.

        Its factory's keyword parameters whose values can be written as text; one that
        takes a Python object (``hints``, a ``SearchHints``) is left out (see
        :attr:`BotOption.from_text`), and is given to :func:`load_bot` in Python.

        Raises:
            PluginError: unknown bot id.
            ValueError: an import path that does not import.
        """
        return tuple(o for o in bot_options(self.bot_factory(name)) if o.from_text)

    def load_bot(
        self, name: str, game: Game[Any, Any, Any], *, seed: int = 0, **options: Any
    ) -> Bot:
        """Build a bot for a game from a bot spec and options.

        Args:
            name: a registered id (``ismcts``), an import path (``my_pkg.bots:Greedy``),
                either followed by ``:key=value`` options (``ismcts:iterations=200``),
                as ``cardcore play --bots`` and ``cardcore arena --bots`` take them.
            game: the game it plays.
            seed: its seed (passed when the factory takes a ``seed`` parameter).
            **options: more options, as Python values or command-line text.

        Returns:
            The bot.

        Raises:
            PluginError: unknown bot, or a bot that does not play this game.
            ValueError: an option the bot does not declare (the message lists its
                options), a value of the wrong type (``iterations must be an integer,
                not 'abc'``), a factory whose constructor cardcore cannot call, or
                one that makes something without an ``act`` method.
        """
        bot_name, text_options = parse_bot_spec(name)
        both = sorted(set(text_options) & set(options))
        if both:
            raise ValueError(f"bot {name!r}: option(s) {', '.join(both)} given twice")
        if not is_import_path(bot_name):
            _check_plays(self.bot_spec(bot_name), bot_name, game)
        factory = self.bot_factory(bot_name)
        bot = build_bot(bot_name, factory, game, seed=seed, options={**text_options, **options})
        return _checked_bot(bot_name, bot)


def _register_builtins(host: PluginHost) -> None:
    """Register cardcore's own bots (the ``builtin`` plugin)."""
    for mod in BUILTIN_PLUGINS:
        _register_module(
            host, importlib.import_module(mod), BUILTIN_NAME, "cardcore", _version("cardcore")
        )


def _layout_hints(pm: pluggy.PluginManager, game: str) -> tuple[LayoutHints, ...]:
    """Every ``LayoutHints`` the plugins' hooks give for ``game``, in hook order."""
    found: list[LayoutHints] = []
    for records in pm.hook.cardcore_register_layout_hints():
        for rec in itertools.islice(records, MAX_RECORDS):
            if not isinstance(rec, LayoutHints):
                raise TypeError(
                    f"cardcore_register_layout_hints yielded {type(rec).__name__}, not LayoutHints"
                )
            if rec.game == game:
                found.append(rec)
    return tuple(found)


def _check_plays(spec: BotSpec, bot_name: str, game: Game[Any, Any, Any]) -> None:
    """Refuse a registered bot for a game it does not declare it plays."""
    if spec.games and game.name not in spec.games:
        raise PluginError(f"bot {bot_name!r} plays {', '.join(spec.games)}, not {game.name!r}")


def _checked_bot(bot_name: str, bot: Any) -> Bot:
    """``bot``, once it is seen to have an ``act`` method."""
    if not callable(getattr(bot, "act", None)):
        raise ValueError(
            f"bot {bot_name!r} is no bot: it made {type(bot).__name__} {_short(bot)}, "
            "which has no act(observation) method (a bot is an object with one)"
        )
    return bot  # type: ignore[no-any-return]


def _prefer_from_env(problems: list[PluginProblem]) -> dict[str, str]:
    """The preferences of ``CARDCORE_PREFER``; each malformed entry is a problem."""
    parsed, bad = _parse_prefer(os.environ.get(PREFER_ENV, ""))
    for item in bad:
        problems.append(
            PluginProblem(
                name=PREFER_ENV,
                distribution="",
                error=f"entry {item!r} must look like id=distribution",
            )
        )
    return parsed


# ---- discovery and checks: the host's private side -------------------------------------


def _register_module(
    host: PluginHost, module: object, name: str, dist: str, version: str, label: str = ""
) -> None:
    try:
        hash(module)
    except TypeError:
        # pluggy keeps plugins in sets: one unhashable plugin would break every hook
        raise TypeError(
            f"plugin {name!r} is a {type(module).__name__}, which cannot be hashed; "
            "an entry point must name a module or a cardcore.Plugin"
        ) from None
    host._pm.register(module, name=name)
    host._plugins.append(
        PluginInfo(
            name=name,
            module=label or getattr(module, "__name__", type(module).__name__),
            distribution=dist,
            version=version,
        )
    )
    hooks = sorted(n for n in dir(CardcoreHooks) if n.startswith("cardcore_"))
    for attr in sorted(dir(module)):
        impl = getattr(module, attr, None)
        if hasattr(impl, f"{ENTRY_POINT_GROUP}_impl") and attr not in hooks:
            host._problems.append(
                PluginProblem(
                    name=name,
                    distribution=dist,
                    error=f"{attr} is not a cardcore hook, so it is never called "
                    f"(the hooks are {', '.join(hooks)})",
                )
            )
    host._games = host._bots = host._codecs = host._hints = None


def _load_entrypoints(host: PluginHost) -> None:
    eps = sorted(importlib.metadata.entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name)
    for ep in eps:
        dist = ep.dist.name if ep.dist is not None else ""
        version = ep.dist.version if ep.dist is not None else ""
        name = ep.name
        if host._pm.has_plugin(name):
            if any(p.name == name and p.distribution == dist for p in host._plugins):
                continue  # the same entry point seen twice (e.g. an editable install)
            name = f"{dist}:{ep.name}"  # another distribution took the name first
        try:
            module, where = _declared_plugin(ep.load(), getattr(ep, "value", ""))
            _register_module(host, module, name, dist, version, where)
        except (Exception, SystemExit) as e:  # noqa: BLE001 - a broken plugin must not break the others
            host._problems.append(
                PluginProblem(
                    name=ep.name,
                    distribution=dist,
                    error=f"{type(e).__name__}: {e}",
                    details=traceback.format_exc(),
                )
            )


# ---- the only caller of pm.hook ---------------------------------------------------------


def _collect(host: PluginHost) -> None:
    if (
        host._games is not None
        and host._bots is not None
        and host._codecs is not None
        and host._hints is not None
    ):
        return
    host._problems = [p for p in host._problems if not p.error.startswith("register: ")]
    host._conflicts = []
    games = _gather(host, "cardcore_register_games", GameSpec)
    bots = _gather(host, "cardcore_register_bots", BotSpec)
    codecs = _gather(host, "cardcore_register_codecs", CodecSpec)
    hints = _gather(host, "cardcore_register_search_hints", SearchHints)
    host._games = _resolve(host, "game", games)
    host._bots = _resolve(host, "bot", bots)
    host._codecs = _resolve(host, "codec", codecs)
    host._hints = _resolve(host, "search hints", hints)


def _gather(
    host: PluginHost, hook_name: str, kind: type[_R]
) -> dict[str, list[tuple[_R, PluginInfo]]]:
    """Every record of one hook by id, with the plugin that gave it; faults reported."""
    table: dict[str, list[tuple[_R, PluginInfo]]] = {}
    for info in host._plugins:
        plugin = host._pm.get_plugin(info.name)
        if plugin is None or getattr(plugin, hook_name, None) is None:
            continue
        try:
            records = list(itertools.islice(_call(host._pm, hook_name, plugin), MAX_RECORDS + 1))
            if len(records) > MAX_RECORDS:
                raise ValueError(f"{hook_name} yielded more than {MAX_RECORDS} records")
            mine: list[tuple[str, _R]] = []
            for rec in records:
                if not isinstance(rec, kind):
                    raise TypeError(
                        f"{hook_name} yielded {type(rec).__name__}, not {kind.__name__}"
                    )
                key, stamped = _stamp(rec, info)
                if not isinstance(key, str) or not key:
                    raise TypeError(
                        f"{hook_name} yielded a {kind.__name__} whose id is {key!r}, "
                        "not a non-empty string"
                    )
                if any(key == k for k, _ in mine):
                    raise ValueError(f"{hook_name} yielded the id {key!r} twice")
                mine.append((key, stamped))
        except (Exception, SystemExit) as e:  # noqa: BLE001 - report, do not crash (even sys.exit)
            host._problems.append(
                PluginProblem(
                    name=info.name,
                    distribution=info.distribution,
                    error=f"register: {type(e).__name__}: {e}",
                    details=traceback.format_exc(),
                )
            )
            continue
        for key, rec in mine:  # all or nothing: a plugin that fails registers none
            table.setdefault(key, []).append((rec, info))
    return table


def _resolve(
    host: PluginHost, kind: _Kind, table: Mapping[str, list[tuple[_R, PluginInfo]]]
) -> dict[str, _R]:
    """One record per id; an id given by several plugins is chosen or refused."""
    out: dict[str, _R] = {}
    for key in sorted(table):
        entries = table[key]
        if len(entries) == 1:
            out[key] = entries[0][0]
            continue
        providers = tuple(_provider(info) for _, info in entries)
        want = host._prefer.get(key)
        picked = [
            (rec, info)
            for rec, info in entries
            if want is not None and want in (_norm(info.distribution), _norm(info.name))
        ]
        chosen = ""
        if len(picked) == 1:
            out[key] = picked[0][0]
            chosen = _provider(picked[0][1])
        host._conflicts.append(
            PluginConflict(kind=kind, name=key, providers=providers, chosen=chosen)
        )
    return out


def _check_not_refused(host: PluginHost, kind: str, name: str) -> None:
    """Raise the conflict's :class:`PluginError` if ``name`` is an id refused for a tie."""
    for c in host._conflicts:
        if c.kind == kind and c.name == name and not c.resolved:
            raise PluginError(c.message())


def _stamp(rec: _R, info: PluginInfo) -> tuple[str, _R]:
    """The record's id, and the record with its provider filled in."""
    if isinstance(rec, CodecSpec):
        return rec.game, attrs.evolve(rec, source=rec.source or info.name)
    if isinstance(rec, SearchHints):
        return rec.game, rec
    return rec.name, attrs.evolve(
        rec,
        distribution=rec.distribution or info.distribution,
        version=rec.version or info.version,
    )


def _call(pm: pluggy.PluginManager, hook_name: str, plugin: object) -> Iterable[Any]:
    """Call one plugin's implementation of a hook (results are ``Any`` from pluggy)."""
    caller = pm.subset_hook_caller(
        hook_name, remove_plugins=[p for p in pm.get_plugins() if p is not plugin]
    )
    for result in caller():
        yield from result


@functools.cache
def default_host() -> PluginHost:
    """The host of installed plugins, built on first use and then reused."""
    return PluginHost()


def load_game(
    name: str, *, preset: str = "default", host: PluginHost | None = None, **options: Any
) -> Game[Any, Any, Any]:
    """Build an installed game: ``load_game("nyuri", preset="pagat", turn_limit=50)``.

    Returns:
        The game, typed as :class:`cardcore.Game`.

    Raises:
        LookupError: unknown game, or an id several plugins register and none was
            chosen (see :class:`PluginHost`).
        OptionError: unknown preset or option, or a value out of range.
    """
    return (host or default_host()).load_game(name, preset=preset, **options)


def _short(value: object) -> str:
    """``repr(value)``, cut to 60 characters, for messages."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def load_bot(
    name: str,
    game: Game[Any, Any, Any],
    *,
    seed: int = 0,
    host: PluginHost | None = None,
    **options: Any,
) -> Bot:
    """Build a bot for ``game``: ``load_bot("random", game, seed=1)``.

    ``name`` is a bot spec as ``--bots`` takes it: a registered id or an import path
    ``package.module:Class``, optionally with ``:key=value`` options
    (``load_bot("ismcts:iterations=50", game)``); keyword options may be given too.

    Returns:
        The bot, typed as :class:`cardcore.Bot`.

    Raises:
        LookupError: unknown bot id, or a bot that does not play this game.
        ValueError: an undeclared option, a value of the wrong type, or a constructor
            cardcore cannot call (see :meth:`PluginHost.load_bot`).
    """
    return (host or default_host()).load_bot(name, game, seed=seed, **options)
