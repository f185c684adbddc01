"""The collector against the real broker: killed mid-stream, its connection lost, WET out."""

from __future__ import annotations

import contextlib
import signal
import subprocess
import uuid
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import msgspec
import pytest
from warcio.archiveiterator import ArchiveIterator

from devkit.broker import rabbitmqctl
from devkit.client import Client
from tests.worker.programs import collected_lines, start_program, wait_until
from worker.collect.wet import record_uuid
from worker.config import StageSettings

pytestmark = pytest.mark.integration


def _clean(index: int) -> bytes:
    return msgspec.msgpack.encode({"url": f"https://c.example/{index}", "text": "t" * 200})


def _start(args: list[str], out: Path, env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    collector = start_program("worker.collect", *args, str(out), env=env, log=log)
    wait_until(lambda: "collecting" in log.read_text(), 30, "the collector to start")
    return collector


async def _publish(client: Client, queue: str, count: int, *, then: Callable[[], None]) -> None:
    """Publish `count` clean pages to `queue`, calling `then` once half of them are out."""
    for index in range(count):
        await client.publish(queue, _clean(index), content_type="application/msgpack")
        if index == count // 2:
            then()


def _rerun(args: list[str], out: Path, env: dict[str, str], log: Path, count: int) -> Counter[str]:
    """Run the collector again until idle: every page is in the files; how often each is."""
    second = start_program(
        "worker.collect", *args, "--idle-exit", "1.5", str(out), env=env, log=log
    )
    assert second.wait(120) == 0, log.read_text()
    # Each line whole JSON (a torn tail was cut).
    urls = Counter(str(line["url"]) for line in collected_lines(out, "clean-*.jsonl"))
    assert set(urls) == {f"https://c.example/{index}" for index in range(count)}
    return urls


@pytest.mark.slow
async def test_a_collector_killed_mid_stream_loses_nothing(
    tmp_path: Path, client: Client, settings: StageSettings, env: dict[str, str]
) -> None:
    count, out, log = 3000, tmp_path / "out", tmp_path / "collect.log"
    args = ["--prefetch", "50", "--flush-interval", "0.05", "--max-bytes", "100000"]
    first = _start(args, out, env, log)

    def kill() -> None:  # mid-stream: files written, batches in flight
        wait_until(lambda: len(list(out.glob("clean-*.jsonl"))) >= 2, 30, "two files")
        first.send_signal(signal.SIGKILL)
        first.wait(10)

    await _publish(client, settings.output_queue, count, then=kill)
    urls = _rerun(args, out, env, log, count)
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
    tmp_path: Path, client: Client, settings: StageSettings, env: dict[str, str]
) -> None:
    count, out, log = 2000, tmp_path / "out", tmp_path / "collect.log"
    args = ["--prefetch", "50", "--flush-interval", "0.05"]
    first = _start(args, out, env, log)

    def lose_the_connection() -> None:
        wait_until(lambda: any(out.glob("clean-*.jsonl")), 30, "a file written")
        assert _close_collector_connections() == 1

    await _publish(client, settings.output_queue, count, then=lose_the_connection)
    # Not a traceback, not a hang: one line naming the broker, status 1.
    assert first.wait(60) == 1, log.read_text()
    assert "Traceback" not in log.read_text()
    urls = _rerun(args, out, env, log, count)
    assert sum(urls.values()) - len(urls) <= 50 + 50  # at most what was unacked at the loss
    assert await client.is_empty(settings.output_queue)


async def test_the_collector_writes_wet_records_that_refer_to_their_source(
    tmp_path: Path, client: Client, settings: StageSettings, env: dict[str, str]
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
    collector = _start(["--format", "wet", "--idle-exit", "1"], out, env, log)
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
