"""Every corpus page's output is what it was: the stored digests (tests/corpus_digests.py).

A change that is meant to keep outputs (a refactoring, a speed-up) must
leave the text, metadata, detected language, comments and every other field
of every page of every set under both profiles as stored: the repository's
sample (tests/corpus, sample_digests.json) in every checkout, and the full
development sets (corpus_digests.json) wherever they are (CI has them). One
that is meant to change them rewrites both files (`python -m
tests.corpus_digests`) and their diffs name the pages.
"""

from __future__ import annotations

from pathlib import Path

from blockdensity import fit_text
from devkit.corpus import SAMPLE_DATA
from devkit.corpus_sample import PER_PAGE_TYPE, SIZES
from tests import corpus_digests

# The sets and their pages: the full corpus's four sets (readability 116,
# scrapinghub 181, trafilatura-eval 519, wcxb-dev 1,497), the sample's.
FULL_SETS = {"readability": 116, "scrapinghub": 181, "trafilatura-eval": 519, "wcxb-dev": 1497}
SAMPLE_SETS = SIZES | {"wcxb-dev": 7 * PER_PAGE_TYPE}


def _sets(found: corpus_digests.Digests) -> dict[str, int]:
    counts: dict[str, int] = {}
    for key in found:
        set_name = key.partition("/")[0]
        counts[set_name] = counts.get(set_name, 0) + 1
    return counts


def test_every_sample_page_fits_to_its_stored_output() -> None:
    found = corpus_digests.compute(SAMPLE_DATA)
    assert _sets(found) == SAMPLE_SETS
    stored = corpus_digests.load(corpus_digests.SAMPLE_STORED)
    assert corpus_digests.differences(found, stored) == []


def test_every_page_of_the_full_sets_fits_to_its_stored_output(full_data: Path) -> None:
    found = corpus_digests.compute(full_data)
    assert _sets(found) == FULL_SETS
    assert corpus_digests.differences(found, corpus_digests.load()) == []


def test_the_sample_s_stored_outputs_are_the_full_sets_for_the_same_pages() -> None:
    # The same bytes fit alike wherever they lie: a rewrite of one store and not the
    # other shows here, in every checkout.
    sample = corpus_digests.load(corpus_digests.SAMPLE_STORED)
    full = corpus_digests.load()
    assert sample.keys() <= full.keys()
    assert {key: full[key] for key in sample} == sample


def _report(**fields: str | None) -> corpus_digests.Report:
    return dict.fromkeys(corpus_digests.FIELDS, "0") | fields


def test_a_changed_output_is_named_with_its_page_profile_and_fields() -> None:
    stored = {
        "set/a": {"article": _report(), "published": _report()},
        "set/b": {"article": _report()},
        "set/d": {"article": _report()},
    }
    found = {
        "set/a": {"article": _report(), "published": _report(text="9", language="de 0.9")},
        "set/c": {"article": _report()},
        "set/d": {"article": _report(metadata="1", comments=None), "published": _report()},
    }
    assert corpus_digests.differences(found, stored) == [
        "set/c: not stored",
        "set/b: not in the data",
        "set/a (published): text, language changed",
        "set/d (article): metadata, comments changed",
        "set/d (published): not stored",
    ]


def test_the_report_sees_metadata_language_and_comments() -> None:
    page = (
        "<html lang=en><head><title>T</title>"
        '<meta property="og:title" content="Declared"></head><body>'
        + "<p>The quick brown fox jumps over the lazy dog near the river bank today.</p>" * 8
        + "</body></html>"
    )
    fit = fit_text(page)
    other = fit_text(page.replace("Declared", "Other"))
    assert fit.text == other.text
    first, second = corpus_digests.report(fit), corpus_digests.report(other)
    assert first["text"] == second["text"]
    assert first["metadata"] != second["metadata"]
    assert first["language"] is not None
    assert first["language"].startswith("en ")
