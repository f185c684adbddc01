"""The parse stage: the page's markup as lexbor's tree, and the other readings of a page.

A page is read as a browser with scripting on reads it (blockdensity.dom:
Reading.SCRIPTING). A page whose first reading shows the walk no text, or
almost none, may read otherwise; the fit walks the other readings of such a
page (blockdensity.read) and keeps the one that shows its text:

- CLOSED_TITLES: an unclosed <title> swallows the whole page into the title
  (HTML5 RCDATA), leaving an empty body: each title that holds markup is
  ended at its first tag and the page parsed again, which recovers it as the
  reference does (`closed_titles`).
- NOSCRIPT: a crawler runs no script, and what a page serves to clients
  without script is its content. A page built by script in the browser
  often serves its whole text inside <noscript> (Discourse's crawler view of
  a thread: every post), which a reading with scripting on takes as raw
  text. Here the content of every <noscript> that holds markup with text is
  read as the page's elements, in place (`noscript_content`).
- DEFERRED: React's streaming server rendering sends content it had to wait
  for in `<div hidden id="S:n">`, which a script moves into the
  `<template id="B:n">` placeholder it stands for; without the script the
  content stays hidden. Here those divs are read where they are, as shown
  (`deferred_content`).
- HIDDEN: a page whose hidden elements hold as many words as the rest of it
  (the whole article in a `hidden` container a script reveals) is read with
  every hidden element shown but a pop-up's (`hidden_content`; the article
  profile's hidden_text rule, whatever the first reading shows).
"""

from __future__ import annotations

import re
from enum import StrEnum
from itertools import islice
from typing import Final, NamedTuple

from blockdensity import dom
from blockdensity.conf import Conf
from blockdensity.decode import Source

__all__ = [
    "NOSCRIPT_WORDS",
    "Parsed",
    "Reading",
    "closed_titles",
    "deferred_content",
    "hidden_content",
    "noscript_content",
    "parse",
]


class Reading(StrEnum):
    """How the page's markup was read."""

    SCRIPTING = "scripting"  # as a browser with scripting on reads it
    CLOSED_TITLES = "closed_titles"  # with its unclosed titles ended
    NOSCRIPT = "noscript"  # with its <noscript> content read as elements
    DEFERRED = "deferred"  # with a streaming renderer's deferred content shown
    HIDDEN = "hidden"  # with every hidden element shown


class Parsed(NamedTuple):
    """The parse stage's result: the tree, and what it was parsed from."""

    document: dom.Document
    markup: str | bytes  # what was parsed (bytes: UTF-8)
    regions: bool  # whether the scan marked the article profile's regions
    reading: Reading = Reading.SCRIPTING
    # Whether the page was longer than the element budget (nesting.NODE_LIMIT):
    # its end was not read.
    truncated: bool = False


def parse(source: Source, conf: Conf) -> Parsed:
    """`source`'s markup as a tree; the scan before the parse marks the regions that
    `conf`'s rules act on (blockdensity.nesting)."""
    regions = bool(conf.rules)
    document, truncated = dom.parse_page(source.markup, regions=regions)
    return Parsed(document, source.markup, regions, Reading.SCRIPTING, truncated)


def closed_titles(parsed: Parsed) -> Parsed | None:
    """The page with every <title> that holds markup ended at its first tag; None if none does."""
    repaired = _close_titles(_text(parsed.markup))
    return None if repaired is None else _reparse(parsed, repaired, Reading.CLOSED_TITLES)


# A <noscript> is read as the page's elements when its content has at least
# this many words outside tags, scripts and styles: a page's fallback view
# (Discourse's crawler view holds hundreds), not a "please enable JavaScript"
# line or a tracking pixel.
NOSCRIPT_WORDS: Final = 25
# A <noscript> element as a reading with scripting on tokenizes it: raw text
# up to the first </noscript> end tag. (An unclosed one never reaches here:
# the nesting bound takes its start tag out.)
_NOSCRIPT: Final = re.compile(
    r"<noscript\b[^>]*>(.*?)</noscript(?=[\s/>])", re.IGNORECASE | re.DOTALL
)
_NOSCRIPT_END: Final = re.compile(r"[^>]*>")
_NOT_TEXT: Final = re.compile(
    r"<(script|style|template)\b.*?</\1\s*>|<!--.*?-->|<[^>]*>", re.IGNORECASE | re.DOTALL
)
_WORD: Final = re.compile(r"\w+")


def noscript_content(parsed: Parsed) -> Parsed | None:
    """The page with the content of each <noscript> that holds markup with text (at least
    NOSCRIPT_WORDS words) in place of the element; None if no noscript does."""
    markup = _text(parsed.markup)
    pieces: list[str] = []
    at = 0
    for found in _NOSCRIPT.finditer(markup):
        content = found[1]
        if "<" not in content or not _has_words(_NOT_TEXT.sub(" ", content), NOSCRIPT_WORDS):
            continue
        end = _NOSCRIPT_END.match(markup, found.end())
        pieces += (markup[at : found.start()], content)
        at = end.end() if end is not None else len(markup)
    if not pieces:
        return None
    pieces.append(markup[at:])
    return _reparse(parsed, "".join(pieces), Reading.NOSCRIPT)


# React's deferred content: a hidden div with an id S:n, shown in the place
# of the template B:n.
_DEFERRED_PLACEHOLDER: Final = re.compile(r"""<template\s+id=["']?B:\d""", re.IGNORECASE)
_DIV_START: Final = re.compile(r"<div\b[^>]*>", re.IGNORECASE)
_DEFERRED_ID: Final = re.compile(r"""\sid=["']?S:\d+["'\s>]""", re.IGNORECASE)
_HIDDEN: Final = re.compile(
    r"""\shidden(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'>]+))?(?=[\s/>])""", re.IGNORECASE
)


def deferred_content(parsed: Parsed) -> Parsed | None:
    """The page with a streaming renderer's deferred content (`<div hidden id="S:n">`
    beside a `<template id="B:n">`) shown where it is; None if it has none."""
    markup = _text(parsed.markup)
    if _DEFERRED_PLACEHOLDER.search(markup) is None:
        return None
    shown = 0

    def show(tag: re.Match[str]) -> str:
        nonlocal shown
        start = tag[0]
        if _DEFERRED_ID.search(start) is None:
            return start
        unhidden = _HIDDEN.sub("", start)
        shown += unhidden != start
        return unhidden

    rewritten = _DIV_START.sub(show, markup)
    return _reparse(parsed, rewritten, Reading.DEFERRED) if shown else None


def hidden_content(parsed: Parsed) -> Parsed:
    """The page read with every hidden element shown but a pop-up's (the walk of a
    Reading.HIDDEN page shows them): for a page whose hidden elements hold most of its
    text (blockdensity.read, the article profile's hidden_text rule)."""
    return _reparse(parsed, _text(parsed.markup), Reading.HIDDEN)


def _has_words(text: str, count: int) -> bool:
    return next(islice(_WORD.finditer(text), count - 1, None), None) is not None


def _text(markup: str | bytes) -> str:
    return markup.decode("utf-8", "replace") if isinstance(markup, bytes) else markup


def _reparse(parsed: Parsed, markup: str, reading: Reading) -> Parsed:
    document, truncated = dom.parse_page(markup, regions=parsed.regions)
    return Parsed(document, markup, parsed.regions, reading, truncated)


_TITLE_OPEN: Final = re.compile(r"<title\b[^>]*>", re.IGNORECASE)
_TAG_START: Final = re.compile(r"<[A-Za-z!?]|</(?!title\b)", re.IGNORECASE)
_TITLE_CLOSE: Final = re.compile(r"</title\b", re.IGNORECASE)


def _close_titles(html: str) -> str | None:
    """`html` with every <title> whose text holds a tag ended before that tag; None if none does."""
    cuts: list[int] = []
    position = 0
    while (opening := _TITLE_OPEN.search(html, position)) is not None:
        tag = _TAG_START.search(html, opening.end())
        closing = _TITLE_CLOSE.search(html, opening.end())
        if tag is None:
            break
        if closing is None or tag.start() < closing.start():
            cuts.append(tag.start())
            position = tag.start()
        else:
            position = closing.end()
    if not cuts:
        return None
    parts: list[str] = []
    previous = 0
    for cut in cuts:
        parts += (html[previous:cut], "</title>")
        previous = cut
    parts.append(html[previous:])
    return "".join(parts)
