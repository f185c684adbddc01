"""The page-type classifier's evidence (blockdensity.pagetype.Evidence), from what the fit has.

The fit's stages already hold nearly all the classifier reads: the walk's
Page (every block's element and text, the title, the element table of
blockdensity.structure), the measure stage's words and link words per block,
and what the metadata reading found (blockdensity.metadata.read_declared:
the JSON-LD types, og:type, the generator, the published time, the
authors); the counts by element and the layout counts (linked titles, the longest run
of prose) take one pass over the blocks' measures, which keeps the short blocks' texts
for their prices, dates and phrases. One thing is read from
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

from blockdensity import _text
from blockdensity.elements import HEADINGS
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

# A price: a currency sign and an amount, or an amount and a sign or a code. Written as
# one character class (a sign or a digit) and then the branch that character opens
# (told by looking behind at it), not as the two branches side by side
# (r"(?:[$€£¥₹]\s?\d[\d.,]*)|(?:\d[\d.,]*\s?(?:€|\$|£|EUR|USD|GBP|CHF|kr|zł)(?!\w))"):
# the same matches, but a pattern that begins with one class lets the engine skip in C to
# the next sign or digit, where the two branches were tried at every character.
_PRICE: Final = re.compile(
    r"[$€£¥₹\d](?:(?<=[$€£¥₹])\s?\d[\d.,]*|(?<=\d)[\d.,]*\s?(?:€|\$|£|EUR|USD|GBP|CHF|kr|zł)(?!\w))"
)
# Every price _PRICE matches holds one of these (its signs and its codes).
_CURRENCIES: Final = ("$", "€", "£", "¥", "₹", "EUR", "USD", "GBP", "CHF", "kr", "zł")
# A date as listings show one beside each item: "Mar 3, 2025", "3 March 2025",
# "2025-03-03", "03/03/2025", "3 days ago" (looked for in the short blocks only, as prices,
# in their lowercased text). Written so that it begins with one character class (a digit,
# or the first letter of a month): the regular expression engine then skips in C to the
# places a date may start, where a pattern that begins with \b is tried at every
# character (it cost a sixth of a fit). The first character is then checked to begin a
# word ((?<!\w.)), and each alternative checks it is its own first character ((?<=\d),
# the month's first letter). The same dates, in the same order, as
# \b(?:\d+\s+UNIT\s+ago|MONTH[a-z]*\.?\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4}|...)\b
# under re.IGNORECASE (measured on every development page; tests/test_evidence.py).
_MONTH: Final = "(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)"
_MONTH_AFTER_ITS_FIRST_LETTER: Final = (
    "(?:(?<=j)(?:an|un|ul)|(?<=f)eb|(?<=m)(?:ar|ay)|(?<=a)(?:pr|ug)|(?<=s)ep|(?<=o)ct"
    "|(?<=n)ov|(?<=d)ec)"
)
_DATE: Final = re.compile(
    r"[\djfmasond](?<!\w.)(?:"
    r"(?<=\d)\d*\s+(?:minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?)\s+ago"
    r"|" + _MONTH_AFTER_ITS_FIRST_LETTER + r"[a-z]*\.?\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4}"
    r"|(?<=\d)\d?(?:st|nd|rd|th)?\s+" + _MONTH + r"[a-z]*\.?,?\s+\d{4}"
    r"|(?<=\d)\d{3}-\d\d-\d\d|(?<=\d)\d?[./]\d{1,2}[./]\d{2,4})\b"
)
# The fewest characters a date is written in ("1.1.25"; "3 hrs ago", "2025-03-03" are longer).
_SHORTEST_DATE: Final = 6
# Words: a linked block this long is an item's title; this long, its title and line;
# a block this long may be prose; a shorter one does not break a run of prose.
_TITLE_WORDS: Final = (3, 20)
_MEDIUM_WORDS: Final = (10, 39)
_PROSE_WORDS: Final = 15
_RUN_BREAK: Final = 8
# The characters of a price but its digits and whitespace: separators, signs, codes' letters.
_PRICE_CHARACTERS: Final = frozenset(".,$€£¥₹EURUSDGBPCHFkrzł")
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
    shape = _shape(page, measures)
    short = shape.short
    joined = "\n".join(short)
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
        words=shape.words,
        link_words=shape.link_words,
        blocks=shape.blocks,
        li_words=shape.li_words,
        table_words=shape.table_words,
        code_words=shape.code_words,
        heading_blocks=shape.heading_blocks,
        linked_headings=shape.linked_headings,
        p_words=shape.p_words,
        long_block_words=shape.long_block_words,
        prices=_prices(joined) if short else 0,
        phrases=frozenset(_phrases(short)),
        dates=_dates(joined.lower()) if short else 0,
        linked_titles=shape.linked_titles,
        linked_medium=shape.linked_medium,
        prose_run=shape.prose_run,
        longest_block=shape.longest_block,
    )


# Where a block's words are counted, by its element (the rest only in words).
_LIST_ITEMS: Final = frozenset(("li", "dt", "dd"))  # li_words
_CELLS: Final = frozenset(("td", "th"))  # table_words


class _Shape:
    """The counts of a page's text by where it sits, its layout, and the texts of its
    short blocks.

    A compiled class of plain ints (mypyc keeps them unboxed): the loop over the
    blocks adds to them without the boxed integers and the dictionary lookups of a
    list of counts indexed through a table of elements, which cost more than the
    rest of the loop."""

    __slots__ = (
        "blocks",
        "code_words",
        "heading_blocks",
        "li_words",
        "link_words",
        "linked_headings",
        "linked_medium",
        "linked_titles",
        "long_block_words",
        "longest_block",
        "p_words",
        "prose_run",
        "run",
        "short",
        "table_words",
        "words",
    )

    def __init__(self) -> None:
        self.words = 0
        self.link_words = 0
        self.blocks = 0  # blocks with words
        self.li_words = 0
        self.table_words = 0
        self.code_words = 0  # in pre blocks
        self.p_words = 0
        self.heading_blocks = 0  # h1-h6 blocks
        self.linked_headings = 0  # ... more than half of whose words are linked
        self.long_block_words = 0  # in blocks of LONG_BLOCK words or more
        # The layout (_shape): linked titles, linked medium blocks, the longest run of
        # prose, the longest block.
        self.linked_titles = 0
        self.linked_medium = 0
        self.prose_run = 0
        self.longest_block = 0
        self.run = 0  # the words of the run of prose going on
        # The texts of the blocks of at most _PRICE_WORDS words (and fewer than
        # LONG_BLOCK), with their markers (the phrase pattern takes them as spaces).
        self.short: list[str] = []

    def lay_out(self, count: int, linked: int, element: str) -> None:
        """Counts a block of `count` words (`linked` of them linked) into the layout: the
        linked titles (blocks of 3-20 words, more than half of them linked), the linked
        blocks of 10-39 words, the longest block, and the longest run of prose: blocks of
        15 words or more, under a fifth linked, not headings, in a row (blocks of under 8
        words, captions and bylines, do not break it; any other block with words does)."""
        self.longest_block = max(self.longest_block, count)
        if count < _RUN_BREAK:
            if count >= _TITLE_WORDS[0] and 2 * linked > count:
                self.linked_titles += 1
            return
        if 2 * linked > count:
            self.linked_titles += count <= _TITLE_WORDS[1]
            self.linked_medium += _MEDIUM_WORDS[0] <= count <= _MEDIUM_WORDS[1]
        if count >= _PROSE_WORDS and 5 * linked < count and element not in HEADINGS:
            self.run += count
            self.prose_run = max(self.prose_run, self.run)
        else:
            self.run = 0


def _shape(page: Page, measures: Measures) -> _Shape:
    """The counts of the page's text by where it sits, its layout (_Shape.lay_out) and the
    texts of its short blocks: one pass over the measures."""
    words = measures.words
    links = measures.links
    blocks = page.blocks
    shape = _Shape()
    short: list[int] = []  # the short blocks' indexes
    for index, count in enumerate(words):
        if not count:
            continue
        element = blocks[index][ELEMENT]
        linked = links[index]
        shape.blocks += 1
        shape.words += count
        shape.link_words += linked
        shape.lay_out(count, linked, element)
        if element == "p":
            shape.p_words += count
        elif element in _LIST_ITEMS:
            shape.li_words += count
        elif element in _CELLS:
            shape.table_words += count
        elif element == "pre":
            shape.code_words += count
        elif element in HEADINGS:
            shape.heading_blocks += 1
            if 2 * linked > count:
                shape.linked_headings += 1
        if count >= LONG_BLOCK:
            shape.long_block_words += count
        elif count <= _PRICE_WORDS:
            short.append(index)
    if short:
        # Their texts alone, as page.text.split(BLOCK_END) has them (a split of the
        # whole text made every block's, most of the pass's cost).
        shape.short = _text.parts_at(page.text, BLOCK_END, short)
    return shape


def _prices(text: str) -> int:
    """How many prices `text` shows.

    The pattern runs only on the stretches of the text around a currency sign or
    code: a price holds one, and is made of _PRICE_CHARACTERS alone (digits,
    separators, whitespace, the signs and the codes' letters), so no price crosses
    another character. Each stretch of those characters holding a sign or a code
    is matched on its own, with the character after it (what the pattern's
    lookahead reads): the same prices, in the same order, as the pattern over the
    whole text finds (which cost a tenth of a fit on pages that show a "$" or a
    "kr" anywhere in their short blocks)."""
    # Where each sign or code begins (no two begin with the same character, so a place
    # is one currency's), in one compiled pass.
    starts = _text.starts_of(text, _CURRENCIES)
    if not starts:
        return 0
    count = 0
    end = 0  # the end of the last stretch matched
    size = len(text)
    for start in starts:
        if start < end:
            continue  # in the stretch just matched
        begin = start
        while begin > 0 and _is_price_character(text[begin - 1]):
            begin -= 1
        end = start + 1
        while end < size and _is_price_character(text[end]):
            end += 1
        count += len(_PRICE.findall(text, begin, min(end + 1, size)))
    return count


def _dates(text: str) -> int:
    """How many dates `text` (lowercased) shows: the matches of _DATE.

    The pattern runs only where a date may be (_text.date_stretches): every date is
    written in digits, ASCII letters, whitespace and ".,/-" alone, holds a digit, and
    reaches no further from its digits than a word before them (a month) and two
    after (" days ago"); so no date lies outside those stretches, nor in one shorter
    than _SHORTEST_DATE. Each stretch is matched on its own with the character after
    it (what the pattern's closing \\b reads; the lookbehinds at its start read the
    text before the stretch, which the pattern sees from `pos`): the same dates as
    the pattern over the whole text finds, where the pattern alone stopped at every
    letter a month's name begins with (most of the evidence's cost). Nor in one that
    holds no "ago", no year, and no digits around a "." or "/" (`dated`): each
    alternative of the pattern holds one of them."""
    count = 0
    size = len(text)
    stretches = _text.date_stretches(text, _SHORTEST_DATE, dated=True)
    for place in range(0, len(stretches), 2):
        end = stretches[place + 1]
        count += len(_DATE.findall(text, stretches[place], end + 1 if end < size else end))
    return count


def _is_price_character(character: str) -> bool:
    """Whether a price (a match of _PRICE) may hold `character`: \\d and \\s as the pattern
    reads them (str.isdecimal, str.isspace), or one of _PRICE_CHARACTERS."""
    return character.isdecimal() or character.isspace() or character in _PRICE_CHARACTERS


def _phrases(short: list[str]) -> set[str]:
    """The phrases the classifier knows (buttons, labels) that are short blocks' texts.
    Each line is lowercased and looked up; a line with more than its edges to clean (a
    marker or a run of spaces inside) is cleaned as `phrase` cleans it.

    A line too long to be a phrase is passed over before it is lowercased (most
    of the lowercasing's cost, on text that is not ASCII): lowercasing never shortens a
    string (its one mapping to more than one character, U+0130, lengthens), so a line
    too long before is too long after. Lowercasing line by line is lowercasing the
    lines joined: the one mapping that reads its neighbours, the final sigma, stops at a
    line break (neither cased nor case-ignorable) as at a string's end."""
    found: set[str] = set()
    # Only the lines short enough whose letters and digits may be a phrase's (a compiled
    # pass over them, which leaves out no line that is one): most short blocks are none,
    # and were each lowercased and looked up.
    for line in _text.phrase_lines(short, _LINE_LIMIT, _PHRASE_FILTER):
        _add_phrase(line, found)
    return found


# A line longer than this (before or after lowercasing) is no phrase.
_LINE_LIMIT: Final = _PHRASE_LENGTH + 8
# The known phrases' letters and digits, hashed (_text.phrase_lines).
_PHRASE_FILTER: Final = _text.phrase_filter(KNOWN_PHRASES)


def _add_phrase(raw: str, found: set[str]) -> None:
    """Adds to `found` the known phrase that the line `raw` is, if it is one (_phrases)."""
    if len(raw) > _LINE_LIMIT:
        return
    line = raw.lower()
    if len(line) > _LINE_LIMIT:
        return
    key = line.strip(_EDGE)
    if key in KNOWN_PHRASES:
        found.add(key)
    elif not key.isascii() or "  " in key:
        key = phrase(_MARKS.sub(" ", key))
        if key in KNOWN_PHRASES:
            found.add(key)


def _itemtypes(markup: str | bytes) -> frozenset[str]:
    """The last path segment of every microdata itemtype in the markup.

    The pattern is tried only where a scan in C (several times as fast as a regular
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
        # Where markup.find("itemtype") would stop, from each match's end (or the
        # name's) on: the first occurrence at or after it ("itemtype" overlaps no other,
        # so _text.occurrences lists them all), found in one compiled pass, several
        # times as fast as str.find's on a page that is not Latin-1 (most of them).
        resume = 0
        for start in _text.occurrences(markup, "itemtype"):
            if start < resume:
                continue
            match = _ITEMTYPE.match(markup, start)
            if match:
                values.append(match.group(1))
            resume = match.end() if match else start + 8
    names = {value.rstrip("/").rsplit("/", 1)[-1] for value in values}
    names.discard("")
    return frozenset(names)
