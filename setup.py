"""Build the fit's hot modules with mypyc, and the nesting scan with Cython.

The fit spends its time in a Python loop over the parsed tree and in the
per-page counting and rendering around it; compiled with mypyc, the same
typed source runs about 25% faster (BENCHMARKS.md). The scan that bounds
nesting before lexbor parses (blockdensity/nesting.py) reads every byte of
every tag: in Cython it costs a few percent of a fit, in Python several
fits. Set BLOCKDENSITY_PURE_PYTHON=1 to build without a C compiler: the
package is then plain Python and behaves identically, only slower.
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
    "blockdensity/article.py",
    "blockdensity/metadata.py",
    "blockdensity/times.py",
    "blockdensity/jsonld.py",
]

if os.environ.get("BLOCKDENSITY_PURE_PYTHON", "") in ("", "0"):
    from Cython.Build import cythonize
    from mypyc.build import mypycify

    setup(
        ext_modules=[
            *mypycify(COMPILED, opt_level="3"),
            *cythonize(["blockdensity/_nesting.pyx"], quiet=True),
        ]
    )
else:
    setup()
