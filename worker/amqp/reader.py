"""The collector's AMQP: one plain connection, a consumer per queue, acks of many at once."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from aio_pika.abc import AbstractConnection, AbstractIncomingMessage

from worker.amqp.connection import Received, close_quietly, connect
from worker.amqp.errors import AMQP_FAILURES, SETTLE_FAILURES, AckFailedError, ConnectFailedError
from worker.amqp.topology import OutputTopology, declare_outputs
from worker.config import redact_url

__all__ = ["Incoming", "QueueReader"]


class Incoming(Received):
    """A message the collector received, and its acknowledgement."""

    __slots__ = ("headers",)

    def __init__(self, message: AbstractIncomingMessage) -> None:
        super().__init__(message)
        self.headers: dict[str, Any] = dict(message.headers)

    async def ack_through(self) -> None:
        """Acknowledge this message and every earlier one of its queue (basic.ack multiple);
        AckFailedError when the channel is gone (the broker delivers them again)."""
        try:
            await self._message.ack(multiple=True)
        except SETTLE_FAILURES as error:
            raise AckFailedError(f"could not ack: {error!r}") from None


class QueueReader:
    """The collector's AMQP: one connection, a channel per queue (an ack of many on one
    channel acks nothing of another's), each message handed over in delivery order.

    Not robust either: when the connection is lost, the broker requeues what
    was not acked, and the collector stops (a restart reads it again).
    """

    def __init__(self, settings: OutputTopology) -> None:
        self._settings = settings
        self._connection: AbstractConnection | None = None
        self.closed = asyncio.Event()

    async def connect(self) -> None:
        """Connect and declare the output side as the stage declares it (so that the
        collector may start first); ConnectFailedError if that cannot be done."""
        url = self._settings.amqp_urls[0]
        self._connection = connection = await connect(url, "blockdensity-collect")
        try:
            channel = await connection.channel(publisher_confirms=False)
            await declare_outputs(channel, self._settings)
            await channel.close()
        except (*AMQP_FAILURES, OSError) as error:
            raise ConnectFailedError(
                f"cannot declare the output queues at {redact_url(url)}: {error!r}"
            ) from None
        connection.close_callbacks.add(lambda *_: self.closed.set())

    async def consume(
        self, queue: str, prefetch: int, on_message: Callable[[Incoming], None]
    ) -> None:
        if self._connection is None:
            raise RuntimeError("QueueReader.consume before connect")
        channel = await self._connection.channel(publisher_confirms=False)
        await channel.set_qos(prefetch_count=prefetch)
        declared = await channel.declare_queue(queue, passive=True)

        async def deliver(message: AbstractIncomingMessage) -> None:
            on_message(Incoming(message))

        await declared.consume(deliver, no_ack=False)

    async def close(self) -> None:
        await close_quietly(self._connection)
