"""deploy/grafana/blockdensity.json: a provisionable Grafana dashboard over the worker's metrics.

The queries themselves are run against a real Prometheus in test_e2e.py;
here the dashboard's structure is checked: what Grafana needs to load it,
the variables, the layout, and that it covers what on-call looks at.
"""

from __future__ import annotations

import json
from typing import Any

from tests.deploy.common import (
    DASHBOARD,
    DEPLOY,
    alerting_rules,
    dashboard_panels,
    dashboard_queries,
)

# Grafana's current dashboard schema version (12.2+), and the oldest we accept.
SCHEMA_VERSION = 42
GRID_WIDTH = 24
# The queue matchers, as the panels' expressions read once the JSON is
# decoded: the input queue and its numbered family (a regex in a PromQL
# string, hence the doubled backslash), the dead-letter queue by its name.
INPUT_QUEUES = 'queue=~"$input_queue(\\\\.[0-9]+)?"'
DEAD_LETTER_QUEUE = 'queue="$dead_letter_queue"'


def _dashboard() -> dict[str, Any]:
    loaded = json.loads(DASHBOARD.read_text(encoding="utf-8"))
    assert isinstance(loaded, dict)
    return loaded


def test_dashboard_has_what_grafana_needs() -> None:
    dashboard = _dashboard()
    assert dashboard["schemaVersion"] == SCHEMA_VERSION
    assert dashboard["uid"] == "blockdensity"
    assert dashboard["title"]
    assert dashboard["id"] is None, "provisioned dashboards must not carry a database id"
    ids = [panel["id"] for panel in dashboard["panels"]] + [
        nested["id"] for panel in dashboard["panels"] for nested in panel.get("panels", [])
    ]
    assert len(ids) == len(set(ids)), "panel ids must be unique"


def test_dashboard_variables() -> None:
    """A data source variable (no hard-coded uid) and a multi-value instance filter."""
    variables = {variable["name"]: variable for variable in _dashboard()["templating"]["list"]}
    assert variables["datasource"]["type"] == "datasource"
    assert variables["datasource"]["query"] == "prometheus"
    instance = variables["instance"]
    assert instance["type"] == "query"
    assert instance["datasource"]["uid"] == "${datasource}"
    assert instance["query"] == "label_values(blockdensity_pages_total, instance)"
    assert instance["multi"] is True
    assert instance["includeAll"] is True
    assert instance["allValue"] == ".*"
    assert variables["input_queue"]["query"] == "pages.fetched"
    assert variables["dead_letter_queue"]["query"] == "pages.dead"


def test_every_panel_queries_the_variable_data_source() -> None:
    for panel in dashboard_panels(_dashboard()):
        assert panel["datasource"] == {"type": "prometheus", "uid": "${datasource}"}, panel["title"]
        assert panel["targets"], panel["title"]
        refs = [target["refId"] for target in panel["targets"]]
        assert len(refs) == len(set(refs)), panel["title"]
        for target in panel["targets"]:
            assert target["datasource"]["uid"] == "${datasource}"
            assert target["expr"].strip()
        assert panel.get("description"), f"{panel['title']}: say what the panel shows"


def test_every_query_is_filtered_by_instance_or_queue() -> None:
    for title, expr in dashboard_queries(_dashboard()):
        if "blockdensity" in expr:
            assert 'instance=~"$instance"' in expr, title
        else:
            assert INPUT_QUEUES in expr or DEAD_LETTER_QUEUE in expr, title


def test_panels_tile_the_grid() -> None:
    """Panels lie within the 24 columns and do not overlap."""
    taken: set[tuple[int, int]] = set()
    for panel in _dashboard()["panels"]:
        grid = panel["gridPos"]
        assert grid["x"] >= 0
        assert grid["w"] > 0
        assert grid["x"] + grid["w"] <= GRID_WIDTH
        cells = {
            (x, y)
            for x in range(grid["x"], grid["x"] + grid["w"])
            for y in range(grid["y"], grid["y"] + grid["h"])
        }
        assert not cells & taken, f"{panel['title']} overlaps another panel"
        taken |= cells


def test_dashboard_covers_the_stage() -> None:
    """Throughput, fallbacks, blocks, latency, worker health and both queues."""
    queries = " ".join(expr for _, expr in dashboard_queries(_dashboard()))
    for series in (
        "instance_outcome:blockdensity_pages:rate5m",
        "instance:blockdensity_fallback:ratio_rate5m",
        "blockdensity_fallback_total",
        "blockdensity_pages_by_type_total",
        "blockdensity_page_blocks_bucket",
        "instance:blockdensity_blocks_kept:ratio_rate5m",
        "instance:blockdensity_fit_duration_seconds:p50_rate5m",
        "instance:blockdensity_fit_duration_seconds:p99_rate5m",
        "instance:blockdensity_message_duration_seconds:p50_rate5m",
        "instance:blockdensity_message_duration_seconds:p99_rate5m",
        "blockdensity_in_flight",
        "blockdensity_pool_restarts_total",
        "blockdensity_broker_blocked{",
        "blockdensity_broker_blocked_seconds_total",
        "blockdensity_ack_failures_total",
        "blockdensity_last_success_timestamp_seconds",
        f"rabbitmq_detailed_queue_messages_ready{{{INPUT_QUEUES}}}",
        f"rabbitmq_detailed_queue_messages_unacked{{{INPUT_QUEUES}}}",
        f"rabbitmq_detailed_queue_messages{{{DEAD_LETTER_QUEUE}}}",
    ):
        assert series in queries, f"no panel shows {series}"


def test_readme_describes_every_panel_and_alert() -> None:
    readme = (DEPLOY / "README.md").read_text(encoding="utf-8")
    for panel in dashboard_panels(_dashboard()):
        assert f"**{panel['title']}**" in readme, f"deploy/README.md: describe {panel['title']!r}"
    for rule in alerting_rules():
        assert rule["alert"] in readme, f"deploy/README.md: what to do on {rule['alert']}"
