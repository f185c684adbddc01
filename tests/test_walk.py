"""The walk the fit runs (blockdensity._walk) against its plain Python reference (tests/reference).

Both must make the same page, field for field, and the same trace (the block
each text node went to, for --highlight), on every page of the development
corpus's sample (tests/corpus), the fuzz corpus, hostile shapes and random tag
soup, under the article profile (regions wrapped in marker elements by the
reference), SPEC's
published profile, the renderer's (no drops) and one that drops ARIA roles;
so the same words, link words, decisions and text follow. The declaring
elements they hand to blockdensity.metadata are the same elements, and give
the same metadata.
"""

from __future__ import annotations

import dataclasses
import random
import re
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from importlib.metadata import version
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from blockdensity import DEFAULT_CONF, PUBLISHED_CONF, Conf, _walk
from blockdensity.decode import Source
from blockdensity.dom import Document, Node
from blockdensity.measure import measure
from blockdensity.metadata import read_metadata
from blockdensity.nesting import REGION_ATTRIBUTE
from blockdensity.parse import hidden_content, parse
from blockdensity.segment import Page, Trace, trace_segment, walk
from devkit.corpus import SAMPLE_DATA, Corpus
from devkit.corpus_sample import SAMPLED_SETS
from devkit.fuzzing import CORPUS_DIR, Input, inputs
from devkit.hostile import flat_divs, nested_divs, unclosed_formatting
from tests.hypothesis_profiles import examples
from tests.reference import walk as reference

ROOT = Path(__file__).resolve().parents[1]
CORPUS = Corpus(SAMPLE_DATA, SAMPLED_SETS)  # every page of the sample (tests/corpus)

# The article profile (the default), SPEC's profile, the renderer's, and one
# that drops ARIA roles too (marker elements around each).
ROLES_CONF = dataclasses.replace(
    PUBLISHED_CONF, drop_roles=frozenset({"navigation", "contentinfo", "complementary"})
)
CONFS = (DEFAULT_CONF, PUBLISHED_CONF, DEFAULT_CONF.without_drops(), ROLES_CONF)


def _declaration(node: Node) -> tuple[str | None, list[tuple[str, str | None]], str]:
    # items(), not dict(attrs): selectolax cannot look up a name it decoded
    # with U+FFFD (a page's invalid UTF-8).
    return node.tag, list(node.attrs.items()), node.html or ""


def _fields(page: Page) -> dict[str, object]:
    return {
        "blocks": page.blocks,
        "text": page.text,
        "linked": page.linked,
        "title": page.title,
        "lang": page.lang,
        "drop_scopes": page.drop_scopes,
        "scope_parents": page.scope_parents,
        "declarations": [_declaration(node) for node in page.declarations],
        "in_page_links": page.in_page_links,
        "measure": measure(page),
    }


def _positions(doc: Document) -> dict[int, int]:
    """Each node's position in `doc` in document order, the reference walk's marker
    elements left out: the same node of two parses of a page has the same position."""
    if doc.root is None:
        return {}
    kept = (node for node in doc.root.traverse(include_text=True) if not reference.is_marker(node))
    return {node.mem_id: position for position, node in enumerate(kept)}


def _trace(trace: Trace, doc: Document) -> list[tuple[int, int | None, str | None]]:
    # No position: the node left the tree (a hidden <body> is replaced, its
    # children walked all the same).
    positions = _positions(doc)
    return [(index, positions.get(node.mem_id), node.text_content) for index, node in trace]


def _table(page: Page) -> object:
    elements = page.elements
    return None if elements is None else (elements.rows(), elements.blocks(), elements.pres())


def _reference_table(table: reference.Table | None) -> object:
    return None if table is None else (table.rows, table.blocks, table.pres)


def agree(html: str | bytes, confs: tuple[Conf, ...] = CONFS) -> None:
    """The compiled walk makes the reference's page of `html` under each of `confs`, the same
    element table, the same trace, and the same metadata; without a trace, the same page."""
    for conf in confs:
        compiled_trace: Trace = []
        compiled, compiled_doc = trace_segment(html, conf, compiled_trace)
        reference_trace: Trace = []
        expected, reference_doc, table = reference.segment(html, conf, reference_trace)
        assert _fields(compiled) == _fields(expected), conf.profile
        assert _table(compiled) == _reference_table(table), conf.profile
        assert _trace(compiled_trace, compiled_doc) == _trace(reference_trace, reference_doc)
        assert read_metadata(compiled_doc, compiled.declarations, "http://x.test/a") == (
            read_metadata(reference_doc, expected.declarations, "http://x.test/a")
        )
        untraced, _ = trace_segment(html, conf, None)
        assert _fields(untraced) == _fields(expected), conf.profile


def agree_shown(html: str | bytes) -> None:
    """As `agree`, for the page's hidden reading (every hidden element but a pop-up
    shown) under the article profile and SPEC's."""
    for conf in (DEFAULT_CONF, PUBLISHED_CONF):
        parsed = hidden_content(parse(Source(html, None), conf))
        compiled_trace: Trace = []
        compiled = walk(parsed, conf, compiled_trace)
        reference_trace: Trace = []
        expected, reference_doc, table = reference.segment(html, conf, reference_trace, shown=True)
        assert _fields(compiled) == _fields(expected), conf.profile
        assert _table(compiled) == _reference_table(table), conf.profile
        assert _trace(compiled_trace, parsed.document) == _trace(reference_trace, reference_doc)
        assert read_metadata(parsed.document, compiled.declarations, "http://x.test/a") == (
            read_metadata(reference_doc, expected.declarations, "http://x.test/a")
        )


def test_the_compiled_walk_was_built_for_the_installed_selectolax() -> None:
    assert version("selectolax") == _walk.LAYOUT_VERSION


def test_every_pin_of_selectolax_is_the_release_the_walk_mirrors() -> None:
    # setup.py reads LAYOUT_VERSION from the .pyx; the runtime dependency,
    # the build requirement and the constraints must name the same release.
    source = (ROOT / "blockdensity" / "_walk.pyx").read_text(encoding="utf-8")
    found = re.search(r'^LAYOUT_VERSION = "([^"]+)"$', source, re.MULTILINE)
    assert found is not None
    pin = f"selectolax=={found[1]}"
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert pin in project["project"]["dependencies"]
    assert pin in project["build-system"]["requires"]
    assert pin in (ROOT / "constraints.txt").read_text(encoding="utf-8").split()


def test_another_selectolax_makes_the_import_fail_loudly() -> None:
    # As if selectolax had been upgraded under a built package: the import
    # of blockdensity refuses, naming both releases.
    code = (
        "import importlib.metadata as m\n"
        "real = m.version\n"
        "m.version = lambda name: '9.9.9' if name == 'selectolax' else real(name)\n"
        "import blockdensity\n"
    )
    result = subprocess.run(  # noqa: S603 - our own interpreter
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, cwd=ROOT
    )
    assert result.returncode != 0
    assert "RuntimeError" in result.stderr
    assert "built for selectolax 1.0.2" in result.stderr
    assert "selectolax 9.9.9 is installed" in result.stderr


def test_the_walk_makes_the_references_page_of_every_corpus_page() -> None:
    for page in CORPUS.pages():
        agree(page.html)


def test_the_walk_makes_the_references_page_of_the_raw_bytes_of_the_corpus() -> None:
    # Bytes go to lexbor as UTF-8: a page in another encoding gives it
    # invalid sequences, which both walks read as U+FFFD.
    for page in CORPUS.pages():
        agree(page.raw, (DEFAULT_CONF,))


def _fuzz_files() -> Iterator[bytes]:
    for path in sorted(CORPUS_DIR.glob("*.html")):
        yield path.read_bytes()


def test_the_walk_makes_the_references_page_of_the_fuzz_corpus() -> None:
    files = list(_fuzz_files())
    assert len(files) >= 10
    for data in files:
        agree(data)
        agree(data.decode("utf-8", "replace"))


def test_the_walk_makes_the_references_page_of_hostile_shapes() -> None:
    for build in (nested_divs, flat_divs, unclosed_formatting):
        html = build(3_000, random.Random(3), CORPUS)
        agree(html)


CASES = (
    "",
    "<p>one</p>",
    "<title>t<p>an unclosed title",
    "<html lang=' fr '><body><p>x<title>in the body</title>y</p>",
    "<p>foo<a href=#>bar</a>baz <a>two <b>words</b></a> <a> </a></p>",
    "<p>a<a><div>a link around blocks</div><p>more</a>c</p>",
    "<ul><li><a href=#a>A</a><li><a href=#b>B <b>b</b></a> <a href=#c>C</a><li><a href=/x>X</a>"
    "<li>see <a href=#d>D</a><li><a href=#e><div>E</div>e<p>e2</a></ul>",
    "<p>H<sub>2</sub>O 1<sup>st</sup> <sup><a>[1]</a></sup><div><sup>open<p>across",
    "<pre>  kept\n   <b>as</b>  is\n</pre><p>a <b> </b> b<i>c</i> <i>d</i>",
    "<p>one<br>two<wbr>three<img>four<x-y>five</x-y>six<label>se</label>ven",
    "<nav><a>n01</a> <a>n02</a></nav><main><p>text</p></main><footer>f</footer>",
    "<div role=navigation><p>nav</p><div role='contentinfo x'>deep</div></div><p>after",
    "<p hidden>gone</p><p>kept<span hidden>x</span>y</p>",
    # Hidden tab panels: read as shown under the article profile (tab_panels).
    "<div role=tablist><a>One</a><a>Two</a></div><div role=tabpanel>one</div><div role="
    "tabpanel hidden><p>two <span hidden>x</span><code>y</code></div><div role='x TabPanel'"
    " hidden>b</div><div role=tablist hidden>c</div><div role='tab\u00a0panel' hidden>d</div>"
    "<div hidden role='navigation tabpanel'><p itemprop=author>e</div>",
    "<body hidden role=tabpanel><p itemprop=author>a tab panel body</p>",
    # Closed pop-ups: hidden under the article profile (closed_popups), an open dialog
    # shown; a hidden element inside an open dialog, a popover inside a hidden one.
    "<dialog><p>closed</p></dialog><dialog open><p>open <span hidden>h</span></p></dialog>"
    "<div popover><p>pop <b>up</b></p></div><p>text<span popover=manual>x</span>y</p>"
    "<div hidden role=tabpanel><div popover>in a panel</div>panel</div><DIALOG OPEN=''>z"
    "</DIALOG><dialog role=tabpanel hidden>tab</dialog><pre><code popover>c</code></pre>",
    "<body popover><p itemprop=author>a popover body</p>",
    "<body><meta name=description content=d><link rel=canonical href=/c><base href=/b/>"
    '<script type="application/ld+json">{"@type": "NewsArticle", "headline": "h"}'
    "</script><noscript><meta name=x content=y></noscript><template><script></script>"
    "</template><p>body</p>",
    "<!doctype html><!-- c --><?php x ?><p>a<!-- c -->b<?pi?>c</p>",
    "<table><tr><td>a<td>b</table><ul><li>x<li>y</ul><hr><p>after &nGt; &amp;</p>",
    "<svg><text>no</text></svg><math>no</math><select><option>no</select><p>yes",
    "<p>\u00a0nbsp\u2003em\u3000ideographic</p><p>\u4e2d\u6587 \ud55c\uad6d\uc5b4",
    "<article class=comment-list><p>a comment</p></article><div class='share x'>s</div>",
    f"<main><p {REGION_ATTRIBUTE}='comments boxes'>both<hr {REGION_ATTRIBUTE}=main>"
    f"<a {REGION_ATTRIBUTE}=boxes>only</a><img {REGION_ATTRIBUTE}=main><nav role=navigation "
    f"{REGION_ATTRIBUTE}=comments><p>in</nav><span hidden {REGION_ATTRIBUTE}=main>x</span>",
    f"<body hidden><div {REGION_ATTRIBUTE}=comments role=navigation><p>under a hidden body",
    # Roles as the selector and the first token decide together.
    "<div role='NAVIGATION'>a</div><div role='x navigation'>b</div><div role=' navigation x'>c"
    "</div><div role='\u00a0navigation'>d</div><div role='navigation\u00a0x'>e</div>"
    "<div role='navigation' role='main'>f</div><div role>g</div><div role=''>h</div>"
    "<p><span role=navigation>i</span> <a role=contentinfo href=#>j</a><br role=navigation>",
    # Hidden elements where the walk does not go: the metadata read after it
    # must not see what they hold.
    "<noscript><span hidden><time itemprop=datePublished datetime=2001-01-01>x</time>"
    "</span></noscript><svg><g hidden><text itemprop=author>svg</text></g></svg>"
    "<object><div hidden><p itemprop=author>obj</div><p itemprop=dateModified>2002</object>"
    "<div hidden><span itemprop=datePublished>2003</span></div><p>text",
    "<body hidden><p itemprop=author>under a hidden body</p>",
    # The element table: classes (spacing, order, none, empty, non-ASCII), pre
    # and its code child (hidden, after a comment, after text, a marked role).
    "<div class='a  b'><p class=' a\tb '>x</p><p class='b a'>y</p><p class>z</p>"
    "<p class=''>w</p><p class='caf\u00e9 \u4e2d'>v</p></div><body class=b><hr class=h>",
    "<pre class='language-py x'><code class=lang-js>a</code></pre><pre><!-- c --><code>b"
    "</code></pre><pre>t<code class=language-c>c</code></pre><pre><code hidden class=x>d"
    "</code><code class=y>e</code></pre><pre><code role=navigation class=language-x>f</code>"
    "</pre><pre class><span>g</span><code class=z>h</code></pre>",
    "<ul class=u><li>a<ol><li><p>b<p>c<li>d</ol><li>e</ul><table class=t><tr><th>h"
    "<th>i<tr><td>j<td><div>k</div></table><blockquote><p>q</blockquote>",
    # A page's own elements with the names of the reference walk's markers.
    "<div role=navigation><a href=x>nav</a></div><p>one two</p><blockdensity-drop-end>x"
    "</blockdensity-drop-end><blockdensity-scope-role-navigation>y"
    "</blockdensity-scope-role-navigation><blockdensity>z</blockdensity><p>six",
)


@pytest.mark.parametrize("html", CASES)
def test_the_walk_makes_the_references_page_of_the_cases(html: str) -> None:
    agree(html)


@pytest.mark.parametrize("html", [case for case in CASES if "hidden" in case])
def test_the_hidden_reading_walks_as_the_reference_shows_hidden_elements(html: str) -> None:
    agree_shown(
        html + "<div hidden role='x Dialog'><p>a pop-up</p></div><ul hidden role=menu>"
        "<li>a menu</ul><p hidden role=listbox>a list box<span role=tooltip hidden>tip"
    )


@pytest.mark.parametrize(
    "data",
    [
        "<p>caf\u00e9 \u4e2d\u6587 \U0001f600 \u0800 \U00010000 \U0010ffff</p>".encode(),
        b"<p>latin-1 caf\xe9 cut \xe2\x82</p><p>surrogate \xed\xa0\x80</p>",
        b"<p>overlong \xc0\xaf \xe0\x80\xaf \xf0\x80\x80\xaf past \xf4\x90\x80\x80</p>",
        b"<p>stray \x80\xbf lead \xf8\x88\x80\x80\x80 <b>at the end \xf0\x9f\x98",
    ],
)
def test_the_walk_decodes_text_as_selectolax_does(data: bytes) -> None:
    # Lexbor hands invalid UTF-8 through: both read it as text_content
    # does, with U+FFFD for each bad sequence.
    agree(data)


# ---------------------------------------------------------------- random tag soup

TAGS = (
    "div", "p", "li", "ul", "td", "tr", "table", "span", "a", "b", "i", "sup", "sub", "pre",
    "nav", "footer", "aside", "main", "article", "br", "wbr", "img", "hr", "script", "style",
    "title", "template", "noscript", "svg", "option", "select", "meta", "link", "x-custom",
    "label", "body", "html", "head", "textarea", "plaintext", "ol", "th", "blockquote",
    "h2", "code",
)  # fmt: skip
CLASSES = ("a", "a b", " b\ta ", "", "language-py", "lang-x y", "caf\u00e9")
_POPUPS = tuple(
    f"<{name} hidden role={role}>"
    for name in ("div", "ul", "span", "body")
    for role in ("dialog", "'x MENU'", "tooltip", "tabpanel")
)
TOKENS = st.one_of(
    st.sampled_from(TAGS).map(lambda name: f"<{name}>"),
    st.sampled_from(TAGS).map(lambda name: f"</{name}>"),
    st.sampled_from(TAGS).map(lambda name: f"<{name} hidden>"),
    st.sampled_from(TAGS).map(lambda name: f"<{name} hidden role=tabpanel>"),
    st.sampled_from(TAGS).map(lambda name: f"<{name} role=navigation class=comments>"),
    st.sampled_from(["<a href=#>", "<meta name=author content=me>", "<link rel=x href=y>"]),
    # Links within the page and elsewhere (Page.in_page_links, under the default profile).
    st.sampled_from(["<a href=#top>", "<a href='#!/x'>", "<a href=/p#s>", "<a href='#café'>"]),
    st.tuples(st.sampled_from(TAGS), st.sampled_from(CLASSES)).map(
        lambda pair: f"<{pair[0]} class='{pair[1]}'>"
    ),
    # The article profile's regions, as the scan marks them (or a page spells them).
    st.sampled_from(TAGS).map(lambda name: f"<{name} {REGION_ATTRIBUTE}='boxes main'>"),
    st.sampled_from(TAGS).map(lambda name: f"<{name} {REGION_ATTRIBUTE}=comments role=main>"),
    st.sampled_from(["<body hidden>", "<body role=navigation>", f"<body {REGION_ATTRIBUTE}=main>"]),
    st.text(alphabet=" \t\n\u00a0ab1.-\u4e2d", max_size=6),
    st.sampled_from(["<!--", "-->", "<!doctype html>", "<?x>", "&amp;", "&nbsp;", "<", ">"]),
)


@examples(300)
@given(st.lists(TOKENS, max_size=60))
def test_the_walk_makes_the_references_page_of_random_tag_soup(tokens: list[str]) -> None:
    agree("".join(tokens))


@examples(100)
@given(st.lists(st.one_of(TOKENS, st.sampled_from(_POPUPS)), max_size=60))
def test_the_hidden_reading_of_random_tag_soup_walks_as_the_reference(tokens: list[str]) -> None:
    agree_shown("".join(tokens))


@examples(40)
@given(inputs())
def test_the_walk_makes_the_references_page_of_the_fuzzers_pages(item: Input) -> None:
    # bench.fuzz's shapes: soup, trees, entities, mutated corpus pages,
    # encoded pages (as bytes: UTF-8 to lexbor) and deep nesting.
    agree(item.html)


def test_the_trace_holds_text_nodes_of_the_tree_returned_as_spec_makes_it() -> None:
    # --highlight marks the nodes of the tree trace_segment returns: hidden
    # elements replaced by <img>, and no element put in by the walk.
    html = "<div role=navigation><p>n01</p></div><p>a01 <span hidden>x</span><b>b01</b></p>"
    trace: Trace = []
    page, doc = trace_segment(html, ROLES_CONF, trace)
    assert doc.body is not None
    tree = {node.mem_id: node for node in doc.body.traverse(include_text=True)}
    assert [(index, node.text_content) for index, node in trace] == [
        (0, "n01"),
        (1, "a01 "),
        (1, "b01"),
    ]
    assert all(node.mem_id in tree for _, node in trace)
    assert page.drop_scopes == ["role=navigation"]
    assert [node.tag for node in tree.values() if node.is_element_node] == [
        "body", "div", "p", "p", "img", "b",
    ]  # fmt: skip
