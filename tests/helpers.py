"""Helpers the library tests share: pages built from a body, and the figures of a fit.

`seq("a", 1, 16)` is docs/spec.md section 8's `{a01..a16}`. `page` wraps a body in a
whole document; `fit` fits one; `measures`, `decisions` and `texts` read
one column of a fit's block records; `only` is a configuration with a
single boundary element, so that a test can show that one element, and no
other, ends a block. SPEC_BOUNDARIES and SPEC_INLINE are docs/spec.md section 2's
lists, written out here rather than read from the library, which they check.
"""

from __future__ import annotations

from blockdensity import DEFAULT_CONF, Conf, Decision, Fit, fit_text, html_to_text
from blockdensity.segment import Page, segment

__all__ = [
    "NO_DROPS",
    "B",
    "C",
    "D",
    "decisions",
    "fit",
    "measures",
    "only",
    "page",
    "render",
    "segmented",
    "seq",
    "texts",
]

C = Decision.CONTENT
B = Decision.BOILERPLATE
D = Decision.DROPPED

NO_DROPS = DEFAULT_CONF.without_drops()

# docs/spec.md section 2: the seed's boundary list.
SPEC_BOUNDARIES = [
    "p", "div", "li", "h1", "h2", "h3", "h4", "h5", "h6", "section", "article", "aside", "nav",
    "header", "footer", "main", "table", "tr", "td", "th", "blockquote", "pre", "ul", "ol", "dl",
    "dt", "dd", "figure", "figcaption", "form", "hr", "body",
]  # fmt: skip

# docs/spec.md section 2: inline elements never split a block and never split a word
# (wbr, a void element, is left to its own tests).
SPEC_INLINE = [
    "a", "abbr", "acronym", "b", "bdi", "bdo", "cite", "code", "data", "del", "dfn", "em",
    "font", "i", "ins", "kbd", "mark", "q", "s", "samp", "small", "span", "strike", "strong",
    "sub", "sup", "time", "tt", "u", "var",
]  # fmt: skip

# For each boundary, markup around "y01 y02" in which only that element can
# end a block: every other element there is a non-boundary under `only()`.
BOUNDARY_CONTEXT = {
    **{name: f"<{name}>y01 y02</{name}>" for name in SPEC_BOUNDARIES},
    "table": "<table><tr><td>y01 y02</td></tr></table>",
    "tr": "<table><tr><td>y01 y02</td></tr></table>",
    "td": "<table><tr><td>y01 y02</td></tr></table>",
    "th": "<table><tr><th>y01 y02</th></tr></table>",
    "li": "<ul><li>y01 y02</li></ul>",
    "ul": "<ul><li>y01 y02</li></ul>",
    "ol": "<ol><li>y01 y02</li></ol>",
    "dl": "<dl><dd>y01 y02</dd></dl>",
    "dt": "<dl><dt>y01 y02</dt></dl>",
    "dd": "<dl><dd>y01 y02</dd></dl>",
    "figcaption": "<figure><figcaption>y01 y02</figcaption></figure>",
}


def seq(prefix: str, first: int, last: int) -> str:
    """The words `prefix`+NN from `first` to `last`, space separated (SPEC's `{a01..a16}`)."""
    return " ".join(f"{prefix}{number:02d}" for number in range(first, last + 1))


def page(body: str, head: str = "<title>t</title>") -> str:
    """A whole HTML5 document around `body`."""
    return f"<!DOCTYPE html><html><head>{head}</head><body>{body}</body></html>"


def fit(body: str, conf: Conf | None = None) -> Fit:
    """The fit of the page around `body`."""
    return fit_text(page(body), conf)


def render(body: str) -> str:
    """The renderer's text of the page around `body`."""
    return html_to_text(page(body))


def segmented(body: str, conf: Conf = DEFAULT_CONF) -> Page:
    """The segmentation of the page around `body` (the walk alone, before any counting)."""
    return segment(page(body), conf)


def measures(result: Fit) -> list[tuple[int, int]]:
    """(words, link words) of every block."""
    return [(b.words, b.link_words) for b in result.blocks]


def decisions(result: Fit) -> list[Decision]:
    return [b.decision for b in result.blocks]


def texts(result: Fit) -> list[str]:
    return [b.text for b in result.blocks]


def only(boundary: str) -> Conf:
    """A configuration whose only boundary is `boundary`, and no semantic drops."""
    return Conf(boundaries=frozenset({boundary}), drop_elements=frozenset(), drop_roles=frozenset())
