"""A private, throwaway RabbitMQ node for the chaos run, the soak and their tests.

The chaos run stops the broker's application and closes every connection:
never on the machine's shared broker (127.0.0.1:5672), which others use. This
starts a second node of the installed RabbitMQ under its own name, ports,
Erlang cookie, data and log directories (all in one temporary directory), with
no plugins, listening on 127.0.0.1 only; `rabbitmqctl -n <node>` (with that
cookie) targets it and nothing else. `stop()` shuts it down and deletes the
directory; it also runs at interpreter exit, so a failed run leaves nothing.

    with PrivateRabbit("chaos") as node:
        node.url              # amqp://guest:guest@127.0.0.1:<port>/
        node.ctl("list_queues", "name", "messages")
        node.stop_app(); node.start_app(); node.close_all_connections("chaos")
"""

from __future__ import annotations

import atexit
import contextlib
import os
import secrets
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import Self

from devkit.broker import free_port

__all__ = ["PrivateRabbit", "RabbitUnavailableError", "Started"]

_BIN = Path("/usr/lib/rabbitmq/bin")


class RabbitUnavailableError(RuntimeError):
    """RabbitMQ is not installed here, or a private node would not start."""


def _tool(name: str) -> str:
    # The unwrapped scripts: /usr/sbin's wrappers switch to the rabbitmq user,
    # whose cookie and environment file are the shared node's.
    path = _BIN / name
    if path.exists():
        return str(path)
    found = shutil.which(name)
    if found is None:
        raise RabbitUnavailableError(f"{name} not found: is rabbitmq-server installed?")
    return found


class Started:
    """`with` starts it and always stops it, also when starting failed half-way."""

    def start(self) -> None:
        raise NotImplementedError

    def stop(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Self:
        try:
            self.start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()


class PrivateRabbit(Started):
    """One RabbitMQ node of our own; see the module's docstring."""

    def __init__(  # noqa: PLR0913 - a node's settings, the last two by keyword
        self,
        prefix: str = "private",
        extra_config: str = "",
        cookie: str | None = None,
        plugins: tuple[str, ...] = (),
        *,
        address: str = "127.0.0.1",
        wrap: Callable[[list[str]], list[str]] = list,
    ) -> None:
        # `address`: the node's IP (another than loopback in a namespace of
        # devkit.netlab's, then the node has a long name, name@address); `wrap`
        # turns each command into one run where the node lives (ip netns exec).
        self.address = address
        self._wrap = wrap
        self.plugins = plugins  # e.g. rabbitmq_consistent_hash_exchange
        self.extra_config = extra_config  # rabbitmq.conf lines (e.g. a TLS listener)
        # Nodes of one cluster share their Erlang cookie (devkit.cluster).
        self.cookie = cookie or secrets.token_hex(16).upper()
        self.long_name = address != "127.0.0.1"
        self.name = f"{prefix}{secrets.token_hex(4)}@{address if self.long_name else 'localhost'}"
        # A namespace of its own has every port free: the standard ones.
        self.port = 5672 if self.long_name else free_port()
        self.dist_port = 25672 if self.long_name else free_port()
        self.url = f"amqp://guest:guest@{address}:{self.port}/"
        self.directory = Path(tempfile.mkdtemp(prefix=f"rabbit-{prefix}-"))
        self._pid: int | None = None
        self._env = self._environment()
        self._stopped = False

    def _environment(self) -> dict[str, str]:
        folder = self.directory
        home = folder / "home"
        home.mkdir()
        cookie = home / ".erlang.cookie"
        cookie.write_text(self.cookie, encoding="ascii")
        cookie.chmod(0o600)
        (folder / "enabled_plugins").write_text(f"[{','.join(self.plugins)}].\n", encoding="ascii")
        # The shared node's /etc/rabbitmq/rabbitmq.conf binds 5672: ours replaces it.
        (folder / "rabbitmq.conf").write_text(
            f"listeners.tcp.local = {self.address}:{self.port}\n{self.extra_config}",
            encoding="ascii",
        )
        interface = self.address.replace(".", ",")
        (folder / "rabbitmq-env.conf").write_text("", encoding="ascii")
        return {
            **os.environ,
            "HOME": str(home),
            "RABBITMQ_CONF_ENV_FILE": str(folder / "rabbitmq-env.conf"),
            "RABBITMQ_CONFIG_FILE": str(folder / "rabbitmq.conf"),
            "RABBITMQ_NODENAME": self.name,
            "RABBITMQ_NODE_PORT": str(self.port),
            "RABBITMQ_NODE_IP_ADDRESS": self.address,
            "RABBITMQ_DIST_PORT": str(self.dist_port),
            "RABBITMQ_MNESIA_BASE": str(folder / "mnesia"),
            "RABBITMQ_LOG_BASE": str(folder / "log"),
            "RABBITMQ_ENABLED_PLUGINS_FILE": str(folder / "enabled_plugins"),
            "RABBITMQ_PID_FILE": str(folder / "pid"),
            "RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS": (
                f"-kernel inet_dist_use_interface {{{interface}}}"
            ),
            # In a namespace, epmd answers the other nodes on the node's address too.
            "ERL_EPMD_ADDRESS": f"127.0.0.1,{self.address}" if self.long_name else "127.0.0.1",
            **({"RABBITMQ_USE_LONGNAME": "true"} if self.long_name else {}),
        }

    def start(self, timeout: float = 120) -> None:
        """Start the node; return once it accepts AMQP connections."""
        atexit.register(self.stop)
        subprocess.run(  # noqa: S603 - fixed command, our own arguments
            self._wrap([_tool("rabbitmq-server"), "-detached"]),
            env=self._env,
            check=True,
            capture_output=True,
            timeout=60,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            # await_startup fails at once until the node has registered with epmd.
            result = self.ctl("await_startup", "--timeout", "30", check=False)
            if result.returncode == 0:
                self._pid = self._read_pid()
                return
            time.sleep(0.5)
        log = self.log_tail()
        self.stop()
        raise RabbitUnavailableError(f"private node {self.name} did not start:\n{log}")

    def _read_pid(self) -> int | None:
        try:
            return int((self.directory / "pid").read_text().strip())
        except (OSError, ValueError):
            return None

    @property
    def pid(self) -> int | None:
        """The node's beam.smp process id."""
        return self._pid

    def ctl(
        self, *args: str, timeout: float = 120, check: bool = True
    ) -> subprocess.CompletedProcess[str]:
        """`rabbitmqctl -n <this node> args...`."""
        return subprocess.run(  # noqa: S603 - fixed command, our own arguments
            self._wrap([_tool("rabbitmqctl"), "-n", self.name, *args]),
            env=self._env,
            check=check,
            capture_output=True,
            text=True,
            timeout=timeout,
        )

    def kill(self) -> None:
        """SIGKILL the node (as a machine's crash would); its data stays for a restart."""
        pid = self._pid or self._read_pid()
        if pid is not None and self._is_ours(pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
            deadline = time.monotonic() + 10
            while self._is_ours(pid) and time.monotonic() < deadline:
                time.sleep(0.05)
        with contextlib.suppress(OSError):
            (self.directory / "pid").unlink()
        self._pid = None

    def stop_app(self) -> None:
        self.ctl("stop_app")

    def start_app(self) -> None:
        self.ctl("start_app")
        self.ctl("await_startup", "--timeout", "60")

    def close_all_connections(self, reason: str) -> None:
        self.ctl("close_all_connections", reason)

    def queue_depths(self) -> dict[str, tuple[int, int]]:
        """Queue name -> (ready, unacknowledged), as the node counts them now."""
        listed = self.ctl(
            "list_queues",
            "name",
            "messages_ready",
            "messages_unacknowledged",
            "--quiet",
            "--no-table-headers",
        )
        depths = {}
        for line in listed.stdout.splitlines():
            parts = line.split("\t")
            if len(parts) == 3 and parts[1].isdigit() and parts[2].isdigit():
                depths[parts[0]] = (int(parts[1]), int(parts[2]))
        return depths

    def log_tail(self, lines: int = 40) -> str:
        logs = sorted((self.directory / "log").glob("*.log"))
        text = "".join(path.read_text(errors="replace") for path in logs)
        return "\n".join(text.splitlines()[-lines:])

    def _is_ours(self, pid: int) -> bool:
        # Only this node's beam.smp, never a process that reused the id.
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            return False
        # The node's name comes through the environment; its home directory,
        # which is under this node's own temporary directory, is on the command line.
        return str(self.directory).encode() in cmdline

    def stop(self, *, graceful: bool = True) -> None:
        """Shut the node down (killing it if it will not go, or at once without
        `graceful`) and delete its directory."""
        if self._stopped:
            return
        self._stopped = True
        pid = self._pid or self._read_pid()
        if graceful:
            with contextlib.suppress(subprocess.SubprocessError, OSError):
                self.ctl("shutdown", timeout=60, check=False)
        if pid is not None and self._is_ours(pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        shutil.rmtree(self.directory, ignore_errors=True)
        atexit.unregister(self.stop)
