"""A plugin made by `cardcore new-game` plays at the web table with no code of its own."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

from selenium.webdriver.common.by import By

from cardcore.cli import main

from ._browser import HANG, lines_of, play_out


def test_a_new_game_plugin_is_played_by_clicks_in_the_browser(browser: Any, tmp_path: Path) -> None:
    """Generate, install (into a private folder), start `play --web`, and play to the end."""
    assert main(["new-game", "tile-snap", "--dir", str(tmp_path)]) == 0
    site = tmp_path / "site"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-deps",
            "--no-build-isolation",
            "--no-index",
            "--target",
            str(site),
            str(tmp_path / "cardcore-tile-snap"),
        ],
        check=True,
    )
    env = {**os.environ, "PYTHONPATH": str(site)}
    argv = ["play", "tile-snap", "--web", "--no-browser", "--human", "0", "--bots", "random"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "cardcore", *argv, "--seed", "4"],
        env=env,
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert proc.stdout is not None
    printed, reader = lines_of(proc.stdout)
    try:
        link = None
        while link is None:
            line = printed.get(timeout=HANG)  # a hang guard only
            found = re.search(r"http://\S+/seat/0\?t=\S+", line)
            link = found.group(0) if found else None
        browser.get(link)
        assert play_out(browser) > 0
        assert "The deal is over" in browser.find_element(By.ID, "result-text").text
        assert browser.find_element(By.ID, "tally").text.startswith("wins after 1 deal")
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=HANG)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        reader.join(HANG)
        proc.stdout.close()
    assert proc.returncode == 0
    assert not list(tmp_path.glob("*.cardcore.json"))  # a finished deal leaves no save behind
