"""The time limit of one random game: a deadline the checks look at, and an alarm.

A game that never ends runs into the deadline at its next check; a call that never
returns (on POSIX, in the main thread) is interrupted by the alarm. Both raise
:class:`KitTimeout`, and the kit reports property ``time-out``.
"""

from __future__ import annotations

import contextlib
import signal
import threading
import time
from collections.abc import Iterator
from typing import Final, final

from cardcore.testing._errors import KitTimeout

__all__ = ["DEFAULT_TIMEOUT", "Clock", "alarm"]

DEFAULT_TIMEOUT: Final = 120.0
"""Seconds one random game (with every check on every step) may take by default."""


@final
class Clock:
    """The deadline of one game, and the name of the check running now."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.deadline = time.monotonic() + seconds
        self.check = "setup"
        self.step = 0

    def at(self, check: str) -> None:
        self.check = check
        if time.monotonic() > self.deadline:
            raise KitTimeout(check)


@contextlib.contextmanager
def alarm(seconds: float) -> Iterator[None]:
    """Interrupt a call that never returns (main thread on POSIX; elsewhere the clock only)."""
    usable = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    if not usable:
        yield
        return

    def ring(signum: int, frame: object) -> None:
        raise KitTimeout("alarm")

    old = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, max(seconds, 0.001))
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
