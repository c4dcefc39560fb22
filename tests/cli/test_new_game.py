"""`cardcore new-game`: the scaffold installs, certifies and tests as generated."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from cardcore.cli import main
from cardcore.cli._newgame import names, render_plugin

ROOT = Path(__file__).resolve().parents[2]


def test_the_example_is_the_template_rendered() -> None:
    """examples/cardcore-highcard is exactly the scaffold for 'highcard', so they cannot drift."""
    files = render_plugin("highcard", title="High card")
    example = ROOT / "examples" / "cardcore-highcard"
    for rel, text in files.items():
        assert (example / rel).read_text(encoding="utf-8") == text, rel


@pytest.mark.parametrize("bad", ["Gin", "gin_rummy", "-x", "9lives", "a--b", ""])
def test_bad_names_are_refused(bad: str) -> None:
    """Names must be lower kebab-case."""
    with pytest.raises(ValueError, match="kebab-case"):
        names(bad)


def test_names_for_a_kebab_id() -> None:
    """Module, class and title follow from the id."""
    assert names("gin-rummy") == {
        "name": "gin-rummy",
        "module": "gin_rummy",
        "Class": "GinRummy",
        "title": "Gin rummy",
    }


def test_existing_folder_is_not_overwritten(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """new-game refuses to write over an existing folder."""
    (tmp_path / "cardcore-dup").mkdir()
    assert main(["new-game", "dup", "--dir", str(tmp_path)]) == 2
    assert "already exists" in capsys.readouterr().err


def test_generated_plugin_installs_certifies_and_passes_its_tests(tmp_path: Path) -> None:
    """Generate, pip install (into a private folder), certify, and run the plugin's own tests."""
    assert main(["new-game", "gin-rummy", "--dir", str(tmp_path)]) == 0
    plugin = tmp_path / "cardcore-gin-rummy"
    target = tmp_path / "site"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-deps",
            "--no-build-isolation",
            "--target",
            str(target),
            str(plugin),
        ],
        check=True,
    )
    env = {**os.environ, "PYTHONPATH": str(target)}
    cardcore = [sys.executable, "-m", "cardcore"]
    listed = subprocess.run(
        [*cardcore, "list"], env=env, capture_output=True, text=True, check=True
    )
    assert "gin-rummy" in listed.stdout
    cert = subprocess.run(
        [
            *cardcore,
            "certify",
            "gin-rummy",
            "--games",
            "3",
            "-q",
            "--failure-dir",
            str(tmp_path / "f"),
        ],
        env=env,
        capture_output=True,
        text=True,
    )
    assert cert.returncode == 0, cert.stdout + cert.stderr
    tests = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(plugin / "tests")],
        env=env,
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert tests.returncode == 0, tests.stdout + tests.stderr


def test_next_steps_say_how_to_get_pytest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A plain install has no pytest: the next steps say to install it (or the testing extra)."""
    assert main(["new-game", "steps", "--dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    test_line = next(i for i, line in enumerate(lines) if line.strip().startswith("pytest "))
    before = "\n".join(lines[:test_line])
    assert "pip install pytest" in before
    assert "'./[testing]'" in before
