"""The memory-alarm run: a backlog of pages, the broker's memory alarm raised, then cleared.

A private RabbitMQ node (devkit.rabbitnode), `python -m worker` on it, and
a backlog of corpus pages in its input queue. Once the worker has put out a
few pages, the node's memory alarm is raised (`set_vm_memory_high_watermark
0.00001`) for `alarm_seconds`, then cleared (back to 0.4). Throughout,
/readyz is polled. Afterwards every input is accounted for by URL: put out
(once or more), dead-lettered, or lost. The test suite runs a short variant
(tests/reliability/test_alarm.py), `python -m bench.alarm` the long one.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from pathlib import Path

from devkit.client import Client
from devkit.faults import MARKERS_FIT
from devkit.messages import SLOW, collect, collect_urls, corpus_pages, msgpack_page, page_url
from devkit.rabbitnode import PrivateRabbit
from devkit.workers import http_get, start_worker, worker_env
from worker.config import StageSettings

__all__ = ["AlarmConfig", "AlarmReport", "run_alarm"]

_POLL = 0.25
_ALARM_ON = "0.00001"
_ALARM_OFF = "0.4"


@dataclass(frozen=True)
class AlarmConfig:
    pages: int = 600
    alarm_seconds: float = 120.0
    pool_size: int = 2
    outputs_before_alarm: int = 20


@dataclass
class AlarmReport:
    pages: int
    alarm_seconds: float
    unique_outputs: int = 0
    duplicates: int = 0
    dead_letters: int = 0
    lost: int = 0
    in_flight_at_alarm: int = 0
    unready_after_alarm_began: float = 0.0  # seconds from raising the alarm to /readyz 503
    ready_share_during_alarm: float = 0.0  # share of polls during the alarm that said ready
    ready_after_clear: float = 0.0  # seconds from clearing the alarm to /readyz 200
    unready_body: str = ""
    publish_failed: float = 0.0
    blocked_seconds: float = 0.0
    worker_exit: int | None = None
    worker_log: str = ""
    polls: list[tuple[float, int]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return (
            self.lost == 0
            and self.dead_letters == 0
            and self.duplicates <= self.in_flight_at_alarm
            and self.ready_share_during_alarm == 0.0
            and self.ready_after_clear <= 5.0
            and self.worker_exit == 0
        )


def _metric(text: str, name: str) -> float:
    for line in text.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[1])
    return 0.0


async def run_alarm(config: AlarmConfig, log_dir: Path) -> AlarmReport:
    """Run it on a private node; the worker's log goes to `log_dir`."""
    report = AlarmReport(pages=config.pages, alarm_seconds=config.alarm_seconds)
    with PrivateRabbit("alarm") as node:
        # Pages that take 0.2 s each (the fault fit's SLOW marker): a backlog
        # that outlasts the alarm's start, at 5 pages/s per fit process.
        env = worker_env(
            amqp_url=node.url, pool_size=str(config.pool_size), fit_function=MARKERS_FIT
        )
        settings = StageSettings.from_env(env)
        corpus = corpus_pages(config.pages)
        pages = [corpus[index % len(corpus)].raw + SLOW for index in range(config.pages)]
        urls = [f"https://alarm.example/{index}" for index in range(config.pages)]
        async with Client(settings.amqp_url) as client:
            await client.declare_input(settings)
            for url, page in zip(urls, pages, strict=True):
                await client.publish(
                    settings.input_queue,
                    msgpack_page(url, page),
                    content_type="application/msgpack",
                    message_id=url,
                )
            worker = start_worker(env, log_dir / "alarm-worker.log")
            try:
                outputs = await collect(client, settings.output_queue, config.outputs_before_alarm)
                metrics = http_get(worker.port, "/metrics")[1]
                report.in_flight_at_alarm = int(_metric(metrics, "blockdensity_in_flight"))
                await asyncio.to_thread(node.ctl, "set_vm_memory_high_watermark", _ALARM_ON)
                began = time.monotonic()
                report.in_flight_at_alarm = max(
                    report.in_flight_at_alarm,
                    int(_metric(http_get(worker.port, "/metrics")[1], "blockdensity_in_flight")),
                )
                await _poll_readiness(worker.port, began, config.alarm_seconds, report)
                await asyncio.to_thread(node.ctl, "set_vm_memory_high_watermark", _ALARM_OFF)
                cleared = time.monotonic()
                while http_get(worker.port, "/readyz")[0] != 200:
                    if time.monotonic() - cleared > 60:
                        break
                    await asyncio.sleep(0.05)
                report.ready_after_clear = time.monotonic() - cleared
                done = {page_url(message) for message in outputs}
                missing = [url for url in urls if url not in done]
                outputs += await collect_urls(client, settings.output_queue, missing, timeout=300)
                metrics = http_get(worker.port, "/metrics")[1]
                report.publish_failed = _metric(
                    metrics, 'blockdensity_pages_total{outcome="publish_failed"}'
                )
                report.blocked_seconds = _metric(
                    metrics, "blockdensity_broker_blocked_seconds_total"
                )
            finally:
                worker.process.terminate()
                report.worker_exit = await asyncio.to_thread(worker.process.wait, 60)
                report.worker_log = worker.log_text()
            dead = await collect(client, settings.dead_letter_queue, config.pages, timeout=3)
            seen = [page_url(message) for message in outputs]
            report.unique_outputs = len(set(seen))
            report.duplicates = len(seen) - len(set(seen))
            report.dead_letters = len(dead)
            accounted = set(seen) | {page_url(message) for message in dead}
            left = await collect(client, settings.input_queue, config.pages, timeout=3)
            report.lost = len(set(urls) - accounted - {page_url(message) for message in left})
            # Still queued is not lost, but the run waited for everything: count it as such.
            report.lost += len(left)
    return report


async def _poll_readiness(port: int, began: float, seconds: float, report: AlarmReport) -> None:
    """Poll /readyz for the alarm's duration; note when it first failed and how often."""
    ready_polls = total = 0
    while (now := time.monotonic()) - began < seconds:
        status, body = await asyncio.to_thread(http_get, port, "/readyz")
        report.polls.append((now - began, status))
        if status != 200 and not report.unready_body:
            report.unready_after_alarm_began = now - began
            report.unready_body = body.strip()
        # The first seconds go to the broker noticing its alarm and the worker its block.
        if now - began > report.unready_after_alarm_began + 0.5 and report.unready_body:
            total += 1
            ready_polls += status == 200
        await asyncio.sleep(_POLL)
    report.ready_share_during_alarm = ready_polls / total if total else 1.0
