"""`python -m worker` with its forkserver stopped mid-stream and a fit process killed.

The fit pool learns of a fit process's death from the process's own socket,
not from the forkserver (which reports exit statuses, and starts the fit
processes): with the forkserver stopped (SIGSTOP), a killed fit process's
page is released at once and requeued, the event loop never waits on the
forkserver (/healthz stays 200), the stopped forkserver shows in readiness
and in blockdensity_forkserver_up, and it is replaced; nothing is lost.

The pages carry the test hook's SLOW marker (0.2 s more per page), so that
both fit processes are busy when one is killed.
"""

from __future__ import annotations

import asyncio
import os
import signal
import time
from pathlib import Path

import pytest

from devkit.client import Client
from devkit.faults import MARKERS_FIT
from devkit.messages import SLOW, collect, collect_urls, corpus_pages, page_url, publish_pages
from devkit.procs import stat_fields
from devkit.workers import WorkerProcess, http_get, start_worker, worker_env
from worker.config import StageSettings

pytestmark = [pytest.mark.integration, pytest.mark.slow, pytest.mark.serial]

PAGES = 120


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def _forkserver_and_fitters(worker: WorkerProcess) -> tuple[int, list[int]]:
    """The worker's forkserver, and the fit processes it started (its children)."""
    below = worker.descendants()
    forkserver = next(pid for pid in below if b"forkserver" in _cmdline(pid))
    fitters = [pid for pid in below if (stat_fields(pid) or ["", ""])[1] == str(forkserver)]
    return forkserver, [pid for pid in fitters if (stat_fields(pid) or ["Z"])[0] != "Z"]


def _metric(port: int, name: str) -> float:
    """A sample of /metrics by its name and labels, as the exposition writes them."""
    for line in http_get(port, "/metrics")[1].splitlines():
        key, _, value = line.rpartition(" ")
        if key == name:
            return float(value)
    return float("nan")


def _crashed(port: int) -> float:
    return _metric(port, 'blockdensity_pages_total{outcome="crashed"}')


async def test_a_stopped_forkserver_holds_nothing_up(  # noqa: PLR0915 - one story
    rabbitmq: None,
    worker_processes: list[WorkerProcess],
    tmp_path: Path,
) -> None:
    env = worker_env(fit_function=MARKERS_FIT, pool_watch_interval="0.5")
    settings = StageSettings.from_env(env)
    async with Client(settings.amqp_url) as client:
        try:
            await client.declare_input(settings)
            urls = await publish_pages(client, settings, corpus_pages(PAGES), marker=SLOW)
            worker = start_worker(env, tmp_path / "worker.log")
            worker_processes.append(worker)
            outputs = await collect(client, settings.output_queue, 10)

            forkserver, fitters = _forkserver_and_fitters(worker)
            assert len(fitters) == 2, fitters
            crashed_before = _crashed(worker.port)
            os.kill(forkserver, signal.SIGSTOP)
            try:
                os.kill(fitters[0], signal.SIGKILL)
                killed = time.monotonic()
                # The page of the killed process comes back (a crash, requeued)
                # from its socket alone: within a second.
                while _crashed(worker.port) <= crashed_before:
                    assert time.monotonic() - killed < 1.0, worker.log_text()[-3000:]
                    await asyncio.sleep(0.01)
                requeued_after = time.monotonic() - killed
                # /healthz stays 200 throughout; readiness fails while the stopped
                # forkserver is in use, and it is replaced.
                health, ready, forkserver_up = [], [], []
                deadline = time.monotonic() + 8
                while time.monotonic() < deadline:
                    health.append(http_get(worker.port, "/healthz")[0])
                    ready.append(http_get(worker.port, "/readyz")[0])
                    forkserver_up.append(_metric(worker.port, "blockdensity_forkserver_up"))
                    if 503 in ready and ready[-1] == 200:
                        break
                    await asyncio.sleep(0.05)
            finally:
                # The old forkserver was killed by the worker; should it not have
                # been, let it go on (and end with the worker) rather than stay stopped.
                if stat_fields(forkserver) is not None:
                    os.kill(forkserver, signal.SIGCONT)
            log = worker.log_text()
            assert set(health) == {200}, (health, log[-3000:])
            assert 503 in ready, (ready, log[-3000:])
            assert ready[-1] == 200, (ready, log[-3000:])
            assert 0.0 in forkserver_up, forkserver_up
            assert "forkserver is stopped" in log, log[-3000:]
            restarts = 'blockdensity_pool_restarts_total{reason="forkserver"}'
            assert _metric(worker.port, restarts) >= 1
            assert _metric(worker.port, "blockdensity_forkserver_up") == 1.0
            new_forkserver, new_fitters = _forkserver_and_fitters(worker)
            assert new_forkserver != forkserver
            assert len(new_fitters) == 2, new_fitters

            done = {page_url(message) for message in outputs}
            outputs += await collect_urls(
                client, settings.output_queue, [url for url in urls if url not in done]
            )
            dead = await collect(client, settings.dead_letter_queue, PAGES, timeout=1)
            assert {page_url(message) for message in outputs} == set(urls)
            assert not dead
            assert requeued_after < 1.0
        finally:
            await client.delete_topology(settings)
