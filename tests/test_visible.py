"""No page whose visible text is non-empty returns an empty text.

"Visible text" is devkit.visible's: what a browser with scripting on shows of
the page's body (selectolax's own text of lexbor's tree, the removed and
hidden elements taken out), found without the fit. docs/spec.md section 6 promises a
filter that never empties a page; this holds it to that on every page of the
development corpus's sample (tests/corpus) and on generated tag soup.
"""

from __future__ import annotations

import gzip
from pathlib import Path

from hypothesis import example, given

from blockdensity import PUBLISHED_CONF, fit_text
from blockdensity.decode import decode_html
from devkit.corpus import SAMPLE_DATA
from devkit.visible import has_visible_text
from tests.test_properties import PROFILE, SOUP_EXAMPLES, tag_soup

CORPUS_PAGES = sorted(SAMPLE_DATA.glob("*/html/*.html.gz"))  # the sample (tests/corpus)
# The sample's pages that show no text: two Discourse forum threads (wcxb-dev),
# whose posts come in the page's preloaded data for its script to draw; the HTML
# itself shows a splash screen.
SHOW_NO_TEXT = {"wcxb-dev/4147", "wcxb-dev/4607"}


def empty_although_visible(html: str) -> list[str]:
    """The profiles whose fit returns an empty text for `html` although it shows text."""
    if not has_visible_text(html):
        return []
    return [
        name
        for name, conf in (("published", PUBLISHED_CONF), ("article", None))
        if not (fit_text(html, conf) if conf else fit_text(html)).text
    ]


def test_no_corpus_page_with_visible_text_comes_back_empty() -> None:
    empty: dict[str, list[str]] = {}
    invisible = set()
    for path in CORPUS_PAGES:
        name = f"{path.parent.parent.name}/{Path(path.stem).stem}"
        html, _ = decode_html(gzip.decompress(path.read_bytes()))
        if not has_visible_text(html):
            invisible.add(name)
        if found := empty_although_visible(html):
            empty[name] = found
    assert len(CORPUS_PAGES) >= 180  # every set's pages
    assert empty == {}
    assert invisible == SHOW_NO_TEXT  # every other page shows text: the check sees them


@PROFILE
@given(tag_soup())
@example('<body><noscript><div id="x"></noscript><p>a01 a02</p><p>b01 b02 b03</p>')
@example("<noscript><p>x01</noscript><p>y01</p>")
@example("<head><noscript><img src=x></noscript><title>t</title></head><p>z01</p>")
def test_no_generated_page_with_visible_text_comes_back_empty(soup: str) -> None:
    assert empty_although_visible(soup) == []


def test_no_hand_picked_awkward_page_with_visible_text_comes_back_empty() -> None:
    for soup in SOUP_EXAMPLES:
        assert empty_although_visible(soup) == [], soup
