"""The ceiling of one quorum queue: 50 KB pages in with confirms, out with acks.

    python -m bench.queue_ceiling                    # 20 s, 50 KB messages
    python -m bench.queue_ceiling --seconds 30 --size 51200 --publishers 2

One quorum queue on a private node (devkit.rabbitnode; one node, so no
replication traffic: a three-member queue costs more per message, see
deploy/README.md's capacity plan), publishers with confirms and a bounded
window of unconfirmed messages, one consumer acking each message (prefetch
200), all on this machine. What it prints is what one queue, with its one
leader, carries here: messages/s, MB/s, and the broker's CPU per message
(its beam.smp process's user+system time over the messages that went in
and out). The worker does nothing in this run: it measures the broker alone.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import time
from dataclasses import dataclass

import aio_pika

from devkit.procs import stat_fields
from devkit.rabbitnode import PrivateRabbit

_QUEUE = "ceiling"
_TICKS = os.sysconf("SC_CLK_TCK")


@dataclass
class Ceiling:
    published: int = 0
    consumed: int = 0
    seconds: float = 0.0
    broker_cpu: float = 0.0
    size: int = 0

    @property
    def rate(self) -> float:
        return self.consumed / self.seconds

    @property
    def mb_per_s(self) -> float:
        return self.rate * self.size / 1e6

    @property
    def cpu_ms_per_message(self) -> float:
        return 1000 * self.broker_cpu / max(1, self.consumed)


def _cpu_seconds(pid: int) -> float:
    fields = stat_fields(pid)
    return 0.0 if fields is None else (int(fields[11]) + int(fields[12])) / _TICKS


async def _publisher(
    url: str, body: bytes, stop: asyncio.Event, window: int, counted: list[int]
) -> None:
    connection = await aio_pika.connect(url)
    channel = await connection.channel(publisher_confirms=True)
    pending: set[asyncio.Future[object]] = set()
    while not stop.is_set():
        message = aio_pika.Message(body, delivery_mode=aio_pika.DeliveryMode.PERSISTENT)
        pending.add(asyncio.ensure_future(channel.default_exchange.publish(message, _QUEUE)))
        if len(pending) >= window:
            done, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
            counted[0] += len(done)
    if pending:
        done, _ = await asyncio.wait(pending)
        counted[0] += len(done)
    await connection.close()


async def _consumer(url: str, counted: list[int]) -> aio_pika.abc.AbstractConnection:
    connection = await aio_pika.connect(url)
    channel = await connection.channel()
    await channel.set_qos(prefetch_count=200)
    queue = await channel.get_queue(_QUEUE)

    async def on_message(message: aio_pika.abc.AbstractIncomingMessage) -> None:
        await message.ack()
        counted[0] += 1

    await queue.consume(on_message)
    return connection


async def measure(seconds: float, size: int, publishers: int, window: int) -> Ceiling:
    with PrivateRabbit("ceiling") as node:
        setup = await aio_pika.connect(node.url)
        channel = await setup.channel()
        await channel.declare_queue(_QUEUE, durable=True, arguments={"x-queue-type": "quorum"})
        await setup.close()
        body = os.urandom(size)
        published, consumed = [0], [0]
        stop = asyncio.Event()
        consumer = await _consumer(node.url, consumed)
        pid = node.pid
        assert pid is not None  # noqa: S101 - the node reports its pid once started
        cpu_before, started = _cpu_seconds(pid), time.monotonic()
        tasks = [
            asyncio.create_task(_publisher(node.url, body, stop, window, published))
            for _ in range(publishers)
        ]
        await asyncio.sleep(seconds)
        stop.set()
        await asyncio.gather(*tasks)
        # The consumer catches up with what was confirmed.
        deadline = time.monotonic() + 30
        while consumed[0] < published[0] and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        elapsed = time.monotonic() - started
        cpu = _cpu_seconds(pid) - cpu_before
        await consumer.close()
    return Ceiling(published[0], consumed[0], elapsed, cpu, size)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.queue_ceiling", description=__doc__)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--size", type=int, default=50 * 1024)
    parser.add_argument("--publishers", type=int, default=2)
    parser.add_argument("--window", type=int, default=64, help="unconfirmed messages each")
    options = parser.parse_args()
    result = asyncio.run(measure(options.seconds, options.size, options.publishers, options.window))
    print(
        f"one quorum queue, private node, {options.publishers} publishers with confirms "
        f"(window {options.window}), one consumer acking, {options.size:,} B messages, "
        f"{options.seconds:g} s, {os.cpu_count()} cores shared with the clients"
    )
    print("| figure | value |\n|---|---:|")
    print(f"| messages in and out | {result.consumed:,} |")
    print(f"| messages/s | {result.rate:,.0f} |")
    print(f"| MB/s (payload) | {result.mb_per_s:,.1f} |")
    print(f"| broker CPU per message | {result.cpu_ms_per_message:.3f} ms |")
    print(f"| broker CPU | {result.broker_cpu / result.seconds:.2f} cores |")


if __name__ == "__main__":
    main()
