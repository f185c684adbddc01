"""html_to_text: the one renderer (docs/spec.md section 1).

Every block boundary ends a line, <br> breaks a line inside a block, runs of
Unicode whitespace collapse to one space (verbatim inside <pre>, where only
trailing whitespace goes), no line is empty and none has leading or trailing
whitespace. The fit renders its kept blocks through `render_blocks` and nothing
else, so a page whose every block is kept renders byte for byte as
`html_to_text` renders it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from blockdensity import _text
from blockdensity.conf import DEFAULT_CONF, Comments, Conf
from blockdensity.decide import Verdict
from blockdensity.decode import decode
from blockdensity.read import read
from blockdensity.segment import BREAK_MARK, PRE, BlockInfo, Page

__all__ = ["Rendered", "block_lines", "html_to_text", "render", "render_blocks"]


class Rendered(NamedTuple):
    """The render stage's result."""

    text: str  # the kept blocks' text
    comments: str | None  # the user comments' text, apart (Fit.comments), or None


def render(page: Page, verdict: Verdict, comments: Comments) -> Rendered:
    """The render stage: the text of the blocks `verdict` keeps, and of the comments it
    took from the article (with INCLUDE, after the text too; with DROP, nowhere)."""
    blocks = page.blocks
    kept = verdict.kept
    text = render_blocks([blocks[index] for index in kept], page.texts_at(kept))
    found = verdict.comments
    if not found or comments is Comments.DROP:
        return Rendered(text, None)
    comments_text = render_blocks([blocks[index] for index in found], page.texts_at(found))
    if comments is Comments.INCLUDE:
        text = f"{text}\n{comments_text}" if text else comments_text
    return Rendered(text, comments_text or None)


def html_to_text(html: str | bytes, conf: Conf | None = None, *, charset: str | None = None) -> str:
    """The text of a whole page, as the fit under `conf` (the default fit when None) would
    return it with every block kept: the page read as that fit reads it
    (blockdensity.read), with its boundaries."""
    conf = (conf or DEFAULT_CONF).without_drops()
    page = read(decode(html, charset), conf).page
    return render_blocks(page.blocks, page.block_texts())


def render_blocks(blocks: Iterable[BlockInfo], texts: Iterable[str]) -> str:
    """The text of `blocks`, in order, one line per block (more where <br> breaks it)."""
    lines: list[str] = []
    # Consecutive one-line blocks, collapsed together: each text's whitespace runs
    # made one space, its ends stripped, one line each, in one pass over all of
    # them (blockdensity._text.collapse).
    plain: list[str] = []
    for block, text in zip(blocks, texts, strict=True):
        if not block[PRE] and BREAK_MARK not in text:
            plain.append(text)
            continue
        if plain:
            lines.append(_text.collapse(plain))
            plain = []
        lines += block_lines(block, text)
    if plain:
        lines.append(_text.collapse(plain))
    return "\n".join(line for line in lines if line)


def block_lines(block: BlockInfo, text: str) -> list[str]:
    """The non-empty lines of one block; `text` is from `Page.block_texts`."""
    if not block[PRE]:
        if BREAK_MARK not in text:  # the common case: one line
            line = " ".join(text.split())
            return [line] if line else []
        return [line for part in text.split(BREAK_MARK) if (line := " ".join(part.split()))]
    # Inside <pre> the text is verbatim: only trailing whitespace goes.
    text = text.replace(BREAK_MARK, "\n")
    return [line.rstrip() for line in text.split("\n") if line and not line.isspace()]
