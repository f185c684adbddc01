"""End to end: Debian's Prometheus scrapes a real worker and RabbitMQ, and evaluates our rules.

The worker (`python -m worker`, its own queue names) and Prometheus (a free
loopback port, its own storage in a temporary folder) run as subprocesses;
Prometheus uses deploy/prometheus/prometheus.yml's jobs with the targets
replaced, and rules.yml with the queue names replaced by the test's. The worker
consumes a family of two input queues (`<name>.{0..1}`), so that the rules'
and the dashboard's family patterns meet RabbitMQ's real series. Pages
of the development corpus go through the worker; then every recording rule
and every query of the dashboard must parse and return data through
Prometheus' HTTP API, and every alert's expression must parse.

RabbitMQ's prometheus plugin is enabled here if it is not (port 15692). If
that is impossible, the queue-depth series cannot exist: their checks are
skipped with the reason, the worker's are not.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import os
import shutil
import signal
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from devkit.broker import broker_answering, ensure_rabbitmq, free_port
from devkit.client import Client
from devkit.messages import corpus_pages, msgpack_page
from devkit.workers import WorkerProcess, start_worker, worker_env
from tests.deploy.common import (
    DASHBOARD,
    PROMETHEUS_CONFIG,
    RULES,
    alerting_rules,
    dashboard_queries,
    dump_yaml,
    expand_variables,
    family_selector,
    family_stem,
    load_yaml,
    recording_rules,
    run,
)
from tests.deploy.conftest import PrometheusTools
from worker.config import StageSettings

pytestmark = [pytest.mark.integration, pytest.mark.slow]

BROKER_METRICS_PORT = 15692
PAGES = 16
# Grafana's $__rate_interval for a 1 s scrape and a short range: the whole
# run fits in it.
RATE_INTERVAL = "1m"
_PLUGIN_TOOL_DIRS = ("/usr/sbin", "/usr/lib/rabbitmq/bin")


@dataclass
class Stack:
    settings: StageSettings
    input_stem: str  # the input queues' stem: <name> for <name>.0 and <name>.1
    prometheus_url: str
    broker_metrics: str | None  # None when scraped; else why not
    pages: int = 0  # pages published (the invalid message aside)

    def query(self, expr: str) -> list[dict[str, Any]]:
        """An instant query; fails the test on a parse or evaluation error."""
        url = f"{self.prometheus_url}/api/v1/query?" + urllib.parse.urlencode({"query": expr})
        try:
            with urllib.request.urlopen(url, timeout=10) as reply:  # noqa: S310 - loopback
                body = json.load(reply)
        except urllib.error.HTTPError as error:
            detail = json.load(error).get("error", "")
            pytest.fail(f"Prometheus rejected {expr!r}: {detail}")
        assert body["status"] == "success", body
        data = body["data"]
        if data["resultType"] in ("scalar", "string"):
            return [{"value": data["result"]}]
        result = data["result"]
        assert isinstance(result, list)
        return result


def _has_data(samples: list[dict[str, Any]]) -> bool:
    """At least one sample, and no NaN (0/0, a quantile of nothing)."""
    values = [float(sample["value"][1]) for sample in samples]
    return bool(values) and not any(math.isnan(value) for value in values)


def _wait(condition: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.25)
    pytest.fail(f"{what} within {timeout:g} s")


# --- RabbitMQ's prometheus plugin ---------------------------------------------------------


def _enable_broker_metrics() -> str | None:
    """Make :15692 answer; None when it does, else the reason it cannot."""
    if broker_answering(port=BROKER_METRICS_PORT):
        return None
    tool = shutil.which("rabbitmq-plugins") or next(
        (
            str(Path(folder) / "rabbitmq-plugins")
            for folder in _PLUGIN_TOOL_DIRS
            if (Path(folder) / "rabbitmq-plugins").exists()
        ),
        None,
    )
    if tool is None:
        return "rabbitmq-plugins not found: cannot enable rabbitmq_prometheus"
    result = run([tool, "enable", "rabbitmq_prometheus"], timeout=120)
    if result.returncode != 0:
        return f"rabbitmq-plugins enable rabbitmq_prometheus failed: {result.stderr.strip()}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if broker_answering(port=BROKER_METRICS_PORT):
            return None
        time.sleep(0.5)
    return f"rabbitmq_prometheus enabled but port {BROKER_METRICS_PORT} does not answer"


# --- Prometheus ------------------------------------------------------------------------------


def _prometheus_config(folder: Path, settings: StageSettings, broker_metrics: bool) -> Path:
    """deploy/prometheus's jobs and rules, pointed at this test's worker, broker and queues."""
    rules = RULES.read_text(encoding="utf-8")
    stem = family_stem(settings.input_queues)
    for default, ours in (
        # The input queue and its family, and the name of the series it records.
        (family_selector("pages.fetched"), family_selector(stem)),
        ('"queue", "pages.fetched"', f'"queue", "{stem}"'),
        ('queue="pages.dead"', f'queue="{settings.dead_letter_queue}"'),
    ):
        assert rules.count(default) == 1, f"rules.yml should hold {default} exactly once"
        rules = rules.replace(default, ours)
    rules_path = folder / "rules.yml"
    rules_path.write_text(rules, encoding="utf-8")

    config = load_yaml(PROMETHEUS_CONFIG)
    # Scrape and evaluate every second: the run takes seconds, not minutes.
    config["global"] = {
        "scrape_interval": "1s",
        "scrape_timeout": "1s",
        "evaluation_interval": "1s",
    }
    config["rule_files"] = [str(rules_path)]
    jobs = []
    for job in config["scrape_configs"]:
        job.pop("dns_sd_configs", None)
        if job["job_name"] == "blockdensity":
            target = f"127.0.0.1:{settings.http_port}"
        elif broker_metrics:
            target = f"127.0.0.1:{BROKER_METRICS_PORT}"
        else:
            continue
        job["static_configs"] = [{"targets": [target]}]
        jobs.append(job)
    config["scrape_configs"] = jobs
    path = folder / "prometheus.yml"
    path.write_text(dump_yaml(config), encoding="utf-8")
    return path


@contextlib.contextmanager
def _prometheus(binary: str, config: Path, folder: Path) -> Iterator[str]:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    log = folder / "prometheus.log"
    with log.open("wb") as out:
        process = subprocess.Popen(  # noqa: S603 - Debian's prometheus, our arguments
            [
                binary,
                f"--config.file={config}",
                f"--storage.tsdb.path={folder / 'data'}",
                f"--web.listen-address=127.0.0.1:{port}",
                "--log.level=warn",
            ],
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:

        def ready() -> bool:
            if process.poll() is not None:
                pytest.fail(f"prometheus exited {process.returncode}:\n{log.read_text()}")
            try:
                with urllib.request.urlopen(f"{url}/-/ready", timeout=1) as reply:  # noqa: S310
                    return bool(reply.status == 200)
            except OSError:
                return False

        _wait(ready, 60, "Prometheus not ready")
        yield url
    finally:
        process.terminate()
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)


# --- the worker ----------------------------------------------------------------------------


def _stop(worker: WorkerProcess) -> None:
    children = worker.descendants()
    if worker.process.poll() is None:
        worker.process.send_signal(signal.SIGTERM)
        try:
            worker.process.wait(30)
        except subprocess.TimeoutExpired:
            worker.process.kill()
            worker.process.wait(10)
    for pid in children:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


async def _publish(
    settings: StageSettings, first: int, count: int, *, invalid: bool = False
) -> int:
    """Publish pages `first` to `first + count` of the corpus; return how many there were."""
    pages = corpus_pages(first + count)[first:]
    queues = settings.input_queues
    async with Client(settings.amqp_url) as client:
        for index, page in enumerate(pages, start=first):  # each queue of the family its share
            body = msgpack_page(f"https://e2e.example/{index}", page.raw, fetch_id=str(index))
            queue = queues[index % len(queues)]
            await client.publish(queue, body, content_type="application/msgpack")
        if invalid:  # dead-lettered as invalid: the dead-letter queue gets a message
            await client.publish(
                queues[-1], b"\xc1 not msgpack", content_type="application/msgpack"
            )
    return len(pages)


async def _delete_topology(settings: StageSettings) -> None:
    async with Client(settings.amqp_url) as client:
        await client.delete_topology(settings)


@pytest.fixture(scope="module")
def stack(
    prometheus_tools: PrometheusTools, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Stack]:
    try:
        ensure_rabbitmq()
    except RuntimeError as error:
        pytest.fail(f"no RabbitMQ for the end-to-end test: {error}")
    broker_metrics = _enable_broker_metrics()
    folder = tmp_path_factory.mktemp("e2e")
    env = worker_env(log_level="WARNING")
    stem = env["BLOCKDENSITY_INPUT_QUEUE"]
    env["BLOCKDENSITY_INPUT_QUEUE"] = f"{stem}.{{0..1}}"  # a family of two
    settings = StageSettings.from_env(env)
    assert family_stem(settings.input_queues) == stem
    worker = start_worker(env, folder / "worker.log")
    try:
        config = _prometheus_config(folder, settings, broker_metrics is None)
        with _prometheus(prometheus_tools.prometheus, config, folder) as url:
            stack = Stack(settings, stem, url, broker_metrics)

            def scraped() -> bool:
                return any(float(s["value"][1]) == 1 for s in stack.query('up{job="blockdensity"}'))

            _wait(scraped, 30, "Prometheus did not scrape the worker")
            # Two batches a few scrapes apart, so that every rate has a rise
            # to measure and the quantiles something to interpolate.
            stack.pages = asyncio.run(_publish(settings, 0, PAGES // 2, invalid=True))
            time.sleep(3)
            stack.pages += asyncio.run(_publish(settings, PAGES // 2, PAGES // 2))
            assert stack.pages > 0

            def handled() -> bool:
                total = stack.query("sum(blockdensity_pages_total)")
                return bool(total) and float(total[0]["value"][1]) >= stack.pages + 1

            _wait(handled, 60, "the worker's pages did not reach Prometheus")
            yield stack
    finally:
        _stop(worker)
        asyncio.run(_delete_topology(settings))


def _broker_series(expr: str) -> bool:
    return "rabbitmq_" in expr or "_queue_messages" in expr


def _expressions() -> dict[str, str]:
    """Name -> query: each recorded series, then each dashboard query."""
    out = {f"record {rule['record']}": rule["record"] for rule in recording_rules()}
    dashboard = json.loads(DASHBOARD.read_text(encoding="utf-8"))
    for index, (title, expr) in enumerate(dashboard_queries(dashboard)):
        out[f"panel {title!r} #{index}"] = expr
    return out


def _check(stack: Stack, *, broker: bool) -> None:
    values = {
        "instance": ".*",
        "input_queue": stack.input_stem,
        "dead_letter_queue": stack.settings.dead_letter_queue,
        "__rate_interval": RATE_INTERVAL,
    }
    wanted = {
        name: expand_variables(expr, values)
        for name, expr in _expressions().items()
        if _broker_series(expr) == broker
    }
    assert wanted
    missing: dict[str, str] = {}

    def all_have_data() -> bool:
        missing.clear()
        missing.update(
            {name: expr for name, expr in wanted.items() if not _has_data(stack.query(expr))}
        )
        return not missing

    deadline = time.monotonic() + 30
    while not all_have_data():
        if time.monotonic() > deadline:
            pytest.fail("no data for:\n" + "\n".join(f"  {n}: {e}" for n, e in missing.items()))
        time.sleep(1)


def test_worker_series_rules_and_panels_return_data(stack: Stack) -> None:
    """Every recording rule and panel query over the worker's metrics returns data."""
    _check(stack, broker=False)


def test_queue_depth_rules_and_panels_return_data(stack: Stack) -> None:
    """The same for the series from RabbitMQ's prometheus plugin (queue depths)."""
    if stack.broker_metrics is not None:
        pytest.skip(f"RabbitMQ's prometheus plugin is not available: {stack.broker_metrics}")
    _check(stack, broker=True)
    # Both queues of the family are selected, and recorded as one series
    # named by their stem.
    family = family_selector(stack.input_stem)
    selected = stack.query(f"rabbitmq_detailed_queue_messages{{{family}}}")
    assert {sample["metric"]["queue"] for sample in selected} == set(stack.settings.input_queues)
    (recorded,) = stack.query("blockdensity:input_queue_messages")
    assert recorded["metric"]["queue"] == stack.input_stem
    # The invalid message went to the dead-letter queue, and the rule sees it
    # (RabbitMQ refreshes queue statistics every 5 s).
    (dead,) = stack.query("blockdensity:dead_letter_queue_messages")
    assert dead["metric"]["queue"] == stack.settings.dead_letter_queue

    def dead_lettered() -> bool:
        (dead,) = stack.query("blockdensity:dead_letter_queue_messages")
        return float(dead["value"][1]) >= 1

    _wait(
        dead_lettered, 30, "the dead letter did not reach blockdensity:dead_letter_queue_messages"
    )


def test_alert_expressions_parse(stack: Stack) -> None:
    """Every alert's expression is accepted and evaluated by the live Prometheus."""
    for rule in alerting_rules():
        stack.query(rule["expr"])
    # None fires on a healthy run; the rule evaluator loaded them all.
    firing = stack.query('ALERTS{alertstate="firing"}')
    assert firing == []


def test_worker_counted_every_page(stack: Stack) -> None:
    outcomes = {
        sample["metric"]["outcome"]: float(sample["value"][1])
        for sample in stack.query("sum by (outcome) (blockdensity_pages_total)")
    }
    assert outcomes["ok"] + outcomes["fallback"] == stack.pages
    assert outcomes["invalid"] == 1
