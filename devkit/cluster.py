"""A RabbitMQ cluster of our own on loopback, and the node-kill run on it.

`PrivateCluster(3)` starts three private nodes (devkit.rabbitnode) with one
Erlang cookie and joins the second and third to the first; quorum queues
declared on it get a member on each node. About 1 GB of memory for three
nodes: the test suite starts one cluster per session.

`run_node_kill` is the failover acceptance run: a worker given every
node's address, a backlog flowing, then `kill -9` of the node the worker is
connected to, which leads the input queue too (the worker declared it
there). Readiness is polled; the node is restarted and must rejoin; every
input is accounted for. The suite runs a short variant
(tests/reliability/test_cluster.py), `python -m bench.cluster` a longer one.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import functools
import json
import re
import secrets
import time
from dataclasses import dataclass, field
from pathlib import Path

from devkit.client import Client
from devkit.messages import collect, collect_urls, corpus_pages, msgpack_page, page_url
from devkit.netlab import NetLab
from devkit.rabbitnode import PrivateRabbit, RabbitUnavailableError, Started
from devkit.workers import WorkerProcess, http_get, start_worker, worker_env
from worker.config import StageSettings

__all__ = ["NodeKillConfig", "NodeKillReport", "PrivateCluster", "run_node_kill"]


class PrivateCluster(Started):
    """`size` private RabbitMQ nodes clustered together; see the module's docstring."""

    def __init__(
        self,
        size: int = 3,
        prefix: str = "cluster",
        lab: NetLab | None = None,
        net_ticktime: int | None = None,
    ) -> None:
        cookie = secrets.token_hex(16).upper()
        self._lab = lab
        if lab is None:  # on loopback
            self.nodes = [PrivateRabbit(f"{prefix}{n}x", cookie=cookie) for n in range(size)]
        else:  # each node in its own namespace of `lab` (its hosts, in order)
            self.nodes = [
                PrivateRabbit(
                    f"{prefix}{n}x",
                    cookie=cookie,
                    # guest may log in from other hosts: the namespaces' private subnet
                    extra_config="loopback_users = none\n"
                    # How long the nodes take to declare a silent peer down: Erlang's
                    # default is 60 s (then between 60 and 75 s).
                    + (f"net_ticktime = {net_ticktime}\n" if net_ticktime else ""),
                    address=lab.addresses[host],
                    wrap=functools.partial(lab.command, host),
                )
                for n, host in enumerate(list(lab.addresses)[:size])
            ]

    @property
    def urls(self) -> list[str]:
        return [node.url for node in self.nodes]

    def start(self) -> None:
        first, *others = self.nodes
        # The nodes boot at the same time (a boot is mostly waiting); then
        # each joins the first, one at a time, as join_cluster requires.
        with concurrent.futures.ThreadPoolExecutor(len(self.nodes)) as boot:
            for started in [boot.submit(node.start) for node in self.nodes]:
                started.result()
        for node in others:
            node.ctl("stop_app")
            node.ctl("join_cluster", first.name)
            node.ctl("start_app")
            node.ctl("await_startup", "--timeout", "60")
        running = self.running_nodes(first)
        if len(running) != len(self.nodes):
            raise RabbitUnavailableError(f"cluster did not form: running {running}")

    def running_nodes(self, asked: PrivateRabbit) -> list[str]:
        """The running members as `asked` sees them (rabbitmqctl cluster_status)."""
        status = asked.ctl("cluster_status", "--formatter", "json", check=False)
        try:
            running = json.loads(status.stdout)["running_nodes"]
        except (ValueError, KeyError, TypeError):
            return []  # the node is down or still starting
        return sorted(str(name) for name in running)

    def node_at(self, url: str) -> PrivateRabbit:
        return next(node for node in self.nodes if node.url == url)

    def stop(self) -> None:
        for node in self.nodes:
            # In a lab, a node cut off or partitioned may take a minute to shut
            # down cleanly, and its namespace goes with the lab anyway.
            node.stop(graceful=self._lab is None)


@dataclass(frozen=True)
class NodeKillConfig:
    pages: int = 2000
    outputs_before_kill: int = 200
    pool_size: int = 2
    # How long to wait for the outputs after the kill. The test's is shorter than its
    # own timeout, so that a run whose outputs stop coming fails with its report (the
    # worker's and the nodes' logs) rather than with a bare timeout.
    outputs_timeout: float = 300.0


@dataclass
class NodeKillReport:
    pages: int
    killed: str = ""
    moved_to: str = ""
    unique_outputs: int = 0
    duplicates: int = 0
    in_flight_at_kill: int = 0
    dead_letters: int = 0
    lost: int = 0
    ready_after_kill: float = 0.0  # seconds from the kill to /readyz 200 again
    unready_seconds: float = 0.0  # polls that said 503, in seconds
    rejoined_after: float = 0.0  # seconds from the restart to the node running in the cluster
    left_in_queues: dict[str, int] = field(default_factory=dict)
    worker_exit: int | None = None
    worker_log: str = ""
    node_logs: str = ""  # the end of each node's log, after the run

    @property
    def ok(self) -> bool:
        return (
            self.lost == 0
            and self.dead_letters == 0
            and self.duplicates <= self.in_flight_at_kill
            and self.ready_after_kill <= 5.0
            and self.rejoined_after > 0
            and not any(self.left_in_queues.values())
            and self.worker_exit == 0
        )


_BATCH = 100
# How long to look for the worker's unreadiness after the kill before taking
# a 200 as "still ready" (its readiness is read every 0.5 s).
_UNREADY_WAIT = 2.0
# "consuming <queue> at <url>" at start, "now consuming at <url>" after a move.
_CONNECTED = re.compile(r"consuming (?:\S+ )?at amqp://[^@]*@127\.0\.0\.1:(\d+)/")


def _connected_port(log: str) -> int | None:
    """The port of the node the worker last said it consumes at (its log)."""
    ports = _CONNECTED.findall(log)
    return int(ports[-1]) if ports else None


def _in_flight(port: int) -> int:
    for line in http_get(port, "/metrics")[1].splitlines():
        if line.startswith("blockdensity_in_flight "):
            return int(float(line.split()[1]))
    return 0


async def run_node_kill(  # noqa: PLR0915 - the run reads top to bottom
    cluster: PrivateCluster, config: NodeKillConfig, log_dir: Path
) -> NodeKillReport:
    """Kill -9 the node the worker consumes from while pages flow; see the module docstring."""
    report = NodeKillReport(pages=config.pages)
    env = worker_env(amqp_url=",".join(cluster.urls), pool_size=str(config.pool_size))
    settings = StageSettings.from_env(env)
    worker: WorkerProcess = start_worker(env, log_dir / "cluster-worker.log")
    try:
        port = _connected_port(worker.log_text())
        assert port is not None, worker.log_text()  # noqa: S101 - the harness's precondition
        victim = next(node for node in cluster.nodes if node.port == port)
        reader = next(node for node in cluster.nodes if node is not victim)
        report.killed = victim.name
        corpus = corpus_pages(config.pages)
        urls = [f"https://cluster.example/{index}" for index in range(config.pages)]
        async with Client(reader.url) as client:
            # Published in batches of concurrent confirms: faster than the
            # worker drains them, so that pages still flow at the kill.
            for start in range(0, len(urls), _BATCH):
                await asyncio.gather(
                    *(
                        client.publish(
                            settings.input_queue,
                            msgpack_page(url, corpus[index % len(corpus)].raw),
                            content_type="application/msgpack",
                            message_id=url,
                        )
                        for index, url in enumerate(urls[start : start + _BATCH], start)
                    )
                )
            outputs = await collect(client, settings.output_queue, config.outputs_before_kill)
            report.in_flight_at_kill = _in_flight(worker.port)
            await asyncio.to_thread(victim.kill)
            killed = time.monotonic()
            # Unready while it moves (seen within a heartbeat, 0.5 s, or so),
            # then ready again on another node.
            unready_polls = 0
            while True:
                status = (await asyncio.to_thread(http_get, worker.port, "/readyz"))[0]
                unready_polls += status != 200
                waited = time.monotonic() - killed
                if status == 200 and (unready_polls or waited > _UNREADY_WAIT):
                    break
                if waited > 60:
                    break
                await asyncio.sleep(0.05)
            report.ready_after_kill = time.monotonic() - killed
            report.unready_seconds = unready_polls * 0.05
            done = {page_url(message) for message in outputs}
            missing = [url for url in urls if url not in done]
            outputs += await collect_urls(
                client, settings.output_queue, missing, timeout=config.outputs_timeout
            )
            moved = _connected_port(worker.log_text())
            report.moved_to = next((n.name for n in cluster.nodes if n.port == moved), "?")

            # The killed node comes back and rejoins; nothing is left on it.
            restarted = time.monotonic()
            await asyncio.to_thread(victim.start)
            while victim.name not in cluster.running_nodes(reader):
                if time.monotonic() - restarted > 120:
                    break
                await asyncio.sleep(0.5)
            else:
                report.rejoined_after = time.monotonic() - restarted
            dead = await collect(client, settings.dead_letter_queue, config.pages, timeout=3)
            left = await collect(client, settings.input_queue, config.pages, timeout=3)
            outputs += await collect(client, settings.output_queue, config.pages, timeout=3)
            seen = [page_url(message) for message in outputs]
            report.unique_outputs = len(set(seen))
            report.duplicates = len(seen) - len(set(seen))
            report.dead_letters = len(dead)
            report.lost = len(set(urls) - set(seen) - {page_url(m) for m in dead}) + len(left)
            with contextlib.suppress(Exception):
                depths = await asyncio.to_thread(victim.queue_depths)
                report.left_in_queues = {
                    name: ready + unacked
                    for name, (ready, unacked) in depths.items()
                    if name in (settings.input_queue, settings.output_queue)
                }
            await client.delete_topology(settings)
    finally:
        worker.process.terminate()
        report.worker_exit = await asyncio.to_thread(worker.process.wait, 60)
        report.worker_log = worker.log_text()
        report.node_logs = "\n".join(
            f"--- {node.name} ---\n{node.log_tail(60)}" for node in cluster.nodes
        )
    return report
