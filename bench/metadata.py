"""Page metadata against Readability.js's expected values, ours and trafilatura's side by side.

`../shared/data/readability/metadata.jsonl` holds, for the 116 pages of the
readability set, the metadata Mozilla's Readability.js test suite expects
(its own output, kept as its tests' expected values). Per field, a page
agrees when:

- text fields (title, byline, excerpt, siteName, lang): both are absent, or
  both are equal once whitespace is collapsed (case and punctuation kept);
- publishedTime: both are absent, or both name the same instant; when
  either gives only a date (trafilatura gives dates by default), the same
  calendar day (the expected value's, in its own offset).

What is compared, per extractor:

| field | Readability.js | blockdensity | trafilatura |
|---|---|---|---|
| title | title | metadata.title, else <title> | title |
| byline | byline | metadata.authors, joined by ", " | author |
| excerpt | excerpt | metadata.description | description |
| siteName | siteName | metadata.site_name | sitename |
| publishedTime | publishedTime | metadata.published | date |
| lang | lang | lang (declared) | (none: it has no such field) |

Then "published time found wherever the page declares one": on every page
of both sets, whether a declaration of a published time is in the raw HTML
(a search for the names that declare one, independent of the reader) and
whether metadata.published is set.

    python -m bench.metadata [--data ../shared/data] [--show-misses]
"""

from __future__ import annotations

import argparse
import json
import logging
import re
import time
from collections.abc import Callable
from datetime import date, datetime
from pathlib import Path

from blockdensity import fit_text
from devkit.corpus import DEFAULT_DATA, Page, load_pages

FIELDS = ("title", "byline", "excerpt", "siteName", "publishedTime", "lang")
Reader = Callable[[Page], dict[str, str | None]]

# The names that declare a published time, as a page writes them, followed
# closely by a year of this web's (a `0001-01-01` placeholder declares no
# time): the "declared" count, independent of the reader's own lists
# (blockdensity.metadata).
_DECLARES_PUBLISHED = re.compile(
    rb"""(?:datePublished|article:published_time|og:published_time|parsely-pub-date|"""
    rb"""sailthru\.date|dc\.date\.issued|dcterms\.(?:issued|created)|<time[^>]+pubdate"""
    rb"""|name=["']?(?:pubdate|publishdate|publish[-_]date|date)["'\s>])"""
    rb"""[^<>]{0,80}?\b(?:19[9]|20[0-4])\d\b""",
    re.IGNORECASE,
)


def ours(page: Page) -> dict[str, str | None]:
    fit = fit_text(page.raw)
    meta = fit.metadata
    return {
        "title": meta.title or fit.title or None,
        "byline": ", ".join(meta.authors) or None,
        "excerpt": meta.description,
        "siteName": meta.site_name,
        "publishedTime": meta.published,
        "lang": fit.lang,
    }


def trafilaturas(page: Page) -> dict[str, str | None]:
    import trafilatura

    meta = trafilatura.extract_metadata(page.html)
    return {
        "title": meta.title,
        "byline": meta.author,
        "excerpt": meta.description,
        "siteName": meta.sitename,
        "publishedTime": meta.date,
        "lang": None,
    }


def agrees(field: str, expected: str | None, got: str | None) -> bool:
    if not expected or not got:
        return not expected and not got
    if field == "publishedTime":
        return _same_time(expected, got)
    return " ".join(expected.split()) == " ".join(got.split())


def _same_time(expected: str, got: str) -> bool:
    want, have = _moment(expected), _moment(got)
    if want is None or have is None:
        return False
    if isinstance(want, datetime) and isinstance(have, datetime):
        if (want.tzinfo is None) != (have.tzinfo is None):
            return want.replace(tzinfo=None) == have.replace(tzinfo=None)
        return want == have
    return _day(want) == _day(have)


def _moment(value: str) -> datetime | date | None:
    text = value.strip().replace("Z", "+00:00").replace("-00:00", "")
    try:
        if len(text) == len("2019-05-02"):
            return date.fromisoformat(text)
        return datetime.fromisoformat(text)
    except ValueError:
        return None


def _day(moment: datetime | date) -> date:
    return moment.date() if isinstance(moment, datetime) else moment


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--show-misses", action="store_true", help="print each disagreement")
    args = parser.parse_args()
    for noisy in ("trafilatura", "htmldate", "courlan"):
        logging.getLogger(noisy).setLevel(logging.CRITICAL)

    with open(args.data / "readability" / "metadata.jsonl", encoding="utf-8") as lines:
        expected = {row["page_id"]: row for row in map(json.loads, lines)}
    pages = [page for page in load_pages(args.data, ("readability",)) if page.page_id in expected]
    readers: dict[str, Reader] = {"blockdensity": ours, "trafilatura 2.3": trafilaturas}
    agreement = {name: dict.fromkeys(FIELDS, 0) for name in readers}
    seconds = dict.fromkeys(readers, 0.0)
    for page in pages:
        want = expected[page.page_id]
        for name, reader in readers.items():
            start = time.process_time()
            got = reader(page)
            seconds[name] += time.process_time() - start
            for field in FIELDS:
                if agrees(field, want.get(field), got[field]):
                    agreement[name][field] += 1
                elif args.show_misses and name == "blockdensity":
                    print(f"{want['name']:36} {field:13}", end=" ")
                    print(f"want {want.get(field)!r:.70} got {got[field]!r:.70}")

    print(f"{len(pages)} readability pages: agreement with Readability.js's expected metadata")
    print("ms/page: blockdensity's whole fit (text and all); trafilatura's extract_metadata alone")
    print()
    header = " | ".join(f"{field:>13}" for field in FIELDS)
    print(f"| {'reader':16} | {header} | {'ms/page':>7} |")
    print(f"|{'-' * 18}|" + "|".join("-" * 14 + ":" for _ in FIELDS) + f"|{'-' * 8}:|")
    for name in readers:
        cells = " | ".join(f"{agreement[name][field]:>13}" for field in FIELDS)
        print(f"| {name:16} | {cells} | {seconds[name] / len(pages) * 1e3:7.2f} |")
    print()
    _published_found(args.data)


def _published_found(data: Path) -> None:
    declared = found = 0
    missed = []
    for page in load_pages(data):
        if _DECLARES_PUBLISHED.search(page.raw) is None:
            continue
        declared += 1
        if fit_text(page.raw).metadata.published is not None:
            found += 1
        else:
            missed.append(f"{page.set_name}/{page.page_id[:10]}")
    print(f"published time: {declared} pages of both sets declare one; found on {found}")
    if missed:
        print("  not found: " + ", ".join(missed))


if __name__ == "__main__":
    main()
