"""Every corpus page's text is what it was: the stored digests of tests/corpus_digests.json.

A change that is meant to keep outputs (a refactoring, a speed-up) must
leave the text of every page of every set under both profiles as stored; one
that is meant to change them rewrites the file (`python -m tests.corpus_digests`)
and its diff names the pages.
"""

from __future__ import annotations

import pytest

from devkit.corpus import DEFAULT_DATA
from tests import corpus_digests

pytestmark = pytest.mark.skipif(
    not corpus_digests.page_files(), reason=f"no corpus pages under {DEFAULT_DATA}"
)


def test_every_corpus_page_fits_to_its_stored_text() -> None:
    found = corpus_digests.compute()
    assert len(found) >= 800  # the three sets
    assert corpus_digests.differences(found, corpus_digests.load()) == []


def test_a_changed_text_is_named_with_its_page_and_profile() -> None:
    stored = {"set/a": {"article": "1", "published": "2"}, "set/b": {"article": "3"}}
    found = {"set/a": {"article": "1", "published": "9"}, "set/c": {"article": "4"}}
    assert corpus_digests.differences(found, stored) == [
        "set/c: not stored",
        "set/b: not in the data",
        "set/a (published): text changed",
    ]
