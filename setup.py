"""Build the fit's hot modules with mypyc, and its loops over the tree and the text with Cython.

The fit spends its time in the walk over the parsed tree and in the
per-page counting and rendering around it. The walk (blockdensity/_walk.pyx)
reads lexbor's tree directly, without a Python call per node; the word count
and the whitespace collapse (_text.pyx) make one pass over the characters;
the rest, compiled with mypyc, runs about 25% faster than as Python
(BENCHMARKS.md). The scan that bounds nesting before lexbor parses
(blockdensity/_nesting.pyx, which finds the article profile's regions with
_regions.pyx in the same pass) reads every byte of every tag: in Cython it
costs a few percent of a fit, in Python several fits. The guard against
lexbor's overflow (_growing_references.pyx) reads every "&".

The package needs a C compiler to build: each pass exists once, compiled
(there is no pure-Python fallback, so nothing untested runs where a build
went without one). Wheels are built with one; the tests compare each Cython
module with a plain Python reference under tests/reference/.

The compiled walk reads lexbor's records as selectolax lays them out, which
selectolax ships no headers for: _walk.pyx declares them for one selectolax
release (its LAYOUT_VERSION), and the build stops if another is installed.
"""

from __future__ import annotations

import re
from importlib.metadata import version
from pathlib import Path

from Cython.Build import cythonize
from mypyc.build import mypycify
from setuptools import setup

WALK = Path(__file__).parent / "blockdensity" / "_walk.pyx"


def _check_selectolax() -> None:
    """Stop the build unless the installed selectolax is the one _walk.pyx mirrors."""
    found = re.search(r'^LAYOUT_VERSION = "([^"]+)"$', WALK.read_text(encoding="utf-8"), re.M)
    if found is None:
        raise SystemExit(f"{WALK}: no LAYOUT_VERSION line")
    installed = version("selectolax")
    if installed != found[1]:
        raise SystemExit(
            f"blockdensity/_walk.pyx reads lexbor's records as selectolax {found[1]} lays "
            f"them out, but selectolax {installed} is installed: install "
            f"selectolax=={found[1]}, or check the layouts against {installed} and update "
            "LAYOUT_VERSION (and the pins in pyproject.toml and constraints.txt)"
        )


CYTHON = [
    "blockdensity/_nesting.pyx",
    "blockdensity/_regions.pyx",
    "blockdensity/_growing_references.pyx",
    "blockdensity/_walk.pyx",
    "blockdensity/_text.pyx",
]

COMPILED = [
    "blockdensity/segment.py",
    "blockdensity/words.py",
    "blockdensity/measure.py",
    "blockdensity/decide/tree.py",
    "blockdensity/decide/outcome.py",
    "blockdensity/decide/board.py",
    "blockdensity/decide/semantic.py",
    "blockdensity/decide/article.py",
    "blockdensity/decide/kinds.py",
    "blockdensity/decide/container.py",
    "blockdensity/decide/facets.py",
    "blockdensity/decide/forum.py",
    "blockdensity/decide/posts.py",
    "blockdensity/decide/listing.py",
    "blockdensity/decide/tables.py",
    "blockdensity/decide/grid.py",
    "blockdensity/decide/duplicates.py",
    "blockdensity/decide/title.py",
    "blockdensity/decide/related.py",
    "blockdensity/decide/sections.py",
    "blockdensity/decide/chrome.py",
    "blockdensity/decide/contents.py",
    "blockdensity/decide/code.py",
    "blockdensity/decide/controls.py",
    "blockdensity/decide/notices.py",
    "blockdensity/decide/prose.py",
    "blockdensity/decide/headings.py",
    "blockdensity/decide/stage.py",
    "blockdensity/render.py",
    "blockdensity/structure.py",
    "blockdensity/markdown.py",
    "blockdensity/fit.py",
    "blockdensity/article.py",
    "blockdensity/metadata.py",
    "blockdensity/evidence.py",
    # The classifier and the confidence: run on every page of the article profile
    # (the confidence on every page).
    "blockdensity/pagetype.py",
    "blockdensity/confidence.py",
    "blockdensity/times.py",
    "blockdensity/jsonld.py",
]

_check_selectolax()
setup(
    ext_modules=[
        *mypycify(COMPILED, opt_level="3"),
        *cythonize(CYTHON, quiet=True),
    ]
)
