"""No import cycle inside cardcore or a game plugin, counting imports made inside functions."""

from __future__ import annotations

import ast
import importlib.util
from pathlib import Path

PACKAGES = (
    "cardcore",
    "cardcore_nyuri",
    "cardcore_noddy",
    "cardcore_box",
    "cardcore_nestors",
    "cardcore_highcard",
)


def _modules(package: str) -> dict[str, Path]:
    """Every module of an installed package, by dotted name."""
    spec = importlib.util.find_spec(package)
    assert spec is not None and spec.submodule_search_locations, package
    root = Path(next(iter(spec.submodule_search_locations)))
    out = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join([package, *parts])] = path
    return out


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The modules of ``known`` that ``name`` imports anywhere but under TYPE_CHECKING."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    is_pkg = path.name == "__init__.py"
    found: set[str] = set()

    def add(target: str) -> None:
        # ``import a.b.c`` loads a, a.b and a.b.c: the deepest known one is the edge.
        while target and target not in known:
            target = target.rpartition(".")[0]
        if target and target != name:
            found.add(target)

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for stmt in node.orelse:
                visit(stmt)
            return
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name if is_pkg else name.rpartition(".")[0]
                for _ in range(node.level - 1):
                    base = base.rpartition(".")[0]
                module = f"{base}.{node.module}" if node.module else base
            else:
                module = node.module or ""
            for alias in node.names:
                sub = f"{module}.{alias.name}"
                add(sub if sub in known else module)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle per strongly connected component with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    comps: list[list[str]] = []

    def strong(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                comps.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            strong(v)
    return [_path_in(graph, set(c)) for c in comps]


def _path_in(graph: dict[str, set[str]], comp: set[str]) -> list[str]:
    """A shortest cycle through the first module of a component, as a list of modules."""
    start = min(comp)
    prev: dict[str, str] = {}
    frontier = [start]
    while frontier:
        nxt = []
        for v in frontier:
            for w in sorted(graph[v] & comp):
                if w == start:
                    path = [v]
                    while path[-1] != start:
                        path.append(prev[path[-1]])
                    return [start, *reversed(path[:-1]), start]
                if w not in prev:
                    prev[w] = v
                    nxt.append(w)
        frontier = nxt
    return sorted(comp)  # pragma: no cover - a component always holds a cycle


def _component(graph: dict[str, set[str]], start: str) -> list[str]:
    """Every module that ``start`` reaches and that reaches ``start`` back."""

    def reach(v: str, edges: dict[str, set[str]]) -> set[str]:
        seen = {v}
        todo = [v]
        while todo:
            for w in edges[todo.pop()]:
                if w not in seen:
                    seen.add(w)
                    todo.append(w)
        return seen

    back: dict[str, set[str]] = {v: set() for v in graph}
    for v, ws in graph.items():
        for w in ws:
            back[w].add(v)
    return sorted(reach(start, graph) & reach(start, back))


def _graph() -> dict[str, set[str]]:
    modules: dict[str, Path] = {}
    for package in PACKAGES:
        modules.update(_modules(package))
    known = set(modules)
    return {name: _imports(name, path, known) for name, path in modules.items()}


def test_the_cycle_finder_finds_a_cycle() -> None:
    """The finder reports a two-module cycle and a three-module one, and no acyclic chain."""
    graph = {"a": {"b"}, "b": {"a"}, "c": {"d"}, "d": {"e"}, "e": {"c"}, "f": {"a"}}
    assert sorted(_cycles(graph)) == [["a", "b", "a"], ["c", "d", "e", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_function_level_imports_count_and_type_checking_ones_do_not(tmp_path: Path) -> None:
    """An import inside a function is an edge; one under ``if TYPE_CHECKING:`` is not."""
    path = tmp_path / "m.py"
    path.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    import p.b\n"
        "def f():\n    from p import c\n    from .d import x\n",
        encoding="utf-8",
    )
    assert _imports("p.a", path, {"p", "p.a", "p.b", "p.c", "p.d"}) == {"p.c", "p.d"}


def test_no_import_cycle_in_cardcore_or_a_plugin() -> None:
    """No module of the core or of a game plugin imports itself back through others."""
    graph = _graph()
    cycles = _cycles(graph)
    lines = []
    for cycle in cycles:
        tangled = _component(graph, cycle[0])
        lines.append(" -> ".join(cycle) + f"  (modules in this tangle: {', '.join(tangled)})")
    assert not cycles, "import cycles:\n" + "\n".join(lines)
