"""Past one queue: a family of input queues filled by a consistent-hash exchange.

A private node with the rabbitmq_consistent_hash_exchange plugin (the shared
broker has only the management and Prometheus plugins). The worker declares
`<name>.0` to `.2` and the exchange, binds them, and consumes all three
under one prefetch budget; pages published to the exchange by URL come out
once each, and a dead letter names the queue its message came from. The
feeder, started before any worker, declares and binds a family as the
worker does, so that its pages are routed from the first.
"""

from __future__ import annotations

import asyncio

import aio_pika
import pytest

from devkit.client import Client
from devkit.messages import collect, msgpack_page, page_url, sample_pages
from devkit.rabbitnode import PrivateRabbit
from devkit.workers import running_app, wait_for, worker_env
from worker.amqp.publisher import FeedPublisher
from worker.amqp.topology import HEADER_QUEUE, HEADER_REASON
from worker.config import FeedSettings, StageSettings
from worker.feed.inputs import MSGPACK

pytestmark = [pytest.mark.integration, pytest.mark.slow, pytest.mark.serial]


async def test_pages_spread_over_a_family_of_queues_come_out_once_each() -> None:
    with PrivateRabbit("queues", plugins=("rabbitmq_consistent_hash_exchange",)) as node:
        env = worker_env(amqp_url=node.url, prefetch="6")
        stem = env["BLOCKDENSITY_INPUT_QUEUE"]
        env["BLOCKDENSITY_INPUT_QUEUE"] = f"{stem}.{{0..2}}"
        env["BLOCKDENSITY_INPUT_EXCHANGE"] = f"{stem}.spread"
        settings = StageSettings.from_env(env)
        assert settings.input_queues == (f"{stem}.0", f"{stem}.1", f"{stem}.2")
        page = sample_pages()[0].raw
        urls = [f"https://spread.example/{index}" for index in range(90)]
        async with Client(node.url) as client:
            await _feed_first(node, env, f"{stem}.fed", page)
            async with running_app(settings):
                pass  # the worker declares the family, the exchange and the bindings
            exchange = await client.channel.get_exchange(settings.input_exchange)
            for url in urls:
                await exchange.publish(
                    _message(msgpack_page(url, page), message_id=url), routing_key=url
                )

            # The exchange spread them: each queue of the family holds a share
            # (the node's queue figures lag by up to its statistics interval).
            def shares() -> list[int]:
                depths = node.queue_depths()
                return [depths.get(name, (0, 0))[0] for name in settings.input_queues]

            await wait_for(lambda: sum(shares()) == len(urls), timeout=30, interval=0.5)
            assert all(share > 0 for share in shares()), shares()
            async with running_app(settings):
                outputs = await collect(client, settings.output_queue, len(urls))
                # Straight into the second queue: the dead letter says which it was.
                await client.publish(
                    f"{stem}.1", b"\xc1", content_type="application/msgpack", message_id="bad"
                )
                (dead,) = await collect(client, settings.dead_letter_queue, 1)
        assert sorted(page_url(message) for message in outputs) == sorted(urls)
        assert dead.headers[HEADER_REASON] == "invalid"
        assert dead.headers[HEADER_QUEUE] == f"{stem}.1"


def _message(body: bytes, *, message_id: str) -> aio_pika.Message:
    return aio_pika.Message(body, content_type="application/msgpack", message_id=message_id)


async def _feed_first(node: PrivateRabbit, env: dict[str, str], stem: str, page: bytes) -> None:
    """The feeder alone (no worker yet) declares its family and exchange, and binds them:
    every page it publishes by URL is confirmed and lands in one of the queues."""
    settings = FeedSettings.from_env(
        {**env, "BLOCKDENSITY_INPUT_QUEUE": f"{stem}.{{0..1}}", "BLOCKDENSITY_INPUT_EXCHANGE": stem}
    )
    urls = [f"https://fed.example/{index}" for index in range(20)]
    publisher = FeedPublisher(settings, 10)
    await publisher.connect()
    try:
        confirms = [
            publisher.publish(
                msgpack_page(url, page), content_type=MSGPACK, message_id=url, url=url
            )
            for url in urls
        ]
        await asyncio.gather(*confirms)  # a page no queue took would fail here, unroutable
    finally:
        await publisher.close()

    def fed() -> int:
        depths = node.queue_depths()
        return sum(depths.get(name, (0, 0))[0] for name in settings.input_queues)

    await wait_for(lambda: fed() == len(urls), timeout=30, interval=0.5)
