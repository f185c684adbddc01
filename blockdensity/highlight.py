"""--highlight: the page with every block marked by what the fit decided.

Each text node of a block is wrapped in a <mark> coloured by the block's
decision (kept, boilerplate, dropped by a semantic element), with the block's
figures in its title attribute, and a legend is put at the top of the body.
Scripts and other active content are removed so the file is safe to open.
Pure: takes and returns strings; the CLI writes the file.
"""

from __future__ import annotations

from typing import Final

from blockdensity.conf import DEFAULT_CONF, Conf
from blockdensity.decode import prepare_html
from blockdensity.fit import fit_text
from blockdensity.result import Decision
from blockdensity.segment import Trace, trace_segment

__all__ = ["highlight"]

_CLASSES: Final = {
    Decision.CONTENT: "bd-content",
    Decision.BOILERPLATE: "bd-boilerplate",
    Decision.DROPPED: "bd-dropped",
}
_STYLE: Final = """
mark.bd-content { background: #c8f7c5; color: #000; }
mark.bd-boilerplate { background: #f7c5c5; color: #000; text-decoration: line-through; }
mark.bd-dropped { background: #d9d9d9; color: #555; text-decoration: line-through; }
#bd-legend { position: sticky; top: 0; z-index: 2147483647; background: #fff; color: #000;
  font: 14px/1.5 sans-serif; padding: .5em 1em; border-bottom: 2px solid #333; }
#bd-legend mark { padding: 0 .3em; }
"""
# Never useful in a static page to look at, and unsafe to run from a file.
_ACTIVE: Final = ("script", "iframe", "object", "embed", "noscript", "base", "meta")


def highlight(html: str | bytes, conf: Conf | None = None, *, charset: str | None = None) -> str:
    """The page as HTML with every block marked by its decision and a legend on top."""
    conf = conf or DEFAULT_CONF
    # The fit decodes the bytes itself, with the same charset: what it counts
    # is what the marks show (prepare_html's result may still be bytes, UTF-8,
    # which a second decoding without the charset could read otherwise).
    fit = fit_text(html, conf, charset=charset)
    if isinstance(html, bytes):
        html, _ = prepare_html(html, charset)
    trace: Trace = []
    _, doc = trace_segment(html, conf, trace)  # the same blocks as the fit's
    blocks = fit.blocks
    for index, node in trace:
        if index >= len(blocks):
            continue
        block = blocks[index]
        mark = doc.create_node("mark")
        mark.attrs["class"] = _CLASSES[block.decision]
        mark.attrs["title"] = (
            f"block {block.index} <{block.element}>: {block.decision} ({block.reason}), "
            f"{block.words} words, {block.link_words} in links, "
            f"link density {block.link_density}\u2030"
            + (f", inside {block.scope}" if block.scope else "")
        )
        node.insert_before(mark, move=True)
        mark.insert_child(node, move=True)
    for name in _ACTIVE:
        for node in doc.css(name):
            node.decompose()
    legend = (
        '<div id="bd-legend"><b>blockdensity</b>: '
        f"{fit.blocks_kept} of {fit.blocks_total} blocks kept, "
        f"{fit.words_kept} of {fit.words_total} words"
        + (f", <b>fallback: {fit.fallback_reason}</b>" if fit.fallback_reason else "")
        + ' &mdash; <mark class="bd-content">kept</mark> '
        '<mark class="bd-boilerplate">boilerplate</mark> '
        '<mark class="bd-dropped">dropped by a semantic element</mark> '
        "(hover a block for its figures)</div>"
    )
    head = doc.head
    if head is not None:
        style = doc.create_node("style")
        style.insert_child(_STYLE)
        head.insert_child(style, move=True)
    body = doc.body
    rendered = doc.html or ""
    if body is not None and "<body" in rendered:
        opening = rendered.index("<body")
        opening = rendered.index(">", opening) + 1
        rendered = rendered[:opening] + legend + rendered[opening:]
    if head is None:
        rendered = f"<style>{_STYLE}</style>" + rendered
    return rendered
