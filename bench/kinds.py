"""The rules by kind of page, measured: WCXB's types with their true labels, and the
article sets as if the classifier had called them that kind.

The fit runs on every page of WCXB's development split with the page's own
type (fit_text(..., page_type=...), as a crawler that knows its pages, or a
classifier that is right); per type, the mean F1, precision and recall of
WCXB's word scoring (devkit.corpus.score_words, as bench.accuracy scores
it). With --misapply KIND,..., the three article sets (scrapinghub,
readability: mean ROUGE F1; trafilatura-eval: F1 of the summed passages)
run as pages of each KIND: what a kind's rules cost where the classifier
errs (BENCHMARKS.md, "Rules by kind of page"); "none" is the default fit,
no kind given. --without RULE,... leaves rules out of the default
configuration, to measure what each one brings.

    python -m bench.kinds [--types product,listing] [--misapply none,product]
        [--without item_grid,duplicate_text]
"""

from __future__ import annotations

import argparse
import statistics
from collections import defaultdict

from blockdensity import Conf, Rule, fit_text
from blockdensity.conf import ARTICLE_RULES
from blockdensity.pagetype import PageType
from devkit.corpus import (
    Counts,
    Score,
    count_segments,
    load_pages,
    score,
    score_words,
    sum_counts,
)

_ARTICLE_SETS = ("scrapinghub", "readability", "trafilatura-eval")


def by_type(conf: Conf, types: set[str] | None) -> dict[str, list[Score]]:
    """WCXB's development pages of `types` (None: all), fitted with their true type."""
    scores: dict[str, list[Score]] = defaultdict(list)
    for page in load_pages(sets=("wcxb-dev",)):
        label = page.page_type or ""
        if types is not None and label not in types:
            continue
        fit = fit_text(page.html, conf, url=page.url, page_type=PageType(label))
        scores[label].append(score_words(fit.text, page.truth))
    return scores


def misapplied(conf: Conf, kind: PageType | None) -> dict[str, float]:
    """Each article set's F1 with its pages fitted as pages of `kind` (None: no kind)."""
    scores: dict[str, list[Score]] = defaultdict(list)
    counts: dict[str, list[Counts]] = defaultdict(list)
    for page in load_pages(sets=_ARTICLE_SETS):
        text = fit_text(page.html, conf, url=page.url, page_type=kind).text
        if page.segmented:
            counts[page.set_name].append(count_segments(text, page))
        else:
            scores[page.set_name].append(score(text, page.truth))
    figures = {name: statistics.fmean(s.f1 for s in found) for name, found in scores.items()}
    figures.update({name: sum_counts(found).f1 for name, found in counts.items()})
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--types", default="", help="WCXB types, comma separated (all)")
    parser.add_argument("--misapply", default="", help="kinds to fit the article sets as")
    parser.add_argument("--without", default="", help="rules to leave out, comma separated")
    options = parser.parse_args()
    left_out = {Rule(name) for name in options.without.split(",") if name}
    conf = Conf(article_rules=ARTICLE_RULES - left_out)
    if options.types != "none":
        types = set(options.types.split(",")) if options.types else None
        for label, found in sorted(by_type(conf, types).items()):
            print(
                f"{label:14s} pages {len(found):4d}"
                f"  F1 {statistics.fmean(s.f1 for s in found):.4f}"
                f"  P {statistics.fmean(s.precision for s in found):.4f}"
                f"  R {statistics.fmean(s.recall for s in found):.4f}"
            )
    for name in filter(None, options.misapply.split(",")):
        kind = None if name == "none" else PageType(name)
        figures = misapplied(conf, kind)
        print(f"as {name:13s} " + "  ".join(f"{s} {figures[s]:.4f}" for s in _ARTICLE_SETS))


if __name__ == "__main__":
    main()
