"""Fixtures of the docs test: the wheels and the fresh venvs, built once per session.

Every test that uses them runs in one worker when pytest runs in parallel (see
``tests/conftest.py``), which also prints the summary of the documentation blocks.
"""

from __future__ import annotations

import fcntl
import os
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # the support modules are imported as tests.docs.*
    sys.path.insert(0, str(ROOT))

from tests.docs.freshenv import Venv, Wheels, build_wheels, built_wheels, fresh_venv  # noqa: E402


@pytest.fixture(scope="session")
def wheels(tmp_path_factory: pytest.TempPathFactory) -> Wheels:
    """A wheel of cardcore, of every plugin and of every example plugin.

    Built once per run: parallel workers (pytest-xdist) share their run's temporary folder,
    and the first worker to get there builds the wheels while the others wait on a lock.
    """
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    folder = shared / "wheels"
    with (shared / "wheels.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if (folder / "DONE").is_file():
            return built_wheels(folder)
        made = build_wheels(folder)
        (folder / "DONE").touch()
        return made


@pytest.fixture(scope="session")
def docs_venv(wheels: Wheels) -> Venv:
    """A venv with every distribution installed from its wheel, with every user extra."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = ",".join(sorted(set(project.get("optional-dependencies", {})) - {"dev"}))
    games = sorted(name for name in wheels.by_name if name != "cardcore")
    return fresh_venv("docs", [f"cardcore[{extras}]", *games, "pytest"], wheels)


@pytest.fixture(scope="session")
def plain_venv(wheels: Wheels) -> Venv:
    """A venv with what a user installs for one game: cardcore, cardcore-noddy and pytest."""
    return fresh_venv("plain", ["cardcore", "cardcore-noddy", "pytest"], wheels)
