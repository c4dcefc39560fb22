"""A headless Chromium and web tables served from a background thread, for the web tests."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

from cardcore.cli import build_parser
from cardcore.web._cli import build_table, rules_text
from cardcore.web._server import TableServer

Serve = Callable[..., tuple[TableServer, str]]


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A headless Chromium driven by selenium, using only the system's binaries."""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if chromium is None or driver is None:
        pytest.fail("Chromium and ChromeDriver are needed: run `make browser` (apt-get install)")
    os.environ.setdefault("SE_AVOID_STATS", "true")
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=1280,900",
        f"--user-data-dir={tmp_path_factory.mktemp('chromium')}",
    ):
        options.add_argument(flag)
    drv = webdriver.Chrome(service=Service(executable_path=driver), options=options)
    try:
        yield drv
    finally:
        drv.quit()


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Serve]:
    """Start web tables as ``cardcore play ARGS --web`` would; each is stopped afterwards.

    Keywords go to the :class:`WebTable` (``layout_hints=...`` instead of the plugins').
    """
    servers: list[TableServer] = []

    def start(*argv: str, **options: Any) -> tuple[TableServer, str]:
        args = build_parser().parse_args(["play", *argv, "--web", "--no-browser"])
        table = build_table(args, save_dir=tmp_path, **options)
        server = TableServer(table, rules=rules_text(table.game.name), pace=0)
        servers.append(server)
        return server, server.start()

    yield start
    for s in servers:
        s.stop()
