"""A prototype reader of blockdensity.pagetype.Evidence from a page's HTML (not the library's).

The block counts come from the fit's own blocks (fit_text(...).blocks: their
element, words and link words), as the library will count them; the rest
is read here with a second selectolax parse, which the library will replace
with what its walk and metadata reader already see:
- schema_types: the @type of every JSON-LD entity at the top of a block, in
  an array or @graph, and of its mainEntity; and the last segment of every
  microdata itemtype;
- og_type, generator (every <meta name=generator>), title;
- cards and posts: for each element, its element children grouped by shape
  (tag and class attribute); in a group of three or more, a card is a child
  with 1-100 words, some of them linked, and a heading, an image or three
  words outside links; a post is a child with 25 words or more outside
  links. The figure is the largest count of either in one group, outside
  nav, header, footer and aside;
- prices: currency amounts in the page's text;
- class_words: the words (split at anything not a letter or digit) of every
  class and id attribute.

    python -m bench.pagetype_evidence [--out bench/out/pagetype-evidence.jsonl]

writes one JSON object per WCXB page: page_id, page_type, url, and the evidence.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import asdict
from pathlib import Path
from typing import Any

from selectolax.lexbor import LexborHTMLParser, LexborNode

from bench.wcxb import load_wcxb
from blockdensity import Block, fit_text
from blockdensity.pagetype import LONG_BLOCK, PHRASE_WORDS, Evidence, phrase

_SKIP = frozenset({"script", "style", "noscript", "template", "svg", "head", "title", "select"})
_CHROME = frozenset({"nav", "header", "footer", "aside"})
_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
_CLASS_SPLIT = re.compile(r"[^a-z0-9]+")
_PRICE = re.compile(
    r"(?:[$€£¥₹]\s?\d[\d.,]*)|(?:\d[\d.,]*\s?(?:€|\$|£|EUR|USD|GBP|CHF|kr|zł)(?![\w]))"
)
_LI = frozenset({"li", "dt", "dd"})
_CELL = frozenset({"td", "th"})


def _schema_types(tree: LexborHTMLParser) -> set[str]:
    found: set[str] = set()
    for script in tree.css('script[type="application/ld+json"]'):
        text = script.text(deep=True).strip()
        for opener in ("<!--", "//<![CDATA[", "<![CDATA["):
            text = text.removeprefix(opener)
        for closer in ("-->", "//]]>", "]]>"):
            text = text.removesuffix(closer)
        try:
            value = json.loads(re.sub(r"[\x00-\x1f]", " ", text))
        except ValueError:
            continue
        for entity in _entities(value):
            found.update(_types(entity))
            main = entity.get("mainEntity")
            for inner in main if isinstance(main, list) else [main]:
                if isinstance(inner, dict):
                    found.update(_types(inner))
    for node in tree.css("[itemtype]"):
        for itemtype in (node.attributes.get("itemtype") or "").split():
            name = itemtype.rstrip("/").rsplit("/", 1)[-1]
            if name:
                found.add(name)
    return found


def _entities(value: object) -> list[dict[str, Any]]:
    items = value if isinstance(value, list) else [value]
    out: list[dict[str, Any]] = []
    for item in items:
        if isinstance(item, dict):
            out.append(item)
            graph = item.get("@graph")
            if isinstance(graph, list):
                out.extend(entry for entry in graph if isinstance(entry, dict))
    return out


def _types(entity: dict[str, Any]) -> list[str]:
    kind = entity.get("@type")
    names = kind if isinstance(kind, list) else [kind]
    return [name.rsplit("/", 1)[-1] for name in names if isinstance(name, str)]


class _Counts:
    __slots__ = ("has_heading", "has_img", "has_link", "link_words", "words")

    def __init__(self) -> None:
        self.words = 0
        self.link_words = 0
        self.has_link = False
        self.has_heading = False
        self.has_img = False


def _repeated(groups: Iterable[list[_Counts]], best: list[int]) -> None:
    """Raise best (cards, posts) to the counts of the groups of same-shaped siblings."""
    for members in groups:
        if len(members) < 3:
            continue
        cards = sum(
            1
            for m in members
            if m.words <= 100
            and m.link_words
            and (m.has_heading or m.has_img or m.words - m.link_words >= 3)
        )
        posts = sum(1 for m in members if m.words - m.link_words >= 25)
        if cards >= 0.6 * len(members):
            best[0] = max(best[0], cards)
        if posts >= 0.5 * len(members):
            best[1] = max(best[1], posts)


def _structure(body: LexborNode) -> tuple[int, int, set[str]]:
    """(cards, posts, class words) of the body."""
    best = [0, 0]
    class_words: set[str] = set()

    def visit(node: LexborNode, in_chrome: bool) -> _Counts:
        counts = _Counts()
        tag = node.tag or ""
        attributes = node.attributes
        for name in ("class", "id"):
            value = attributes.get(name)
            if value:
                class_words.update(word for word in _CLASS_SPLIT.split(value.lower()) if word)
        chrome = in_chrome or tag in _CHROME
        groups: dict[tuple[str, str], list[_Counts]] = defaultdict(list)
        child = node.child
        while child is not None:
            child_tag = child.tag
            if child_tag == "-text":
                counts.words += len((child.text_content or "").split())
            elif child_tag and not child_tag.startswith("-") and child_tag not in _SKIP:
                inner = visit(child, chrome)
                counts.words += inner.words
                counts.link_words += inner.link_words
                counts.has_link |= inner.has_link
                counts.has_heading |= inner.has_heading or child_tag in _HEADINGS
                counts.has_img |= inner.has_img or child_tag in {"img", "picture"}
                if inner.words:
                    key = (child_tag, child.attributes.get("class") or "")
                    groups[key].append(inner)
            child = child.next
        if tag == "a":
            counts.link_words = counts.words
            counts.has_link = True
        if not chrome:
            _repeated(groups.values(), best)
        return counts

    sys.setrecursionlimit(10_000)
    visit(body, False)
    return best[0], best[1], class_words


def _block_shape(blocks: Iterable[Block]) -> dict[str, Any]:
    """Evidence's counts over the fit's blocks."""
    shape: Counter[str] = Counter()
    phrases: set[str] = set()
    for block in blocks:
        if not block.words:
            continue
        shape["blocks"] += 1
        shape["words"] += block.words
        shape["link_words"] += block.link_words
        element = block.element
        if element in _LI:
            shape["li_words"] += block.words
        elif element in _CELL:
            shape["table_words"] += block.words
        elif element == "pre":
            shape["code_words"] += block.words
        elif element in _HEADINGS:
            shape["heading_blocks"] += 1
            shape["linked_headings"] += 2 * block.link_words > block.words
        elif element == "p":
            shape["p_words"] += block.words
        if block.words >= LONG_BLOCK:
            shape["long_block_words"] += block.words
        elif block.words <= PHRASE_WORDS and (key := phrase(block.text)):
            phrases.add(key)
    return {**shape, "phrases": frozenset(phrases)}


def read_evidence(html: str, url: str = "") -> Evidence:
    fit = fit_text(html, url=url or None)
    shape = _block_shape(fit.blocks)
    tree = LexborHTMLParser(html)
    og_type = ""
    generators = []
    for meta in tree.css("meta"):
        attributes = meta.attributes
        key = (attributes.get("property") or attributes.get("name") or "").lower()
        content = attributes.get("content") or ""
        if key == "og:type" and not og_type:
            og_type = content
        elif key == "generator":
            generators.append(content)
    title_node = tree.css_first("title")
    body = tree.body
    cards = posts = prices = 0
    class_words: set[str] = set()
    if body is not None:
        cards, posts, class_words = _structure(body)
        prices = len(_PRICE.findall(body.text(separator=" ")))
    return Evidence(
        schema_types=frozenset(_schema_types(tree)),
        og_type=og_type,
        published=fit.metadata.published is not None,
        authors=len(fit.metadata.authors),
        generator=" ".join(generators),
        title=title_node.text() if title_node is not None else "",
        url=url,
        **shape,
        cards=cards,
        posts=posts,
        prices=prices,
        time_elements=len(tree.css("time")),
        class_words=frozenset(class_words),
    )


def to_json(evidence: Evidence) -> dict[str, Any]:
    return {
        key: sorted(value) if isinstance(value, frozenset) else value
        for key, value in asdict(evidence).items()
    }


def from_json(row: dict[str, Any]) -> Evidence:
    fields = {key: row[key] for key in Evidence.__dataclass_fields__ if key in row}
    for key in ("schema_types", "class_words", "phrases"):
        fields[key] = frozenset(fields.get(key, ()))
    return Evidence(**fields)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--out", type=Path, default=Path("bench/out/pagetype-evidence.jsonl"))
    args = parser.parse_args(argv)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    started = time.process_time()
    count = 0
    with open(args.out, "w", encoding="utf-8") as out:
        for page in load_wcxb():
            evidence = read_evidence(page.html, page.url)
            row = {"page_id": page.page_id, "page_type": page.page_type, **to_json(evidence)}
            out.write(json.dumps(row, ensure_ascii=False) + "\n")
            count += 1
    elapsed = time.process_time() - started
    print(f"{count} pages, {elapsed:.1f} s CPU, written to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
