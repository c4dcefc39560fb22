"""The documentation: every hook is documented, and the API reference shows no raw roles.

The examples of the docs are run by tests/docs/ (in a venv made from wheels).
"""

from __future__ import annotations

import importlib.util
import inspect
import re
import textwrap
from pathlib import Path
from types import ModuleType

import pytest

from cardcore import CardcoreHooks

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
RAW_ROLE = re.compile(r":(?:py:)?(?:func|meth|class|attr|mod|data|exc|obj|const):`?")


def load_roles_extension() -> ModuleType:
    """docs/_hooks/sphinx_roles.py, the griffe extension the API reference is built with."""
    spec = importlib.util.spec_from_file_location(
        "sphinx_roles", DOCS / "_hooks" / "sphinx_roles.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


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


def test_sphinx_roles_become_links(tmp_path: Path) -> None:
    """The extension turns each role into a cross-reference, or plain code when unresolved."""
    import griffe

    pkg = tmp_path / "rolepkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text(
        textwrap.dedent(
            '''
            """Use :func:`helper`, :class:`~rolepkg.Thing` and :mod:`random`."""

            class Thing:
                """See :meth:`go` and :attr:`rolepkg.Thing.size`."""

                size = 1

                def go(self) -> None:
                    """Nothing."""

            def helper() -> None:
                """Nothing."""
            '''
        ),
        encoding="utf-8",
    )
    roles = load_roles_extension()
    plain = griffe.load("rolepkg", search_paths=[tmp_path])
    assert plain.docstring is not None
    assert RAW_ROLE.search(plain.docstring.value)  # without the extension the roles stay raw
    loaded = griffe.load(
        "rolepkg", search_paths=[tmp_path], extensions=griffe.load_extensions(roles.SphinxRoles)
    )
    assert loaded.docstring is not None
    doc = loaded.docstring.value
    assert not RAW_ROLE.search(doc), doc
    assert '<autoref identifier="rolepkg.helper" optional><code>helper</code></autoref>' in doc
    assert '<autoref identifier="rolepkg.Thing" optional><code>Thing</code></autoref>' in doc
    assert "<code>random</code>" in doc and "random</autoref>" not in doc
    thing_doc = loaded["Thing"].docstring
    assert thing_doc is not None
    thing = thing_doc.value
    assert 'identifier="rolepkg.Thing.go"' in thing
    assert 'identifier="rolepkg.Thing.size"' in thing


def test_the_api_reference_shows_no_raw_roles(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The built API page has links where the docstrings hold roles, and no raw role left."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    pages = tmp_path / "docs"
    (pages / "reference").mkdir(parents=True)
    api = (DOCS / "reference" / "api.md").read_text(encoding="utf-8")
    (pages / "reference" / "api.md").write_text(api, encoding="utf-8")
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("NO_MKDOCS_2_WARNING", "1")
    config = load_config(
        str(ROOT / "mkdocs.yml"),
        docs_dir=str(pages),
        site_dir=str(tmp_path / "site"),
        nav=None,
        strict=False,
    )
    build(config)
    html = (tmp_path / "site" / "reference" / "api" / "index.html").read_text(encoding="utf-8")
    raw = sorted({html[m.start() : m.start() + 40] for m in RAW_ROLE.finditer(html)})
    assert not raw, f"raw Sphinx roles in the API reference: {raw}"
    # roles in cardcore's docstrings that must have become links to their entries
    assert 'href="#cardcore.play_match"><code>cardcore.play_match</code></a>' in html
    assert 'href="#cardcore.Game.parse_action"><code>Game.parse_action</code></a>' in html
