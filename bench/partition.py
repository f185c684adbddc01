"""The partition run (devkit.partition): the worker's node cut off silently for 60 s.

    python -m bench.partition                      # 2,000 pages, a 60 s cut (~3 min)
    python -m bench.partition --heartbeat 5        # ?heartbeat=5 on every address
    python -m bench.partition --cut 200

Three private RabbitMQ nodes in network namespaces of their own, the worker
given all three addresses; its node (the input queue's leader) is cut with
iptables DROP while the crawler publishes to the other two. Needs root.
Prints a table for RELIABILITY.md and the run's timeline; exits 1 if a page
was lost or dead-lettered, duplicates passed the prefetch, the worker was
still ready 10 s after the cut or not consuming again 15 s after it.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from devkit.cluster import PrivateCluster
from devkit.netlab import NetLab
from devkit.partition import (
    PartitionConfig,
    PartitionReport,
    probe_declarations,
    run_partition,
    timeline,
)
from devkit.report import figures, log_folder


def _seconds(value: float | None) -> str:
    return "never" if value is None else f"{value:.1f} s"


def rows(report: PartitionReport, config: PartitionConfig) -> list[tuple[str, str]]:
    return [
        ("pages", f"{report.pages:,}"),
        ("heartbeat asked (?heartbeat=)", str(config.heartbeat or "the worker's default")),
        ("node cut (iptables DROP), the input queue's leader", report.cut),
        ("cut for", f"{config.cut_seconds:g} s"),
        ("/readyz 503 after the cut", _seconds(report.unready_after)),
        ("/readyz said", report.unready_reason or "-"),
        (
            "/readyz 200 during the cut, before the move",
            f"{report.ready_polls_in_cut} of {report.polls_in_cut} polls",
        ),
        ("consuming at a surviving node after the cut", _seconds(report.consuming_after)),
        ("/readyz 200 again after the cut", _seconds(report.ready_after)),
        ("the worker moved to", report.moved_to),
        ("outputs (distinct pages)", f"{report.unique_outputs:,}"),
        ("duplicate outputs (prefetch)", f"{report.duplicates} ({report.prefetch})"),
        ("dead letters", f"{report.dead_letters} {report.dead_reasons or ''}".strip()),
        ("lost", str(report.lost)),
        ("worker exit status after SIGTERM", str(report.worker_exit)),
    ]


def probe(net_ticktime: int | None) -> None:
    with (
        NetLab(["n0", "n1", "n2"]) as lab,
        PrivateCluster(3, lab=lab, net_ticktime=net_ticktime) as cluster,
    ):
        report = probe_declarations(lab, cluster)
    print(f"the node cut: {report.cut}; operations started 10 s after the cut, all at once")
    print("| operation on a surviving node | seconds |\n|---|---:|")
    for name, seconds in report.seconds.items():
        print(f"| {name} | {seconds:.2f} |")
    print(
        f"| (a survivor logs the cut node down, from the cut) | {report.node_down_after or 0:.1f} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.partition", description=__doc__)
    parser.add_argument("--pages", type=int, default=2000)
    parser.add_argument("--cut", type=float, default=60.0, help="seconds the node is cut off")
    parser.add_argument("--heartbeat", type=int, default=None)
    parser.add_argument("--log-dir", type=Path, default=None)
    parser.add_argument(
        "--net-ticktime", type=int, default=None, help="the nodes' net_ticktime (Erlang's: 60)"
    )
    parser.add_argument(
        "--probe",
        action="store_true",
        help="time each operation of a reconnection on a surviving node during a cut instead",
    )
    options = parser.parse_args()
    if options.probe:
        probe(options.net_ticktime)
        return
    log_dir = log_folder(options.log_dir, "partition")
    config = PartitionConfig(
        pages=options.pages,
        cut_seconds=options.cut,
        publish_seconds=options.cut + 10,
        heartbeat=options.heartbeat,
    )
    with (
        NetLab(["n0", "n1", "n2"]) as lab,
        PrivateCluster(3, lab=lab, net_ticktime=options.net_ticktime) as cluster,
    ):
        report = run_partition(lab, cluster, config, log_dir)
    print(timeline(report))
    sys.exit(
        figures(
            f"partition run: three private RabbitMQ nodes in namespaces, worker log in {log_dir}",
            rows(report, config),
            ok=report.ok,
        )
    )


if __name__ == "__main__":
    main()
