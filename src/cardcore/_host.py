"""The plugin host: the one place that talks to pluggy.

It discovers plugins through the ``cardcore`` entry-point group, checks what they
register, and turns a plugin that fails into a reported problem instead of a crash.
"""

from __future__ import annotations

import functools
import importlib
import importlib.metadata
import traceback
import types
from collections.abc import Iterable, Mapping
from typing import Any, final

import attrs
import pluggy

from cardcore._game import BotSpec, CodecSpec, Game, GameSpec
from cardcore._hooks import CardcoreHooks
from cardcore._options import build_options

__all__ = ["PluginHost", "PluginInfo", "PluginProblem", "default_host", "load_bot", "load_game"]

ENTRY_POINT_GROUP = "cardcore"
BUILTIN_PLUGINS = ("cardcore.bots._plugin",)
BUILTIN_NAME = "cardcore-builtins"


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
    """The hooks module."""
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

    Discovery runs once, when the host is built; nothing happens at import time.
    """

    def __init__(self, *, load_entrypoints: bool = True, builtins: bool = True) -> None:
        self._pm = pluggy.PluginManager(ENTRY_POINT_GROUP)
        self._pm.add_hookspecs(CardcoreHooks)
        self._plugins: list[PluginInfo] = []
        self._problems: list[PluginProblem] = []
        self._games: dict[str, GameSpec] | None = None
        self._bots: dict[str, BotSpec] | None = None
        self._codecs: dict[str, CodecSpec] | None = None
        if builtins:
            for mod in BUILTIN_PLUGINS:
                self._register_module(
                    importlib.import_module(mod), BUILTIN_NAME, "cardcore", _version("cardcore")
                )
        if load_entrypoints:
            self._load_entrypoints()

    # ---- registration --------------------------------------------------------------

    def register(self, module: types.ModuleType | object, *, name: str | None = None) -> None:
        """Register a hooks module (or object) directly, e.g. from a notebook or test."""
        label = name or str(getattr(module, "__name__", type(module).__name__))
        self._register_module(module, label, "", "")

    def _register_module(self, module: object, name: str, dist: str, version: str) -> None:
        self._pm.register(module, name=name)
        self._plugins.append(
            PluginInfo(
                name=name,
                module=getattr(module, "__name__", type(module).__name__),
                distribution=dist,
                version=version,
            )
        )
        self._games = self._bots = self._codecs = None

    def _load_entrypoints(self) -> None:
        eps = sorted(importlib.metadata.entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name)
        for ep in eps:
            dist = ep.dist.name if ep.dist is not None else ""
            version = ep.dist.version if ep.dist is not None else ""
            if self._pm.has_plugin(ep.name):
                continue
            try:
                module = ep.load()
                self._register_module(module, ep.name, dist, version)
            except Exception as e:  # noqa: BLE001 - a broken plugin must not break the others
                self._problems.append(
                    PluginProblem(
                        name=ep.name,
                        distribution=dist,
                        error=f"{type(e).__name__}: {e}",
                        details=traceback.format_exc(),
                    )
                )

    # ---- queries -------------------------------------------------------------------

    @property
    def plugins(self) -> tuple[PluginInfo, ...]:
        """The registered plugin modules."""
        return tuple(self._plugins)

    @property
    def problems(self) -> tuple[PluginProblem, ...]:
        """Plugins that failed to load or register, with the reason."""
        self._collect()
        return tuple(self._problems)

    def games(self) -> Mapping[str, GameSpec]:
        """Every registered game by id, sorted by id."""
        self._collect()
        assert self._games is not None
        return self._games

    def bots(self) -> Mapping[str, BotSpec]:
        """Every registered bot by id, sorted by id."""
        self._collect()
        assert self._bots is not None
        return self._bots

    def codecs(self) -> Mapping[str, CodecSpec]:
        """Every registered RL codec by game id, sorted by id."""
        self._collect()
        assert self._codecs is not None
        return self._codecs

    def game_spec(self, name: str) -> GameSpec:
        """The spec of one game.

        Raises:
            PluginError: no such game (the message lists the installed ones).
        """
        games = self.games()
        if name not in games:
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

    def load_bot(
        self, name: str, game: Game[Any, Any, Any], *, seed: int = 0, **options: Any
    ) -> Any:
        """Build a bot for a game from its id and options.

        Raises:
            PluginError: unknown bot, or a bot that does not play this game.
            ValueError: options the bot does not accept.
        """
        spec = self.bot_spec(name)
        if spec.games and game.name not in spec.games:
            raise PluginError(f"bot {name!r} plays {', '.join(spec.games)}, not {game.name!r}")
        try:
            return spec.factory(game, seed=seed, **options)
        except TypeError as e:
            raise ValueError(f"bot {name!r}: bad options {options!r}: {e}") from None

    # ---- the only caller of pm.hook ------------------------------------------------

    def _collect(self) -> None:
        if self._games is not None and self._bots is not None and self._codecs is not None:
            return
        games: dict[str, tuple[GameSpec, str]] = {}
        bots: dict[str, tuple[BotSpec, str]] = {}
        self._problems = [p for p in self._problems if not p.error.startswith("register: ")]
        for info in self._plugins:
            plugin = self._pm.get_plugin(info.name)
            if plugin is None:
                continue
            for hook_name, kind, table in (
                ("cardcore_register_games", GameSpec, games),
                ("cardcore_register_bots", BotSpec, bots),
            ):
                impl = getattr(plugin, hook_name, None)
                if impl is None:
                    continue
                try:
                    records = list(_call(self._pm, hook_name, plugin))
                    for rec in records:
                        if not isinstance(rec, kind):
                            raise TypeError(
                                f"{hook_name} yielded {type(rec).__name__}, not {kind.__name__}"
                            )
                        rec = attrs.evolve(  # noqa: PLW2901
                            rec,
                            distribution=rec.distribution or info.distribution,
                            version=rec.version or info.version,
                        )
                        if rec.name in table:
                            other = table[rec.name][1]
                            raise PluginError(
                                f"duplicate {kind.__name__[:-4].lower()} name {rec.name!r}: "
                                f"registered by both {other!r} and {info.name!r}"
                            )
                        table[rec.name] = (rec, info.name)  # type: ignore[assignment]
                except PluginError:
                    raise
                except Exception as e:  # noqa: BLE001 - report, do not crash
                    self._problems.append(
                        PluginProblem(
                            name=info.name,
                            distribution=info.distribution,
                            error=f"register: {type(e).__name__}: {e}",
                            details=traceback.format_exc(),
                        )
                    )
        self._games = {k: games[k][0] for k in sorted(games)}
        self._bots = {k: bots[k][0] for k in sorted(bots)}
        self._codecs = self._collect_codecs()

    def _collect_codecs(self) -> dict[str, CodecSpec]:
        codecs: dict[str, CodecSpec] = {}
        for info in self._plugins:
            plugin = self._pm.get_plugin(info.name)
            if plugin is None or getattr(plugin, "cardcore_register_codecs", None) is None:
                continue
            try:
                records = list(_call(self._pm, "cardcore_register_codecs", plugin))
                for rec in records:
                    if not isinstance(rec, CodecSpec):
                        raise TypeError(
                            f"cardcore_register_codecs yielded {type(rec).__name__}, not CodecSpec"
                        )
                    if rec.game in codecs:
                        raise PluginError(
                            f"duplicate codec for game {rec.game!r}: registered by both "
                            f"{codecs[rec.game].source!r} and {info.name!r}"
                        )
                    codecs[rec.game] = attrs.evolve(rec, source=rec.source or info.name)
            except PluginError:
                raise
            except Exception as e:  # noqa: BLE001 - report, do not crash
                self._problems.append(
                    PluginProblem(
                        name=info.name,
                        distribution=info.distribution,
                        error=f"register: {type(e).__name__}: {e}",
                        details=traceback.format_exc(),
                    )
                )
        return {k: codecs[k] for k in sorted(codecs)}


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

    Raises:
        LookupError: unknown game.
        OptionError: unknown preset or option, or a value out of range.
    """
    return (host or default_host()).load_game(name, preset=preset, **options)


def load_bot(
    name: str,
    game: Game[Any, Any, Any],
    *,
    seed: int = 0,
    host: PluginHost | None = None,
    **options: Any,
) -> Any:
    """Build an installed bot for ``game``: ``load_bot("random", game, seed=1)``."""
    return (host or default_host()).load_bot(name, game, seed=seed, **options)
