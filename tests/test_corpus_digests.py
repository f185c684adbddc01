"""Every corpus page's output is what it was: the stored digests of tests/corpus_digests.json.

A change that is meant to keep outputs (a refactoring, a speed-up) must
leave the text, metadata, detected language, comments and every other field
of every page of every set under both profiles as stored; one that is meant
to change them rewrites the file (`python -m tests.corpus_digests`) and its
diff names the pages.
"""

from __future__ import annotations

import pytest

from blockdensity import fit_text
from devkit.corpus import DEFAULT_DATA
from tests import corpus_digests

pytestmark = pytest.mark.skipif(
    not corpus_digests.page_files(), reason=f"no corpus pages under {DEFAULT_DATA}"
)


def test_every_corpus_page_fits_to_its_stored_output() -> None:
    found = corpus_digests.compute()
    assert len(found) >= 800  # the three sets
    assert corpus_digests.differences(found, corpus_digests.load()) == []


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
