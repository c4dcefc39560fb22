"""Hot seat: one screen passed between the people of a table, with a privacy step.

Between two people's turns the screen shows no card at all, only "pass to seat N", and
shows seat N's view (built from seat N's observation only) once someone there says that
only seat N sees the screen. Once the privacy step is up, nothing of the previous
seat's view is sent again.
"""

from __future__ import annotations

import hmac
import secrets
from typing import TYPE_CHECKING, Any, final

if TYPE_CHECKING:
    from cardcore.web._match import WebTable

__all__ = ["Screen"]


@final
class Screen:
    """The one screen of a hot-seat table, and whose view it shows now.

    Args:
        table: the match (two or more of its seats played by people).
    """

    def __init__(self, table: WebTable) -> None:
        if not table.humans:
            raise ValueError("a shared screen needs at least one seat played by a person")
        self.table = table
        self.token = secrets.token_urlsafe(18)
        """The secret of the screen's link."""
        self.shown: int | None = None
        """The seat whose view the screen shows; None while the privacy step is up."""
        self.pending = table.humans[0]
        """The seat the privacy step waits for (or waited for last)."""
        self._deal = table.base

    def token_ok(self, token: str) -> bool:
        """Whether ``token`` is the screen's secret."""
        return hmac.compare_digest(self.token.encode(), token.encode())

    def due(self) -> int:
        """The seat that should have the screen: the person to decide, else who has it."""
        table = self.table
        if table.base is not self._deal:  # a new deal: every seat has new cards to hide
            self._deal = table.base
            self.shown = None
        to_move = table.to_move()
        if to_move is not None and to_move in table.humans and table.forced(to_move) is None:
            return to_move
        return self.shown if self.shown is not None else self.pending

    def message(self, notice: str = "") -> dict[str, Any]:
        """What the screen shows now: a seat's view, or the privacy step before the next."""
        due = self.due()
        if due != self.shown:
            self.shown = None
            self.pending = due
            return {
                "type": "privacy",
                "seat": due,
                "game": self.table.game.name,
                "message": f"Pass to seat {due} — click when only seat {due} sees the screen",
            }
        return self.table.view(due, notice)

    def reveal(self, seat: object) -> str | None:
        """Show ``seat``'s view (the page says only that seat sees it); why not, or None."""
        due = self.due()
        if not isinstance(seat, int) or isinstance(seat, bool) or seat != due:
            return f"the screen is for seat {due} now, not seat {seat}"
        self.shown = due
        return None
