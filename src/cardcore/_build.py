"""Which build of cardcore and its plugins is loaded: compiled with mypyc, or pure Python.

A wheel built where a C compiler is present carries the hot modules twice: as mypyc
extension modules and as the Python sources they were compiled from; Python imports the
extension. The pure sources are the reference, and they stay one variable away: with
``CARDCORE_PURE`` set (to anything but ``""`` or ``0``) when ``cardcore`` is first
imported, every module of cardcore and of its plugins (``cardcore_*``) is loaded from its
source. The same variable makes a build produce the pure-Python wheel.

This module is imported first by ``cardcore/__init__.py`` and imports nothing heavy. It
also lends the games ``mypyc_attr`` (from ``mypy_extensions`` when installed, else a
stand-in that changes nothing), so that a compiled module can mark a class for mypyc
without a new dependency.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

try:
    from mypy_extensions import mypyc_attr
except ImportError:  # a plain install: only mypyc reads the decorator, at compile time

    def mypyc_attr(*args: Any, **kwargs: Any) -> Any:  # type: ignore[misc]
        """Stand-in for ``mypy_extensions.mypyc_attr``: returns the class unchanged."""
        return lambda cls: cls


__all__ = [
    "PURE_VARIABLE",
    "build_line",
    "build_summary",
    "compiled_modules",
    "installed_distributions",
    "mypyc_attr",
    "pure_forced",
]

PURE_VARIABLE = "CARDCORE_PURE"
"""The variable that selects the pure-Python modules (at build time and at import time)."""


def _is_ours(name: str) -> bool:
    top = name.partition(".")[0]
    return top == "cardcore" or top.startswith("cardcore_")


def _extension(origin: str | None) -> bool:
    return origin is not None and origin.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


class _PureFinder(importlib.abc.MetaPathFinder):
    """Load a compiled module of cardcore or a plugin from the source beside it."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if not _is_ours(fullname):
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or not _extension(spec.origin):
            return None
        assert spec.origin is not None
        source = Path(spec.origin).with_name(fullname.rpartition(".")[2] + ".py")
        if not source.is_file():
            return None
        return importlib.util.spec_from_file_location(fullname, source)


def pure_forced() -> bool:
    """Whether ``CARDCORE_PURE`` asks for the pure-Python modules."""
    return os.environ.get(PURE_VARIABLE, "") not in {"", "0"}


if pure_forced() and not any(isinstance(f, _PureFinder) for f in sys.meta_path):
    sys.meta_path.insert(0, _PureFinder())


def compiled_modules(distribution: str) -> tuple[str, ...]:
    """The modules of an installed distribution that are loaded from compiled extensions.

    Args:
        distribution: a distribution name, e.g. ``"cardcore"`` or ``"cardcore-nyuri"``.

    Returns:
        The module names, sorted; empty for a pure-Python install (an editable one, a
        wheel built without a compiler, or any install while ``CARDCORE_PURE`` is set)
        and for a distribution that is not installed.
    """
    from importlib import metadata

    try:
        files = metadata.files(distribution) or []
    except metadata.PackageNotFoundError:
        return ()
    names = []
    for f in files:
        parts = f.parts
        if not _extension(parts[-1]) or "__mypyc" in parts[-1] or len(parts) < 2:
            continue
        name = ".".join([*parts[:-1], parts[-1].partition(".")[0]])
        if not _is_ours(name):
            continue
        module = sys.modules.get(name)
        if module is not None:
            origin = getattr(module, "__file__", None)
        else:
            try:
                found = importlib.util.find_spec(name)
            except (ImportError, ValueError):
                continue
            origin = found.origin if found is not None else None
        if _extension(origin):
            names.append(name)
    return tuple(sorted(names))


def build_summary(distribution: str) -> str:
    """One phrase naming the loaded build: ``compiled (5 modules)`` or ``pure Python``."""
    n = len(compiled_modules(distribution))
    if n:
        return f"compiled ({n} module{'s' if n != 1 else ''})"
    return f"pure Python ({PURE_VARIABLE} is set)" if pure_forced() else "pure Python"


def build_line(distributions: Sequence[str]) -> str:
    """``Build: ...``: which of ``distributions`` are loaded compiled, which pure.

    For example ``Build: compiled with mypyc: cardcore (2 modules), cardcore-nyuri
    (5 modules); pure Python: cardcore-highcard``, or ``Build: pure Python``.
    """
    compiled, pure = [], []
    for dist in distributions:
        n = len(compiled_modules(dist))
        if n:
            compiled.append(f"{dist} ({n} module{'s' if n != 1 else ''})")
        else:
            pure.append(dist)
    why = f" ({PURE_VARIABLE} is set)" if pure_forced() else ""
    if not compiled:
        return f"Build: pure Python{why}"
    line = "Build: compiled with mypyc: " + ", ".join(compiled)
    return line + (f"; pure Python{why}: " + ", ".join(pure) if pure else "")


def installed_distributions() -> list[str]:
    """``cardcore`` and every installed distribution that registers a cardcore plugin."""
    from importlib import metadata

    names = {
        ep.dist.name
        for ep in metadata.entry_points(group="cardcore")
        if ep.dist is not None and ep.dist.name != "cardcore"
    }
    return ["cardcore", *sorted(names)]
