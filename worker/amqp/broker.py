"""The queue stage's AMQP: two robust connections, the consumer, confirmed publishes.

Two connections, as RabbitMQ advises: one consumes, one publishes, so that
flow control on publishing (a broker under memory pressure blocks
publishers) never stalls the acks of the consumer. aio-pika's robust
connections reconnect, restore channels, QoS, queues, bindings and
consumers, and re-consume when the broker cancels a consumer (a queue
deleted, a quorum leader moved); with several addresses (a cluster),
`Broker.supervise` moves to the next node when one is lost.

A connection can also be lost without closing: a node cut off by the
network answers nothing and resets nothing. The AMQP heartbeat
(BLOCKDENSITY_HEARTBEAT) finds that only after three of its intervals, so
`supervise` checks the connection in use itself: every
BLOCKDENSITY_BROKER_CHECK_INTERVAL a passive declare of the input queue
must be answered within BLOCKDENSITY_BROKER_TIMEOUT, else the connection is
given up (the worker is unready from then until it consumes again) and the
next address taken. Every step of a (re)connection is bounded by the same
timeout, and a reconnection finds the topology passively instead of
declaring it again (worker.amqp.topology.find_inputs says why).

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
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Final

import aio_pika
import aiormq
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
    PERSISTENT,
    declare_inputs,
    declare_outputs,
    find_inputs,
    find_outputs,
)
from worker.config import StageSettings, redact_url

__all__ = ["Broker", "Delivery"]

log = logging.getLogger(__name__)

# How often `supervise` looks at the connections (a node is given up after two looks).
_FAILOVER_POLL: Final = 0.5
# A first declaration, which may create queues (a quorum queue's members start
# on every node of a cluster), is bounded at this many times
# BLOCKDENSITY_BROKER_TIMEOUT.
_SLOW_STEPS: Final = 4
# After a move to another node, how long publishes wait for their confirms
# past the publish timeout: the cluster's recovery of a lost node's queues.
_SETTLING: Final = 30.0
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

    @property
    def settleable(self) -> bool:
        """Whether an ack could still be sent: the channel the message came on is open.

        Once that channel has closed (the connection was lost, even if since
        restored on a new channel), the broker has requeued the message already.
        """
        try:
            return not self._message.channel.is_closed
        except aio_pika.exceptions.ChannelInvalidStateError:  # aio-pika's word for closed
            return False

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

    def __init__(self, settings: StageSettings, on_move: Callable[[], None] = lambda: None) -> None:
        self._settings = settings
        self._on_move = on_move  # told of each connection given up for another
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
        self._check_channel: AbstractRobustChannel | None = None  # supervise's probe
        self._declared = False  # the topology was declared once: later, found passively
        # Why the connection in use was given up, until consuming again (readiness).
        self._lost: str | None = None
        self._closing: set[asyncio.Task[None]] = set()  # abandoned connections closing
        self._moved_at = float("-inf")  # loop time the worker last consumed after a move
        self._given_up: str | None = None  # the address last given up
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
            for url in self._in_turn():
                try:
                    await self._connect(url)
                except (*AMQP_FAILURES, OSError) as error:
                    log.warning("cannot reach the broker at %s (%s)", redact_url(url), _said(error))
                    self._abandon()
                else:
                    self.url = url
                    return True
                if stop.is_set():
                    return False
            log.warning("no broker address answered; retrying in %g s", interval)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), interval)
        return False

    def _in_turn(self) -> list[str]:
        """The addresses to try, from the next in this process's order; one given up
        lately goes last (a node cut off would cost a connect timeout each round)."""
        count = len(self._urls)
        turn = [self._urls[(self._next_url + step) % count] for step in range(count)]
        self._next_url = (self._next_url + 1) % count
        lost = self._given_up
        return [url for url in turn if url != lost] + [url for url in turn if url == lost]

    async def supervise(self, stop: asyncio.Event, interval: float = _FAILOVER_POLL) -> None:
        """Give up a connection that is lost or cannot make progress, and move on.

        Two ways to lose it. A connection that closed (a node stopped or
        killed) and has stayed down for `interval` (two polls in a row): with
        several addresses, aio-pika would retry the lost node for as long as
        it is down, while a cluster has others whose queues have new leaders
        within seconds; with one, aio-pika reconnects to it. And a connection
        that stays open but answers nothing (a node cut off by the network):
        every BLOCKDENSITY_BROKER_CHECK_INTERVAL a passive declare of the
        input queue on a channel of its own must be answered within
        BLOCKDENSITY_BROKER_TIMEOUT (any address count). Either way both
        connections move to the next address that answers (the same one, with
        one address), the topology is found again and the consumer registered
        again; the pages in flight on the lost channel cannot be acked, and
        the broker delivers them again (at least once). Runs until `stop`.
        """
        down_since: float | None = None
        loop = asyncio.get_running_loop()
        check_every = self._settings.broker_check_interval
        next_check = loop.time() + check_every
        while not stop.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), min(interval, check_every))
            if stop.is_set() or self._on_message is None:
                continue
            now = loop.time()
            reason: str | None = None
            if not self._connections_up():
                if len(self._urls) < 2:  # one address: aio-pika reconnects to it
                    continue
                if down_since is None:
                    down_since = now
                    continue
                reason = f"the connection has been down for {now - down_since:.1f} s"
            else:
                down_since = None
                if now < next_check:
                    continue
                next_check = now + check_every
                reason = await self._check()
                if reason is None:
                    continue
            down_since = None
            await self._move(stop, reason)

    async def _check(self) -> str | None:
        """Why the connection in use cannot make progress, or None: a passive declare of
        the input queue answered within the timeout."""
        channel = self._check_channel
        timeout = self._settings.broker_timeout
        try:
            if channel is None or channel.is_closed:
                raise aiormq.exceptions.ChannelInvalidStateError("the check channel is closed")
            underlay = await channel.get_underlay_channel()
            await asyncio.wait_for(
                underlay.queue_declare(self._settings.input_queues[0], passive=True), timeout
            )
        except TimeoutError:
            return f"the broker did not answer a passive declare within {timeout:g} s"
        except AMQP_FAILURES as error:
            return f"the broker's check failed: {error!r}"
        return None

    async def _move(self, stop: asyncio.Event, reason: str) -> None:
        """Give the connection in use up (why: `reason`) and consume at the next address
        that serves; unready until then."""
        on_message = self._on_message
        assert on_message is not None  # noqa: S101 - supervise checks
        self._lost = f"gave up the broker at {redact_url(self.url or '?')}: {reason}"
        if len(self._urls) > 1:
            self._given_up = self.url
        self._on_move()
        log.warning(
            "%s; moving to the %s",
            self._lost,
            "next address" if len(self._urls) > 1 else "same address, connecting again",
        )
        self._abandon()
        while not stop.is_set():
            if not await self.connect(stop):
                return
            try:
                await self.start_consuming(on_message)
            except (*AMQP_FAILURES, OSError) as error:
                log.warning(
                    "cannot consume at %s (%s); trying the next address",
                    redact_url(self.url or "?"),
                    _said(error),
                )
                self._abandon()
                continue
            self._lost = None
            self._moved_at = asyncio.get_running_loop().time()
            log.warning("now consuming at %s", redact_url(self.url or "?"))
            return

    def _abandon(self) -> None:
        """Drop both connections at once; their closes finish (or time out) in the background:
        a lost node may never answer a close, and the move must not wait for it."""
        for connection in (self._consume_connection, self._publish_connection):
            if connection is not None and not connection.is_closed:
                task = asyncio.get_running_loop().create_task(close_quietly(connection))
                self._closing.add(task)
                task.add_done_callback(self._closing.discard)
        self._forget()

    def _forget(self) -> None:
        self._consume_connection = self._publish_connection = None
        self._consume_channel = self._publish_channel = self._check_channel = None
        self._output = self._dead_letters = None
        self._inputs = []
        self._consumer_tags = {}

    def _connections_up(self) -> bool:
        for connection in (self._consume_connection, self._publish_connection):
            if connection is None or connection.is_closed or not connection.connected.is_set():
                return False
        return True

    async def _connect(self, url: str) -> None:
        """Both connections to `url` and the topology, each step within the broker timeout."""
        settings = self._settings
        timeout = settings.broker_timeout
        options: dict[str, Any] = {"reconnect_interval": settings.reconnect_interval}
        if "heartbeat=" not in url:  # an address's own ?heartbeat= wins
            options["heartbeat"] = settings.heartbeat
        self._consume_connection = consuming = await asyncio.wait_for(
            aio_pika.connect_robust(
                url,
                client_properties={"connection_name": "blockdensity-worker consume"},
                **options,
            ),
            timeout,
        )
        self._publish_connection = publishing = await asyncio.wait_for(
            aio_pika.connect_robust(
                url,
                client_properties={"connection_name": "blockdensity-worker publish"},
                **options,
            ),
            timeout,
        )
        self._publish_channel = channel = await asyncio.wait_for(
            publishing.channel(publisher_confirms=True, on_return_raises=True),
            timeout,
        )
        self._consume_channel = consume = await asyncio.wait_for(
            consuming.channel(publisher_confirms=False), timeout
        )
        self._check_channel = await asyncio.wait_for(
            consuming.channel(publisher_confirms=False), timeout
        )
        # One prefetch budget over every input queue: basic.qos (per consumer,
        # the only kind RabbitMQ 4.3 keeps) divides it; the handler's slots
        # bound the pages being fitted to the budget whatever the division.
        await asyncio.wait_for(
            consume.set_qos(prefetch_count=max(1, settings.prefetch // len(settings.input_queues))),
            timeout,
        )
        if self._declared:
            try:
                await asyncio.wait_for(self._find(channel, consume), timeout)
            except aiormq.exceptions.ChannelNotFoundEntity:
                # Deleted meanwhile: declared again below, on fresh channels (a
                # failed passive declare closes its channel).
                log.warning("the topology is gone at %s; declaring it again", redact_url(url))
                self._publish_channel = channel = await publishing.channel(
                    publisher_confirms=True, on_return_raises=True
                )
                self._consume_channel = consume = await consuming.channel(publisher_confirms=False)
                await consume.set_qos(
                    prefetch_count=max(1, settings.prefetch // len(settings.input_queues))
                )
            else:
                return
        # The first declaration may create queues (a quorum queue's members start
        # on every node): a few steps' worth of time.
        await asyncio.wait_for(self._declare(channel, consume), _SLOW_STEPS * timeout)
        self._declared = True

    async def _declare(
        self, publish: AbstractRobustChannel, consume: AbstractRobustChannel
    ) -> None:
        self._dead_letters, self._output = await declare_outputs(publish, self._settings)
        self._inputs, _ = await declare_inputs(consume, self._settings)

    async def _find(self, publish: AbstractRobustChannel, consume: AbstractRobustChannel) -> None:
        self._dead_letters, self._output = await find_outputs(publish, self._settings)
        self._inputs = await find_inputs(consume, self._settings)

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
            # Bounded: a consume waits on the queue's leader as the cluster
            # knows it, which a partition may have cut off, until the cluster
            # declares that node down (RELIABILITY.md, "Partitions"); then it
            # is tried again at the next address.
            self._consumer_tags[queue.name] = await asyncio.wait_for(
                queue.consume(consumer(queue.name), no_ack=False), self._settings.broker_timeout
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
        """Publish a clean page; return once confirmed, else raise PublishFailedError.

        Straight to aiormq's channel under the robust one (what aio-pika's
        Exchange.publish does, without an aio_pika.Message built and turned
        into properties per page: the cost the worker's parent paid most for
        in aio-pika, BENCHMARKS.md), and without waiting for the frames to
        drain to the socket: the confirm comes after them anyway. Confirms,
        mandatory and returns raising stay the channel's.
        """
        exchange, channel = self._output, self._publish_channel
        if exchange is None or channel is None:
            raise PublishFailedError("not connected")
        properties = aiormq.spec.Basic.Properties(
            content_type=content_type, message_id=message_id, delivery_mode=PERSISTENT
        )
        await self._confirmed(
            exchange.name,
            self._publish_underlay(channel, body, exchange.name, properties),
        )

    async def _publish_underlay(
        self,
        channel: AbstractRobustChannel,
        body: bytes,
        exchange: str,
        properties: aiormq.spec.Basic.Properties,
    ) -> object:
        if channel.is_closed:
            raise aiormq.exceptions.ChannelInvalidStateError(f"{channel!r} closed")
        underlay = await channel.get_underlay_channel()
        if not isinstance(underlay, aiormq.Channel):  # the one aiormq has
            raise TypeError(f"unexpected aiormq channel {underlay!r}")
        return await underlay.basic_publish(
            body,
            exchange=exchange,
            routing_key=self._settings.output_routing_key,
            properties=properties,
            mandatory=True,
            wait=False,
        )

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
        """Publish through aio-pika and wait for the confirm; PublishFailedError if none came
        (see `_confirmed`)."""
        await self._confirmed(
            exchange.name, exchange.publish(message, routing_key, mandatory=True, timeout=None)
        )

    async def _confirmed(self, exchange: str, publishing: Coroutine[Any, Any, object]) -> None:
        """Run a publish and wait for its confirm; PublishFailedError if none came.

        The publish timeout counts only time in which the broker is not
        blocking us, nor the first seconds after a move to another node (below).
        While a resource alarm blocks publishing, the broker
        holds the message unread (or has it, and confirms later): giving up
        would requeue a page whose output then arrives anyway, a duplicate
        and a delivery lost against the limit. So the wait goes on while
        blocked, and the timer starts again once the block is lifted. A
        confirm that is merely slow (the broker not blocking) still fails the
        publish after the timeout, and the input is requeued.

        After a move to another node of a cluster that lost one, the queues'
        leaders are being re-established: a publish may wait for the cluster
        for several seconds and then be confirmed. Giving up on it would
        requeue a page whose output arrives anyway (a duplicate), so for
        _SETTLING seconds after consuming again a publish waits on (a lost
        connection still fails it at once).
        """
        timeout = self._settings.publish_timeout
        loop = asyncio.get_running_loop()
        publish = asyncio.ensure_future(publishing)
        try:
            while True:
                blocks = self.blocks
                done, _ = await asyncio.wait({publish}, timeout=timeout)
                if done:
                    publish.result()
                    return
                settling = loop.time() - self._moved_at < _SETTLING
                if not self.blocked and self.blocks == blocks and not settling:
                    raise TimeoutError(f"no confirm within {timeout:g} s")
        except AMQP_FAILURES as error:
            raise PublishFailedError(f"publish to {exchange!r} failed: {error!r}") from None
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
        if self._lost is not None:
            return self._lost
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
        self._forget()
        if self._closing:  # connections given up earlier
            await asyncio.gather(*self._closing, return_exceptions=True)


def _said(error: BaseException) -> str:
    """An error's message, or its type's name when it has none (a TimeoutError)."""
    return str(error) or type(error).__name__
