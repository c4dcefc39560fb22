"""Where codecs come from: a plugin hook, or registration from code.

A game plugin declares its codec with the ``cardcore_register_codecs`` hook in its
hooks module (the module its ``cardcore`` entry point names); the core's plugin host
collects them like games and bots, and :class:`CodecRegistry` takes them from the host.
"""

from __future__ import annotations

import functools
import traceback
from collections.abc import Mapping
from typing import Any, final

import attrs

from cardcore._game import CodecSpec, Game
from cardcore._host import PluginHost, default_host
from cardcore.adapters._protocol import Codec

__all__ = [
    "CodecError",
    "CodecProblem",
    "CodecRegistry",
    "CodecSpec",
    "default_registry",
    "load_codec",
    "register_codec",
]

HOOK_NAME = "cardcore_register_codecs"
"""The name of the hook function a plugin's hooks module defines."""


@final
class CodecError(LookupError):
    """No codec for a game, two codecs for one game, or a codec that is not one."""


@final
@attrs.frozen
class CodecProblem:
    """A plugin whose codecs could not be read, and why."""

    name: str
    """The entry-point name."""
    error: str
    """One line: the exception."""
    details: str = ""
    """The traceback."""


@final
class CodecRegistry:
    """Codec specs by game id: from installed plugins' hooks and from code.

    Args:
        load_entrypoints: take the codecs of every installed plugin from the plugin host
            (turn off for isolated tests).
        host: the plugin host (default: installed plugins).

    An installed plugin whose hook raises is a problem of the host (``cardcore doctor``);
    a module registered here with :meth:`register_module` is recorded in :attr:`problems`.
    """

    def __init__(self, *, load_entrypoints: bool = True, host: PluginHost | None = None) -> None:
        self._specs: dict[str, CodecSpec] = {}
        self._problems: list[CodecProblem] = []
        self._cache: dict[tuple[Any, ...], Codec] = {}
        if load_entrypoints:
            for spec in (host or default_host()).codecs().values():
                self.register(spec)

    def __deepcopy__(self, memo: dict[int, Any]) -> CodecRegistry:
        """A registry is a shared lookup service: copies (``gymnasium.make``) share it."""
        return self

    def _problem(self, name: str, e: BaseException) -> None:
        self._problems.append(
            CodecProblem(name, f"{type(e).__name__}: {e}", traceback.format_exc())
        )

    @property
    def problems(self) -> tuple[CodecProblem, ...]:
        """Plugins whose codecs could not be read."""
        return tuple(self._problems)

    def register_module(self, module: object, *, name: str | None = None) -> int:
        """Read the codecs a hooks module (or object) declares, if it has the hook.

        Returns:
            How many codecs it registered.
        """
        label = name or str(getattr(module, "__name__", type(module).__name__))
        hook = getattr(module, HOOK_NAME, None)
        if hook is None:
            return 0
        try:
            specs = list(hook())
            for spec in specs:
                if not isinstance(spec, CodecSpec):
                    raise TypeError(f"{HOOK_NAME} yielded {type(spec).__name__}, not CodecSpec")
            for spec in specs:
                self.register(attrs.evolve(spec, source=spec.source or label))
        except CodecError:
            raise
        except Exception as e:  # noqa: BLE001 - report, do not crash
            self._problem(label, e)
            return 0
        return len(specs)

    def register(self, spec: CodecSpec, *, replace: bool = False) -> None:
        """Register a codec spec.

        Args:
            spec: the codec and its game id.
            replace: allow replacing a codec already registered for the game.

        Raises:
            CodecError: the game has a codec already (and ``replace`` is false).
        """
        if not isinstance(spec, CodecSpec):
            raise TypeError(f"expected a CodecSpec, not {type(spec).__name__}")
        if not spec.source:
            spec = attrs.evolve(spec, source="code")
        old = self._specs.get(spec.game)
        if old is not None and not replace:
            raise CodecError(
                f"duplicate codec for game {spec.game!r}: registered by both "
                f"{old.source!r} and {spec.source!r}"
            )
        self._specs[spec.game] = spec
        self._cache = {k: v for k, v in self._cache.items() if k[0] != spec.game}

    def specs(self) -> Mapping[str, CodecSpec]:
        """Every registered codec spec by game id, sorted."""
        return {k: self._specs[k] for k in sorted(self._specs)}

    def spec(self, game: str) -> CodecSpec:
        """The codec spec of one game.

        Raises:
            CodecError: the game declares no codec (the message says how to add one).
        """
        try:
            return self._specs[game]
        except KeyError:
            raise CodecError(_missing(game)) from None

    def codec(self, game: Game[Any, Any, Any], num_players: int) -> Codec:
        """The codec of ``game`` (with its options) for ``num_players`` seats.

        Codecs are immutable, so one is built per game, options and player count and
        then shared (a big action index takes a moment to build).

        Raises:
            CodecError: the game declares no codec, or its factory returned no codec.
        """
        key = (game.name, type(game), game.options, num_players)
        try:
            cached = self._cache.get(key)
        except TypeError:  # options that do not hash: build every time
            return self.build(game, num_players)
        if cached is None:
            cached = self._cache[key] = self.build(game, num_players)
        return cached

    def build(self, game: Game[Any, Any, Any], num_players: int) -> Codec:
        """Build a new codec of ``game`` for ``num_players`` seats (see :meth:`codec`).

        Raises:
            CodecError: the game declares no codec, its factory reference does not
                resolve, or its factory returned no codec.
        """
        try:
            factory = self.spec(game.name).resolve()
        except CodecError:
            raise
        except LookupError as e:  # a lazy reference that does not resolve
            raise CodecError(str(e)) from e
        codec = factory(game, num_players)
        if not isinstance(codec, Codec):
            raise CodecError(f"the codec factory of {game.name!r} returned {codec!r}, not a Codec")
        if codec.observation_size < 1 or codec.num_actions < 1:
            raise CodecError(
                f"the codec of {game.name!r} declares observation_size="
                f"{codec.observation_size}, num_actions={codec.num_actions}; both must be >= 1"
            )
        return codec


def _missing(game: str) -> str:
    where = "its plugin"
    try:
        dist = default_host().game_spec(game).distribution
        if dist:
            where = f"its plugin ({dist})"
    except LookupError:
        pass
    return (
        f"game {game!r} declares no RL codec: {where} has no `{HOOK_NAME}` hook yielding "
        f"CodecSpec(game={game!r}, factory=...) in its hooks module. Add the hook (see "
        "docs/how-to/rl.md) or register one from code with "
        "cardcore.adapters.register_codec(CodecSpec(...))"
    )


@functools.cache
def default_registry() -> CodecRegistry:
    """The registry of installed plugins' codecs, built on first use and then reused."""
    return CodecRegistry()


def register_codec(
    spec: CodecSpec, *, registry: CodecRegistry | None = None, replace: bool = False
) -> None:
    """Register a codec from code (a notebook, a test) in the default or a given registry.

    Args:
        spec: the codec and its game id.
        registry: where to register (default: :func:`default_registry`).
        replace: allow replacing a codec already registered for the game.

    Raises:
        CodecError: the game has a codec already (and ``replace`` is false).
    """
    (registry or default_registry()).register(spec, replace=replace)


def load_codec(
    game: str | Game[Any, Any, Any],
    num_players: int | None = None,
    *,
    registry: CodecRegistry | None = None,
    host: PluginHost | None = None,
    preset: str = "default",
    **options: Any,
) -> Codec:
    """The codec of a game (an id, built with ``preset`` and ``options``, or a Game).

    Args:
        game: a game id or a built game.
        num_players: the seat count (default: the game's smallest).
        registry: where to look up codecs (default: :func:`default_registry`).
        host: the plugin host that builds a game from its id.
        preset: the preset, for a game given by id.
        **options: option overrides, for a game given by id.

    Returns:
        The codec.

    Raises:
        CodecError: the game declares no codec.
    """
    g = _game(game, host, preset, options)
    n = g.min_players if num_players is None else num_players
    return (registry or default_registry()).codec(g, n)


def _game(
    game: str | Game[Any, Any, Any],
    host: PluginHost | None,
    preset: str,
    options: Mapping[str, Any],
) -> Game[Any, Any, Any]:
    if isinstance(game, str):
        return (host or default_host()).load_game(game, preset=preset, **options)
    if options or preset != "default":
        raise ValueError("preset and options apply to a game given by id, not to a built game")
    return game
