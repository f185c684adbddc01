"""The parser wrapper (blockdensity.dom): parsing, tag ids, and the guard around lexbor.

`parse`, `tag_id`, `is_static_tag_id` and `select` are called directly. The
guard replaces the two character references that overflow lexbor's buffer
(RELIABILITY.md) before lexbor sees them; a regression there aborts the
process, so that case runs in a child process.
"""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from blockdensity import dom
from blockdensity._growing_references import has_growing_reference


def body_text(html: str | bytes) -> str:
    body = dom.parse(html).body
    assert body is not None
    return body.text()


def test_str_and_utf8_bytes_parse_alike() -> None:
    html = "<p>caf\u00e9 <b>\u65e5\u672c</b></p>"
    assert body_text(html) == body_text(html.encode()) == "caf\u00e9 \u65e5\u672c"


def test_invalid_utf8_becomes_the_replacement_character() -> None:
    assert body_text(b"<p>a\xffb</p>") == "a\ufffdb"


def test_lone_surrogates_in_a_str_are_dropped() -> None:
    assert body_text("<p>a\ud800b</p>") == "ab"


def test_html5_tree_construction_fixes_the_markup() -> None:
    """A <p> closes the <p> before it; a <table> closes one too, but not in quirks mode."""
    for doctype, texts in (("<!DOCTYPE html>", ["one", "two"]), ("", ["one", "twocell"])):
        doc = dom.parse(f"{doctype}<p>one<p>two<table><td>cell</table>")
        assert doc.head is not None
        assert doc.body is not None
        assert [node.text() for node in dom.select(doc.body, "p")] == texts
        assert [node.text() for node in dom.select(doc.body, "table td")] == ["cell"]


@pytest.mark.parametrize(
    ("html", "text"),
    [
        ("<p>&nGt; &nLt;</p>", "\u226b\u20d2 \u226a\u20d2"),
        ("<p>x&nGt;y</p>", "x\u226b\u20d2y"),
        ("<p>&nGt &NGT;</p>", "&nGt &NGT;"),  # no such references: text as written
    ],
)
def test_growing_references_become_the_characters_they_stand_for(html: str, text: str) -> None:
    assert body_text(html) == text
    assert body_text(html.encode()) == text


# Bytes made of the references' own pieces, so that near misses are common.
_PIECES = st.lists(st.sampled_from([b"&", b"n", b"G", b"L", b"t", b";", b"&nGt;", b"x", b"\xe2"]))


@given(st.builds(b"".join, _PIECES))
@example(b"&nGt;")
@example(b"&nLt")  # cut short at the end
@example(b"&&nLt;")
@example(b"&nlt;&ngt;&NGt;")
def test_the_compiled_finder_answers_as_the_expression(data: bytes) -> None:
    expected = re.search(rb"&n[GL]t;", data) is not None
    assert has_growing_reference(data) is expected


def test_growing_references_in_attribute_values_too() -> None:
    node = dom.parse('<p title="a&nLt;b">x</p>').css_first("p")
    assert node is not None
    assert node.attrs["title"] == "a\u226a\u20d2b"


def test_thousands_of_growing_references_do_not_abort_the_parser() -> None:
    probe = (
        "from blockdensity import dom\n"
        "for n in (4095, 4096, 8191, 20000):\n"
        "    body = dom.parse('<p>' + '&nGt;' * n + '&nLt;' * n).body\n"
        "    assert body is not None and len(body.text()) == 4 * n\n"
        "print('ok')\n"
    )
    run = subprocess.run(  # noqa: S603 - our own interpreter, our own code
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=False
    )
    assert (run.returncode, run.stdout.strip()) == (0, "ok"), run.stderr


def test_selected_option_text_is_not_copied_into_the_page() -> None:
    """Without mutation events <selectedcontent> stays empty: option text is never page text."""
    html = "<p>x</p><select><button><selectedcontent></selectedcontent></button>"
    html += "<option>secret</option></select>"
    node = dom.parse(html).css_first("selectedcontent")
    assert node is not None
    assert node.text() == ""


def test_tag_ids_of_known_names_are_static_and_distinct() -> None:
    ids = {name: dom.tag_id(name) for name in ("p", "div", "a", "nav", "br", "address")}
    assert len(set(ids.values())) == len(ids)
    assert all(dom.is_static_tag_id(node_id) for node_id in ids.values())
    node = dom.parse("<p>x</p>").css_first("p")
    assert node is not None
    assert node.tag_id == ids["p"]


@pytest.mark.parametrize("name", ["x-widget", "notanelement"])
def test_tag_id_of_an_unknown_name_raises_value_error(name: str) -> None:
    with pytest.raises(ValueError, match=name):
        dom.tag_id(name)


def test_a_custom_element_gets_an_id_outside_the_static_range() -> None:
    node = dom.parse("<x-widget>a</x-widget>").css_first("x-widget")
    assert node is not None
    assert not dom.is_static_tag_id(node.tag_id)


def test_the_non_element_ids_are_those_of_the_nodes() -> None:
    doc = dom.parse("<!DOCTYPE html><!--c--><p>t</p>")
    assert doc.root is not None
    assert doc.root.parent is not None
    seen = {node.tag: node.tag_id for node in doc.root.parent.traverse(include_text=True)}
    assert seen["-text"] == dom.TEXT_ID
    assert seen["-comment"] == dom.COMMENT_ID
    assert len({dom.TEXT_ID, dom.COMMENT_ID, dom.DOCTYPE_ID, dom.UNDEF_ID}) == 4


def test_select_returns_the_matches_in_document_order() -> None:
    doc = dom.parse("<p id=1>a</p><div><p id=2>b</p><nav><p id=3>c</p></nav></div>")
    assert doc.body is not None
    assert [node.attrs["id"] for node in dom.select(doc.body, "p")] == ["1", "2", "3"]
    assert [node.attrs["id"] for node in dom.select(doc.body, "div p")] == ["2", "3"]
    assert dom.select(doc.body, "table") == []
