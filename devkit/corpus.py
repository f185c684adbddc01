"""The development corpus (../shared/data): where it is, its pages and ground truth, the scoring.

Three kinds of set, scored as ../shared/data/README.md says:
- the ROUGE sets (SETS: scrapinghub, readability): per page, precision,
  recall and F1 of the extracted text's whitespace tokens against the
  ground truth's (case and punctuation kept, each token matched at most
  once), then the mean over a set (`score`);
- the segment set (SEGMENT_SETS: trafilatura-eval): per page, passages that
  must appear in the output (`with`) and passages that must not
  (`without`), whitespace runs collapsed to one space on both sides; the
  four counts are summed over the pages of a set, and precision, recall, F1
  and accuracy come from the sums (`count_segments`, `Counts`);
- the page-type set (PAGE_TYPE_SETS: wcxb-dev), as WCXB's own evaluate.py
  scores it: per page, precision, recall and F1 of the lowercased `\\w+`
  words of the output against the human-marked text's (a multiset
  overlap, `score_words`), then the mean over the set and over each page
  type (PAGE_TYPES); beside it, the share of the `with` passages found and
  of the `without` passages found, lowercased as WCXB compares them and
  whitespace collapsed as on the segment set (`count_passages`), counted per
  page as `Counts` and summed over the pages (WCXB's evaluate.py averages
  per-page rates instead, and rates a page with no passages 1: with
  `without` passages, a page that has none would count as all found).
The accuracy benchmark and the accuracy gate (tests/test_accuracy_gate.py)
load and score with this same code, so they cannot disagree.
"""

from __future__ import annotations

import gzip
import json
import os
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from blockdensity.decode import decode_html

__all__ = [
    "ALL_SETS",
    "DEFAULT_DATA",
    "EVERY_SET",
    "PAGE_TYPES",
    "PAGE_TYPE_SETS",
    "SAMPLE_DATA",
    "SEGMENT_SETS",
    "SETS",
    "Corpus",
    "Counts",
    "Page",
    "Score",
    "count_passages",
    "count_segments",
    "load_pages",
    "score",
    "score_words",
    "sum_counts",
    "words",
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
# The sets the accuracy gate (tests/test_accuracy_gate.py) holds floors for.
ALL_SETS = SETS + SEGMENT_SETS
# The page-type set (a human-marked main text and passages per page, each page
# labelled with its type): not in ALL_SETS, so that what reads ALL_SETS (the
# gate) keeps reading the same pages; EVERY_SET is every set of the corpus.
PAGE_TYPE_SETS = ("wcxb-dev",)
EVERY_SET = ALL_SETS + PAGE_TYPE_SETS
# WCXB's page types, in the order its evaluate.py prints them.
PAGE_TYPES = ("article", "forum", "product", "collection", "listing", "documentation", "service")


@dataclass(frozen=True, slots=True)
class Page:
    set_name: str
    page_id: str
    raw: bytes  # as fetched
    html: str  # decoded as a browser would
    # The human-marked main text as plain text (ROUGE sets, page-type set;
    # empty on a segment set).
    truth: str
    # The passages that must be in the output and must not be (segment set,
    # page-type set).
    with_passages: tuple[str, ...] = ()
    without_passages: tuple[str, ...] = ()
    url: str | None = None
    # The page-type set's: the page's type (one of PAGE_TYPES) and its
    # human-marked main text as Markdown (headings, lists, tables, code).
    page_type: str | None = None
    truth_markdown: str | None = None

    @property
    def segmented(self) -> bool:
        """Scored by its passages alone (the segment set)."""
        return self.set_name in SEGMENT_SETS

    @property
    def typed(self) -> bool:
        """Scored as WCXB scores (the page-type set)."""
        return self.set_name in PAGE_TYPE_SETS


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
    if set_name in PAGE_TYPE_SETS:
        yield from _load_page_type_set(folder, set_name)
        return
    with open(folder / "ground_truth.jsonl", encoding="utf-8") as lines:
        truths = [json.loads(line) for line in lines if line.strip()]
    for truth in truths:
        raw, html = _read_html(folder, truth["page_id"])
        yield Page(set_name, truth["page_id"], raw, html, truth["plaintext"])


def _read_html(folder: Path, page_id: str) -> tuple[bytes, str]:
    """A set's page as fetched (html/<page_id>.html.gz) and decoded as a browser would."""
    raw = gzip.decompress((folder / "html" / f"{page_id}.html.gz").read_bytes())
    html, _ = decode_html(raw)
    return raw, html


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
    return _overlap(got, want)


def _overlap(got: Counter[str], want: Counter[str]) -> Score:
    """Precision, recall and F1 of the multiset `got` against `want` (not empty)."""
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
        raw, html = _read_html(folder, row["page_id"])
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
    return _find_passages(extracted, page, lowercase=False)


def _find_passages(extracted: str, page: Page, *, lowercase: bool) -> Counts:
    def normal(text: str) -> str:
        collapsed = _collapse(text)
        return collapsed.lower() if lowercase else collapsed

    output = normal(extracted)
    found_with = [normal(passage) in output for passage in page.with_passages]
    found_without = [normal(passage) in output for passage in page.without_passages]
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


def _load_page_type_set(folder: Path, set_name: str) -> Iterator[Page]:
    truth_file = folder / "ground_truth.jsonl"
    with open(truth_file, encoding="utf-8") as lines:
        rows = [(number, json.loads(line)) for number, line in enumerate(lines, 1) if line.strip()]
    for number, row in rows:
        if row["page_type"] not in PAGE_TYPES:
            raise ValueError(
                f"{truth_file}:{number}: page {row['page_id']!r} has page_type"
                f" {row['page_type']!r}, not one of {', '.join(PAGE_TYPES)}"
            )
        raw, html = _read_html(folder, row["page_id"])
        yield Page(
            set_name,
            row["page_id"],
            raw,
            html,
            row["plaintext"],
            tuple(row["with"]),
            tuple(row["without"]),
            row.get("url") or None,  # a few pages have none ("")
            row["page_type"],
            row.get("markdown"),
        )


# WCXB's words: runs of Unicode word characters (letters, digits, underscore)
# of the lowercased text, so that case and punctuation do not count.
_WORD = re.compile(r"\w+")


def words(text: str) -> list[str]:
    """The page-type set's tokens of `text`, as WCXB's evaluate.py takes them."""
    return _WORD.findall(text.lower())


def score_words(extracted: str, truth: str) -> Score:
    """The page-type set's score of one page: multiset overlap of the `words` of
    `extracted` against those of `truth`. Unlike `score`, emptiness is judged on
    words (an output of punctuation alone is empty), and an empty truth scores
    1 against an empty output and 0 (not recall 1) against any other, as WCXB
    scores it."""
    got = Counter(words(extracted))
    want = Counter(words(truth))
    if not want:
        return Score(1.0, 1.0, 1.0) if not got else Score(0.0, 0.0, 0.0)
    return _overlap(got, want)


def count_passages(extracted: str, page: Page) -> Counts:
    """One page of the page-type set: which passages `extracted` holds, compared
    lowercased (as WCXB's evaluate.py compares them) and with whitespace runs
    collapsed to one space on both sides (as for the segment set: the human-marked
    passages and an extractor's output break lines in different places)."""
    return _find_passages(extracted, page, lowercase=True)
