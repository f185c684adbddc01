"""A private subnet of network namespaces, for the partition run and its test.

`NetLab(["n0", "n1", "n2"])` makes one network namespace per host and one
for the client (the worker and the crawler), joined by veth pairs to a
bridge in the client's namespace, on a /24 of 10.254.x.0 that exists only
inside these namespaces: no route, address or rule of the machine's own
namespace is touched. `cut(host)` drops every packet into and out of the
host's namespace except its loopback (iptables DROP in its own namespace, so
that its local tools, rabbitmqctl included, still reach it), as a silent
partition does: no reset, no close, nothing. `heal(host)` removes the rules.

`stop()` kills whatever still runs inside the namespaces and deletes them
(and, with them, their interfaces and rules); it also runs at interpreter
exit, so a failed run leaves nothing behind. A process joins the client's
namespace with `enter_client()` (per thread, as setns(2) is): the partition
run does all its work in such a thread, and everything it starts inherits it.

Needs root, `ip` (iproute2) and `iptables`: `ensure_tools()` installs
Debian's packages when they are missing (as the deployment tests install
promtool).
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import os
import secrets
import shutil
import signal
import subprocess
import sys
import time
from typing import Final

from devkit.rabbitnode import Started

__all__ = ["NetLab", "NetLabUnavailableError", "ensure_tools"]

_CLONE_NEWNET: Final = 0x40000000
_CLIENT_ADDRESS: Final = 1  # the bridge's address in the client's namespace: .1


class NetLabUnavailableError(RuntimeError):
    """Namespaces cannot be made here (not root, no iproute2 or iptables)."""


def ensure_tools() -> None:
    """`ip` and `iptables`, installing Debian's iproute2 and iptables if missing."""
    missing = [name for name in ("ip", "iptables") if shutil.which(name) is None]
    if not missing:
        return
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        raise NetLabUnavailableError(
            f"{', '.join(missing)} missing and not installable here (needs root and apt-get): "
            "apt-get install iproute2 iptables"
        )
    print("devkit.netlab: installing Debian's iproute2 and iptables", file=sys.stderr)
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for command in (
        ["apt-get", "update", "-qq"],
        ["apt-get", "install", "-y", "-qq", "--no-install-recommends", "iproute2", "iptables"],
    ):
        subprocess.run(command, check=True, env=env, timeout=600)  # noqa: S603 - system tool


def _run(*argv: str) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(  # noqa: S603 - ip and iptables, our own arguments
        argv, capture_output=True, text=True, timeout=30, check=False
    )
    if result.returncode != 0:
        raise NetLabUnavailableError(f"{' '.join(argv)}: {result.stderr.strip()}")
    return result


class NetLab(Started):
    """Hosts in namespaces of their own on one private bridge; see the module's docstring."""

    def __init__(self, hosts: list[str]) -> None:
        self.tag = secrets.token_hex(3)
        # One /24 per lab: a second lab at the same time (another run) has its
        # own namespaces anyway, so the subnet only has to be valid inside them.
        self.subnet = f"10.254.{secrets.randbelow(250) + 1}"
        self.client = f"bdlab{self.tag}c"
        self.namespaces = {host: f"bdlab{self.tag}{host}" for host in hosts}
        self.addresses = {host: f"{self.subnet}.{11 + index}" for index, host in enumerate(hosts)}
        self.client_address = f"{self.subnet}.{_CLIENT_ADDRESS}"
        self.cut_hosts: set[str] = set()
        self._made: list[str] = []
        self._stopped = False

    def start(self) -> None:
        ensure_tools()
        if os.geteuid() != 0:
            raise NetLabUnavailableError("network namespaces need root")
        atexit.register(self.stop)
        self._add(self.client)
        _run("ip", "-n", self.client, "link", "add", "br0", "type", "bridge")
        _run("ip", "-n", self.client, "addr", "add", f"{self.client_address}/24", "dev", "br0")
        _run("ip", "-n", self.client, "link", "set", "br0", "up")
        for index, (host, namespace) in enumerate(self.namespaces.items()):
            self._add(namespace)
            port = f"p{index}"
            # Both ends are made inside our namespaces: the machine's own never sees them.
            _run(
                "ip", "link", "add", "eth0", "netns", namespace, "type", "veth",
                "peer", "name", port, "netns", self.client,
            )  # fmt: skip
            _run("ip", "-n", self.client, "link", "set", port, "master", "br0")
            _run("ip", "-n", self.client, "link", "set", port, "up")
            _run("ip", "-n", namespace, "addr", "add", f"{self.addresses[host]}/24", "dev", "eth0")
            _run("ip", "-n", namespace, "link", "set", "eth0", "up")

    def _add(self, namespace: str) -> None:
        _run("ip", "netns", "add", namespace)
        self._made.append(namespace)
        _run("ip", "-n", namespace, "link", "set", "lo", "up")

    def command(self, host: str, argv: list[str]) -> list[str]:
        """`argv` run inside `host`'s namespace."""
        return ["ip", "netns", "exec", self.namespaces[host], *argv]

    def cut(self, host: str) -> None:
        """Drop everything into and out of `host` but its loopback: a silent partition."""
        for chain, side in (("INPUT", "-i"), ("OUTPUT", "-o")):
            _run(*self.command(host, ["iptables", "-A", chain, "!", side, "lo", "-j", "DROP"]))
        self.cut_hosts.add(host)

    def heal(self, host: str) -> None:
        """Undo `cut`."""
        for chain, side in (("INPUT", "-i"), ("OUTPUT", "-o")):
            _run(*self.command(host, ["iptables", "-D", chain, "!", side, "lo", "-j", "DROP"]))
        self.cut_hosts.discard(host)

    def rules(self, host: str) -> str:
        """The host's iptables rules, as `iptables -S` lists them."""
        return _run(*self.command(host, ["iptables", "-S"])).stdout

    def enter_client(self) -> None:
        """Move the calling thread into the client's namespace (setns(2) is per thread)."""
        libc = ctypes.CDLL(None, use_errno=True)
        descriptor = os.open(f"/run/netns/{self.client}", os.O_RDONLY)
        try:
            if libc.setns(descriptor, _CLONE_NEWNET) != 0:
                errno = ctypes.get_errno()
                raise NetLabUnavailableError(f"setns({self.client}): {os.strerror(errno)}")
        finally:
            os.close(descriptor)

    def stop(self) -> None:
        """Kill what runs in the namespaces, then delete them (their links and rules go too)."""
        if self._stopped:
            return
        self._stopped = True
        for namespace in reversed(self._made):
            for _ in range(50):  # epmd and stragglers; a killed process leaves at once
                listed = subprocess.run(  # noqa: S603 - fixed command
                    ["ip", "netns", "pids", namespace],  # noqa: S607 - system tool
                    capture_output=True,
                    text=True,
                    check=False,
                )
                pids = [int(pid) for pid in listed.stdout.split()]
                if not pids:
                    break
                for pid in pids:
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(pid, signal.SIGKILL)
                time.sleep(0.1)
            subprocess.run(  # noqa: S603 - fixed command
                ["ip", "netns", "del", namespace],  # noqa: S607 - system tool
                capture_output=True,
                check=False,
            )
        self._made.clear()
        atexit.unregister(self.stop)
