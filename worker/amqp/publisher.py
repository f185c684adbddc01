"""The feeder's AMQP: one plain connection, confirmed publishes, many in flight."""

from __future__ import annotations

import asyncio
import binascii

import aiormq
from aio_pika.abc import AbstractConnection

from worker.amqp.connection import close_quietly, connect
from worker.amqp.errors import AMQP_FAILURES, ConnectFailedError, PublishFailedError
from worker.amqp.topology import PERSISTENT, InputTopology, declare_inputs
from worker.config import redact_url

__all__ = ["FeedPublisher"]


class FeedPublisher:
    """The feeder's AMQP: one connection and a confirming channel.

    `publish` returns at once with a task that ends when the broker confirms
    (or raises PublishFailedError), so that many publishes are in flight; the
    feeder bounds how many. A plain connection, not a robust one: when it is
    lost, the unconfirmed publishes fail, and the feeder stops with its
    checkpoint at the last page confirmed (a restart goes on from there)
    rather than guess which of them the broker has.

    Publishes go to aiormq's channel directly, without waiting for each
    frame to be written (wait=False): aio-pika's publish holds the channel's
    lock until its frames have drained to the socket, one message per turn
    of the event loop, which caps a publisher at a few thousand messages a
    second. The feeder's window bounds what is queued instead.
    """

    def __init__(self, settings: InputTopology, timeout: float) -> None:
        self._settings = settings
        self._timeout = timeout
        self._connection: AbstractConnection | None = None
        self._channel: aiormq.Channel | None = None
        self._exchange = ""  # the default exchange: straight to a queue
        self._by_url = bool(settings.input_exchange)
        self._queues = settings.input_queues

    async def connect(self) -> None:
        """Connect and declare the input queues as the stage declares them (so that the
        feeder may start first); ConnectFailedError if that cannot be done."""
        url = self._settings.amqp_urls[0]
        self._connection = await connect(url, "blockdensity-feed")
        try:
            channel = await self._connection.channel(publisher_confirms=True)
            _, spread = await declare_inputs(channel, self._settings)
            if spread is not None:
                self._exchange = spread.name
            underlay = await channel.get_underlay_channel()
        except (*AMQP_FAILURES, OSError) as error:
            raise ConnectFailedError(
                f"cannot declare the input queues at {redact_url(url)}: {error!r}"
            ) from None
        if not isinstance(underlay, aiormq.Channel):  # the one aiormq has
            raise TypeError(f"unexpected aiormq channel {underlay!r}")
        self._channel = underlay

    def publish(
        self, body: bytes, *, content_type: str, message_id: str, url: str
    ) -> asyncio.Task[None]:
        """Publish one page; the task ends once the broker has it in a queue."""
        if self._channel is None:
            raise RuntimeError("FeedPublisher.publish before connect")
        if self._by_url:  # the consistent-hash exchange spreads by URL
            key = url
        elif len(self._queues) == 1:
            key = self._queues[0]
        else:  # several queues without the exchange: spread by URL all the same
            key = self._queues[binascii.crc32(url.encode()) % len(self._queues)]
        properties = aiormq.spec.Basic.Properties(
            content_type=content_type, message_id=message_id, delivery_mode=PERSISTENT
        )
        return asyncio.create_task(self._confirmed(self._channel, body, properties, key))

    async def _confirmed(
        self,
        channel: aiormq.Channel,
        body: bytes,
        properties: aiormq.spec.Basic.Properties,
        key: str,
    ) -> None:
        try:
            result = await channel.basic_publish(
                body,
                exchange=self._exchange,
                routing_key=key,
                properties=properties,
                mandatory=True,
                timeout=self._timeout,
                wait=False,
            )
        except AMQP_FAILURES as error:
            raise PublishFailedError(
                f"publish of {properties.message_id} failed: {error!r}"
            ) from None
        if not isinstance(result, aiormq.spec.Basic.Ack):  # returned: no queue took it
            raise PublishFailedError(
                f"publish of {properties.message_id} was returned unroutable (no queue {key!r}?)"
            )

    async def close(self) -> None:
        await close_quietly(self._connection)
