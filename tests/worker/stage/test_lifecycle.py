"""`python -m worker` under load: SIGTERM, SIGKILL and a restart, the broker closing connections.

The pages carry the test hook's SLOW marker (0.2 s more per page), so that
there is work in flight when the worker is interrupted.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import msgspec
import pytest

from devkit.broker import Vhost, rabbitmqctl, scratch_vhost
from devkit.client import Client, Received
from devkit.faults import MARKERS_FIT
from devkit.messages import (
    SLOW,
    collect,
    collect_urls,
    corpus_pages,
    msgpack_page,
    page_url,
    publish_pages,
)
from devkit.paths import ROOT
from devkit.procs import alive
from devkit.workers import WorkerProcess, http_get, start_worker, wait_for, worker_env
from worker.config import StageSettings
from worker.schemas import CleanPage

pytestmark = [pytest.mark.integration, pytest.mark.slow, pytest.mark.serial]

PAGES = 40


def _urls(messages: list[Received]) -> list[str]:
    return [msgspec.msgpack.decode(message.body, type=CleanPage).url for message in messages]


async def test_sigterm_under_load_exits_0_within_the_grace_period_and_loses_nothing(
    rabbitmq: None,
    worker_processes: list[WorkerProcess],
    tmp_path: Path,
) -> None:
    env = worker_env(grace_period="8", fit_function=MARKERS_FIT)
    settings = StageSettings.from_env(env)
    async with Client(settings.amqp_url) as client:
        try:
            await client.declare_input(settings)
            urls = await publish_pages(client, settings, corpus_pages(PAGES), marker=SLOW)
            worker = start_worker(env, tmp_path / "worker.log")
            worker_processes.append(worker)
            outputs = await collect(client, settings.output_queue, 5)
            assert len(outputs) == 5

            worker.process.send_signal(signal.SIGTERM)
            start = time.monotonic()
            code = await asyncio.to_thread(worker.process.wait, 30)
            assert code == 0, worker.log_text()
            assert time.monotonic() - start < 8 + 2  # the grace period and the closing
            log = worker.log_text()
            assert "SIGTERM received" in log
            assert "finishing" in log  # there was work in flight...
            assert "returning" not in log  # ...and all of it finished
            assert "Traceback" not in log

            # Every page is an output or still in the input queue, once.
            outputs += await collect(client, settings.output_queue, PAGES, until_empty=True)
            left = await collect(client, settings.input_queue, PAGES, until_empty=True)
            assert left
            assert sorted(_urls(outputs) + [page_url(message) for message in left]) == sorted(urls)
            assert await client.is_empty(settings.dead_letter_queue)
        finally:
            await client.delete_topology(settings)


async def _worker_stuck_on(
    client: Client, env: dict[str, str], log: Path, urls: list[str], started: list[WorkerProcess]
) -> WorkerProcess:
    """A worker whose fits all hang, each of `urls` in flight (fit timeout far away)."""
    settings = StageSettings.from_env(env)
    await client.declare_input(settings)
    worker = start_worker(env, log)
    started.append(worker)  # the fixture stops it, whatever happens next
    for url in urls:
        await client.publish(
            settings.input_queue,
            msgpack_page(url, b"<p>BLOCKDENSITY-TEST-HANG</p>"),
            content_type="application/msgpack",
        )
    in_flight = f"blockdensity_in_flight {len(urls)}.0"
    await wait_for(lambda: in_flight in http_get(worker.port, "/metrics")[1])
    return worker


async def test_sigterm_requeues_what_cannot_finish_in_the_grace_period(
    rabbitmq: None,
    worker_processes: list[WorkerProcess],
    tmp_path: Path,
) -> None:
    env = worker_env(grace_period="1", fit_function=MARKERS_FIT, fit_timeout="60")
    settings = StageSettings.from_env(env)
    hung = [f"https://hung.example/{index}" for index in range(3)]
    async with Client(settings.amqp_url) as client:
        try:
            worker = await _worker_stuck_on(
                client, env, tmp_path / "worker.log", hung, worker_processes
            )

            worker.process.send_signal(signal.SIGTERM)
            start = time.monotonic()
            assert await asyncio.to_thread(worker.process.wait, 30) == 0
            assert time.monotonic() - start < 1 + 4
            assert "grace period over: returning 3 pages to the queue" in worker.log_text()

            # Requeued, not acked, not dead-lettered; and no child is left hanging.
            left = await collect(client, settings.input_queue, len(hung), timeout=10)
            assert sorted(page_url(message) for message in left) == hung
            assert await client.is_empty(settings.output_queue)
            assert await client.is_empty(settings.dead_letter_queue)
        finally:
            await client.delete_topology(settings)


async def test_a_second_sigterm_returns_the_pages_at_once_and_says_so(
    rabbitmq: None,
    worker_processes: list[WorkerProcess],
    tmp_path: Path,
) -> None:
    env = worker_env(grace_period="60", fit_function=MARKERS_FIT, fit_timeout="60")
    settings = StageSettings.from_env(env)
    hung = [f"https://hung.example/{index}" for index in range(2)]
    async with Client(settings.amqp_url) as client:
        try:
            worker = await _worker_stuck_on(
                client, env, tmp_path / "worker.log", hung, worker_processes
            )
            worker.process.send_signal(signal.SIGTERM)
            await wait_for(lambda: "finishing 2 pages in flight" in worker.log_text())
            start = time.monotonic()
            worker.process.send_signal(signal.SIGTERM)
            assert await asyncio.to_thread(worker.process.wait, 30) == 0
            assert time.monotonic() - start < 10  # not the 60 s grace period
            log = worker.log_text()
            assert "second stop request: returning 2 pages to the queue" in log
            assert "grace period over" not in log
            left = await collect(client, settings.input_queue, len(hung), timeout=10)
            assert sorted(page_url(message) for message in left) == hung
        finally:
            await client.delete_topology(settings)


async def test_sigkill_under_load_then_restart_yields_every_page(
    rabbitmq: None,
    worker_processes: list[WorkerProcess],
    tmp_path: Path,
) -> None:
    env = worker_env(fit_function=MARKERS_FIT)
    settings = StageSettings.from_env(env)
    async with Client(settings.amqp_url) as client:
        try:
            await client.declare_input(settings)
            urls = await publish_pages(client, settings, corpus_pages(PAGES), marker=SLOW)
            worker = start_worker(env, tmp_path / "first.log")
            worker_processes.append(worker)
            outputs = await collect(client, settings.output_queue, 5)
            children = worker.descendants()
            assert children  # the forkserver and the pool

            worker.process.kill()
            worker.process.wait(10)
            # The pool's processes die with their parent: no orphan keeps running.
            await wait_for(lambda: not any(alive(pid) for pid in children), timeout=10)

            restarted = start_worker(env, tmp_path / "second.log")
            worker_processes.append(restarted)
            missing = sorted(set(urls) - set(_urls(outputs)))
            outputs += await collect_urls(client, settings.output_queue, missing)

            seen = _urls(outputs)
            assert sorted(set(seen)) == sorted(urls)
            # Duplicates (pages in flight at the kill) carry the same message_id.
            ids: dict[str, set[str | None]] = {}
            for url, message in zip(seen, outputs, strict=True):
                ids.setdefault(url, set()).add(message.message_id)
            assert all(len(message_ids) == 1 for message_ids in ids.values())
            assert len({next(iter(message_ids)) for message_ids in ids.values()}) == len(urls)

            restarted.process.send_signal(signal.SIGTERM)
            assert await asyncio.to_thread(restarted.process.wait, 30) == 0
        finally:
            await client.delete_topology(settings)


async def test_reconnects_after_the_broker_closes_every_connection(
    rabbitmq: None,
    worker_processes: list[WorkerProcess],
    tmp_path: Path,
) -> None:
    # In a virtual host of the test's own: the connections of the tests running
    # beside it on the shared broker stay open.
    with scratch_vhost("reconnects") as vhost:
        await _reconnects_after_every_connection_closes(vhost, worker_processes, tmp_path)


async def _reconnects_after_every_connection_closes(
    vhost: Vhost, worker_processes: list[WorkerProcess], tmp_path: Path
) -> None:
    env = worker_env(fit_function=MARKERS_FIT, amqp_url=vhost.url)
    settings = StageSettings.from_env(env)
    async with Client(settings.amqp_url) as client:
        try:
            await client.declare_input(settings)
            urls = await publish_pages(client, settings, corpus_pages(PAGES), marker=SLOW)
            worker = start_worker(env, tmp_path / "worker.log")
            worker_processes.append(worker)
            outputs = await collect(client, settings.output_queue, 5)

            await asyncio.to_thread(
                rabbitmqctl, "close_all_connections", "--vhost", vhost.name, "test: closing all"
            )
            missing = sorted(set(urls) - set(_urls(outputs)))
            outputs += await collect_urls(client, settings.output_queue, missing)
            assert set(_urls(outputs)) == set(urls)
            assert worker.process.poll() is None  # it reconnected rather than exiting
            await wait_for(lambda: http_get(worker.port, "/readyz")[0] == 200, timeout=30)
            status, metrics = http_get(worker.port, "/metrics")
            assert status == 200
            # Acks for deliveries of the closed channel fail, are counted, and
            # the broker redelivers those pages (the outputs above include them).
            assert "blockdensity_ack_failures_total" in metrics

            worker.process.send_signal(signal.SIGTERM)
            assert await asyncio.to_thread(worker.process.wait, 30) == 0
        finally:
            await client.delete_topology(settings)


def test_a_worker_whose_fit_processes_cannot_start_exits_1_and_says_why(tmp_path: Path) -> None:
    env = worker_env(fit_function="devkit.faults:dies_on_arrival", pool_start_timeout="2")
    worker = subprocess.run(
        [sys.executable, "-m", "worker"],
        env={**os.environ, **env},
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert worker.returncode == 1
    assert "exited before it was ready (exit status 3)" in worker.stderr
    assert "no fit process was ready after 2 s" in worker.stderr
    assert "consuming" not in worker.stderr  # it never took a page
