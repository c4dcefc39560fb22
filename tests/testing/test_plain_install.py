"""The pytest plugin never breaks a foreign project, and the kit needs no extra install."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from importlib.metadata import entry_points
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# Runs pytest with the given arguments while ``hypothesis`` cannot be imported (as in an
# environment that lacks it): the plugin must load, and an unrelated project must pass.
_BLOCKED_RUNNER = """
import sys

class Block:
    def find_spec(self, name, path=None, target=None):
        if name == "hypothesis" or name.startswith("hypothesis."):
            raise ImportError("hypothesis is blocked in this test")
        return None

sys.meta_path.insert(0, Block())
import pytest
sys.exit(pytest.main(sys.argv[1:]))
"""


def _tiny_project(tmp_path: Path) -> Path:
    project = tmp_path / "unrelated"
    project.mkdir()
    (project / "test_unrelated.py").write_text(
        "def test_arithmetic():\n    assert 1 + 1 == 2\n", encoding="utf-8"
    )
    return project


def test_the_plugin_is_registered_with_pytest() -> None:
    names = {ep.name: ep.value for ep in entry_points(group="pytest11")}
    assert names.get("cardcore") == "cardcore.testing._pytest_plugin"


@pytest.mark.parametrize("blocked", [False, True], ids=["plain", "without-hypothesis"])
def test_an_unrelated_project_passes_with_the_plugin_active(tmp_path: Path, blocked: bool) -> None:
    """pytest in a foreign project, with cardcore installed, runs and passes."""
    project = _tiny_project(tmp_path)
    args = ["-q", "-p", "no:cacheprovider", "--trace-config"]
    if blocked:
        # Hypothesis' own pytest plugin is part of the hypothesis install: without
        # hypothesis it would not be there either.
        cmd = [sys.executable, "-c", _BLOCKED_RUNNER, *args, "-p", "no:hypothesispytest"]
    else:
        cmd = [sys.executable, "-m", "pytest", *args]
    proc = subprocess.run(cmd, cwd=project, capture_output=True, text=True, timeout=300)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out
    assert "1 passed" in out
    assert "cardcore.testing._pytest_plugin" in out, "the plugin was not active"


def test_loading_the_plugin_imports_neither_hypothesis_nor_the_kit() -> None:
    code = (
        "import sys\n"
        "import cardcore.testing._pytest_plugin\n"
        "heavy = [m for m in ('hypothesis', 'cardcore.testing._kit') if m in sys.modules]\n"
        "print(heavy)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    assert proc.stdout.strip() == "[]", proc.stdout


def test_the_kit_and_certify_need_only_the_plain_install(tmp_path: Path) -> None:
    """hypothesis is a runtime dependency: `pip install cardcore` is enough for certify."""
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    deps = [d.split(">")[0].split("=")[0].strip() for d in meta["project"]["dependencies"]]
    assert "hypothesis" in deps
    assert "pytest" not in deps, "the kit must not need pytest at run time"
    code = (
        "import sys\n"
        "sys.modules['pytest'] = None\n"  # pytest absent: the kit still imports and runs
        "from cardcore.testing import run_checks\n"
        "r = run_checks('highcard', players=[2], games=1, hash_seeds=False,"
        " failure_dir=sys.argv[1])\n"
        "print(r.ok)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path / "failures")],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "True"
