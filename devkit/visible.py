"""What a reader's browser shows of a page, found without the fit: the yardstick of "visible text".

A page's visible text is the text of its `<body>` as lexbor builds the tree
for a browser with scripting on (every browser a reader uses), after taking
out the elements that show nothing: those docs/spec.md section 2 removes (script,
style, noscript, template, svg, math, option, object, embed, applet, iframe,
noembed, noframes, title, head) and every element with the `hidden`
attribute. It is selectolax's own `text()` of what is left: nothing of the
fit's walk, tag table, nesting bound, word rule or renderer is used, so it
can check them. "No page whose visible text is non-empty returns an empty
text" (tests/test_visible.py, bench.robustness) compares the two.
"""

from __future__ import annotations

from selectolax.lexbor import LexborHTMLParser

from blockdensity.elements import REMOVED

__all__ = ["has_visible_text", "visible_text"]

_NOT_SHOWN = ",".join([*sorted(REMOVED), "[hidden]"])


def visible_text(html: str) -> str:
    """The text a browser with scripting on shows of `html`'s body (whitespace kept as is)."""
    document = LexborHTMLParser(html, scripting=True)
    body = document.body
    if body is None:
        return ""
    # In document order: an element inside one already removed goes again,
    # harmlessly (lexbor detaches it twice from a tree it is no longer in).
    for node in body.css(_NOT_SHOWN):
        node.decompose()
    return body.text(deep=True, separator=" ")


def has_visible_text(html: str) -> bool:
    """True when a browser shows `html` any character that is not whitespace (str.isspace)."""
    text = visible_text(html)
    return bool(text) and not text.isspace()
