"""How the fit reads a page: parsed, walked, measured, and read again when it shows no text.

A page is read as a browser with scripting on reads it (blockdensity.parse).
A page that shows no block, or fewer than REREAD_WORDS words, is read the
other ways it can be (`reread`): with its unclosed titles ended (both
profiles), then, under the article profile, with its <noscript> content
read as elements, or a streaming renderer's deferred content shown
(blockdensity.parse says why each). Under the article profile, a page whose
hidden elements may hold as many words as it shows is also read with them
shown (the hidden_text rule), and that reading is taken when it shows at
least twice the words. The fit (blockdensity.fit), the
renderer of a whole page (render.html_to_text) and --highlight's trace
(segment.trace_segment) read a page alike, through `read` or `reread`, so
the identities of docs/spec.md section 1 hold for the reading taken.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from blockdensity.conf import Conf, Profile
from blockdensity.decode import Source
from blockdensity.measure import Measures, measure
from blockdensity.parse import (
    Parsed,
    closed_titles,
    deferred_content,
    hidden_content,
    noscript_content,
    parse,
)
from blockdensity.segment import Page, Trace, walk

__all__ = ["REREAD_WORDS", "Read", "needs_rereading", "read", "reread"]

# A page that shows fewer words than this is read the other ways it can be:
# the readings a crawler's pages need when a browser's reading with scripting
# on shows (almost) nothing. A reading is taken when it shows at least this
# many words and twice the first reading's.
REREAD_WORDS: Final = 50
_REREADINGS: Final = (noscript_content, deferred_content)


class Read(NamedTuple):
    """A page as read: its tree, its blocks, their words."""

    parsed: Parsed
    page: Page
    measures: Measures


def needs_rereading(page: Page, measures: Measures) -> bool:
    """Whether the first reading shows no block, or fewer than REREAD_WORDS words, or
    its hidden elements may hold as many words as it shows (the hidden_text rule)."""
    shown = sum(measures.words)
    return not page.blocks or shown < REREAD_WORDS or _may_hide_its_text(page, shown)


def _may_hide_its_text(page: Page, shown: int) -> bool:
    """Whether the hidden elements of `page`, which shows `shown` words, may hold as many:
    the characters under them bound their words (Page.hidden_text)."""
    return page.hidden_text >= max(shown, 1)


def read(source: Source, conf: Conf, trace: Trace | None = None) -> Read:
    """`source` parsed, walked and measured under `conf`, read again if it shows (almost)
    no text; with `trace`, the walk of the reading taken fills it (--highlight)."""
    parsed = parse(source, conf)
    page = walk(parsed, conf, trace)
    measures = measure(page)
    if needs_rereading(page, measures):
        return reread(Read(parsed, page, measures), conf, trace)
    return Read(parsed, page, measures)


def reread(first: Read, conf: Conf, trace: Trace | None = None) -> Read:
    """A page whose first reading shows no text, or almost none, read the other ways it
    can be, walked and measured: rare, so only such pages pay.

    A page without a block whose titles hold markup is read with them closed,
    whatever that shows (both profiles); then, under the article profile, a
    page still showing fewer than REREAD_WORDS words takes the first other
    reading that shows more. `trace`, when given, is left holding the trace of
    the reading taken.
    """
    taken = first
    if not first.page.blocks and (closed := closed_titles(first.parsed)) is not None:
        taken = _walked(closed, conf, trace)
    shown = sum(taken.measures.words)
    if conf.profile is not Profile.ARTICLE:
        return taken
    if shown < REREAD_WORDS:
        for other_reading in _REREADINGS:
            reading = other_reading(taken.parsed)
            if reading is not None and (other := _better(reading, conf, shown, trace)):
                return other
    # A page whose hidden elements hold as many words as the rest of it: most
    # pages with hidden elements (menus, dialogs, a cookie notice) cannot, and pay
    # no second reading.
    if _may_hide_its_text(taken.page, shown) and (
        other := _better(hidden_content(taken.parsed), conf, shown, trace)
    ):
        return other
    return taken


def _better(reading: Parsed, conf: Conf, shown: int, trace: Trace | None) -> Read | None:
    """`reading` walked and measured when it shows at least REREAD_WORDS words and twice
    the `shown` of the reading taken so far (then `trace`, when given, holds its trace);
    else None."""
    other_trace: Trace | None = [] if trace is not None else None
    other = _walked(reading, conf, other_trace)
    if sum(other.measures.words) < max(REREAD_WORDS, 2 * shown):
        return None
    if trace is not None and other_trace is not None:
        trace[:] = other_trace
    return other


def _walked(parsed: Parsed, conf: Conf, trace: Trace | None) -> Read:
    if trace is not None:
        trace.clear()
    page = walk(parsed, conf, trace)
    return Read(parsed, page, measure(page))
