"""A progress bar for long arena runs (rich), silent when stderr is not a terminal."""

from __future__ import annotations

import sys
from types import TracebackType
from typing import Any, final

__all__ = ["Progress"]


@final
class Progress:
    """Shows games done, rate and time remaining on stderr while the arena runs.

    Args:
        total: games in the run.
        done: games already stored (a resumed run starts there).
        enabled: show it; ``None``: only when stderr is a terminal.
    """

    def __init__(self, total: int, done: int, *, enabled: bool | None = None) -> None:
        self._total = total
        self._done = done
        self._enabled = sys.stderr.isatty() if enabled is None else enabled
        self._bar: Any = None
        self._task: Any = None

    def __enter__(self) -> Progress:
        if not self._enabled or self._done >= self._total:
            return self
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            ProgressColumn,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )
        from rich.progress import Progress as RichProgress
        from rich.text import Text

        class RateColumn(ProgressColumn):
            """Games per second over the last half minute."""

            def render(self, task: Any) -> Text:
                speed = task.speed
                return Text("" if speed is None else f"{speed:.1f} games/s")

        self._bar = RichProgress(
            TextColumn("arena"),
            BarColumn(),
            MofNCompleteColumn(),
            RateColumn(),
            TimeElapsedColumn(),
            TextColumn("elapsed,"),
            TimeRemainingColumn(),
            TextColumn("left"),
            console=Console(file=sys.stderr),
            transient=False,
        )
        self._bar.__enter__()
        self._task = self._bar.add_task("games", total=self._total, completed=self._done)
        return self

    def advance(self) -> None:
        """One more game finished."""
        if self._bar is not None:
            self._bar.advance(self._task)

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._bar is not None:
            self._bar.__exit__(kind, value, tb)
            self._bar = None
