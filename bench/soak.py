"""Soak: steady load at a fraction of the measured throughput; memory, throughput and p99 over time.

1. Measure: `python -m worker` starts (defaults: a pool of one process per
   CPU, a child replaced every 1,000 pages) and is saturated the way the soak
   will run it: this script publishes (the development corpus, cycled) and
   reads the outputs at the same time, on the same CPUs, with 400 messages
   in flight. Throughput = outputs per second over `--measure-seconds`, after
   a 10 s warm-up.
2. Soak: for `--minutes`, the same worker gets pages at `--fraction` (0.8) of
   that rate, paced from a fixed schedule (the corpus in a seeded random
   order). Every 10 s the RSS of the worker's parent, of its forkserver and of
   each live pool child is sampled from /proc. Per minute (by publish time):
   pages published, outputs, output rate, latency p50/p99 (publish -> output
   received by this script), the backlog (published, no output yet) at the
   minute's end, the parent's RSS and the pool children's. At the end, the
   outputs still missing are told apart from the pages still queued.
3. Memory: least-squares slope (MiB per hour) of the parent's RSS, the
   forkserver's, the children's mean, and the total, over the samples after
   the first minute (the warm-up), and the total's first and last.

The broker is a private node (devkit.rabbitnode): the soak neither loads the
shared broker nor depends on it. The worker logs to `--log` (WARNING level).

    python -m bench.soak [--minutes 30] [--fraction 0.8] [--rate PAGES_PER_S] [--seed 7]
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import math
import random
import signal
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from bench.worker_e2e import page_message
from devkit.client import Client, Received
from devkit.corpus import DEFAULT_DATA, Page, load_pages
from devkit.procs import children
from devkit.rabbitnode import PrivateRabbit
from devkit.workers import WorkerProcess, start_worker, worker_env
from worker.config import StageSettings
from worker.schemas import clean_message_id

SAMPLE_INTERVAL = 10.0
WINDOW = 400  # messages in flight while measuring: the queue never runs dry
MIB = 1024 * 1024


# ------------------------------------------------------------------ processes


def _rss_mib(pid: int) -> float | None:
    """Resident set size of `pid` in MiB (None once it is gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024 / MIB
    except OSError:
        return None
    return None


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


@dataclass
class Sample:
    at: float  # seconds since the soak began
    parent: float
    forkserver: float
    children: dict[int, float]  # pid -> RSS MiB
    backlog: int = 0  # published, output not yet received

    @property
    def children_mean(self) -> float:
        return statistics.fmean(self.children.values()) if self.children else 0.0

    @property
    def total(self) -> float:
        return self.parent + self.forkserver + sum(self.children.values())


def sample(worker: WorkerProcess, at: float) -> Sample:
    """The worker's processes: parent -> forkserver -> pool children (and a resource tracker)."""
    parent = worker.process.pid
    forkserver = 0.0
    pool: dict[int, float] = {}  # RSS by pool child
    for pid in children(parent):
        if "forkserver" not in _cmdline(pid):
            continue  # multiprocessing's resource tracker
        forkserver = _rss_mib(pid) or 0.0
        for child in children(pid):
            rss = _rss_mib(child)
            if rss is not None:
                pool[child] = rss
    return Sample(at, _rss_mib(parent) or 0.0, forkserver, pool)


def slope_per_hour(points: list[tuple[float, float]]) -> float:
    """Least-squares slope of (seconds, MiB) points, in MiB per hour."""
    if len(points) < 2:
        return float("nan")
    xs = [x for x, _ in points]
    ys = [y for _, y in points]
    mean_x, mean_y = statistics.fmean(xs), statistics.fmean(ys)
    var = sum((x - mean_x) ** 2 for x in xs)
    if var == 0:
        return float("nan")
    return sum((x - mean_x) * (y - mean_y) for x, y in points) / var * 3600


def percentile(values: list[float], fraction: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


# ------------------------------------------------------------------- messages


def message(page: Page, number: int) -> tuple[str, bytes]:
    message_id = f"soak-{number}"
    return message_id, page_message(page, message_id)


@dataclass
class Tracker:
    """Publish and arrival times by output message_id."""

    sent: dict[str, float] = field(default_factory=dict)  # output id -> publish time
    arrived: dict[str, float] = field(default_factory=dict)  # output id -> first arrival
    duplicates: int = 0
    done: asyncio.Event = field(default_factory=asyncio.Event)
    expected: int = 0

    def on_output(self, received: Received) -> None:
        key = received.message_id or ""
        if self.sent and key not in self.sent:
            return  # a late duplicate of the measuring phase
        if key in self.arrived:
            self.duplicates += 1
            return
        self.arrived[key] = received.received
        if len(self.arrived) >= self.expected:
            self.done.set()


async def publish_one(client: Client, queue: str, message_id: str, body: bytes) -> None:
    while True:
        try:
            await client.publish(
                queue, body, content_type="application/msgpack", message_id=message_id
            )
        except Exception as error:  # noqa: BLE001 - retried: the soak must not drop pages
            logging.getLogger("soak").warning("publish %s failed (%r); retrying", message_id, error)
            await asyncio.sleep(0.5)
        else:
            return


# ---------------------------------------------------------------------- phases


@dataclass
class Stage:
    """The broker side of the run: a publishing client, the settings, the worker's env."""

    publisher: Client
    settings: StageSettings
    env: dict[str, str]
    pages: list[Page]


async def measure(stage: Stage, seconds: float, log: Path) -> tuple[WorkerProcess, float]:
    """Saturate the worker as the soak will run it (this script publishing and reading
    at the same time, on the same CPUs): WINDOW messages in flight, for a 10 s warm-up
    and then `seconds`. Returns the worker and its output rate over those seconds."""
    publisher, settings, pages = stage.publisher, stage.settings, stage.pages
    worker = await asyncio.to_thread(start_worker, stage.env, log)
    tracker = Tracker(expected=1 << 62)
    window = asyncio.Semaphore(WINDOW)
    tasks: set[asyncio.Task[None]] = set()

    def on_output(received: Received) -> None:
        tracker.on_output(received)
        window.release()

    async def publish(number: int) -> None:
        mid, body = message(pages[number % len(pages)], number)
        await publish_one(publisher, settings.input_queue, mid, body)

    async with Client(settings.amqp_url) as reader:
        await reader.consume(settings.output_queue, on_output)
        start = time.monotonic()
        warm, counted_from, number = start + 10, 0, 0
        while time.monotonic() < warm + seconds:
            await window.acquire()
            if not counted_from and time.monotonic() >= warm:
                counted_from = len(tracker.arrived)
            task = asyncio.create_task(publish(number))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
            number += 1
        rate = (len(tracker.arrived) - counted_from) / (time.monotonic() - warm)
        await asyncio.gather(*tasks)
        tracker.expected = number
        await asyncio.wait_for(tracker.done.wait(), 300)  # the window drains before the soak
    return worker, rate


@dataclass
class SoakResult:
    tracker: Tracker
    samples: list[Sample]
    start: float
    published_at: dict[str, float]  # output id -> seconds since start (publish time)


async def soak(
    stage: Stage, worker: WorkerProcess, rate: float, minutes: float, seed: int
) -> SoakResult:
    publisher, settings, pages = stage.publisher, stage.settings, stage.pages
    rng = random.Random(seed)
    order = list(range(len(pages)))
    tracker = Tracker()
    samples: list[Sample] = []
    published_at: dict[str, float] = {}
    duration = minutes * 60
    total = int(rate * duration)
    tracker.expected = total
    slots = asyncio.Semaphore(64)  # publishes awaiting their confirm at once
    tasks: set[asyncio.Task[None]] = set()
    start = time.monotonic()

    async def publish(number: int, page: Page) -> None:
        async with slots:
            mid, body = message(page, 10_000_000 + number)
            out = clean_message_id(mid, "", None)
            sent = time.monotonic()
            tracker.sent[out] = sent
            published_at[out] = sent - start
            await publish_one(publisher, settings.input_queue, mid, body)

    async def sampler() -> None:
        while True:
            taken = sample(worker, time.monotonic() - start)
            taken.backlog = len(tracker.sent) - len(tracker.arrived)
            samples.append(taken)
            await asyncio.sleep(SAMPLE_INTERVAL)

    async with Client(settings.amqp_url) as reader:
        await reader.consume(settings.output_queue, tracker.on_output)
        sampling = asyncio.create_task(sampler())
        for number in range(total):
            if number % len(pages) == 0:
                rng.shuffle(order)
            delay = start + number / rate - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            task = asyncio.create_task(publish(number, pages[order[number % len(pages)]]))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
        await asyncio.gather(*tasks)
        try:
            await asyncio.wait_for(tracker.done.wait(), 600)
        except TimeoutError:
            print(f"soak: {total - len(tracker.arrived)} outputs missing after 600 s")
        samples.append(sample(worker, time.monotonic() - start))
        sampling.cancel()
        await asyncio.gather(sampling, return_exceptions=True)
    return SoakResult(tracker, samples, start, published_at)


# --------------------------------------------------------------------- report


def report(result: SoakResult, measured: float, rate: float, minutes: float) -> None:
    tracker, samples = result.tracker, result.samples
    print(
        f"measured throughput: {measured:.0f} pages/s (saturated, with this script publishing "
        "and reading on the same CPUs)"
    )
    print(f"soak rate: {rate:.0f} pages/s for {minutes:g} min")
    total = len(tracker.sent)
    missing = total - len(tracker.arrived)
    print(
        f"published {total}, outputs {len(tracker.arrived)} unique, "
        f"{tracker.duplicates} duplicates, {missing} missing"
    )
    print()
    print(
        "| minute | published | outputs | out pages/s | p50 ms | p99 ms | max ms | backlog "
        "| parent RSS MiB | forkserver MiB | children (live) | child RSS mean / max MiB |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    by_minute: dict[int, list[float]] = {}
    for out, at in result.published_at.items():
        arrived = tracker.arrived.get(out)
        if arrived is not None:
            by_minute.setdefault(int(at // 60), []).append(arrived - tracker.sent[out])
    published: dict[int, int] = {}
    for at in result.published_at.values():
        published[int(at // 60)] = published.get(int(at // 60), 0) + 1
    outputs: dict[int, int] = {}
    for arrived in tracker.arrived.values():
        minute = int((arrived - result.start) // 60)
        outputs[minute] = outputs.get(minute, 0) + 1
    for minute in range(math.ceil(minutes)):
        latencies = by_minute.get(minute, [])
        in_minute = [s for s in samples if minute * 60 <= s.at < (minute + 1) * 60]
        last = in_minute[-1] if in_minute else None
        children = [rss for s in in_minute for rss in s.children.values()]
        print(
            f"| {minute + 1} | {published.get(minute, 0)} | {outputs.get(minute, 0)} "
            f"| {outputs.get(minute, 0) / 60:.1f} "
            f"| {percentile(latencies, 0.5) * 1000:.0f} | {percentile(latencies, 0.99) * 1000:.0f} "
            f"| {max(latencies, default=float('nan')) * 1000:.0f} "
            f"| {last.backlog if last else 0} "
            f"| {last.parent if last else float('nan'):.1f} "
            f"| {last.forkserver if last else float('nan'):.1f} "
            f"| {len(last.children) if last else 0} "
            f"| {statistics.fmean(children) if children else float('nan'):.1f} / "
            f"{max(children, default=float('nan')):.1f} |"
        )
    print()
    steady = [s for s in samples if s.at >= 60] or samples
    pids = {pid for s in samples for pid in s.children}
    print(
        f"RSS samples: {len(samples)} every {SAMPLE_INTERVAL:g} s; pool children seen: {len(pids)}"
    )
    print("| process | first MiB | last MiB | max MiB | slope after minute 1 (MiB/h) |")
    print("|---|---:|---:|---:|---:|")
    series = {
        "worker parent": [(s.at, s.parent) for s in samples],
        "forkserver": [(s.at, s.forkserver) for s in samples],
        "pool child (mean of live)": [(s.at, s.children_mean) for s in samples],
        "total (parent + forkserver + children)": [(s.at, s.total) for s in samples],
    }
    for name, points in series.items():
        tail = [(at, value) for at, value in points if at >= steady[0].at]
        print(
            f"| {name} | {points[0][1]:.1f} | {points[-1][1]:.1f} "
            f"| {max(v for _, v in points):.1f} | {slope_per_hour(tail):+.2f} |"
        )


async def run(args: argparse.Namespace) -> int:
    pages = load_pages(args.data)
    with PrivateRabbit("soak") as node:
        env = worker_env(amqp_url=node.url, log_level="WARNING")
        settings = StageSettings.from_env(env)
        worker: WorkerProcess | None = None
        try:
            async with Client(settings.amqp_url) as publisher:
                await publisher.declare_input(settings)
                stage = Stage(publisher, settings, env, pages)
                worker, measured = await measure(stage, args.measure_seconds, args.log)
                rate = args.rate or measured * args.fraction
                print(
                    f"soak: measured {measured:.0f} pages/s; soaking at {rate:.0f} pages/s",
                    flush=True,
                )
                result = await soak(stage, worker, rate, args.minutes, args.seed)
                report(result, measured, rate, args.minutes)
                missing = len(result.tracker.sent) - len(result.tracker.arrived)
                queued = sum(
                    (await asyncio.to_thread(node.queue_depths)).get(settings.input_queue, (0, 0))
                )
                print(f"outputs missing at the end: {missing}, of which still queued: {queued}")
                worker.process.send_signal(signal.SIGTERM)
                code = await asyncio.to_thread(worker.process.wait, 60)
                print(f"worker exit status after SIGTERM: {code}")
                await publisher.delete_topology(settings)
                return 0 if code == 0 and missing <= queued else 1
        finally:
            if worker is not None and worker.process.poll() is None:
                worker.process.kill()
                worker.process.wait(10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--minutes", type=float, default=30)
    parser.add_argument("--fraction", type=float, default=0.8, help="of the measured rate")
    parser.add_argument("--rate", type=float, default=0, help="pages/s (skips the fraction)")
    parser.add_argument("--measure-seconds", type=float, default=60)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--log", type=Path, default=Path("/tmp/soak-worker.log"))  # noqa: S108
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    logging.getLogger("aiormq").setLevel(logging.ERROR)
    sys.exit(asyncio.run(run(args)))


if __name__ == "__main__":
    main()
