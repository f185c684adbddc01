"""The chaos harness: two workers, a seeded plan of messages and faults; every input accounted for.

Against a private RabbitMQ node (devkit.rabbitnode; never the shared broker),
`config.workers` `python -m worker` processes with the fault fit
(devkit.faults) consume one input queue. A seeded plan of `config.messages`
inputs is published at `config.rate`: the development corpus cycled
(MessagePack, every fifth as JSON), mixed at seeded positions with
adversarial pages (devkit.hostile's and other hostile markup, expected to
give an output), invalid messages (expected dead-lettered `invalid`,
`not_html` or `too_large`), pages that crash their fit process (SIGKILL,
SIGSEGV, exit) and pages that hang it (expected dead-lettered `crashed` /
`timeout`). Meanwhile, at seeded points of the publishing, the faults run one
after another: SIGKILL of a worker (its pool dies with it) and its restart,
the broker's `rabbitmqctl stop_app` / `start_app`, and `rabbitmqctl
close_all_connections`. After each, the time until every worker reports
/readyz again is recorded.

When the input queue has stayed empty, the output and dead-letter queues are
read to the end and every input is accounted for: outputs by message_id (the
worker's id is a hash of the input's), dead letters by the input's id with
their reason (`x-blockdensity-reason`, or the broker's `x-death` reason).
A lost input (neither) is a bug. So is an unexpected outcome: a page that
should have an output dead-lettered, or a message dead-lettered for another
reason than expected.

`run_chaos(config)` does all that and returns the Report; `print_report`
prints it as tables. `python -m bench.chaos` is the full run,
tests/reliability/test_chaos.py a short one.
"""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import logging
import os
import random
import signal
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec

from devkit import hostile
from devkit.client import Client, Received
from devkit.cluster import PrivateCluster
from devkit.corpus import DEFAULT_DATA, Corpus
from devkit.faults import MARKERS_FIT
from devkit.messages import json_page, msgpack_page
from devkit.procs import alive
from devkit.rabbitnode import PrivateRabbit
from devkit.workers import WorkerProcess, http_get, start_worker, worker_env
from worker.amqp.topology import HEADER_REASON
from worker.config import StageSettings
from worker.schemas import CleanPage, clean_message_id

__all__ = [
    "FAULT_KINDS",
    "OUTPUT",
    "ChaosConfig",
    "Fault",
    "Planned",
    "Report",
    "make_faults",
    "make_plan",
    "print_report",
    "report_rows",
    "run_chaos",
]

log = logging.getLogger(__name__)

OUTPUT = "output"
_OUT = frozenset({OUTPUT})
FAULT_KINDS = (
    "worker_sigkill",
    "broker_restart",
    "close_connections",
    "memory_alarm",
    "node_kill",
)


@dataclass(frozen=True)
class ChaosConfig:
    messages: int = 5000
    seed: int = 2024
    rate: float = 120.0  # publishes per second
    workers: int = 2
    pool_size: int = 2
    worker_kills: int = 4
    broker_restarts: int = 2
    connection_closes: int = 2
    memory_alarms: int = 1  # the node's memory alarm raised for alarm_seconds
    alarm_seconds: float = 20.0
    # With node kills the run is on a cluster of three private nodes (about
    # 1 GB): kill -9 of one of the two nodes the publisher does not use, then
    # its restart. The workers get every node's address.
    node_kills: int = 0
    crash_pages: int = 12
    hang_pages: int = 6
    invalid_messages: int = 60
    adversarial_pages: int = 40
    fit_timeout: float = 2.0
    delivery_limit: int = 5
    max_body_bytes: int = 4 * 1024 * 1024  # the corpus's largest page is 1.6 MB
    settle_timeout: float = 600.0  # after publishing, for the input queue to empty
    data: Path = DEFAULT_DATA
    log_dir: Path = Path("/tmp")  # noqa: S108 - worker logs of a manual run


@dataclass(frozen=True)
class Planned:
    """One input message and what must become of it."""

    message_id: str
    kind: str  # corpus, adversarial:<case>, invalid:<case>, crash:<how>, hang
    body: bytes
    content_type: str | None
    expect: frozenset[str]  # OUTPUT, or the dead-letter reasons allowed
    url: str | None  # for an output: the url it must carry


@dataclass
class Fault:
    kind: str
    trigger: int  # published count at which it runs
    at: float = 0.0  # seconds since the start
    seconds: float = 0.0  # how long the fault itself took (kill+restart, stop+start)
    recovery: float = 0.0  # seconds some worker's /readyz failed, from the fault on
    note: str = ""


@dataclass
class Report:
    config: ChaosConfig
    planned: int
    publish_attempts: int
    outputs_unique: int
    duplicate_outputs: int
    duplicate_dead: int
    dead_inputs: int  # distinct inputs with at least one dead letter
    dead_by_reason: Counter[str]  # inputs per reason (one input may have two)
    lost: list[str]
    unexpected: list[str]
    stray: int
    bad_outputs: list[str]
    faults: list[Fault]
    kinds: Counter[str]  # inputs by kind
    wall_seconds: float = 0.0
    worker_exits: list[int | None] = field(default_factory=list)
    tracebacks: Counter[str] = field(default_factory=Counter)  # in the worker logs, by origin
    counted: Counter[str] = field(default_factory=Counter)  # outcomes the workers counted

    @property
    def ok(self) -> bool:
        return not (self.lost or self.unexpected or self.bad_outputs)


# ------------------------------------------------------------------------ the plan

_CRASH_MARKERS = {
    "sigkill": b"BLOCKDENSITY-TEST-SIGKILL",
    "segfault": b"BLOCKDENSITY-TEST-SEGFAULT",
    "exit": b"BLOCKDENSITY-TEST-EXIT",
}


def _adversarial(rng: random.Random, corpus: Corpus) -> list[tuple[str, bytes]]:
    """Hostile pages that must still give an output (small enough for the fit timeout)."""
    cases: list[tuple[str, Callable[[], str | bytes]]] = [
        ("no-body", lambda: hostile.no_body(40_000, rng, corpus)),
        ("fragment", lambda: hostile.fragment(40_000, rng, corpus)),
        ("invalid-utf8", lambda: hostile.invalid_declared(40_000, rng, corpus)),
        ("no-charset", lambda: hostile.no_charset(40_000, rng, corpus)),
        ("nested-divs", lambda: hostile.nested_divs(300, rng, corpus)),
        ("underscores", lambda: hostile.underscores(40_000, rng, corpus)),
        ("punctuation", lambda: hostile.punctuation(40_000, rng, corpus)),
        ("links", lambda: hostile.links(2_000, rng, corpus)),
        ("sup", lambda: hostile.sup_citations(1_000, rng, corpus)),
        ("frameset", lambda: hostile.frameset(300, rng, corpus)),
        ("empty", lambda: b""),
        ("whitespace", lambda: b" \n\t " * 1000),
        ("utf16-bom", lambda: "\ufeff<p>utf-16 page with a byte order mark</p>".encode("utf-16")),
        ("one-line", lambda: " ".join(rng.choice(hostile.WORDS) for _ in range(40_000))),
        # 1% NUL bytes: HTML with NULs in it (a body that is mostly NULs is
        # binary, refused as not_html: that is one of the invalid messages).
        ("nul-bytes", lambda: b"<p>" + (b"a" * 99 + b"\x00") * 400 + b"</p>"),
        ("entities", lambda: "<p>" + "&amp;&lt;&#x1F600;&nGt;&#0;&#xD800;" * 3_000 + "</p>"),
        ("unclosed-comment", lambda: "<p>before</p><!-- " + "x " * 20_000),
        ("script-only", lambda: "<script>" + "var a = '<p>';" * 5_000 + "</script>"),
        # lexbor (selectolax 1.0.2) overflows its heap on runs of these two references:
        # blockdensity rewrites them before parsing (RELIABILITY.md), so this page fits.
        ("ngt-references", lambda: "<p>" + "&nGt;" * 8_000 + "&nLt;" * 8_000 + "</p>"),
    ]
    built = []
    for name, build in cases:
        html = build()
        built.append(
            (name, html.encode("utf-8", "surrogatepass") if isinstance(html, str) else html)
        )
    return built


@dataclass(frozen=True)
class Special:
    """A message placed at a seeded position: a page (wrapped per message) or a raw body."""

    kind: str
    data: bytes  # the page's HTML (page=True) or the whole message body
    expect: frozenset[str]
    page: bool = True
    content_type: str | None = "application/msgpack"

    def planned(self, message_id: str) -> Planned:
        if not self.page:
            return Planned(message_id, self.kind, self.data, self.content_type, self.expect, None)
        url = _url(message_id)
        body = msgpack_page(url, self.data)
        return Planned(message_id, self.kind, body, self.content_type, self.expect, url)


def _invalid(rng: random.Random, page: bytes, max_body: int) -> list[Special]:
    """Messages the worker must dead-letter, each with its reason."""
    full = msgpack_page("https://invalid.example/full", page)
    nested = b'{"url":"https://e.org/","body":"x","extra":' + b"[" * 5000 + b"]" * 5000 + b"}"
    pdf = msgpack_page("https://e.org/a.pdf", b"%PDF-1.7", content_type="application/pdf")
    big = msgpack_page("https://e.org/big", page * (max_body // max(1, len(page)) + 1))
    bodies: list[tuple[str, bytes, str | None, str]] = [
        ("garbage", rng.randbytes(200), "application/msgpack", "invalid"),
        ("truncated", full[: len(full) // 2], "application/msgpack", "invalid"),
        ("json-no-body", b'{"url": "https://e.org/"}', "application/json", "invalid"),
        ("json-empty-url", json_page("", "<p>x</p>"), "application/json", "invalid"),
        ("bad-status", msgpack_page("https://e.org/", b"<p>x</p>", status=42),
         "application/msgpack", "invalid"),
        ("html-content-type", full, "text/html", "invalid"),
        ("no-content-type", full, None, "invalid"),
        ("gzip-body", gzip.compress(full, mtime=0), "application/msgpack", "invalid"),
        ("deep-nesting", nested, "application/json", "invalid"),
        ("pdf", pdf, "application/msgpack", "not_html"),
        ("pdf-as-html", msgpack_page("https://e.org/b", b"%PDF-1.7\n" + rng.randbytes(3000)),
         "application/msgpack", "not_html"),
        ("random-bytes", msgpack_page("https://e.org/r", rng.randbytes(30_000)),
         "application/msgpack", "not_html"),
        ("javascript-url", msgpack_page("javascript:void(0)", b"<p>x</p>"),
         "application/msgpack", "invalid"),
        ("server-error", msgpack_page("https://e.org/500", b"<p>x</p>", status=500),
         "application/msgpack", "status"),
        ("too-large", big, "application/msgpack", "too_large"),
    ]  # fmt: skip
    return [
        Special(f"invalid:{case}", body, frozenset({reason}), page=False, content_type=ct)
        for case, body, ct, reason in bodies
    ]


def _specials(config: ChaosConfig, rng: random.Random, corpus: Corpus) -> list[Special]:
    adversarial = _adversarial(rng, corpus)
    invalid = _invalid(rng, corpus.pages()[0].raw, config.max_body_bytes)
    crash = [
        Special(
            f"crash:{how}",
            b"<p>a page that crashes its fit: " + marker + b"</p>",
            frozenset({"crashed", "broker:delivery_limit"}),
        )
        for how, marker in _CRASH_MARKERS.items()
    ]
    hang = Special(
        "hang", b"<p>BLOCKDENSITY-TEST-HANG</p>", frozenset({"timeout", "broker:delivery_limit"})
    )
    specials = [
        Special(f"adversarial:{case}", html, frozenset({OUTPUT}))
        for n in range(config.adversarial_pages)
        for case, html in [adversarial[n % len(adversarial)]]
    ]
    specials += [invalid[n % len(invalid)] for n in range(config.invalid_messages)]
    specials += [crash[n % len(crash)] for n in range(config.crash_pages)]
    specials += [hang] * config.hang_pages
    return specials


def make_plan(config: ChaosConfig) -> list[Planned]:
    """The inputs, in publishing order: corpus pages with the specials at seeded positions."""
    rng = random.Random(config.seed)
    corpus = Corpus(config.data)
    pages = [page.raw for page in corpus.pages()]
    total = config.messages
    specials = _specials(config, rng, corpus)
    if len(specials) > total:
        raise ValueError(f"{len(specials)} special messages do not fit in {total}")
    # None in the first 2%: let the workers warm up.
    positions = rng.sample(range(total // 50, total), len(specials))
    at = dict(zip(positions, specials, strict=True))
    plan = []
    for n in range(total):
        mid = f"chaos-{config.seed}-{n}"
        url = _url(mid)
        if n in at:
            plan.append(at[n].planned(mid))
        elif n % 5 == 0:  # a fifth as JSON, the page a string
            body = json_page(url, pages[n % len(pages)].decode("utf-8", "replace"), fetch_id=mid)
            plan.append(Planned(mid, "corpus", body, "application/json", _OUT, url))
        else:
            body = msgpack_page(url, pages[n % len(pages)], fetch_id=mid)
            plan.append(Planned(mid, "corpus", body, "application/msgpack", _OUT, url))
    return plan


def _url(message_id: str) -> str:
    return f"https://chaos.example/{message_id}"


def make_faults(config: ChaosConfig) -> list[Fault]:
    rng = random.Random(config.seed + 1)
    kinds = (
        ["worker_sigkill"] * config.worker_kills
        + ["broker_restart"] * config.broker_restarts
        + ["close_connections"] * config.connection_closes
        + ["memory_alarm"] * config.memory_alarms
        + ["node_kill"] * config.node_kills
    )
    rng.shuffle(kinds)
    # Spread over 10% .. 85% of the publishing, each jittered within its slot.
    start, end = config.messages * 0.10, config.messages * 0.85
    slot = (end - start) / max(1, len(kinds))
    return [
        Fault(kind, int(start + slot * (n + rng.uniform(0.2, 0.8)))) for n, kind in enumerate(kinds)
    ]


# ------------------------------------------------------------------------ the run


class Workers:
    """The worker processes, restartable, their logs appended across restarts."""

    def __init__(self, env: dict[str, str], count: int, log_dir: Path) -> None:
        self.envs = []
        for n in range(count):
            own = dict(env)
            if n:
                own["BLOCKDENSITY_HTTP_PORT"] = worker_env()["BLOCKDENSITY_HTTP_PORT"]
            self.envs.append(own)
        log_dir.mkdir(parents=True, exist_ok=True)
        self.logs = [log_dir / f"chaos-worker-{n}.log" for n in range(count)]
        self.processes: list[WorkerProcess | None] = [None] * count
        self.counted: Counter[str] = Counter()

    async def start(self, n: int) -> None:
        self.processes[n] = await asyncio.to_thread(start_worker, self.envs[n], self.logs[n])

    def scrape(self, n: int) -> None:
        """Add worker n's outcome counters to the run's (before it is killed or stopped)."""
        process = self.processes[n]
        if process is None:
            return
        status, text = http_get(process.port, "/metrics")
        if status != 200:
            return
        for line in text.splitlines():
            if line.startswith("blockdensity_pages_total{"):
                outcome = line.split('"')[1]
                self.counted[outcome] += int(float(line.rsplit(" ", 1)[1]))
            elif line.startswith("blockdensity_pool_restarts_total{"):
                self.counted["pool restarts"] += int(float(line.rsplit(" ", 1)[1]))
            elif line.startswith("blockdensity_ack_failures_total "):
                self.counted["ack failures"] += int(float(line.rsplit(" ", 1)[1]))

    async def kill(self, n: int) -> str:
        process = self.processes[n]
        if process is None:
            return "not running"
        self.scrape(n)
        children = process.descendants()
        process.process.kill()
        await asyncio.to_thread(process.process.wait, 30)
        deadline = time.monotonic() + 10
        while any(alive(pid) for pid in children) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        orphans = [pid for pid in children if alive(pid)]
        self.processes[n] = None
        return f"orphans left: {orphans}" if orphans else ""

    def ready(self) -> bool:
        return all(p is not None and http_get(p.port, "/readyz")[0] == 200 for p in self.processes)

    async def watch_unready(self, total: list[float]) -> None:
        """Add to total[0] the seconds during which some worker was not ready (until cancelled)."""
        while True:
            before = time.monotonic()
            ready = await asyncio.to_thread(self.ready)
            await asyncio.sleep(0.1)
            if not ready:
                total[0] += time.monotonic() - before

    async def all_ready(self, timeout: float = 120) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if all(p is not None and http_get(p.port, "/readyz")[0] == 200 for p in self.processes):
                return True
            await asyncio.sleep(0.1)
        return False

    async def stop_all(self) -> list[int | None]:
        codes: list[int | None] = []
        for n, process in enumerate(self.processes):
            if process is None:
                codes.append(None)
                continue
            self.scrape(n)
            process.process.send_signal(signal.SIGTERM)
            try:
                codes.append(await asyncio.to_thread(process.process.wait, 60))
            except Exception:  # noqa: BLE001 - a worker that will not stop is killed, reported
                process.process.kill()
                codes.append(None)
        return codes

    def kill_all(self) -> None:
        for process in self.processes:
            if process is not None and process.process.poll() is None:
                children = process.descendants()
                process.process.kill()
                process.process.wait(10)
                for pid in children:
                    with contextlib.suppress(ProcessLookupError):
                        if alive(pid):
                            os.kill(pid, signal.SIGKILL)


async def _publish(client: Client, queue: str, planned: Planned, attempts: Counter[str]) -> None:
    """Publish until the broker confirms (a retry may duplicate the input: at least once)."""
    while True:
        attempts["publish"] += 1
        try:
            async with asyncio.timeout(10):
                await client.publish(
                    queue,
                    planned.body,
                    content_type=planned.content_type,
                    message_id=planned.message_id,
                )
        except Exception:  # noqa: BLE001 - broker restarting, connection closed: retry
            await asyncio.sleep(0.5)
        else:
            return


async def _drain(url: str, queue: str, node: PrivateRabbit) -> list[Received]:
    """Read every message of `queue` (acked), until it is empty and quiet."""
    got: list[Received] = []
    async with Client(url) as client:
        await client.consume(queue, got.append)
        quiet = 0
        seen = -1
        while quiet < 3:
            await asyncio.sleep(1)
            depth = (await asyncio.to_thread(node.queue_depths)).get(queue, (0, 0))
            quiet = quiet + 1 if depth == (0, 0) and len(got) == seen else 0
            seen = len(got)
    return got


async def _settle(node: PrivateRabbit, queue: str, timeout: float) -> bool:
    """Wait until `queue` has stayed empty (nothing ready or unacked) for 3 s."""
    deadline = time.monotonic() + timeout
    empty_since: float | None = None
    while time.monotonic() < deadline:
        try:
            depth = (await asyncio.to_thread(node.queue_depths)).get(queue)
        except Exception:  # noqa: BLE001 - the node is busy; ask again
            depth = None
        if depth == (0, 0):
            empty_since = empty_since or time.monotonic()
            if time.monotonic() - empty_since >= 3:
                return True
        else:
            empty_since = None
        await asyncio.sleep(1)
    return False


class ChaosRun:
    """One run's state: the plan, the private node, the workers, the faults, the tallies."""

    def __init__(self, config: ChaosConfig) -> None:
        self.config = config
        self.plan = make_plan(config)
        self.faults = make_faults(config)
        self.attempts: Counter[str] = Counter()
        self.published = 0  # publishes started: what the fault schedule follows
        self.start = 0.0
        self.others: list[PrivateRabbit] = []  # the cluster's nodes that may be killed
        self.cluster: PrivateCluster | None = None

    async def run(self) -> Report:
        """The whole run on a private node (or cluster); see the module's docstring."""
        config = self.config
        broker: PrivateRabbit | PrivateCluster = (
            PrivateCluster(3, prefix="chaos") if config.node_kills else PrivateRabbit("chaos")
        )
        with broker:
            # The publisher, the reader and the broker-wide faults use the
            # first node; node kills hit the others.
            node = broker.nodes[0] if isinstance(broker, PrivateCluster) else broker
            self.others = broker.nodes[1:] if isinstance(broker, PrivateCluster) else []
            self.cluster = broker if isinstance(broker, PrivateCluster) else None
            addresses = broker.urls if isinstance(broker, PrivateCluster) else [broker.url]
            env = worker_env(
                amqp_url=",".join(addresses),
                fit_function=MARKERS_FIT,
                fit_timeout=f"{config.fit_timeout:g}",
                delivery_limit=str(config.delivery_limit),
                max_body_bytes=str(config.max_body_bytes),
                pool_size=str(config.pool_size),
                log_level="WARNING",
            )
            settings = StageSettings.from_env(env)
            workers = Workers(env, config.workers, config.log_dir)
            for path in workers.logs:
                path.unlink(missing_ok=True)
            try:
                async with Client(node.url) as client:
                    await client.declare_input(settings)
                    for n in range(config.workers):
                        await workers.start(n)
                    self.start = time.monotonic()
                    faults = asyncio.create_task(self._run_faults(node, workers))
                    await self._publish_all(client, settings.input_queue)
                    await faults
                    if not await _settle(node, settings.input_queue, config.settle_timeout):
                        log.warning("the input queue did not empty in %g s", config.settle_timeout)
                    wall = time.monotonic() - self.start
                    outputs = await _drain(node.url, settings.output_queue, node)
                    dead = await _drain(node.url, settings.dead_letter_queue, node)
                    codes = await workers.stop_all()
                    await client.delete_topology(settings)
            finally:
                workers.kill_all()
        report = self._account(outputs, dead)
        report.wall_seconds = wall
        report.worker_exits = codes
        report.counted = workers.counted
        report.tracebacks = Counter()
        for path in workers.logs:
            if path.exists():
                report.tracebacks.update(_tracebacks(path.read_text(errors="replace")))
        return report

    async def _publish_all(self, client: Client, queue: str) -> None:
        """Publish the plan at the configured rate, at most 32 awaiting their confirms."""
        slots = asyncio.Semaphore(32)
        tasks: set[asyncio.Task[None]] = set()

        async def publish(planned: Planned) -> None:
            try:
                await _publish(client, queue, planned, self.attempts)
            finally:
                slots.release()

        for n, planned in enumerate(self.plan):
            delay = self.start + n / self.config.rate - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            await slots.acquire()
            task = asyncio.create_task(publish(planned))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
            self.published = n + 1
        await asyncio.gather(*tasks)

    async def _run_faults(self, node: PrivateRabbit, workers: Workers) -> None:
        rng = random.Random(self.config.seed + 2)
        for fault in self.faults:
            while self.published < fault.trigger:
                await asyncio.sleep(0.05)
            began = time.monotonic()
            fault.at = began - self.start
            unready = [0.0]
            watching = asyncio.create_task(workers.watch_unready(unready))
            if fault.kind == "worker_sigkill":
                n = rng.randrange(len(workers.processes))
                note = await workers.kill(n)
                await asyncio.sleep(rng.uniform(0.5, 2.0))
                await workers.start(n)
                fault.note = f"worker {n}" + (f"; {note}" if note else "")
            elif fault.kind == "node_kill" and self.cluster is not None:
                victim = rng.choice(self.others)
                await asyncio.to_thread(victim.kill)
                down = rng.uniform(2.0, 5.0)
                await asyncio.sleep(down)
                await asyncio.to_thread(victim.start)
                rejoined = await self._rejoined(self.cluster, victim, node)
                fault.note = f"{victim.name} down {down:.1f} s" + (
                    "" if rejoined else "; NOT rejoined in 120 s"
                )
            elif fault.kind == "memory_alarm":
                # Publishing blocks, the publisher's and the workers' alike;
                # the workers must hold their pages, not requeue them.
                await asyncio.to_thread(node.ctl, "set_vm_memory_high_watermark", "0.00001")
                await asyncio.sleep(self.config.alarm_seconds)
                await asyncio.to_thread(node.ctl, "set_vm_memory_high_watermark", "0.4")
                fault.note = f"alarm {self.config.alarm_seconds:g} s"
            elif fault.kind == "broker_restart":
                await asyncio.to_thread(node.stop_app)
                down = rng.uniform(2.0, 5.0)
                await asyncio.sleep(down)
                await asyncio.to_thread(node.start_app)
                fault.note = f"app down {down:.1f} s"
            else:
                await asyncio.to_thread(node.close_all_connections, "chaos: closing all")
            fault.seconds = time.monotonic() - began
            await asyncio.sleep(1)  # readiness drops a moment after the fault
            if not await workers.all_ready():
                fault.note += "; NOT all workers ready after 120 s"
            watching.cancel()
            fault.recovery = unready[0]
            log.info("fault %s at %.1f s: %s", fault.kind, fault.at, fault.note)

    @staticmethod
    async def _rejoined(
        cluster: PrivateCluster, victim: PrivateRabbit, seen_by: PrivateRabbit
    ) -> bool:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if victim.name in await asyncio.to_thread(cluster.running_nodes, seen_by):
                return True
            await asyncio.sleep(0.5)
        return False

    def _account(self, outputs: list[Received], dead: list[Received]) -> Report:
        """Every planned input: its outputs and dead letters, against what was expected."""
        by_id = {planned.message_id: planned for planned in self.plan}
        out_ids = {clean_message_id(mid, "", None): planned for mid, planned in by_id.items()}
        got_outputs: Counter[str] = Counter()
        bad_outputs: list[str] = []
        stray = 0
        for message in outputs:
            planned = out_ids.get(message.message_id or "")
            if planned is None:
                stray += 1
                continue
            got_outputs[planned.message_id] += 1
            problem = _check_output(message, planned)
            if problem:
                bad_outputs.append(f"{planned.message_id}: {problem}")
        got_dead: dict[str, list[str]] = {}
        for message in dead:
            planned = by_id.get(message.message_id or "")
            if planned is None:
                stray += 1
                continue
            got_dead.setdefault(planned.message_id, []).append(_dead_reason(message))
        lost, unexpected = [], []
        dead_by_reason: Counter[str] = Counter()
        for planned in self.plan:
            n_out = got_outputs[planned.message_id]
            reasons = got_dead.get(planned.message_id, [])
            dead_by_reason.update(set(reasons))
            if not n_out and not reasons:
                lost.append(f"{planned.message_id} ({planned.kind})")
                continue
            outcomes = ({OUTPUT} if n_out else set()) | set(reasons)
            if not outcomes <= planned.expect:
                unexpected.append(
                    f"{planned.message_id} ({planned.kind}): got {sorted(outcomes)}, "
                    f"expected {sorted(planned.expect)}"
                )
        return Report(
            config=self.config,
            planned=len(self.plan),
            publish_attempts=self.attempts["publish"],
            outputs_unique=len(got_outputs),
            duplicate_outputs=sum(n - 1 for n in got_outputs.values()),
            duplicate_dead=sum(len(r) - len(set(r)) for r in got_dead.values()),
            dead_inputs=len(got_dead),
            dead_by_reason=dead_by_reason,
            lost=lost,
            unexpected=unexpected,
            stray=stray,
            bad_outputs=bad_outputs,
            faults=self.faults,
            kinds=Counter(planned.kind.split(":")[0] for planned in self.plan),
        )


async def run_chaos(config: ChaosConfig) -> Report:
    return await ChaosRun(config).run()


def _tracebacks(log: str) -> Counter[str]:
    """Tracebacks in a worker's log: aiormq's own (its reader logs one when the broker
    drops a connection), or through the worker's code (to read: a bug of ours)."""
    found: Counter[str] = Counter()
    for block in log.split("Traceback (most recent call last):")[1:]:
        lines = block.splitlines()
        frames = [line for line in lines if line.startswith("  File ")]
        error = next((line for line in lines[1:] if line and not line.startswith(" ")), "")
        if any("/worker/" in frame for frame in frames):
            found[f"in worker code: {error[:120]}"] += 1
        else:
            found["aiormq, on a dropped connection"] += 1
    return found


def _check_output(message: Received, planned: Planned) -> str | None:
    decode: Any = (
        msgspec.json.decode
        if message.content_type == "application/json"
        else msgspec.msgpack.decode
    )
    try:
        clean = decode(message.body, type=CleanPage)
    except (msgspec.DecodeError, msgspec.ValidationError) as error:
        return f"undecodable output ({error})"
    if clean.url != planned.url:
        return f"output url {clean.url!r} != {planned.url!r}"
    return None


def _dead_reason(message: Received) -> str:
    reason = message.headers.get(HEADER_REASON)
    if isinstance(reason, str):
        return reason
    deaths = message.headers.get("x-death")
    if isinstance(deaths, list) and deaths and isinstance(deaths[0], dict):
        return f"broker:{deaths[0].get('reason')}"
    return "unknown"


# ------------------------------------------------------------------------ printing


def _tally(counter: Counter[str]) -> str:
    return ", ".join(f"{key} {value}" for key, value in sorted(counter.items())) or "none"


def report_rows(report: Report) -> list[tuple[str, str]]:
    c = report.config
    fit_faults = (
        f"{c.crash_pages} crash pages, {c.hang_pages} hang pages "
        f"(fit timeout {c.fit_timeout:g} s), each up to {c.delivery_limit + 1} deliveries"
    )
    return [
        ("published (inputs)", f"{report.planned}: {_tally(report.kinds)}"),
        ("publish attempts (with retries)", f"{report.publish_attempts}"),
        ("outputs (unique message_id)", f"{report.outputs_unique}"),
        ("duplicate outputs", f"{report.duplicate_outputs}"),
        ("inputs dead-lettered", f"{report.dead_inputs}"),
        ("dead-lettered, by reason", _tally(report.dead_by_reason)),
        ("duplicate dead letters", f"{report.duplicate_dead}"),
        ("lost", f"{len(report.lost)}"),
        ("unexpected outcomes", f"{len(report.unexpected)}"),
        ("outputs failing their checks", f"{len(report.bad_outputs)}"),
        ("stray messages", f"{report.stray}"),
        ("wall time (first publish to input empty)", f"{report.wall_seconds:.1f} s"),
        ("faults injected", _tally(Counter(fault.kind for fault in report.faults))),
        ("fit-process faults", fit_faults),
        ("outcomes counted by the workers", _tally(report.counted)),
        ("worker exits (SIGTERM at the end)", " ".join(map(str, report.worker_exits))),
        ("tracebacks in worker logs", _tally(report.tracebacks)),
    ]


def print_report(report: Report) -> None:
    c = report.config
    rows = report_rows(report)
    width = max(len(name) for name, _ in rows)
    print(
        f"chaos run: seed {c.seed}, {c.workers} workers x {c.pool_size} fit processes, "
        f"publishing at {c.rate:g}/s, "
        + ("a cluster of three private RabbitMQ nodes" if c.node_kills else "private RabbitMQ node")
    )
    print(f"| {'figure':{width}} | value |")
    print(f"|{'-' * (width + 2)}|---|")
    for name, value in rows:
        print(f"| {name:{width}} | {value} |")
    print()
    print("| # | fault | at (s) | took (s) | some worker not ready for (s) | note |")
    print("|---:|---|---:|---:|---:|---|")
    for n, fault in enumerate(report.faults, 1):
        print(
            f"| {n} | {fault.kind} | {fault.at:.1f} | {fault.seconds:.1f} "
            f"| {fault.recovery:.1f} | {fault.note} |"
        )
    for title, items in (
        ("LOST", report.lost),
        ("UNEXPECTED", report.unexpected),
        ("BAD OUTPUT", report.bad_outputs),
    ):
        for item in items[:50]:
            print(f"{title}: {item}")
