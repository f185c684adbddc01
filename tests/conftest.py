"""What every test run needs first: Hypothesis's profile, and compiled modules that are current.

The profile (tests/hypothesis_profiles.py) is loaded here, before any test
module is imported, so that every property runs under it. A compiled module
older than its source would make the whole run test old code: the run stops
before the first test, naming the module and the fix.
"""

from __future__ import annotations

import pytest

import tests.hypothesis_profiles  # noqa: F401 - loads the profile
from tests.compiled import stale


def pytest_configure(config: pytest.Config) -> None:
    problems = stale()
    if problems:
        raise pytest.UsageError(
            "the compiled modules are not built from the current sources, so the tests "
            "would run old code:\n  "
            + "\n  ".join(problems)
            + "\nrun ./dev setup (it rebuilds them), then the tests again"
        )
