"""The queue stage's AMQP: two robust connections, the consumer, confirmed publishes.

Two connections, as RabbitMQ advises: one consumes, one publishes, so that
flow control on publishing (a broker under memory pressure blocks
publishers) never stalls the acks of the consumer. aio-pika's robust
connections reconnect, restore channels, QoS, queues, bindings and
consumers, and re-consume when the broker cancels a consumer (a queue
deleted, a quorum leader moved); with several addresses (a cluster),
`Broker.supervise` moves to the next node when one is lost.

Publishing uses publisher confirms and mandatory=True with returns raised:
`publish_output` returns only once the broker has the output in a queue,
and raises PublishFailedError otherwise, so that the caller can requeue the
input rather than lose the page.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Awaitable, Callable
from typing import Any, Final

import aio_pika
import aiormq.exceptions
from aio_pika.abc import (
    AbstractExchange,
    AbstractIncomingMessage,
    AbstractQueue,
    AbstractRobustChannel,
    AbstractRobustConnection,
)

from worker.amqp.connection import Received, close_quietly
from worker.amqp.errors import AMQP_FAILURES, SETTLE_FAILURES, PublishFailedError
from worker.amqp.topology import (
    ERROR_HEADER_LIMIT,
    HEADER_ERROR,
    HEADER_QUEUE,
    HEADER_REASON,
    declare_inputs,
    declare_outputs,
)
from worker.config import StageSettings, redact_url

__all__ = ["Broker", "Delivery"]

log = logging.getLogger(__name__)

# How often `supervise` looks at the connections (a node is given up after two looks).
_FAILOVER_POLL: Final = 0.5
# How often the publishing connection's flow-control state is read.
_BLOCKED_POLL: Final = 0.25


class Delivery(Received):
    """One received message, and the only ways to settle it."""

    __slots__ = ("queue", "received", "settled")

    def __init__(self, message: AbstractIncomingMessage, received: float, queue: str) -> None:
        super().__init__(message)
        self.received = received  # loop.time() at receipt
        self.queue = queue  # the input queue it came from
        self.settled = False  # an ack or reject was sent (or attempted): never another

    @property
    def routing_key(self) -> str:
        return self._message.routing_key or ""

    def copy(self, extra_headers: dict[str, str]) -> aio_pika.Message:
        """The message as received (body, properties, headers) plus `extra_headers`."""
        original = self._message
        return aio_pika.Message(
            original.body,
            headers={**original.headers, **extra_headers},
            content_type=original.content_type,
            content_encoding=original.content_encoding,
            message_id=original.message_id,
            correlation_id=original.correlation_id,
            timestamp=original.timestamp,
            type=original.type,
            app_id=original.app_id,
            delivery_mode=aio_pika.DeliveryMode.PERSISTENT,
        )

    @property
    def delivery_count(self) -> int:
        """Earlier deliveries of this message, as the quorum queue counts them."""
        count = self._message.headers.get("x-delivery-count")
        return count if isinstance(count, int) else 0

    async def ack(self) -> bool:
        """Acknowledge; False if that failed (the broker will redeliver)."""
        return await self._settle(self._message.ack)

    async def requeue(self) -> bool:
        """Give the message back after a failure (basic.reject, requeue); False if that failed.

        A reject counts against the quorum queue's delivery limit on every
        RabbitMQ version: this is how a page that keeps failing ends.
        """
        return await self._settle(lambda: self._message.reject(requeue=True))

    async def release(self) -> bool:
        """Give the message back unprocessed (basic.nack, requeue); False if that failed.

        From RabbitMQ 4.3 a nack does not count against the delivery limit
        (only reject does), so a page returned at shutdown keeps its chances.
        Before 4.3 (3.13, 4.0 to 4.2, and 3.10, which the suite runs on) every
        return counts, nack, reject and a closed channel alike.
        """
        return await self._settle(lambda: self._message.nack(requeue=True))

    async def _settle(self, action: Callable[[], Any]) -> bool:
        if self.settled:
            raise RuntimeError(f"message {self.message_id} settled twice")
        self.settled = True
        try:
            await action()
        except SETTLE_FAILURES as error:
            # After a reconnect the delivery tag belongs to a dead channel: the
            # broker has already requeued the message and will redeliver it.
            log.warning("could not settle message %s: %r", self.message_id, error)
            return False
        return True


class Broker:
    """The worker's two connections, its topology, its consumer and its publishes."""

    def __init__(self, settings: StageSettings) -> None:
        self._settings = settings
        # The nodes of one cluster (or one address), in an order of this process's
        # own: replicas spread over the nodes, and each moves on in its order.
        self._urls = list(settings.amqp_urls)
        random.shuffle(self._urls)
        self._next_url = 0
        self.url: str | None = None  # the address connected to
        self._on_message: Callable[[Delivery], None] | None = None
        self._consume_connection: AbstractRobustConnection | None = None
        self._publish_connection: AbstractRobustConnection | None = None
        self._consume_channel: AbstractRobustChannel | None = None
        self._publish_channel: AbstractRobustChannel | None = None
        self._inputs: list[AbstractQueue] = []
        self._output: AbstractExchange | None = None
        self._dead_letters: AbstractExchange | None = None
        self._consumer_tags: dict[str, str] = {}  # input queue -> consumer tag
        # Flow control (RabbitMQ's connection.blocked): set by `watch_blocked`.
        self.blocked = False
        self.blocks = 0  # how many times the broker has blocked us: a publish
        # that saw the number change has waited on an alarm, not on a lost confirm

    async def connect(self, stop: asyncio.Event) -> bool:
        """Connect to an address that answers and declare the topology, retrying
        until done or `stop` is set. Returns False when stopped first.

        With one address, later losses of the connection are aio-pika's to
        repair (it reconnects to that address). With several (a cluster),
        `supervise` moves to the next node when one is lost.
        """
        interval = self._settings.reconnect_interval
        while not stop.is_set():
            for _ in range(len(self._urls)):
                url = self._urls[self._next_url]
                self._next_url = (self._next_url + 1) % len(self._urls)
                try:
                    await self._connect(url)
                except (*AMQP_FAILURES, OSError) as error:
                    log.warning("cannot reach the broker at %s (%s)", redact_url(url), error)
                    await self.close()
                else:
                    self.url = url
                    return True
                if stop.is_set():
                    return False
            log.warning("no broker address answered; retrying in %g s", interval)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), interval)
        return False

    async def supervise(self, stop: asyncio.Event, interval: float = _FAILOVER_POLL) -> None:
        """With several addresses: move to the next node when the one in use is lost.

        aio-pika would retry the lost node for as long as it is down; a
        cluster has others, and the queues' new leaders are there within
        seconds. A connection that has been down for `interval` (two polls in
        a row) is given up: both connections move to the next address that
        answers, the topology is declared again (idempotently) and the
        consumer registered again. The pages in flight on the lost channel
        cannot be acked: the broker delivers them again (at least once).
        Runs until `stop` is set; does nothing with one address.
        """
        if len(self._urls) < 2:  # one address: aio-pika reconnects to it
            return
        down_since: float | None = None
        loop = asyncio.get_running_loop()
        while not stop.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), interval)
            if stop.is_set() or self._on_message is None:
                continue
            if self._connections_up():
                down_since = None
                continue
            now = loop.time()
            if down_since is None:
                down_since = now
                continue
            lost = self.url
            log.warning(
                "lost the broker at %s for %.1f s; moving to the next address",
                redact_url(lost or "?"),
                now - down_since,
            )
            down_since = None
            on_message = self._on_message
            await self.close()
            if await self.connect(stop):
                await self.start_consuming(on_message)
                log.warning("now consuming at %s", redact_url(self.url or "?"))

    def _connections_up(self) -> bool:
        for connection in (self._consume_connection, self._publish_connection):
            if connection is None or connection.is_closed or not connection.connected.is_set():
                return False
        return True

    async def _connect(self, url: str) -> None:
        settings = self._settings
        self._consume_connection = await aio_pika.connect_robust(
            url,
            reconnect_interval=settings.reconnect_interval,
            client_properties={"connection_name": "blockdensity-worker consume"},
        )
        self._publish_connection = await aio_pika.connect_robust(
            url,
            reconnect_interval=settings.reconnect_interval,
            client_properties={"connection_name": "blockdensity-worker publish"},
        )
        self._publish_channel = channel = await self._publish_connection.channel(
            publisher_confirms=True, on_return_raises=True
        )
        self._dead_letters, self._output = await declare_outputs(channel, settings)

        self._consume_channel = consume = await self._consume_connection.channel(
            publisher_confirms=False
        )
        # One prefetch budget over every input queue: basic.qos (per consumer,
        # the only kind RabbitMQ 4.3 keeps) divides it; the handler's slots
        # bound the pages being fitted to the budget whatever the division.
        await consume.set_qos(
            prefetch_count=max(1, settings.prefetch // len(settings.input_queues))
        )
        self._inputs, _ = await declare_inputs(consume, settings)

    async def start_consuming(self, on_message: Callable[[Delivery], None]) -> None:
        """Deliver each message to `on_message`, which must not block (it starts a task)."""
        if not self._inputs:
            raise RuntimeError("Broker.start_consuming before connect")
        loop = asyncio.get_running_loop()
        self._on_message = on_message

        def consumer(name: str) -> Callable[[AbstractIncomingMessage], Awaitable[None]]:
            async def consume(message: AbstractIncomingMessage) -> None:
                # aiormq runs this in a task that it cancels when the channel
                # closes; the page's work must outlive that, so it gets its own.
                on_message(Delivery(message, loop.time(), name))

            return consume

        for queue in self._inputs:
            self._consumer_tags[queue.name] = await queue.consume(
                consumer(queue.name), no_ack=False
            )

    async def stop_consuming(self) -> None:
        """Cancel the consumers: no new deliveries; delivered ones stay ours to settle."""
        tags, self._consumer_tags = self._consumer_tags, {}
        for queue in self._inputs:
            tag = tags.get(queue.name)
            if tag is None:
                continue
            try:
                await queue.cancel(tag, timeout=5)
            except (*SETTLE_FAILURES, TimeoutError) as error:
                # A closed channel delivers nothing more anyway.
                log.info("consumer cancel did not complete (%r)", error)

    async def publish_output(self, body: bytes, *, content_type: str, message_id: str) -> None:
        """Publish a clean page; return once confirmed, else raise PublishFailedError."""
        exchange = self._output
        if exchange is None:
            raise PublishFailedError("not connected")
        message = aio_pika.Message(
            body,
            content_type=content_type,
            message_id=message_id,
            delivery_mode=aio_pika.DeliveryMode.PERSISTENT,
        )
        await self._publish(exchange, message, self._settings.output_routing_key)

    async def dead_letter(self, delivery: Delivery, reason: str, error: str) -> None:
        """Publish the message, as received, to the dead-letter exchange with why.

        A plain reject cannot add headers, so the worker publishes the copy
        itself (confirmed, like any output) and only then acks the original.
        """
        exchange = self._dead_letters
        if exchange is None:
            raise PublishFailedError("not connected")
        message = delivery.copy(
            {
                HEADER_REASON: str(reason),
                HEADER_ERROR: error[:ERROR_HEADER_LIMIT],
                HEADER_QUEUE: delivery.queue,
            }
        )
        await self._publish(exchange, message, delivery.routing_key)

    async def _publish(
        self, exchange: AbstractExchange, message: aio_pika.Message, routing_key: str
    ) -> None:
        """Publish and wait for the confirm; PublishFailedError if none came.

        The publish timeout counts only time in which the broker is not
        blocking us. While a resource alarm blocks publishing, the broker
        holds the message unread (or has it, and confirms later): giving up
        would requeue a page whose output then arrives anyway, a duplicate
        and a delivery lost against the limit. So the wait goes on while
        blocked, and the timer starts again once the block is lifted. A
        confirm that is merely slow (the broker not blocking) still fails the
        publish after the timeout, and the input is requeued.
        """
        timeout = self._settings.publish_timeout
        publish = asyncio.ensure_future(
            exchange.publish(message, routing_key, mandatory=True, timeout=None)
        )
        try:
            while True:
                blocks = self.blocks
                done, _ = await asyncio.wait({publish}, timeout=timeout)
                if done:
                    publish.result()
                    return
                if not self.blocked and self.blocks == blocks:
                    raise TimeoutError(f"no confirm within {timeout:g} s")
        except AMQP_FAILURES as error:
            raise PublishFailedError(f"publish to {exchange.name!r} failed: {error!r}") from None
        finally:
            if not publish.done():
                publish.cancel()

    async def watch_blocked(
        self, on_poll: Callable[[bool, float], None], interval: float = _BLOCKED_POLL
    ) -> None:
        """Follow the publishing connection's flow control; runs until cancelled.

        RabbitMQ sends connection.blocked when a resource alarm (memory,
        disk) goes off and connection.unblocked when it clears. aiormq
        tracks the state for its own writer and shows it through `ready()`,
        which waits while the connection is blocked: polled here.
        `on_poll(blocked, seconds)` is told the state after each poll, and
        the time since the one before.
        """
        loop = asyncio.get_running_loop()
        last = loop.time()
        while True:
            blocked = await self._publishing_blocked()
            if blocked and not self.blocked:
                self.blocks += 1
            self.blocked = blocked
            now = loop.time()
            on_poll(blocked, now - last)
            last = now
            await asyncio.sleep(interval)

    async def _publishing_blocked(self) -> bool:
        connection = self._publish_connection
        transport = None if connection is None else connection.transport
        if transport is None or transport.connection.is_closed:
            return False  # not connected: a different unreadiness
        waiter = asyncio.ensure_future(transport.connection.ready())
        await asyncio.sleep(0)  # ready() returns at once unless blocked
        if waiter.done():
            return False
        waiter.cancel()
        return True

    async def unready_reason(self) -> str | None:  # noqa: PLR0911 - one answer per condition
        """Why the worker cannot take pages now, or None: both connections up,
        the consumer registered with the broker, publishing not blocked."""
        if not self._consumer_tags:
            return "not consuming"
        if not self._connections_up():
            return "not connected to the broker"
        consume, publish = self._consume_channel, self._publish_channel
        if consume is None or publish is None or consume.is_closed or publish.is_closed:
            return "a channel to the broker is closed"
        try:
            channel = await consume.get_underlay_channel()
        except aiormq.exceptions.AMQPError:
            return "a channel to the broker is closed"
        registered = getattr(channel, "consumers", {})
        cancelled = [name for name, tag in self._consumer_tags.items() if tag not in registered]
        if cancelled:
            return f"the broker cancelled the consumer of {', '.join(cancelled)}"
        if self.blocked:
            return (
                "the broker is blocking publishes (a resource alarm: memory or disk); "
                "the pages in flight wait for it to clear"
            )
        return None

    async def close(self) -> None:
        """Close both connections (the broker requeues whatever is still unacked)."""
        for connection in (self._consume_connection, self._publish_connection):
            await close_quietly(connection)
        self._consume_connection = self._publish_connection = None
        self._consume_channel = self._publish_channel = None
        self._output = self._dead_letters = None
        self._inputs = []
        self._consumer_tags = {}
