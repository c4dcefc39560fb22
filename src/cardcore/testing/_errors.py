"""The kit's errors: the one a test suite sees, and the ones that stop a check inside."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import final

__all__ = ["CheckFailed", "ConformanceError", "KitTimeout", "require"]


@final
class ConformanceError(AssertionError):
    """A property failed; the message names it and the counterexample."""

    def __init__(self, prop: str, message: str, record_path: Path | None = None) -> None:
        self.property = prop
        self.record_path = record_path
        where = f"\n  minimal replay: {record_path}" if record_path else ""
        super().__init__(f"[{prop}] {message}{where}")


class CheckFailed(Exception):
    """A property failed inside one random game (caught and reported by the kit)."""

    def __init__(self, prop: str, message: str) -> None:
        super().__init__(message)
        self.prop = prop
        self.message = message


def require(cond: bool, prop: str, message: str | Callable[[], str]) -> None:
    """Fail property ``prop`` with ``message`` (text, or a function making it) unless ``cond``.

    Raises:
        CheckFailed: ``cond`` is false.
    """
    if not cond:
        raise CheckFailed(prop, message() if callable(message) else message)


class KitTimeout(BaseException):
    """The running game passed its deadline.

    Not an :class:`Exception`: a check that catches what a game raises (``except
    Exception``) must not take the deadline for the game's own error.
    """
