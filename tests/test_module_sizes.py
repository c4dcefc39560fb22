"""No module of the core over 800 lines and no class over 200: each readable in one sitting."""

from __future__ import annotations

import ast
import importlib.util
from pathlib import Path

MAX_MODULE_LINES = 800
MAX_CLASS_LINES = 200


def _sources() -> dict[str, Path]:
    """Every module of the installed core, by dotted name."""
    spec = importlib.util.find_spec("cardcore")
    assert spec is not None and spec.submodule_search_locations
    root = Path(next(iter(spec.submodule_search_locations)))
    out = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(["cardcore", *parts])] = path
    return out


def _oversized(name: str, text: str) -> list[str]:
    """What in one module's text is over the limits, one line per module or class."""
    found = []
    lines = len(text.splitlines())
    if lines > MAX_MODULE_LINES:
        found.append(f"module {name}: {lines} lines (limit {MAX_MODULE_LINES})")
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.ClassDef):
            assert node.end_lineno is not None
            size = node.end_lineno - node.lineno + 1
            if size > MAX_CLASS_LINES:
                found.append(f"class {name}.{node.name}: {size} lines (limit {MAX_CLASS_LINES})")
    return found


def test_the_size_check_finds_a_long_module_and_a_long_class() -> None:
    """A module over the line limit and a class over its limit are both reported."""
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_CLASS_LINES))
    text = "class Big:\n" + body + "\n" + "\n" * MAX_MODULE_LINES
    assert _oversized("m", text) == [
        f"module m: {MAX_MODULE_LINES + MAX_CLASS_LINES + 1} lines (limit {MAX_MODULE_LINES})",
        f"class m.Big: {MAX_CLASS_LINES + 1} lines (limit {MAX_CLASS_LINES})",
    ]
    assert _oversized("m", "class Small:\n    x = 1\n") == []


def test_no_core_module_or_class_is_over_its_limit() -> None:
    """Every module of cardcore has at most 800 lines, and every class at most 200."""
    found = []
    for name, path in _sources().items():
        found += _oversized(name, path.read_text(encoding="utf-8"))
    assert not found, "too long to read in one sitting:\n" + "\n".join(found)
