"""Everything the worker says in AMQP (the worker's only importer of aio_pika).

Two robust connections, as RabbitMQ advises: one consumes, one publishes, so
that flow control on publishing (a broker under memory pressure blocks
publishers) never stalls the acks of the consumer. aio-pika's robust
connections reconnect, restore channels, QoS, queues, bindings and
consumers, and re-consume when the broker cancels a consumer (a queue
deleted, a quorum leader moved).

Publishing uses publisher confirms and mandatory=True with returns raised:
`publish_output` returns only once the broker has the output in a queue,
and raises PublishFailedError otherwise, so that the caller can requeue the
input rather than lose the page. (The demo's and the tests' client is devkit.client.)
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any, Final

import aio_pika
import aiormq.exceptions
from aio_pika.abc import (
    AbstractIncomingMessage,
    AbstractRobustChannel,
    AbstractRobustConnection,
    AbstractRobustExchange,
    AbstractRobustQueue,
)

from worker.config import Settings, redact_url
from worker.outcome import Outcome

__all__ = [
    "HEADER_ERROR",
    "HEADER_QUEUE",
    "HEADER_REASON",
    "Broker",
    "Delivery",
    "PublishFailedError",
    "input_queue_arguments",
]

log = logging.getLogger(__name__)

HEADER_REASON: Final = "x-blockdensity-reason"
HEADER_ERROR: Final = "x-blockdensity-error"
HEADER_QUEUE: Final = "x-blockdensity-queue"
# Bound on the error text carried in a dead letter's header.
ERROR_HEADER_LIMIT: Final = 1000

# What a failed publish can raise: the broker's nack or return, a closed
# channel or connection, a timeout.
_PUBLISH_ERRORS: Final = (
    aio_pika.exceptions.AMQPError,
    aiormq.exceptions.AMQPError,
    ConnectionError,
    TimeoutError,
    RuntimeError,
)
_SETTLE_ERRORS: Final = (
    aio_pika.exceptions.AMQPError,
    aiormq.exceptions.AMQPError,
    ConnectionError,
    RuntimeError,
)


class PublishFailedError(Exception):
    """The broker did not confirm a publish (nacked, returned unroutable, timed out, lost)."""


def input_queue_arguments(settings: Settings) -> dict[str, Any]:
    """The input queue's arguments: a quorum queue that dead-letters at least once.

    At-least-once dead-lettering (RabbitMQ 3.10+) moves a message to the
    dead-letter exchange with publisher confirms internally; it requires
    the reject-publish overflow mode (which, with no length limit, never
    rejects anything).
    """
    return {
        "x-queue-type": "quorum",
        "x-delivery-limit": settings.delivery_limit,
        "x-dead-letter-exchange": settings.dead_letter_exchange,
        "x-dead-letter-strategy": "at-least-once",
        "x-overflow": "reject-publish",
    }


_QUORUM: Final = {"x-queue-type": "quorum"}


class Delivery:
    """One received message, and the only ways to settle it."""

    __slots__ = ("_message", "received", "settled")

    def __init__(self, message: AbstractIncomingMessage, received: float) -> None:
        self._message = message
        self.received = received  # loop.time() at receipt
        self.settled = False  # an ack or reject was sent (or attempted): never another

    @property
    def body(self) -> bytes:
        return self._message.body

    @property
    def content_type(self) -> str | None:
        return self._message.content_type

    @property
    def message_id(self) -> str | None:
        return self._message.message_id

    @property
    def content_encoding(self) -> str | None:
        return self._message.content_encoding or None

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
        """Reject with requeue (counts as a delivery); False if that failed."""
        return await self._settle(lambda: self._message.reject(requeue=True))

    async def _settle(self, action: Callable[[], Any]) -> bool:
        if self.settled:
            raise RuntimeError(f"message {self.message_id} settled twice")
        self.settled = True
        try:
            await action()
        except _SETTLE_ERRORS as error:
            # After a reconnect the delivery tag belongs to a dead channel: the
            # broker has already requeued the message and will redeliver it.
            log.warning("could not settle message %s: %r", self.message_id, error)
            return False
        return True


class Broker:
    """The worker's two connections, its topology, its consumer and its publishes."""

    def __init__(self, settings: Settings) -> None:
        self._settings = settings
        self._consume_connection: AbstractRobustConnection | None = None
        self._publish_connection: AbstractRobustConnection | None = None
        self._consume_channel: AbstractRobustChannel | None = None
        self._publish_channel: AbstractRobustChannel | None = None
        self._input: AbstractRobustQueue | None = None
        self._output: AbstractRobustExchange | None = None
        self._dead_letters: AbstractRobustExchange | None = None
        self._consumer_tag: str | None = None

    async def connect(self, stop: asyncio.Event) -> bool:
        """Connect and declare the topology, retrying until done or `stop` is set.

        Returns False when stopped first. Later losses of the connection are
        aio-pika's to repair.
        """
        interval = self._settings.reconnect_interval
        while not stop.is_set():
            try:
                await self._connect()
            except (*_PUBLISH_ERRORS, OSError) as error:
                log.warning(
                    "cannot reach the broker at %s (%s); retrying in %g s",
                    redact_url(self._settings.amqp_url),
                    error,
                    interval,
                )
                await self.close()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), interval)
            else:
                return True
        return False

    async def _connect(self) -> None:
        settings = self._settings
        url = settings.amqp_url
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
        # Declared in dependency order, each idempotently (same arguments each time).
        self._dead_letters = await channel.declare_exchange(
            settings.dead_letter_exchange, aio_pika.ExchangeType.FANOUT, durable=True
        )
        dead = await channel.declare_queue(
            settings.dead_letter_queue, durable=True, arguments=_QUORUM
        )
        await dead.bind(self._dead_letters)
        self._output = await channel.declare_exchange(
            settings.output_exchange, aio_pika.ExchangeType.DIRECT, durable=True
        )
        clean = await channel.declare_queue(settings.output_queue, durable=True, arguments=_QUORUM)
        await clean.bind(self._output, settings.output_routing_key)

        self._consume_channel = await self._consume_connection.channel(publisher_confirms=False)
        await self._consume_channel.set_qos(prefetch_count=settings.prefetch)
        self._input = await self._consume_channel.declare_queue(
            settings.input_queue, durable=True, arguments=input_queue_arguments(settings)
        )

    async def start_consuming(self, on_message: Callable[[Delivery], None]) -> None:
        """Deliver each message to `on_message`, which must not block (it starts a task)."""
        queue = self._input
        if queue is None:
            raise RuntimeError("Broker.start_consuming before connect")
        loop = asyncio.get_running_loop()

        async def consume(message: AbstractIncomingMessage) -> None:
            # aiormq runs this in a task that it cancels when the channel
            # closes; the page's work must outlive that, so it gets its own.
            on_message(Delivery(message, loop.time()))

        self._consumer_tag = await queue.consume(consume, no_ack=False)

    async def stop_consuming(self) -> None:
        """Cancel the consumer: no new deliveries; delivered ones stay ours to settle."""
        queue, tag, self._consumer_tag = self._input, self._consumer_tag, None
        if queue is None or tag is None:
            return
        try:
            await queue.cancel(tag, timeout=5)
        except (*_SETTLE_ERRORS, TimeoutError) as error:
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

    async def dead_letter(self, delivery: Delivery, reason: Outcome, error: str) -> None:
        """Publish the message, as received, to the dead-letter exchange with why.

        A plain reject cannot add headers, so the worker publishes the copy
        itself (confirmed, like any output) and only then acks the original.
        """
        exchange = self._dead_letters
        if exchange is None:
            raise PublishFailedError("not connected")
        message = delivery.copy(
            {
                HEADER_REASON: reason.value,
                HEADER_ERROR: error[:ERROR_HEADER_LIMIT],
                HEADER_QUEUE: self._settings.input_queue,
            }
        )
        await self._publish(exchange, message, delivery.routing_key)

    async def _publish(
        self, exchange: AbstractRobustExchange, message: aio_pika.Message, routing_key: str
    ) -> None:
        timeout = self._settings.publish_timeout
        try:
            # The outer bound also covers waiting for a reconnect, which
            # aio-pika does before a publish and without a limit.
            async with asyncio.timeout(timeout):
                await exchange.publish(message, routing_key, mandatory=True, timeout=timeout)
        except _PUBLISH_ERRORS as error:
            raise PublishFailedError(f"publish to {exchange.name!r} failed: {error!r}") from None

    async def is_ready(self) -> bool:
        """Both connections up and the consumer registered with the broker."""
        if self._consumer_tag is None:
            return False
        for connection in (self._consume_connection, self._publish_connection):
            if connection is None or connection.is_closed or not connection.connected.is_set():
                return False
        consume, publish = self._consume_channel, self._publish_channel
        if consume is None or publish is None or consume.is_closed or publish.is_closed:
            return False
        try:
            channel = await consume.get_underlay_channel()
        except aiormq.exceptions.AMQPError:
            return False
        return self._consumer_tag in getattr(channel, "consumers", {})

    async def close(self) -> None:
        """Close both connections (the broker requeues whatever is still unacked)."""
        for connection in (self._consume_connection, self._publish_connection):
            if connection is not None and not connection.is_closed:
                try:
                    await connection.close()
                except (*_SETTLE_ERRORS, OSError) as error:
                    log.debug("closing a connection: %r", error)
        self._consume_connection = self._publish_connection = None
        self._consume_channel = self._publish_channel = None
        self._input = self._output = self._dead_letters = None
        self._consumer_tag = None
