"""The worker in this process against the real broker: pages in, clean pages or dead letters out."""

from __future__ import annotations

import asyncio
import gzip
import threading
import time
import zlib

import msgspec
import pytest
from aio_pika.abc import AbstractQueue
from aio_pika.exceptions import PublishError

from blockdensity import fit_text
from devkit.broker import rabbitmqctl, scratch_vhost
from devkit.client import Client
from devkit.faults import MARKERS_FIT
from devkit.messages import (
    Sample,
    collect,
    collect_urls,
    corpus_pages,
    json_page,
    msgpack_page,
    page_url,
    publish_pages,
    sample_pages,
)
from devkit.workers import http_get, running_app, wait_for, worker_env
from worker.amqp.topology import HEADER_ERROR, HEADER_QUEUE, HEADER_REASON
from worker.config import StageSettings
from worker.schemas import CleanPage, clean_message_id

pytestmark = [pytest.mark.integration, pytest.mark.serial]


async def test_pages_in_clean_pages_out(client: Client, settings: StageSettings) -> None:
    pages = corpus_pages(12)
    messages: dict[str, tuple[Sample, str, str, str | None]] = {}
    async with running_app(settings) as app:
        for index, page in enumerate(pages):
            url = f"https://test.example/{index}"
            fetch_id = None
            if index % 3 == 0:  # a third as JSON, the body a string
                data, content_type = json_page(url, page.raw.decode("utf-8", "replace")), "json"
            else:
                fetch_id = f"f{index}"
                data, content_type = msgpack_page(url, page.raw, fetch_id=fetch_id), "msgpack"
            message_id = f"in-{index}"
            messages[url] = (page, content_type, message_id, fetch_id)
            await client.publish(
                settings.input_queue,
                data,
                content_type=f"application/{content_type}",
                message_id=message_id,
            )
        outputs = await collect(client, settings.output_queue, len(pages))
        assert len(outputs) == len(pages)

        for output in outputs:
            assert output.content_type is not None
            kind = output.content_type.removeprefix("application/")
            decode = msgspec.json.decode if kind == "json" else msgspec.msgpack.decode
            clean = decode(output.body, type=CleanPage)
            page, content_type, message_id, fetch_id = messages[clean.url]
            assert kind == content_type
            assert output.message_id == clean_message_id(message_id, clean.url, clean.fetch_id)
            # With the page's URL, as the stage fits it: the URL is evidence of the
            # page's kind, which the confidence reads.
            html = page.raw if kind == "msgpack" else page.raw.decode("utf-8", "replace")
            fit = fit_text(html, url=clean.url)
            assert clean.text == fit.text
            assert clean.title == fit.title
            assert clean.lang == fit.lang
            assert clean.fallback == fit.fallback
            assert (clean.blocks_total, clean.blocks_with_words, clean.blocks_kept) == (
                fit.blocks_total,
                fit.blocks_with_words,
                fit.blocks_kept,
            )
            assert (clean.words_total, clean.words_kept) == (fit.words_total, fit.words_kept)
            assert clean.fetch_id == fetch_id
            assert 0 < clean.fit_seconds < 10
            assert clean.confidence == fit.confidence
            assert clean.schema_version == 4

        metrics = app.metrics
        await wait_for(lambda: metrics.value("blockdensity_in_flight") == 0)
        done = metrics.value("blockdensity_pages_total", {"outcome": "ok"}) + metrics.value(
            "blockdensity_pages_total", {"outcome": "fallback"}
        )
        assert done == len(pages)
        assert metrics.value("blockdensity_page_blocks_count") == len(pages)
        assert metrics.value("blockdensity_fit_duration_seconds_count") == len(pages)
        assert metrics.value("blockdensity_message_duration_seconds_count") == len(pages)
        assert metrics.value("blockdensity_last_success_timestamp_seconds") > time.time() - 60
        assert metrics.value("blockdensity_ack_failures_total") == 0

    assert await client.is_empty(settings.input_queue)
    assert await client.is_empty(settings.output_queue)
    assert await client.is_empty(settings.dead_letter_queue)


async def test_invalid_too_large_and_not_html_are_dead_lettered_with_the_reason(
    rabbitmq: None,
) -> None:
    settings = StageSettings.from_env(worker_env(max_body_bytes="60000"))
    small = sample_pages()[0].raw
    assert len(small) < 60000
    big = max(sample_pages(), key=lambda page: len(page.raw)).raw * 2
    cases = {
        "garbage": (b"\xc1\xc1", "application/msgpack", "invalid", "undecodable msgpack"),
        "no-body": (b'{"url": "https://e.org/"}', "application/json", "invalid", "`body`"),
        "type": (msgpack_page("u", small), "text/html", "invalid", "'text/html' is not one"),
        "big": (msgpack_page("u", big), "application/msgpack", "too_large", "over the limit"),
        "pdf": (
            msgpack_page("https://e.org/a.pdf", b"%PDF-1.7", content_type="application/pdf"),
            "application/msgpack",
            "not_html",
            "'application/pdf' of https://e.org/a.pdf is not HTML",
        ),
        "pdf-as-html": (
            msgpack_page("https://e.org/b", b"%PDF-1.7\n" + bytes(range(256))),
            "application/msgpack",
            "not_html",
            "the body of https://e.org/b is PDF, not HTML",
        ),
        "javascript-url": (
            msgpack_page("javascript:alert(1)", small),
            "application/msgpack",
            "invalid",
            "is not an absolute http or https URL - at $.url",
        ),
        "newline-url": (
            msgpack_page("https://e.org/a\nb", small),
            "application/msgpack",
            "invalid",
            "control character",
        ),
        "server-error": (
            msgpack_page("https://e.org/c", small, status=500),
            "application/msgpack",
            "status",
            "HTTP status 500 is not one the worker fits",
        ),
        "naive-time": (
            msgpack_page("https://e.org/d", small, fetched_at="2026-12-01T09:00:00"),
            "application/msgpack",
            "invalid",
            "timezone",
        ),
        "no-content-type": (msgpack_page("https://e.org/e", small), None, "invalid", "no AMQP"),
    }
    async with Client(settings.amqp_url) as client:
        try:
            async with running_app(settings) as app:
                for message_id, (body, content_type, _, _) in cases.items():
                    await client.publish(
                        settings.input_queue,
                        body,
                        content_type=content_type,
                        message_id=message_id,
                        headers={"x-crawler": "test"},
                    )
                dead = await collect(client, settings.dead_letter_queue, len(cases))
                await wait_for(lambda: app.metrics.value("blockdensity_in_flight") == 0)
                for outcome in ("invalid", "too_large", "not_html", "status"):
                    expected = sum(case[2] == outcome for case in cases.values())
                    counted = app.metrics.value("blockdensity_pages_total", {"outcome": outcome})
                    assert counted == expected
            assert len(dead) == len(cases)
            for message in dead:
                assert message.message_id is not None
                body, content_type, reason, complaint = cases[message.message_id]
                assert message.body == body  # as received, for a replay
                assert message.content_type == content_type
                assert message.headers[HEADER_REASON] == reason
                assert complaint in message.headers[HEADER_ERROR]
                assert len(message.headers[HEADER_ERROR]) <= 1000
                assert message.headers[HEADER_QUEUE] == settings.input_queue
                assert message.headers["x-crawler"] == "test"  # the producer's headers stay
            assert await client.is_empty(settings.input_queue)
            assert await client.is_empty(settings.output_queue)
        finally:
            await client.delete_topology(settings)


async def test_compressed_pages_are_decoded_and_the_status_travels(
    client: Client, settings: StageSettings
) -> None:
    page = sample_pages()[0]
    body = msgpack_page("https://e.org/gz", page.raw, status=203)
    async with running_app(settings):
        await client.publish(
            settings.input_queue,
            gzip.compress(body),
            content_type="application/msgpack",
            content_encoding="gzip",
        )
        await client.publish(
            settings.input_queue,
            zlib.compress(body),
            content_type="application/msgpack",
            content_encoding="deflate",
        )
        outputs = await collect(client, settings.output_queue, 2)
    for output in outputs:
        clean = msgspec.msgpack.decode(output.body, type=CleanPage)
        assert (clean.url, clean.status) == ("https://e.org/gz", 203)
        assert clean.text == fit_text(page.raw, url=clean.url).text
    assert await client.is_empty(settings.dead_letter_queue)


async def test_crashing_and_hanging_pages_end_dead_after_the_delivery_limit(rabbitmq: None) -> None:
    # Delivery limit 2: three deliveries each, then the dead-letter queue.
    settings = StageSettings.from_env(
        worker_env(fit_function=MARKERS_FIT, delivery_limit="2", fit_timeout="1")
    )
    bad = {
        "sigkill": (b"<p>BLOCKDENSITY-TEST-SIGKILL</p>", "crashed"),
        "segfault": (b"<p>BLOCKDENSITY-TEST-SEGFAULT</p>", "crashed"),
        "hang": (b"<p>BLOCKDENSITY-TEST-HANG</p>", "timeout"),
    }
    good = sample_pages()
    async with Client(settings.amqp_url) as client:
        try:
            async with running_app(settings) as app:
                for name, (body, _) in bad.items():
                    await client.publish(
                        settings.input_queue,
                        msgpack_page(f"https://bad.example/{name}", body),
                        content_type="application/msgpack",
                        message_id=name,
                    )
                for index, page in enumerate(good):
                    await client.publish(
                        settings.input_queue,
                        msgpack_page(f"https://good.example/{index}", page.raw),
                        content_type="application/msgpack",
                    )
                outputs = await collect(client, settings.output_queue, len(good))
                dead = await collect(client, settings.dead_letter_queue, len(bad))
                metrics = app.metrics
                await wait_for(lambda: metrics.value("blockdensity_in_flight") == 0)

                def restarts(reason: str) -> float:
                    return metrics.value("blockdensity_pool_restarts_total", {"reason": reason})

                # sigkill and segfault, three times each: each one child replaced.
                assert restarts("crashed") == 3 * 2
                assert restarts("broken") == 0
                assert restarts("timeout") == 3
                assert metrics.value("blockdensity_pages_total", {"outcome": "crashed"}) == 6
                assert metrics.value("blockdensity_pages_total", {"outcome": "timeout"}) == 3
                assert metrics.value("blockdensity_pages_total", {"outcome": "ok"}) == len(good)
            assert len(outputs) == len(good)
            assert sorted(message.message_id or "" for message in dead) == sorted(bad)
            for message in dead:
                _, reason = bad[message.message_id or ""]
                assert message.headers[HEADER_REASON] == reason
                assert "(delivery 3 of 3)" in message.headers[HEADER_ERROR]
            assert await client.is_empty(settings.input_queue)
        finally:
            await client.delete_topology(settings)


async def _unbind_output_and_publish(
    client: Client, settings: StageSettings, message_id: str
) -> AbstractQueue:
    """Unbind the output queue (every output publish is then returned unroutable),
    then publish one page, https://e.org/; the output queue, to bind again."""
    output = await client.channel.declare_queue(settings.output_queue, passive=True)
    await output.unbind(settings.output_exchange, settings.output_routing_key)
    await client.publish(
        settings.input_queue,
        msgpack_page("https://e.org/", sample_pages()[0].raw),
        content_type="application/msgpack",
        message_id=message_id,
    )
    return output


async def test_an_output_returned_unroutable_is_published_again_once_routable(
    rabbitmq: None,
) -> None:
    # The input is held while the publish is retried: when the output queue is bound
    # again, the same delivery's output goes out, fitted once, never requeued.
    settings = StageSettings.from_env(worker_env(publish_retry_for="60"))
    async with Client(settings.amqp_url) as client:
        try:
            async with running_app(settings) as app:
                output = await _unbind_output_and_publish(client, settings, "held")
                metrics = app.metrics
                await wait_for(lambda: metrics.value("blockdensity_publish_retries_total") >= 2)
                await output.bind(settings.output_exchange, settings.output_routing_key)
                (published,) = await collect(client, settings.output_queue, 1)
                await wait_for(lambda: metrics.value("blockdensity_in_flight") == 0)
                assert metrics.value("blockdensity_pages_total", {"outcome": "ok"}) == 1
                failed = metrics.value("blockdensity_pages_total", {"outcome": "publish_failed"})
                assert failed == 0
                assert metrics.value("blockdensity_fit_duration_seconds_count") == 1
            assert published.message_id == clean_message_id("held", "https://e.org/", None)
            assert await client.is_empty(settings.input_queue)
            assert await client.is_empty(settings.dead_letter_queue)
        finally:
            await client.delete_topology(settings)


async def test_outputs_nacked_for_a_while_spend_no_deliveries(rabbitmq: None) -> None:
    # As after a cluster lost a node (the node-kill test, once: every output publish
    # nacked for 9 s): a policy makes the output queue refuse every publish for 4 s.
    # With a delivery limit of 1, pages requeued on each nack would soon be
    # dead-lettered; held and retried, every page comes out, fitted once.
    with scratch_vhost("nacked") as vhost:
        settings = StageSettings.from_env(
            worker_env(amqp_url=vhost.url, delivery_limit="1", publish_retry_for="30")
        )

        def limit_outputs(length: int) -> None:
            # RabbitMQ 3.10 keeps a quorum queue's limit when its policy is cleared:
            # the limit is raised instead.
            rabbitmqctl(
                "set_policy",
                "--vhost",
                vhost.name,
                "--apply-to",
                "queues",
                "outputs",
                f"^{settings.output_queue}$",
                f'{{"max-length": {length}, "overflow": "reject-publish"}}',
            )

        async with Client(vhost.url) as client:
            async with running_app(settings) as app:
                await asyncio.to_thread(limit_outputs, 0)
                urls = await publish_pages(client, settings, corpus_pages(20))
                metrics = app.metrics
                await wait_for(lambda: metrics.value("blockdensity_publish_retries_total") >= 4)
                await asyncio.sleep(4)
                await asyncio.to_thread(limit_outputs, 1_000_000)
                outputs = await collect_urls(client, settings.output_queue, urls)
                await wait_for(lambda: metrics.value("blockdensity_in_flight") == 0)
                failed = metrics.value("blockdensity_pages_total", {"outcome": "publish_failed"})
                assert failed == 0
                assert metrics.value("blockdensity_fit_duration_seconds_count") == len(urls)
            assert sorted(page_url(message) for message in outputs) == sorted(urls)
            assert await client.is_empty(settings.dead_letter_queue)
            assert await client.is_empty(settings.input_queue)


async def test_a_held_page_is_let_go_when_its_channel_closes(rabbitmq: None) -> None:
    # The broker requeues what a closed channel held: retrying the old delivery's
    # publish would only make a duplicate of the next delivery's output. The
    # connections are closed in a virtual host of the test's own.
    with scratch_vhost("held") as vhost:
        settings = StageSettings.from_env(worker_env(amqp_url=vhost.url, publish_retry_for="120"))
        async with Client(vhost.url) as client:
            async with running_app(settings) as app:
                await _unbind_output_and_publish(client, settings, "held")
                metrics = app.metrics

                def counted(outcome: str) -> float:
                    return metrics.value("blockdensity_pages_total", {"outcome": outcome})

                await wait_for(lambda: metrics.value("blockdensity_publish_retries_total") >= 1)
                await asyncio.to_thread(
                    rabbitmqctl, "close_all_connections", "--vhost", vhost.name, "test: held page"
                )
                # The first delivery is let go well before its 120 s, although its
                # next try would now be confirmed (the worker's reconnection binds
                # the output queue again, as its topology says), and the page is
                # delivered and fitted again.
                await wait_for(lambda: counted("publish_failed") == 1, timeout=30)
                fits = "blockdensity_fit_duration_seconds_count"
                await wait_for(lambda: metrics.value(fits) == 2, timeout=30)
                output = await client.channel.declare_queue(settings.output_queue, passive=True)
                await output.bind(settings.output_exchange, settings.output_routing_key)
                outputs = await collect(client, settings.output_queue, 2, timeout=10)
                assert counted("ok") == 1
            assert [message.message_id for message in outputs] == [
                clean_message_id("held", "https://e.org/", None)
            ]
            assert await client.is_empty(settings.input_queue)
            assert await client.is_empty(settings.dead_letter_queue)


async def test_unroutable_output_fails_the_input_until_the_broker_dead_letters_it(
    rabbitmq: None,
) -> None:
    settings = StageSettings.from_env(worker_env(delivery_limit="1", publish_retry_for="0.5"))
    async with Client(settings.amqp_url) as client:
        try:
            async with running_app(settings) as app:
                await _unbind_output_and_publish(client, settings, "unroutable")
                dead = await collect(client, settings.dead_letter_queue, 1)
                metrics = app.metrics
                await wait_for(lambda: metrics.value("blockdensity_in_flight") == 0)
                failed = metrics.value("blockdensity_pages_total", {"outcome": "publish_failed"})
                assert failed == 2  # limit 1: two deliveries
                assert metrics.value("blockdensity_last_success_timestamp_seconds") == 0
            assert [message.message_id for message in dead] == ["unroutable"]
            # Dead-lettered by the broker's delivery limit, which says so in x-death.
            (death,) = dead[0].headers["x-death"]
            assert death["reason"] == "delivery_limit"
            assert death["queue"] == settings.input_queue
            assert await client.is_empty(settings.input_queue)
            assert await client.is_empty(settings.output_queue)
        finally:
            await client.delete_topology(settings)


async def test_consumption_resumes_after_the_broker_cancels_the_consumer(
    client: Client,
    settings: StageSettings,
) -> None:
    pages = sample_pages()
    async with running_app(settings) as app:
        # Deleting the queue makes the broker cancel the consumer; the worker
        # declares it again and consumes anew.
        await client.channel.queue_delete(settings.input_queue)
        first = msgpack_page("https://e.org/first", pages[0].raw)

        async def published() -> bool:
            # Returned as unroutable until the worker has declared the queue again.
            try:
                await client.publish(
                    settings.input_queue, first, content_type="application/msgpack"
                )
            except PublishError:
                return False
            return True

        await wait_for(published, timeout=30, interval=0.2)
        for index, page in enumerate(pages[1:]):
            await client.publish(
                settings.input_queue,
                msgpack_page(f"https://e.org/{index}", page.raw),
                content_type="application/msgpack",
            )
        outputs = await collect(client, settings.output_queue, len(pages))
        assert len(outputs) == len(pages)
        assert app.health.ready()


async def test_health_and_readiness(client: Client, settings: StageSettings) -> None:
    port = settings.http_port
    async with running_app(settings) as app:
        assert http_get(port, "/healthz") == (200, "ok\n")
        assert http_get(port, "/readyz")[0] == 200
        assert http_get(port, "/nothing")[0] == 404

        # Block the event loop (as a runaway CPU-bound call would) while a
        # thread probes: the metrics thread still answers, and says the loop
        # is stuck.
        statuses: list[int] = []

        def probe() -> None:
            time.sleep(1.6)  # past the 1 s liveness timeout
            statuses.append(http_get(port, "/healthz")[0])
            statuses.append(http_get(port, "/readyz")[0])

        prober = threading.Thread(target=probe)
        prober.start()
        time.sleep(2.5)  # blocking the loop is the point
        prober.join()
        assert statuses == [503, 503]
        await wait_for(lambda: http_get(port, "/healthz")[0] == 200, timeout=5)

        status, text = http_get(port, "/metrics")
        assert status == 200
        for series in (
            'blockdensity_pages_total{outcome="publish_failed"} 0.0',
            'blockdensity_fallback_total{reason="nothing_kept"} 0.0',
            "blockdensity_page_blocks_bucket",
            "blockdensity_page_blocks_kept_bucket",
            "blockdensity_page_bytes_bucket",
            "blockdensity_fit_duration_seconds_bucket",
            "blockdensity_message_duration_seconds_bucket",
            "blockdensity_in_flight 0.0",
            'blockdensity_pool_restarts_total{reason="crashed"} 0.0',
            'blockdensity_pool_restarts_total{reason="unresponsive"} 0.0',
            "blockdensity_broker_blocked 0.0",
            "blockdensity_broker_blocked_seconds_total 0.0",
            "blockdensity_ack_failures_total 0.0",
            "blockdensity_last_success_timestamp_seconds 0.0",
        ):
            assert series in text

        app.request_stop()
        await wait_for(lambda: http_get(port, "/readyz")[0] != 200, timeout=5)
