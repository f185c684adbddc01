"""The worker's messages, as a test or a harness makes and reads them.

Input pages (the bundled samples, the development corpus's pages) encoded as
FetchedPage messages in MessagePack or JSON and published to an input
queue; outputs and dead letters read back off their queues, through the
broker closing the connection (devkit.client reconnects; reading resumes).
"""

from __future__ import annotations

import asyncio
import gzip
import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec

from devkit.client import Client, Received
from devkit.corpus import SAMPLE_DATA
from devkit.faults import SLOW_MARKER
from devkit.paths import SAMPLES
from worker.config import StageSettings

__all__ = [
    "SLOW",
    "Sample",
    "collect",
    "collect_urls",
    "corpus_pages",
    "json_page",
    "msgpack_page",
    "page_url",
    "publish_pages",
    "sample_pages",
]

# With devkit.faults' fit put in (MARKERS_FIT), a page with this marker takes
# 0.2 s longer: load that lasts long enough to be interrupted.
SLOW = f"<!-- {SLOW_MARKER} -->".encode()


# --- pages and messages ---------------------------------------------------------


@dataclass(frozen=True)
class Sample:
    """A page to send: a name (it goes into the url) and its bytes as fetched."""

    name: str
    raw: bytes


def sample_pages() -> list[Sample]:
    """The bundled sample pages (samples/*.html), by file name."""
    return [Sample(path.stem, path.read_bytes()) for path in sorted(SAMPLES.glob("*.html"))]


def corpus_pages(count: int, data: Path = SAMPLE_DATA) -> list[Sample]:
    """`count` pages of the scrapinghub set at `data` (the repository's sample; a benchmark
    passes the full sets), in the set's order, cycled when it has fewer: a page's later
    copies are named with their round (`<page_id>-1`, ...), so that every name is its own."""
    folder = data / "scrapinghub"
    truth = folder / "ground_truth.jsonl"
    ids = [json.loads(line)["page_id"] for line in truth.read_text().splitlines() if line]
    if not ids:
        raise ValueError(f"no pages in {truth}")
    pages = [
        Sample(page_id, gzip.decompress((folder / "html" / f"{page_id}.html.gz").read_bytes()))
        for page_id in ids[:count]
    ]
    cycled = []
    for index in range(count):
        round_, at = divmod(index, len(pages))
        page = pages[at]
        cycled.append(Sample(f"{page.name}-{round_}", page.raw) if round_ else page)
    return cycled


def msgpack_page(url: str, body: bytes, **fields: Any) -> bytes:
    """A FetchedPage message in MessagePack: `url`, `body` and any other `fields`."""
    return msgspec.msgpack.encode({"url": url, "body": body, **fields})


def json_page(url: str, body: str, **fields: Any) -> bytes:
    """A FetchedPage message in JSON: `url`, `body` and any other `fields`."""
    return msgspec.json.encode({"url": url, "body": body, **fields})


async def publish_pages(
    client: Client, settings: StageSettings, pages: list[Sample], *, marker: bytes = b""
) -> list[str]:
    """Publish each page (MessagePack) under url https://test.example/<i>; return the urls."""
    urls = []
    for index, page in enumerate(pages):
        url = f"https://test.example/{index}/{page.name}"
        await client.publish(
            settings.input_queue,
            msgpack_page(url, marker + page.raw, fetch_id=str(index)),
            content_type="application/msgpack",
        )
        urls.append(url)
    return urls


# --- reading queues despite reconnects ---------------------------------------------


async def collect(
    client: Client, queue: str, count: int, timeout: float = 60, *, until_empty: bool = False
) -> list[Received]:
    """Read (and ack) messages of `queue` until `count` arrive or `timeout` passes.

    With `until_empty`, only what is there now: until a read finds the queue
    empty (a read is at most 5 s, so reading a long queue on a loaded machine
    takes several). Tolerates the broker closing the client's connection (the
    robust connection reconnects; reading resumes).
    """
    got: list[Received] = []
    deadline = time.monotonic() + timeout
    while len(got) < count and time.monotonic() < deadline:
        try:
            batch = await client.drain(
                queue,
                count - len(got),
                min(5.0, deadline - time.monotonic()),
                until_empty=until_empty,
            )
        except Exception:  # noqa: BLE001 - reconnecting; try again
            await asyncio.sleep(0.2)
            continue
        got += batch
        if until_empty and not batch:
            break
    return got


def page_url(message: Received) -> str:
    """The url of a clean page or of an input page (MessagePack)."""
    decoded = msgspec.msgpack.decode(message.body)
    return str(decoded["url"])


async def collect_urls(
    client: Client, queue: str, urls: list[str], timeout: float = 90
) -> list[Received]:
    """Read outputs of `queue` until every url of `urls` has been seen (duplicates kept)."""
    got: list[Received] = []
    seen: set[str] = set()
    deadline = time.monotonic() + timeout
    while not seen >= set(urls) and time.monotonic() < deadline:
        batch = await collect(client, queue, len(urls), timeout=0.5)
        got += batch
        seen.update(page_url(message) for message in batch)
    # Duplicates of pages in flight during a failure may still be on their way.
    await asyncio.sleep(0.5)
    got += await collect(client, queue, 10 * len(urls), timeout=5, until_empty=True)
    return got
