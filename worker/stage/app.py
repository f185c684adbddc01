"""The worker's lifecycle: start, consume, stop on a signal, drain, close.

Shutdown (SIGTERM, SIGINT, or `request_stop`):
1. cancel the consumer, so that the broker delivers nothing more;
2. let the pages in flight finish (fit, publish, confirm, ack) until the
   grace period, counted from the signal, runs out; a second signal cuts it
   short;
3. cancel what is left: each such task requeues its message, never acks it;
4. close the connections (the broker requeues anything still unacked),
   then the pool, then the HTTP server.
Every publish has been confirmed or failed by then, since each task waits
for its confirm before it ends.
"""

from __future__ import annotations

import asyncio
import logging
import signal
from typing import Final

from worker.amqp.broker import Broker, Delivery
from worker.config import StageSettings, redact_url
from worker.stage.fitproc import MarkdownOutput, resolve_fit_function
from worker.stage.handler import Handler
from worker.stage.health import HealthServer
from worker.stage.metrics import Metrics
from worker.stage.pool import FitPool, FitPoolStartError

__all__ = ["App", "StartupError"]

log = logging.getLogger(__name__)

HEARTBEAT_INTERVAL: Final = 0.5


class StartupError(RuntimeError):
    """The worker cannot start as configured; the message says why."""


class App:
    def __init__(self, settings: StageSettings, metrics: Metrics | None = None) -> None:
        self.settings = settings
        self.metrics = metrics or Metrics()
        self.broker = Broker(settings, on_move=self.metrics.broker_moves.inc)
        self.pool = FitPool(
            size=settings.pool_size,
            timeout=settings.fit_timeout,
            max_tasks=settings.max_tasks_per_child,
            function=resolve_fit_function(settings.fit_function),
            profile=settings.profile,
            comments=settings.comments,
            output_blocks=settings.output_blocks,
            markdown=MarkdownOutput(settings.markdown_links, settings.markdown_images)
            if settings.format == "markdown"
            else None,
            memory_limit=settings.fit_memory_limit,
            recycle_memory=settings.fit_recycle_memory,
            on_restart=self.metrics.pool_restarted,
        )
        self.health = HealthServer(
            self.metrics,
            host=settings.http_host,
            port=settings.http_port,
            liveness_timeout=settings.liveness_timeout,
        )
        self._handler = Handler(settings, self.broker, self.pool, self.metrics)
        self._tasks: set[asyncio.Task[str | None]] = set()
        self._stop = asyncio.Event()
        self._hurry = asyncio.Event()
        self._stopping = False
        self._deadline = 0.0
        self._blocked_since = 0.0  # loop time the current block began, 0 if none

    @property
    def stop_requested(self) -> bool:
        return self._stop.is_set()

    def request_stop(self) -> None:
        """Begin a graceful shutdown; a second request ends the grace period."""
        if self._stop.is_set():
            log.warning("second stop request: returning what is in flight to the queue now")
            self._hurry.set()
            return
        self._deadline = asyncio.get_running_loop().time() + self.settings.grace_period
        self._stop.set()

    def install_signal_handlers(self) -> None:
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(signum, self._on_signal, signum)

    def _on_signal(self, signum: int) -> None:
        log.info("%s received: stopping", signal.Signals(signum).name)
        self.request_stop()

    async def run(self) -> None:
        """Serve until asked to stop, then shut down cleanly (also after a failure)."""
        settings = self.settings
        try:
            self.health.start()
        except OSError as error:
            raise StartupError(
                f"cannot serve /metrics on {settings.http_host}:{settings.http_port} "
                f"(BLOCKDENSITY_HTTP_HOST, BLOCKDENSITY_HTTP_PORT): {error}"
            ) from None
        heartbeat = asyncio.create_task(
            self.health.heartbeat(self._unready_reason, HEARTBEAT_INTERVAL)
        )
        flow = asyncio.create_task(self.broker.watch_blocked(self._on_flow))
        watchdog: asyncio.Task[None] | None = None
        supervisor: asyncio.Task[None] | None = None
        try:
            self.pool.start()
            try:
                await self.pool.warm_up(settings.pool_start_timeout)
            except FitPoolStartError as error:
                raise StartupError(str(error)) from None
            watchdog = asyncio.create_task(self.pool.watch(settings.pool_watch_interval))
            log.info(
                "fit pool: %d processes, timeout %g s, replaced every %d pages",
                settings.pool_size,
                settings.fit_timeout,
                settings.max_tasks_per_child,
            )
            if await self.broker.connect(self._stop):
                await self.broker.start_consuming(self._on_message)
                supervisor = asyncio.create_task(self.broker.supervise(self._stop))
                log.info(
                    "consuming %s at %s (prefetch %d), publishing to %s/%s",
                    settings.input_queue,
                    redact_url(self.broker.url or settings.amqp_url),
                    settings.prefetch,
                    settings.output_exchange,
                    settings.output_routing_key,
                )
                await self._stop.wait()
        finally:
            for task in (watchdog, supervisor):
                if task is not None:
                    task.cancel()  # the watchdog before the pool closes: no pings into it
                    await asyncio.gather(task, return_exceptions=True)
            await self._shutdown()
            heartbeat.cancel()
            flow.cancel()
            await asyncio.gather(heartbeat, flow, return_exceptions=True)
            self.health.stop()
        log.info("stopped")

    async def _unready_reason(self) -> str | None:
        if self._stopping:
            return "stopping"
        forkserver = self.pool.forkserver_problem
        self.metrics.forkserver_up.set(
            forkserver is None and self.pool.forkserver_state == "running"
        )
        if forkserver is not None:
            return f"{forkserver}; being replaced"
        if not self.pool.live_processes:
            return "no fit process is running (the log says why)"
        return await self.broker.unready_reason()

    def _on_flow(self, blocked: bool, seconds: float) -> None:
        self.metrics.broker_flow(blocked=blocked, seconds=seconds)
        if blocked and not self._blocked_since:
            self._blocked_since = asyncio.get_running_loop().time()
            log.warning(
                "the broker blocks publishing (a resource alarm): %d pages wait for their "
                "confirms, no new pages are taken",
                len(self._tasks),
            )
        elif not blocked and self._blocked_since:
            lasted = asyncio.get_running_loop().time() - self._blocked_since
            self._blocked_since = 0.0
            log.warning("the broker unblocked publishing after %.1f s", lasted)

    def _on_message(self, delivery: Delivery) -> None:
        task = asyncio.create_task(self._handler.handle(delivery))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _shutdown(self) -> None:
        self._stopping = True
        loop = asyncio.get_running_loop()
        if not self._deadline:
            self._deadline = loop.time() + self.settings.grace_period
        await self.broker.stop_consuming()
        pending = set(self._tasks)
        if pending:
            log.info("finishing %d pages in flight", len(pending))
            hurry = asyncio.create_task(self._hurry.wait())
            while True:
                pending = {task for task in pending if not task.done()}
                timeout = self._deadline - loop.time()
                if not pending or timeout <= 0 or hurry.done():
                    break
                await asyncio.wait(
                    [*pending, hurry], timeout=timeout, return_when=asyncio.FIRST_COMPLETED
                )
            hurried = hurry.done()
            hurry.cancel()
            if pending:
                log.warning(
                    "%s: returning %d pages to the queue",
                    "second stop request" if hurried else "grace period over",
                    len(pending),
                )
                for task in pending:
                    task.cancel()
                await asyncio.gather(*pending, return_exceptions=True)
        await self.broker.close()
        await self.pool.close()
