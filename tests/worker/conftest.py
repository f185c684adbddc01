"""The worker tests' fixtures: the real broker, unique topologies, workers in and out of process.

Integration tests talk to the RabbitMQ on 127.0.0.1:5672, started here if it
is not answering. Every test gets its own queue and exchange names (a random
suffix) and deletes them afterwards.
"""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec
import pytest

from devkit.faults import SLOW_MARKER
from worker.amqp import Client, Received
from worker.app import App
from worker.config import Settings, load_settings
from worker.devbroker import ensure_rabbitmq, free_port, scratch_topology

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"
sys.path.insert(0, str(ROOT / "bench"))
from corpus import DEFAULT_DATA as DATA  # noqa: E402 - the corpus location, in one place
from procs import descendants  # noqa: E402 - also the benchmarks' process helpers


@pytest.fixture(scope="session")
def rabbitmq() -> None:
    try:
        ensure_rabbitmq()
    except RuntimeError as error:
        pytest.fail(f"no RabbitMQ for the integration tests: {error}")


def worker_env(**overrides: str) -> dict[str, str]:
    """BLOCKDENSITY_* variables for one test: unique names, a free port, short timeouts."""
    env = {
        **scratch_topology("test"),
        "BLOCKDENSITY_HTTP_HOST": "127.0.0.1",
        "BLOCKDENSITY_HTTP_PORT": str(free_port()),
        "BLOCKDENSITY_POOL_SIZE": "2",
        "BLOCKDENSITY_RECONNECT_INTERVAL": "0.5",
        "BLOCKDENSITY_LIVENESS_TIMEOUT": "1",
        "BLOCKDENSITY_GRACE_PERIOD": "10",
    }
    env.update({f"BLOCKDENSITY_{key.upper()}": value for key, value in overrides.items()})
    return env


@pytest.fixture
def env() -> dict[str, str]:
    return worker_env()


@pytest.fixture
def settings(env: dict[str, str]) -> Settings:
    return load_settings(env)


@pytest.fixture
async def client(rabbitmq: None, settings: Settings) -> AsyncIterator[Client]:
    async with Client(settings.amqp_url) as connected:
        yield connected
        await connected.delete_topology(settings)


# --- pages and messages ---------------------------------------------------------


@dataclass(frozen=True)
class Sample:
    name: str
    raw: bytes


def sample_pages() -> list[Sample]:
    return [Sample(path.stem, path.read_bytes()) for path in sorted(SAMPLES.glob("*.html"))]


def corpus_pages(count: int) -> list[Sample]:
    """The first `count` pages of the scrapinghub development set, else the samples, cycled."""
    folder = DATA / "scrapinghub"
    truth = folder / "ground_truth.jsonl"
    if not truth.exists():
        samples = sample_pages()
        cycled = [samples[index % len(samples)] for index in range(count)]
        return [Sample(f"{page.name}-{index}", page.raw) for index, page in enumerate(cycled)]
    ids = [json.loads(line)["page_id"] for line in truth.read_text().splitlines() if line]
    return [
        Sample(page_id, gzip.decompress((folder / "html" / f"{page_id}.html.gz").read_bytes()))
        for page_id in ids[:count]
    ]


def msgpack_page(url: str, body: bytes, **fields: Any) -> bytes:
    return msgspec.msgpack.encode({"url": url, "body": body, **fields})


def json_page(url: str, body: str, **fields: Any) -> bytes:
    return msgspec.json.encode({"url": url, "body": body, **fields})


# With devkit.faults' fit put in (MARKERS_FIT), a page with this marker takes
# 0.2 s longer: load that lasts long enough to be interrupted.
SLOW = f"<!-- {SLOW_MARKER} -->".encode()


async def publish_pages(
    client: Client, settings: Settings, pages: list[Sample], *, marker: bytes = b""
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

    With `until_empty`, only what is there now. Tolerates the broker closing
    the client's connection (the robust connection reconnects; reading resumes).
    """
    got: list[Received] = []
    deadline = time.monotonic() + timeout
    while len(got) < count and time.monotonic() < deadline:
        try:
            got += await client.drain(
                queue,
                count - len(got),
                min(5.0, deadline - time.monotonic()),
                until_empty=until_empty,
            )
        except Exception:  # noqa: BLE001 - reconnecting; try again
            await asyncio.sleep(0.2)
            continue
        if until_empty:
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


async def wait_for(condition: Any, timeout: float = 30, interval: float = 0.05) -> None:
    """Poll `condition()` (sync or async) until true; fail after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        result = condition()
        if asyncio.iscoroutine(result):
            result = await result
        if result:
            return
        await asyncio.sleep(interval)
    pytest.fail(f"condition not met within {timeout} s")


def http_get(port: int, path: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5) as reply:
            return reply.status, reply.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()
    except OSError as error:
        return 0, str(error)


# --- a worker in this process --------------------------------------------------------


@contextlib.asynccontextmanager
async def running_app(settings: Settings) -> AsyncIterator[App]:
    """An App serving `settings` in this event loop, ready when entered, stopped on exit."""
    app = App(settings)
    task = asyncio.create_task(app.run())
    try:
        await wait_for(lambda: task.done() or app.health.ready(), timeout=30)
        if task.done():
            task.result()  # raises what went wrong
        yield app
    finally:
        if not task.done() and not app.stop_requested:
            app.request_stop()
        await asyncio.wait_for(task, 60)


# --- a worker in a subprocess --------------------------------------------------------


@dataclass
class WorkerProcess:
    process: subprocess.Popen[bytes]
    log: Path
    port: int

    def descendants(self) -> list[int]:
        return descendants(self.process.pid)

    def log_text(self) -> str:
        return self.log.read_text(errors="replace")


def start_worker(env: dict[str, str], log: Path) -> WorkerProcess:
    """`python -m worker` with `env`, its output in `log`; returns once /readyz says ready."""
    with log.open("ab") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "worker"],
            env={**os.environ, **env},
            cwd=ROOT,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    port = int(env["BLOCKDENSITY_HTTP_PORT"])
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"worker exited {process.returncode}:\n{log.read_text()}")
        if http_get(port, "/readyz")[0] == 200:
            return WorkerProcess(process, log, port)
        time.sleep(0.05)
    process.kill()
    raise AssertionError(f"worker not ready within 60 s:\n{log.read_text()}")


@pytest.fixture
def worker_processes() -> Iterator[list[WorkerProcess]]:
    """Started workers go here; whatever is still running at the end is killed."""
    started: list[WorkerProcess] = []
    yield started
    for worker in started:
        if worker.process.poll() is None:
            children = worker.descendants()
            worker.process.kill()
            worker.process.wait(10)
            for pid in children:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
