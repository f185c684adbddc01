"""The fit's cost in instructions (callgrind), by corpus and size quartile, against a baseline.

bench.speed times the fit in CPU seconds; on a shared two-core machine two
runs of it differ by 10% or more (the bare parse itself moves that much), so
a change of that size cannot be read from it. Instructions can: callgrind
counts the same for the same code and pages, whatever else runs. They are
not time (a cache miss costs one instruction and a hundred cycles; the fit
runs on caches the parse has just cooled, so its time in bare parses is
higher than its instructions in bare parses), so this script complements
bench.speed, it does not replace it.

Every page of both corpora (as bench.speed cuts them: decoded str, size
quartiles by UTF-8 bytes) goes through one of four functions in a Python
under callgrind, one process per function: the bare lexbor parse
(bench.speed's floor: LexborHTMLParser, as a peer would parse), dom.parse
(the fit's parse: the encode, the growing-reference guard, the published
nesting scan, lexbor), and fit_text with PUBLISHED_CONF and DEFAULT_CONF. Callgrind dumps
its counts at each quartile's start (the script calls time.sleep(0) there),
so each dump holds one quartile.

With `--baseline DIR` (another checkout, built with its own ./dev setup),
the same runs there, and the table shows both. valgrind must be installed
(Debian: apt-get install valgrind). About 5 minutes a checkout on 2 cores.

    python -m bench.instructions [--baseline DIR]
"""

from __future__ import annotations

import argparse
import os
import pickle
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Final

MODES: Final = ("lexbor", "parse", "published", "default")
_WARM_UP: Final = 20  # pages fitted before the first dump (imports, first-call caches)
_SUMMARY: Final = re.compile(r"^(?:summary|totals): (\d+)", re.MULTILINE)

Groups = list[tuple[str, list[str]]]


def groups_of(data: Path) -> Groups:
    """(name, decoded pages) per corpus and size quartile, smallest first."""
    # Imported here: the counted program (--run) runs this file from a baseline
    # checkout's interpreter, which needs only blockdensity and selectolax.
    from bench.speed import size_quartiles
    from devkit.corpus import SEGMENT_SETS, SETS, load_pages

    groups: Groups = []
    for corpus, sets in (("dev", SETS), ("small", SEGMENT_SETS)):
        pages = load_pages(data, sets)
        sizes = [len(page.html.encode("utf-8", "ignore")) for page in pages]
        for number, quartile in enumerate(size_quartiles(sizes), start=1):
            groups.append((f"{corpus} Q{number}", [pages[index].html for index in quartile]))
    return groups


def run_mode(mode: str, pickled: Path) -> None:
    """The counted program: `mode` over every group, a dump before each (time.sleep(0))."""
    groups: Groups = pickle.loads(pickled.read_bytes())  # noqa: S301 - our own file, just written
    if mode == "lexbor":
        from selectolax.lexbor import LexborHTMLParser

        def one(html: str) -> object:
            return LexborHTMLParser(html)
    elif mode == "parse":
        from blockdensity.dom import parse

        def one(html: str) -> object:
            return parse(html)
    else:
        from blockdensity import DEFAULT_CONF, PUBLISHED_CONF, fit_text

        conf = DEFAULT_CONF if mode == "default" else PUBLISHED_CONF

        def one(html: str) -> object:
            return fit_text(html, conf)

    for html in groups[0][1][:_WARM_UP]:
        one(html)
    for _, pages in groups:
        time.sleep(0)  # callgrind's --dump-before: the counts so far go to a file of their own
        for html in pages:
            one(html)
    time.sleep(0)


def count(label: str, checkout: Path, mode: str, pickled: Path, out: Path) -> list[int]:
    """Instructions per group of `mode` run from `checkout` (its .venv, its compiled modules)."""
    base = out / f"{label}-{mode}"
    command = [
        "valgrind",
        "--tool=callgrind",
        "--dump-before=time_sleep",
        f"--callgrind-out-file={base}",
        str(checkout / ".venv" / "bin" / "python"),
        __file__,  # this script, whichever checkout is counted
        "--run",
        mode,
        str(pickled),
    ]
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    subprocess.run(command, cwd=checkout, env=env, check=True, capture_output=True)  # noqa: S603
    # Dump 1 is the start (imports, unpickling, the warm-up); 2.. are the groups.
    counts = []
    for dump in range(2, 2 + 8):
        found = _SUMMARY.search((out / f"{base.name}.{dump}").read_text())
        if found is None:
            raise RuntimeError(f"bench.instructions: no total in callgrind's dump {base}.{dump}")
        counts.append(int(found[1]))
    return counts


def measure(label: str, checkout: Path, pickled: Path, out: Path) -> dict[str, list[int]]:
    """Every mode's counts, two processes at a time (callgrind counts the same either way)."""
    with ThreadPoolExecutor(max_workers=2) as pool:
        futures = {mode: pool.submit(count, label, checkout, mode, pickled, out) for mode in MODES}
        return {mode: future.result() for mode, future in futures.items()}


def print_table(names: list[str], sizes: list[int], runs: dict[str, dict[str, list[int]]]) -> None:
    """Millions of instructions a page per group and function; the fits in floors."""
    labels = list(runs)
    rows = [(name, [index]) for index, name in enumerate(names)]
    rows.insert(4, ("dev all", [0, 1, 2, 3]))
    rows.append(("small all", [4, 5, 6, 7]))

    def per_page(label: str, mode: str, indexes: list[int]) -> float:
        return sum(runs[label][mode][i] for i in indexes) / sum(sizes[i] for i in indexes)

    def cell(indexes: list[int], mode: str, floor: str | None = None) -> str:
        values = [
            per_page(label, mode, indexes) / (per_page(label, floor, indexes) if floor else 1e6)
            for label in labels
        ]
        return " / ".join(f"{value:.2f}" for value in values)

    print(f"millions of instructions a page, and ratios; each cell: {' / '.join(labels)}")
    print()
    print(
        "| group | pages | lexbor | dom.parse | published | default "
        "| default in dom.parses | default in lexbor parses | published in dom.parses |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, indexes in rows:
        cells = [cell(indexes, mode) for mode in MODES]
        cells += [
            cell(indexes, "default", "parse"),
            cell(indexes, "default", "lexbor"),
            cell(indexes, "published", "parse"),
        ]
        print(f"| {name} | {sum(sizes[i] for i in indexes)} | " + " | ".join(cells) + " |")
    if len(labels) > 1:
        print()
        print(f"change ({labels[-1]} against {labels[0]}):")
        for name, indexes in rows:
            ratios = [
                per_page(labels[-1], mode, indexes) / per_page(labels[0], mode, indexes)
                for mode in MODES
            ]
            pairs = zip(MODES, ratios, strict=True)
            changes = ", ".join(f"{mode} {ratio - 1:+.1%}" for mode, ratio in pairs)
            print(f"  {name}: {changes}")


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, help="the corpus (default: devkit.corpus's)")
    parser.add_argument("--baseline", type=Path, help="another checkout, built, to compare with")
    parser.add_argument("--run", nargs=2, metavar=("MODE", "PICKLE"), help=argparse.SUPPRESS)
    return parser.parse_args()


def main() -> None:
    arguments = _arguments()
    if arguments.run:
        run_mode(arguments.run[0], Path(arguments.run[1]))
        return
    if shutil.which("valgrind") is None:
        sys.exit("bench.instructions: valgrind is not installed (Debian: apt-get install valgrind)")
    here = Path(__file__).resolve().parent.parent
    from devkit.corpus import DEFAULT_DATA

    groups = groups_of(arguments.data or DEFAULT_DATA)
    with tempfile.TemporaryDirectory(prefix="bench-instructions-") as scratch:
        out = Path(scratch)
        pickled = out / "groups.pickle"
        pickled.write_bytes(pickle.dumps(groups))
        runs: dict[str, dict[str, list[int]]] = {}
        if arguments.baseline:
            runs["baseline"] = measure("baseline", arguments.baseline.resolve(), pickled, out)
        runs["this"] = measure("this", here, pickled, out)
    baseline = f" --baseline {arguments.baseline}" if arguments.baseline else ""
    print(f"command: python -m bench.instructions{baseline}")
    print(f"{sum(len(pages) for _, pages in groups)} pages; callgrind, one process a function")
    print()
    print_table([name for name, _ in groups], [len(pages) for _, pages in groups], runs)


if __name__ == "__main__":
    main()
