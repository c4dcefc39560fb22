"""Bots with a ``match_transcript()`` that fails in each way a bot's log can fail.

Built by import path (``tests.llmbot.logging_bots:Name``), in this process or in a bot
process of their own. Each plays the first legal action and logs one entry a decision.
"""

from __future__ import annotations

import os
import time
from typing import Any


class _Logger:
    def __init__(self, game: Any, seed: int = 0) -> None:
        self.game = game
        self.decisions = 0

    def act(self, observation: Any) -> Any:
        self.decisions += 1
        return observation.legal_actions[0]

    def match_transcript(self) -> list[Any]:
        return [{"decision": k} for k in range(self.decisions)]


class Fine(_Logger):
    """Logs one entry a decision."""


class Raising(_Logger):
    """Its log raises."""

    def match_transcript(self) -> list[Any]:
        raise ValueError("the log is lost")


class NotJson(_Logger):
    """Its log holds something that is not JSON."""

    def match_transcript(self) -> list[Any]:
        return [{"note": {1, 2}}]


class NotObjects(_Logger):
    """Its log is a list, but not of objects."""

    def match_transcript(self) -> list[Any]:
        return ["one", "two"]


class Exiting(_Logger):
    """Ends its own process when asked for its log."""

    def match_transcript(self) -> list[Any]:
        os._exit(3)


class Silent(_Logger):
    """Never answers when asked for its log."""

    def match_transcript(self) -> list[Any]:
        time.sleep(600)
        return []


class Stuck(_Logger):
    """Never answers its second decision (its process is stopped at the time limit)."""

    def act(self, observation: Any) -> Any:
        if self.decisions:
            time.sleep(600)
        return super().act(observation)


class Amending(_Logger):
    """Rewrites its first entry at every decision (its last entries stay as they were)."""

    def match_transcript(self) -> list[Any]:
        log: list[Any] = [{"decision": k} for k in range(self.decisions)]
        if log:
            log[0] = {"decision": 0, "seen": self.decisions}
        return log


class Restarting(_Logger):
    """Starts its log anew every third decision: it shrinks, then grows again."""

    def match_transcript(self) -> list[Any]:
        start = (self.decisions - 1) // 3 * 3 if self.decisions else 0
        return [{"decision": k, "from": start} for k in range(start, self.decisions)]


class Renaming(_Logger):
    """Every third decision, rewrites every entry (as long a log, other entries)."""

    def match_transcript(self) -> list[Any]:
        return [{"decision": k, "round": self.decisions // 3} for k in range(self.decisions)]
