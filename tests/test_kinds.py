"""Block kinds (blockdensity.result.BlockKind) and the kept blocks as the page's text.

Every block carries the kind of the element its text sits in; the kept
blocks' texts, joined by newlines, are exactly the fit's text (checked on
generated pages and on every corpus page, in both profiles).
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from blockdensity import PUBLISHED_CONF, BlockKind, Conf, Fit, fit_text
from blockdensity.result import kind_of
from devkit.corpus import SAMPLE_DATA, Corpus
from devkit.corpus_sample import SAMPLED_SETS
from tests.helpers import fit, seq
from tests.hypothesis_profiles import examples

CORPUS = Corpus(SAMPLE_DATA, SAMPLED_SETS)  # every page of the sample (tests/corpus)


def kept_text(result: Fit) -> str:
    kept = [b for b in result.blocks if b.text and (result.fallback or b.decision == "content")]
    return "\n".join(block.text for block in kept)


@pytest.mark.parametrize(
    ("element", "kind", "level"),
    [
        ("h1", BlockKind.HEADING, 1),
        ("h6", BlockKind.HEADING, 6),
        ("p", BlockKind.PARAGRAPH, None),
        ("li", BlockKind.LIST_ITEM, None),
        ("dd", BlockKind.LIST_ITEM, None),
        ("blockquote", BlockKind.QUOTE, None),
        ("pre", BlockKind.PREFORMATTED, None),
        ("td", BlockKind.TABLE_CELL, None),
        ("th", BlockKind.TABLE_CELL, None),
        ("figcaption", BlockKind.CAPTION, None),
        ("caption", BlockKind.CAPTION, None),
        ("div", BlockKind.OTHER, None),
        ("body", BlockKind.OTHER, None),
    ],
)
def test_the_kind_comes_from_the_element(element: str, kind: BlockKind, level: int | None) -> None:
    assert kind_of(element) == (kind, level)


def test_a_page_s_blocks_carry_their_kinds() -> None:
    body = (
        f"<h2>{seq('h', 1, 5)}</h2><p>{seq('a', 1, 30)}</p><ul><li>{seq('l', 1, 20)}</li></ul>"
        f"<blockquote>{seq('q', 1, 20)}</blockquote><pre>code  line</pre>"
    )
    blocks = fit(body, PUBLISHED_CONF).blocks
    assert [(b.kind, b.level) for b in blocks] == [
        (BlockKind.HEADING, 2),
        (BlockKind.PARAGRAPH, None),
        (BlockKind.LIST_ITEM, None),
        (BlockKind.QUOTE, None),
        (BlockKind.PREFORMATTED, None),
    ]
    assert blocks[0].to_dict()["kind"] == "heading"


PIECES = st.sampled_from(
    [
        "<p>{}</p>", "<h3>{}</h3>", "<li>{}</li>", "<pre>{}\n  x</pre>", "<div>{}<br>{}</div>",
        "<td>{}</td>", "<nav>{}</nav>", "<p><a href=#>{}</a></p>", "<div class=comments>{}</div>",
        "<blockquote>{}</blockquote>", "<span>{}</span>",
    ]
)  # fmt: skip


@examples(150)
@given(
    st.lists(st.tuples(PIECES, st.integers(min_value=1, max_value=40)), min_size=1, max_size=12),
    st.booleans(),
)
def test_the_kept_blocks_joined_are_the_text(pieces: list[tuple[str, int]], main: bool) -> None:
    body = "".join(
        template.format(*[seq(f"w{index}x", 1, words)] * template.count("{}"))
        for index, (template, words) in enumerate(pieces)
    )
    if main:
        body = f"<main>{body}</main>"
    for conf in (Conf(), PUBLISHED_CONF):
        result = fit(body, conf)
        assert result.text == kept_text(result)


def test_every_corpus_page_s_kept_blocks_joined_are_its_text() -> None:
    for page in CORPUS.pages():
        for conf in (Conf(), PUBLISHED_CONF):
            result = fit_text(page.raw, conf)
            assert result.text == kept_text(result), page.page_id
