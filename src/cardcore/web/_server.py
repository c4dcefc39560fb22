"""The web table's server: Starlette routes and one WebSocket per open page.

Each human seat has its own link, ``/seat/N?t=TOKEN``; the page opens ``/ws/N?t=TOKEN``
and is sent its seat's view (see :meth:`WebTable.view`) after every change. At a
hot-seat table the people share one screen instead, ``/screen?t=TOKEN``, which shows
one seat's view at a time, with a privacy step between two people (see
:class:`~cardcore.web._screen.Screen`). The page only proposes: every action is checked
against the seat's legal ones here. The bots think in a worker thread, one decision at
a time, while the pages show who is thinking.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
from collections.abc import AsyncIterator, Callable
from typing import Any, Final, final

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from cardcore.web._driver import BotDriver
from cardcore.web._match import WebTable
from cardcore.web._protocol import Flood, read_message, run_command
from cardcore.web._running import AppRunner, bind

__all__ = ["SCREEN", "TableServer"]

SCREEN: Final = -1
"""The key of the shared screen of a hot-seat table, among the seats' pages."""


def _page() -> str:
    from importlib.resources import files

    return files("cardcore.web").joinpath("static", "table.html").read_text(encoding="utf-8")


def _whose(key: int) -> str:
    return "the table's screen" if key == SCREEN else f"seat {key}'s"


async def _error(ws: WebSocket, message: str, *, fatal: bool = False) -> None:
    """Tell a page why its message changed nothing (``fatal``: the page stops)."""
    with contextlib.suppress(Exception):
        await ws.send_text(json.dumps({"type": "error", "message": message, "fatal": fatal}))


async def _replaced(old: WebSocket) -> None:
    """Tell the older page of a seat opened again elsewhere that it stopped."""
    message = (
        "this seat was opened in another tab or window; "
        "this one stopped (reload it to play here again)"
    )
    with contextlib.suppress(Exception):
        await old.send_text(json.dumps({"type": "replaced", "message": message}))
        await old.close(code=4409)


@final
class TableServer:
    """Serves one :class:`WebTable` and drives its bots.

    Args:
        table: the match.
        rules: the text behind the page's "rules" link.
        pace: seconds to pause after each bot move, so people see it (0 in tests).
        time_limit: seconds per bot decision (None: no limit); a slower bot forfeits.
    """

    def __init__(
        self,
        table: WebTable,
        *,
        rules: str = "",
        pace: float = 0.6,
        time_limit: float | None = None,
        on_change: Callable[[], None] | None = None,
    ) -> None:
        self.table = table
        self.rules = rules
        self.pace = pace
        self.time_limit = time_limit
        self._on_change = on_change
        self._sockets: dict[int, WebSocket] = {}
        """The open page of each seat (and of the screen, :data:`SCREEN`)."""
        self._driver = BotDriver(table, self._broadcast, pace=pace, time_limit=time_limit)
        static = StaticFiles(packages=[("cardcore.web", "static")])
        self.app = Starlette(
            routes=[
                Route("/seat/{seat:int}", self._seat_page),
                Route("/rules/{seat:int}", self._rules),
                WebSocketRoute("/ws/{seat:int}", self._socket),
                Route("/screen", self._seat_page),
                Route("/rules/screen", self._rules),
                WebSocketRoute("/ws/screen", self._socket),
                Mount("/static", static, name="static"),
                Route("/", self._index),
            ],
            lifespan=self._lifespan,
        )
        self._runner = AppRunner(self.app)

    # ---- http ----------------------------------------------------------------------

    def _token_ok(self, key: int, token: str | None) -> bool:
        if token is None:
            return False
        if key == SCREEN:
            return self.table.screen is not None and self.table.screen.token_ok(token)
        return self.table.seat_of(key, token)

    async def _index(self, request: Request) -> Response:
        return PlainTextResponse(
            "cardcore web table: open the link of your seat (printed where the table was "
            "started); each seat's link carries its own secret token.",
            status_code=404,
        )

    async def _seat_page(self, request: Request) -> Response:
        key = int(request.path_params.get("seat", SCREEN))
        if not self._token_ok(key, request.query_params.get("t")):
            return PlainTextResponse(
                f"this link is not {_whose(key)}: its token is missing or wrong", status_code=403
            )
        return HTMLResponse(_page(), headers={"Cache-Control": "no-store"})

    async def _rules(self, request: Request) -> Response:
        key = int(request.path_params.get("seat", SCREEN))
        if not self._token_ok(key, request.query_params.get("t")):
            return JSONResponse({"error": "token missing or wrong"}, status_code=403)
        return PlainTextResponse(self.rules or "no rules text is installed for this game")

    # ---- the live table --------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def _lifespan(self, app: Any) -> AsyncIterator[None]:
        task = asyncio.get_running_loop().create_task(self._driver.run())
        try:
            yield
        finally:
            task.cancel()

    def _message(self, key: int, notice: str) -> dict[str, Any]:
        """What the page of ``key`` is sent now: its seat's view, or the screen's."""
        if key == SCREEN:
            assert self.table.screen is not None
            return self.table.screen.message(notice)
        return self.table.view(key, notice)

    async def _send(self, key: int, notice: str = "") -> None:
        ws = self._sockets.get(key)
        if ws is None:
            return
        with contextlib.suppress(Exception):  # a page that went away reconnects later
            await ws.send_text(json.dumps(self._message(key, notice), ensure_ascii=False))

    async def _broadcast(self) -> None:
        for key in list(self._sockets):
            await self._send(key)
        if self._on_change is not None:
            self._on_change()

    async def _socket(self, ws: WebSocket) -> None:
        key = int(ws.path_params.get("seat", SCREEN))
        await ws.accept()
        if not self._token_ok(key, ws.query_params.get("t")):
            await _error(
                ws, f"this link is not {_whose(key)}: its token is missing or wrong", fatal=True
            )
            await ws.close(code=4403)
            return
        old = self._sockets.get(key)
        self._sockets[key] = ws
        if old is not None:
            await _replaced(old)
        await self._send(key)
        flood = Flood()
        try:
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                why = flood.refuse()
                msg = read_message(message.get("text")) if why is None else why
                if isinstance(msg, str):
                    await _error(ws, msg)
                    continue
                await self._handle(key, ws, msg)
        except WebSocketDisconnect:
            pass
        finally:
            if self._sockets.get(key) is ws:
                del self._sockets[key]

    async def _handle(self, key: int, ws: WebSocket, msg: dict[str, Any]) -> None:
        if self._sockets.get(key) is not ws:
            await _error(ws, "this tab no longer plays this seat", fatal=True)
            return
        seat = key
        if key == SCREEN:
            screen = self.table.screen
            assert screen is not None
            if msg["type"] == "reveal":
                why = screen.reveal(msg.get("seat"))
                await (_error(ws, why) if why is not None else self._send(key))
                return
            if screen.shown is None:
                await _error(ws, f"the screen shows no seat: pass it to seat {screen.due()}")
                return
            seat = screen.shown
        reply = await run_command(self.table, seat, msg)
        if reply.error is not None:
            await _error(ws, reply.error)
            if reply.resend:
                await self._send(key)
            return
        await self._send(key, reply.notice)
        for other in list(self._sockets):
            if other != key:
                await self._send(other)
        self._driver.wake()

    # ---- running -------------------------------------------------------------------------

    def links(self, base: str) -> dict[int, str]:
        """Each human seat's link (none at a hot-seat table: see :meth:`screen_link`)."""
        return {s: f"{base}/seat/{s}?t={t}" for s, t in self.table.tokens.items()}

    def screen_link(self, base: str) -> str | None:
        """The link of a hot-seat table's shared screen, else None."""
        screen = self.table.screen
        return None if screen is None else f"{base}/screen?t={screen.token}"

    def bind(self, host: str, port: int) -> socket.socket:
        """A listening socket (port 0: any free port)."""
        return bind(host, port)

    def serve(self, sock: socket.socket) -> None:
        """Serve until interrupted (Ctrl-C)."""
        self._runner.serve(sock)

    def start(self, host: str = "127.0.0.1", port: int = 0) -> str:
        """Serve from a background thread (for tests); the base address."""
        return self._runner.start(host, port)

    def stop(self) -> None:
        """Stop a server started with :meth:`start`."""
        self._runner.stop()
