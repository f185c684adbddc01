"""A worker to test or measure: its environment, and the worker run in this process or another.

`worker_env` gives one run its own queue and exchange names, a free HTTP
port and short timeouts; `running_app` runs the App in this event loop;
`start_worker` runs `python -m worker` as a subprocess and waits for
/readyz. `http_get` reads the worker's HTTP endpoints, `wait_for` polls a
condition. The tests' fixtures (tests/worker/conftest.py), the chaos harness
and the soak build on these.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from devkit.broker import free_port, scratch_topology
from devkit.paths import ROOT
from devkit.procs import descendants
from worker.config import StageSettings
from worker.stage.app import App

__all__ = ["WorkerProcess", "http_get", "running_app", "start_worker", "wait_for", "worker_env"]


def worker_env(**overrides: str) -> dict[str, str]:
    """BLOCKDENSITY_* variables for one run: unique names, a free port, short timeouts.

    `overrides` are settings by their short name: worker_env(pool_size="1").
    """
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


async def wait_for(condition: Any, timeout: float = 30, interval: float = 0.05) -> None:
    """Poll `condition()` (sync or async) until true; AssertionError after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        result = condition()
        if asyncio.iscoroutine(result):
            result = await result
        if result:
            return
        await asyncio.sleep(interval)
    # An assertion, not a TimeoutError: in a test, a condition never met is a failure.
    raise AssertionError(f"condition not met within {timeout} s")


def http_get(port: int, path: str) -> tuple[int, str]:
    """GET http://127.0.0.1:<port><path>: (status, body); (0, the error) if nothing answered."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5) as reply:
            return reply.status, reply.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()
    except OSError as error:
        return 0, str(error)


# --- a worker in this process --------------------------------------------------------


@contextlib.asynccontextmanager
async def running_app(settings: StageSettings) -> AsyncIterator[App]:
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
    """A `python -m worker` started by start_worker: the process, its log, its HTTP port."""

    process: subprocess.Popen[bytes]
    log: Path
    port: int

    def descendants(self) -> list[int]:
        return descendants(self.process.pid)

    def log_text(self) -> str:
        return self.log.read_text(errors="replace")


def start_worker(
    env: dict[str, str], log: Path, preexec: Callable[[], None] | None = None
) -> WorkerProcess:
    """`python -m worker` with `env`, its output in `log`; returns once /readyz says ready.

    `preexec` runs in the new process before the worker does (e.g. joining a
    memory cgroup, devkit.cgroup)."""
    with log.open("ab") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "worker"],
            env={**os.environ, **env},
            cwd=ROOT,
            stdout=out,
            stderr=subprocess.STDOUT,
            preexec_fn=preexec,  # noqa: PLW1509 - it only joins a cgroup
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
