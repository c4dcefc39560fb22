"""The web table's socket protocol: what a page may send, checked before the table sees it.

Free of any web library. A page sends JSON objects with a ``type``; :func:`read_message`
refuses what is not one, :class:`Flood` what comes too fast, and :func:`run_command`
carries one out on the table for the seat that sent it. The server only moves text.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import TYPE_CHECKING, Any, Final, final

import attrs

from cardcore._engine import accept
from cardcore._isolation import Refused

if TYPE_CHECKING:
    from cardcore.web._match import WebTable

__all__ = [
    "BURST",
    "MAX_MESSAGE",
    "Flood",
    "Reply",
    "play_text",
    "read_message",
    "run_command",
]

MAX_MESSAGE: Final = 4096
"""The longest message a page may send, in characters."""
BURST: Final = 30
"""Messages a page may send in one second; more are refused (and change nothing)."""


@final
class Flood:
    """Counts one page's messages: more than :data:`BURST` in a second are refused."""

    def __init__(self) -> None:
        self._stamps: list[float] = []

    def refuse(self) -> str | None:
        """Count a message; why it is refused, or None."""
        now = time.monotonic()
        self._stamps = [t for t in self._stamps if now - t < 1.0] + [now]
        if len(self._stamps) > BURST:
            return f"too many messages (more than {BURST} a second): ignored"
        return None


def read_message(text: str | None) -> dict[str, Any] | str:
    """A page's message as a JSON object with a ``type``, or why it is refused."""
    if text is None:
        return "messages must be JSON text, not binary"
    if len(text) > MAX_MESSAGE:
        return f"message too long ({len(text)} characters, at most {MAX_MESSAGE})"
    try:
        msg = json.loads(text)
    except ValueError as e:
        return f"not JSON: {e}"
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        return 'a message is a JSON object with a "type"'
    return msg


@final
@attrs.frozen
class Reply:
    """What a command did: a notice for the seat, or an error (and the table unchanged)."""

    notice: str = ""
    error: str | None = None
    resend: bool = False
    """Whether the seat is sent its view again after the error (a refused move)."""


def play_text(table: WebTable, seat: int, text: str, version: int | None) -> str | None:
    """Play a person's action by its text; the reason it is refused, or None.

    The page only proposes: the action must be one of the seat's legal ones, on its
    turn, at the table ``version`` (the number of decisions) the page saw.
    """
    if table.outcome is not None:
        return "the deal is over: press 'play again' for a new one"
    to_move = table.to_move()
    if to_move != seat:
        return f"it is seat {to_move}'s turn, not yours"
    if version is not None and version != len(table.actions):
        return "the table changed before your move arrived: look again and choose"
    obs = table.game.observe(table.state, seat)
    try:
        chosen = table.game.parse_action(text)
    except Exception as e:  # noqa: BLE001 - a plugin's parser must not end the match
        return f"cannot read {text!r}: {e}"
    found = accept(table.game, obs.legal_actions, chosen)
    if isinstance(found, Refused):
        return f"{text!r} is not one of your legal actions now"
    table.apply(seat, found)
    return None


async def run_command(table: WebTable, seat: int, msg: dict[str, Any]) -> Reply:
    """Carry out one checked message from ``seat``'s page on the table."""
    kind = msg["type"]
    if kind == "play":
        action, version = msg.get("action"), msg.get("version")
        if not isinstance(action, str) or not (version is None or isinstance(version, int)):
            return Reply(error='"play" needs "action" (text) and "version" (a number)')
        if "seat" in msg and msg["seat"] != seat:
            return Reply(error=f"this page plays seat {seat}, not seat {msg['seat']}")
        why = play_text(table, seat, action, version)
        return Reply() if why is None else Reply(error=why, resend=True)
    if kind == "undo":
        try:
            return Reply(notice=table.undo(seat))
        except ValueError as e:
            return Reply(error=str(e))
    if kind == "hint":
        try:
            return Reply(notice=await asyncio.to_thread(table.hint, seat))
        except Exception as e:  # noqa: BLE001 - a failing hint must not end the match
            return Reply(error=f"no hint: {e}")
    if kind == "save":
        try:
            path = table.save()
        except OSError as e:
            return Reply(error=f"cannot save: {e.strerror or e}")
        return Reply(notice=f"saved to {path} (resume with: cardcore play --resume {path} --web)")
    if kind == "again":
        if table.outcome is None:
            return Reply(error="the deal is not over yet")
        table.new_deal()
        return Reply(notice="a new deal (its seed is shown when it is over)")
    if kind == "autoplay":
        table.autoplay[seat] = bool(msg.get("on"))
        return Reply()
    return Reply(error=f"unknown message type {kind!r}")
