"""What WCXB's ground truth keeps, per page type: counters over its plaintext and markdown.

Crude by design (patterns, not parsing), to see the conventions the
annotators followed on each kind of page: whether prices, dates and the
page's title are in the main text, how much of it is short lines (card
titles, labels, table cells), whether its Markdown has tables, code, links,
headings and list items, how often the truth is empty.

    python -m bench.pagetype_truth
"""

from __future__ import annotations

import json
import re
import statistics
from collections import defaultdict

from bench.wcxb import TYPES
from devkit.corpus import DEFAULT_DATA

_PRICE = re.compile(r"(?:[$€£¥₹]\s?\d[\d.,]*)|(?:\d[\d.,]*\s?(?:€|EUR|USD|GBP)\b)")
_DATE = re.compile(
    r"\b(?:\d+\s+(?:minutes?|hours?|days?|weeks?|months?|years?)\s+ago"
    r"|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2},?\s+\d{4}"
    r"|\d{4}-\d\d-\d\d)\b",
    re.IGNORECASE,
)
# A forum's own labels on a line of their own: "Reply", "3 likes", "120 views".
_FORUM_LABEL = re.compile(
    r"^\s*(?:reply|quote|like|likes|\d+\s+(?:likes?|replies|views|votes?|points?))\s*$",
    re.IGNORECASE | re.MULTILINE,
)
_MD_TABLE = re.compile(r"^\s*\|?\s*:?-{3,}", re.MULTILINE)
_MD_HEADING = re.compile(r"^#{1,6} ", re.MULTILINE)
_MD_ITEM = re.compile(r"^\s*(?:[-*+]|\d+\.)\s", re.MULTILINE)


def measures(row: dict[str, str]) -> dict[str, float | bool]:
    plain = row.get("plaintext") or ""
    markdown = row.get("markdown") or ""
    lines = [line for line in plain.split("\n") if line.strip()]
    title = (row.get("title") or "").strip()[:40].lower()
    return {
        "truth words (median)": len(re.findall(r"\w+", plain)),
        "empty truth": not plain.strip(),
        "has a price": bool(_PRICE.search(plain)),
        "has a date": bool(_DATE.search(plain)),
        "has a forum label line": bool(_FORUM_LABEL.search(plain)),
        "has the page title": bool(title) and title in plain.lower(),
        "short lines, <= 4 words (median share)": (
            sum(1 for line in lines if len(line.split()) <= 4) / max(len(lines), 1)
        ),
        "markdown: a table": bool(_MD_TABLE.search(markdown)),
        "markdown: code": "```" in markdown,
        "markdown: a link": "](" in markdown,
        "markdown: headings (median)": len(_MD_HEADING.findall(markdown)),
        "markdown: list items (median)": len(_MD_ITEM.findall(markdown)),
    }


def main() -> int:
    by_type: dict[str, list[dict[str, float | bool]]] = defaultdict(list)
    with open(DEFAULT_DATA / "wcxb-dev" / "ground_truth.jsonl", encoding="utf-8") as lines:
        for line in lines:
            if line.strip():
                row = json.loads(line)
                by_type[row["page_type"]].append(measures(row))
    names = list(by_type["article"][0])
    print("| measure (share of pages unless a median) | " + " | ".join(TYPES) + " |")
    print("|---|" + "---:|" * len(TYPES))
    for name in names:
        cells = []
        for kind in TYPES:
            values = [page[name] for page in by_type[kind]]
            if "median" in name:
                middle = statistics.median(float(value) for value in values)
                cells.append(f"{middle:.2f}" if "share" in name else f"{middle:.0f}")
            else:
                cells.append(f"{sum(map(bool, values)) / len(values):.0%}")
        print(f"| {name} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
