"""The tag table (blockdensity.tags): the flags every element gets, for the walk.

`flags_for` is called directly and its flags read per tag id: inline elements
have none, boundaries end blocks, removed and void elements are never
entered, <br> is a line break unless configured as a boundary, comments and
doctype are nothing at all. The element lists themselves are checked against
docs/spec.md section 2.
"""

from __future__ import annotations

import pytest

from blockdensity import dom, elements, tags
from blockdensity.elements import DEFAULT_BOUNDARIES, DEFAULT_DROP_ELEMENTS
from blockdensity.tags import (
    ANCHOR,
    BOUNDARY,
    BREAK,
    DROP,
    IGNORE,
    PRE,
    SEPARATOR,
    SKIP,
    SUPSUB,
    TITLE,
    flags_for,
)
from tests.helpers import SPEC_BOUNDARIES, SPEC_INLINE

DEFAULT = flags_for(DEFAULT_BOUNDARIES, DEFAULT_DROP_ELEMENTS)

SPEC_REMOVED = [
    "script", "style", "noscript", "template", "svg", "math", "option", "object", "embed",
    "applet", "iframe", "head",
]  # fmt: skip
SPEC_BLOCK_DISPLAY = [
    "address", "center", "details", "summary", "fieldset", "legend", "caption", "dialog", "menu",
    "hgroup",
]  # fmt: skip


def flags(name: str, table: tags.TagTable = DEFAULT) -> int:
    return table.flags[tags.tag_id(name)]


# --------------------------------------------------------------------------- the lists


def test_the_lists_are_spec_section_2() -> None:
    assert set(SPEC_INLINE) | {"wbr"} == elements.INLINE
    assert set(SPEC_BOUNDARIES) == elements.SEED_BOUNDARIES
    assert set(SPEC_BLOCK_DISPLAY) == elements.BLOCK_DISPLAY_EXTRA
    assert elements.SEED_BOUNDARIES | elements.BLOCK_DISPLAY_EXTRA == DEFAULT_BOUNDARIES
    assert set(SPEC_REMOVED) <= elements.REMOVED
    assert frozenset({"nav", "footer", "aside"}) == DEFAULT_DROP_ELEMENTS


def test_no_element_is_in_two_kinds() -> None:
    assert not elements.INLINE & DEFAULT_BOUNDARIES
    assert not elements.INLINE & elements.REMOVED
    assert not DEFAULT_BOUNDARIES & elements.REMOVED
    assert "br" not in DEFAULT_BOUNDARIES


# --------------------------------------------------------------------------- default flags


@pytest.mark.parametrize("name", [name for name in SPEC_INLINE if name not in ("a", "sub", "sup")])
def test_inline_elements_have_no_flag(name: str) -> None:
    assert flags(name) == 0


def test_links_and_sup_sub_are_inline_with_their_counting_flag() -> None:
    assert flags("a") == ANCHOR
    assert flags("sup") == SUPSUB
    assert flags("sub") == SUPSUB


@pytest.mark.parametrize("name", sorted(DEFAULT_BOUNDARIES - DEFAULT_DROP_ELEMENTS - {"hr", "pre"}))
def test_boundaries_have_the_boundary_flag_alone(name: str) -> None:
    assert flags(name) == BOUNDARY


def test_hr_pre_and_dropped_elements_are_boundaries_with_one_more_flag() -> None:
    assert flags("hr") == BOUNDARY | SKIP  # no content: never entered
    assert flags("pre") == BOUNDARY | PRE
    for name in DEFAULT_DROP_ELEMENTS:
        assert flags(name) == BOUNDARY | DROP


@pytest.mark.parametrize("name", sorted(elements.REMOVED - {"title"}))
def test_removed_elements_separate_words_and_are_never_entered(name: str) -> None:
    assert flags(name) == SEPARATOR | SKIP


def test_the_title_is_removed_and_marked_as_the_title() -> None:
    assert flags("title") == SEPARATOR | SKIP | TITLE


def test_br_is_a_line_break_and_wbr_glues() -> None:
    assert flags("br") == BREAK | SKIP
    assert flags("wbr") == SKIP  # void and inline: never entered, never a space


@pytest.mark.parametrize("name", ["img", "input", "area", "source", "track", "col"])
def test_void_elements_separate_words_and_are_never_entered(name: str) -> None:
    assert flags(name) == SEPARATOR | SKIP


@pytest.mark.parametrize("name", ["label", "button", "textarea", "select", "nobr", "output"])
def test_other_elements_separate_words(name: str) -> None:
    assert flags(name) == SEPARATOR


def test_custom_elements_separate_words_but_never_end_a_block() -> None:
    assert DEFAULT.custom == SEPARATOR


def test_comments_doctype_and_nameless_nodes_are_ignored() -> None:
    for node_id in (dom.COMMENT_ID, dom.DOCTYPE_ID, dom.UNDEF_ID):
        assert DEFAULT.flags[node_id] == IGNORE | SKIP


def test_names_give_each_known_id_its_element_name() -> None:
    for name in ("p", "a", "nav", "script", "br", "address"):
        assert DEFAULT.names[tags.tag_id(name)] == name


# --------------------------------------------------------------------------- other sets


def test_an_element_left_out_of_the_boundaries_separates_words() -> None:
    table = flags_for(frozenset({"p"}), frozenset())
    assert flags("p", table) == BOUNDARY
    assert flags("div", table) == SEPARATOR
    assert flags("pre", table) == SEPARATOR | PRE
    assert flags("nav", table) == SEPARATOR


def test_inline_elements_can_be_boundaries_and_drops() -> None:
    table = flags_for(frozenset({"span", "a"}), frozenset({"b"}))
    assert flags("span", table) == BOUNDARY
    assert flags("a", table) == BOUNDARY | ANCHOR
    assert flags("b", table) == DROP


def test_br_as_a_boundary_is_a_boundary_with_no_content() -> None:
    assert flags("br", flags_for(frozenset({"br"}), frozenset())) == BOUNDARY | SKIP


def test_a_removed_element_stays_removed_whatever_the_sets() -> None:
    table = flags_for(frozenset({"script"}), frozenset({"style"}))
    assert flags("script", table) == SEPARATOR | SKIP
    assert flags("style", table) == SEPARATOR | SKIP


def test_a_table_is_made_once_per_pair_of_sets() -> None:
    pair = (frozenset({"p", "div"}), frozenset({"nav"}))
    assert flags_for(*pair) is flags_for(*pair)
    assert flags_for(*pair) is not flags_for(pair[0], frozenset())


def test_an_unknown_element_name_raises_value_error() -> None:
    with pytest.raises(ValueError, match="x-widget"):
        tags.tag_id("x-widget")
    with pytest.raises(ValueError, match="notanelement"):
        flags_for(frozenset({"p", "notanelement"}), frozenset())
