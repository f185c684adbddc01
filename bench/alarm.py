"""The memory-alarm run (devkit.alarm), long: a backlog, a 120 s memory alarm, then cleared.

    python -m bench.alarm                      # 800 pages, 120 s alarm (~4 min)
    python -m bench.alarm --pages 500 --alarm-seconds 30

Prints a table for RELIABILITY.md; exits 1 if anything was lost, dead-lettered,
duplicated beyond the pages in flight, or readiness was wrong.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from devkit.alarm import AlarmConfig, AlarmReport, run_alarm
from devkit.report import figures, log_folder


def rows(report: AlarmReport) -> list[tuple[str, str]]:
    return [
        ("pages in the backlog", f"{report.pages:,}"),
        ("memory alarm", f"{report.alarm_seconds:g} s"),
        ("pages in flight when it was raised", str(report.in_flight_at_alarm)),
        ("outputs (distinct pages)", f"{report.unique_outputs:,}"),
        ("duplicate outputs", str(report.duplicates)),
        ("dead letters", str(report.dead_letters)),
        ("lost", str(report.lost)),
        ("publish_failed outcomes", f"{report.publish_failed:g}"),
        ("/readyz 503 after the alarm was raised", f"{report.unready_after_alarm_began:.2f} s"),
        ("/readyz 200 polls during the alarm", f"{report.ready_share_during_alarm:.0%}"),
        ("/readyz 200 after the alarm cleared", f"{report.ready_after_clear:.2f} s"),
        ("blockdensity_broker_blocked_seconds_total", f"{report.blocked_seconds:.1f}"),
        ("worker exit status after SIGTERM", str(report.worker_exit)),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.alarm", description=__doc__)
    parser.add_argument("--pages", type=int, default=800)
    parser.add_argument("--alarm-seconds", type=float, default=120.0)
    parser.add_argument("--log-dir", type=Path, default=None)
    options = parser.parse_args()
    log_dir = log_folder(options.log_dir, "alarm")
    config = AlarmConfig(pages=options.pages, alarm_seconds=options.alarm_seconds)
    report = asyncio.run(run_alarm(config, log_dir))
    sys.exit(
        figures(
            f"memory alarm run: private RabbitMQ node, worker log in {log_dir}",
            rows(report),
            ok=report.ok,
        )
    )


if __name__ == "__main__":
    main()
