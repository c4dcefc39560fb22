"""``run_arena`` in a script without the ``__main__`` guard fails at once, and says why."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = """\
from cardcore.arena import run_arena

result = run_arena("highcard", ["random", "random"], games=3, seed=1, workers=1)
print(result.table())
"""


def test_a_script_without_the_main_guard_is_told_to_add_it(tmp_path: Path) -> None:
    """Workers that die while starting stop the arena with the fix, and no game is played."""
    script = tmp_path / "arena_script.py"
    script.write_text(SCRIPT, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(script)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode != 0
    last = done.stderr.strip().splitlines()[-1]
    assert "ArenaError" in last
    assert 'if __name__ == "__main__":' in last
    assert "games played now" not in done.stdout


def test_the_same_script_with_the_guard_plays(tmp_path: Path) -> None:
    """With the guard the script runs its arena in worker processes."""
    script = tmp_path / "arena_script.py"
    body = "".join(f"    {line}\n" for line in SCRIPT.splitlines()[2:])
    script.write_text(
        SCRIPT.splitlines()[0] + '\n\nif __name__ == "__main__":\n' + body, encoding="utf-8"
    )
    done = subprocess.run(
        [sys.executable, str(script)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    assert "6 games played now" in done.stdout
