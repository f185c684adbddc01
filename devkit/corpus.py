"""The development corpus (../shared/data): where it is, its pages and ground truth, the scoring.

Two kinds of set, scored as ../shared/data/README.md says:
- the ROUGE sets (SETS: scrapinghub, readability): per page, precision,
  recall and F1 of the extracted text's whitespace tokens against the
  ground truth's (case and punctuation kept, each token matched at most
  once), then the mean over a set (`score`);
- the segment set (SEGMENT_SETS: trafilatura-eval): per page, passages that
  must appear in the output (`with`) and passages that must not
  (`without`), whitespace runs collapsed to one space on both sides; the
  four counts are summed over the pages of a set, and precision, recall, F1
  and accuracy come from the sums (`count_segments`, `Counts`).
The accuracy benchmark and the accuracy gate (tests/test_accuracy_gate.py)
load and score with this same code, so they cannot disagree.
"""

from __future__ import annotations

import gzip
import json
import os
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from blockdensity.decode import decode_html

__all__ = [
    "ALL_SETS",
    "DEFAULT_DATA",
    "SAMPLE_DATA",
    "SEGMENT_SETS",
    "SETS",
    "Corpus",
    "Counts",
    "Page",
    "Score",
    "count_segments",
    "load_pages",
    "score",
    "sum_counts",
]


def _default_data() -> Path:
    """BLOCKDENSITY_DATA, else the team's `shared/data` beside the checkout (../shared/data)
    or beside a folder above it (a git worktree kept in a folder of its own finds the one
    beside its main checkout); failing all, the one beside the checkout, which is what a
    test that cannot find it names."""
    if "BLOCKDENSITY_DATA" in os.environ:
        return Path(os.environ["BLOCKDENSITY_DATA"])
    checkout = Path(__file__).resolve().parents[1]
    for folder in checkout.parents:
        found = folder / "shared" / "data"
        if found.is_dir():
            return found
    return checkout.parent / "shared" / "data"


DEFAULT_DATA = _default_data()
# The sample of the development sets kept in the repository, in the same layout
# (tests/corpus/README.md; devkit.corpus_sample makes it): what the tests run on,
# so that a checkout passes them without the full sets.
SAMPLE_DATA = Path(__file__).resolve().parents[1] / "tests" / "corpus"
# The ROUGE sets (a human-marked main text per page): what load_pages reads
# by default, and what the tests that go over "the whole corpus" read.
SETS = ("scrapinghub", "readability")
# The segment set (passages that must and must not be extracted).
SEGMENT_SETS = ("trafilatura-eval",)
ALL_SETS = SETS + SEGMENT_SETS


@dataclass(frozen=True, slots=True)
class Page:
    set_name: str
    page_id: str
    raw: bytes  # as fetched
    html: str  # decoded as a browser would
    truth: str  # the human-marked main text (ROUGE sets; empty on a segment set)
    # A segment set's passages: must be in the output, must not be.
    with_passages: tuple[str, ...] = ()
    without_passages: tuple[str, ...] = ()
    url: str | None = None

    @property
    def segmented(self) -> bool:
        return self.set_name in SEGMENT_SETS


def load_pages(data: Path = DEFAULT_DATA, sets: tuple[str, ...] = SETS) -> list[Page]:
    return [page for set_name in sets for page in _load_set(data, set_name)]


class Corpus:
    """The development corpus at `data` (its `sets`), loaded on first use (only the callers
    that need it do)."""

    def __init__(self, data: Path, sets: tuple[str, ...] = SETS) -> None:
        self.data = data
        self.sets = sets
        self._pages: list[Page] | None = None

    @property
    def available(self) -> bool:
        return self.data.is_dir()

    def pages(self) -> list[Page]:
        if self._pages is None:
            self._pages = load_pages(self.data, self.sets)
        return self._pages


def _load_set(data: Path, set_name: str) -> Iterator[Page]:
    folder = data / set_name
    if set_name in SEGMENT_SETS:
        yield from _load_segment_set(folder, set_name)
        return
    with open(folder / "ground_truth.jsonl", encoding="utf-8") as lines:
        truths = [json.loads(line) for line in lines if line.strip()]
    for truth in truths:
        raw = gzip.decompress((folder / "html" / f"{truth['page_id']}.html.gz").read_bytes())
        html, _ = decode_html(raw)
        yield Page(set_name, truth["page_id"], raw, html, truth["plaintext"])


@dataclass(frozen=True, slots=True)
class Score:
    precision: float
    recall: float
    f1: float


def score(extracted: str, truth: str) -> Score:
    """Multiset token overlap of `extracted` against `truth`."""
    got = Counter(extracted.split())
    want = Counter(truth.split())
    if not want:
        # Empty ground truth: recall is 1; both empty scores 1.
        return Score(1.0, 1.0, 1.0) if not got else Score(0.0, 1.0, 0.0)
    if not got:
        return Score(0.0, 0.0, 0.0)
    overlap = sum((got & want).values())
    precision = overlap / sum(got.values())
    recall = overlap / sum(want.values())
    f1 = 2 * precision * recall / (precision + recall) if overlap else 0.0
    return Score(precision, recall, f1)


def _load_segment_set(folder: Path, set_name: str) -> Iterator[Page]:
    with open(folder / "segments.jsonl", encoding="utf-8") as lines:
        rows = [json.loads(line) for line in lines if line.strip()]
    for row in rows:
        raw = gzip.decompress((folder / "html" / f"{row['page_id']}.html.gz").read_bytes())
        html, _ = decode_html(raw)
        yield Page(
            set_name,
            row["page_id"],
            raw,
            html,
            "",
            tuple(row["with"]),
            tuple(row["without"]),
            row.get("url"),
        )


@dataclass(frozen=True, slots=True)
class Counts:
    """A segment set's counts (one page's, or summed over pages) and the figures from them."""

    true_positives: int = 0  # `with` passages found
    false_negatives: int = 0  # `with` passages missed
    false_positives: int = 0  # `without` passages found
    true_negatives: int = 0  # `without` passages absent

    def __add__(self, other: Counts) -> Counts:
        return Counts(
            self.true_positives + other.true_positives,
            self.false_negatives + other.false_negatives,
            self.false_positives + other.false_positives,
            self.true_negatives + other.true_negatives,
        )

    @property
    def precision(self) -> float:
        found = self.true_positives + self.false_positives
        return self.true_positives / found if found else 0.0

    @property
    def recall(self) -> float:
        wanted = self.true_positives + self.false_negatives
        return self.true_positives / wanted if wanted else 0.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    @property
    def accuracy(self) -> float:
        total = (
            self.true_positives + self.false_negatives + self.false_positives + self.true_negatives
        )
        return (self.true_positives + self.true_negatives) / total if total else 0.0


def _collapse(text: str) -> str:
    return " ".join(text.split())


def count_segments(extracted: str, page: Page) -> Counts:
    """One page of a segment set: which passages `extracted` holds, whitespace runs
    collapsed to one space on both sides (str.split's whitespace: Unicode's)."""
    output = _collapse(extracted)
    found_with = [_collapse(passage) in output for passage in page.with_passages]
    found_without = [_collapse(passage) in output for passage in page.without_passages]
    return Counts(
        sum(found_with),
        len(found_with) - sum(found_with),
        sum(found_without),
        len(found_without) - sum(found_without),
    )


def sum_counts(counts: Iterable[Counts]) -> Counts:
    total = Counts()
    for one in counts:
        total += one
    return total
