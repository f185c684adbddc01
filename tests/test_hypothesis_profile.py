"""Every property test runs under the profile: derandomized in CI, so that a run cannot flake.

tests/hypothesis_profiles.py decides how the properties run. A test's own
@settings may say how many examples it needs (`examples(n)`), never whether
they are random or where failures are stored: that would bring the lottery
back into `./dev test`.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

from hypothesis import settings

from tests import hypothesis_profiles

ROOT: Final = Path(__file__).resolve().parents[1]


def _property_tests() -> Iterator[tuple[str, Any]]:
    """(name, test function) of every Hypothesis test under tests/."""
    for path in sorted((ROOT / "tests").rglob("test_*.py")):
        if "hypothesis" not in path.read_text(encoding="utf-8"):
            continue
        name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        module = importlib.import_module(name)
        for attribute, value in vars(module).items():
            if attribute.startswith("test_") and getattr(value, "is_hypothesis_test", False):
                yield f"{name}.{attribute}", value


def _default() -> settings:
    loaded = settings.default
    assert loaded is not None
    return loaded


def test_the_suite_runs_under_the_ci_profile_unless_exploring() -> None:
    ci = hypothesis_profiles.PROFILE == "ci"
    assert _default().derandomize is ci
    assert (_default().database is None) is ci
    assert _default().deadline is None


def test_no_property_test_overrides_the_profile() -> None:
    found = dict(_property_tests())
    assert len(found) >= 20, sorted(found)
    for name, test in found.items():
        own: settings = test._hypothesis_internal_use_settings
        assert own.derandomize is _default().derandomize, name
        assert own.database == _default().database, name
        assert own.deadline is None, name


def test_examples_scales_only_when_exploring() -> None:
    exploring = hypothesis_profiles.PROFILE == "explore"
    factor = hypothesis_profiles.EXPLORE_FACTOR if exploring else 1
    assert hypothesis_profiles.examples(30).max_examples == 30 * factor
