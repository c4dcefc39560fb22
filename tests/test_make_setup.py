"""`make test`'s set-up steps that install system packages wait for apt and fail in one line."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

_HELD = """#!/bin/sh
echo "$@" >> "$APT_LOG"
echo "E: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 1 (apt-get)" >&2
exit 100
"""


@pytest.mark.parametrize(
    ("target", "what"),
    [("browser", "chromium"), ("sandbox-tool", "bubblewrap")],
)
def test_an_install_step_waits_for_apt_and_fails_in_one_clear_line(
    tmp_path: Path, target: str, what: str
) -> None:
    """With the tool missing and dpkg's lock held, the step asks apt to wait, then says what failed."""
    make = shutil.which("make")
    assert make is not None, "make is needed to run make test"
    stubs = tmp_path / "bin"
    stubs.mkdir()
    apt = stubs / "apt-get"
    apt.write_text(_HELD, encoding="utf-8")
    apt.chmod(0o755)
    log = tmp_path / "apt.log"
    env = {"PATH": str(stubs), "APT_LOG": str(log), "HOME": str(tmp_path)}
    done = subprocess.run(
        [make, "-s", "-f", str(ROOT / "Makefile"), target],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode != 0
    calls = log.read_text(encoding="utf-8").splitlines()
    assert calls and all("DPkg::Lock::Timeout=600" in c for c in calls), calls
    assert "apt-get" in done.stdout and what in done.stdout  # says what it is doing
    errors = [
        line
        for line in done.stdout.splitlines() + done.stderr.splitlines()
        if "error" in line.lower() or "could not install" in line
    ]
    assert len([e for e in errors if what in e or "bwrap" in e]) == 1, (
        done.stdout,
        done.stderr,
    )
