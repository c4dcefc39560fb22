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
from typing import Any, Final, final

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from cardcore._engine import accept
from cardcore._isolation import Refused
from cardcore.web._match import WebTable

__all__ = ["TableServer"]

MAX_MESSAGE: Final = 4096
"""The longest message a page may send, in characters."""
BURST: Final = 30
"""Messages a page may send in one second; more are refused (and change nothing)."""


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
        self._wake: asyncio.Event | None = None
        self._driver: asyncio.Task[None] | None = None
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
        self._wake = asyncio.Event()
        self._driver = asyncio.get_running_loop().create_task(self._drive())
        self._wake.set()
        try:
            yield
        finally:
            self._driver.cancel()

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
        stamps: list[float] = []
        try:
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                now = time.monotonic()
                stamps = [t for t in stamps if now - t < 1.0] + [now]
                if len(stamps) > BURST:
                    await self._error(
                        ws, f"too many messages (more than {BURST} a second): ignored"
                    )
                    continue
                text = message.get("text")
                if text is None:
                    await self._error(ws, "messages must be JSON text, not binary")
                    continue
                if len(text) > MAX_MESSAGE:
                    await self._error(
                        ws, f"message too long ({len(text)} characters, at most {MAX_MESSAGE})"
                    )
                    continue
                await self._handle(seat, ws, text)
        except WebSocketDisconnect:
            pass
        finally:
            if self._sockets.get(seat) is ws:
                del self._sockets[seat]

    async def _handle(self, seat: int, ws: WebSocket, text: str) -> None:
        try:
            msg = json.loads(text)
        except ValueError as e:
            await self._error(ws, f"not JSON: {e}")
            return
        if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
            await self._error(ws, 'a message is a JSON object with a "type"')
            return
        if self._sockets.get(seat) is not ws:
            await self._error(ws, "this tab no longer plays this seat", fatal=True)
            return
        kind = msg["type"]
        table = self.table
        notice = ""
        if kind == "play":
            action, version = msg.get("action"), msg.get("version")
            if not isinstance(action, str) or not (version is None or isinstance(version, int)):
                await self._error(ws, '"play" needs "action" (text) and "version" (a number)')
                return
            if "seat" in msg and msg["seat"] != seat:
                await self._error(ws, f"this page plays seat {seat}, not seat {msg['seat']}")
                return
            why = table.play(seat, action, version)
            if why is not None:
                await self._error(ws, why)
                await self._send(seat)
                return
        elif kind == "undo":
            try:
                notice = table.undo(seat)
            except ValueError as e:
                await self._error(ws, str(e))
                return
        elif kind == "hint":
            try:
                notice = await asyncio.to_thread(table.hint, seat)
            except Exception as e:  # noqa: BLE001 - a failing hint must not end the match
                await self._error(ws, f"no hint: {e}")
                return
        elif kind == "save":
            try:
                path = table.save()
            except OSError as e:
                await self._error(ws, f"cannot save: {e.strerror or e}")
                return
            notice = f"saved to {path} (resume with: cardcore play --resume {path} --web)"
        elif kind == "again":
            if table.outcome is None:
                await self._error(ws, "the deal is not over yet")
                return
            table.new_deal()
            notice = f"a new deal, seed {table.base.seed}"
        elif kind == "autoplay":
            table.autoplay[seat] = bool(msg.get("on"))
        else:
            await self._error(ws, f"unknown message type {kind!r}")
            return
        await self._send(seat, notice)
        for other in list(self._sockets):
            if other != seat:
                await self._send(other)
        if self._wake is not None:
            self._wake.set()

    async def _drive(self) -> None:
        """Play the bots' moves and the forced moves, one at a time, as the table needs."""
        assert self._wake is not None
        while True:
            await self._wake.wait()
            self._wake.clear()
            while True:
                table = self.table
                seat = table.to_move()
                if seat is None:
                    break
                if seat in table.humans:
                    forced = table.forced(seat)
                    if forced is None:
                        break
                    if self.pace:
                        await asyncio.sleep(self.pace / 2)
                    if table.to_move() == seat and table.forced(seat) == forced:
                        table.apply(seat, forced, forced=True)
                        await self._broadcast()
                    continue
                epoch = table.epoch
                obs = table.game.observe(table.state, seat)
                bot = table.bots[seat]
                table.thinking = seat
                await self._broadcast()
                action, why = await self._ask(bot, obs)
                table.thinking = None
                if table.epoch != epoch:  # undone or dealt again meanwhile
                    await self._broadcast()
                    continue
                if why is None:
                    chosen = accept(table.game, obs.legal_actions, action)
                    if isinstance(chosen, Refused):
                        table.forfeit(seat, str(chosen))
                    else:
                        table.apply(seat, chosen)
                else:
                    table.forfeit(seat, why)
                await self._broadcast()
                if self.pace:
                    await asyncio.sleep(self.pace)

    async def _ask(self, bot: Any, obs: Any) -> tuple[Any, str | None]:
        try:
            job = asyncio.to_thread(bot.act, obs)
            if self.time_limit is not None:
                return await asyncio.wait_for(job, self.time_limit), None
            return await job, None
        except TimeoutError:
            return None, f"took more than {self.time_limit:g} s"
        except Exception as e:  # noqa: BLE001 - a crashing bot forfeits
            return None, f"raised {type(e).__name__}: {e}"

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
