"""Who sits at a web table: the people's seats, their secret tokens and their switches."""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Sequence
from typing import Final, final

from cardcore._game import Outcome
from cardcore.cli import _common

__all__ = ["HUMAN", "Seats", "Tally"]

HUMAN: Final = _common.HUMAN
"""The name a record gives to a seat played by a person."""


def _same(secret: str | None, token: str) -> bool:
    return secret is not None and hmac.compare_digest(secret.encode(), token.encode())


@final
class Seats:
    """The seats of a table: a bot's name or ``human`` for each, and each person's token.

    Args:
        entries: who sits at each seat (``human`` or a bot entry).
        own_links: whether each person's seat has a link of its own (not at a shared
            screen, whose link is the only one).
    """

    def __init__(self, entries: Sequence[str], *, own_links: bool = True) -> None:
        self.entries = list(entries)
        self.humans = [s for s, e in enumerate(self.entries) if e == HUMAN]
        self.tokens = {s: secrets.token_urlsafe(18) for s in self.humans} if own_links else {}
        """Each human seat's secret: its link carries it."""
        self.autoplay = dict.fromkeys(self.humans, True)
        """Per human seat: whether its only legal action is played for it."""

    def seat_of(self, seat: int, token: str) -> bool:
        """Whether ``token`` is the secret of human seat ``seat``."""
        return _same(self.tokens.get(seat), token)


@final
class Tally:
    """The wins of each seat over the deals played at a table (``play again``)."""

    def __init__(self, n: int) -> None:
        self.wins = [0.0] * n
        """Per seat, the sum of its win shares."""
        self.deals = 0
        """How many deals were finished."""

    def count(self, outcome: Outcome, times: int = 1) -> None:
        """Count a finished deal (``times=-1``: take back one that was undone)."""
        self.deals += times
        for s, share in enumerate(outcome.shares):
            self.wins[s] += times * float(share)
