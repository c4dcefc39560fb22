"""The web table's server: Starlette routes and one WebSocket per open seat page.

Each human seat has its own link, ``/seat/N?t=TOKEN``; the page opens ``/ws/N?t=TOKEN``
and is sent its seat's view (see :meth:`WebTable.view`) after every change. The page
only proposes: every action is checked against the seat's legal actions here. The bots
think in a worker thread, one decision at a time, while the pages show who is thinking.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import threading
import time
from collections.abc import AsyncIterator, Callable
from typing import Any, final

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from cardcore.web._driver import BotDriver
from cardcore.web._match import WebTable
from cardcore.web._protocol import Flood, read_message, run_command

__all__ = ["TableServer"]


def _page() -> str:
    from importlib.resources import files

    return files("cardcore.web").joinpath("static", "table.html").read_text(encoding="utf-8")


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
        self._driver = BotDriver(table, self._broadcast, pace=pace, time_limit=time_limit)
        self.app = Starlette(
            routes=[
                Route("/seat/{seat:int}", self._seat_page),
                Route("/rules/{seat:int}", self._rules),
                WebSocketRoute("/ws/{seat:int}", self._socket),
                Mount("/static", StaticFiles(packages=[("cardcore.web", "static")]), name="static"),
                Route("/", self._index),
            ],
            lifespan=self._lifespan,
        )
        self._server: Any = None
        self._thread: threading.Thread | None = None

    # ---- http ----------------------------------------------------------------------

    def _token_ok(self, seat: int, token: str | None) -> bool:
        return token is not None and self.table.seat_of(seat, token)

    async def _index(self, request: Request) -> Response:
        return PlainTextResponse(
            "cardcore web table: open the link of your seat (printed where the table was "
            "started); each seat's link carries its own secret token.",
            status_code=404,
        )

    async def _seat_page(self, request: Request) -> Response:
        seat = int(request.path_params["seat"])
        if not self._token_ok(seat, request.query_params.get("t")):
            return PlainTextResponse(
                f"this link is not seat {seat}'s: its token is missing or wrong", status_code=403
            )
        return HTMLResponse(_page(), headers={"Cache-Control": "no-store"})

    async def _rules(self, request: Request) -> Response:
        seat = int(request.path_params["seat"])
        if not self._token_ok(seat, request.query_params.get("t")):
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

    async def _send(self, seat: int, notice: str = "") -> None:
        ws = self._sockets.get(seat)
        if ws is None:
            return
        with contextlib.suppress(Exception):  # a page that went away reconnects later
            await ws.send_text(json.dumps(self.table.view(seat, notice), ensure_ascii=False))

    async def _broadcast(self) -> None:
        for seat in list(self._sockets):
            await self._send(seat)
        if self._on_change is not None:
            self._on_change()

    async def _error(self, ws: WebSocket, message: str, *, fatal: bool = False) -> None:
        with contextlib.suppress(Exception):
            await ws.send_text(json.dumps({"type": "error", "message": message, "fatal": fatal}))

    async def _socket(self, ws: WebSocket) -> None:
        seat = int(ws.path_params["seat"])
        await ws.accept()
        if not self._token_ok(seat, ws.query_params.get("t")):
            await self._error(
                ws, f"this link is not seat {seat}'s: its token is missing or wrong", fatal=True
            )
            await ws.close(code=4403)
            return
        old = self._sockets.get(seat)
        self._sockets[seat] = ws
        if old is not None:
            with contextlib.suppress(Exception):
                await old.send_text(
                    json.dumps(
                        {
                            "type": "replaced",
                            "message": "this seat was opened in another tab or window; "
                            "this one stopped (reload it to play here again)",
                        }
                    )
                )
                await old.close(code=4409)
        await self._send(seat)
        flood = Flood()
        try:
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                why = flood.refuse()
                msg = read_message(message.get("text")) if why is None else why
                if isinstance(msg, str):
                    await self._error(ws, msg)
                    continue
                await self._handle(seat, ws, msg)
        except WebSocketDisconnect:
            pass
        finally:
            if self._sockets.get(seat) is ws:
                del self._sockets[seat]

    async def _handle(self, seat: int, ws: WebSocket, msg: dict[str, Any]) -> None:
        if self._sockets.get(seat) is not ws:
            await self._error(ws, "this tab no longer plays this seat", fatal=True)
            return
        reply = await run_command(self.table, seat, msg)
        if reply.error is not None:
            await self._error(ws, reply.error)
            if reply.resend:
                await self._send(seat)
            return
        await self._send(seat, reply.notice)
        for other in list(self._sockets):
            if other != seat:
                await self._send(other)
        self._driver.wake()

    # ---- running -------------------------------------------------------------------------

    def links(self, base: str) -> dict[int, str]:
        """Each human seat's link."""
        return {s: f"{base}/seat/{s}?t={t}" for s, t in self.table.tokens.items()}

    def bind(self, host: str, port: int) -> socket.socket:
        """A listening socket (port 0: any free port)."""
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(64)
        return sock

    def _config(self) -> Any:
        import uvicorn

        return uvicorn.Config(
            self.app,
            lifespan="on",
            log_level="warning",
            ws_max_size=64 * 1024,
            ws_ping_interval=20.0,
        )

    def serve(self, sock: socket.socket) -> None:
        """Serve until interrupted (Ctrl-C)."""
        import uvicorn

        self._server = uvicorn.Server(self._config())
        self._server.run(sockets=[sock])

    def start(self, host: str = "127.0.0.1", port: int = 0) -> str:
        """Serve from a background thread (for tests); the base address."""
        import uvicorn

        sock = self.bind(host, port)
        self._server = uvicorn.Server(self._config())
        self._thread = threading.Thread(
            target=self._server.run, kwargs={"sockets": [sock]}, daemon=True
        )
        self._thread.start()
        deadline = time.monotonic() + 60  # a hang guard only
        while not self._server.started:
            if time.monotonic() > deadline or not self._thread.is_alive():
                raise RuntimeError("the web table did not start")
            time.sleep(0.02)
        port = sock.getsockname()[1]
        return f"http://{host}:{port}"

    def stop(self) -> None:
        """Stop a server started with :meth:`start`."""
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(30)
