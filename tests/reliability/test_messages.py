"""Hostile messages through a running worker: each an output, or a dead letter with its reason.

Seeded random and mutated JSON / MessagePack bodies (devkit.payloads'
PayloadGen), with random AMQP content types, are published to a worker in
this process (the shared broker, unique queue names: nothing disruptive).
Every message must come out exactly as the decoder classifies it: decoded
HTML pages as outputs, the rest dead-lettered as `invalid`, `not_html` or
`too_large`; nothing `crashed`, nothing requeued, the worker still healthy.
"""

from __future__ import annotations

import random

import pytest

from devkit.client import Client
from devkit.messages import collect, msgpack_page
from devkit.payloads import PayloadGen, classify
from devkit.workers import http_get, running_app, wait_for, worker_env
from worker.amqp.topology import HEADER_REASON
from worker.config import StageSettings
from worker.schemas import clean_message_id
from worker.stage.intake import RefusedError, admit

pytestmark = [pytest.mark.integration]

MESSAGES = 150


def _expected(body: bytes, content_type: str | None, settings: StageSettings) -> str:
    """What the worker must make of a message: "output", or the dead letter's reason.

    The message decoder's outcome comes from the decoder campaign's oracle
    (classify); the checks after decoding are worker.stage.intake's, run here
    outside the worker, so this test is about the flow: each message settled
    once, as intake says, and nothing crashing on the way.
    """
    if len(body) <= settings.max_body_bytes and classify(body, content_type).startswith("invalid"):
        return "invalid"
    try:
        admit(body, content_type=content_type, content_encoding=None, settings=settings)
    except RefusedError as error:
        return error.outcome.value
    return "output"


async def test_fuzzed_messages_are_outputs_or_dead_letters_with_their_reason(
    rabbitmq: None,
) -> None:
    settings = StageSettings.from_env(worker_env(max_body_bytes="64KiB"))
    seeds = range(20261130, 20261130 + MESSAGES)
    messages = [PayloadGen(random.Random(seed)).payload() for seed in seeds]
    # Besides: one too large, one not HTML, and the deep nesting the decoder campaign found.
    messages.append((msgpack_page("https://e.org/big", b"x" * 70_000), "application/msgpack"))
    pdf = msgpack_page("https://e.org/a.pdf", b"%PDF-1.7", content_type="application/pdf")
    messages.append((pdf, "application/msgpack"))
    messages.append(
        (b'{"url":"u","body":"b","x":' + b"[" * 5000 + b"]" * 5000 + b"}", "application/json")
    )
    expected = {
        f"fuzz-{n}": _expected(body, content_type, settings)
        for n, (body, content_type) in enumerate(messages)
    }
    async with Client(settings.amqp_url) as client:
        try:
            async with running_app(settings) as app:
                for n, (body, content_type) in enumerate(messages):
                    await client.publish(
                        settings.input_queue,
                        body,
                        content_type=content_type,
                        message_id=f"fuzz-{n}",
                    )
                outputs_wanted = sum(outcome == "output" for outcome in expected.values())
                outputs = await collect(client, settings.output_queue, outputs_wanted)
                dead = await collect(
                    client, settings.dead_letter_queue, len(messages) - outputs_wanted
                )
                metrics = app.metrics
                await wait_for(lambda: metrics.value("blockdensity_in_flight") == 0)
                for outcome in ("crashed", "timeout", "publish_failed"):
                    assert metrics.value("blockdensity_pages_total", {"outcome": outcome}) == 0
                assert http_get(settings.http_port, "/healthz")[0] == 200
            got = {message.message_id: str(message.headers[HEADER_REASON]) for message in dead}
            out_ids = {clean_message_id(mid, "", None): mid for mid in expected}
            got.update({out_ids[message.message_id or ""]: "output" for message in outputs})
            assert got == expected
            assert {"output", "invalid", "not_html", "too_large"} <= set(expected.values())
            assert await client.is_empty(settings.input_queue)
        finally:
            await client.delete_topology(settings)
