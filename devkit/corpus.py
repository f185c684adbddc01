"""The development corpus (../shared/data): where it is, its pages and ground truth, the scoring.

Scoring follows ../shared/data/README.md: per page, precision, recall and F1
of the extracted text's whitespace tokens against the ground truth's (case and
punctuation kept, each token matched at most once), then the mean over a set.
The accuracy benchmark and the accuracy gate (tests/test_accuracy_gate.py)
load and score with this same code, so they cannot disagree.
"""

from __future__ import annotations

import gzip
import json
import os
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from blockdensity.decode import decode_html

__all__ = ["DEFAULT_DATA", "SETS", "Corpus", "Page", "Score", "load_pages", "score"]


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
SETS = ("scrapinghub", "readability")


@dataclass(frozen=True, slots=True)
class Page:
    set_name: str
    page_id: str
    raw: bytes  # as fetched
    html: str  # decoded as a browser would
    truth: str  # the human-marked main text


def load_pages(data: Path = DEFAULT_DATA, sets: tuple[str, ...] = SETS) -> list[Page]:
    return [page for set_name in sets for page in _load_set(data, set_name)]


class Corpus:
    """The development corpus at `data`, loaded on first use (only the callers that need it do)."""

    def __init__(self, data: Path) -> None:
        self.data = data
        self._pages: list[Page] | None = None

    @property
    def available(self) -> bool:
        return self.data.is_dir()

    def pages(self) -> list[Page]:
        if self._pages is None:
            self._pages = load_pages(self.data)
        return self._pages


def _load_set(data: Path, set_name: str) -> Iterator[Page]:
    folder = data / set_name
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
