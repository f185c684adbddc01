"""What every test run needs first: Hypothesis's profile, compiled modules that are current,
and, when the run is spread over processes (pytest-xdist, as `./dev test` runs it), who
runs beside whom.

The profile (tests/hypothesis_profiles.py) is loaded here, before any test
module is imported, so that every property runs under it. A compiled module
older than its source would make the whole run test old code: the run stops
before the first test, naming the module and the fix.

Under xdist (`./dev test` runs `-n 2`), the work units are ours
(tests/xdist_scheduling.py): the modules marked `serial` (fault runs against
private brokers, network namespaces, cgroups, bounds on seconds) form one
unit, so their tests run one after another on one worker, never beside each
other; every other module is a unit of its own, so its fixtures (the wheel,
the image, a corpus pass) are built once, on one worker. The serial unit goes
first (it is the longest chain), then the modules with slow tests, then the
rest: the other worker fills the serial chain's waiting with them.

The tests run on the repository's sample of the development corpus
(tests/corpus); the few that are about the full development sets take the
`full_data` fixture, which skips them where the sets are absent, and fails
them under CI (CI=true), where the sets must be there.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Final

import pytest

import tests.hypothesis_profiles  # noqa: F401 - loads the profile
from devkit.corpus import DEFAULT_DATA
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


@pytest.fixture(scope="session")
def full_data() -> Path:
    """The full development sets (BLOCKDENSITY_DATA, else ../shared/data: devkit.corpus's
    DEFAULT_DATA), for the tests that are about them: the full accuracy gate, the full
    digests, the sample's choice. Absent, they skip; under CI (CI=true) they fail instead,
    for CI has the sets beside its checkout and a gate that silently skipped would pass
    whatever the fit did."""
    if DEFAULT_DATA.is_dir():
        return DEFAULT_DATA
    missing = (
        f"the full development corpus is not at {DEFAULT_DATA} "
        "(set BLOCKDENSITY_DATA, or put the team's shared/data beside the checkout)"
    )
    if os.environ.get("CI", "").lower() in {"true", "1"}:
        pytest.fail(f"{missing}; under CI it must be there", pytrace=False)
    pytest.skip(missing)


# The modules whose tests are marked `serial` (each says so in its pytestmark; the
# run stops if the two disagree). Named here by path because xdist's controller
# schedules by node id alone, without the tests' markers.
SERIAL_MODULES: Final = frozenset(
    f"tests/{name}.py"
    for name in (
        "reliability/test_alarm",
        "reliability/test_chaos",
        "reliability/test_cluster",
        "reliability/test_memory",
        "reliability/test_partition",
        "reliability/test_queues",
        "reliability/test_security",
        "worker/stage/test_flow",
        "worker/stage/test_forkserver",
        "worker/stage/test_lifecycle",
        "worker/stage/test_pool",
    )
)
SERIAL_GROUP: Final = "serial"


def work_unit(nodeid: str) -> str:
    """What one xdist worker runs as a whole: the serial group, or one module."""
    module = nodeid.partition("::")[0]
    return SERIAL_GROUP if module in SERIAL_MODULES else module


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        marked = item.get_closest_marker("serial") is not None
        if marked != (work_unit(item.nodeid) == SERIAL_GROUP):
            raise pytest.UsageError(
                f"{item.nodeid}: marked serial in its module and listed in "
                "tests/conftest.py's SERIAL_MODULES must agree (whole modules only)"
            )
    slow_modules = {item.path for item in items if item.get_closest_marker("slow")}

    def rank(item: pytest.Item) -> int:
        if item.get_closest_marker("serial"):
            return 0
        return 1 if item.path in slow_modules else 2

    # Stable: collection order within each rank. xdist hands out the work units
    # in this order (tests/xdist_scheduling.py).
    items.sort(key=rank)


@pytest.hookimpl(optionalhook=True)  # only when pytest-xdist is there
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    from tests.xdist_scheduling import SerialGroupScheduling  # noqa: PLC0415 - imports xdist, used only under it

    return SerialGroupScheduling(config, log, work_unit)
