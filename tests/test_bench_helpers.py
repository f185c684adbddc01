"""The pure helpers of the speed benchmarks (bench/speed.py, bench/stages.py): how pages are
cut into size quartiles and how trafilatura's sample is drawn. The benchmarks themselves
are run by hand; a wrong cut would put every figure in the wrong row, silently."""

from __future__ import annotations

import itertools

from hypothesis import given
from hypothesis import strategies as st

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
