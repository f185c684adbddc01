"""The parse stage: the page's markup as lexbor's tree, and the other readings of a page.

A page is read as a browser with scripting on reads it (blockdensity.dom).
A page whose first reading gives the walk no text may read otherwise:
`rereadings` yields those other readings, most likely first, and the fit
walks the first (blockdensity.fit).

- An unclosed <title> swallows the whole page into the title (HTML5
  RCDATA), leaving an empty body: each title that holds markup is ended at
  its first tag and the page parsed again, which recovers it as the
  reference does.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final, NamedTuple

from blockdensity import dom
from blockdensity.conf import Conf
from blockdensity.decode import Source

__all__ = ["Parsed", "parse", "rereadings"]


class Parsed(NamedTuple):
    """The parse stage's result: the tree, and what it was parsed from."""

    document: dom.Document
    markup: str | bytes  # what was parsed (bytes: UTF-8)
    regions: bool  # whether the scan marked the article profile's regions


def parse(source: Source, conf: Conf) -> Parsed:
    """`source`'s markup as a tree; the scan before the parse marks the regions that
    `conf`'s rules act on (blockdensity.nesting)."""
    regions = bool(conf.rules)
    return Parsed(dom.parse(source.markup, regions=regions), source.markup, regions)


def rereadings(parsed: Parsed) -> Iterator[Parsed]:
    """The other readings of a page whose first reading has no text, most likely first."""
    markup = parsed.markup
    source = markup.decode("utf-8", "replace") if isinstance(markup, bytes) else markup
    repaired = _close_titles(source)
    if repaired is not None:
        yield Parsed(dom.parse(repaired, regions=parsed.regions), repaired, parsed.regions)


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
