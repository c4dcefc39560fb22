"""pytest plugin: fixtures for game plugin test suites (loaded automatically).

pytest loads this module in every project of an environment where cardcore is
installed, so it imports nothing but pytest at load time and has no side effects:
the kit (and Hypothesis) are imported only when a test uses them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from cardcore._host import PluginHost


@pytest.fixture
def cardcore_host() -> PluginHost:
    """A fresh plugin host with the installed plugins."""
    from cardcore._host import PluginHost

    return PluginHost()
