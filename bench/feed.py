"""python -m bench.feed: how fast blockdensity-feed publishes a crawl, against a bare publish loop.

A gzipped WARC of the development corpus's pages (cycled to --pages
records, written with warcio into a temporary folder) is published to a
scratch quorum queue of the local RabbitMQ, declared as the worker declares
its input, three ways, in this one process and run:

- bare loop: aio-pika publishes of the same FetchedPage messages, encoded
  beforehand, with confirms and the same window of unconfirmed messages:
  what the broker and the client library cost, with no WARC to read;
- bare aiormq loop: the same through aiormq's channel with wait=False (no
  wait for each message's frames to drain), which is how the feeder publishes;
- feeder: worker.feed.feed, reading the WARC and publishing (checkpoint on);
- feeder, dry run: reading and encoding only, nothing published.

Each row gives pages per second (wall clock) and the CPU time of this
process per page (the broker's CPU is not in it). Then the same with the
pages cut to their first 2 KB, where the per-message cost shows rather than
the bytes. Run it on a quiet machine; the figures in BENCHMARKS.md say where.

    python -m bench.feed [--pages 1500] [--window 1000]
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from collections.abc import Awaitable, Callable, Coroutine
from pathlib import Path
from typing import Any

import aio_pika
import aiormq

from devkit.broker import ensure_rabbitmq, scratch_topology
from devkit.corpus import DEFAULT_DATA
from devkit.messages import corpus_pages
from devkit.warcs import WarcPageSpec, write_warc
from worker.amqp.publisher import FeedPublisher
from worker.amqp.topology import input_queue_arguments
from worker.config import StageSettings
from worker.feed.checkpoint import Checkpoint
from worker.feed.feeder import FeedOptions, feed
from worker.feed.sources import find_sources


async def _windowed(
    bodies: list[bytes], window: int, publish: Callable[[bytes], Awaitable[None]]
) -> None:
    """Publish every body, at most `window` unconfirmed at a time (as the feeder does)."""
    room = asyncio.Semaphore(window)
    pending: set[asyncio.Task[None]] = set()

    async def one(body: bytes) -> None:
        try:
            await publish(body)
        finally:
            room.release()

    for body in bodies:
        await room.acquire()
        task = asyncio.create_task(one(body))
        pending.add(task)
        task.add_done_callback(pending.discard)
    await asyncio.gather(*pending)


async def _bare(settings: StageSettings, bodies: list[bytes], window: int) -> None:
    connection = await aio_pika.connect(settings.amqp_url)
    try:
        channel = await connection.channel(publisher_confirms=True)

        async def publish(body: bytes) -> None:
            message = aio_pika.Message(
                body,
                content_type="application/msgpack",
                delivery_mode=aio_pika.DeliveryMode.PERSISTENT,
            )
            await channel.default_exchange.publish(message, settings.input_queue)

        await _windowed(bodies, window, publish)
    finally:
        await connection.close()


async def _bare_aiormq(settings: StageSettings, bodies: list[bytes], window: int) -> None:
    """The same through aiormq's channel, not waiting for each frame's drain (as the feeder)."""
    connection = await aio_pika.connect(settings.amqp_url)
    try:
        channel = await (await connection.channel(publisher_confirms=True)).get_underlay_channel()
        assert isinstance(channel, aiormq.Channel)  # noqa: S101 - aiormq's one kind
        properties = aiormq.spec.Basic.Properties(
            content_type="application/msgpack", delivery_mode=2
        )

        async def publish(body: bytes) -> None:
            await channel.basic_publish(
                body, routing_key=settings.input_queue, properties=properties, wait=False
            )

        await _windowed(bodies, window, publish)
    finally:
        await connection.close()


async def _purge(settings: StageSettings, *, delete: bool = False) -> None:
    connection = await aio_pika.connect(settings.amqp_url)
    try:
        channel = await connection.channel()
        queue = await channel.declare_queue(
            settings.input_queue, durable=True, arguments=input_queue_arguments(settings)
        )
        await queue.purge()
        if delete:
            await channel.queue_delete(settings.input_queue)
    finally:
        await connection.close()


async def _measure(
    label: str, run: Coroutine[Any, Any, object], pages: int, rows: list[tuple[str, float, float]]
) -> None:
    wall, cpu = time.perf_counter(), time.process_time()
    await run
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    rows.append((label, pages / wall, cpu / pages * 1e6))


async def _round(
    settings: StageSettings, folder: Path, cut: int | None, pages: int, window: int
) -> list[tuple[str, float, float]]:
    samples = corpus_pages(300, DEFAULT_DATA)  # the full set's pages, not the sample's
    specs = [
        WarcPageSpec(
            f"https://bench.example/{i}/{samples[i % len(samples)].name}",
            samples[i % len(samples)].raw[:cut] if cut else samples[i % len(samples)].raw,
        )
        for i in range(pages)
    ]
    warc = folder / f"bench-{cut or 'full'}.warc.gz"
    write_warc(warc, specs)
    sources = find_sources([warc])
    bodies = [
        item.message.body for item in sources[0].items(0, 1 << 30) if item.message is not None
    ]
    megabytes = sum(len(body) for body in bodies) / 1e6
    print(
        f"\n{pages:,} pages, {megabytes:,.0f} MB of messages, window {window}"
        f" ({f'first {cut} bytes of each page' if cut else 'whole pages'})"
    )
    rows: list[tuple[str, float, float]] = []
    options = FeedOptions(window=window)
    for _ in range(2):  # alternated, twice: the machine is shared
        await _purge(settings)
        await _measure("bare aio-pika publish loop", _bare(settings, bodies, window), pages, rows)
        await _purge(settings)
        await _measure(
            "bare aiormq loop, wait=False", _bare_aiormq(settings, bodies, window), pages, rows
        )
        await _purge(settings)
        publisher = FeedPublisher(settings, 60)
        await publisher.connect()
        checkpoint = Checkpoint(folder / f"cp-{cut}.json", "bench")
        await _measure(
            "blockdensity-feed",
            feed(sources, options, publisher=publisher, checkpoint=checkpoint),
            pages,
            rows,
        )
        await publisher.close()
        await _measure(
            "blockdensity-feed --dry-run",
            feed(sources, FeedOptions(window=window, dry_run=True)),
            pages,
            rows,
        )
    best: dict[str, tuple[float, float]] = {}
    for label, rate, cpu in rows:
        if label not in best or rate > best[label][0]:
            best[label] = (rate, cpu)
    print(f"{'':<30} {'pages/s':>9} {'CPU us/page':>12}")
    for label, (rate, cpu) in best.items():
        print(f"{label:<30} {rate:>9,.0f} {cpu:>12,.0f}")
    return rows


async def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.feed")
    parser.add_argument("--pages", type=int, default=1500)
    parser.add_argument("--window", type=int, default=1000)
    args = parser.parse_args()
    ensure_rabbitmq()
    settings = StageSettings.from_env(scratch_topology("bench"))
    try:
        with tempfile.TemporaryDirectory(prefix="bench-feed-") as folder:
            await _round(settings, Path(folder), None, args.pages, args.window)
            await _round(settings, Path(folder), 2048, args.pages * 4, args.window)
    finally:
        await _purge(settings, delete=True)


if __name__ == "__main__":
    asyncio.run(main())
