"""Fixtures of the reliability tests: the worker tests' broker and worker cleanup.

The tests that stop the broker's application or close its connections (the
chaos run), or that need a user with a password or a TLS listener (the
security review), start a RabbitMQ node of their own (devkit.rabbitnode),
never touching the shared broker on 127.0.0.1:5672.
"""

from __future__ import annotations

from tests.worker.conftest import rabbitmq, worker_processes

__all__ = ["rabbitmq", "worker_processes"]
