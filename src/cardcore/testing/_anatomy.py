"""Check that a game plugin keeps the anatomy every cardcore game follows.

The anatomy (docs/explanation/design.md) puts a plugin's modules in one order, top to
bottom: ``hooks``, then ``bots``, ``encoding`` and ``render`` (peers), then ``rules`` and
the game's own rule modules (``deal``, ``scoring``, ...), then ``state``, ``actions`` and
``options``. A module imports only modules below it, so imports never run both ways and
the rules never import the text rendering (their ``TextForm`` names it by reference). :func:`check_plugin_anatomy` reads
the source with :mod:`ast` (it imports nothing) and reports every module that breaks
the order or grows too long to read in one sitting.
"""

from __future__ import annotations

import ast
import importlib.util
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

__all__ = [
    "ANATOMY",
    "MAX_MODULE_LINES",
    "AnatomyError",
    "anatomy_problems",
    "check_plugin_anatomy",
]

ANATOMY: tuple[str, ...] = (
    "hooks",
    "bots",
    "encoding",
    "render",
    "rules",
    "state",
    "actions",
    "options",
)
"""The modules of a game plugin, top to bottom; a game's own rule modules go below ``rules``."""

PEERS: frozenset[frozenset[str]] = frozenset(
    {
        frozenset({"bots", "encoding"}),
        frozenset({"bots", "render"}),
        frozenset({"encoding", "render"}),
    }
)
"""Pairs at the same level, which must not import each other."""

MAX_MODULE_LINES = 600
"""About what a reader takes in at one sitting."""


class AnatomyError(AssertionError):
    """A plugin's modules break the anatomy; the message lists every problem found."""


def _source_dir(package: str) -> Path:
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise AnatomyError(f"{package!r} is not an importable package")
    return Path(next(iter(spec.submodule_search_locations)))


def _imported_modules(path: Path, package: str, module: str, modules: set[str]) -> set[str]:
    """The package's own modules that ``module`` imports (anywhere in the file).

    Importing a name from the package itself (``from cardcore_box import Play``) counts
    as importing ``__init__``, which imports every module.
    """
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    own = {
        n if module_path or n in modules else "__init__"
        for n, module_path in _own_imports(ast.walk(tree), package)
    }
    own.discard(module)
    return own


def _own_imports(nodes: Iterable[ast.AST], package: str) -> Iterator[tuple[str, bool]]:
    """The package's own names that the import statements among ``nodes`` import.

    Each comes with whether the statement names it as a module path: ``from pkg.mod
    import x`` and ``import pkg.mod`` give ``("mod", True)``; ``from pkg import x`` (or
    ``from . import x``) gives ``("x", False)``, a module or a name of the package
    itself; a bare ``import pkg`` gives ``("__init__", True)``.
    """
    for node in nodes:
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = f"{package}.{base}" if base else package
            if base == package:
                yield from ((a.name, False) for a in node.names)
            elif base.startswith(package + "."):
                yield base.split(".")[1], True
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name == package:
                    yield "__init__", True
                elif a.name.startswith(package + "."):
                    yield a.name.split(".")[1], True


def anatomy_problems(
    package: str,
    rule_modules: Sequence[str] = (),
    *,
    optional: Iterable[str] = ("bots", "encoding"),
    max_lines: int = MAX_MODULE_LINES,
    path: Path | str | None = None,
) -> list[str]:
    """List how a plugin package breaks the anatomy (empty when it keeps it).

    Args:
        package: the plugin's import name, e.g. ``"cardcore_box"``.
        rule_modules: the game's own rule modules, top to bottom, which sit below
            ``rules`` and above ``state`` (e.g. ``("deal",)``).
        optional: anatomy modules a plugin may leave out (a game without bots or an
            RL codec has neither module).
        max_lines: the most lines a module may have.
        path: read the modules from this folder instead of the installed package.

    Returns:
        One sentence per problem, each naming the module.
    """
    src = Path(path) if path is not None else _source_dir(package)
    order = [*ANATOMY[:5], *rule_modules, *ANATOMY[5:]]
    problems: list[str] = []
    found = {p.stem for p in src.glob("*.py")} - {"__init__"}
    for stray in sorted(found - set(order)):
        problems.append(
            f"{stray}.py has no place in the anatomy (modules: {', '.join(order)};"
            " name a game's own rule module in rule_modules)"
        )
    for missing in [m for m in order if m not in found and m not in set(optional)]:
        problems.append(f"{missing}.py is missing")
    for module in [m for m in order if m in found]:
        file = src / f"{module}.py"
        below = set(order[order.index(module) + 1 :])
        for imported in sorted(_imported_modules(file, package, module, found)):
            if imported == "__init__":
                problems.append(
                    f"{module} imports the package {package} itself; import the module"
                    " that defines the name"
                )
            elif frozenset({module, imported}) in PEERS:
                problems.append(f"{module} imports its peer {imported}")
            elif imported not in below:
                problems.append(f"{module} imports {imported}, which is not below it")
        lines = file.read_text(encoding="utf-8").count("\n")
        if lines > max_lines:
            problems.append(f"{module}.py has {lines} lines (at most {max_lines})")
    init = src / "__init__.py"
    if "render" in found and init.is_file() and "render" in _loaded_at_import(init, package):
        problems.append(
            "__init__ imports render when the package loads, and so does every load of the"
            " plugin (its hooks); leave the renderer to TextForm's reference, which"
            " imports it at the first render (a name may be re-exported lazily, by a"
            " module __getattr__)"
        )
    return problems


def _loaded_at_import(path: Path, package: str) -> set[str]:
    """The package's modules that ``path`` imports at its top level (when it loads).

    Imports inside functions or under ``if TYPE_CHECKING:`` do not count.
    """
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    return {name for name, _ in _own_imports(tree.body, package)}


def check_plugin_anatomy(
    package: str,
    rule_modules: Sequence[str] = (),
    *,
    optional: Iterable[str] = ("bots", "encoding"),
    max_lines: int = MAX_MODULE_LINES,
    path: Path | str | None = None,
) -> None:
    """Fail unless a plugin package keeps the anatomy (see :func:`anatomy_problems`).

    Call it from a plugin's tests::

        def test_anatomy() -> None:
            check_plugin_anatomy("cardcore_box", rule_modules=("deal",))

    Raises:
        AnatomyError: listing every problem, one a line.
    """
    problems = anatomy_problems(
        package, rule_modules, optional=optional, max_lines=max_lines, path=path
    )
    if problems:
        raise AnatomyError(f"{package} breaks the plugin anatomy:\n  " + "\n  ".join(problems))
