"""The documentation: its Python examples run, and every hook is documented."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

from cardcore import CardcoreHooks

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PAGES = sorted(p for p in DOCS.rglob("*.md") if "```python" in p.read_text(encoding="utf-8"))
BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


def test_there_are_examples_to_run() -> None:
    """The docs have executable examples (the check below must be able to fail)."""
    assert len(PAGES) >= 5


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(DOCS)))
def test_python_examples_run(page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every ```python block of a page runs, in order, in one namespace."""
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, object] = {"__name__": "__docs__"}
    for i, block in enumerate(BLOCK.findall(page.read_text(encoding="utf-8"))):
        try:
            exec(compile(block, f"{page.name}[{i}]", "exec"), namespace)
        except Exception as e:
            raise AssertionError(f"{page.relative_to(DOCS)} block {i} fails: {e!r}\n{block}") from e


def hook_specs() -> list[str]:
    return [n for n in dir(CardcoreHooks) if n.startswith("cardcore_")]


def test_every_hook_is_documented_with_its_signature() -> None:
    """docs/reference/hooks.md names each hook with its signature and return type."""
    text = (DOCS / "reference" / "hooks.md").read_text(encoding="utf-8")
    assert hook_specs()
    for name in hook_specs():
        fn = getattr(CardcoreHooks, name)
        params = [p for p in inspect.signature(fn).parameters if p != "self"]
        ret = fn.__annotations__["return"]
        assert f"`{name}({', '.join(params)}) -> {ret}`" in text, name
        doc = inspect.getdoc(fn) or ""
        assert "Example:" in doc and "Returns:" in doc, (
            f"{name} docstring needs Example and Returns"
        )


def test_cli_reference_covers_every_command() -> None:
    """The generated command-line reference has a section per sub-command."""
    from cardcore.cli._docs import cli_reference

    text = cli_reference()
    for cmd in ("list", "doctor", "play", "replay", "certify", "bench", "new-game", "arena"):
        assert f"## `cardcore {cmd}`" in text
