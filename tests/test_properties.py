"""Property tests: the fit's contracts on generated tag soup, pages and strings.

(a) fit_text and html_to_text never raise, on any str or bytes;
(b) a page whose every block is CONTENT renders to html_to_text byte for byte;
(c) the fit's lines are a subsequence of html_to_text's lines;
(d) the fallback contract of docs/spec.md section 6, with the text of a fallback equal
    to html_to_text;
(e) count_words, count_many and word_starts agree with a per-character
    reference written from docs/spec.md section 3 (tests/reference/text.py).

Besides, every generated fit is checked against an independent implementation
of the docs/spec.md section 4 decision tree and the record invariants of section 2.

Each property runs 200 examples, derandomized (tests/hypothesis_profiles.py);
`./dev explore` runs them with random seeds and ten times as many.
"""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import assume, example, given
from hypothesis import strategies as st

from blockdensity import (
    DEFAULT_CONF,
    PUBLISHED_CONF,
    Block,
    Comments,
    Conf,
    Decision,
    FallbackReason,
    Fit,
    Reason,
    fit_text,
    html_to_text,
)
from blockdensity.decide.outcome import REPORTED, RULE_OUTCOMES
from blockdensity.words import count_many, count_words, word_starts
from devkit.htmlgen import (
    ATTRIBUTES,
    BOUNDARY_TAGS,
    DROP_TAGS,
    ENTITIES,
    INLINE_TAGS,
    MARKUP_BITS,
    OTHER_TAGS,
    POOLS,
    REMOVED_TAGS,
    VOID_TAGS,
)
from tests.hypothesis_profiles import examples
from tests.reference.text import reference_count, reference_starts

# Each property's examples (ten times as many under ./dev explore).
PROFILE = examples(200)

# --------------------------------------------------------------------------- characters

SURROGATES = "".join(chr(code) for code in (0xD800, 0xDBFF, 0xDC00, 0xDFFF))
WORD_POOLS = {name: chars for name, chars in POOLS.items() if name != "control"}


@st.composite
def mixed_text(
    draw: st.DrawFn,
    pools: dict[str, str] = POOLS,
    max_runs: int = 8,
    max_run: int = 24,
    extra: str = "",
) -> str:
    """Runs of characters, each run from one pool, so that dense one-script text occurs."""
    names = sorted(pools)
    parts: list[str] = []
    for _ in range(draw(st.integers(0, max_runs))):
        alphabet = pools[draw(st.sampled_from(names))] + extra
        chars = draw(st.lists(st.sampled_from(alphabet), min_size=1, max_size=max_run))
        parts.append("".join(chars))
    return "".join(parts)


# ------------------------------------------------------------------------ the reference word rule


def test_reference_word_rule_agrees_with_spec_examples() -> None:
    """The reference itself reproduces docs/spec.md section 3's listed examples."""
    cases = {
        "e.g.": 1, "don't": 1, "3.14": 1, "foo-bar": 1, "(paren)": 1, "x_y": 1,
        "foo+bar": 2, "a&b": 2, "don\u2019t": 2, "em\u2014dash": 2, "co\u00adop": 2,
        "[1]": 1, "100%": 1, "#tag": 1, "C++": 1, "|": 0, "\u00bb": 0, "\u00a9": 0, "\u2014": 0,
        "\u30e9\u30fc\u30e1\u30f3": 4, "\u6642\u3005": 2, "\uff97\uff70\uff92\uff9d": 4,
    }  # fmt: skip
    assert {text: reference_count(text) for text in cases} == cases


# Everything but NUL, which count_many documents as its batch separator (and
# whose handling by count_words is pinned in test_rules.py).
@PROFILE
@given(mixed_text(extra=SURROGATES[:1]))
@example("a\u0301b c")
@example("\u0430\u0431\u0432 " * 70 + "\u65e5x")
@example("_" * 50 + "a")
@example("\u3099\u65e5\u3099")
@example("a\u0e01\u0e34\u0e02 \u0e34b \u0e20\u0e32\u0e29\u0e32\u0e44\u0e17\u0e22x")
def test_count_words_agrees_with_reference(text: str) -> None:
    assert count_words(text) == reference_count(text)


@PROFILE
@given(mixed_text(extra=SURROGATES[:1]))
@example("(paren) e.g.")
@example("\u0915\u093e\u0916 \u65e5\u672c\u8a9e a")
@example("\u0e01\u0e34\u0627")  # a run's mark before a letter of another script
def test_word_starts_agrees_with_reference(text: str) -> None:
    assert word_starts(text) == reference_starts(text)


@PROFILE
@given(st.lists(mixed_text(max_runs=4), max_size=12))
@example(["\u0915\u0916\u0917 " * 40, "abc", "\u65e5\u672c " * 40, "\u0430 " * 80])
def test_count_many_is_count_words_of_each(texts: list[str]) -> None:
    assert count_many(texts) == [count_words(text) for text in texts]
    assert count_many(texts) == [reference_count(text) for text in texts]


# --------------------------------------------------------------------------- the reference tree

CONTENT_LEAVES = {
    Reason.LONG,
    Reason.SHORT_BEFORE_TEXT,
    Reason.SHORT_AFTER_TEXT,
    Reason.AFTER_LINKS_LONG,
    Reason.AFTER_LINKS_BEFORE_TEXT,
}


def reference_leaves(measured: list[tuple[int, int]], conf: Conf = DEFAULT_CONF) -> list[Reason]:
    """docs/spec.md section 4 as written: ppm comparisons, neighbours are blocks with words."""

    def ld_le(words: int, links: int, ppm: int) -> bool:
        return links * 1_000_000 <= ppm * words

    with_words = [index for index, (words, _) in enumerate(measured) if words]
    leaves: list[Reason] = []
    for index, (words, links) in enumerate(measured):
        before = [i for i in with_words if i < index]
        after = [i for i in with_words if i > index]
        prev = measured[before[-1]] if before else (0, 0)
        nxt = measured[after[0]] if after else (0, 0)
        if not ld_le(words, links, conf.ld_curr_max_ppm):
            leaves.append(Reason.LINK_DENSE)
        elif ld_le(prev[0], prev[1], conf.ld_prev_max_ppm):
            if words > conf.words_curr_short:
                leaves.append(Reason.LONG)
            elif nxt[0] > conf.words_next_short:
                leaves.append(Reason.SHORT_BEFORE_TEXT)
            elif prev[0] > conf.words_prev_short:
                leaves.append(Reason.SHORT_AFTER_TEXT)
            else:
                leaves.append(Reason.SHORT_ISOLATED)
        elif words > conf.words_curr_long:
            leaves.append(Reason.AFTER_LINKS_LONG)
        elif nxt[0] > conf.words_next_long:
            leaves.append(Reason.AFTER_LINKS_BEFORE_TEXT)
        else:
            leaves.append(Reason.AFTER_LINKS_SHORT)
    return leaves


def expected_fallback(result: Fit) -> FallbackReason | None:
    """docs/spec.md section 6, read off the blocks."""
    if sum(b.words for b in result.blocks) == 0:
        return FallbackReason.NO_TEXT
    if sum(1 for b in result.blocks if b.words) <= 1:
        return FallbackReason.SINGLE_BLOCK
    if not any(b.words and b.decision is Decision.CONTENT for b in result.blocks):
        return FallbackReason.NOTHING_KEPT
    return None


ARTICLE_REASONS = {
    Reason.ARTICLE_COMMENTS,
    Reason.ARTICLE_BOX,
    Reason.OUTSIDE_MAIN_CONTAINER,
    Reason.OUTSIDE_INNER_CONTAINER,  # always inside the main container's region
    Reason.OUTSIDE_CONTENT_CONTAINER,
    Reason.LIST_HEADING,
}
# The decision each rule's reason reports (decide.outcome.REPORTED), for the rules
# check_decision has no closer check of: the rules by kind of page, which run where
# the page is classified as that kind, or where it is read again as one (a scant
# reading, decide.kinds.second_looks).
RULE_DECISIONS = {
    reason: decision
    for outcome, (decision, reason) in REPORTED.items()
    if reason is not None
    and outcome in RULE_OUTCOMES.values()
    and reason not in ARTICLE_REASONS | {Reason.LINKED_PROSE, Reason.BETWEEN_TEXT}
}
# The rules that need no region around the block they remove.
UNSCOPED_REASONS = {
    Reason.OUTSIDE_MAIN_CONTAINER,
    Reason.OUTSIDE_CONTENT_CONTAINER,
    Reason.LIST_HEADING,
}


def check_decision(block: Block, conf: Conf) -> None:
    """A block's decision and reason agree with the tree's leaf and the rule that acted."""
    if block.decision is Decision.DROPPED and block.reason in ARTICLE_REASONS:
        # An article rule removes only what the tree and the semantic drop kept.
        assert conf.rules
        assert block.leaf in CONTENT_LEAVES
        assert block.scope is not None or block.reason in UNSCOPED_REASONS
    elif block.reason in RULE_DECISIONS:
        assert conf.rules
        assert block.decision is RULE_DECISIONS[block.reason]
    elif block.decision is Decision.DROPPED:
        assert block.reason is Reason.SEMANTIC_DROP
        assert block.scope is not None
    elif block.reason is Reason.LINKED_PROSE:
        # The one article rule that keeps: a block the tree found link-dense.
        assert conf.rules
        assert block.decision is Decision.CONTENT
        assert block.leaf is Reason.LINK_DENSE
        assert block.scope is not None  # inside the trusted main container
        assert 2 * block.link_words <= block.words
    elif block.reason is Reason.BETWEEN_TEXT:
        # Kept: a short isolated block between kept ones.
        assert conf.rules
        assert block.decision is Decision.CONTENT
        assert block.leaf is Reason.SHORT_ISOLATED
    elif block.reason is Reason.SEMANTIC_MAJORITY:
        assert block.decision is Decision.CONTENT
        assert block.leaf in CONTENT_LEAVES
        assert block.scope is not None
    else:
        assert block.reason is block.leaf
        content = block.leaf in CONTENT_LEAVES
        assert block.decision is (Decision.CONTENT if content else Decision.BOILERPLATE)


def check_fit(result: Fit, conf: Conf = DEFAULT_CONF) -> None:
    """The record invariants, the tree, and the fallback contract, for any fit."""
    blocks = result.blocks
    assert result.blocks_total == len(blocks)
    assert [b.index for b in blocks] == list(range(len(blocks)))
    assert result.blocks_with_words == sum(1 for b in blocks if b.words)
    assert result.words_total == sum(b.words for b in blocks)
    for block in blocks:
        assert 0 <= block.link_words <= block.words
        assert block.link_density == (block.link_words * 1000 // block.words if block.words else 0)
        assert block.text_bytes == len(block.text.encode("utf-8", "surrogatepass"))
        assert block.text
        assert not block.text.isspace()
        assert all(line and line == line.rstrip() for line in block.text.split("\n"))
    leaves = reference_leaves([(b.words, b.link_words) for b in blocks], conf)
    assert [b.leaf for b in blocks] == leaves
    for block in blocks:
        check_decision(block, conf)
    fallback = expected_fallback(result)
    assert result.fallback_reason == fallback
    assert result.fallback is (fallback is not None)
    comments = [b.text for b in blocks if b.reason is Reason.ARTICLE_COMMENTS]
    if fallback is None and comments and conf.comments is not Comments.DROP:
        assert result.comments == "\n".join(comments)
    else:
        assert result.comments is None
    if fallback is None:
        kept = [b for b in blocks if b.decision is Decision.CONTENT]
        text = "\n".join(b.text for b in kept)
        if conf.comments is Comments.INCLUDE and result.comments:
            text = f"{text}\n{result.comments}" if text else result.comments
        assert result.text == text
        assert result.blocks_kept == len(kept)
        assert result.words_kept == sum(b.words for b in kept)
    else:
        assert result.text == "\n".join(b.text for b in blocks)
        assert result.blocks_kept == result.blocks_total
        assert result.words_kept == result.words_total


def check_text_shape(text: str, html: str) -> None:
    """No empty line, no trailing whitespace; outside <pre>, one plain space at most."""
    if not text:
        return
    lines = text.split("\n")
    assert all(lines), "empty line"
    assert all(line == line.rstrip() for line in lines)
    if "pre" not in html.lower():
        for line in lines:
            assert line == line.strip()
            assert "  " not in line
            assert all(char == " " or not char.isspace() for char in line)


def is_subsequence(small: list[str], big: list[str]) -> bool:
    items = iter(big)
    return all(any(line == other for other in items) for line in small)


# --------------------------------------------------------------------------- tag soup


@st.composite
def tag(draw: st.DrawFn) -> str:
    group = draw(
        st.sampled_from(
            [
                BOUNDARY_TAGS,
                BOUNDARY_TAGS,
                DROP_TAGS,
                INLINE_TAGS,
                INLINE_TAGS,
                REMOVED_TAGS,
                VOID_TAGS,
                OTHER_TAGS,
            ]
        )
    )
    name = draw(st.sampled_from(group))
    kind = draw(st.sampled_from(["open", "open", "close", "self"]))
    if kind == "close":
        return f"</{name}>"
    attributes = "".join(draw(st.lists(st.sampled_from(ATTRIBUTES), max_size=2)))
    return f"<{name}{attributes}{'/' if kind == 'self' else ''}>"


word_run = st.integers(1, 45).map(lambda count: " ".join(f"w{n:02d}" for n in range(count)))

soup_token = st.one_of(
    tag(),
    tag(),
    tag(),
    word_run,
    word_run,
    mixed_text(max_runs=3, max_run=16),
    st.sampled_from(ENTITIES),
    st.sampled_from(MARKUP_BITS),
)


@st.composite
def block_markup(draw: st.DrawFn) -> str:
    """One block-ish element: some words, some of them linked, in a (maybe dropped) container."""
    plain = draw(st.integers(0, 45))
    linked = draw(st.integers(0, 12))
    words = [f"p{n:02d}" for n in range(plain)] + [
        f'<a href="#">l{n:02d}</a>' for n in range(linked)
    ]
    words = draw(st.permutations(words))
    filler = draw(st.sampled_from(["", "|", "»", "&copy;", "<sup>[1]</sup>"]))
    container = draw(
        st.sampled_from(
            ["p", "p", "div", "li", "h2", "td", "nav", "footer", "aside", "header", "section"]
        )
    )
    attributes = draw(
        st.sampled_from(["", "", "", " role=navigation", " role=contentinfo", " hidden"])
    )
    closed = draw(st.booleans()) or container not in DROP_TAGS
    close = f"</{container}>" if closed else ""
    return f"<{container}{attributes}>{' '.join(words)}{filler}{close}"


@st.composite
def tag_soup(draw: st.DrawFn) -> str:
    if draw(st.booleans()):
        tokens = draw(st.lists(soup_token, max_size=60))
    else:
        tokens = draw(
            st.lists(st.one_of(block_markup(), block_markup(), soup_token), min_size=2, max_size=20)
        )
    return "".join(tokens)


def soup_page(soup: str) -> str:
    return soup


SOUP_EXAMPLES = [
    "<nav><a href=#>n01</a> <a href=#>n02</a><p>" + " ".join(f"b{n}" for n in range(30)),
    "<title>t <p>a b c</p><p>d e f</p>",
    "<body hidden><p>x y</p></body>",
    "<html hidden><p>x y</p>",
    "<body role=navigation><p>x y</p><p>z w</p>",
    "<table><tr><td role=navigation>a</td><td hidden>b</td>c</table>",
    "<div role=navigation hidden><p role=contentinfo>x</p></div><p>y z</p>",
    "<pre>\n  a\n\n  b  </pre><p>c</p>",
    "<a href=#><h3>t1 t2</h3><p>s1 s2 s3</p></a>",
    "<p>a<sup>b<a href=#>c<p>d</sup>e</a>f",
    "<svg><title>x</title></svg><select><option>o<p>p</select>",
    "<plaintext><p>not a tag</p>",
    "<frameset><frame src=x></frameset>",
    "<p>a\x00b</p><table>\x00</table>",
]


# --------------------------------------------------------------------------- (a), (c), (d)


@PROFILE
@given(tag_soup())
def test_tag_soup_never_raises_and_keeps_every_contract(soup: str) -> None:
    """(a) + (c) + (d) on random tag soup, and the tree and record invariants."""
    result = fit_text(soup)
    full = html_to_text(soup)
    check_fit(result)
    check_text_shape(full, soup)
    check_text_shape(result.text, soup)
    if result.fallback:
        assert result.text == full
    assert is_subsequence(result.text.split("\n"), full.split("\n"))


def test_tag_soup_examples() -> None:
    """The same contracts on hand-picked awkward pages."""
    for soup in SOUP_EXAMPLES:
        result = fit_text(soup)
        full = html_to_text(soup)
        check_fit(result)
        check_text_shape(full, soup)
        if result.fallback:
            assert result.text == full
        assert is_subsequence(result.text.split("\n"), full.split("\n")), soup


@PROFILE
@given(mixed_text(extra=SURROGATES + "<>&\x00", max_runs=12, max_run=40))
def test_arbitrary_str_never_raises(text: str) -> None:
    """(a) on arbitrary strings, lone surrogates and NUL included."""
    result = fit_text(text)
    check_fit(result)
    assert isinstance(html_to_text(text), str)


@PROFILE
@given(st.text(max_size=300))
def test_hypothesis_text_never_raises(text: str) -> None:
    result = fit_text(text)
    check_fit(result)
    if result.fallback:
        assert result.text == html_to_text(text)


CHARSETS = [
    None, "utf-8", "latin1", "windows-1251", "shift_jis", "euc-jp", "gb18030", "big5", "koi8-r",
    "utf-16", "utf-16be", "iso-2022-jp", "x-user-defined", "bogus", "", " ", "utf-7", "\x00",
    "replacement", "iso-8859-8-i",
]  # fmt: skip


@PROFILE
@given(st.binary(max_size=3000), st.sampled_from(CHARSETS))
def test_arbitrary_bytes_never_raise(data: bytes, charset: str | None) -> None:
    """(a) on raw bytes, with and without an HTTP charset."""
    result = fit_text(data, charset=charset)
    check_fit(result)
    full = html_to_text(data, charset=charset)
    if result.fallback:
        assert result.text == full
    assert is_subsequence(result.text.split("\n"), full.split("\n"))


ENCODINGS = [
    "utf-8",
    "utf-16-le",
    "utf-16-be",
    "cp1252",
    "cp1251",
    "shift_jis",
    "gb18030",
    "koi8-r",
]
BOMS = {"utf-8": b"\xef\xbb\xbf", "utf-16-le": b"\xff\xfe", "utf-16-be": b"\xfe\xff"}


@PROFILE
@given(tag_soup(), st.sampled_from(ENCODINGS), st.booleans(), st.sampled_from(CHARSETS))
def test_encoded_tag_soup_never_raises(
    soup: str, encoding: str, bom: bool, charset: str | None
) -> None:
    """(a) on soup encoded as a real page would be, BOM or not, declared or not."""
    data = (BOMS.get(encoding, b"") if bom else b"") + soup.encode(encoding, "replace")
    result = fit_text(data, charset=charset)
    check_fit(result)
    full = html_to_text(data, charset=charset)
    if result.fallback:
        assert result.text == full
    assert is_subsequence(result.text.split("\n"), full.split("\n"))


@PROFILE
@given(tag_soup())
def test_utf8_bytes_fit_like_the_str(soup: str) -> None:
    """Bytes are decoded, then fitted as the str would be (no declaration, no BOM)."""
    assume("charset" not in soup and not soup.startswith("\ufeff"))
    assume(not any(0xD800 <= ord(char) <= 0xDFFF for char in soup))
    from_bytes = fit_text(soup.encode("utf-8")).to_dict()
    from_str = fit_text(soup).to_dict()
    from_bytes.pop("encoding")
    from_str.pop("encoding")
    assert from_bytes == from_str


# --------------------------------------------------------------------------- random Conf


@st.composite
def confs(draw: st.DrawFn) -> Conf:
    names = sorted(set(BOUNDARY_TAGS + DROP_TAGS + ["br", "span", "a", "sup", "img", "address"]))
    boundaries = draw(st.frozensets(st.sampled_from(names), max_size=12))
    drops = draw(st.frozensets(st.sampled_from(["nav", "footer", "aside", "header", "span", "a"])))
    roles = draw(st.frozensets(st.sampled_from(["navigation", "contentinfo", "main", "banner"])))
    small = st.integers(0, 60)
    return Conf(
        ld_curr_max_ppm=draw(st.integers(0, 1_000_000)),
        ld_prev_max_ppm=draw(st.integers(0, 1_000_000)),
        words_curr_short=draw(small),
        words_next_short=draw(small),
        words_prev_short=draw(small),
        words_curr_long=draw(small),
        words_next_long=draw(small),
        boundaries=boundaries,
        drop_elements=drops,
        drop_roles=roles,
        comments=draw(st.sampled_from(list(Comments))),
    )


@PROFILE
@given(tag_soup(), confs())
def test_any_valid_conf_keeps_the_contracts(soup: str, conf: Conf) -> None:
    """Under any valid configuration, the tree is SPEC's with the conf's thresholds."""
    check_fit(fit_text(soup, conf), conf)


# --------------------------------------------------------------------------- (b) all-CONTENT pages

DECORATIONS: list[Callable[[str], str]] = [
    lambda word: word,
    lambda word: word,
    lambda word: f"<b>{word}</b>",
    lambda word: f"<i>{word}</i>",
    lambda word: f"<span class=x>{word}</span>",
    lambda word: f"<em><strong>{word}</strong></em>",
    lambda word: f"<code>{word}</code>",
]
SEPARATORS = [
    " ", " ", " ", "\n", "\t", "&nbsp;", "\u00a0", " <br> ", "<br>", "<img src=x.png>",
    " <!-- c --> ", "<x-y></x-y>", " <script>var s = 1;</script> ", " &amp; ", " \u00bb ",
    "<span hidden>hidden</span>",
]  # fmt: skip
CONTAINERS = [
    ("<p>", "</p>"),
    ("<div>", "</div>"),
    ("<ul><li>", "</li></ul>"),
    ("<h2>", "</h2>"),
    ("<blockquote>", "</blockquote>"),
    ("<table><tr><td>", "</td></tr></table>"),
    ("<dl><dd>", "</dd></dl>"),
    ("<section><p>", "</p></section>"),
    ("<article>", "</article>"),
    ("<pre>", "</pre>"),
]

plain_word = st.one_of(
    st.from_regex(r"[a-z]{1,8}[0-9]?", fullmatch=True),
    st.sampled_from(["e.g.", "don't", "3.14", "foo-bar", "(paren)", "x_y", "C++", "[1]", "100%"]),
    st.lists(st.sampled_from(POOLS["cyrillic"]), min_size=1, max_size=8).map("".join),
    st.lists(st.sampled_from(POOLS["greek"]), min_size=1, max_size=8).map("".join),
    st.lists(st.sampled_from(POOLS["han"] + POOLS["katakana"]), min_size=1, max_size=3).map(
        "".join
    ),
    st.lists(st.sampled_from(POOLS["hangul"][:-1]), min_size=1, max_size=4).map("".join),
    st.sampled_from(["caf\u00e9", "na\u00efve", "nai\u0308ve", "\u00fcber", "\u0915\u093e\u0916"]),
)


@st.composite
def content_block(draw: st.DrawFn) -> tuple[str, int, int]:
    """A block of at least 17 counted words, at most one of them linked: always CONTENT.

    Returns the markup, its counted words, and its link words.
    """
    words = draw(st.lists(plain_word, min_size=17, max_size=40))
    words = [word for word in words if reference_count(word)]
    assume(sum(reference_count(word) for word in words) >= 17)
    parts: list[str] = []
    for number, word in enumerate(words):
        if number:
            parts.append(draw(st.sampled_from(SEPARATORS)))
        parts.append(draw(st.sampled_from(DECORATIONS))(word))
    links = 0
    if draw(st.booleans()):
        parts.append(' <a href="#l">linked</a>')
        links = 1
    if draw(st.booleans()):
        parts.append(" <sup>[7]</sup> <sub>note</sub> ")
    opener, closer = draw(st.sampled_from(CONTAINERS))
    markup = f"{opener}{''.join(parts)}{closer}"
    return markup, sum(reference_count(word) for word in words) + links, links


@st.composite
def content_page(draw: st.DrawFn) -> tuple[str, list[tuple[int, int]]]:
    blocks = draw(st.lists(content_block(), min_size=2, max_size=6))
    between = st.sampled_from(["", "\n", "  ", "<!-- between -->", "<hr>", "<div> </div>"])
    body = "".join(markup + draw(between) for markup, _, _ in blocks)
    html = (
        f"<!DOCTYPE html><html lang=en><head><title>page</title></head><body>{body}</body></html>"
    )
    return html, [(words, links) for _, words, links in blocks]


@PROFILE
@given(content_page())
def test_page_with_every_block_content_renders_as_html_to_text(
    generated: tuple[str, list[tuple[int, int]]],
) -> None:
    """(b) Identity: every block CONTENT and not dropped, so fit.text == html_to_text(page)."""
    html, measured = generated
    result = fit_text(html, PUBLISHED_CONF)  # SPEC's identity; article rules may remove blocks
    assert [(b.words, b.link_words) for b in result.blocks] == measured
    assert [b.decision for b in result.blocks] == [Decision.CONTENT] * len(measured)
    assert not result.fallback
    assert result.text == html_to_text(html)
    assert result.text == html_to_text(html.encode("utf-8"))
    assert result.words_kept == result.words_total == sum(words for words, _ in measured)
    check_fit(result)


@st.composite
def soup_with_content(draw: st.DrawFn) -> str:
    """Tag soup interleaved with long link-poor blocks, so that all-CONTENT pages occur."""
    pieces = draw(
        st.lists(
            st.one_of(content_block().map(lambda block: block[0]), soup_token),
            min_size=2,
            max_size=12,
        )
    )
    return "".join(pieces)


@PROFILE
@given(soup_with_content())
def test_soup_whose_blocks_are_all_content_renders_as_html_to_text(soup: str) -> None:
    """(b) on generated soup, selected by the decisions: all CONTENT gives the identity.

    Pages with some block not CONTENT are held to (c) instead.
    """
    result = fit_text(soup)
    full = html_to_text(soup)
    if result.blocks and all(b.decision is Decision.CONTENT for b in result.blocks):
        assert result.text == full
    else:
        assert is_subsequence(result.text.split("\n"), full.split("\n"))


@PROFILE
@given(tag_soup())
def test_fit_is_deterministic(soup: str) -> None:
    """Same input, same result, whatever was fitted in between."""
    first = fit_text(soup).to_dict()
    fit_text("<nav><p>other page</p></nav><p>" + "w " * 50 + "</p>")
    assert fit_text(soup).to_dict() == first


# --------------------------------------------------------------------------- (f) sup, sub and links

SEGMENT_ALPHABET = "ab1 -.'_|[](),\u65e5\u0301\u00a0"


@st.composite
def segments(draw: st.DrawFn) -> list[tuple[str, bool, bool]]:
    """Pieces of one paragraph: (text, inside sup or sub, inside a link)."""
    return draw(
        st.lists(
            st.tuples(
                st.lists(st.sampled_from(SEGMENT_ALPHABET), min_size=1, max_size=6).map("".join),
                st.booleans(),
                st.booleans(),
            ),
            min_size=1,
            max_size=10,
        )
    )


def segment_markup(pieces: list[tuple[str, bool, bool]], nesting: list[bool]) -> str:
    """Each piece in <sup> or <span>, and, when linked, <a> outside or inside that."""
    parts = []
    for (text, sup, link), link_outside in zip(pieces, nesting, strict=False):
        tag = "sup" if sup else "span"
        if not link:
            parts.append(f"<{tag}>{text}</{tag}>")
        elif link_outside:
            parts.append(f"<a href=#><{tag}>{text}</{tag}></a>")
        else:
            parts.append(f"<{tag}><a href=#>{text}</a></{tag}>")
    return "".join(parts)


def reference_measure(pieces: list[tuple[str, bool, bool]]) -> tuple[int, int]:
    """Words and link words per docs/spec.md section 3: anchor edges separate; sup/sub
    starts don't count."""
    chars: list[tuple[str, bool, bool]] = []
    for text, sup, link in pieces:
        if link:
            chars.append((" ", False, False))  # the anchor's start separates words
        chars.extend((char, sup, link) for char in text)
        if link:
            chars.append((" ", False, False))  # and so does its end
    plain = "".join(char for char, _, _ in chars)
    words = links = 0
    for start in reference_starts(plain):
        _, sup, link = chars[start]
        if not sup:
            words += 1
            links += link
    return words, links


@PROFILE
@given(segments(), st.lists(st.booleans(), min_size=10, max_size=10))
@example([("1", False, False), ("st", True, False)], [True] * 10)
@example([("H", False, False), ("2", True, False), ("O", False, False)], [True] * 10)
@example([("a ", False, False), ("[1]", True, True)], [True] * 10)
@example([("(", True, False), ("a)", False, False)], [True] * 10)
def test_sup_and_link_counting_agrees_with_reference(
    pieces: list[tuple[str, bool, bool]], nesting: list[bool]
) -> None:
    """(f) Words that begin in sup/sub are not counted; link words begin inside <a>."""
    plain = "".join(text for text, _, _ in pieces)
    assume(not plain.isspace())
    result = fit_text(f"<p>{segment_markup(pieces, nesting)}</p>")
    assert [(b.words, b.link_words) for b in result.blocks] == [reference_measure(pieces)]
    assert result.blocks[0].text == " ".join(plain.split())
