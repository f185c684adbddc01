"""The worker's image: built by deploy/build-image, run with buildah (for test_image.py).

Always podman and buildah (deploy/build-image installs them where it can):
on the machines this project runs on there is no Docker daemon, and
`podman run` cannot create a container (crun cannot set rlimits, nor work
with cgroups in hybrid mode). `buildah run --isolation chroot` can: it runs
a command in the image's filesystem, as the image's user and with its
environment, on the host's network, which reaches the local RabbitMQ.

Read-only root: buildah has no --read-only, so each top-level directory of
the image is bound read-only onto itself, and /tmp is a tmpfs, as in the
Kubernetes manifests. /etc and /run stay as buildah needs them (it writes
hosts, resolv.conf and .containerenv there) and so does / itself: the
image's user cannot write to any of the three (root's, mode 755), and the
test checks afterwards that the run wrote nothing (`written`).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from devkit.procs import descendants
from tests.deploy.common import DEPLOY, ROOT

BUILD_SCRIPT: Final = DEPLOY / "build-image"
# One tag per checkout: two worktrees on one machine build side by side.
TAG: Final = f"localhost/blockdensity:image-test-{hashlib.sha256(bytes(ROOT)).hexdigest()[:8]}"
# Directories the run may write to or that buildah sets up itself.
_WRITABLE: Final = {"tmp", "proc", "sys", "dev", "etc", "run"}


class ImageUnavailableError(Exception):
    """This machine cannot build the image at all (not root, no podman, not Linux)."""


@dataclass(frozen=True)
class Built:
    """The image as deploy/build-image left it: its tag, config, and what the build printed."""

    tag: str
    config: dict[str, Any]  # the Docker-format config: User, Env, Entrypoint, Healthcheck, ...
    history: list[str]  # the command of every layer of the final image
    size: int
    output: str
    seconds: float


def buildable() -> None:
    """Raise ImageUnavailableError if deploy/build-image cannot possibly run here."""
    if not sys.platform.startswith("linux"):
        raise ImageUnavailableError("building the image needs Linux (podman, buildah, debootstrap)")
    have_tools = shutil.which("podman") and shutil.which("buildah")
    if not have_tools and (os.geteuid() != 0 or shutil.which("apt-get") is None):
        raise ImageUnavailableError(
            "podman and buildah are missing and cannot be installed here (needs root and "
            "apt-get): apt-get install podman buildah fuse-overlayfs uidmap crun"
        )


def build(tag: str = TAG, timeout: float = 1800) -> Built:
    """Build `tag` with deploy/build-image (podman); AssertionError with its output if it fails."""
    env = {**os.environ, "BLOCKDENSITY_IMAGE_ENGINE": "podman"}
    start = time.monotonic()
    result = subprocess.run(  # noqa: S603 - the project's own script
        [str(BUILD_SCRIPT), tag],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    seconds = time.monotonic() - start
    output = result.stdout + result.stderr
    if result.returncode != 0:
        tail = "\n".join(output.splitlines()[-60:])
        raise AssertionError(f"deploy/build-image failed (exit {result.returncode}):\n{tail}")
    inspected = json.loads(_tool("buildah", "inspect", "--type", "image", tag))
    return Built(
        tag=tag,
        config=inspected["Docker"]["config"],
        history=[entry.get("created_by", "") for entry in inspected["Docker"].get("history", [])],
        size=int(_tool("podman", "image", "inspect", "--format", "{{.Size}}", tag)),
        output=output,
        seconds=seconds,
    )


def _tool(*command: str, timeout: float = 120) -> str:
    result = subprocess.run(  # noqa: S603 - podman and buildah, fixed arguments
        command, capture_output=True, text=True, timeout=timeout, check=False
    )
    if result.returncode != 0:
        raise AssertionError(f"{' '.join(command)} failed: {result.stderr.strip()}")
    return result.stdout


@dataclass(frozen=True)
class Container:
    """A buildah working container of the image, and its filesystem mounted on the host."""

    name: str
    root: Path  # the merged view
    upper: Path  # the overlay's upper directory: what runs wrote

    def command(
        self, argv: Sequence[str], env: dict[str, str] | None = None, shared: Path | None = None
    ) -> list[str]:
        """The buildah command that runs `argv` in the container, root read-only but /tmp
        (and /mnt, when `shared` names a host directory to bind there read-write)."""
        if shared is not None and not (self.root / "mnt").is_dir():
            raise AssertionError(f"the image has no /mnt to bind {shared} on")
        writable = _WRITABLE | ({"mnt"} if shared is not None else set())
        binds = [
            f"--volume={self.root / entry.name}:/{entry.name}:ro"
            for entry in sorted(self.root.iterdir())
            if entry.is_dir() and not entry.is_symlink() and entry.name not in writable
        ]
        if shared is not None:
            binds.append(f"--volume={shared}:/mnt:rw")
        variables = [f"--env={key}={value}" for key, value in (env or {}).items()]
        return [
            "buildah",
            "run",
            "--isolation=chroot",
            "--network=host",
            "--mount=type=tmpfs,destination=/tmp",
            *binds,
            *variables,
            self.name,
            "--",
            *argv,
        ]

    def run(
        self,
        argv: Sequence[str],
        env: dict[str, str] | None = None,
        timeout: float = 120,
        shared: Path | None = None,
    ) -> subprocess.CompletedProcess[str]:
        return subprocess.run(  # noqa: S603 - buildah, our own arguments
            self.command(argv, env, shared),
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )

    def spawn(self, argv: Sequence[str], env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
        """Start `argv` in the container, its output to `log`."""
        with log.open("ab") as out:
            return subprocess.Popen(  # noqa: S603 - buildah, our own arguments
                self.command(argv, env), stdout=out, stderr=subprocess.STDOUT
            )

    def written(self) -> list[str]:
        """Paths the container's runs added or changed, buildah's own files excepted."""
        own = {"etc", "etc/hosts", "etc/resolv.conf", "etc/hostname", "run", "run/.containerenv"}
        return sorted(
            str(path.relative_to(self.upper))
            for path in self.upper.rglob("*")
            if str(path.relative_to(self.upper)) not in own
        )


@contextmanager
def container(tag: str = TAG) -> Iterator[Container]:
    """A fresh working container of `tag`, removed on exit."""
    name = _tool("buildah", "from", "--pull-never", tag).strip()
    try:
        root = Path(_tool("buildah", "mount", name).strip())
        yield Container(name, root, root.parent / "diff")
    finally:
        subprocess.run(  # noqa: S603 - buildah, the container we made
            ["buildah", "rm", name],  # noqa: S607
            capture_output=True,
            check=False,
        )


def signal_init(process: subprocess.Popen[bytes], signum: int = signal.SIGTERM) -> int:
    """Send `signum` to the container's init (dumb-init), as `docker stop` sends it to PID 1.

    buildah's chroot isolation has no PID namespace: dumb-init is an
    ordinary process below buildah, found by its command line.
    """
    for pid in descendants(process.pid):
        try:
            argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if Path(argv[0].decode(errors="replace")).name == "dumb-init":
            os.kill(pid, signum)
            return pid
    raise AssertionError(f"no dumb-init below buildah (pid {process.pid})")
