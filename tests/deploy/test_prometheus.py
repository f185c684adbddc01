"""deploy/prometheus: the rules pass `promtool check`, their unit tests pass `promtool test`."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.deploy.common import (
    PROMETHEUS_CONFIG,
    RULES,
    RULES_TEST,
    alerting_rules,
    dump_yaml,
    load_yaml,
    recording_rules,
    run,
)
from tests.deploy.conftest import PrometheusTools

# Alerts on a raw series because no recorded one carries it: `up` is
# Prometheus' own, per target.
RAW_ALERTS = {"BlockdensityWorkerDown"}
SEVERITIES = {"warning", "critical"}
_DURATION = re.compile(r"^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$")


def _minutes(duration: str) -> float:
    match = _DURATION.fullmatch(duration)
    assert duration, "an empty duration"
    assert match is not None, f"not a duration: {duration!r}"
    hours, minutes, seconds = (int(part or 0) for part in match.groups())
    return hours * 60 + minutes + seconds / 60


def test_rules_pass_promtool_check(prometheus_tools: PrometheusTools) -> None:
    result = run([prometheus_tools.promtool, "check", "rules", str(RULES)])
    assert result.returncode == 0, result.stdout + result.stderr
    total = len(recording_rules()) + len(alerting_rules())
    assert f"SUCCESS: {total} rules found" in result.stdout


def test_rule_unit_tests_pass(prometheus_tools: PrometheusTools) -> None:
    """rules.test.yml: each alert fires where it must and stays silent where it must not."""
    result = run(
        [prometheus_tools.promtool, "test", "rules", RULES_TEST.name], cwd=RULES_TEST.parent
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "SUCCESS" in result.stdout


def test_promtool_test_can_fail(prometheus_tools: PrometheusTools, tmp_path: Path) -> None:
    """A unit test that expects no alert where one fires is reported as failed."""
    tests = load_yaml(RULES_TEST)
    tests["rule_files"] = [str(RULES)]
    firing = next(
        case
        for test in tests["tests"]
        for case in test.get("alert_rule_test", [])
        if case["exp_alerts"]
    )
    firing["exp_alerts"] = []
    broken = tmp_path / "broken.test.yml"
    broken.write_text(dump_yaml(tests), encoding="utf-8")
    result = run([prometheus_tools.promtool, "test", "rules", str(broken)])
    assert result.returncode != 0
    assert "FAILED" in result.stdout + result.stderr


def test_compose_prometheus_config_passes_promtool(prometheus_tools: PrometheusTools) -> None:
    result = run([prometheus_tools.promtool, "check", "config", str(PROMETHEUS_CONFIG)])
    assert result.returncode == 0, result.stdout + result.stderr


def test_every_alert_has_a_firing_and_a_silent_case() -> None:
    cases: dict[str, set[bool]] = {}
    for test in load_yaml(RULES_TEST)["tests"]:
        for case in test.get("alert_rule_test", []):
            cases.setdefault(case["alertname"], set()).add(bool(case["exp_alerts"]))
    for rule in alerting_rules():
        assert cases.get(rule["alert"]) == {True, False}, (
            f"{rule['alert']}: rules.test.yml needs a case where it fires and one where it does not"
        )
    assert set(cases) == {rule["alert"] for rule in alerting_rules()}, "tests of unknown alerts"


@pytest.mark.parametrize("rule", alerting_rules(), ids=lambda rule: rule["alert"])
def test_alert_is_complete(rule: dict[str, Any]) -> None:
    """Severity, a `for` long enough not to flap, and the three annotations on-call reads."""
    assert rule["labels"]["severity"] in SEVERITIES
    assert _minutes(rule["for"]) >= 5, "a `for` under 5 minutes pages on blips"
    for key in ("summary", "description", "runbook"):
        assert rule["annotations"].get(key, "").strip(), f"annotation {key} missing"
    assert len(rule["annotations"]["runbook"].splitlines()) >= 3, "a runbook says what to do"


@pytest.mark.parametrize("rule", alerting_rules(), ids=lambda rule: rule["alert"])
def test_alert_reads_recorded_series(rule: dict[str, Any]) -> None:
    recorded = {rule["record"] for rule in recording_rules()}
    used = {name for name in recorded if name in rule["expr"]}
    if rule["alert"] in RAW_ALERTS:
        return
    assert used, f"{rule['alert']} should build on a recording rule"


def test_recording_rules_are_unique() -> None:
    names = [rule["record"] for rule in recording_rules()]
    assert len(names) == len(set(names))
