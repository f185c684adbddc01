"""The short chaos run: every input accounted for through a worker SIGKILL, a broker restart,
the broker closing every connection, crashing and hanging fits.

The chaos harness (devkit.chaos) with a small plan (~400 messages, 2 workers);
it runs on its own RabbitMQ node (devkit.rabbitnode), never the shared one,
and once more on a cluster of three private nodes, one of which is killed -9.
The full run (>= 5,000 messages, more faults) is `python -m bench.chaos`; its
figures are in RELIABILITY.md.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path

import pytest

from devkit.chaos import (
    OUTPUT,
    ChaosConfig,
    Fault,
    Report,
    make_faults,
    make_plan,
    print_report,
    run_chaos,
)
from devkit.client import Client
from devkit.corpus import SAMPLE_DATA
from devkit.faults import MARKERS_FIT
from devkit.messages import msgpack_page
from devkit.procs import alive
from devkit.workers import WorkerProcess, http_get, start_worker, wait_for, worker_env
from worker.config import StageSettings

pytestmark = [pytest.mark.integration, pytest.mark.slow, pytest.mark.serial]

SHORT = ChaosConfig(
    messages=400,
    seed=7,
    rate=25.0,  # 16 s of publishing: the faults land while pages flow
    workers=2,
    pool_size=1,
    worker_kills=1,
    broker_restarts=1,
    connection_closes=1,
    memory_alarms=1,
    alarm_seconds=12.0,  # past the 10 s publish timeout: the pages must be held, not requeued
    crash_pages=3,  # one each of SIGKILL, SIGSEGV and exit
    hang_pages=1,
    invalid_messages=15,  # one of each kind
    adversarial_pages=19,  # one of each kind
    fit_timeout=1.0,
    delivery_limit=3,
    settle_timeout=150.0,
    data=SAMPLE_DATA,  # the corpus pages cycled: the sample's (tests/corpus)
)


def test_the_plan_is_seeded_and_mixes_every_kind() -> None:
    first, second = make_plan(SHORT), make_plan(SHORT)
    assert [(p.message_id, p.body) for p in first] == [(p.message_id, p.body) for p in second]
    kinds = {planned.kind.split(":")[0] for planned in first}
    assert kinds == {"corpus", "adversarial", "invalid", "crash", "hang"}
    reasons = {reason for planned in first for reason in planned.expect}
    assert {"invalid", "not_html", "status", "too_large", "crashed", "timeout", OUTPUT} <= reasons
    assert len({planned.message_id for planned in first}) == SHORT.messages
    faults: list[Fault] = make_faults(SHORT)
    assert sorted(fault.kind for fault in faults) == [
        "broker_restart",
        "close_connections",
        "memory_alarm",
        "worker_sigkill",
    ]
    assert all(0 < fault.trigger < SHORT.messages for fault in faults)


def check_accounted(report: Report, faults: set[str]) -> None:
    """Every message of the plan accounted for: output once, or dead-lettered with its reason."""
    print_report(report)  # shown by pytest -rA, or on failure
    assert report.lost == []
    assert report.unexpected == []
    assert report.bad_outputs == []
    assert report.stray == 0
    outputs_expected = sum(OUTPUT in planned.expect for planned in make_plan(report.config))
    assert report.outputs_unique == outputs_expected
    assert report.dead_by_reason["invalid"] == 10  # javascript: URL included
    assert report.dead_by_reason["not_html"] == 3  # declared PDF, PDF and random bytes as HTML
    assert report.dead_by_reason["status"] == 1
    assert report.dead_by_reason["too_large"] == 1
    # The 3 crash pages and the hang page. One of them may carry two reasons
    # (ours, then the broker's delivery limit when a node kill lost the ack of
    # its dead letter), so the inputs are counted once in dead_inputs.
    crashed = report.dead_by_reason["crashed"] + report.dead_by_reason["broker:delivery_limit"]
    assert crashed + report.dead_by_reason["timeout"] >= 4
    assert report.dead_inputs == 10 + 3 + 1 + 1 + 4
    assert {fault.kind for fault in report.faults} == faults
    assert all("NOT all workers ready" not in fault.note for fault in report.faults)
    assert all("orphans" not in fault.note for fault in report.faults)
    assert report.worker_exits == [0, 0]


async def test_short_chaos_run_loses_nothing(tmp_path: Path) -> None:
    report = await run_chaos(replace(SHORT, log_dir=tmp_path))  # worker logs with the test
    check_accounted(
        report, {"worker_sigkill", "broker_restart", "close_connections", "memory_alarm"}
    )
    assert report.counted["pool restarts"] >= 1


async def test_short_chaos_run_on_a_cluster_losing_a_node_loses_nothing(tmp_path: Path) -> None:
    """The same plan on three clustered private nodes (about 1 GB), one of them killed -9."""
    report = await run_chaos(replace(SHORT, node_kills=1, log_dir=tmp_path))
    faults = {"worker_sigkill", "broker_restart", "close_connections", "memory_alarm", "node_kill"}
    check_accounted(report, faults)
    (kill,) = [fault for fault in report.faults if fault.kind == "node_kill"]
    assert "NOT rejoined" not in kill.note, kill.note


async def test_sigkill_with_a_fit_stuck_on_a_page_leaves_no_orphans(
    rabbitmq: None, worker_processes: list[WorkerProcess], tmp_path: Path
) -> None:
    # Found by the chaos run: a SIGKILLed worker left its forkserver, its resource
    # tracker and a hung fit process running, for good. Each fit process held the
    # forkserver's "alive" pipe open, so the forkserver never saw the worker go,
    # and the fit processes die with the forkserver, not with the worker.
    env = worker_env(fit_function=MARKERS_FIT, fit_timeout="600")
    settings = StageSettings.from_env(env)
    async with Client(settings.amqp_url) as client:
        try:
            await client.declare_input(settings)
            worker = start_worker(env, tmp_path / "worker.log")
            worker_processes.append(worker)
            await client.publish(
                settings.input_queue,
                msgpack_page("https://hung.example/", b"<p>BLOCKDENSITY-TEST-HANG</p>"),
                content_type="application/msgpack",
            )
            await wait_for(
                lambda: "blockdensity_in_flight 1.0" in http_get(worker.port, "/metrics")[1]
            )
            children = worker.descendants()
            assert len(children) >= 3  # resource tracker, forkserver, fit processes
            worker.process.kill()
            await asyncio.to_thread(worker.process.wait, 10)
            await wait_for(lambda: not any(alive(pid) for pid in children), timeout=10)
        finally:
            await client.delete_topology(settings)
