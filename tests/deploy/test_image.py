"""The image itself: deploy/Dockerfile built by deploy/build-image, then run.

test_docker.py reads the Dockerfile; this builds it (podman; on the Debian
stand-in bases where no registry serves the pinned python: images, see
deploy/README.md) and looks inside: the compiled modules, the user, nothing
to compile or install with, the wheel's files, the installed distributions.
Then it runs the worker in the image, root filesystem read-only but /tmp,
against the local RabbitMQ: the sample pages go through and come back as
the development environment's fit makes them, the image's own HEALTHCHECK
passes while it runs (and fails once it has stopped), and SIGTERM to its
init ends it with status 0.

The first test builds the image (minutes on a fresh machine: podman,
debootstrap's bases; seconds when warm). Nothing here skips where the image
can be built: a missing tool is installed by deploy/build-image.
"""

from __future__ import annotations

import ast
import asyncio
import hashlib
import importlib.metadata
import json
import re
import subprocess
import tempfile
import time
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from blockdensity import fit_text
from devkit.broker import ensure_rabbitmq
from devkit.client import Client
from devkit.messages import collect_urls, page_url, publish_pages, sample_pages
from devkit.workers import http_get, worker_env
from tests.deploy import image
from tests.deploy.common import DEPLOY, ROOT
from worker.config import SETTINGS, StageSettings

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]

PROBE = (Path(__file__).parent / "image_probe.py").read_text(encoding="utf-8")
DOCKERFILE = (DEPLOY / "Dockerfile").read_text(encoding="utf-8")
AMQP_URL = "amqp://guest:guest@127.0.0.1:5672/"


@pytest.fixture(scope="module")
def built() -> image.Built:
    try:
        image.buildable()
    except image.ImageUnavailableError as reason:
        pytest.skip(str(reason))
    return image.build()


@pytest.fixture
def box(built: image.Built) -> Iterator[image.Container]:
    with image.container(built.tag) as container:
        yield container


def _setup_list(name: str) -> list[str]:
    """One of setup.py's lists of source paths."""
    tree = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and any(
            isinstance(target, ast.Name) and target.id == name for target in node.targets
        ):
            paths: list[str] = ast.literal_eval(node.value)
            return paths
    raise AssertionError(f"setup.py has no {name} list")


def _compiled_modules() -> list[str]:
    """The modules setup.py compiles: its COMPILED list (mypyc) and its CYTHON list."""
    paths = [*_setup_list("COMPILED"), *_setup_list("CYTHON")]
    return [path.removesuffix(".py").removesuffix(".pyx").replace("/", ".") for path in paths]


def _stubs() -> list[str]:
    """The Cython modules' type stubs, which the wheel carries beside them."""
    return [path.removesuffix(".pyx") + ".pyi" for path in _setup_list("CYTHON")]


def _runtime_closure() -> dict[str, str]:
    """Every distribution `blockdensity[worker]` needs, with the version this environment has.

    This environment is installed with constraints.txt, as the image is.
    """
    found: dict[str, str] = {}
    seen: set[tuple[str, frozenset[str]]] = set()
    todo: list[tuple[str, frozenset[str]]] = [("blockdensity", frozenset({"worker"}))]
    while todo:
        name, extras = todo.pop()
        if (name, extras) in seen:
            continue
        seen.add((name, extras))
        distribution = importlib.metadata.distribution(name)
        found[canonicalize_name(name)] = distribution.version
        for text in distribution.requires or []:
            requirement = Requirement(text)
            marker = requirement.marker
            if marker is None or any(marker.evaluate({"extra": e}) for e in extras | {""}):
                todo.append((requirement.name, frozenset(requirement.extras)))
    return found


def _probe(box: image.Container) -> dict[str, Any]:
    """The probe's facts, written to a file in a host directory bound at the image's /mnt:
    once, right after a rebuild, `buildah run` returned status 0 with the probe's stdout
    empty."""
    with tempfile.TemporaryDirectory() as shared:
        Path(shared).chmod(0o777)  # the image's user (10001) writes there
        result = box.run(
            ["python", "-c", PROBE, "/mnt/facts.json", *_compiled_modules()],
            shared=Path(shared),
        )
        assert result.returncode == 0, result.stdout + result.stderr
        written = Path(shared) / "facts.json"
        assert written.exists(), f"the probe wrote no facts: {result.stdout + result.stderr}"
        facts: dict[str, Any] = json.loads(written.read_text(encoding="utf-8"))
    return facts


# --- what is in the image --------------------------------------------------------


def test_image_config_is_the_dockerfiles(built: image.Built) -> None:
    config = built.config
    assert config["User"] == "10001:10001"
    assert config["Entrypoint"] == ["dumb-init", "--single-child", "--", "python", "-m", "worker"]
    assert config["WorkingDir"] == "/tmp"  # noqa: S108 - the path we check
    assert "9108/tcp" in config["ExposedPorts"]
    assert config["StopSignal"] == "SIGTERM"
    test = config["Healthcheck"]["Test"]
    assert test[:3] == ["CMD", "python", "-c"], "the HEALTHCHECK survived the build (docker format)"
    # The build's CA bundle and its pip settings stayed in the build stage.
    leaks = [
        entry
        for entry in [*config["Env"], *built.history]
        if re.search(r"PIP_CERT|REQUESTS_CA_BUNDLE|ca-certificates\.crt", entry)
    ]
    assert leaks == [], "the build's CA settings reached the runtime image"
    print(f"image {built.tag}: {built.size / 1e6:.0f} MB, built in {built.seconds:.0f} s")


def test_image_has_the_compiled_fit_and_nothing_to_build_with(box: image.Container) -> None:
    facts = _probe(box)
    assert facts["uid"] == 10001, facts["uid"]
    assert facts["gid"] == 10001
    assert facts["prefix"] == "/opt/venv"
    pinned = re.search(r"^ARG RUNTIME_IMAGE=python:(\d+\.\d+)\.", DOCKERFILE, re.MULTILINE)
    assert pinned is not None
    assert facts["python"].startswith(pinned[1] + "."), "the Python the pinned bases have"
    interpreted = {
        name: path for name, path in facts["modules"].items() if not path.endswith(".so")
    }
    assert interpreted == {}, "these modules are not compiled in the image"
    found = {name: path for name, path in facts["tools"].items() if path}
    assert found == {}, "a compiler, pip or git on the image's PATH"
    assert {name for name, found in facts["importable"].items() if found} == set()
    assert not facts["base_python_pip"], "the base's own interpreter can import pip"
    assert not facts["python_h"], "the Python headers are in the runtime image"
    host_ca = Path("/etc/ssl/certs/ca-certificates.crt")
    if host_ca.exists():
        assert facts["ca_bundle_sha256"] != hashlib.sha256(host_ca.read_bytes()).hexdigest(), (
            "the build machine's CA bundle is in the image"
        )


def test_image_installs_exactly_the_runtime(box: image.Container) -> None:
    facts = _probe(box)
    installed = {canonicalize_name(name): v for name, v in facts["distributions"].items()}
    pin = re.search(r"dumb-init==(\S+)", DOCKERFILE)
    assert pin is not None
    expected = {**_runtime_closure(), "dumb-init": pin[1]}
    both = installed.keys() & expected.keys()
    other = {name: (installed[name], expected[name]) for name in both}
    assert installed == expected, (
        f"extra in the image: {sorted(set(installed) - set(expected))}; "
        f"missing: {sorted(set(expected) - set(installed))}; "
        f"other versions (image, pinned): { ({n: v for n, v in other.items() if v[0] != v[1]}) }"
    )


def test_wheel_holds_what_the_runtime_needs(box: image.Container) -> None:
    record = _probe(box)["record"]
    sources = {
        str(path.relative_to(ROOT))
        for package in ("blockdensity", "worker")
        for path in (ROOT / package).rglob("*.py")
        if "__pycache__" not in path.parts
    }
    missing = sources - set(record)
    assert missing == set(), f"sources the wheel lacks: {sorted(missing)}"
    for name in _compiled_modules():
        stem = name.replace(".", "/")
        assert any(re.fullmatch(rf"{stem}\.cpython-\d+-[\w-]+\.so", f) for f in record), name
    for data in ("blockdensity/py.typed", "worker/py.typed", *_stubs()):
        assert data in record
    # Nothing else: sources, their bytecode, the extensions, the metadata,
    # the commands pyproject.toml names. No C, no .pyx, no tests or devkit.
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    commands = "|".join(re.escape(f"../../../bin/{name}") for name in scripts)
    allowed = re.compile(
        r"(blockdensity|worker)/(.+\.py|(.+/)?__pycache__/.+\.pyc|.+\.so|py\.typed|_\w+\.pyi)"
        r"|[0-9a-f]+__mypyc\.cpython-\d+-[\w-]+\.so"
        r"|blockdensity-[\d.]+\.dist-info/.+"
        rf"|{commands}"
    )
    stray = [entry for entry in record if not allowed.fullmatch(entry)]
    assert stray == [], f"the wheel carries files the runtime does not need: {stray}"


def test_worker_help_runs_in_the_image(box: image.Container, built: image.Built) -> None:
    result = box.run([*built.config["Entrypoint"], "--help"])
    assert result.returncode == 0, result.stdout + result.stderr
    missing = [setting.env for setting in SETTINGS if setting.env not in result.stdout]
    assert missing == [], f"--help does not list {missing}"


# --- the worker, running in the image ------------------------------------------------


def _wait_ready(process: subprocess.Popen[bytes], port: int, log: Path, timeout: float) -> float:
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        if process.poll() is not None:
            raise AssertionError(f"the worker exited {process.returncode}:\n{log.read_text()}")
        if http_get(port, "/readyz")[0] == 200:
            return time.monotonic() - start
        time.sleep(0.1)
    raise AssertionError(f"the worker was not ready within {timeout} s:\n{log.read_text()}")


async def _round_trip(env: dict[str, str]) -> dict[str, dict[str, Any]]:
    settings = StageSettings.from_env(env)
    pages = sample_pages()
    async with Client(AMQP_URL) as client:
        try:
            urls = await publish_pages(client, settings, pages)
            got = await collect_urls(client, settings.output_queue, urls, timeout=120)
        finally:
            await client.delete_topology(settings)
    return {page_url(message): msgspec.msgpack.decode(message.body) for message in got}


def test_worker_in_the_image_fits_the_samples_and_stops_on_sigterm(
    box: image.Container, built: image.Built, tmp_path: Path
) -> None:
    ensure_rabbitmq()
    env = {**worker_env(pool_size="2"), "BLOCKDENSITY_AMQP_URL": AMQP_URL}
    port = int(env["BLOCKDENSITY_HTTP_PORT"])
    health = built.config["Healthcheck"]["Test"]
    assert health[0] in ("CMD", "CMD-SHELL"), health
    health_argv = health[1:] if health[0] == "CMD" else ["/bin/sh", "-c", health[1]]
    log = tmp_path / "worker.log"
    process = box.spawn(built.config["Entrypoint"], env, log)
    try:
        ready = _wait_ready(process, port, log, timeout=90)
        outputs = asyncio.run(_round_trip(env))
        pages = {page.name: page for page in sample_pages()}
        assert len(outputs) == len(pages), sorted(outputs)
        for url, clean in outputs.items():
            page = pages[url.rsplit("/", 1)[1]]
            assert clean["text"] == fit_text(page.raw).text, f"{page.name}: not the fit's text"
            assert clean["blocks_kept"] > 0, page.name
        check = box.run(health_argv, env, timeout=30)
        assert check.returncode == 0, f"HEALTHCHECK failed on a running worker: {check.stderr}"
        start = time.monotonic()
        image.signal_init(process)
        status = process.wait(timeout=60)
        stopped = time.monotonic() - start
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    text = log.read_text()
    assert status == 0, f"the worker exited {status} after SIGTERM:\n{text}"
    lines = [line for line in text.splitlines() if line.startswith("{")]
    assert lines, f"no JSON log lines (the image sets BLOCKDENSITY_LOG_FORMAT=json):\n{text}"
    for line in lines:
        json.loads(line)
    after = box.run(health_argv, env, timeout=30)
    assert after.returncode != 0, "the HEALTHCHECK passes with no worker running"
    assert box.written() == [], "the worker wrote to the image's filesystem"
    print(f"worker in the image: ready in {ready:.1f} s, stopped {stopped:.1f} s after SIGTERM")
