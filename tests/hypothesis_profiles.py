"""Hypothesis's settings for the suite: derandomized by default, random when exploring.

Two profiles, chosen by BLOCKDENSITY_HYPOTHESIS_PROFILE, loaded by
tests/conftest.py before any test module is imported:

- "ci" (the default, `./dev test` and CI): derandomized (each test draws the
  same examples every run, from a hash of the test), no example database, no
  deadline and no timing health check: the verdict depends on the code only.
- "explore" (`./dev explore`): random seeds, ten times the examples, and the
  example database in .hypothesis/ (a failure found is replayed first on the
  next run). A failing example found this way becomes a fixed test: copy the
  "Falsifying example" Hypothesis prints into an `@example(...)` on the
  property (and, for a bug, an explicit regression test beside it).

A property that needs another number of examples than the default says so
with `@examples(n)`: n under "ci", ten times n when exploring. Never
`@settings(derandomize=..., database=...)` on a test: the profile decides.
"""

from __future__ import annotations

import os
from typing import Final

from hypothesis import HealthCheck, settings

__all__ = ["EXPLORE_FACTOR", "PROFILE", "examples"]

EXPLORE_FACTOR: Final = 10
DEFAULT_EXAMPLES: Final = 100
# Generation time depends on the machine's load: never a reason to fail.
_QUIET: Final = [HealthCheck.too_slow, HealthCheck.data_too_large]

settings.register_profile(
    "ci",
    derandomize=True,
    database=None,
    deadline=None,
    max_examples=DEFAULT_EXAMPLES,
    suppress_health_check=_QUIET,
    print_blob=True,
)
settings.register_profile(
    "explore",
    derandomize=False,
    deadline=None,
    max_examples=DEFAULT_EXAMPLES * EXPLORE_FACTOR,
    suppress_health_check=_QUIET,
    print_blob=True,
)

PROFILE: Final = os.environ.get("BLOCKDENSITY_HYPOTHESIS_PROFILE", "ci")
if PROFILE not in ("ci", "explore"):
    raise ValueError(f"BLOCKDENSITY_HYPOTHESIS_PROFILE={PROFILE!r}: use ci or explore")
settings.load_profile(PROFILE)


def examples(count: int) -> settings:
    """Settings for a property that runs `count` examples under "ci" (more when exploring)."""
    return settings(max_examples=count * EXPLORE_FACTOR if PROFILE == "explore" else count)
