"""The repository's sample of the development corpus (tests/corpus): complete, licensed, and the
pages devkit.corpus_sample chooses from the full sets."""

from __future__ import annotations

import gzip
import hashlib
import json
from pathlib import Path

from devkit.corpus import EVERY_SET, SAMPLE_DATA, load_pages
from devkit.corpus_sample import (
    PAGE_TYPED,
    PER_PAGE_TYPE,
    SAMPLED_SETS,
    SIZES,
    TRUTH_FILES,
    WARC,
    differences,
)


def _ids(path: Path) -> list[str]:
    return [json.loads(line)["page_id"] for line in path.read_text("utf-8").splitlines() if line]


def test_the_sample_has_every_set_of_the_corpus() -> None:
    assert SAMPLED_SETS == EVERY_SET


def test_every_set_has_its_licence_its_rows_and_a_page_file_for_each_row() -> None:
    for set_name, files in TRUTH_FILES.items():
        folder = SAMPLE_DATA / set_name
        assert (folder / "LICENSE").read_text("utf-8").strip(), set_name
        ids = _ids(folder / files[0])
        assert len(ids) == len(set(ids)) == SIZES.get(set_name, 7 * PER_PAGE_TYPE), set_name
        for other in files[1:]:
            assert sorted(_ids(folder / other)) == sorted(ids), f"{set_name}/{other}"
        assert sorted(path.name for path in (folder / "html").iterdir()) == sorted(
            f"{page_id}.html.gz" for page_id in ids
        )


def test_the_pages_are_the_bytes_their_ids_name() -> None:
    # The ROUGE and segment sets name each page by the SHA-256 of its raw bytes.
    for page in load_pages(SAMPLE_DATA, tuple(SIZES)):
        assert hashlib.sha256(page.raw).hexdigest() == page.page_id, page.set_name


def test_every_page_type_of_wcxb_dev_is_there_with_every_ground_truth_field() -> None:
    folder = SAMPLE_DATA / PAGE_TYPED
    lines = (folder / "ground_truth.jsonl").read_text("utf-8").splitlines()
    rows = [json.loads(line) for line in lines if line]
    by_type: dict[str, int] = {}
    for row in rows:
        by_type[row["page_type"]] = by_type.get(row["page_type"], 0) + 1
        assert set(row) == {
            "page_id", "url", "page_type", "title", "plaintext", "markdown", "with", "without"
        }  # fmt: skip
        assert gzip.decompress((folder / "html" / f"{row['page_id']}.html.gz").read_bytes())
    assert by_type == dict.fromkeys(
        ("article", "collection", "documentation", "forum", "listing", "product", "service"),
        PER_PAGE_TYPE,
    )


def test_the_warc_files_are_there_with_their_licences() -> None:
    names = {path.name for path in (SAMPLE_DATA / WARC).iterdir()}
    assert names == {
        "cc-main-2024-22-one-page.warc.gz",
        "cc-main-2024-22-one-page.warc.wet.gz",
        "warcio-example.warc.gz",
        "LICENSE.warcio",
        "LICENSE.whirlwind-python",
    }


def test_the_readme_names_every_set_and_licence() -> None:
    readme = (SAMPLE_DATA / "README.md").read_text("utf-8")
    for name in [*TRUTH_FILES, WARC, "MIT", "Apache-2.0", "CC-BY-4.0", "devkit.corpus_sample"]:
        assert name in readme, name


def test_the_sample_is_the_choice_of_devkit_corpus_sample_from_the_full_sets(
    full_data: Path,
) -> None:
    assert differences(full_data) == []
