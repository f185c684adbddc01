"""/metrics, /healthz and /readyz, served from a thread.

The server runs in its own thread so that it answers even while the event
loop is stuck, which is exactly when /healthz must say so: it fails when
the loop's heartbeat (a task that ticks every `interval`) is older than the
liveness timeout. A thread that serves HTTP proves nothing about the loop.

/readyz succeeds while the worker is connected and consuming and not
shutting down; the loop computes that each tick and the thread only reads
the result (no asyncio object is touched from the thread).
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Awaitable, Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import ClassVar

from worker.stage.metrics import Metrics

__all__ = ["HealthServer"]

log = logging.getLogger(__name__)


class HealthServer:
    def __init__(self, metrics: Metrics, *, host: str, port: int, liveness_timeout: float) -> None:
        self._metrics = metrics
        self._liveness_timeout = liveness_timeout
        self._last_tick = time.monotonic()
        self._unready: str | None = "starting"
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self._host = host
        self._port = port

    @property
    def port(self) -> int:
        """The port actually bound (useful when configured as 0)."""
        if self._server is None:
            return self._port
        return int(self._server.server_address[1])

    def start(self) -> None:
        health = self

        class Handler(_Handler):
            owner: ClassVar[HealthServer] = health

        # An OSError (port taken, address not ours) is the caller's to report.
        self._server = ThreadingHTTPServer((self._host, self._port), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, name="health-http", daemon=True
        )
        self._thread.start()
        log.info("serving /metrics, /healthz, /readyz on %s:%d", self._host, self.port)

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def tick(self, *, unready: str | None) -> None:
        """Called by the event loop's heartbeat: why not ready, or None."""
        self._last_tick = time.monotonic()
        self._unready = unready

    def stalled_for(self) -> float:
        return time.monotonic() - self._last_tick

    def alive(self) -> bool:
        return self.stalled_for() <= self._liveness_timeout

    def unready_reason(self) -> str | None:
        """Why /readyz fails, or None when the worker is ready."""
        if not self.alive():
            return f"the event loop has not ticked for {self.stalled_for():.1f} s"
        return self._unready

    def ready(self) -> bool:
        return self.unready_reason() is None

    async def heartbeat(
        self, unready_reason: Callable[[], Awaitable[str | None]], interval: float
    ) -> None:
        """Run forever on the event loop: tick, with the current readiness."""
        while True:
            try:
                unready = await unready_reason()
            except Exception as error:
                log.debug("readiness check failed", exc_info=True)
                unready = f"the readiness check failed: {error!r}"
            self.tick(unready=unready)
            await asyncio.sleep(interval)


class _Handler(BaseHTTPRequestHandler):
    owner: ClassVar[HealthServer]
    server_version = "blockdensity-worker"

    def do_GET(self) -> None:
        owner = self.owner
        path = self.path.partition("?")[0]
        if path == "/metrics":
            body, content_type = owner._metrics.render()
            self._reply(200, body, content_type)
        elif path == "/healthz":
            stalled = owner.stalled_for()
            if owner.alive():
                self._reply(200, b"ok\n")
            else:
                self._reply(503, f"event loop has not ticked for {stalled:.1f} s\n".encode())
        elif path == "/readyz":
            unready = owner.unready_reason()
            if unready is None:
                self._reply(200, b"ready\n")
            else:
                self._reply(503, f"not ready: {unready}\n".encode())
        else:
            self._reply(404, b"not found: try /metrics, /healthz or /readyz\n")

    def _reply(self, status: int, body: bytes, content_type: str = "text/plain") -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        # Probes every few seconds would drown the log.
        return
