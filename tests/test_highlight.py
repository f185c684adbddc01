"""--highlight (blockdensity.highlight): the page with every block marked by its decision.

`highlight` is called directly and its output parsed back: each text node of
a block sits in a <mark> whose class is the block's decision and whose title
gives its figures; a legend on top gives the fit's counts; active content is
gone; the page's own text is unchanged. The figures must be the fit's, bytes
decoded exactly as `fit_text` decodes them.
"""

from __future__ import annotations

import re

from blockdensity import dom, fit_text, html_to_text
from blockdensity.highlight import highlight
from tests.helpers import NO_DROPS, page, seq

ARTICLE = page(
    "<nav><a href=#>n01</a> <a href=#>n02</a></nav>"
    f"<h1>h01 h02</h1><p>{seq('a', 1, 20)} <b>bold01</b> a21</p>"
    "<ul><li><a href=#>l01</a></li><li><a href=#>l02</a></li></ul>"
    f"<p>{seq('b', 1, 20)}</p><footer><p>{seq('f', 1, 20)}</p></footer>"
)


def marks(html: str) -> list[tuple[str, str, str]]:
    """(class, title, text) of every block mark (the legend's marks have no title)."""
    doc = dom.parse(html)
    assert doc.body is not None
    return [
        (node.attrs["class"] or "", node.attrs["title"] or "", node.text())
        for node in dom.select(doc.body, "mark[title]")
    ]


def legend(html: str) -> str:
    node = dom.parse(html).css_first("#bd-legend")
    assert node is not None
    return node.text()


def by_block(html: str) -> list[tuple[str, str, str]]:
    """(class, title, text) per block, in block order: the text of its marks, whitespace
    collapsed (the whitespace-only text between two marks is in none)."""
    blocks: dict[int, tuple[str, str, list[str]]] = {}
    for cls, title, text in marks(html):
        found = re.match(r"block (\d+) ", title)
        assert found is not None, title
        entry = blocks.setdefault(int(found[1]), (cls, title, []))
        assert entry[:2] == (cls, title)  # one class and one title per block
        entry[2].append(text)
    return [
        (cls, title, " ".join(" ".join(parts).split()))
        for cls, title, parts in (blocks[index] for index in sorted(blocks))
    ]


def marked_blocks(html: str) -> list[tuple[str, str]]:
    """(class, text) per block."""
    return [(cls, text) for cls, _, text in by_block(html)]


def block_titles(html: str) -> list[str]:
    return [title for _, title, _ in by_block(html)]


# --------------------------------------------------------------------------- marks


def test_every_block_is_marked_with_its_decision() -> None:
    # The nav (2/2) is link dense, and dropped. h01 h02 follows it (ld 1.0):
    # 2 <= 40, next 22 > 17: content. The a paragraph: 22 > 16: content. Each
    # list item (1/1) is link dense. The b paragraph follows one (ld 1.0):
    # 20 <= 40, next 20 > 17: content. The footer (20 > 16) is content, but
    # dropped: 20 of the 64 content words is not more than half.
    assert marked_blocks(highlight(ARTICLE)) == [
        ("bd-dropped", "n01 n02"),
        ("bd-content", "h01 h02"),
        ("bd-content", f"{seq('a', 1, 20)} bold01 a21"),
        ("bd-boilerplate", "l01"),
        ("bd-boilerplate", "l02"),
        ("bd-content", seq("b", 1, 20)),
        ("bd-dropped", seq("f", 1, 20)),
    ]


def test_the_marks_agree_with_the_fit() -> None:
    classes = {"content": "bd-content", "boilerplate": "bd-boilerplate", "dropped": "bd-dropped"}
    fitted = fit_text(ARTICLE)
    marked = marked_blocks(highlight(ARTICLE))
    assert [cls for cls, _ in marked] == [classes[b.decision.value] for b in fitted.blocks]
    assert [text for _, text in marked] == [" ".join(b.text.split()) for b in fitted.blocks]


def test_each_text_node_of_a_block_has_its_own_mark() -> None:
    found = marks(highlight(page(f"<p>{seq('a', 1, 3)} <b>bold</b> tail</p>")))
    assert [text for _, _, text in found] == [f"{seq('a', 1, 3)} ", "bold", " tail"]
    assert len({title for _, title, _ in found}) == 1


def test_the_mark_title_gives_the_block_figures() -> None:
    titles = block_titles(highlight(ARTICLE))
    assert titles[0] == (
        "block 0 <nav>: dropped (semantic_drop), 2 words, 2 in links, "
        "link density 1000\u2030, inside nav"
    )
    assert titles[2] == "block 2 <p>: content (long), 22 words, 0 in links, link density 0\u2030"
    assert titles[3] == (
        "block 3 <li>: boilerplate (link_dense), 1 words, 1 in links, link density 1000\u2030"
    )


def test_the_configuration_decides_the_marks() -> None:
    classes = [cls for cls, _ in marked_blocks(highlight(ARTICLE, NO_DROPS))]
    assert "bd-dropped" not in classes
    assert classes[-1] == "bd-content"  # the footer's 20 words: long


# --------------------------------------------------------------------------- the page around


def test_the_legend_gives_the_fit_counts() -> None:
    text = legend(highlight(ARTICLE))
    # Kept: h01 h02 (2), the a paragraph (22), the b paragraph (20), of
    # 2 + 2 + 22 + 1 + 1 + 20 + 20 = 68 words.
    assert "3 of 7 blocks kept, 44 of 68 words" in text
    assert "fallback" not in text


def test_the_legend_names_a_fallback() -> None:
    text = legend(highlight(page(f"<p>{seq('a', 1, 5)}</p>")))
    assert "1 of 1 blocks kept, 5 of 5 words" in text
    assert "fallback: single_block" in text


def test_the_style_goes_into_the_head_and_the_legend_first_in_the_body() -> None:
    doc = dom.parse(highlight(ARTICLE))
    style = doc.css_first("head style")
    assert style is not None
    assert "mark.bd-content" in style.text()
    assert doc.body is not None
    first = doc.body.child
    assert first is not None
    assert first.attrs.get("id") == "bd-legend"


def test_active_content_is_removed() -> None:
    html = page(
        f"<p>{seq('a', 1, 20)}</p><script>alert(1)</script><iframe src=x></iframe>"
        "<object data=x></object><embed src=x><noscript>n</noscript>",
        head="<title>t</title><base href=http://evil.example/><meta http-equiv=refresh content=0>",
    )
    doc = dom.parse(highlight(html))
    for name in ("script", "iframe", "object", "embed", "noscript", "base", "meta"):
        assert doc.css_first(name) is None, name


def test_the_page_text_is_unchanged_but_for_the_legend() -> None:
    """Marks are inline: the page renders as before, with the legend as its first line."""
    rendered = html_to_text(highlight(ARTICLE)).split("\n")
    assert rendered[0].startswith("blockdensity: 3 of 7 blocks kept")
    assert rendered[1:] == html_to_text(ARTICLE).split("\n")


def test_a_page_without_blocks_gets_the_legend_alone() -> None:
    out = highlight("")
    assert marks(out) == []
    assert "0 of 0 blocks kept, 0 of 0 words, fallback: no_text" in legend(out)


# --------------------------------------------------------------------------- bytes


CAFE_WORDS = " ".join(f"caf\u00e9{number:02d}" for number in range(20))
CAFE_PAGE = (
    "<html><head><meta charset=windows-1252><title>t</title></head><body>"
    f"<p>{CAFE_WORDS}</p><p>{seq('b', 1, 20)}</p></body></html>"
)


def test_bytes_are_decoded_with_the_charset_given() -> None:
    data = CAFE_PAGE.replace("windows-1252", "utf-8").encode("cp1252")
    out = highlight(data, charset="windows-1252")
    assert marked_blocks(out)[0][1] == CAFE_WORDS
    assert "40 of 40 words" in legend(out)


def test_the_figures_are_those_of_the_fit_when_a_charset_says_utf8() -> None:
    """The HTTP charset (utf-8) beats the page's <meta> (windows-1252), for the figures too."""
    data = CAFE_PAGE.encode("utf-8")
    fitted = fit_text(data, charset="utf-8")
    assert fitted.words_total == 40  # caf\u00e900 to caf\u00e919: one word each
    out = highlight(data, charset="utf-8")
    assert marked_blocks(out)[0][1] == CAFE_WORDS
    assert f"{fitted.words_kept} of {fitted.words_total} words" in legend(out)


def test_the_figures_are_those_of_the_fit_when_a_bom_says_utf8() -> None:
    """A UTF-8 byte order mark beats the page's <meta> (windows-1252), for the figures too."""
    data = b"\xef\xbb\xbf" + CAFE_PAGE.encode("utf-8")
    fitted = fit_text(data)
    assert fitted.words_total == 40
    out = highlight(data)
    assert f"{fitted.words_kept} of {fitted.words_total} words" in legend(out)
    assert ", 20 words," in block_titles(out)[0]
