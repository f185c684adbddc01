"""The page-type classifier's evidence (blockdensity.pagetype.Evidence), from what the fit has.

The fit's stages already hold nearly all the classifier reads: the walk's
Page (every block's element and text, the title, the element table of
blockdensity.structure), the measure stage's words and link words per block,
and what the metadata reading found (blockdensity.metadata.read_declared:
the JSON-LD types, og:type, the generator, the published time, the
authors); the layout counts (linked titles, the longest run of prose, dates among
the short blocks) take one more pass over the blocks' measures. One thing is read from
the markup itself, and only when the walk
met an itemprop attribute: microdata's itemtype names. Nothing is parsed
again.

Counted as the prototype reader that trained the first weights counted them
(a second parse of the page), but where that would cost more than a few
percent of a fit, and the weights were fitted again on what is left
(bench/pagetype_train.py): the words of the class and id attributes are not
read (a scan of the markup for them cost half a fit), nor the <time>
elements counted; prices are looked for in the short blocks only; and the
runs of same-shaped siblings (cards, posts) are not counted: from the walk's
element table they cost a tenth of a fit and, measured, added nothing to
the classifier's agreement with WCXB's labels.
"""

from __future__ import annotations

import re
from typing import Final

from blockdensity.measure import Measures
from blockdensity.metadata import Declared
from blockdensity.pagetype import EDGE_PUNCTUATION, KNOWN_PHRASES, LONG_BLOCK, Evidence, phrase
from blockdensity.result import Metadata
from blockdensity.segment import (
    ANCHOR_MARK,
    BLOCK_END,
    BREAK_MARK,
    ELEMENT,
    SUB_CLOSE,
    SUB_OPEN,
    Page,
)

__all__ = ["gather"]

_HEADINGS: Final = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
_PRICE: Final = re.compile(
    r"(?:[$€£¥₹]\s?\d[\d.,]*)|(?:\d[\d.,]*\s?(?:€|\$|£|EUR|USD|GBP|CHF|kr|zł)(?![\w]))"
)
# Every price _PRICE matches holds one of these (its signs and its codes).
_CURRENCIES: Final = ("$", "€", "£", "¥", "₹", "EUR", "USD", "GBP", "CHF", "kr", "zł")
# A date as listings show one beside each item: "Mar 3, 2025", "3 March 2025",
# "2025-03-03", "03/03/2025", "3 days ago" (looked for in the short blocks only, as prices).
_DATE: Final = re.compile(
    r"\b(?:\d+\s+(?:minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?)\s+ago"
    r"|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4}"
    r"|\d{1,2}(?:st|nd|rd|th)?\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?,?\s+\d{4}"
    r"|\d{4}-\d\d-\d\d|\d{1,2}[./]\d{1,2}[./]\d{2,4})\b",
    re.IGNORECASE,
)
# Words: a linked block this long is an item's title; this long, its title and line;
# a block this long may be prose; a shorter one does not break a run of prose.
_TITLE_WORDS: Final = (3, 20)
_MEDIUM_WORDS: Final = (10, 39)
_PROSE_WORDS: Final = 15
_RUN_BREAK: Final = 8
_ITEMTYPE: Final = re.compile(r"""itemtype\s*=\s*["']?([^"'\s>]+)""")
_ITEMTYPE_BYTES: Final = re.compile(rb"""itemtype\s*=\s*["']?([^"'\s>]+)""")
# Prices are looked for in blocks of at most this many words (a price is a short
# block of its own: reading the whole text would cost more than the rest together).
_PRICE_WORDS: Final = 6
# The characters a known phrase is stripped of at either end: punctuation, arrows, spaces,
# and the walk's markers (an <a> around "Reply").
_MARK_CHARACTERS: Final = "".join((ANCHOR_MARK, BREAK_MARK, SUB_OPEN, SUB_CLOSE))
_EDGE: Final = EDGE_PUNCTUATION + _MARK_CHARACTERS + "\r\f\v"
# A phrase is at most this long (in characters): a longer line is none of them.
_PHRASE_LENGTH: Final = max(map(len, KNOWN_PHRASES))
_MARKS: Final = re.compile(f"[{_MARK_CHARACTERS}]")


def gather(  # noqa: PLR0913, PLR0917 - the stages' results the evidence is counted from
    page: Page,
    measures: Measures,
    metadata: Metadata,
    declared: Declared,
    markup: str | bytes,
    url: str | None,
) -> Evidence:
    """The classifier's evidence for a page, from the fit's stages' results and its markup."""
    counts, phrases, short = _shape(page, measures)
    return Evidence(
        # microdata's types: only where the walk met an itemprop (page.microdata), as
        # every microdata item has (a scan of the whole markup costs a tenth of a fit).
        schema_types=declared.schema_types | _itemtypes(markup)
        if page.microdata
        else declared.schema_types,
        og_type=declared.og_type,
        published=metadata.published is not None,
        authors=len(metadata.authors),
        generator=declared.generator,
        title=page.title,
        url=url or "",
        words=counts[_WORDS],
        link_words=counts[_LINK_WORDS],
        blocks=counts[_BLOCKS],
        li_words=counts[_LI_WORDS],
        table_words=counts[_TABLE_WORDS],
        code_words=counts[_CODE_WORDS],
        heading_blocks=counts[_HEADING_BLOCKS],
        linked_headings=counts[_LINKED_HEADINGS],
        p_words=counts[_P_WORDS],
        long_block_words=counts[_LONG_WORDS],
        prices=_prices("\n".join(short)) if short else 0,
        phrases=frozenset(phrases),
        dates=len(_DATE.findall("\n".join(short))) if short else 0,
        **_layout(page, measures),
    )


# The places of the counts _shape returns; _OTHER gathers the words counted nowhere else.
_WORDS, _LINK_WORDS, _BLOCKS, _LI_WORDS, _TABLE_WORDS, _CODE_WORDS = range(6)
_HEADING_BLOCKS, _LINKED_HEADINGS, _P_WORDS, _LONG_WORDS, _OTHER = range(6, 11)
# Where a block's words are counted, by its element.
_PLACES: Final = {
    **dict.fromkeys(("li", "dt", "dd"), _LI_WORDS),
    **dict.fromkeys(("td", "th"), _TABLE_WORDS),
    "pre": _CODE_WORDS,
    "p": _P_WORDS,
}


def _shape(page: Page, measures: Measures) -> tuple[list[int], set[str], list[str]]:
    """The counts of the page's text by where it sits (the places above), the known
    phrases among the short blocks, and the texts of the short blocks."""
    words = measures.words
    links = measures.links
    blocks = page.blocks
    counts = [0] * 11
    texts: list[str] | None = None
    short: list[str] = []
    for index, count in enumerate(words):
        if not count:
            continue
        element = blocks[index][ELEMENT]
        linked = links[index]
        counts[_BLOCKS] += 1
        counts[_WORDS] += count
        counts[_LINK_WORDS] += linked
        counts[_PLACES.get(element, _OTHER)] += count
        if element in _HEADINGS:
            counts[_HEADING_BLOCKS] += 1
            counts[_LINKED_HEADINGS] += 2 * linked > count
        if count >= LONG_BLOCK:
            counts[_LONG_WORDS] += count
        elif count <= _PRICE_WORDS:
            if texts is None:
                # With their markers (the phrase pattern takes them as spaces).
                texts = page.text.split(BLOCK_END)
            short.append(texts[index])
    return counts, _phrases(short), short


def _layout(page: Page, measures: Measures) -> dict[str, int]:
    """The layout counts of Evidence: the linked titles (blocks of 3-20 words, more
    than half of them linked), the linked blocks of 10-39 words, the longest block,
    and the longest run of prose: blocks of 15 words or more, under a fifth linked,
    not headings, in a row (blocks of under 8 words, captions and bylines, do not
    break it; any other block does). One pass over the measures, apart from _shape's
    so either can change alone."""
    blocks = page.blocks
    links = measures.links
    titles = medium = longest = run = longest_run = 0
    for index, count in enumerate(measures.words):
        longest = max(longest, count)
        if count < _RUN_BREAK:
            if count >= _TITLE_WORDS[0] and 2 * links[index] > count:
                titles += 1
            continue
        linked = links[index]
        if 2 * linked > count:
            titles += count <= _TITLE_WORDS[1]
            medium += _MEDIUM_WORDS[0] <= count <= _MEDIUM_WORDS[1]
        if count >= _PROSE_WORDS and 5 * linked < count and blocks[index][ELEMENT] not in _HEADINGS:
            run += count
            longest_run = max(longest_run, run)
        else:
            run = 0
    return {
        "linked_titles": titles,
        "linked_medium": medium,
        "prose_run": longest_run,
        "longest_block": longest,
    }


def _prices(text: str) -> int:
    """How many prices `text` shows. The pattern (tried at every character, a tenth of
    the classifier's time) runs only where a currency sign or code is in the text: a
    price holds one of them, and most pages show none."""
    if any(currency in text for currency in _CURRENCIES):
        return len(_PRICE.findall(text))
    return 0


def _phrases(short: list[str]) -> set[str]:
    """The phrases the classifier knows (buttons, labels) that are short blocks' texts.
    The texts are lowercased in one piece and looked up line by line; a line with
    more than its edges to clean (a marker or a run of spaces inside) is cleaned as
    `phrase` cleans it."""
    found: set[str] = set()
    if not short:
        return found
    for line in "\n".join(short).lower().split("\n"):
        if len(line) > _PHRASE_LENGTH + 8:
            continue
        key = line.strip(_EDGE)
        if key in KNOWN_PHRASES:
            found.add(key)
        elif not key.isascii() or "  " in key:
            key = phrase(_MARKS.sub(" ", key))
            if key in KNOWN_PHRASES:
                found.add(key)
    return found


def _itemtypes(markup: str | bytes) -> frozenset[str]:
    """The last path segment of every microdata itemtype in the markup.

    The pattern is tried only where `find` (a scan in C, several times a regular
    expression's search over a whole page) sees the attribute's name."""
    values: list[str] = []
    if isinstance(markup, bytes):
        start = markup.find(b"itemtype")
        while start >= 0:
            found = _ITEMTYPE_BYTES.match(markup, start)
            if found:
                values.append(found.group(1).decode("utf-8", "replace"))
            start = markup.find(b"itemtype", found.end() if found else start + 8)
    else:
        start = markup.find("itemtype")
        while start >= 0:
            match = _ITEMTYPE.match(markup, start)
            if match:
                values.append(match.group(1))
            start = markup.find("itemtype", match.end() if match else start + 8)
    names = {value.rstrip("/").rsplit("/", 1)[-1] for value in values}
    names.discard("")
    return frozenset(names)
