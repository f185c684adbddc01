"""The node-kill run (devkit.cluster), longer: 2,000 pages, the node in use killed mid-flow.

    python -m bench.cluster                 # three private nodes, 2,000 pages (~2 min)
    python -m bench.cluster --pages 5000

Prints a table for RELIABILITY.md; exits 1 if anything was lost, dead-lettered,
duplicated beyond the pages in flight, or the worker was not ready again in 5 s.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from devkit.cluster import NodeKillConfig, NodeKillReport, PrivateCluster, run_node_kill
from devkit.report import figures, log_folder


def rows(report: NodeKillReport) -> list[tuple[str, str]]:
    return [
        ("pages", f"{report.pages:,}"),
        ("node killed (SIGKILL): the worker's, leading the input queue", report.killed),
        ("the worker moved to", report.moved_to),
        ("pages in flight at the kill", str(report.in_flight_at_kill)),
        ("/readyz 200 again after the kill", f"{report.ready_after_kill:.2f} s"),
        ("outputs (distinct pages)", f"{report.unique_outputs:,}"),
        ("duplicate outputs", str(report.duplicates)),
        ("dead letters", str(report.dead_letters)),
        ("lost", str(report.lost)),
        (
            "killed node running in the cluster again after its restart",
            f"{report.rejoined_after:.1f} s",
        ),
        (
            "messages left in the queues (killed node's view)",
            str(sum(report.left_in_queues.values())),
        ),
        ("worker exit status after SIGTERM", str(report.worker_exit)),
    ]


async def _run(config: NodeKillConfig, log_dir: Path) -> NodeKillReport:
    with PrivateCluster(3) as cluster:
        return await run_node_kill(cluster, config, log_dir)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.cluster", description=__doc__)
    parser.add_argument("--pages", type=int, default=2000)
    parser.add_argument("--log-dir", type=Path, default=None)
    options = parser.parse_args()
    log_dir = log_folder(options.log_dir, "cluster")
    config = NodeKillConfig(pages=options.pages, outputs_before_kill=options.pages // 10)
    report = asyncio.run(_run(config, log_dir))
    sys.exit(
        figures(
            f"node-kill run: three private RabbitMQ nodes, worker log in {log_dir}",
            rows(report),
            ok=report.ok,
        )
    )


if __name__ == "__main__":
    main()
