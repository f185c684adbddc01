"""Does each rule generalise? Its gain on every development set, and on two halves of WCXB's.

A rule that gains on the pages it was tuned on may only have learnt their
sites. This script switches each of the default configuration's rules off in
turn (as bench.accuracy's ablation does) and prints the F1 it was worth
(DEFAULT_CONF's F1 less the F1 without it, in points x100) on each of the four
development sets, and on two halves of wcxb-dev split by the page's site
(`site_half`: a hash of the URL's host, so that every page of one site falls
in the same half, and a rule that only learnt one site's template gains in
one half alone). A rule whose gain holds in both halves and on every set is
not one site's; a loss in one half, or on one set, is the thing to read.

Each configuration fits every page of the four sets (2,313 pages, about 15 s
a configuration on one core); the configurations run on --jobs processes.

    python -m bench.rule_halves [--rules comments,list_headings] [--jobs 2]
                                [--data ../shared/data]
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from urllib.parse import urlsplit

from bench.accuracy import Run, run_fit, summarize
from blockdensity import DEFAULT_CONF
from blockdensity.conf import Conf, Rule
from devkit.corpus import (
    DEFAULT_DATA,
    PAGE_TYPE_SETS,
    SEGMENT_SETS,
    SETS,
    Page,
    load_pages,
)

__all__ = ["HALVES", "site_half", "worth"]

EVERY_SET = SETS + SEGMENT_SETS + PAGE_TYPE_SETS
# wcxb-dev's pages by their site's half (site_half 0 and 1).
HALVES = ("wcxb-dev A", "wcxb-dev B")


def site_half(url: str | None, page_id: str) -> int:
    """0 or 1: the half of the page's site (its URL's host; the page's id where it has
    none), by the first bit of the host's MD5: the same on every run and machine."""
    host = (urlsplit(url).hostname if url else None) or page_id
    return hashlib.md5(host.encode(), usedforsecurity=False).digest()[0] & 1


def _columns(pages: Sequence[Page]) -> list[tuple[str, list[int]]]:
    """Each column's name and its pages' indexes: the sets, then WCXB's halves."""
    columns = [
        (name, [i for i, page in enumerate(pages) if page.set_name == name]) for name in EVERY_SET
    ]
    for half, name in enumerate(HALVES):
        columns.append(
            (
                name,
                [
                    i
                    for i, page in enumerate(pages)
                    if page.set_name in PAGE_TYPE_SETS and site_half(page.url, page.page_id) == half
                ],
            )
        )
    return [(name, chosen) for name, chosen in columns if chosen]


def figures(run: Run, pages: Sequence[Page]) -> dict[str, float]:
    """The run's F1 per column (each set scored as bench.accuracy scores it)."""
    result = {}
    for name, chosen in _columns(pages):
        part = dataclasses.replace(
            run,
            outcomes=[run.outcomes[i] for i in chosen],
            seconds=[run.seconds[i] for i in chosen],
            fallbacks=None,
        )
        chosen_pages = [pages[i] for i in chosen]
        result[name] = summarize(part, chosen_pages, chosen_pages[0].set_name).f1
    return result


def worth(default: dict[str, float], without: dict[str, float]) -> dict[str, float]:
    """What a rule was worth in each column, in F1 points (x100): with it less without."""
    return {name: (default[name] - without[name]) * 100 for name in default}


_PAGES: list[Page] = []


def _load(data: Path) -> None:
    _PAGES.extend(load_pages(data, EVERY_SET))


def _figures_of(conf: Conf) -> dict[str, float]:
    return figures(run_fit("variant", conf, _PAGES), _PAGES)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--rules", default="", help="comma-separated rules (default: all)")
    parser.add_argument("--jobs", type=int, default=2, help="processes")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="the corpus folder")
    args = parser.parse_args(argv)
    chosen = [Rule(name) for name in args.rules.split(",") if name]
    rules = chosen or sorted(DEFAULT_CONF.article_rules)
    confs = [DEFAULT_CONF] + [
        dataclasses.replace(DEFAULT_CONF, article_rules=DEFAULT_CONF.article_rules - {rule})
        for rule in rules
    ]
    with ProcessPoolExecutor(args.jobs, initializer=_load, initargs=(args.data,)) as pool:
        default, *variants = pool.map(_figures_of, confs)
    names = list(default)
    print("What each rule is worth: DEFAULT_CONF's F1 less the F1 without it, in points (x100);")
    print("wcxb-dev A and B: its pages split in two by their site (bench.rule_halves.site_half).")
    print()
    print("| rule | " + " | ".join(names) + " |")
    print("|---|" + "---:|" * len(names))
    print("| DEFAULT_CONF's F1 | " + " | ".join(f"{default[name]:.4f}" for name in names) + " |")
    for rule, without in zip(rules, variants, strict=True):
        gains = worth(default, without)
        print(f"| {rule} | " + " | ".join(f"{gains[name]:+.2f}" for name in names) + " |")


if __name__ == "__main__":
    main()
