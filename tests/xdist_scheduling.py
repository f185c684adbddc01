"""pytest-xdist's scheduling by work units of our own choosing (tests/conftest.py's `work_unit`).

xdist's `--dist loadgroup` would do it with `xdist_group` markers, but it
groups by a suffix it appends to each test's node id on the workers, and
under pytest 9 the controller never sees that suffix: every test became a
unit of its own, and the serial tests ran beside each other. Here the
controller maps each node id to its unit itself. Units are handed out whole,
in collection order (tests/conftest.py puts the serial unit first), to
whichever worker has little left to do: xdist's LoadScopeScheduling with
another `_split_scope`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from xdist.scheduler import LoadScopeScheduling


class SerialGroupScheduling(LoadScopeScheduling):  # type: ignore[misc]
    def __init__(self, config: pytest.Config, log: Any, unit: Callable[[str], str]) -> None:
        super().__init__(config, log)
        self._unit = unit
        config.option.loadscopereorder = False  # collection order: the serial unit first

    def _split_scope(self, nodeid: str) -> str:
        return self._unit(nodeid)
