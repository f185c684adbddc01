"""WCXB's scoring as the page-type studies (bench/pagetype_*.py) call it.

A thin view over devkit.corpus, which loads the page-type set (wcxb-dev:
`load_pages(sets=PAGE_TYPE_SETS)`) and scores it as ../shared/data/README.md
("Page-type set") says, as WCXB's own evaluate.py does: lowercase both
texts, take the `\\w+` tokens, count the multiset overlap; per page
precision, recall and F1, then the mean per page (also per type). An empty
ground truth scores 1 only against an empty output.
"""

from __future__ import annotations

from devkit.corpus import PAGE_TYPES, score_words
from devkit.corpus import words as tokens

__all__ = ["TYPES", "tokens", "wcxb_score"]

TYPES = PAGE_TYPES


def wcxb_score(extracted: str, truth: str) -> tuple[float, float, float]:
    """(precision, recall, F1) of `extracted` against `truth`, WCXB's way
    (devkit.corpus.score_words)."""
    found = score_words(extracted, truth)
    return found.precision, found.recall, found.f1
