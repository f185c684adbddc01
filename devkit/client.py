"""A plain AMQP client for the demo, the benchmarks and the tests: publish to a queue, read one.

Not the worker's path (that is worker.amqp.Broker): it publishes straight to
a queue through the default exchange, with publisher confirms, and reads
queues with acks. It also declares the input queue as the worker would (to
fill it before a worker runs) and deletes a topology afterwards.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any, NamedTuple

import aio_pika
from aio_pika.abc import AbstractIncomingMessage, AbstractRobustChannel, AbstractRobustConnection

from worker.amqp.topology import input_queue_arguments
from worker.config import StageSettings

__all__ = ["Client", "Received"]

# Seconds a passive declare of the queue a drain reads may take (a reconnection
# included) before the drain gives up and its caller tries again.
_DECLARE_TIMEOUT = 10.0


class Received(NamedTuple):
    """A message as `Client` reads it."""

    body: bytes
    content_type: str | None
    message_id: str | None
    headers: dict[str, Any]
    received: float  # time.monotonic() at receipt


class Client:
    """One robust connection and a confirming channel, opened by `async with`."""

    def __init__(self, url: str) -> None:
        self._url = url
        self._connection: AbstractRobustConnection | None = None
        self._channel: AbstractRobustChannel | None = None

    async def __aenter__(self) -> Client:
        self._connection = await aio_pika.connect_robust(
            self._url,
            reconnect_interval=0.5,
            client_properties={"connection_name": "blockdensity client"},
        )
        self._channel = await self._connection.channel(
            publisher_confirms=True, on_return_raises=True
        )
        return self

    async def __aexit__(self, *_: object) -> None:
        if self._connection is not None:
            await self._connection.close()

    @property
    def channel(self) -> AbstractRobustChannel:
        if self._channel is None:
            raise RuntimeError("use Client in `async with`")
        return self._channel

    async def declare_input(self, settings: StageSettings) -> None:
        """Declare the input queues as the worker does (to fill them before the worker runs)."""
        for name in settings.input_queues:
            await self.channel.declare_queue(
                name, durable=True, arguments=input_queue_arguments(settings)
            )

    async def publish(  # noqa: PLR0913 - the message's properties, by keyword
        self,
        queue: str,
        body: bytes,
        *,
        content_type: str | None,
        message_id: str | None = None,
        headers: dict[str, Any] | None = None,
        content_encoding: str | None = None,
    ) -> None:
        """Publish to `queue` and wait for the broker's confirm."""
        message = aio_pika.Message(
            body,
            content_type=content_type,
            content_encoding=content_encoding,
            message_id=message_id,
            headers=headers or {},
            delivery_mode=aio_pika.DeliveryMode.PERSISTENT,
        )
        await self.channel.default_exchange.publish(message, queue, mandatory=True, timeout=30)

    async def consume(self, queue: str, on_message: Callable[[Received], None]) -> None:
        """Call `on_message` for each message of `queue` (acked on receipt) until closed."""

        async def consume(message: AbstractIncomingMessage) -> None:
            on_message(_received(message))
            await message.ack()

        await self.channel.set_qos(prefetch_count=200)
        declared = await self.channel.declare_queue(queue, passive=True)
        await declared.consume(consume)

    async def drain(
        self, queue: str, count: int, timeout: float, *, until_empty: bool = False
    ) -> list[Received]:
        """Read (and ack) messages of `queue` until `count`, or `timeout` seconds pass.

        With `until_empty`, stop at the first moment the queue has nothing ready.
        """
        got: list[Received] = []
        deadline = asyncio.get_running_loop().time() + timeout
        # Not robust: a queue declared robust is declared again when the robust
        # connection restores the channel, and a quorum queue whose leader was on
        # a node just killed answers that with "nodedown", which fails the
        # restore and leaves every later call waiting for a channel that is never
        # ready (aio-pika's RobustChannel.ready). Bounded, so that a caller that
        # retries (`collect` in devkit.messages) does so.
        declared = await asyncio.wait_for(
            self.channel.declare_queue(queue, passive=True, robust=False), _DECLARE_TIMEOUT
        )
        while len(got) < count and asyncio.get_running_loop().time() < deadline:
            message = await declared.get(fail=False, timeout=5)
            if message is None:
                if until_empty:
                    break
                await asyncio.sleep(0.05)
                continue
            got.append(_received(message))
            await message.ack()
        return got

    async def is_empty(self, queue: str) -> bool:
        """Whether `queue` has no ready message (one found is requeued).

        Asked with basic.get: a quorum queue's declare-ok message count lags.
        """
        declared = await self.channel.declare_queue(queue, passive=True)
        message = await declared.get(fail=False, timeout=5)
        if message is None:
            return True
        await message.nack(requeue=True)
        return False

    async def delete_topology(self, settings: StageSettings) -> None:
        """Delete every queue and exchange of `settings` (test and demo clean-up)."""
        channel = self.channel
        for queue in (*settings.input_queues, settings.output_queue, settings.dead_letter_queue):
            await channel.queue_delete(queue)
        exchanges = [settings.output_exchange, settings.dead_letter_exchange]
        for exchange in (
            [*exchanges, settings.input_exchange] if settings.input_exchange else exchanges
        ):
            await channel.exchange_delete(exchange)


def _received(message: AbstractIncomingMessage) -> Received:
    return Received(
        message.body,
        message.content_type,
        message.message_id,
        dict(message.headers),
        time.monotonic(),
    )
