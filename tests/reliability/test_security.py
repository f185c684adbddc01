"""The security review's findings, one test each where a test can hold them (RELIABILITY.md).

- no eval, exec, pickle, marshal, yaml, shell or decompression on message data;
- bounded sizes: the output is linear in the body, log lines are bounded and
  single-line, the output reports block counts, never the blocks;
- compressed bodies are not accepted (content_encoding is not interpreted);
- credentials: never in the logs, not in the fit processes' environment;
- amqps:// with certificate verification, through the URL (a live TLS node);
- the HTTP server binds only the configured address;
- every dependency pinned.
"""

from __future__ import annotations

import ast
import asyncio
import dataclasses
import gzip
import logging
import os
import re
import signal
import socket
import ssl
import subprocess
import sys
import time
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aio_pika
import aiormq
import msgspec
import pytest
from yarl import URL

from blockdensity import fit_text
from blockdensity.metadata import MAX_ITEM, MAX_ITEMS, MAX_TEXT
from devkit.broker import free_port
from devkit.client import Client
from devkit.messages import collect, msgpack_page, sample_pages
from devkit.paths import ROOT
from devkit.rabbitnode import PrivateRabbit
from devkit.workers import http_get, running_app, start_worker, wait_for, worker_env
from worker.amqp.topology import HEADER_REASON
from worker.clean_page import FallbackReason, Metadata, Profile
from worker.config import StageSettings
from worker.logs import TEXT_LIMIT, JsonFormatter, TextFormatter
from worker.schemas import (
    CleanPage,
    Encoding,
    FetchedPage,
    InvalidMessageError,
    decode_page,
    encode_message,
)
from worker.stage.fitproc import fit_page
from worker.stage.health import HealthServer
from worker.stage.metrics import Metrics

# Private nodes of its own (a user with a password, a TLS listener).
pytestmark = pytest.mark.serial

SECRET = "s3cr3t-Pa55word"  # noqa: S105 - a test credential, the thing to look for

# ------------------------------------------------------------------ no eval, pickle, shell

_FORBIDDEN_CALLS = {"eval", "exec", "compile", "__import__", "input"}
_FORBIDDEN_MODULES = {
    "pickle", "cPickle", "dill", "cloudpickle", "marshal", "shelve", "yaml", "jsonpickle",
    "gzip", "zlib", "bz2", "lzma", "brotli", "zipfile", "tarfile", "import_module", "ctypes",
    "subprocess", "os.system",
}  # fmt: skip
# Allowed, with the reason:
_ALLOWED = {
    # The fit pool: PR_SET_PDEATHSIG, so that no fit process outlives the worker.
    ("worker/stage/fitproc.py", "ctypes"),
    # Content codings gzip/deflate, bounded by the body limit (a bomb is too
    # large after at most the limit's worth of output: test_content.py).
    ("worker/content.py", "zlib"),
    # blockdensity-collect: WET files are gzip members (compression only), and a
    # restart reads its own last file back to cut off a member a crash tore
    # (its own output on local disk, never a message from the network).
    ("worker/collect/wet.py", "gzip"),
    ("worker/collect/rotation.py", "zlib"),
}


def _findings(path: Path) -> set[tuple[str, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    name = str(path.relative_to(ROOT))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {(name, alias.name.split(".")[0]) for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add((name, node.module.split(".")[0]))
        elif isinstance(node, ast.Call):
            if isinstance(node.func, ast.Name) and node.func.id in _FORBIDDEN_CALLS:
                found.add((name, node.func.id))
            if isinstance(node.func, ast.Attribute) and node.func.attr in {"system", "popen"}:
                found.add((name, "os.system"))
            if isinstance(node.func, ast.Attribute) and node.func.attr == "import_module":
                found.add((name, "import_module"))
            if any(kw.arg == "shell" for kw in node.keywords):
                found.add((name, "shell="))
    return {item for item in found if item[1] in _FORBIDDEN_MODULES | _FORBIDDEN_CALLS | {"shell="}}


def test_no_eval_pickle_shell_or_decompression_in_the_worker_or_the_library() -> None:
    files = sorted((ROOT / "worker").rglob("*.py")) + sorted((ROOT / "blockdensity").glob("*.py"))
    assert len(files) > 60  # the sub-packages' modules too
    found = set().union(*(_findings(path) for path in files))
    assert found == _ALLOWED
    # The fit pool passes the page to its children as what msgspec decoded
    # (bytes or str) and gets plain data back: multiprocessing pickles our own
    # objects between our own processes; nothing from the network is unpickled.
    result = fit_page(FetchedPage(url="u", body=b"<p>x</p>"))
    values = [getattr(result, field.name) for field in dataclasses.fields(result)]
    values += [getattr(result.metadata, field.name) for field in dataclasses.fields(Metadata)]
    plain = {str, int, float, bool, tuple, FallbackReason, Profile, Metadata, type(None)}
    assert {type(value) for value in values} <= plain


# ------------------------------------------------------------------ bounded sizes

_WORST_PAGES = {
    # each byte invalid UTF-8, declared UTF-8: one U+FFFD (3 bytes) per byte
    "invalid bytes": (b"\xff" * 50_000, "utf-8"),
    "undeclared high bytes": (b"<p>" + b"a\x80" * 25_000, None),
    # control characters: one byte in, six out in JSON ("\u0001")
    "controls": (b"\x01" * 50_000, None),
    "entities that grow": (b"<p>x" + b"&nGt; " * 8_000, None),
    "many blocks": (b"<p>a" * 12_500, None),
    "quotes and backslashes": (b'<p>"\\' * 16_000, None),
}


def test_the_metadata_is_bounded_whatever_the_page_declares() -> None:
    # One long value can declare every field at once (space-separated
    # properties), a page can declare any number of authors and keywords, and
    # each character may take four bytes of UTF-8 or two of JSON escaping.
    value = ("&quot;\\\U0001f600" * MAX_TEXT) + "\x01" * 1_000
    every = "og:title og:description og:site_name og:type og:image og:url article:author"
    long_item = "&quot;\U0001f600" * (MAX_ITEM // 3)
    page = (
        f'<meta property="{every}" content="{value}">'
        + "".join(f'<meta name="author" content="A{n} {long_item}">' for n in range(500))
        + '<meta name="keywords" content="'
        + ",".join(f"k{n} {long_item}" for n in range(500))
        + '"><p>text</p>'
    )
    metadata = fit_text(page, url="https://e.org/").metadata
    assert metadata.title is not None
    assert len(metadata.title) == MAX_TEXT
    assert "\x01" not in metadata.title
    assert len(metadata.authors) == len(metadata.keywords) == MAX_ITEMS
    assert all(len(item) <= MAX_ITEM for item in metadata.authors + metadata.keywords)
    strings = 6 * MAX_TEXT + 2 * MAX_ITEMS * MAX_ITEM
    assert len(msgspec.json.encode(metadata)) <= 4 * strings + 1_000


@pytest.mark.parametrize("name", sorted(_WORST_PAGES))
def test_the_output_is_at_most_six_times_the_body(name: str) -> None:
    # With the 8 MiB body limit, an output stays under 48 MiB: within
    # RabbitMQ's default max_message_size (128 MiB). MessagePack at most 3x.
    # (With BLOCKDENSITY_OUTPUT_BLOCKS the text travels twice: 96 MiB; so does
    # the comments' text with BLOCKDENSITY_COMMENTS=include; with
    # BLOCKDENSITY_FORMAT=markdown the text travels again as Markdown, at most
    # twice as long for its escapes. By default the comments field and the text
    # hold different blocks.) The record's fixed fields (names, digest,
    # language, a null comments and markdown, the page type, ...) are under
    # 740 bytes.
    body, charset = _WORST_PAGES[name]
    clean = fit_page(FetchedPage(url="u", body=body, charset=charset))
    assert len(clean.text.encode()) <= 3 * len(body)
    assert len(encode_message(clean, Encoding.MSGPACK)) <= 3 * len(body) + 740
    assert len(encode_message(clean, Encoding.JSON)) <= 6 * len(body) + 740


def test_the_output_reports_block_counts_never_the_blocks() -> None:
    names = {field.name for field in dataclasses.fields(CleanPage)}
    assert names == {
        "url", "fetch_id", "status", "title", "lang", "text", "fallback", "fallback_reason",
        "blocks_total", "blocks_with_words", "blocks_kept", "words_total", "words_kept",
        "profile", "lang_detected", "lang_confidence", "text_sha256", "metadata",
        "comments", "confidence", "truncated", "page_type", "page_type_confidence",
        "fit_seconds", "blocks", "markdown", "comments_markdown", "schema_version",
    }  # fmt: skip
    # The blocks only when the operator asks (BLOCKDENSITY_OUTPUT_BLOCKS), and
    # only the kept ones, never the dropped text (but for the user comments,
    # which travel apart in `comments` unless BLOCKDENSITY_COMMENTS=drop).
    clean = fit_page(FetchedPage(url="u", body=b"<p>a<p>b"))
    assert clean.blocks is None
    # and the Markdown (of the text and of the comments) only when asked (BLOCKDENSITY_FORMAT)
    assert clean.markdown is None
    assert clean.comments_markdown is None
    assert not any(isinstance(getattr(clean, name), list | dict) for name in names)


def _record(message: str, *args: object, **extra: Any) -> logging.LogRecord:
    record = logging.LogRecord(
        "worker.stage.handler", logging.WARNING, __file__, 1, message, args, None
    )
    record.__dict__.update(extra)
    return record


def _fail() -> None:
    raise ValueError("boom")


def test_log_lines_are_bounded_and_a_url_cannot_forge_one() -> None:
    # Found in review: the url (as long as the body, up to 8 MiB) went into
    # the log message and its `url` field whole, and in text format a newline
    # in it began a line of its own (log forging).
    url = (
        "https://e.org/x\n2026-11-30 12:00:00,000 INFO worker.stage.app: stopped" + "a" * 3_000_000
    )
    record = _record("dead-lettered (%s): %s of %s", "not_html", "pdf", url, url=url)
    text = TextFormatter().format(record)
    assert "\n" not in text
    assert "\\x0a2026-11-30" in text
    assert len(text) < 3 * TEXT_LIMIT
    line = JsonFormatter().format(_record("%s", url, url=url, outcome="not_html"))
    assert "\n" not in line
    assert len(line) < 3 * TEXT_LIMIT
    assert msgspec.json.decode(line)["outcome"] == "not_html"
    # Tracebacks keep their lines: only the message and the fields are escaped.
    try:
        _fail()
    except ValueError:
        failed = _record("failed")
        failed.exc_info = sys.exc_info()
    assert "\nValueError: boom" in TextFormatter().format(failed)


# ------------------------------------------------------------------ compressed bodies


def test_a_gzip_body_is_invalid_never_inflated() -> None:
    page = msgpack_page("https://e.org/", b"<p>" + b"0" * 10_000_000 + b"</p>")
    bomb = gzip.compress(page, 9)  # 10 MB in about 10 KB
    assert len(bomb) < 20_000
    with pytest.raises(InvalidMessageError):  # gzip's magic 0x1f is MessagePack's int 31
        decode_page(bomb, Encoding.MSGPACK)


@pytest.mark.integration
async def test_a_decompression_bomb_is_too_large_and_dead_lettered_as_received(
    rabbitmq: None,
) -> None:
    # content_encoding gzip is decoded, but never past the body limit: 64 MiB
    # of zeros in ~64 KB is too_large after at most 1 MiB of output.
    settings = StageSettings.from_env(worker_env(max_body_bytes="1MiB"))
    bomb = gzip.compress(msgpack_page("https://e.org/", b"\0" * (64 << 20)), mtime=0)
    async with Client(settings.amqp_url) as client:
        try:
            async with running_app(settings):
                await client.channel.default_exchange.publish(
                    aio_pika.Message(
                        bomb,
                        content_type="application/msgpack",
                        content_encoding="gzip",
                        message_id="bomb",
                    ),
                    settings.input_queue,
                )
                (dead,) = await collect(client, settings.dead_letter_queue, 1)
            assert dead.message_id == "bomb"
            assert dead.headers[HEADER_REASON] == "too_large"
            assert "decompresses (gzip) to over the limit" in dead.headers["x-blockdensity-error"]
            assert dead.body == bomb  # as received, for a replay
            assert await client.is_empty(settings.output_queue)
        finally:
            await client.delete_topology(settings)


# ------------------------------------------------------------------ credentials


BROKER_CONFIG = ROOT / "deploy" / "rabbitmq" / "blockdensity.conf"


@pytest.fixture(scope="module")
def node_with_a_user() -> Any:
    # Configured as deploy/compose.yaml configures its broker.
    with PrivateRabbit("security", extra_config=BROKER_CONFIG.read_text()) as node:
        node.ctl("add_user", "crawler", SECRET)
        node.ctl("set_permissions", "-p", "/", "crawler", ".*", ".*", ".*")
        yield node


@pytest.mark.integration
async def test_the_deployed_broker_refuses_a_message_over_16_mib(
    node_with_a_user: PrivateRabbit,
) -> None:
    # Bounds what a worker holds before it can dead-letter a page as too_large.
    limit = node_with_a_user.ctl("eval", "application:get_env(rabbit, max_message_size).")
    assert limit.stdout.strip() == "{ok,16777216}"
    # And a partition is declared within seconds (deploy/README.md, "A cluster").
    tick = node_with_a_user.ctl("eval", "net_kernel:get_net_ticktime().")
    assert tick.stdout.strip() == "15"
    async with Client(node_with_a_user.url) as client:
        queue = await client.channel.declare_queue("size-check", exclusive=True)
        await client.publish(queue.name, b"x" * (16 << 20), content_type=None)
        with pytest.raises(aiormq.exceptions.AMQPError, match="max size"):
            await client.publish(queue.name, b"x" * ((16 << 20) + 1), content_type=None)


async def _one_page_through(client: Client, settings: StageSettings) -> None:
    """Publish a sample page to the worker's input and wait for its output."""
    await client.publish(
        settings.input_queue,
        msgpack_page("https://e.org/", sample_pages()[0].raw),
        content_type="application/msgpack",
    )
    assert len(await collect(client, settings.output_queue, 1)) == 1


def _environ(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/environ").read_bytes()
    except OSError:
        return b""


@pytest.mark.integration
@pytest.mark.slow
async def test_the_password_is_never_logged_nor_in_the_fit_processes(
    node_with_a_user: PrivateRabbit, tmp_path: Path
) -> None:
    url = f"amqp://crawler:{SECRET}@127.0.0.1:{node_with_a_user.port}/"
    env = worker_env(amqp_url=url, log_level="DEBUG")
    settings = StageSettings.from_env(env)
    log = tmp_path / "worker.log"
    worker = start_worker(env, log)
    try:
        async with Client(url) as client:
            await _one_page_through(client, settings)
            # The broker drops every connection: reconnects log the URL again.
            await asyncio.to_thread(node_with_a_user.close_all_connections, "test")
            await wait_for(lambda: "CONNECTION_FORCED" in log.read_text(), timeout=30)
            await wait_for(lambda: http_get(settings.http_port, "/readyz")[0] == 200)
            children = worker.descendants()
            assert children
            leaked = [pid for pid in children if SECRET.encode() in _environ(pid)]
            # Found in review: the forkserver and the fit processes, which parse
            # untrusted HTML, inherited BLOCKDENSITY_AMQP_URL with the password.
            assert leaked == []
            await client.delete_topology(settings)
    finally:
        worker.process.send_signal(signal.SIGTERM)
        await asyncio.to_thread(worker.process.wait, 30)
    text = log.read_text()
    assert "crawler:***@" in text  # the URL is logged, redacted
    assert SECRET not in text


def _spawn_worker(env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    """`python -m worker` that is not expected to become ready (devkit's start_worker waits)."""
    with log.open("wb") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "worker"],
            env={**os.environ, **env},
            cwd=ROOT,
            stdout=out,
            stderr=subprocess.STDOUT,
        )


@pytest.mark.integration
def test_a_wrong_password_is_not_logged(node_with_a_user: PrivateRabbit, tmp_path: Path) -> None:
    wrong = SECRET + "-wrong"
    env = worker_env(amqp_url=f"amqp://crawler:{wrong}@127.0.0.1:{node_with_a_user.port}/")
    env["BLOCKDENSITY_LOG_LEVEL"] = "DEBUG"
    log = tmp_path / "worker.log"
    process = _spawn_worker(env, log)
    try:
        deadline = time.monotonic() + 30
        while "cannot reach the broker" not in log.read_text() and time.monotonic() < deadline:
            time.sleep(0.1)
    finally:
        process.send_signal(signal.SIGTERM)
        assert process.wait(30) == 0
    text = log.read_text()
    assert "ACCESS_REFUSED" in text or "cannot reach the broker" in text
    assert wrong not in text
    assert SECRET not in text


# ------------------------------------------------------------------ amqps://


async def test_an_amqps_url_verifies_the_certificate_by_default(tmp_path: Path) -> None:
    # async: aiormq's Connection takes the running loop (none is current outside one).
    ca = _make_ca(tmp_path)
    url = f"amqps://crawler:{SECRET}@rabbit.internal:5671/?cafile={ca.cafile}&heartbeat=30"
    assert StageSettings.from_env({"BLOCKDENSITY_AMQP_URL": url}).amqp_url == url
    connection = aiormq.Connection(URL(url))
    assert connection.ssl_certs.verify
    provider = aiormq.connection.SSLContextProvider(
        ssl_context=None, ssl_certs=connection.ssl_certs, loop=asyncio.get_running_loop()
    )
    context = provider._create_context()
    assert context.verify_mode == ssl.CERT_REQUIRED
    assert context.check_hostname
    # Only an explicit ?no_verify_ssl=1 turns verification off (RELIABILITY.md).
    insecure = aiormq.Connection(URL(url + "&no_verify_ssl=1"))
    assert not insecure.ssl_certs.verify


@dataclass(frozen=True)
class Authority:
    cafile: Path
    certfile: Path  # a server certificate for localhost and 127.0.0.1
    keyfile: Path


def _openssl(*args: str, cwd: Path) -> None:
    subprocess.run(["openssl", *args], cwd=cwd, check=True, capture_output=True)  # noqa: S603, S607


def _make_ca(folder: Path, name: str = "ca") -> Authority:
    """A throwaway certificate authority and a server certificate signed by it."""
    folder.mkdir(parents=True, exist_ok=True)
    _openssl(
        "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", f"/CN=test {name}",
        "-keyout", f"{name}.key", "-out", f"{name}.pem", cwd=folder,
    )  # fmt: skip
    (folder / "san.ext").write_text("subjectAltName = DNS:localhost, IP:127.0.0.1\n")
    _openssl(
        "req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost",
        "-keyout", f"{name}-server.key", "-out", f"{name}-server.csr", cwd=folder,
    )  # fmt: skip
    _openssl(
        "x509", "-req", "-in", f"{name}-server.csr", "-CA", f"{name}.pem", "-CAkey", f"{name}.key",
        "-CAcreateserial", "-days", "2", "-extfile", "san.ext", "-out", f"{name}-server.pem",
        cwd=folder,
    )  # fmt: skip
    return Authority(
        folder / f"{name}.pem", folder / f"{name}-server.pem", folder / f"{name}-server.key"
    )


@pytest.mark.integration
@pytest.mark.slow
async def test_amqps_with_certificate_verification_against_a_live_tls_node(
    tmp_path: Path,
) -> None:
    ca = _make_ca(tmp_path / "good", "ca")
    stranger = _make_ca(tmp_path / "other", "other")
    port = free_port()
    tls = (
        f"listeners.ssl.default = 127.0.0.1:{port}\n"
        f"ssl_options.cacertfile = {ca.cafile}\n"
        f"ssl_options.certfile = {ca.certfile}\n"
        f"ssl_options.keyfile = {ca.keyfile}\n"
        "ssl_options.verify = verify_none\n"
        "ssl_options.fail_if_no_peer_cert = false\n"
    )
    with PrivateRabbit("tls", extra_config=tls) as node:
        url = f"amqps://guest:guest@localhost:{port}/?cafile={ca.cafile}"
        env = worker_env(amqp_url=url)
        settings = StageSettings.from_env(env)
        worker = start_worker(env, tmp_path / "worker.log")  # ready: connected over TLS
        try:
            async with Client(url) as client:
                await _one_page_through(client, settings)
                await client.delete_topology(settings)
            listed = node.ctl("list_connections", "ssl", "--quiet", "--no-table-headers").stdout
            assert listed.split()
            assert set(listed.split()) == {"true"}  # every connection (the worker's two) is TLS
        finally:
            worker.process.send_signal(signal.SIGTERM)
            assert await asyncio.to_thread(worker.process.wait, 30) == 0

        # A certificate from another authority: refused, and the worker says why.
        log = tmp_path / "refused.log"
        process = _spawn_worker(
            worker_env(amqp_url=url.replace(str(ca.cafile), str(stranger.cafile))), log
        )
        try:
            await wait_for(lambda: "cannot reach the broker" in log.read_text(), timeout=30)
        finally:
            process.send_signal(signal.SIGTERM)
            assert await asyncio.to_thread(process.wait, 30) == 0
        assert "CERTIFICATE_VERIFY_FAILED" in log.read_text()


# ------------------------------------------------------------------ the HTTP server's address


def _other_address() -> str | None:
    """A non-loopback IPv4 address of this machine, if it has one."""
    for probe in ("192.0.2.123", "10.255.255.254", "8.8.8.8"):
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            try:
                sock.connect((probe, 9))  # no packet is sent: it picks the route
            except OSError:
                continue
            address = str(sock.getsockname()[0])
            if not address.startswith("127."):
                return address
    return None


def _reachable(address: str, port: int) -> bool:
    try:
        with socket.create_connection((address, port), timeout=2):
            return True
    except OSError:
        return False


def test_the_http_server_binds_only_the_configured_address() -> None:
    other = _other_address()
    if other is None:
        pytest.skip("this machine has no non-loopback IPv4 address to probe from")
    servers = {
        host: HealthServer(Metrics(), host=host, port=0, liveness_timeout=5)
        for host in ("127.0.0.1", "0.0.0.0")  # noqa: S104 - the contrast
    }
    for server in servers.values():
        server.start()
    try:
        local = servers["127.0.0.1"]
        assert _reachable("127.0.0.1", local.port)
        assert not _reachable(other, local.port)
        assert _reachable(other, servers["0.0.0.0"].port)  # noqa: S104
    finally:
        for server in servers.values():
            server.stop()


# ------------------------------------------------------------------ dependencies


def _normalized(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def test_every_dependency_is_pinned_exactly() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    wanted = [
        *project["build-system"]["requires"],
        *project["project"]["dependencies"],
        *(req for extra in project["project"]["optional-dependencies"].values() for req in extra),
        *(req for group in project["dependency-groups"].values() for req in group),
    ]
    names = {_normalized(re.split(r"[<>=!~;\[ ]", req, maxsplit=1)[0]) for req in wanted}
    pins: dict[str, str] = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, equals, version = line.partition("==")
            assert equals, f"constraints.txt: {line!r} is not name==version"
            assert version, f"constraints.txt: {line!r} has no version"
            pins[_normalized(name)] = version
    # The build backend (build-system.requires) too: pip applies PIP_CONSTRAINT
    # to the isolated build environment (the dev script sets it).
    assert sorted(names - set(pins)) == []
