"""python -m devkit.demo (`./dev demo`): the queue stage end to end, on the sample pages.

Starts RabbitMQ if it is not answering, starts `python -m worker` with queue
names of its own, publishes each page of samples/ (MessagePack, with
blockdensity-feed's code: worker.feed), prints what
comes back (title, fallback state, the first lines of text), a summary of
the worker's /metrics, then stops the worker with SIGTERM and shows that it
exited 0. Exit status 0 when every page came back and the worker exited 0.

    python -m devkit.demo [--samples DIR] [--lines 3]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

import msgspec

from devkit.broker import ensure_rabbitmq, free_port, scratch_topology
from devkit.client import Client
from devkit.paths import SAMPLES
from worker.amqp.publisher import FeedPublisher
from worker.config import StageSettings
from worker.feed.feeder import FeedOptions, feed
from worker.feed.sources import find_sources
from worker.schemas import CleanPage

_SAMPLE = re.compile(r'^(blockdensity_[a-z_]+)(?:\{([a-z_]+)="([a-z_]+)"\})? (\S+)$')


def _get(port: int, path: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=2) as reply:
            return reply.status, reply.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, ""
    except OSError:
        return 0, ""


def _wait_ready(process: subprocess.Popen[bytes], port: int, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the worker exited with status {process.returncode}")
        if _get(port, "/readyz")[0] == 200:
            return
        time.sleep(0.1)
    raise RuntimeError(f"the worker was not ready within {timeout:g} s")


def _metrics(text: str) -> dict[tuple[str, str], float]:
    """(name, label value) -> value, for the unlabelled and single-label series."""
    values = {}
    for line in text.splitlines():
        match = _SAMPLE.match(line)
        if match:
            values[(match[1], match[3] or "")] = float(match[4])
    return values


def _show_page(name: str, page: CleanPage, lines: int) -> None:
    state = f"fallback ({page.fallback_reason})" if page.fallback else "fit"
    print(f"\n== {name}")
    print(f"   title:  {page.title or '(none)'}")
    # The language the page declares (its <html lang>) beside the one its kept
    # text is in: a page may declare one and be written in another.
    detected = (
        f"{page.lang_detected} ({page.lang_confidence:.2f})"
        if page.lang_detected is not None and page.lang_confidence is not None
        else "none"
    )
    print(f"   lang:   declared {page.lang or 'none'}, detected {detected}")
    print(
        f"   {state + ':':<7} kept {page.blocks_kept} of {page.blocks_total} blocks, "
        f"{page.words_kept} of {page.words_total} words, {page.fit_seconds * 1000:.1f} ms"
    )
    shown = [line for line in page.text.splitlines() if line.strip()][:lines]
    for line in shown:
        print(textwrap.shorten(line, 96, placeholder=" ...").join(("   | ", "")))


def _show_metrics(values: dict[tuple[str, str], float]) -> None:
    print("\n== metrics (from /metrics)")
    outcomes = {
        label: value
        for (name, label), value in values.items()
        if name == "blockdensity_pages_total" and value
    }
    print("   pages by outcome:     " + ", ".join(f"{k} {v:.0f}" for k, v in outcomes.items()))
    fallbacks = sum(v for (name, _), v in values.items() if name == "blockdensity_fallback_total")
    print(f"   fallbacks:            {fallbacks:.0f}")
    for label, series in (
        ("fit, mean", "blockdensity_fit_duration_seconds"),
        ("receipt to ack, mean", "blockdensity_message_duration_seconds"),
    ):
        count = values.get((f"{series}_count", ""), 0.0)
        total = values.get((f"{series}_sum", ""), 0.0)
        print(f"   {label + ':':22}{total / count * 1000 if count else 0:.1f} ms")
    bytes_count = values.get(("blockdensity_page_bytes_count", ""), 0.0)
    bytes_sum = values.get(("blockdensity_page_bytes_sum", ""), 0.0)
    kib = bytes_sum / bytes_count / 1024 if bytes_count else 0.0
    print(f"   page size, mean:      {kib:.0f} KiB")
    restarts = sum(
        value for (name, _), value in values.items() if name == "blockdensity_pool_restarts_total"
    )
    failures = values.get(("blockdensity_ack_failures_total", ""), 0.0)
    print(f"   pool restarts:        {restarts:.0f}    ack failures: {failures:.0f}")


async def _demo(samples: list[Path], lines: int) -> int:
    port = free_port()
    env = {
        **scratch_topology("demo"),
        "BLOCKDENSITY_HTTP_HOST": "127.0.0.1",
        "BLOCKDENSITY_HTTP_PORT": str(port),
    }
    settings = StageSettings.from_env({**os.environ, **env})
    log = Path(tempfile.gettempdir()) / f"blockdensity-demo-{settings.input_queue}.log"
    print(f"starting: python -m worker  (queue {settings.input_queue})")
    with log.open("wb") as out:
        worker = subprocess.Popen(
            [sys.executable, "-m", "worker"],
            env={**os.environ, **env},
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    async with Client(settings.amqp_url) as client:
        try:
            await asyncio.to_thread(_wait_ready, worker, port)
            print(f"ready:    http://127.0.0.1:{port}/readyz says so")
            # Published as a crawl is: by blockdensity-feed's own code (HTML files in).
            # A crawler's URL is absolute http(s); .invalid never resolves.
            publisher = FeedPublisher(settings, 30)
            await publisher.connect()
            try:
                sources = find_sources(samples, base_url="https://samples.invalid/")
                await feed(sources, FeedOptions(), publisher=publisher)
            finally:
                await publisher.close()
            print(f"published {len(samples)} pages from {os.path.relpath(samples[0].parent)}")
            outputs = await client.drain(settings.output_queue, len(samples), timeout=60)
            pages = sorted(
                (msgspec.msgpack.decode(message.body, type=CleanPage) for message in outputs),
                key=lambda page: page.url,
            )
            for page in pages:
                _show_page(Path(urlsplit(page.url).path).stem, page, lines)
            _show_metrics(_metrics(_get(port, "/metrics")[1]))
        finally:
            worker.send_signal(signal.SIGTERM)
            code = await asyncio.to_thread(worker.wait, 60)
            await client.delete_topology(settings)
    print(f"\nSIGTERM sent: the worker exited with status {code}")
    if len(pages) != len(samples) or code != 0:
        print(f"{len(pages)} of {len(samples)} pages came back, exit status {code}; see {log}")
        return 1
    log.unlink()  # kept only when something went wrong
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m devkit.demo", description=__doc__)
    parser.add_argument("--samples", type=Path, default=SAMPLES, help="folder of *.html pages")
    parser.add_argument("--lines", type=int, default=3, help="lines of text shown per page")
    args = parser.parse_args(argv)
    samples = sorted(args.samples.glob("*.html"))
    if not samples:
        parser.error(f"no *.html pages in {args.samples}")
    ensure_rabbitmq()
    return asyncio.run(_demo(samples, args.lines))


if __name__ == "__main__":
    sys.exit(main())
