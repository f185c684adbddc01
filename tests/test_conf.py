"""The configuration (blockdensity.conf): Conf's defaults, validation and normalisation.

Conf is built directly; `table` is checked against the tag flags it must
resolve to. What the thresholds do to a decision is tested with the tree
(test_classify.py); what the drop sets do, with the fit (test_fit.py).
"""

from __future__ import annotations

import dataclasses

import pytest

from blockdensity import DEFAULT_CONF, Conf, tags
from blockdensity.conf import ARIA_DROP_ROLES, PPM
from tests.helpers import SPEC_BOUNDARIES

# --------------------------------------------------------------------------- defaults


def test_default_boundaries_include_every_spec_boundary_but_not_br() -> None:
    """docs/spec.md section 2: the seed's list is the default; br is deliberately not a boundary."""
    assert set(SPEC_BOUNDARIES) <= DEFAULT_CONF.boundaries
    assert "br" not in DEFAULT_CONF.boundaries


def test_default_drop_sets() -> None:
    assert DEFAULT_CONF.drop_elements == frozenset({"nav", "footer", "aside"})
    assert DEFAULT_CONF.drop_roles == frozenset({"navigation", "contentinfo", "complementary"})


INT_FIELDS = [
    "words_curr_short",
    "words_next_short",
    "words_prev_short",
    "words_curr_long",
    "words_next_long",
]


def test_default_conf_is_the_published_thresholds() -> None:
    assert Conf() == DEFAULT_CONF
    assert (DEFAULT_CONF.ld_curr_max_ppm, DEFAULT_CONF.ld_prev_max_ppm) == (333_333, 555_556)
    assert [getattr(DEFAULT_CONF, name) for name in INT_FIELDS] == [16, 15, 4, 40, 17]


def test_ppm_is_one_million_and_the_aria_roles_are_the_three_landmarks() -> None:
    assert PPM == 1_000_000
    assert frozenset({"navigation", "contentinfo", "complementary"}) == ARIA_DROP_ROLES


# --------------------------------------------------------------------------- validation


@pytest.mark.parametrize("name", [*INT_FIELDS, "ld_curr_max_ppm", "ld_prev_max_ppm"])
@pytest.mark.parametrize("value", [-1, 1.5, "16", None, True])
def test_invalid_threshold_raises_value_error_naming_the_field(name: str, value: object) -> None:
    with pytest.raises(ValueError, match=name):
        Conf(**{name: value})  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["ld_curr_max_ppm", "ld_prev_max_ppm"])
def test_ppm_over_one_million_is_invalid(name: str) -> None:
    with pytest.raises(ValueError, match=name):
        Conf(**{name: 1_000_001})  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["boundaries", "drop_elements", "drop_roles"])
def test_a_string_for_a_set_raises_value_error_naming_the_field(name: str) -> None:
    with pytest.raises(ValueError, match=name):
        Conf(**{name: "nav"})  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["boundaries", "drop_elements", "drop_roles"])
def test_a_set_holding_a_non_string_raises_value_error_naming_the_field(name: str) -> None:
    with pytest.raises(ValueError, match=name):
        Conf(**{name: frozenset({"p", 3})})  # type: ignore[arg-type]


@pytest.mark.parametrize("element", ["notanelement", "my-widget"])
def test_unknown_element_name_raises_value_error(element: str) -> None:
    """Implementers' decision: an element name lexbor does not know is an error."""
    for name in ("boundaries", "drop_elements"):
        with pytest.raises(ValueError, match=element):
            Conf(**{name: frozenset({"p", element})})  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["boundaries", "drop_elements"])
def test_unknown_element_name_error_names_the_field(name: str) -> None:
    """'invalid values raise ValueError naming the field' holds for element names too."""
    with pytest.raises(ValueError, match=name):
        Conf(**{name: frozenset({"p", "notanelement"})})  # type: ignore[arg-type]


def test_drop_roles_are_not_checked_against_the_element_names() -> None:
    """A role is an attribute value, not an element: any name is accepted."""
    assert Conf(drop_roles=frozenset({"banner", "search"})).drop_roles == {"banner", "search"}


def test_conf_is_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        DEFAULT_CONF.words_curr_short = 3  # type: ignore[misc]


def test_conf_accepts_valid_values() -> None:
    conf = Conf(
        words_curr_short=0,
        ld_curr_max_ppm=0,
        ld_prev_max_ppm=1_000_000,
        boundaries=frozenset({"p", "br", "address"}),
        drop_elements=frozenset({"nav"}),
        drop_roles=frozenset(),
    )
    assert conf.words_curr_short == 0
    assert "address" in conf.boundaries


# --------------------------------------------------------------------------- normalisation


def test_names_are_lowercased() -> None:
    conf = Conf(
        boundaries=frozenset({"P", "Div"}),
        drop_elements=frozenset({"NAV"}),
        drop_roles=frozenset({"Navigation"}),
    )
    assert conf.boundaries == frozenset({"p", "div"})
    assert conf.drop_elements == frozenset({"nav"})
    assert conf.drop_roles == frozenset({"navigation"})


def test_any_collection_of_names_becomes_a_frozenset() -> None:
    conf = Conf(boundaries=["p", "div", "p"], drop_elements={"nav"})  # type: ignore[arg-type]
    assert isinstance(conf.boundaries, frozenset)
    assert isinstance(conf.drop_elements, frozenset)
    assert conf.boundaries == frozenset({"p", "div"})


def test_equal_configurations_compare_and_hash_equal() -> None:
    """Two Confs built alike are equal (and share one cached tag table)."""
    first = Conf(boundaries=frozenset({"p"}), words_curr_short=3)
    second = Conf(boundaries=frozenset({"P"}), words_curr_short=3)
    assert first == second
    assert hash(first) == hash(second)
    assert first.table is second.table


# --------------------------------------------------------------------------- derived


def test_without_drops_changes_only_the_drop_sets() -> None:
    conf = DEFAULT_CONF.without_drops()
    assert conf.drop_elements == frozenset()
    assert conf.drop_roles == frozenset()
    assert dataclasses.replace(conf, drop_elements=DEFAULT_CONF.drop_elements,
                               drop_roles=DEFAULT_CONF.drop_roles) == DEFAULT_CONF  # fmt: skip


def test_without_drops_keeps_every_other_field() -> None:
    conf = Conf(words_curr_short=3, ld_prev_max_ppm=7, boundaries=frozenset({"p"}))
    plain = conf.without_drops()
    assert (plain.words_curr_short, plain.ld_prev_max_ppm) == (3, 7)
    assert plain.boundaries == frozenset({"p"})
    assert (plain.drop_elements, plain.drop_roles) == (frozenset(), frozenset())
    assert conf.drop_elements == DEFAULT_CONF.drop_elements  # the original is unchanged


def test_table_flags_follow_the_element_sets() -> None:
    """`table` is the tag table of this Conf's boundaries and dropped elements."""
    conf = Conf(boundaries=frozenset({"p", "span"}), drop_elements=frozenset({"header"}))
    flags = conf.table.flags
    assert flags[tags.tag_id("p")] == tags.BOUNDARY
    assert flags[tags.tag_id("span")] == tags.BOUNDARY
    assert flags[tags.tag_id("div")] == tags.SEPARATOR  # no longer a boundary
    assert flags[tags.tag_id("header")] == tags.SEPARATOR | tags.DROP
    assert not flags[tags.tag_id("nav")] & tags.DROP
    assert DEFAULT_CONF.table is DEFAULT_CONF.table
