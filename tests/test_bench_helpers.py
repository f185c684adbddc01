"""The pure helpers of the benchmarks: how the speed benchmarks (bench/speed.py,
bench/stages.py) cut pages into size quartiles and draw trafilatura's sample, and how
bench/markdown.py takes a Markdown's elements and finds a truth's stray fences, and how
bench/block_model.py fits its filter without the site it judges, and how
bench/rule_halves.py splits WCXB's pages by site and reads a rule's worth. The benchmarks
themselves are run by hand; a wrong cut would put every figure in the wrong row,
silently."""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bench.block_model import fit_logistic, out_of_fold
from bench.markdown import elements, holds_table, linked_shares, stray_fences
from bench.rule_halves import site_half, worth
from bench.speed import html_bytes, size_quartiles, spread_sample


@given(st.lists(st.integers(min_value=0, max_value=10**7), max_size=60))
def test_the_quartiles_partition_the_pages_by_size(sizes: list[int]) -> None:
    quartiles = size_quartiles(sizes)
    assert len(quartiles) == 4
    assert sorted(index for quartile in quartiles for index in quartile) == list(range(len(sizes)))
    counts = [len(quartile) for quartile in quartiles]
    assert max(counts) - min(counts) <= 1
    for smaller, larger in itertools.pairwise(quartiles):
        if smaller and larger:
            assert max(sizes[index] for index in smaller) <= min(sizes[index] for index in larger)


def test_the_quartiles_of_eight_pages() -> None:
    sizes = [80, 10, 70, 20, 60, 30, 50, 40]
    assert size_quartiles(sizes) == [[1, 3], [5, 7], [6, 4], [2, 0]]


@given(st.lists(st.integers(), max_size=80, unique=True), st.integers(min_value=1, max_value=30))
def test_the_sample_is_spread_and_in_order(items: list[int], count: int) -> None:
    sample = spread_sample(items, count)
    assert len(sample) == min(count, len(items))
    positions = [items.index(item) for item in sample]
    assert positions == sorted(set(positions))  # distinct, in the items' order
    if len(items) > count:
        stretch = len(items) / count
        # one item from each of `count` equal stretches
        assert [int(position // stretch) for position in positions] == list(range(count))


def test_a_page_is_measured_in_utf8_bytes() -> None:
    assert html_bytes("<p>é</p>") == 9


def test_the_markdown_scoring_takes_each_kind_of_element() -> None:
    markdown = (
        "# A *title*\n\nText.\n\n- one [item](https://example.org/a)\n  2. two\n\n"
        "| Name | Size |\n| --- | :-: |\n| a | 1 |\n\n```py\nx = 1\n```\n"
    )
    found = elements(markdown)
    assert found["headings"] == Counter({"a title": 1})
    assert found["list items"] == Counter({"one item https example org a": 1, "two": 1})
    assert found["table cells"] == Counter({"name": 1, "size": 1, "a": 1, "1": 1})
    assert found["code tokens"] == Counter({"x": 1, "1": 1})


def test_the_share_of_the_truth_s_elements_holding_a_link() -> None:
    truth = "- [a](https://example.org/a)\n- b\n- c [d](http://x.org)\n- e\n\n# f\n"
    shares = linked_shares([truth, "- g\n"])
    assert shares["list items"] == 2 / 5
    assert shares["headings"] == 0.0
    assert shares["table cells"] == 0.0


def test_a_fence_inside_a_line_is_stray_and_fences_where_commonmark_opens_them_are_not() -> None:
    assert stray_fences("Install it: ```\nsudo apt install unbound\n```\n")
    assert stray_fences("1 2 3 | ```bash\ngit clone x\n```\n")
    assert stray_fences("``` Next, fetch `root.hints` : ```\n")
    well_formed = (
        "```py\nx = 1\n```\n\n> ```\n> quoted\n> ```\n\n1. ```sh\n   ls\n   ```\n~~~\ny\n~~~\n"
    )
    assert not stray_fences(well_formed)
    assert not stray_fences("Text with `inline` code and no fence.\n")


def test_a_truth_holds_a_table_only_with_a_pipe_table_s_cells() -> None:
    assert holds_table("Text\n\n| a | b |\n| --- | --- |\n| 1 | 2 |\n")
    assert not holds_table("Top Speed 19.8 mph 17.4 mph\nRange 18.7 mi 11.4 mi\n")
    assert not holds_table("| --- | --- |\n")  # a delimiter row alone holds no cell
    assert not holds_table("```\n| a | b |\n```\n")  # a table inside code is code


def test_the_block_model_separates_what_its_figures_separate() -> None:
    features = np.array([[value] for value in range(-10, 11)], dtype=float)
    labels = (features[:, 0] > 0).astype(float)
    weights = fit_logistic(features, labels)
    design = np.hstack([np.ones((len(features), 1)), features])
    predicted = 1 / (1 + np.exp(-(design @ weights)))
    assert ((predicted > 0.5) == (labels == 1)).all()


def test_a_site_s_blocks_are_judged_by_a_model_that_never_saw_the_site() -> None:
    rng = np.random.default_rng(1)
    features = rng.normal(size=(60, 3))
    labels = (features[:, 0] > 0).astype(float)
    groups = [f"site{index % 12}.example" for index in range(60)]
    before = out_of_fold(features, labels, groups)
    # Turn one site's labels over: its own blocks' probabilities stay as they were.
    flipped = labels.copy()
    mine = np.array([group == "site3.example" for group in groups])
    flipped[mine] = 1 - flipped[mine]
    after = out_of_fold(features, flipped, groups)
    assert np.allclose(before[mine], after[mine])
    assert not np.allclose(before[~mine], after[~mine])


@given(st.sampled_from(["a.example", "b.example.org", "shop.example.com", "x.test"]),
       st.lists(st.text(alphabet="abc/-", max_size=12), min_size=2, max_size=5))  # fmt: skip
def test_every_page_of_a_site_falls_in_the_same_half(host: str, paths: list[str]) -> None:
    halves = {site_half(f"https://{host}/{path}", "0001") for path in paths}
    assert len(halves) == 1
    assert halves <= {0, 1}


def test_the_halves_are_fixed_and_both_taken() -> None:
    # MD5's first bit of the host: the same on every run (a salted hash() would not be).
    hosts = [f"site{index}.example" for index in range(40)]
    halves = [site_half(f"https://{host}/page", "0001") for host in hosts]
    assert halves == [site_half(f"http://{host}/other?q=1", "0002") for host in hosts]
    assert 10 <= sum(halves) <= 30
    # Without a URL, the page's id stands for its site.
    assert site_half(None, "0001") == site_half("", "0001")


def test_a_rule_s_worth_is_its_f1_with_it_less_without_it_in_points() -> None:
    gains = worth(
        {"wcxb-dev": 0.8691, "scrapinghub": 0.95}, {"wcxb-dev": 0.8696, "scrapinghub": 0.94}
    )
    assert gains["wcxb-dev"] == pytest.approx(-0.05)
    assert gains["scrapinghub"] == pytest.approx(1.0)
