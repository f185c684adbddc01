"""What every test run needs first: Hypothesis's profile.

The profile (tests/hypothesis_profiles.py) is loaded here, before any test
module is imported, so that every property runs under it.
"""

from __future__ import annotations

import tests.hypothesis_profiles  # noqa: F401 - loads the profile
