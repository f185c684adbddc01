"""The page-type classifier's evidence for every development page, as the fit counts it.

Each page is run through the fit's own stages before the decision
(blockdensity.fit.read_page, as fit_text runs them), and
blockdensity.evidence.gather counts the evidence the fit classifies the page
by: what bench/pagetype_train.py fits the classifier's weights on. The rows
are WCXB's development pages with their labels, and, with --articles, the
pages of the three article sets (scrapinghub, readability,
trafilatura-eval), every one an article.

    python -m bench.pagetype_evidence [--out bench/out/pagetype-evidence.jsonl] [--articles]

writes one JSON object per page: set, page_id, page_type, and the evidence.
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

from blockdensity import DEFAULT_CONF
from blockdensity.evidence import gather
from blockdensity.fit import read_page
from blockdensity.pagetype import Evidence, PageType
from devkit.corpus import DEFAULT_DATA, load_pages

ARTICLE_SETS = ("scrapinghub", "readability", "trafilatura-eval")


def read_evidence(html: str | bytes, url: str | None = None) -> Evidence:
    """The evidence fit_text(html, url=url) classifies the page by."""
    read = read_page(html, DEFAULT_CONF, url=url)
    return gather(read.page, read.measures, read.metadata, read.declared, read.source.markup, url)


def to_json(evidence: Evidence) -> dict[str, Any]:
    return {
        key: sorted(value) if isinstance(value, frozenset) else value
        for key, value in asdict(evidence).items()
    }


def from_json(row: dict[str, Any]) -> Evidence:
    fields = {key: row[key] for key in Evidence.__dataclass_fields__ if key in row}
    for key in ("schema_types", "phrases"):
        fields[key] = frozenset(fields.get(key, ()))
    return Evidence(**fields)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--out", type=Path, default=Path("bench/out/pagetype-evidence.jsonl"))
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument(
        "--articles", action="store_true", help="also the three article sets' pages"
    )
    args = parser.parse_args(argv)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    sets = ("wcxb-dev", *ARTICLE_SETS) if args.articles else ("wcxb-dev",)
    started = time.process_time()
    count = 0
    with open(args.out, "w", encoding="utf-8") as out:
        for page in load_pages(args.data, sets):
            evidence = read_evidence(page.raw, page.url)
            row = {
                "set": page.set_name,
                "page_id": page.page_id,
                "page_type": page.page_type or PageType.ARTICLE.value,
                **to_json(evidence),
            }
            out.write(json.dumps(row, ensure_ascii=False) + "\n")
            count += 1
    elapsed = time.process_time() - started
    print(f"{count} pages, {elapsed:.1f} s CPU, written to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
