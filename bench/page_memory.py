"""Memory and time of pages built to be heavy: tiny elements up to the body limit.

    python -m bench.page_memory                   # the seven constructions, 8 MiB, no budget
    python -m bench.page_memory --budgets 0,25000,50000,100000,200000
    python -m bench.page_memory --size 4MiB --only div
    python -m bench.page_memory --corpus          # element counts of the development corpus

Each page is just under the worker's body limit (8 MiB by default; the
message's envelope takes the rest) and made of one tiny construction
repeated: `<td>a`, `<div>a`, `<tr>`, `<p>a</p>`, `a<br>`, elements carrying
many attributes, one element with many attributes, nested tables. Each runs
through `fit_text` (bytes in, as the worker's fit process calls it) in a
fresh Python process, which reports the fit's wall time and its peak
resident set (getrusage's ru_maxrss) against the same process's before the
fit (the interpreter, blockdensity and the page itself): the difference is
what the page costs a fit process.

`--budgets` runs each page as an element budget would leave it, emulated
here (the page cut after the budget's start tag, `--how tail`, or every tag
past it dropped and the text kept, `--how tags`): how the scan's bound
(blockdensity.nesting.NODE_LIMIT) was chosen. A budget of 0 is none: the
page as it comes, which the library's own bound then cuts.
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Final

from devkit.heavypages import CONSTRUCTIONS, ENVELOPE, MIB, build
from devkit.paths import ROOT

__all__ = ["main"]

_START_TAG: Final = re.compile(rb"<[A-Za-z]")
# An attribute inside a start tag, roughly: a name after a space, then = or not.
_ATTRIBUTE: Final = re.compile(rb"\s[A-Za-z_:][-A-Za-z0-9_:.]*(?=\s*=|\s|/?>)")
_START_TAG_TEXT: Final = re.compile(rb"<[A-Za-z][^>]*>")
_TAG: Final = re.compile(rb"<[A-Za-z/][^>]*>")


def cut(page: bytes, budget: int, how: str) -> bytes:
    """The page as a budget of `budget` elements leaves it (0: unchanged)."""
    if budget <= 0:
        return page
    for count, match in enumerate(_START_TAG.finditer(page), 1):
        if count > budget:
            start = match.start()
            if how == "tail":
                return page[:start]
            return page[:start] + _TAG.sub(b" ", page[start:])
    return page


def _child(name: str, size: int, budget: int, how: str) -> None:
    """In a fresh process: build, cut, fit; print time and memory as JSON."""
    import blockdensity

    page = cut(build(name, size), budget, how)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    start = time.perf_counter()
    fit = blockdensity.fit_text(page)
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(
        json.dumps(
            {
                "bytes": len(page),
                "elements": len(_START_TAG.findall(page)),
                "seconds": seconds,
                "before_mib": before / 1024,
                "peak_mib": peak / 1024,
                "characters": len(fit.text),
            }
        )
    )


def measure(name: str, size: int, budget: int, how: str) -> dict[str, float]:
    """One fresh process's figures for one page."""
    done = subprocess.run(  # noqa: S603 - this module, our own arguments
        [sys.executable, "-m", "bench.page_memory", "--child", name, str(size), str(budget), how],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    if done.returncode != 0:
        return {"failed": float(done.returncode)}
    return dict(json.loads(done.stdout.splitlines()[-1]))


def corpus_elements() -> list[tuple[str, int, int, int]]:
    """(set, most start tags in one page, most start tags and attributes, most attributes
    on one element) for each development set."""
    data = Path("/work/shared/data")
    rows = []
    for folder in sorted(path for path in data.iterdir() if (path / "html").is_dir()):
        most = nodes = widest = 0
        for page in (folder / "html").glob("*.html*"):
            raw = page.read_bytes()
            if page.suffix == ".gz":
                raw = gzip.decompress(raw)
            tags = _START_TAG_TEXT.findall(raw)
            attributes = [len(_ATTRIBUTE.findall(tag)) for tag in tags]
            most = max(most, len(_START_TAG.findall(raw)))
            nodes = max(nodes, len(tags) + sum(attributes))
            widest = max(widest, max(attributes, default=0))
        rows.append((folder.name, most, nodes, widest))
    return rows


def _size(text: str) -> int:
    units = {"KIB": 1024, "MIB": MIB, "": 1}
    match = re.fullmatch(r"(\d+)\s*(KiB|MiB|)", text, re.IGNORECASE)
    if match is None:
        raise argparse.ArgumentTypeError(f"not a size: {text!r} (e.g. 8MiB)")
    return int(match[1]) * units[match[2].upper()]


def main() -> None:
    if sys.argv[1:2] == ["--child"]:
        _child(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5])
        return
    parser = argparse.ArgumentParser(prog="python -m bench.page_memory", description=__doc__)
    parser.add_argument("--size", type=_size, default=8 * MIB, help="the body limit")
    parser.add_argument("--budgets", default="0", help="comma-separated element budgets")
    parser.add_argument("--how", choices=("tail", "tags"), default="tail")
    parser.add_argument("--only", default="", help="comma-separated construction names")
    parser.add_argument("--corpus", action="store_true")
    options = parser.parse_args()
    if options.corpus:
        print(
            "| set | most start tags in a page | most tags and attributes | "
            "most attributes on an element |\n|---|---:|---:|---:|"
        )
        for name, most, nodes, widest in corpus_elements():
            print(f"| {name} | {most:,} | {nodes:,} | {widest:,} |")
        return
    names = options.only.split(",") if options.only else list(CONSTRUCTIONS)
    budgets = [int(value) for value in options.budgets.split(",")]
    size = options.size - ENVELOPE
    print(f"pages of {size / MIB:.2f} MiB; each fit in a fresh process; budget cut: {options.how}")
    print(
        "| page | budget | start tags in the page | fit time | peak RSS | of which the fit |\n"
        "|---|---:|---:|---:|---:|---:|"
    )
    for name in names:
        for budget in budgets:
            row = measure(name, size, budget, options.how)
            label = CONSTRUCTIONS[name][0].replace("<", "&lt;")
            limit = f"{budget:,}" if budget else "none"
            if "failed" in row:
                print(f"| {label} | {limit} | | failed ({row['failed']:g}) | | |")
                continue
            print(
                f"| {label} | {limit} | {row['elements']:,.0f} | "
                f"{row['seconds']:.2f} s | {row['peak_mib']:.0f} MiB | "
                f"{row['peak_mib'] - row['before_mib']:.0f} MiB |",
                flush=True,
            )


if __name__ == "__main__":
    main()
