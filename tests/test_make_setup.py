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


def _make(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    """``make -s -f Makefile ARGS`` in the checkout, with ``env`` only."""
    make = shutil.which("make")
    assert make is not None, "make is needed to run make test"
    return subprocess.run(
        [make, "-s", "-f", str(ROOT / "Makefile"), *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


@pytest.mark.parametrize(
    ("target", "what"),
    [("browser", "chromium"), ("sandbox-tool", "bubblewrap")],
)
def test_an_install_step_waits_for_apt_and_fails_in_one_clear_line(
    tmp_path: Path, target: str, what: str
) -> None:
    """With the tool missing and dpkg's lock held, the step asks apt to wait, then says what failed."""
    stubs = tmp_path / "bin"
    stubs.mkdir()
    apt = stubs / "apt-get"
    apt.write_text(_HELD, encoding="utf-8")
    apt.chmod(0o755)
    log = tmp_path / "apt.log"
    env = {"PATH": str(stubs), "APT_LOG": str(log), "HOME": str(tmp_path)}
    done = _make(env, target)
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


_LISTS_HELD_TWICE = """#!/bin/sh
echo "$@" >> "$APT_LOG"
case "$*" in
*update*)
    n=$(wc -l < "$APT_LOG")
    if [ "$n" -le 2 ]; then
        echo "E: Could not get lock /var/lib/apt/lists/lock. It is held by process 7 (apt-get)" >&2
        exit 100
    fi;;
esac
exit 0
"""

_ONE_AT_A_TIME = """#!/bin/sh
if [ -e "$APT_BUSY" ]; then echo overlap >> "$APT_LOG"; fi
touch "$APT_BUSY"
echo "$@" >> "$APT_LOG"
sleep 0.3
rm -f "$APT_BUSY"
exit 0
"""


def _stub_path(tmp_path: Path, apt_script: str, *tools: str) -> Path:
    """A folder holding a stub ``apt-get`` and links to the named real tools."""
    stubs = tmp_path / "bin"
    stubs.mkdir()
    apt = stubs / "apt-get"
    apt.write_text(apt_script, encoding="utf-8")
    apt.chmod(0o755)
    for tool in tools:
        real = shutil.which(tool)
        assert real is not None, f"{tool} is needed by this test (Debian's util-linux/coreutils)"
        (stubs / tool).symlink_to(real)
    return stubs


def test_an_install_step_tries_again_while_another_apt_holds_the_package_lists(
    tmp_path: Path,
) -> None:
    """`apt-get update` does not wait for the package lists' lock (dpkg's lock it does):
    the step tries again, says so, and installs once the lists are free."""
    stubs = _stub_path(tmp_path, _LISTS_HELD_TWICE, "wc", "sleep")
    log = tmp_path / "apt.log"
    env = {"PATH": str(stubs), "APT_LOG": str(log), "HOME": str(tmp_path)}
    done = _make(env, "sandbox-tool", "APT_WAIT=0")
    assert done.returncode == 0, (done.stdout, done.stderr)
    calls = log.read_text(encoding="utf-8").splitlines()
    assert [("update" in c, "bubblewrap" in c) for c in calls] == [
        (True, False),
        (True, False),
        (True, False),
        (False, True),
    ], calls
    assert done.stdout.count("another apt holds the package lists") == 2


def test_two_install_steps_at_once_run_apt_one_after_the_other(tmp_path: Path) -> None:
    """`make -j2` reaches the browser and bubblewrap together: their apt-get calls queue."""
    stubs = _stub_path(tmp_path, _ONE_AT_A_TIME, "flock", "sleep", "touch", "rm")
    log = tmp_path / "apt.log"
    env = {
        "PATH": str(stubs),
        "APT_LOG": str(log),
        "APT_BUSY": str(tmp_path / "busy"),
        "HOME": str(tmp_path),
    }
    done = _make(env, "-j2", "browser", "sandbox-tool", f"APT_LOCK={tmp_path / 'apt.lock'}")
    assert done.returncode == 0, (done.stdout, done.stderr)
    calls = log.read_text(encoding="utf-8").splitlines()
    assert "overlap" not in calls, calls
    assert len(calls) == 4, calls  # an update and an install for each
