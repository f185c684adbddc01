"""Build the fit's hot modules with mypyc (everything else is in pyproject.toml).

The fit spends its time in a Python loop over the parsed tree and in the
per-page counting and rendering around it; compiled with mypyc, the same
typed source runs about 25% faster (BENCHMARKS.md). Set
BLOCKDENSITY_PURE_PYTHON=1 to build without a C compiler: the package is then
plain Python and behaves identically, only slower.
"""

from __future__ import annotations

import os

from setuptools import setup

COMPILED = [
    "blockdensity/segment.py",
    "blockdensity/words.py",
    "blockdensity/measure.py",
    "blockdensity/classify.py",
    "blockdensity/render.py",
    "blockdensity/fit.py",
]

if os.environ.get("BLOCKDENSITY_PURE_PYTHON", "") in ("", "0"):
    from mypyc.build import mypycify

    setup(ext_modules=mypycify(COMPILED, opt_level="3"))
else:
    setup()
