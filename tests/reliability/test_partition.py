"""A silent network partition of the worker's node (the short run of devkit.partition).

Three private RabbitMQ nodes, each in a network namespace of its own, the
worker and the crawler in a fourth (devkit.netlab). The worker is given all
three addresses; its node, which leads the input queue, is cut off with
iptables DROP (no reset, no close) while the crawler keeps publishing to the
other two. The worker must notice within 10 s (/readyz 503), consume from a
surviving node within 15 s, and lose nothing, dead-letter nothing and
duplicate at most its prefetch.

The nodes declare a silent peer down after their net_ticktime (6 s here,
Erlang's default 60 s): before that, RabbitMQ 3.10 serves no basic.consume of
a quorum queue that the lost node led, on any node (RELIABILITY.md,
"Partitions": the 41 s). Erlang declares the peer down 0.75 to 1.25
ticktimes after the cut, the queue elects a leader, and the worker's next
attempt may wait out a consume timeout (3 s) first: with a ticktime of 10 s
that adds up to 11-18 s, and one run of three in the suite took 18.4 s
against the 15 s the worker is given; with 6 s, 8-14 s (10.4 s measured on
a loaded machine). The cut lasts 20 s here; `python -m bench.partition`
runs the issue's 60 s, and with the default ticktime. (With a 60 s cut in the
suite, one run of two put out 5 duplicates against the prefetch of 4: the
worker's output publishes were nacked or unconfirmed for the whole cut, each
page requeued and fitted again. Such a page is now held while its publish is
retried, BLOCKDENSITY_PUBLISH_RETRY_FOR: RELIABILITY.md, bug 9.)
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from devkit.cluster import PrivateCluster
from devkit.netlab import NetLab
from devkit.partition import PartitionConfig, run_partition, timeline

pytestmark = [pytest.mark.integration, pytest.mark.slow, pytest.mark.serial]


def _namespaces() -> str:
    return subprocess.run(
        ["ip", "netns", "list"],  # noqa: S607 - iproute2
        capture_output=True,
        text=True,
        check=True,
    ).stdout


def test_a_silent_partition_of_the_workers_node_is_noticed_and_survived(tmp_path: Path) -> None:
    config = PartitionConfig(pages=2000, cut_seconds=20, before_cut=6, publish_seconds=26)
    with NetLab(["n0", "n1", "n2"]) as lab:
        with PrivateCluster(3, lab=lab, net_ticktime=6) as cluster:
            report = run_partition(lab, cluster, config, tmp_path)
        names = [*lab.namespaces.values(), lab.client]
    story = f"{timeline(report)}\n{report.worker_log[-6000:]}"
    assert report.lost == 0, story
    assert report.dead_letters == 0, (report.dead_reasons, story)
    assert report.left_in_input == 0, story
    assert report.unique_outputs == config.pages, story
    assert report.duplicates <= report.prefetch, story
    assert report.unready_after is not None, story
    assert report.unready_after <= 10.0, story
    assert report.consuming_after is not None, story
    assert report.consuming_after <= 15.0, story
    assert report.moved_to not in ("?", report.cut.partition("@")[2]), story
    assert report.worker_exit == 0, story
    # The namespaces (and with them their links and iptables rules) are gone.
    listed = _namespaces()
    assert not [name for name in names if name in listed], listed
