"""pytest plugin: fixtures for game plugin test suites (loaded automatically)."""

from __future__ import annotations

import pytest

from cardcore._host import PluginHost


@pytest.fixture
def cardcore_host() -> PluginHost:
    """A fresh plugin host with the installed plugins."""
    return PluginHost()
