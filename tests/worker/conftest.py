"""The worker tests' fixtures: the real broker, a unique topology, a client, worker cleanup.

Integration tests talk to the RabbitMQ on 127.0.0.1:5672, started here if it
is not answering. Every test gets its own queue and exchange names (a random
suffix) and deletes them afterwards. The helpers the tests call (workers in
and out of process, pages and messages, reading queues) are devkit's:
devkit.workers, devkit.messages, devkit.client.
"""

from __future__ import annotations

import contextlib
import os
import signal
from collections.abc import AsyncIterator, Iterator

import pytest

from devkit.broker import ensure_rabbitmq
from devkit.client import Client
from devkit.workers import WorkerProcess, worker_env
from worker.config import StageSettings


@pytest.fixture(scope="session")
def rabbitmq() -> None:
    try:
        ensure_rabbitmq()
    except RuntimeError as error:
        pytest.fail(f"no RabbitMQ for the integration tests: {error}")


@pytest.fixture
def env() -> dict[str, str]:
    return worker_env()


@pytest.fixture
def settings(env: dict[str, str]) -> StageSettings:
    return StageSettings.from_env(env)


@pytest.fixture
async def client(rabbitmq: None, settings: StageSettings) -> AsyncIterator[Client]:
    async with Client(settings.amqp_url) as connected:
        yield connected
        await connected.delete_topology(settings)


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
