"""The floor under the worker's parent: what its AMQP client and its pool cost a message alone.

bench.worker_e2e measures the parent's CPU a page while it runs beside its
fit processes and the broker; this script takes its per-message parts one
at a time, in this process, on the local broker, to show how much of that
is the AMQP client's own cost (aio-pika over aiormq), which no change to the
worker can take away while it speaks AMQP through them:

1. a confirmed publish of a record of the corpus's output size (7 KB), 4 in
   flight: through aio-pika's Exchange.publish (an aio_pika.Message a page,
   the worker's path before issue 24), and through the robust channel's
   aiormq channel without the drain wait (the worker's path now);
2. consuming and acking messages of the small pages' mean size (140 KB) and
   of 1 KB, aio-pika, prefetch 4 (the worker's default on 2 cores): the
   difference is the cost of the body's bytes (aiormq's frame reads copy
   them several times);
3. the pool: a page's body to a fit process and its record back
   (worker.stage.pool, the fit stubbed: bench.worker_e2e.stub_fit).

CPU time of this process, best of `--passes`; the machine's load inflates
every figure alike.

    python -m bench.worker_floor [--messages 1500] [--passes 3]
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import time
from collections.abc import Awaitable, Callable

import aio_pika
import aiormq

from bench.worker_e2e import page_message, stub_fit
from devkit.broker import ensure_rabbitmq
from devkit.corpus import DEFAULT_DATA, SEGMENT_SETS, load_pages
from worker.amqp.topology import PERSISTENT
from worker.schemas import Encoding
from worker.stage.pool import FitPool

_URL = "amqp://guest:guest@127.0.0.1:5672/"
_IN_FLIGHT = 4  # the worker's prefetch on 2 cores
_OUTPUT_BYTES = 7_000  # the corpus's outputs: 5-8 KB
_SMALL_PAGE_BYTES = 140_000  # the small pages' mean message


async def _cpu_per_call(call: Callable[[int], Awaitable[object]], count: int, passes: int) -> float:
    """CPU seconds a call of `call(i)`, `count` calls `_IN_FLIGHT` at a time, best pass."""
    slots = asyncio.Semaphore(_IN_FLIGHT)

    async def one(index: int) -> None:
        async with slots:
            await call(index)

    best = float("inf")
    for _ in range(passes):
        start = time.process_time()
        await asyncio.gather(*(one(index) for index in range(count)))
        best = min(best, time.process_time() - start)
    return best / count


async def _publishes(channel: aio_pika.abc.AbstractChannel, count: int, passes: int) -> None:
    body = os.urandom(_OUTPUT_BYTES)
    nowhere = f"bench.floor.{os.getpid()}.nowhere"  # no queue: confirmed, then dropped

    async def through_aio_pika(_: int) -> object:
        message = aio_pika.Message(
            body,
            content_type="application/msgpack",
            message_id="floor",
            delivery_mode=aio_pika.DeliveryMode.PERSISTENT,
        )
        return await channel.default_exchange.publish(message, nowhere, mandatory=False)

    underlay = await channel.get_underlay_channel()
    assert isinstance(underlay, aiormq.Channel)  # noqa: S101 - the one aiormq has

    async def through_aiormq(_: int) -> object:
        properties = aiormq.spec.Basic.Properties(
            content_type="application/msgpack", message_id="floor", delivery_mode=PERSISTENT
        )
        return await underlay.basic_publish(
            body, routing_key=nowhere, properties=properties, wait=False
        )

    for name, call in (("aio-pika Exchange.publish", through_aio_pika), ("aiormq", through_aiormq)):
        seconds = await _cpu_per_call(call, count, passes)
        label = f"publish 7 KB, confirmed, {name}"
        print(f"{label:44}  {seconds * 1e6:6.0f} us CPU")


async def _consumes(connection: aio_pika.abc.AbstractConnection, count: int, size: int) -> float:
    """CPU seconds a message of consuming and acking `count` messages of `size` bytes."""
    channel = await connection.channel(publisher_confirms=True)
    queue = await channel.declare_queue(f"bench.floor.{os.getpid()}.{size}", durable=True)
    body = os.urandom(size)
    try:
        for start in range(0, count, 200):
            await asyncio.gather(
                *(
                    channel.default_exchange.publish(aio_pika.Message(body), queue.name)
                    for _ in range(min(200, count - start))
                )
            )
        consuming = await connection.channel(publisher_confirms=False)
        await consuming.set_qos(prefetch_count=_IN_FLIGHT)
        done = asyncio.Event()
        seen = 0

        async def on_message(message: aio_pika.abc.AbstractIncomingMessage) -> None:
            nonlocal seen
            await message.ack()
            seen += 1
            if seen >= count:
                done.set()

        start_cpu = time.process_time()
        tag = await (await consuming.get_queue(queue.name)).consume(on_message)
        await done.wait()
        seconds = (time.process_time() - start_cpu) / count
        await (await consuming.get_queue(queue.name)).cancel(tag)
    finally:
        await queue.delete(if_unused=False, if_empty=False)
    return seconds


async def _pool(count: int, passes: int) -> float:
    pages = load_pages(DEFAULT_DATA, SEGMENT_SETS)
    bodies = [page_message(page, "floor") for page in pages]
    pool = FitPool(size=2, timeout=10, max_tasks=1000, function=stub_fit, recycle_memory=128 << 20)
    pool.start()
    try:
        await pool.warm_up()
        return await _cpu_per_call(
            lambda index: pool.fit(bodies[index % len(bodies)], Encoding.MSGPACK), count, passes
        )
    finally:
        await pool.close()


async def _main(count: int, passes: int) -> None:
    connection = await aio_pika.connect_robust(_URL)
    try:
        channel = await connection.channel(publisher_confirms=True)
        await _publishes(channel, count, passes)
        for size in (_SMALL_PAGE_BYTES, 1_000):
            seconds = min([await _consumes(connection, count, size) for _ in range(passes)])
            label = f"consume + ack {size // 1000} KB, aio-pika"
            print(f"{label:44}  {seconds * 1e6:6.0f} us CPU")
    finally:
        await connection.close()
    seconds = await _pool(count, passes)
    print(f"{'a small page to a fit process and back (stub)':44}  {seconds * 1e6:6.0f} us CPU")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--messages", type=int, default=1500, help="messages a measurement")
    parser.add_argument("--passes", type=int, default=3, help="the best of this many passes")
    args = parser.parse_args()
    ensure_rabbitmq()
    logging.getLogger("aiormq").setLevel(logging.ERROR)  # the consumers' queues deleted
    logging.getLogger("aio_pika").setLevel(logging.ERROR)
    asyncio.run(_main(args.messages, args.passes))


if __name__ == "__main__":
    main()
