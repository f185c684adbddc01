"""The feeder against the real broker: resume after kill -9 and after SIGTERM, a publish
no queue takes."""

from __future__ import annotations

import signal
from collections import Counter
from pathlib import Path

import pytest

from devkit.client import Client
from devkit.messages import collect, corpus_pages, page_url
from devkit.warcs import WarcPageSpec, write_warc
from tests.worker.programs import checkpointed_offset, start_program, wait_until
from worker.amqp.errors import PublishFailedError
from worker.amqp.publisher import FeedPublisher
from worker.config import StageSettings
from worker.feed.inputs import MSGPACK, feed_message_id

pytestmark = pytest.mark.integration


@pytest.mark.slow
async def test_a_feed_killed_and_restarted_delivers_every_page_with_at_most_the_window_twice(
    tmp_path: Path, client: Client, settings: StageSettings, env: dict[str, str]
) -> None:
    pages = 800
    window = 40
    samples = corpus_pages(50)
    # Corpus pages cut to 4 KB: the run is about records and offsets, not volume.
    specs = [
        WarcPageSpec(f"https://resume.example/{i}", samples[i % len(samples)].raw[:4096])
        for i in range(pages)
    ]
    warc = tmp_path / "crawl.warc.gz"
    ids = write_warc(warc, specs)
    expected = {feed_message_id(spec.url, record) for spec, record in zip(specs, ids, strict=True)}
    checkpoint = tmp_path / "feed.json"
    log = tmp_path / "feed.log"
    args = ["--checkpoint", str(checkpoint), "--window", str(window), "--progress", "log"]

    # Killed with pages confirmed and checkpointed, well before the end: at
    # 100 pages/s the first quarter takes 2 s, the rest 6 s more, room enough
    # for the kill to land on a loaded machine (at 400 pages/s the feeder
    # could finish first when the test ran beside a CPU-bound one).
    first = start_program("worker.feed", *args, "--rate", "100", str(warc), env=env, log=log)
    wait_until(
        lambda: checkpointed_offset(checkpoint) > warc.stat().st_size // 4, 30, "a checkpoint"
    )
    first.send_signal(signal.SIGKILL)
    first.wait(10)
    killed_at = checkpointed_offset(checkpoint)
    assert 0 < killed_at < warc.stat().st_size

    second = start_program("worker.feed", *args, str(warc), env=env, log=log)
    assert second.wait(60) == 0, log.read_text()
    assert "resuming at offset" in log.read_text()

    # until_empty stops the read once the queue is drained; the timeout only
    # bounds a read that a loaded machine (load 11 seen) makes slow.
    got = await collect(client, settings.input_queue, 2 * pages, timeout=120, until_empty=True)
    counts = Counter(message.message_id for message in got)
    assert set(counts) == expected  # every page, nothing else
    duplicates = sum(counts.values()) - len(counts)
    print(f"killed at offset {killed_at}: {duplicates} duplicates, window {window}")
    assert duplicates <= window
    # A third run has nothing left to do.
    third = start_program("worker.feed", *args, str(warc), env=env, log=log)
    assert third.wait(30) == 0
    assert "fed completely before" in log.read_text()
    assert await client.is_empty(settings.input_queue)


async def test_a_publish_no_queue_takes_fails_and_is_not_counted_confirmed(
    client: Client, settings: StageSettings
) -> None:
    publisher = FeedPublisher(settings, 10)
    await publisher.connect()
    try:
        routed = publisher.publish(b"x", content_type=MSGPACK, message_id="m1", url="https://x/")
        await routed
        publisher._queues = (f"{settings.input_queue}.absent",)  # a route lost
        lost = publisher.publish(b"x", content_type=MSGPACK, message_id="m2", url="https://x/")
        with pytest.raises(PublishFailedError, match="returned unroutable"):
            await lost
    finally:
        await publisher.close()


@pytest.mark.slow
async def test_sigterm_saves_the_checkpoint_and_a_second_run_finishes(
    tmp_path: Path, client: Client, settings: StageSettings, env: dict[str, str]
) -> None:
    specs = [WarcPageSpec(f"https://term.example/{i}", b"<p>page %d</p>" % i) for i in range(300)]
    warc = tmp_path / "crawl.warc"  # plain, not gzipped: offsets are the file's own
    write_warc(warc, specs, gzipped=False)
    checkpoint = tmp_path / "feed.json"
    log = tmp_path / "feed.log"
    args = ["--checkpoint", str(checkpoint), "--window", "20", "--progress", "log"]
    first = start_program("worker.feed", *args, "--rate", "150", str(warc), env=env, log=log)
    wait_until(lambda: checkpointed_offset(checkpoint) > 0, 30, "a checkpoint")
    first.send_signal(signal.SIGTERM)
    assert first.wait(30) == 130, log.read_text()
    stopped_at = checkpointed_offset(checkpoint)
    assert 0 < stopped_at < warc.stat().st_size
    assert "Traceback" not in log.read_text()
    second = start_program("worker.feed", *args, str(warc), env=env, log=log)
    assert second.wait(60) == 0, log.read_text()
    got = await collect(client, settings.input_queue, 600, timeout=20, until_empty=True)
    urls = Counter(page_url(message) for message in got)
    assert set(urls) == {spec.url for spec in specs}
    assert sum(urls.values()) - len(urls) <= 20
