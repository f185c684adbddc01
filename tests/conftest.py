"""What every test run needs first: Hypothesis's profile, compiled modules that are current,
and, when the run is spread over processes (pytest-xdist, as `./dev test` runs it), who
runs beside whom.

The profile (tests/hypothesis_profiles.py) is loaded here, before any test
module is imported, so that every property runs under it. A compiled module
older than its source would make the whole run test old code: the run stops
before the first test, naming the module and the fix.

Under xdist with `--dist loadgroup` (`./dev test -n 2`), every test gets a
group: the tests marked `serial` (fault runs against private brokers, network
namespaces, cgroups, bounds on seconds) share one, so they run one after
another on one worker, never beside each other; every other test's group is
its module, so a module's fixtures (the wheel, the image, a corpus pass) are
built once, on one worker. The serial group goes first (it is the longest
chain), then the modules with slow tests, then the rest: the other worker
fills the serial chain's waiting with them.
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


SERIAL_GROUP = "serial"


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook reads the groups
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    slow_modules = {item.path for item in items if item.get_closest_marker("slow")}

    def rank(item: pytest.Item) -> int:
        if item.get_closest_marker("serial"):
            return 0
        return 1 if item.path in slow_modules else 2

    items.sort(key=rank)  # stable: collection order within each rank
    for item in items:
        if item.get_closest_marker("xdist_group"):
            raise pytest.UsageError(
                f"{item.nodeid}: mark it `serial` (or nothing) instead of xdist_group: "
                "tests/conftest.py gives every test its group"
            )
        module = item.nodeid.partition("::")[0]
        group = SERIAL_GROUP if item.get_closest_marker("serial") else module
        item.add_marker(pytest.mark.xdist_group(group))
