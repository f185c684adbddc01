"""The corpus sample in the repository (tests/corpus): which pages of the full development sets it
holds, and how it is made from them.

The tests run on the sample, so that a plain clone passes its own tests; the
full sets (../shared/data) feed the benchmarks, the full accuracy gate and the
full digests. The choice is deterministic and prefers smaller pages (the
tests fit every page several times): of each set (of each page type for
wcxb-dev), the pages whose gzip-compressed file is no larger than the set's
(the type's) median, taken in the order of the SHA-256 of "<set>/<page_id>" (a
fixed shuffle that follows no site, language or file number), the first
`SIZES[set]` of them (`PER_PAGE_TYPE` of each type). Each page's file is copied
byte for byte, its rows of the set's JSON-lines files are kept as they are (in
the set's order), and the set's licence goes beside them; the WARC files are
copied whole, with their licences. tests/corpus/README.md says what is there.

    python -m devkit.corpus_sample [--data ../shared/data]   # rewrite tests/corpus
    python -m devkit.corpus_sample --check                   # compare only

A full-data test (tests/test_corpus_sample.py) holds the sample to this choice.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from devkit.corpus import DEFAULT_DATA, SAMPLE_DATA

__all__ = [
    "PAGE_TYPED",
    "PER_PAGE_TYPE",
    "SAMPLED_SETS",
    "SIZES",
    "TRUTH_FILES",
    "WARC",
    "Chosen",
    "choose",
    "differences",
    "write",
]

# Pages of each set in the sample.
SIZES: Final = {"scrapinghub": 40, "readability": 40, "trafilatura-eval": 60}
# wcxb-dev: pages of each of its seven page types.
PER_PAGE_TYPE: Final = 6
PAGE_TYPED: Final = "wcxb-dev"
# Each set's JSON-lines files (one row per page, by page_id): the first gives the
# set's pages and order, the others are kept for the chosen pages too.
TRUTH_FILES: Final = {
    "scrapinghub": ("ground_truth.jsonl",),
    "readability": ("ground_truth.jsonl", "metadata.jsonl"),
    "trafilatura-eval": ("segments.jsonl",),
    PAGE_TYPED: ("ground_truth.jsonl",),
}
WARC: Final = "warc"
# Every set of the sample: what the tests that go over "every corpus page" read.
SAMPLED_SETS: Final = tuple(TRUTH_FILES)


@dataclass(frozen=True)
class Chosen:
    """One set's part of the sample: its page ids, in the set's order."""

    set_name: str
    page_ids: tuple[str, ...]


def _rows(path: Path) -> list[tuple[str, dict[str, object]]]:
    """Each non-blank line of a JSON-lines file, as it is and parsed."""
    with open(path, encoding="utf-8") as lines:
        return [(line, json.loads(line)) for line in lines if line.strip()]


def _page_file(folder: Path, page_id: str) -> Path:
    return folder / "html" / f"{page_id}.html.gz"


def _pick(set_name: str, folder: Path, page_ids: list[str], count: int) -> set[str]:
    """The first `count` pages no larger than the median, in the fixed shuffle's order."""
    sizes = {page_id: _page_file(folder, page_id).stat().st_size for page_id in page_ids}
    median = statistics.median(sizes.values())
    small = [page_id for page_id in page_ids if sizes[page_id] <= median]
    small.sort(key=lambda page_id: hashlib.sha256(f"{set_name}/{page_id}".encode()).hexdigest())
    if len(small) < count:
        raise ValueError(f"{folder}: {len(small)} pages at most the median size, {count} wanted")
    return set(small[:count])


def choose(data: Path = DEFAULT_DATA) -> list[Chosen]:
    """The sample's pages of every set of the full data at `data`."""
    chosen = []
    for set_name, files in TRUTH_FILES.items():
        folder = data / set_name
        rows = [row for _, row in _rows(folder / files[0])]
        ids = [str(row["page_id"]) for row in rows]
        if set_name == PAGE_TYPED:
            keep: set[str] = set()
            for page_type in sorted({str(row["page_type"]) for row in rows}):
                of_type = [str(row["page_id"]) for row in rows if row["page_type"] == page_type]
                keep |= _pick(f"{set_name}/{page_type}", folder, of_type, PER_PAGE_TYPE)
        else:
            keep = _pick(set_name, folder, ids, SIZES[set_name])
        chosen.append(Chosen(set_name, tuple(page_id for page_id in ids if page_id in keep)))
    return chosen


def _planned(data: Path, chosen: list[Chosen]) -> dict[Path, bytes]:
    """Every file of the sample (its path under the sample folder) and its bytes."""
    files: dict[Path, bytes] = {}
    for part in chosen:
        folder = data / part.set_name
        keep = set(part.page_ids)
        for name in TRUTH_FILES[part.set_name]:
            lines = [line for line, row in _rows(folder / name) if row["page_id"] in keep]
            files[Path(part.set_name, name)] = "".join(
                line if line.endswith("\n") else line + "\n" for line in lines
            ).encode("utf-8")
        for page_id in part.page_ids:
            files[Path(part.set_name, "html", f"{page_id}.html.gz")] = _page_file(
                folder, page_id
            ).read_bytes()
        files[Path(part.set_name, "LICENSE")] = (folder / "LICENSE").read_bytes()
    for path in sorted((data / WARC).iterdir()):
        files[Path(WARC, path.name)] = path.read_bytes()
    return files


def differences(data: Path = DEFAULT_DATA, sample: Path = SAMPLE_DATA) -> list[str]:
    """What differs between the sample at `sample` and the one `data` makes: one line per
    file that is missing, extra or not the same bytes (README.md is the sample's own)."""
    planned = _planned(data, choose(data))
    present = {
        path.relative_to(sample)
        for path in sample.rglob("*")
        if path.is_file() and path.relative_to(sample) != Path("README.md")
    }
    lines = [f"{path}: missing" for path in sorted(planned.keys() - present)]
    lines += [f"{path}: not in the choice" for path in sorted(present - planned.keys())]
    lines += [
        f"{path}: not the same bytes"
        for path in sorted(planned.keys() & present)
        if (sample / path).read_bytes() != planned[path]
    ]
    return lines


def write(chosen: list[Chosen], data: Path = DEFAULT_DATA, sample: Path = SAMPLE_DATA) -> int:
    """(Re)make the sample at `sample` from the `chosen` pages of `data`, keeping its README;
    the bytes written."""
    planned = _planned(data, chosen)
    for name in [*TRUTH_FILES, WARC]:
        shutil.rmtree(sample / name, ignore_errors=True)
    for path, content in planned.items():
        (sample / path).parent.mkdir(parents=True, exist_ok=True)
        (sample / path).write_bytes(content)
    return sum(len(content) for content in planned.values())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="the full sets")
    parser.add_argument("--check", action="store_true", help="compare, do not rewrite")
    args = parser.parse_args()
    if not args.data.is_dir():
        print(f"no development corpus at {args.data} (set BLOCKDENSITY_DATA)", file=sys.stderr)
        return 1
    if args.check:
        lines = differences(args.data)
        print("\n".join(lines) or f"{SAMPLE_DATA} is the sample of {args.data}")
        return 1 if lines else 0
    chosen = choose(args.data)
    written = write(chosen, args.data)
    pages = sum(len(part.page_ids) for part in chosen)
    print(f"{pages} pages and the WARC files, {written:,} bytes, written to {SAMPLE_DATA}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
