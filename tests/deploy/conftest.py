"""Fixtures of the deployment tests: the real tools, installed when missing."""

from __future__ import annotations

from typing import NamedTuple

import pytest

from tests.deploy.common import ensure_prometheus


class PrometheusTools(NamedTuple):
    promtool: str
    prometheus: str


@pytest.fixture(scope="session")
def prometheus_tools() -> PrometheusTools:
    """promtool and prometheus (Debian's package, installed here if missing)."""
    try:
        return PrometheusTools(*ensure_prometheus())
    except (RuntimeError, OSError) as error:
        pytest.fail(f"no promtool/prometheus for the deployment tests: {error}")
