"""The targets of the links in a page's blocks, for Markdown's links (Conf.markdown_links).

The walk marks each <a>'s edges in a block's text (segment.ANCHOR_MARK, in
pairs within every block) but keeps no attribute. Asked for links, the
page is walked again with a trace (traced_walk: which block each text node
went to; Markdown's images read the same trace, blockdensity.mdimages):
each text node's nearest <a> says which link its text is in, and its href
where the link goes. A block's marked spans with words pair up, in order,
with the links its text nodes are in; a block where they do not (the same
links, the same text) renders without links, as the text does. A link
without an href renders as its text.

Only the blocks the Markdown renders (the kept ones and the comments) are
paired, and a target is resolved against the page's URL once the block's
links have paired: a page's navigation holds most of its links, and
resolving them all cost more than the fit (78% of it on WCXB's pages).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Final
from urllib.parse import urljoin

from blockdensity import dom
from blockdensity.conf import Conf
from blockdensity.parse import Parsed
from blockdensity.segment import (
    ANCHOR_MARK,
    BLOCK_END,
    BREAK_MARK,
    SUB_CLOSE,
    SUB_OPEN,
    Page,
    Trace,
    walk,
)

__all__ = ["Links", "link_targets", "resolve", "traced_walk"]

_A: Final = dom.tag_id("a")

# Per block with links: its raw text (anchor marks kept, sup/sub marks gone)
# and the target of each span with words, in order.
Links = dict[int, tuple[str, list[str]]]


def resolve(url: str | None, href: str) -> str:
    """`href` resolved against the page's `url`; as it is when there is no URL, or when
    urljoin cannot read it (e.g. a bracketed host that is no IP address, which raises)."""
    if not url or not href:
        return href
    try:
        return urljoin(url, href)
    except ValueError:
        return href


def traced_walk(page: Page, parsed: Parsed, conf: Conf) -> Trace:
    """The block of every text node of `page` (as `walk` made it from `parsed` under
    `conf`), walked again; empty if the walk does not give the same page."""
    trace: Trace = []
    again = walk(parsed, conf, trace)
    if again.text != page.text:
        return []  # not the page the fit read: no links or images rather than wrong ones
    return trace


def link_targets(page: Page, trace: Trace, url: str | None, blocks: Collection[int]) -> Links:
    """The links of `page`'s `blocks` (`trace`: the block of each text node, traced_walk):
    per block whose spans pair up with its links, its raw text and their targets."""
    if ANCHOR_MARK not in page.text:
        return {}
    anchors: dict[int, list[tuple[int, str, list[str]]]] = {}
    for block, node in trace:
        if block not in blocks:
            continue
        anchor = node.parent
        while anchor is not None and anchor.tag_id != _A:
            anchor = anchor.parent
        if anchor is None:
            continue
        runs = anchors.setdefault(block, [])
        if not runs or runs[-1][0] != anchor.mem_id:
            href = (anchor.attrs.get("href") or "").strip()
            runs.append((anchor.mem_id, href, []))
        runs[-1][2].append(node.text(deep=False))
    raw = page.text.replace(SUB_OPEN, "").replace(SUB_CLOSE, "").split(BLOCK_END)
    found: Links = {}
    resolved: dict[str, str] = {}
    for block, runs in anchors.items():
        # Compared without whitespace: the trace does not say what stood between
        # two text nodes (a <br>, a separating element).
        spans = [
            "".join(span.replace(BREAK_MARK, "").split())
            for span in raw[block].split(ANCHOR_MARK)[1::2]
        ]
        spans = [span for span in spans if span]
        links = [(href, "".join("".join(texts).split())) for _, href, texts in runs]
        links = [(href, text) for href, text in links if text]
        if [text for _, text in links] == spans:
            targets = []
            for href, _ in links:
                if (target := resolved.get(href)) is None:
                    target = resolved[href] = resolve(url, href)
                targets.append(target)
            found[block] = (raw[block], targets)
    return found
