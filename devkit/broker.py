"""The local RabbitMQ (127.0.0.1:5672) for the tests, the demo and the benchmarks.

Owns reaching it: `ensure_rabbitmq` starts it if it is not answering (on a
machine without RabbitMQ, running as root with apt-get, it installs Debian's
rabbitmq-server package first), `rabbitmqctl` runs its control tool, and
`free_port` / `scratch_topology` give a run ports and queue names of its own,
and `scratch_vhost` a virtual host of its own.
Development only; the worker itself never starts a broker.

    python -m devkit.broker     # start (or install) it, return once it answers
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.parse
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

__all__ = [
    "Vhost",
    "broker_answering",
    "ensure_rabbitmq",
    "free_port",
    "rabbitmqctl",
    "scratch_topology",
    "scratch_vhost",
]

HOST = "127.0.0.1"
PORT = 5672
_SBIN = ("/usr/sbin", "/usr/lib/rabbitmq/bin")


def free_port(host: str = HOST) -> int:
    """A TCP port nothing listens on now (for a worker's HTTP server, a private broker)."""
    with socket.socket() as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


def scratch_topology(prefix: str) -> dict[str, str]:
    """BLOCKDENSITY_* variables naming queues and exchanges of their own.

    `prefix.<random>.fetched` and so on: the demo, a benchmark or a test runs
    a worker on the shared broker without touching anyone's real queues.
    """
    names = f"{prefix}.{uuid.uuid4().hex[:10]}"
    return {
        "BLOCKDENSITY_INPUT_QUEUE": f"{names}.fetched",
        "BLOCKDENSITY_OUTPUT_EXCHANGE": f"{names}.pages",
        "BLOCKDENSITY_OUTPUT_QUEUE": f"{names}.clean",
        "BLOCKDENSITY_DEAD_LETTER_EXCHANGE": f"{names}.dlx",
        "BLOCKDENSITY_DEAD_LETTER_QUEUE": f"{names}.dead",
    }


class Vhost(NamedTuple):
    name: str
    url: str  # guest's AMQP URL of it


@contextlib.contextmanager
def scratch_vhost(prefix: str) -> Iterator[Vhost]:
    """A virtual host of its own on the local broker, guest's to use, deleted with
    whatever is in it afterwards.

    A test that closes connections (`close_all_connections --vhost`) then closes
    its own only, not those of the tests that run beside it on the same broker.
    """
    name = f"{prefix}.{uuid.uuid4().hex[:10]}"
    rabbitmqctl("add_vhost", name)
    try:
        rabbitmqctl("set_permissions", "--vhost", name, "guest", ".*", ".*", ".*")
        yield Vhost(name, f"amqp://guest:guest@{HOST}:{PORT}/{urllib.parse.quote(name, safe='')}")
    finally:
        rabbitmqctl("delete_vhost", name)


def broker_answering(host: str = HOST, port: int = PORT, timeout: float = 1.0) -> bool:
    """Whether something accepts TCP connections on host:port (the broker, presumably)."""
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


def _which(command: str) -> str | None:
    found = shutil.which(command)
    if found:
        return found
    for folder in _SBIN:
        path = Path(folder) / command
        if path.exists():
            return str(path)
    return None


def _say(text: str) -> None:
    print(f"devkit.broker: {text}", file=sys.stderr, flush=True)


def _install() -> None:
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        raise RuntimeError(
            "RabbitMQ is not installed and cannot be installed here (needs root and apt-get): "
            "install rabbitmq-server, or point BLOCKDENSITY_AMQP_URL at a broker"
        )
    _say("installing rabbitmq-server with apt-get (once per machine)")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)  # noqa: S607 - system tool
    subprocess.run(
        ["apt-get", "install", "-y", "-qq", "rabbitmq-server"],  # noqa: S607 - system tool
        check=True,
        env=env,
    )


def rabbitmqctl(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """Run rabbitmqctl with `args`; raises CalledProcessError on failure."""
    ctl = _which("rabbitmqctl")
    if ctl is None:
        raise RuntimeError("rabbitmqctl not found")
    return subprocess.run(  # noqa: S603 - fixed command, our own arguments
        [ctl, *args], check=True, capture_output=True, text=True, timeout=timeout
    )


def ensure_rabbitmq(timeout: float = 180) -> None:
    """Return once a broker answers on 127.0.0.1:5672, starting (or installing) one if needed."""
    if broker_answering():
        return
    server = _which("rabbitmq-server")
    if server is None:
        _install()
        if broker_answering(timeout=5):  # the package may have started it
            return
        server = _which("rabbitmq-server")
        if server is None:
            raise RuntimeError("rabbitmq-server still not found after installing it")
    _say("RabbitMQ is not answering on 127.0.0.1:5672: starting it (rabbitmq-server -detached)")
    subprocess.run([server, "-detached"], check=False)  # noqa: S603 - fixed command
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if broker_answering():
            with contextlib.suppress(subprocess.SubprocessError, RuntimeError):
                rabbitmqctl("await_startup", timeout=max(5.0, deadline - time.monotonic()))
            _say("RabbitMQ is up")
            return
        time.sleep(0.5)
    raise RuntimeError(f"RabbitMQ did not start within {timeout:g} s")


if __name__ == "__main__":
    ensure_rabbitmq()
