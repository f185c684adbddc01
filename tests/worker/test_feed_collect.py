"""The feeder and the collector against the real broker: resume after kill -9, a collector
crash, and a crawl end to end (WARC -> feed -> worker -> collect -> the fit's text)."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
import uuid
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest
from warcio.archiveiterator import ArchiveIterator

from blockdensity import fit_text
from devkit.broker import rabbitmqctl
from devkit.client import Client
from devkit.corpus import DEFAULT_DATA
from devkit.messages import collect, corpus_pages, page_url
from devkit.paths import ROOT
from devkit.warcs import WarcPageSpec, write_warc
from devkit.workers import WorkerProcess, start_worker
from worker.amqp import FeedPublisher, PublishFailedError
from worker.config import Settings
from worker.sources import MSGPACK, feed_message_id
from worker.wet import record_uuid

pytestmark = pytest.mark.integration

CC = DEFAULT_DATA / "warc" / "cc-main-2024-22-one-page.warc.gz"


def _command(module: str, *args: str, env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    with log.open("ab") as out:
        return subprocess.Popen(  # noqa: S603 - our own interpreter and modules
            [sys.executable, "-m", module, *args],
            env={**os.environ, **env},
            cwd=ROOT,
            stdout=out,
            stderr=subprocess.STDOUT,
        )


def _wait(condition: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    pytest.fail(f"{what} within {timeout:g} s")


def _checkpointed_offset(path: Path) -> int:
    try:
        data = json.loads(path.read_text())
    except (FileNotFoundError, ValueError):
        return 0
    return max((mark["offset"] for mark in data["files"].values()), default=0)


@pytest.mark.slow
async def test_a_feed_killed_and_restarted_delivers_every_page_with_at_most_the_window_twice(
    tmp_path: Path, client: Client, settings: Settings, env: dict[str, str]
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

    first = _command("worker.feed", *args, "--rate", "400", str(warc), env=env, log=log)
    # Killed with pages confirmed and checkpointed, well before the end.
    _wait(lambda: _checkpointed_offset(checkpoint) > warc.stat().st_size // 4, 30, "a checkpoint")
    first.send_signal(signal.SIGKILL)
    first.wait(10)
    killed_at = _checkpointed_offset(checkpoint)
    assert 0 < killed_at < warc.stat().st_size

    second = _command("worker.feed", *args, str(warc), env=env, log=log)
    assert second.wait(60) == 0, log.read_text()
    assert "resuming at offset" in log.read_text()

    got = await collect(client, settings.input_queue, 2 * pages, timeout=30, until_empty=True)
    counts = Counter(message.message_id for message in got)
    assert set(counts) == expected  # every page, nothing else
    duplicates = sum(counts.values()) - len(counts)
    print(f"killed at offset {killed_at}: {duplicates} duplicates, window {window}")
    assert duplicates <= window
    # A third run has nothing left to do.
    third = _command("worker.feed", *args, str(warc), env=env, log=log)
    assert third.wait(30) == 0
    assert "fed completely before" in log.read_text()
    assert await client.is_empty(settings.input_queue)


def _clean(index: int) -> bytes:
    return msgspec.msgpack.encode({"url": f"https://c.example/{index}", "text": "t" * 200})


def _lines(folder: Path, pattern: str) -> list[dict[str, Any]]:
    lines = []
    for path in sorted(folder.glob(pattern)):
        lines += [json.loads(line) for line in path.read_text().splitlines()]
    return lines


@pytest.mark.slow
async def test_a_collector_killed_mid_stream_loses_nothing(
    tmp_path: Path, client: Client, settings: Settings, env: dict[str, str]
) -> None:
    count = 3000
    out = tmp_path / "out"
    log = tmp_path / "collect.log"
    args = ["--prefetch", "50", "--flush-interval", "0.05", "--max-bytes", "100000", str(out)]
    first = _command("worker.collect", *args, env=env, log=log)
    _wait(lambda: "collecting" in log.read_text(), 30, "the collector to start")
    for index in range(count):
        await client.publish(
            settings.output_queue, _clean(index), content_type="application/msgpack"
        )
        if index == count // 3:
            # Mid-stream: files written, batches in flight.
            _wait(lambda: len(list(out.glob("clean-*.jsonl"))) >= 2, 30, "two files")
            first.send_signal(signal.SIGKILL)
            first.wait(10)
    second = _command(
        "worker.collect", *args[:-1], "--idle-exit", "1.5", str(out), env=env, log=log
    )
    assert second.wait(120) == 0, log.read_text()
    lines = _lines(out, "clean-*.jsonl")  # each line whole JSON (a torn tail was cut)
    urls = Counter(str(line["url"]) for line in lines)
    assert set(urls) == {f"https://c.example/{index}" for index in range(count)}
    assert sum(urls.values()) - len(urls) <= 50 + 50  # at most what was unacked at the kill
    files = sorted(out.glob("clean-*.jsonl"))
    assert len(files) >= 3  # rotated
    assert all(path.stat().st_size < 100000 + 60 * 300 for path in files)
    assert await client.is_empty(settings.output_queue)


def _close_collector_connections() -> int:
    """Close, broker side, every connection the collector opened (by its connection_name)."""
    listing = rabbitmqctl("list_connections", "--quiet", "pid", "client_properties").stdout
    pids = [
        line.split("\t", 1)[0] for line in listing.splitlines() if "blockdensity-collect" in line
    ]
    for pid in pids:
        rabbitmqctl("close_connection", pid, "test: the collector's connection is lost")
    return len(pids)


@pytest.mark.slow
async def test_a_collector_that_loses_its_connection_exits_1_and_a_rerun_loses_nothing(
    tmp_path: Path, client: Client, settings: Settings, env: dict[str, str]
) -> None:
    count = 2000
    out = tmp_path / "out"
    log = tmp_path / "collect.log"
    args = ["--prefetch", "50", "--flush-interval", "0.05", str(out)]
    first = _command("worker.collect", *args, env=env, log=log)
    _wait(lambda: "collecting" in log.read_text(), 30, "the collector to start")
    for index in range(count):
        await client.publish(
            settings.output_queue, _clean(index), content_type="application/msgpack"
        )
        if index == count // 2:
            _wait(lambda: any(out.glob("clean-*.jsonl")), 30, "a file written")
            assert _close_collector_connections() == 1
    # Not a traceback, not a hang: one line naming the broker, status 1.
    assert first.wait(60) == 1, log.read_text()
    assert "Traceback" not in log.read_text()
    second = _command(
        "worker.collect", *args[:-1], "--idle-exit", "1.5", str(out), env=env, log=log
    )
    assert second.wait(120) == 0, log.read_text()
    urls = Counter(str(line["url"]) for line in _lines(out, "clean-*.jsonl"))
    assert set(urls) == {f"https://c.example/{index}" for index in range(count)}
    assert sum(urls.values()) - len(urls) <= 50 + 50  # at most what was unacked at the loss
    assert await client.is_empty(settings.output_queue)


@pytest.mark.slow
async def test_a_crawl_end_to_end_every_text_is_the_fit_of_its_bytes(
    tmp_path: Path,
    client: Client,
    settings: Settings,
    env: dict[str, str],
    worker_processes: list[WorkerProcess],
) -> None:
    samples = corpus_pages(40)
    codings: list[dict[str, Any]] = [
        {},
        {"content_encoding": "gzip"},
        {"chunked": True},
        {"charset": "utf-8"},
    ]
    specs = [
        WarcPageSpec(f"https://e2e.example/{i}/{sample.name}", sample.raw, **codings[i % 4])
        for i, sample in enumerate(samples)
    ]
    specs.append(WarcPageSpec("https://e2e.example/gone", samples[0].raw, status=404))
    warc = tmp_path / "crawl.warc.gz"
    write_warc(warc, specs)
    out = tmp_path / "out"
    logs = tmp_path / "logs"
    logs.mkdir()
    feed = _command(
        "worker.feed",
        "--checkpoint",
        str(tmp_path / "cp.json"),
        str(warc),
        str(CC),
        env=env,
        log=logs / "feed.log",
    )
    assert feed.wait(120) == 0, (logs / "feed.log").read_text()
    worker_processes.append(start_worker(env, logs / "worker.log"))
    collector = _command("worker.collect", str(out), env=env, log=logs / "collect.log")
    try:
        _wait(
            lambda: (
                len(_lines(out, "clean-*.jsonl")) >= len(samples) + 1
                and len(_lines(out, "dead-letters-*.jsonl")) >= 1
            ),
            120,
            "every page collected",
        )
    finally:
        collector.send_signal(signal.SIGTERM)
        assert collector.wait(30) == 0
    by_url = {str(line["url"]): line for line in _lines(out, "clean-*.jsonl")}
    for spec in specs[:-1]:
        expected = fit_text(spec.body, charset=spec.charset).text
        assert by_url[spec.url]["text"] == expected, spec.url
    cc = by_url["https://an.wikipedia.org/wiki/Escopete"]
    assert cc["fetch_id"] == "<urn:uuid:2aabeff2-67f5-4608-8466-e87c6296e2b6>"
    # `blockdensity PAGE` prints the same text.
    page = tmp_path / "page.html"
    page.write_bytes(specs[1].body)
    printed = subprocess.run(  # noqa: S603 - our own interpreter and modules
        [str(Path(sys.executable).with_name("blockdensity")), str(page)],
        capture_output=True,
        check=True,
        cwd=ROOT,
        timeout=60,
    ).stdout.decode()
    assert printed == by_url[specs[1].url]["text"] + "\n"
    # The 404 is a dead letter, with its reason, and feeds back as it is.
    (dead,) = _lines(out, "dead-letters-*.jsonl")
    assert dead["url"] == "https://e2e.example/gone"
    assert dead["dead_letter"]["reason"] == "status"
    refeed = subprocess.run(  # noqa: S603 - our own interpreter and modules
        [sys.executable, "-m", "worker.feed", "--dry-run", *sorted(map(str, out.glob("dead-*")))],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    assert refeed.returncode == 0
    assert refeed.stdout.startswith("1 records, 1 pages read")


async def test_the_collector_writes_wet_records_that_refer_to_their_source(
    tmp_path: Path, client: Client, settings: Settings, env: dict[str, str]
) -> None:
    record_id = "<urn:uuid:2aabeff2-67f5-4608-8466-e87c6296e2b6>"
    body = msgspec.msgpack.encode(
        {
            "url": "https://w.example/",
            "title": "T",
            "text": "first\nsecond",
            "lang": "en",
            "fetch_id": record_id,
        }
    )
    out = tmp_path / "out"
    log = tmp_path / "collect.log"
    collector = _command(
        "worker.collect", "--format", "wet", "--idle-exit", "1", str(out), env=env, log=log
    )
    _wait(lambda: "collecting" in log.read_text(), 30, "the collector to start")
    await client.publish(
        settings.output_queue, body, content_type="application/msgpack", message_id="ab" * 16
    )
    assert collector.wait(60) == 0, log.read_text()
    (path,) = out.glob("clean-*.warc.wet.gz")
    with path.open("rb") as stream:  # warcio streams: each block read as it comes
        records = [
            (record.rec_type, record.rec_headers, record.content_stream().read())
            for record in ArchiveIterator(stream)
        ]
    assert [kind for kind, _, _ in records] == ["warcinfo", "conversion"]
    _, headers, block = records[1]
    assert headers.get_header("WARC-Refers-To") == record_id
    assert headers.get_header("WARC-Target-URI") == "https://w.example/"
    record = headers.get_header("WARC-Record-ID")
    assert record == record_uuid("ab" * 16, "https://elsewhere.example/")  # the id's, not the url's
    assert record != record_uuid("cd" * 16, "https://w.example/")
    assert uuid.UUID(record.removeprefix("<urn:uuid:").removesuffix(">")).version == 5
    assert headers.get_header("Content-Type") == "text/plain"
    assert block == b"T\nfirst\nsecond"
    with contextlib.suppress(Exception):
        await client.channel.queue_delete(settings.dead_letter_queue)


async def test_a_publish_no_queue_takes_fails_and_is_not_counted_confirmed(
    client: Client, settings: Settings
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
    tmp_path: Path, client: Client, settings: Settings, env: dict[str, str]
) -> None:
    specs = [WarcPageSpec(f"https://term.example/{i}", b"<p>page %d</p>" % i) for i in range(300)]
    warc = tmp_path / "crawl.warc"  # plain, not gzipped: offsets are the file's own
    write_warc(warc, specs, gzipped=False)
    checkpoint = tmp_path / "feed.json"
    log = tmp_path / "feed.log"
    args = ["--checkpoint", str(checkpoint), "--window", "20", "--progress", "log"]
    first = _command("worker.feed", *args, "--rate", "150", str(warc), env=env, log=log)
    _wait(lambda: _checkpointed_offset(checkpoint) > 0, 30, "a checkpoint")
    first.send_signal(signal.SIGTERM)
    assert first.wait(30) == 130, log.read_text()
    stopped_at = _checkpointed_offset(checkpoint)
    assert 0 < stopped_at < warc.stat().st_size
    assert "Traceback" not in log.read_text()
    second = _command("worker.feed", *args, str(warc), env=env, log=log)
    assert second.wait(60) == 0, log.read_text()
    got = await collect(client, settings.input_queue, 600, timeout=20, until_empty=True)
    urls = Counter(page_url(message) for message in got)
    assert set(urls) == {spec.url for spec in specs}
    assert sum(urls.values()) - len(urls) <= 20
