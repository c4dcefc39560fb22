"""Every python and console block of the docs runs as written, in a venv made from wheels."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.docs.blocks import find_blocks
from tests.docs.freshenv import ROOT, Venv
from tests.docs.runner import PageRunner, doc_pages, rel

PAGES = [p for p in doc_pages() if any(b.lang in ("python", "console") for b in find_blocks(p))]


def test_the_pages_are_found() -> None:
    """docs/, the README and every plugin's README have examples to run."""
    names = {rel(p) for p in PAGES}
    assert "README.md" in names
    assert "docs/tutorials/first-bot.md" in names
    for readme in ROOT.glob("plugins/*/README.md"):
        assert rel(readme) in names
    assert len(PAGES) >= 20


@pytest.mark.parametrize("page", PAGES, ids=rel)
def test_page_examples_run(page: Path, docs_venv: Venv, tmp_path: Path) -> None:
    """Each block of the page runs in order, and prints what the page shows it printing."""
    runner = PageRunner(page, docs_venv, tmp_path)
    runner.run()


def test_the_readme_lists_every_extra() -> None:
    """Each user extra of pyproject.toml (all but dev) has a row in the README's extras table."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = set(project["optional-dependencies"]) - {"dev"}
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    missing = sorted(e for e in extras if f"\n| `{e}` |" not in readme)
    assert not missing, f"the README's extras table leaves out {missing}"


def test_no_install_hint_looks_for_cardcore_on_the_index() -> None:
    """`pip install 'cardcore[x]'` would look for cardcore on PyPI, where it is not."""
    import re

    hint = re.compile(r"pip install ['\"]?cardcore\[")
    places = [*(ROOT / "src").rglob("*.py"), *doc_pages()]
    found = [
        rel(p)
        for p in places
        if hint.search(p.read_text(encoding="utf-8")) and "_template" not in p.parts
    ]
    assert not found, f"install hints that name cardcore on the index: {found}"
