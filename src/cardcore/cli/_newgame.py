"""Sub-command module (being written)."""

from __future__ import annotations

from typing import Any


def register(sub: Any) -> None:
    """Add the sub-command to the parser (not yet)."""
