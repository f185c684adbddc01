"""WCXB's development split (../shared/data/wcxb-dev) as the page-type studies read it.

A thin view for bench/pagetype_*.py and bench/confidence_train.py over
devkit.corpus, which loads the set and scores it as ../shared/data/README.md
("Page-type set") says, as WCXB's own evaluate.py does: lowercase both
texts, take the `\\w+` tokens, count the multiset overlap; per page
precision, recall and F1, then the mean per page (also per type). An empty
ground truth scores 1 only against an empty output.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from devkit.corpus import DEFAULT_DATA, PAGE_TYPE_SETS, PAGE_TYPES, load_pages, score_words
from devkit.corpus import words as tokens

__all__ = ["TYPES", "WcxbPage", "load_wcxb", "tokens", "wcxb_score"]

TYPES = PAGE_TYPES


@dataclass(frozen=True, slots=True)
class WcxbPage:
    page_id: str
    url: str
    page_type: str
    html: str  # decoded as a browser would
    plaintext: str
    markdown: str
    with_passages: tuple[str, ...]
    without_passages: tuple[str, ...]


def load_wcxb(data: Path = DEFAULT_DATA) -> Iterator[WcxbPage]:
    for page in load_pages(data, PAGE_TYPE_SETS):
        yield WcxbPage(
            page.page_id,
            page.url or "",
            page.page_type or "",
            page.html,
            page.truth,
            page.truth_markdown or "",
            page.with_passages,
            page.without_passages,
        )


def wcxb_score(extracted: str, truth: str) -> tuple[float, float, float]:
    """(precision, recall, F1) of `extracted` against `truth`, WCXB's way
    (devkit.corpus.score_words)."""
    found = score_words(extracted, truth)
    return found.precision, found.recall, found.f1
