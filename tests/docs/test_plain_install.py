"""A plain install from wheels breaks nothing: certify works, and so does anyone's pytest.

The venv holds only what a user types: ``pip install cardcore cardcore-noddy pytest``
(from the wheels; their dependencies from the wheelhouse ``make`` fills, never from an
index), no extras.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.docs.freshenv import Venv


def run(venv: Venv, args: list[str], cwd: Path) -> tuple[int, str]:
    done = subprocess.run(
        args,
        cwd=cwd,
        env=venv.env(),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=600,
        check=False,
    )
    return done.returncode, done.stdout


def test_cardcore_comes_from_the_wheel(plain_venv: Venv, tmp_path: Path) -> None:
    """cardcore and cardcore-noddy are installed from their wheels, not from the checkout."""
    code = (
        "import cardcore, cardcore_noddy; print(cardcore.__file__); print(cardcore_noddy.__file__)"
    )
    status, out = run(plain_venv, [str(plain_venv.python), "-c", code], tmp_path)
    assert status == 0, out
    for line in out.splitlines():
        assert line.startswith(str(plain_venv.path)), out


def test_certify_works_on_a_plain_install(plain_venv: Venv, tmp_path: Path) -> None:
    """`cardcore certify noddy` passes with nothing but cardcore, cardcore-noddy and pytest."""
    status, out = run(plain_venv, [str(plain_venv.bin / "cardcore"), "certify", "noddy"], tmp_path)
    assert status == 0, f"cardcore certify noddy exited with {status}:\n{out}"
    assert "certified" in out


def test_an_unrelated_pytest_project_passes(plain_venv: Venv, tmp_path: Path) -> None:
    """pytest runs someone else's project in a venv that has cardcore (its plugin is harmless)."""
    (tmp_path / "test_unrelated.py").write_text(
        "def test_arithmetic():\n    assert 1 + 1 == 2\n", encoding="utf-8"
    )
    cmd = [str(plain_venv.python), "-m", "pytest", "-q", "-p", "no:cacheprovider"]
    status, out = run(plain_venv, cmd, tmp_path)
    assert status == 0, f"pytest exited with {status}:\n{out}"
    assert "1 passed" in out


def test_pip_in_a_fresh_venv_never_reaches_a_package_index(
    plain_venv: Venv, tmp_path: Path
) -> None:
    """A package that is not in the wheelhouse is refused at once, not fetched from an index."""
    cmd = [str(plain_venv.python), "-m", "pip", "download", "--no-deps", "-d", str(tmp_path)]
    status, out = run(plain_venv, [*cmd, "rlcard"], tmp_path)
    assert status != 0, f"pip fetched a package that make test never installs:\n{out}"
    assert "No matching distribution found for rlcard" in out, out
    assert not list(tmp_path.glob("*.whl")) and not list(tmp_path.glob("*.tar.gz"))
