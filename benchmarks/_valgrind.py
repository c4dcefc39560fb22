"""Run a benchmark script under valgrind and read the counts it reports (shared helper)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys


def require_valgrind() -> None:
    """Stop with a clear message when valgrind is not installed."""
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (it counts the instructions)")


def run(
    tool: list[str], script: str, args: list[str], patterns: dict[str, str]
) -> tuple[dict[str, int], int]:
    """Run ``python script args`` under ``valgrind tool...``.

    Returns:
        Per pattern, the number its first group finds in valgrind's report (commas
        allowed), and the last number the script printed.
    """
    cmd = ["valgrind", *tool, sys.executable, script, *args]
    env = {**os.environ, "PYTHONHASHSEED": "0", "OPENBLAS_NUM_THREADS": "1"}
    # A fixed command (valgrind running one of these scripts), not user input.
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, check=True)  # noqa: S603
    counts = {}
    for key, pattern in patterns.items():
        found = re.search(pattern, done.stderr)
        if found is None:
            raise SystemExit(f"valgrind printed no {key} count:\n{done.stderr[-2000:]}")
        counts[key] = int(found.group(1).replace(",", ""))
    return counts, int(done.stdout.split()[-1])
