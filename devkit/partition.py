"""The partition run: the worker's node cut off silently while the crawler publishes elsewhere.

Three private RabbitMQ nodes, each in a network namespace of its own
(devkit.netlab, devkit.cluster), the worker and the crawler in a fourth. The
worker is given all three addresses and consumes at one of them, which leads
the input queue (the worker declared it there). While the crawler publishes
pages at a steady rate to the two other nodes, the worker's node is cut off
with iptables DROP (no reset, no close: a silent partition) for
`cut_seconds`, then healed. Throughout, /readyz is polled every 0.1 s and
the worker's log read for its move; at the end every page is accounted for.

Figures, in seconds from the cut: `unready_after` (the first /readyz 503),
`consuming_after` (the worker's "now consuming at" line), `output_after`
(the first page published by the worker to a surviving node once moved,
i.e. the first output with a message id published after the cut), and
the counts: lost, duplicates, dead letters.

Everything runs in a thread that has joined the client's namespace
(`run_partition`), so the worker (a subprocess started from it) and every
connection of the run are there too. The suite runs a short variant
(tests/reliability/test_partition.py); `python -m bench.partition` the 60 s one.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import datetime
import re
import threading
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from devkit.client import Client
from devkit.cluster import PrivateCluster
from devkit.messages import collect, collect_urls, corpus_pages, msgpack_page, page_url
from devkit.netlab import NetLab
from devkit.workers import WorkerProcess, http_get, start_worker, worker_env
from worker.amqp.topology import input_queue_arguments
from worker.config import StageSettings

__all__ = ["PartitionConfig", "PartitionReport", "run_in_namespace", "run_partition"]


@dataclass(frozen=True)
class PartitionConfig:
    pages: int = 2000
    cut_seconds: float = 60.0
    # The crawler publishes at a steady rate for this long before the cut; it
    # goes on at that rate through the cut until every page is published.
    before_cut: float = 8.0
    publish_seconds: float = 60.0  # pages are spread over this many seconds
    pool_size: int = 2
    # ?heartbeat=N on every address (None: the worker's own default).
    heartbeat: int | None = None
    worker_settings: dict[str, str] = field(default_factory=dict)


@dataclass
class PartitionReport:
    pages: int
    cut: str = ""  # the node cut off
    moved_to: str = ""
    leader_before: str = ""  # the input queue's leader before the cut
    unready_after: float | None = None  # s from the cut to the first /readyz 503
    unready_reason: str = ""  # what /readyz said then
    consuming_after: float | None = None  # s from the cut to "now consuming at"
    ready_after: float | None = None  # s from the cut to /readyz 200 after a 503
    ready_polls_in_cut: int = 0  # /readyz answered 200 during the cut (polls)
    polls_in_cut: int = 0
    unique_outputs: int = 0
    duplicates: int = 0
    dead_letters: int = 0
    dead_reasons: dict[str, int] = field(default_factory=dict)
    lost: int = 0
    left_in_input: int = 0
    prefetch: int = 0
    worker_exit: int | None = None
    worker_log: str = ""
    events: list[tuple[float, str]] = field(default_factory=list)  # (s from the cut, what)

    @property
    def ok(self) -> bool:
        return (
            self.lost == 0
            and self.dead_letters == 0
            and self.duplicates <= self.prefetch
            and self.unready_after is not None
            and self.unready_after <= 10.0
            and self.consuming_after is not None
            and self.consuming_after <= 15.0
            and self.left_in_input == 0
            and self.worker_exit == 0
        )


_HOST = re.compile(r"consuming (?:\S+ )?at amqp://[^@/]*@([0-9.]+):\d+/")
_MOVED = "now consuming at"


def _node_in_log(log: str) -> str | None:
    hosts = _HOST.findall(log)
    return hosts[-1] if hosts else None


def run_in_namespace(lab: NetLab, main: Callable[[], Coroutine[Any, Any, Any]]) -> Any:
    """Run the coroutine `main()` on an event loop of a thread inside the lab's client
    namespace; its default executor's threads join it too. Returns what it returns."""
    result: list[Any] = []
    errors: list[BaseException] = []

    def thread() -> None:
        try:
            lab.enter_client()

            async def with_executor() -> Any:
                loop = asyncio.get_running_loop()
                executor = concurrent.futures.ThreadPoolExecutor(4, initializer=lab.enter_client)
                loop.set_default_executor(executor)
                return await main()

            result.append(asyncio.run(with_executor()))
        except BaseException as error:  # noqa: BLE001 - handed to the caller's thread
            errors.append(error)

    runner = threading.Thread(target=thread, name="netlab-client", daemon=True)
    runner.start()
    while runner.is_alive():  # in steps: a plain join() would not see Ctrl-C
        runner.join(0.5)
    if errors:
        raise errors[0]
    return result[0]


def run_partition(
    lab: NetLab, cluster: PrivateCluster, config: PartitionConfig, log_dir: Path
) -> PartitionReport:
    """The partition run (see the module's docstring), from any thread."""
    return run_in_namespace(lab, lambda: _run(lab, cluster, config, log_dir))  # type: ignore[no-any-return]


def _urls(cluster: PrivateCluster, heartbeat: int | None) -> list[str]:
    suffix = f"?heartbeat={heartbeat}" if heartbeat is not None else ""
    return [url + suffix for url in cluster.urls]


async def _run(  # noqa: C901, PLR0915 - the run reads top to bottom
    lab: NetLab, cluster: PrivateCluster, config: PartitionConfig, log_dir: Path
) -> PartitionReport:
    report = PartitionReport(pages=config.pages)
    env = worker_env(
        amqp_url=",".join(_urls(cluster, config.heartbeat)),
        pool_size=str(config.pool_size),
        **config.worker_settings,
    )
    settings = StageSettings.from_env(env)
    report.prefetch = settings.prefetch
    worker: WorkerProcess = start_worker(env, log_dir / "partition-worker.log")
    loop = asyncio.get_running_loop()
    try:
        address = _node_in_log(worker.log_text())
        assert address is not None, worker.log_text()  # noqa: S101 - the harness's precondition
        host = next(name for name, ip in lab.addresses.items() if ip == address)
        victim = next(node for node in cluster.nodes if node.address == address)
        survivors = [node for node in cluster.nodes if node is not victim]
        report.cut = victim.name
        listed = await asyncio.to_thread(
            victim.ctl, "list_queues", "name", "leader", "--quiet", "--no-table-headers"
        )
        for line in listed.stdout.splitlines():
            name, _, leader = line.partition("\t")
            if name == settings.input_queue:
                report.leader_before = leader.strip()
        corpus = corpus_pages(min(config.pages, 200))
        urls = [f"https://partition.example/{index}" for index in range(config.pages)]
        rate = config.pages / config.publish_seconds
        started = loop.time()
        cut_at: list[float] = []
        healed: list[float] = []

        def since_cut() -> float:
            return loop.time() - cut_at[0] if cut_at else loop.time() - started - 1e6

        async with Client(survivors[0].url) as first, Client(survivors[1].url) as second:
            crawlers = (first, second)

            async def crawl() -> None:
                # A batch a second at the steady rate, each to the other surviving node.
                for batch, begin in enumerate(range(0, len(urls), max(1, round(rate)))):
                    client = crawlers[batch % 2]
                    await asyncio.gather(
                        *(
                            client.publish(
                                settings.input_queue,
                                msgpack_page(url, corpus[index % len(corpus)].raw),
                                content_type="application/msgpack",
                                message_id=url,
                            )
                            for index, url in enumerate(
                                urls[begin : begin + max(1, round(rate))], begin
                            )
                        )
                    )
                    await asyncio.sleep(max(0.0, started + batch + 1 - loop.time()))

            async def watch() -> None:
                was_ready = True
                moves = 0
                while True:
                    status, body = await asyncio.to_thread(http_get, worker.port, "/readyz")
                    now = since_cut()
                    if cut_at and not healed and report.consuming_after is None:
                        report.polls_in_cut += 1
                        report.ready_polls_in_cut += status == 200
                    if cut_at and status != 200 and report.unready_after is None:
                        report.unready_after, report.unready_reason = now, body.strip()
                        report.events.append((now, f"/readyz {status}: {body.strip()}"))
                    if cut_at and status == 200 and not was_ready and report.ready_after is None:
                        report.ready_after = now
                        report.events.append((now, "/readyz 200 again"))
                    was_ready = status == 200
                    found = worker.log_text().count(_MOVED)
                    if found > moves:
                        moves = found
                        if cut_at and report.consuming_after is None:
                            report.consuming_after = now
                            report.events.append((now, "the worker logs: now consuming"))
                    await asyncio.sleep(0.1)

            crawler = asyncio.create_task(crawl())
            watcher = asyncio.create_task(watch())
            await asyncio.sleep(config.before_cut)
            outputs = await collect(first, settings.output_queue, config.pages, timeout=0.5)
            await asyncio.to_thread(lab.cut, host)
            cut_at.append(loop.time())
            report.events.append((0.0, f"cut {victim.name}"))
            await asyncio.sleep(config.cut_seconds)
            await asyncio.to_thread(lab.heal, host)
            healed.append(since_cut())
            report.events.append((healed[0], "healed"))
            await crawler
            done = {page_url(message) for message in outputs}
            missing = [url for url in urls if url not in done]
            outputs += await collect_urls(first, settings.output_queue, missing, timeout=180)
            watcher.cancel()
            await asyncio.gather(watcher, return_exceptions=True)
            report.moved_to = _node_in_log(worker.log_text()) or "?"
            dead = await collect(first, settings.dead_letter_queue, config.pages, timeout=3)
            left = await collect(first, settings.input_queue, config.pages, timeout=3)
            outputs += await collect(first, settings.output_queue, config.pages, timeout=3)
            seen = [page_url(message) for message in outputs]
            report.unique_outputs = len(set(seen))
            report.duplicates = len(seen) - len(set(seen))
            report.dead_letters = len(dead)
            for message in dead:
                reason = str(message.headers.get("x-blockdensity-reason", "(none of ours)"))
                report.dead_reasons[reason] = report.dead_reasons.get(reason, 0) + 1
            report.left_in_input = len(left)
            report.lost = len(set(urls) - set(seen) - {page_url(m) for m in dead}) + len(left)
            with contextlib.suppress(Exception):
                await first.delete_topology(settings)
    finally:
        for host_name in list(lab.cut_hosts):
            with contextlib.suppress(Exception):
                lab.heal(host_name)
        worker.process.terminate()
        try:
            report.worker_exit = await asyncio.to_thread(worker.process.wait, 60)
        except Exception:  # noqa: BLE001 - a worker that will not stop is killed
            worker.process.kill()
        report.worker_log = worker.log_text()
    return report


def timeline(report: PartitionReport) -> str:
    """The run's events, one a line, in seconds from the cut."""
    return "\n".join(f"{at:+7.2f} s  {what}" for at, what in sorted(report.events))


# --- what a reconnection waits for -------------------------------------------------


@dataclass
class ProbeReport:
    cut: str = ""
    # AMQP operation -> seconds it took on a surviving node, started `settle`
    # seconds after the cut, each on a connection of its own, all at once.
    seconds: dict[str, float] = field(default_factory=dict)
    node_down_after: float | None = None  # s from the cut: a survivor's log says "down"
    # What the survivor's channel processes were doing 20 s into the operations.
    stacks: str = ""
    survivor_log: str = ""


# Each channel process's stack, and the mnesia transactions waiting (rabbitmqctl eval).
_CHANNEL_STACKS = (
    "[{P, erlang:process_info(P, [current_stacktrace, message_queue_len, status])}"
    " || P <- rabbit_channel:list_local()]."
)


def probe_declarations(
    lab: NetLab, cluster: PrivateCluster, settle: float = 10.0, limit: float = 150.0
) -> ProbeReport:
    """Time each operation of a worker's (re)connection on a surviving node during a cut.

    The worker's topology is declared at one node, which is then cut off; once the
    surviving nodes have elected the queues' new leaders (`settle` seconds), each
    operation runs on a survivor, on a connection of its own, all at the same time,
    each bounded by `limit` seconds (a figure of `limit` means it never finished)."""
    return run_in_namespace(lab, lambda: _probe(lab, cluster, settle, limit))  # type: ignore[no-any-return]


async def _probe(  # noqa: C901, PLR0915 - one closure per operation timed
    lab: NetLab, cluster: PrivateCluster, settle: float, limit: float
) -> ProbeReport:
    settings = StageSettings.from_env(worker_env())
    victim, survivor = cluster.nodes[0], cluster.nodes[1]
    host = next(name for name, ip in lab.addresses.items() if ip == victim.address)
    report = ProbeReport(cut=victim.name)
    queue_arguments = input_queue_arguments(settings)
    quorum = {"x-queue-type": "quorum"}
    async with Client(victim.url) as client:
        channel = client.channel
        exchange = await channel.declare_exchange(settings.output_exchange, "direct", durable=True)
        output = await channel.declare_queue(settings.output_queue, durable=True, arguments=quorum)
        await output.bind(exchange, settings.output_routing_key)
        await channel.declare_queue(settings.input_queue, durable=True, arguments=queue_arguments)
    loop = asyncio.get_running_loop()
    await asyncio.to_thread(lab.cut, host)
    cut_at = loop.time()
    await asyncio.sleep(settle)

    async def exchange_declare(client: Client) -> None:
        channel = client.channel
        await channel.declare_exchange(settings.output_exchange, "direct", durable=True)

    async def exchange_passive(client: Client) -> None:
        channel = client.channel
        await channel.declare_exchange(settings.output_exchange, passive=True)

    async def queue_declare(client: Client) -> None:
        channel = client.channel
        await channel.declare_queue(settings.input_queue, durable=True, arguments=queue_arguments)

    async def queue_passive(client: Client) -> None:
        channel = client.channel
        await channel.declare_queue(settings.input_queue, passive=True)

    async def queue_bind(client: Client) -> None:
        channel = client.channel
        queue = await channel.declare_queue(settings.output_queue, passive=True)
        await queue.bind(settings.output_exchange, settings.output_routing_key)

    async def consume(client: Client) -> None:
        channel = client.channel
        await channel.set_qos(prefetch_count=4)
        queue = await channel.declare_queue(settings.input_queue, passive=True)
        await queue.consume(lambda _message: None)

    async def publish(client: Client) -> None:
        channel = client.channel
        await channel.declare_queue(settings.output_queue, passive=True)
        await client.publish(settings.output_queue, b"probe", content_type=None)

    async def nothing(_client: Client) -> None:
        return

    operations = {
        "connection.open, channel.open (confirming)": nothing,
        "exchange.declare, existing": exchange_declare,
        "exchange.declare, passive": exchange_passive,
        "queue.declare, existing quorum queue": queue_declare,
        "queue.declare, passive": queue_passive,
        "queue.bind, existing binding (after a passive declare)": queue_bind,
        "basic.qos, basic.consume (after a passive declare)": consume,
        "basic.publish to a quorum queue, confirmed": publish,
    }

    async def timed(name: str, operation: Callable[[Client], Coroutine[Any, Any, None]]) -> None:
        start = loop.time()
        try:
            async with asyncio.timeout(limit), Client(survivor.url) as client:
                await operation(client)
        except TimeoutError:
            report.seconds[name] = limit
            return
        report.seconds[name] = loop.time() - start

    async def stacks() -> None:
        await asyncio.sleep(20)
        dump = await asyncio.to_thread(survivor.ctl, "eval", _CHANNEL_STACKS, check=False)
        report.stacks = dump.stdout

    await asyncio.gather(
        stacks(), *(timed(name, operation) for name, operation in operations.items())
    )
    down = re.compile(r"^(\S+ \S+) .*node '?" + re.escape(victim.name) + r"'? down", re.M)
    log = await asyncio.to_thread(survivor.log_tail, 100_000)
    report.survivor_log = log
    found = down.search(log)
    if found:
        wall = datetime.datetime.fromisoformat(found[1])
        cut_wall = time.time() - (loop.time() - cut_at)
        report.node_down_after = wall.timestamp() - cut_wall
    await asyncio.to_thread(lab.heal, host)
    return report
