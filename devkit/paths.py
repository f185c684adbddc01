"""Where things are in the checkout: the repository root and the bundled sample pages.

devkit runs from a checkout only (it is never installed), so the repository
is the folder above this package.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

__all__ = ["ROOT", "SAMPLES"]

ROOT: Final = Path(__file__).resolve().parents[1]
SAMPLES: Final = ROOT / "samples"  # the eight pages of the demo and the tests (samples/README.md)
