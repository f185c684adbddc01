"""The page-type set's loading and scoring (devkit.corpus): WCXB's word F1 and its passages.

Hand-made cases, each chosen so that a plausible slip (whitespace tokens
instead of `\\w+` words, no lowercasing, a set instead of a multiset, the
ROUGE sets' empty-truth rule, passages compared case-sensitively or without
collapsing whitespace) gives another figure.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from devkit.corpus import (
    ALL_SETS,
    EVERY_SET,
    PAGE_TYPE_SETS,
    PAGE_TYPES,
    Counts,
    Page,
    Score,
    count_passages,
    count_segments,
    load_pages,
    score,
    score_words,
    words,
)


def _close(got: Score, precision: float, recall: float, f1: float) -> bool:
    return got == Score(
        pytest.approx(precision),  # type: ignore[arg-type]
        pytest.approx(recall),  # type: ignore[arg-type]
        pytest.approx(f1),  # type: ignore[arg-type]
    )


def test_words_are_lowercased_word_character_runs() -> None:
    assert words("Don't e-mail ME: snake_case, Größe 3.5!") == [
        "don",
        "t",
        "e",
        "mail",
        "me",
        "snake_case",
        "größe",
        "3",
        "5",
    ]


def test_case_and_punctuation_do_not_count() -> None:
    # The ROUGE sets' whitespace tokens would see three different tokens here.
    assert score_words("Hello, World!", "hello world") == Score(1.0, 1.0, 1.0)
    assert score("Hello, World!", "hello world").f1 == 0.0


def test_overlap_is_a_multiset() -> None:
    # Output a a a b, truth a b b: overlap min(3, 1) + min(1, 2) = 2.
    got = score_words("a A a b", "a b B")
    assert _close(got, 2 / 4, 2 / 3, 2 * (1 / 2) * (2 / 3) / (1 / 2 + 2 / 3))


def test_repeated_output_lowers_precision_only() -> None:
    assert _close(score_words("the the THE", "the"), 1 / 3, 1.0, 0.5)


def test_no_overlap_scores_zero() -> None:
    assert score_words("menu login", "the article") == Score(0.0, 0.0, 0.0)


def test_empty_output_against_a_truth_scores_zero() -> None:
    assert score_words("", "some text") == Score(0.0, 0.0, 0.0)
    assert score_words(" ... !", "some text") == Score(0.0, 0.0, 0.0)


def test_empty_truth_scores_one_only_against_an_empty_output() -> None:
    assert score_words("", "") == Score(1.0, 1.0, 1.0)
    # Emptiness is judged on words: punctuation alone is empty on both sides.
    assert score_words("-- | --", "") == Score(1.0, 1.0, 1.0)
    assert score_words("", "* * *") == Score(1.0, 1.0, 1.0)
    # Any word against an empty truth is 0, where the ROUGE sets give recall 1.
    assert score_words("cookie banner", "") == Score(0.0, 0.0, 0.0)
    assert score("cookie banner", "") == Score(0.0, 1.0, 0.0)


def _page(with_passages: tuple[str, ...], without_passages: tuple[str, ...]) -> Page:
    return Page(
        "wcxb-dev",
        "0001",
        b"",
        "",
        "",
        with_passages,
        without_passages,
        page_type="article",
    )


def test_passages_are_found_lowercased_with_whitespace_collapsed() -> None:
    page = _page(
        ("The Main   Story begins", "It ends here.", "Not in the output"),
        ("Accept COOKIES", "Subscribe now"),
    )
    output = "the main story\nbegins today.\n\nIt ends  here.\nAccept cookies"
    assert count_passages(output, page) == Counts(
        true_positives=2, false_negatives=1, false_positives=1, true_negatives=1
    )
    # The segment set's check keeps case: the same output finds fewer passages.
    assert count_segments(output, page) == Counts(1, 2, 0, 2)


def test_a_passage_split_by_other_text_is_not_found() -> None:
    page = _page(("first second",), ())
    assert count_passages("first inserted second", page) == Counts(0, 1, 0, 0)


def _write_set(folder: Path, rows: list[dict[str, object]]) -> None:
    (folder / "html").mkdir(parents=True)
    lines = [json.dumps(row) for row in rows]
    (folder / "ground_truth.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    for row in rows:
        html = f"<html><body><p>page {row['page_id']}</p></body></html>".encode()
        (folder / "html" / f"{row['page_id']}.html.gz").write_bytes(gzip.compress(html))


def _row(page_id: str, page_type: str, url: str) -> dict[str, object]:
    return {
        "page_id": page_id,
        "url": url,
        "page_type": page_type,
        "title": "A title",
        "plaintext": f"Heading {page_id}\n\nBody text.",
        "markdown": f"# Heading {page_id}\n\nBody text.",
        "with": ["Body text."],
        "without": ["Menu"],
    }


def test_the_page_type_set_loads_its_fields(tmp_path: Path) -> None:
    _write_set(
        tmp_path / "wcxb-dev",
        [_row("0001", "forum", "https://example.com/t/1"), _row("0002", "service", "")],
    )
    first, second = load_pages(tmp_path, PAGE_TYPE_SETS)
    assert first.set_name == "wcxb-dev"
    assert first.page_id == "0001"
    assert first.html == "<html><body><p>page 0001</p></body></html>"
    assert first.truth == "Heading 0001\n\nBody text."
    assert first.truth_markdown == "# Heading 0001\n\nBody text."
    assert first.with_passages == ("Body text.",)
    assert first.without_passages == ("Menu",)
    assert first.url == "https://example.com/t/1"
    assert first.page_type == "forum"
    assert first.typed
    assert not first.segmented
    # An empty URL in the file is no URL.
    assert second.url is None
    assert second.page_type == "service"


def test_an_unknown_page_type_is_named_with_its_line(tmp_path: Path) -> None:
    _write_set(tmp_path / "wcxb-dev", [_row("0001", "article", ""), _row("0002", "category", "")])
    with pytest.raises(ValueError, match=r"ground_truth\.jsonl:2: page '0002' has page_type"):
        load_pages(tmp_path, PAGE_TYPE_SETS)


def test_the_set_lists() -> None:
    # The gate's sets stay as they were; the page-type set is beside them.
    assert ALL_SETS == ("scrapinghub", "readability", "trafilatura-eval")
    assert EVERY_SET[: len(ALL_SETS)] == ALL_SETS
    assert EVERY_SET[len(ALL_SETS) :] == PAGE_TYPE_SETS == ("wcxb-dev",)
    assert len(set(PAGE_TYPES)) == 7
