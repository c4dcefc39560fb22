"""The kit's check that a plugin declares its RL codec through its hooks, by reference.

A game's codec is found through the ``cardcore`` entry point like its games and bots
(see :class:`cardcore.CodecSpec`). It is named by reference,
``"cardcore_mygame.encoding:mygame_codec"``, so that listing the installed games never
imports the codec's module nor NumPy: only an RL environment that asks for the codec
pays for them. :func:`check_codec_hook` checks both, the second in a fresh interpreter.
What the codec itself does (a fixed action index, exact masks, observation only) is
:func:`cardcore.adapters.check_codec`'s part.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterable

from cardcore._game import CodecSpec
from cardcore._host import PluginHost, default_host
from cardcore.testing._errors import ConformanceError

__all__ = ["check_codec_hook", "codec_hook_problems"]

_LISTING = """\
import importlib, sys
from cardcore import PluginHost
host = PluginHost(load_entrypoints=False, builtins=False)
host.register(importlib.import_module(sys.argv[1]))
host.games(), host.bots(), host.codecs(), host.search_hints()
print(" ".join(m for m in sys.argv[2:] if m in sys.modules))
"""
"""Registers one hooks module alone and lists what it declares; prints the modules loaded."""


def _hooks_module(spec: CodecSpec, host: PluginHost) -> str | None:
    """The hooks module of the plugin that declared ``spec``, if the host knows it."""
    for info in host.plugins:
        if info.name == spec.source:
            return info.module.partition(":")[0]
    return None


def codec_hook_problems(
    game: str, *, host: PluginHost | None = None, heavy: Iterable[str] = ("numpy",)
) -> list[str]:
    """What is wrong with the way a game's plugin declares its RL codec.

    Args:
        game: the game id.
        host: the plugin host (default: installed plugins).
        heavy: modules that listing the plugin's games must not import, besides the
            codec's own module.

    Returns:
        One sentence per problem; empty when the plugin's hooks declare the codec by
        reference, the reference resolves, and registering the hooks module in a fresh
        interpreter and listing what it declares imports neither the codec's module nor
        any of ``heavy``.
    """
    h = host or default_host()
    spec = h.codecs().get(game)
    if spec is None:
        return [
            f"no plugin declares a codec for {game!r} (add a CodecSpec to the codecs of "
            "its hooks module's Plugin record)"
        ]
    if not isinstance(spec.factory, str):
        return [
            f"the codec of {game!r} is declared by its function, so the hooks module imports "
            "the codec's module; name it by reference, 'package.encoding:factory'"
        ]
    problems: list[str] = []
    try:
        spec.resolve()
    except LookupError as e:
        problems.append(str(e))
    hooks = _hooks_module(spec, h)
    if hooks is None:
        problems.append(f"the codec of {game!r} comes from no plugin the host knows")
        return problems
    factory_module = spec.factory.partition(":")[0]
    watched = [factory_module, *heavy]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    run = subprocess.run(  # noqa: S603 - this interpreter, a fixed script, module names as arguments
        [sys.executable, "-c", _LISTING, hooks, *watched],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    if run.returncode != 0:
        last = (run.stderr.strip().splitlines() or ["(no output)"])[-1]
        problems.append(f"registering {hooks} in a fresh interpreter failed: {last}")
        return problems
    loaded = run.stdout.split()
    if loaded:
        problems.append(
            f"registering {hooks} and listing what it declares imports {', '.join(loaded)}; "
            "the codec's module should load only when an RL environment asks for the codec"
        )
    return problems


def check_codec_hook(
    game: str, *, host: PluginHost | None = None, heavy: Iterable[str] = ("numpy",)
) -> None:
    """Check that a game's plugin declares its RL codec through its hooks, by reference.

    Call it from a plugin's tests, next to :func:`cardcore.adapters.check_codec`::

        def test_the_hooks_declare_the_codec() -> None:
            check_codec_hook("box")

    See :func:`codec_hook_problems` for what is checked.

    Raises:
        ConformanceError: property ``codec-hook``, naming every problem found.
    """
    problems = codec_hook_problems(game, host=host, heavy=heavy)
    if problems:
        raise ConformanceError("codec-hook", f"game {game!r}: " + "; ".join(problems))
