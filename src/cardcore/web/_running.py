"""Running an ASGI app on uvicorn: in the foreground, or from a thread (for tests)."""

from __future__ import annotations

import socket
import threading
import time
from typing import Any, final

__all__ = ["AppRunner", "bind"]


def bind(host: str, port: int) -> socket.socket:
    """A listening socket (port 0: any free port)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(64)
    return sock


@final
class AppRunner:
    """Serves one ASGI app with uvicorn (small messages, lifespan on, quiet logs)."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self._server: Any = None
        self._thread: threading.Thread | None = None

    def _make(self) -> Any:
        import uvicorn

        config = uvicorn.Config(
            self.app,
            lifespan="on",
            log_level="warning",
            ws_max_size=64 * 1024,
            ws_ping_interval=20.0,
        )
        self._server = uvicorn.Server(config)
        return self._server

    def serve(self, sock: socket.socket) -> None:
        """Serve until interrupted (Ctrl-C)."""
        self._make().run(sockets=[sock])

    def start(self, host: str = "127.0.0.1", port: int = 0) -> str:
        """Serve from a background thread; the base address once it listens."""
        sock = bind(host, port)
        server = self._make()
        self._thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 60  # a hang guard only
        while not server.started:
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
