"""Fixtures of the reliability tests: bench/ importable, the worker tests' fixtures.

The tests that stop the broker's application or close its connections (the
chaos run), or that need a user with a password or a TLS listener (the
security review), start a RabbitMQ node of their own (bench/rabbitnode.py),
never touching the shared broker on 127.0.0.1:5672.
"""

from __future__ import annotations

import sys
from pathlib import Path

# Appended, not prepended: bench/worker.py must not shadow the worker package.
sys.path.append(str(Path(__file__).resolve().parents[2] / "bench"))

from tests.worker.conftest import rabbitmq, worker_processes

__all__ = ["rabbitmq", "worker_processes"]
