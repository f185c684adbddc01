"""WCXB's development split (../shared/data/wcxb-dev): its pages, labels and scoring.

A small loader for the page-type studies (bench/pagetype_*.py); scored as
../shared/data/README.md ("Page-type set") says, as WCXB's own evaluate.py
does: lowercase both texts, take the `\\w+` tokens, count the multiset
overlap; per page precision, recall and F1, then the mean per page (also per
type). An empty ground truth scores 1 only against an empty output.
"""

from __future__ import annotations

import gzip
import json
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from blockdensity.decode import decode_html
from devkit.corpus import DEFAULT_DATA

__all__ = ["TYPES", "WcxbPage", "load_wcxb", "tokens", "wcxb_score"]

TYPES = ("article", "forum", "product", "collection", "listing", "documentation", "service")
_WORD = re.compile(r"\w+")


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
    folder = data / "wcxb-dev"
    with open(folder / "ground_truth.jsonl", encoding="utf-8") as lines:
        rows = [json.loads(line) for line in lines if line.strip()]
    for row in rows:
        raw = gzip.decompress((folder / "html" / f"{row['page_id']}.html.gz").read_bytes())
        html, _ = decode_html(raw)
        yield WcxbPage(
            row["page_id"],
            row.get("url") or "",
            row["page_type"],
            html,
            row.get("plaintext") or "",
            row.get("markdown") or "",
            tuple(row.get("with") or ()),
            tuple(row.get("without") or ()),
        )


def tokens(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def wcxb_score(extracted: str, truth: str) -> tuple[float, float, float]:
    """(precision, recall, F1) of `extracted` against `truth`, WCXB's way."""
    got = Counter(tokens(extracted))
    want = Counter(tokens(truth))
    if not want:
        return (1.0, 1.0, 1.0) if not got else (0.0, 1.0, 0.0)
    if not got:
        return (0.0, 0.0, 0.0)
    overlap = sum((got & want).values())
    if not overlap:
        return (0.0, 0.0, 0.0)
    precision = overlap / sum(got.values())
    recall = overlap / sum(want.values())
    return precision, recall, 2 * precision * recall / (precision + recall)
