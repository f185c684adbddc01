"""k8s/: rendered by kustomize (kubectl), validated by kubernetes-validate and against the CRDs.

Core kinds are validated with kubernetes-validate (strict: unknown fields
are errors) at a current Kubernetes release and the oldest one we support;
KEDA's and the Prometheus Operator's objects against their CRDs' schemas
(vendored in tests/deploy/schemas), closed the same way. Then the settings
that must agree with the worker are compared with worker/config.py.
"""

from __future__ import annotations

import copy
import json
import os
import re
import shutil
from pathlib import Path
from typing import Any

import jsonschema
import kubernetes_validate  # type: ignore[import-untyped]  # no type information shipped
import pytest

from tests.deploy.common import (
    BASE,
    CRDS,
    DASHBOARD,
    KUBERNETES_VERSIONS,
    OVERLAY,
    PROMETHEUS_RULE,
    RULES,
    check_family_pattern,
    crd_schema,
    dashboard_queries,
    family_stem,
    kubectl,
    kustomize_build,
    load_all_yaml,
    load_yaml,
    prometheus_rule_text,
    promql_unquote,
    recording_rules,
)
from worker.config import SETTINGS, StageSettings

ENV_NAMES = {setting.env for setting in SETTINGS}
# Measured while bench.worker_e2e drained the development corpus (deploy/README.md,
# "Sizing"): peak RSS in MiB of the worker's parent, its forkserver and resource
# tracker together, and one fit process; and what an 8 MiB page adds to a fit
# process (the largest body the worker accepts by default).
MEASURED_PARENT_MIB = 53
MEASURED_HELPERS_MIB = 44
MEASURED_CHILD_MIB = 36
LARGEST_PAGE_EXTRA_MIB = 30


def _by_kind(objects: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [obj for obj in objects if obj["kind"] == kind]


def _one(objects: list[dict[str, Any]], kind: str) -> dict[str, Any]:
    found = _by_kind(objects, kind)
    assert len(found) == 1, f"expected one {kind}, found {len(found)}"
    return found[0]


def _base_files() -> list[dict[str, Any]]:
    """The base's resources as written (no kustomize needed)."""
    kustomization = load_yaml(BASE / "kustomization.yaml")
    objects: list[dict[str, Any]] = []
    for name in kustomization["resources"]:
        objects += load_all_yaml((BASE / name).read_text(encoding="utf-8"))
    return objects


@pytest.fixture(scope="module")
def rendered() -> list[dict[str, Any]]:
    """`kubectl kustomize k8s/overlays/example`: every object, as applied."""
    if kubectl() is None:
        pytest.skip("kubectl is not installed: the kustomize rendering cannot be checked")
    return kustomize_build(OVERLAY)


@pytest.fixture(scope="module")
def worker_config(rendered: list[dict[str, Any]]) -> dict[str, str]:
    config = _one(rendered, "ConfigMap")
    assert config["metadata"]["name"].startswith("blockdensity-config-"), "generated, hashed name"
    data = config["data"]
    assert isinstance(data, dict)
    return data


@pytest.fixture(scope="module")
def settings(worker_config: dict[str, str]) -> StageSettings:
    """The worker's settings in the pod: the ConfigMap, and the URL from the Secret."""
    return StageSettings.from_env(
        {**worker_config, "BLOCKDENSITY_AMQP_URL": "amqp://u:p@rabbitmq:5672/"}
    )


@pytest.fixture(scope="module")
def container(rendered: list[dict[str, Any]]) -> dict[str, Any]:
    (found,) = _one(rendered, "Deployment")["spec"]["template"]["spec"]["containers"]
    assert isinstance(found, dict)
    return found


# --- files and rendering --------------------------------------------------------------


@pytest.mark.parametrize("directory", [BASE, OVERLAY], ids=["base", "overlay"])
def test_kustomization_lists_files_that_exist(directory: Path) -> None:
    """Runs without kubectl: every resource, generator input and patch file exists."""
    kustomization = load_yaml(directory / "kustomization.yaml")
    for entry in kustomization.get("resources", []):
        path = directory / entry
        assert path.is_file() or (path / "kustomization.yaml").is_file(), f"{directory}: {entry}"
    for generator in kustomization.get("configMapGenerator", []):
        for name in generator.get("envs", []) + generator.get("files", []):
            assert (directory / name).is_file(), f"{directory}: {name}"
    for patch in kustomization.get("patches", []):
        if "path" in patch:
            assert (directory / patch["path"]).is_file()


def test_overlay_renders(rendered: list[dict[str, Any]]) -> None:
    kinds = sorted(obj["kind"] for obj in rendered)
    assert kinds == sorted(
        [
            "ConfigMap",
            "Deployment",
            "Namespace",
            "PodDisruptionBudget",
            "PodMonitor",
            "PodMonitor",
            "PrometheusRule",
            "ScaledObject",
            "Secret",
            "Service",
            "ServiceAccount",
            "TriggerAuthentication",
        ]
    )
    for obj in rendered:
        if obj["kind"] != "Namespace":
            assert obj["metadata"]["namespace"] == "blockdensity", obj["metadata"]["name"]


def test_base_renders_without_the_overlay() -> None:
    if kubectl() is None:
        pytest.skip("kubectl is not installed: the kustomize rendering cannot be checked")
    kinds = {obj["kind"] for obj in kustomize_build(BASE)}
    assert "Secret" not in kinds, "the base ships no Secret: each installation brings its own"
    assert "Deployment" in kinds


# --- schemas ----------------------------------------------------------------------------


def _validate(obj: dict[str, Any], version: str) -> None:
    key = (obj["apiVersion"], obj["kind"])
    if key in CRDS:
        schema = crd_schema(CRDS[key], obj["apiVersion"].rpartition("/")[2])
        jsonschema.Draft7Validator(schema).validate(obj)
    else:
        kubernetes_validate.validate(obj, version, strict=True)


@pytest.mark.parametrize("version", KUBERNETES_VERSIONS)
def test_rendered_objects_are_valid(rendered: list[dict[str, Any]], version: str) -> None:
    for obj in rendered:
        _validate(obj, version)


@pytest.mark.parametrize("version", KUBERNETES_VERSIONS)
def test_base_files_are_valid(version: str) -> None:
    """The same without kustomize: the base's files as written."""
    for obj in _base_files():
        _validate(obj, version)


def test_every_custom_kind_has_a_vendored_crd() -> None:
    kinds = {(obj["apiVersion"], obj["kind"]) for obj in _base_files()}
    custom = {kind for kind in kinds if "." in kind[0].partition("/")[0]}
    assert custom == set(CRDS)


def test_validation_catches_typos() -> None:
    """Both validators reject an unknown field (a typo would otherwise be pruned silently)."""
    objects = {obj["kind"]: obj for obj in _base_files()}
    deployment = copy.deepcopy(objects["Deployment"])
    deployment["spec"]["template"]["spec"]["terminationGracePeriod"] = 45
    with pytest.raises(kubernetes_validate.ValidationError):
        _validate(deployment, KUBERNETES_VERSIONS[-1])
    scaled = copy.deepcopy(objects["ScaledObject"])
    scaled["spec"]["minReplicas"] = 2
    with pytest.raises(jsonschema.ValidationError):
        _validate(scaled, KUBERNETES_VERSIONS[-1])
    monitor = copy.deepcopy(objects["PodMonitor"])
    monitor["spec"]["podMetricsEndpoints"][0]["interval"] = "15 seconds"
    with pytest.raises(jsonschema.ValidationError):
        _validate(monitor, KUBERNETES_VERSIONS[-1])


def test_prometheusrule_carries_rules_yml() -> None:
    """k8s/base/prometheusrule.yaml is deploy/prometheus/rules.yml, regenerated."""
    assert load_yaml(PROMETHEUS_RULE)["spec"]["groups"] == load_yaml(RULES)["groups"]
    assert PROMETHEUS_RULE.read_text(encoding="utf-8") == prometheus_rule_text(), (
        "stale: run .venv/bin/python -m tests.deploy.sync_prometheusrule"
    )


# --- agreement with the worker ------------------------------------------------------------


def test_grace_period_outlasts_fit_timeout_and_drain(
    rendered: list[dict[str, Any]], settings: StageSettings
) -> None:
    pod = _one(rendered, "Deployment")["spec"]["template"]["spec"]
    assert pod["terminationGracePeriodSeconds"] > settings.fit_timeout + settings.grace_period


def test_probes_and_ports_are_the_workers(
    rendered: list[dict[str, Any]], container: dict[str, Any], settings: StageSettings
) -> None:
    (port,) = container["ports"]
    assert port == {"name": "metrics", "containerPort": settings.http_port, "protocol": "TCP"}
    assert container["livenessProbe"]["httpGet"] == {"path": "/healthz", "port": "metrics"}
    assert container["startupProbe"]["httpGet"] == {"path": "/healthz", "port": "metrics"}
    assert container["readinessProbe"]["httpGet"] == {"path": "/readyz", "port": "metrics"}
    # Liveness must not fail before the worker's own stall detection does.
    liveness = container["livenessProbe"]
    assert liveness["periodSeconds"] * liveness["failureThreshold"] > settings.liveness_timeout
    service = _one(rendered, "Service")
    (service_port,) = service["spec"]["ports"]
    assert service_port["targetPort"] == "metrics"
    assert service_port["port"] == settings.http_port
    for monitor in _by_kind(rendered, "PodMonitor"):
        if monitor["metadata"]["name"] == "blockdensity":
            (endpoint,) = monitor["spec"]["podMetricsEndpoints"]
            assert endpoint["port"] == "metrics"
            assert endpoint["path"] == "/metrics"
            assert monitor["spec"]["jobLabel"] == "app.kubernetes.io/name"


def test_environment_names_are_worker_settings(
    container: dict[str, Any], worker_config: dict[str, str]
) -> None:
    names = set(worker_config) | {entry["name"] for entry in container["env"]}
    assert names <= ENV_NAMES, f"not settings of the worker: {names - ENV_NAMES}"
    assert "BLOCKDENSITY_AMQP_URL" not in worker_config, "the URL holds a password: Secret only"
    (url,) = [entry for entry in container["env"] if entry["name"] == "BLOCKDENSITY_AMQP_URL"]
    assert url["valueFrom"]["secretKeyRef"] == {"name": "blockdensity-broker", "key": "amqp-url"}
    (source,) = container["envFrom"]
    assert source["configMapRef"]["name"].startswith("blockdensity-config-")


def test_pool_size_is_the_cpu_limit(container: dict[str, Any], settings: StageSettings) -> None:
    limits, requests = container["resources"]["limits"], container["resources"]["requests"]
    assert settings.pool_size == int(limits["cpu"])
    assert requests["cpu"] == limits["cpu"]
    assert settings.prefetch == 2 * settings.pool_size


def test_memory_covers_the_measured_peak(
    container: dict[str, Any], settings: StageSettings
) -> None:
    def mebibytes(quantity: str) -> int:
        match = re.fullmatch(r"(\d+)(Mi|Gi)", quantity)
        assert match is not None, quantity
        return int(match[1]) * (1024 if match[2] == "Gi" else 1)

    limit = mebibytes(container["resources"]["limits"]["memory"])
    request = mebibytes(container["resources"]["requests"]["memory"])
    measured = MEASURED_PARENT_MIB + MEASURED_HELPERS_MIB + settings.pool_size * MEASURED_CHILD_MIB
    worst = measured + settings.pool_size * LARGEST_PAGE_EXTRA_MIB + settings.prefetch * 8
    assert request > measured
    assert limit > worst
    assert limit - settings.pool_size * MEASURED_CHILD_MIB > MEASURED_CHILD_MIB


def test_pod_runs_with_least_privilege(
    rendered: list[dict[str, Any]], container: dict[str, Any]
) -> None:
    pod = _one(rendered, "Deployment")["spec"]["template"]["spec"]
    assert pod["securityContext"]["runAsNonRoot"] is True
    assert pod["securityContext"]["runAsUser"] > 0
    assert pod["securityContext"]["seccompProfile"] == {"type": "RuntimeDefault"}
    assert pod["automountServiceAccountToken"] is False
    security = container["securityContext"]
    assert security["allowPrivilegeEscalation"] is False
    assert security["readOnlyRootFilesystem"] is True
    assert security["capabilities"] == {"drop": ["ALL"]}
    mounts = {mount["mountPath"]: mount["name"] for mount in container["volumeMounts"]}
    volumes = {volume["name"]: volume for volume in pod["volumes"]}
    tmp = volumes[mounts["/tmp"]]  # noqa: S108 - the path the pod mounts
    assert "emptyDir" in tmp, "the forkserver's socket needs a writable /tmp"


def test_replicas_belong_to_keda(rendered: list[dict[str, Any]], settings: StageSettings) -> None:
    deployment = _one(rendered, "Deployment")
    assert "replicas" not in deployment["spec"], "the HPA owns the count; apply would reset it"
    scaled = _one(rendered, "ScaledObject")["spec"]
    assert scaled["scaleTargetRef"] == {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "name": deployment["metadata"]["name"],
    }
    budget = _one(rendered, "PodDisruptionBudget")["spec"]
    assert budget["selector"] == deployment["spec"]["selector"]
    assert scaled["minReplicaCount"] > budget["maxUnavailable"], "a drain must leave a worker"
    assert scaled["maxReplicaCount"] >= scaled["minReplicaCount"]
    (trigger,) = scaled["triggers"]
    assert trigger["type"] == "rabbitmq"
    metadata = trigger["metadata"]
    assert metadata["protocol"] == "http", "so that unacknowledged messages count"
    assert metadata["mode"] == "QueueLength"
    _assert_trigger_counts_the_input_queues(metadata, settings)
    assert int(metadata["value"]) > settings.prefetch, "a target below prefetch never scales in"
    auth = _one(rendered, "TriggerAuthentication")
    assert trigger["authenticationRef"] == {"name": auth["metadata"]["name"]}
    assert auth["spec"]["secretTargetRef"] == [
        {"parameter": "host", "name": "blockdensity-broker", "key": "management-url"}
    ]


def test_example_secret_is_an_example(rendered: list[dict[str, Any]]) -> None:
    secret = _one(rendered, "Secret")
    assert secret["metadata"]["name"] == "blockdensity-broker"
    data = secret["stringData"]
    assert set(data) == {"amqp-url", "management-url"}
    for url in data.values():
        assert ":CHANGE-ME@" in url, "placeholders only, never a real password"
    assert data["amqp-url"].startswith("amqp://")
    assert data["management-url"].startswith("http://")
    assert data["management-url"].endswith(":15672/")


def _assert_trigger_counts_the_input_queues(
    metadata: dict[str, str], settings: StageSettings
) -> None:
    """The trigger counts the configured input queues, each one, and nothing else.

    With useRegex KEDA asks the management API for the queues whose names
    match (anywhere in the name, ignoring case: RabbitMQ anchors nothing) and
    adds their messages up (`operation: sum`); it reads one page of pageSize
    (default 100) queues.
    """
    others = [settings.output_queue, settings.dead_letter_queue]
    if metadata.get("useRegex") != "true":
        assert settings.input_queues == (metadata["queueName"],), "one queue, by its name"
        return
    assert metadata["protocol"] == "http", "KEDA's useRegex needs the management API"
    assert metadata.get("operation", "sum") == "sum", "the backlog is the family's sum"
    assert len(settings.input_queues) <= int(metadata.get("pageSize", "100"))
    stem = family_stem(settings.input_queues)
    check_family_pattern(metadata["queueName"], stem, anchored=False, others=others)
    for name in settings.input_queues:
        assert re.search(metadata["queueName"], name, re.IGNORECASE), f"not counted: {name}"


def test_trigger_check_can_fail(settings: StageSettings) -> None:
    """A trigger that names another queue, or a pattern that misses the family,
    catches too much or is unanchored, is refused."""
    good = {"protocol": "http", "useRegex": "true", "operation": "sum"}
    for pattern in (
        r"^pages\.fetched$",  # the queue alone, not its family
        r"pages\.fetched(\.[0-9]+)?",  # unanchored: pages.fetched.old counts
        r"^pages.fetched(\.[0-9]+)?$",  # an unescaped dot: pagesXfetched
        r"^pages\.(fetched|clean)(\.[0-9]+)?$",  # the output queue too
    ):
        with pytest.raises(AssertionError):
            _assert_trigger_counts_the_input_queues({**good, "queueName": pattern}, settings)
    with pytest.raises(AssertionError):
        _assert_trigger_counts_the_input_queues(
            {**good, "queueName": r"^pages\.fetched(\.[0-9]+)?$", "operation": "max"}, settings
        )
    with pytest.raises(AssertionError):
        _assert_trigger_counts_the_input_queues({"queueName": "pages.clean"}, settings)


def _family_example(overlay: Path) -> str:
    """The example overlay's commented family lines, uncommented."""
    lines = (OVERLAY / "kustomization.yaml").read_text(encoding="utf-8").splitlines()
    start = lines.index("# configMapGenerator:")
    block = []
    for line in lines[start:]:
        if not line.startswith("# "):
            break
        block.append(line[2:])
    base = os.path.relpath(BASE, overlay)  # kustomize refuses absolute paths
    text = "\n".join(lines).replace("../../base", base)
    assert text != "\n".join(lines), "the overlay names the base as ../../base"
    return text + "\n" + "\n".join(block) + "\n"


def test_overlay_family_example_is_counted(tmp_path: Path) -> None:
    """The example overlay's commented family of 8, uncommented, renders; the
    worker accepts it and the base's trigger counts all 8 queues."""
    if kubectl() is None:
        pytest.skip("kubectl is not installed: the kustomize rendering cannot be checked")
    overlay = tmp_path / "family"
    shutil.copytree(OVERLAY, overlay)
    (overlay / "kustomization.yaml").write_text(_family_example(overlay), encoding="utf-8")
    objects = kustomize_build(overlay)
    config = _one(objects, "ConfigMap")
    name = config["metadata"]["name"]
    (container,) = _one(objects, "Deployment")["spec"]["template"]["spec"]["containers"]
    assert container["envFrom"] == [{"configMapRef": {"name": name}}], "the pods follow"
    family = StageSettings.from_env(
        {**config["data"], "BLOCKDENSITY_AMQP_URL": "amqp://u:p@rabbitmq/"}
    )
    assert family.input_queues == tuple(f"pages.fetched.{number}" for number in range(8))
    assert family.input_exchange, "a family of queues is filled by the consistent-hash exchange"
    assert family.input_exchange not in family.input_queues
    (trigger,) = _one(objects, "ScaledObject")["spec"]["triggers"]
    _assert_trigger_counts_the_input_queues(trigger["metadata"], family)


def _rules_input_queue(rule: dict[str, Any]) -> tuple[str, str]:
    """The input queue rule's queue pattern and the queue label it records."""
    (pattern,) = re.findall(
        r'rabbitmq_detailed_queue_messages\{queue=~"((?:[^"\\]|\\.)*)"\}', rule["expr"]
    )
    (label,) = re.findall(r'"queue", "([^"]+)", "", ""', rule["expr"])
    return promql_unquote(pattern), label


def test_rules_and_dashboard_name_the_configured_queues(settings: StageSettings) -> None:
    """The rules and the dashboard select the configured input queue and its
    numbered family (Prometheus anchors a regex matcher), and the dead-letter
    queue by its name."""
    defaults = StageSettings.from_env({})
    assert (settings.input_queue, settings.dead_letter_queue) == (
        defaults.input_queue,
        defaults.dead_letter_queue,
    ), "the manifests use the worker's default names, as compose does"
    stem = family_stem(settings.input_queues)
    others = [settings.output_queue, settings.dead_letter_queue]
    rules = {rule["record"]: rule for rule in recording_rules()}
    pattern, label = _rules_input_queue(rules["blockdensity:input_queue_messages"])
    check_family_pattern(pattern, stem, anchored=True, others=others)
    assert label == stem, "the recorded series is named by the queue (the family's stem)"
    dead = re.findall(
        r'rabbitmq_detailed_queue_messages\{queue="([^"]+)"\}',
        rules["blockdensity:dead_letter_queue_messages"]["expr"],
    )
    assert dead == [settings.dead_letter_queue]
    patterned = [
        rule.get("record", rule.get("alert"))
        for group in load_yaml(RULES)["groups"]
        for rule in group["rules"]
        if "queue=~" in rule["expr"]
    ]
    assert patterned == ["blockdensity:input_queue_messages"], "the others read its series"

    dashboard = json.loads(DASHBOARD.read_text(encoding="utf-8"))
    variables = {variable["name"]: variable for variable in dashboard["templating"]["list"]}
    assert variables["input_queue"]["query"] == stem
    assert variables["dead_letter_queue"]["query"] == settings.dead_letter_queue
    input_queries = [expr for _, expr in dashboard_queries(dashboard) if "$input_queue" in expr]
    assert input_queries
    for expr in input_queries:
        (matcher,) = re.findall(r'queue=~"((?:[^"\\]|\\.)*)"', expr)
        # Grafana puts a textbox's value in as typed: its dots match any
        # character, which a panel can live with.
        shown = promql_unquote(matcher).replace("$input_queue", stem)
        check_family_pattern(shown, stem, anchored=True, others=others, dots=False)
        assert expr.startswith("sum("), f"the family's queues add up: {expr}"


def test_queue_name_checks_can_fail() -> None:
    """The rules' pattern check refuses what would miss or overreach the family."""
    stem = "pages.fetched"
    for pattern in (r"pages\.fetched", r"pages.fetched(\.[0-9]+)?", r"pages\.fetched.*"):
        with pytest.raises(AssertionError):
            check_family_pattern(pattern, stem, anchored=True)
    rule = {
        "expr": "label_replace(sum by (vhost) (max by (vhost, queue) "
        '(rabbitmq_detailed_queue_messages{queue=~"pages\\\\.fetched"})), '
        '"queue", "pages.fetched", "", "")'
    }
    pattern, label = _rules_input_queue(rule)
    assert (pattern, label) == (r"pages\.fetched", stem)
    with pytest.raises(AssertionError):
        check_family_pattern(pattern, stem, anchored=True)
