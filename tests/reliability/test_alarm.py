"""A memory alarm on the broker: back-pressure, not requeues (the short run).

devkit.alarm on a private node: 500 pages waiting, the memory alarm raised
for 30 s (longer than the 10 s publish timeout), then cleared. Nothing lost,
no dead letter, at most the pages in flight put out twice, /readyz failing
for the whole alarm and ready again within 5 s of its end. The long run
(`python -m bench.alarm`: 120 s) has its figures in RELIABILITY.md.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from devkit.alarm import AlarmConfig, run_alarm

pytestmark = [pytest.mark.integration, pytest.mark.slow, pytest.mark.serial]


async def test_a_memory_alarm_holds_the_pages_in_flight_and_loses_none(tmp_path: Path) -> None:
    report = await run_alarm(AlarmConfig(pages=500, alarm_seconds=30), tmp_path)
    log = report.worker_log
    assert report.lost == 0, log
    assert report.dead_letters == 0, log
    assert report.unique_outputs == 500
    assert report.duplicates <= report.in_flight_at_alarm
    assert report.publish_failed == 0  # no publish was given up on a timer
    # Not ready (and saying why) from the block on, for the whole alarm.
    assert report.unready_body.startswith("not ready: the broker is blocking publishes")
    assert report.unready_after_alarm_began < 5
    assert report.ready_share_during_alarm == 0.0
    assert report.ready_after_clear <= 5.0
    assert report.blocked_seconds >= 25
    assert "the broker blocks publishing" in log
    assert "the broker unblocked publishing after" in log
    assert report.worker_exit == 0
    assert "Traceback" not in log
