"""How much a learned filter over the fit's own block figures could add on WCXB's kinds of page.

The rules by kind of page (blockdensity.decide) are hand-written, each measured
on the four development sets. This asks whether a model could find more in
the figures every block already carries: a logistic regression over each
block's element, its reason (the tree's leaf or the rule that decided), its
scope, the page's kind (the fit's own call), its words (log), its link
density, its place among the page's blocks and among the kept ones, and its
share of the kept words. Two filters are fitted, each after the fit's own
decisions:

- drop: over the kept blocks, whether most of a block's words are not in the
  truth (what the kept blocks leave of the truth's multiset, in page order:
  bench.pagetype_losses's attribution); a kept block the model is surer of
  than the threshold is dropped;
- keep: over the dropped blocks, whether most of a block's words are in the
  truth; a dropped block the model is surer of than the threshold is kept.

Each page is judged by a model fitted without its site (5 folds by the URL's
host, a fixed seed; plain gradient descent with Adam, numpy only, as
bench/pagetype_train.py fits the classifier), so a site's template cannot
teach the model its own pages. The script prints WCXB dev's mean F1 (all and
by type) for each filter and threshold, beside the fit's, and how many pages
gain and lose. Only wcxb-dev is read: a filter that gained here would then
have to be measured on the other three sets before it became a rule.

Reads bench/out/wcxb-blocks.pkl (bench.pagetype_losses's cache; made on first
use) and bench/out/wcxb-kinds.json (the fit's page type per page; made here on
first use).

    python -m bench.block_model [--articles] [--refresh]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Final
from urllib.parse import urlsplit

# One thread: the matrices are small (see bench/pagetype_train.py).
for _name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

import numpy as np  # noqa: E402 - after the thread limits

from bench.pagetype_losses import FitPage, attribute, fit_pages, kept, text_of  # noqa: E402
from bench.wcxb import TYPES, tokens, wcxb_score  # noqa: E402
from blockdensity import Reason, fit_text  # noqa: E402
from devkit.corpus import PAGE_TYPE_SETS, load_pages  # noqa: E402

KINDS_CACHE: Final = Path("bench/out/wcxb-kinds.json")
FOLDS: Final = 5
THRESHOLDS: Final = (0.5, 0.6, 0.7, 0.8, 0.9)
_ELEMENTS: Final = ("p", "li", "div", "heading", "td", "pre", "dd", "dt", "span", "other")
_SCOPES: Final = ("article:main", "article:content", "article:boxes", "article:comments", "")
_REASONS: Final = tuple(reason.value for reason in Reason)

Matrix = np.ndarray  # float64, one row per block


def page_kinds(refresh: bool = False) -> dict[str, str]:
    """The fit's page type for every WCXB dev page ("article" where it gives none)."""
    if KINDS_CACHE.exists() and not refresh:
        stored: dict[str, str] = json.loads(KINDS_CACHE.read_text(encoding="utf-8"))
        return stored
    kinds = {}
    for page in load_pages(sets=PAGE_TYPE_SETS):
        kind = fit_text(page.html, url=page.url).page_type
        kinds[page.page_id] = kind.value if kind is not None else "article"
    KINDS_CACHE.parent.mkdir(parents=True, exist_ok=True)
    KINDS_CACHE.write_text(json.dumps(kinds), encoding="utf-8")
    return kinds


def _element(name: str) -> str:
    if name in {"h1", "h2", "h3", "h4", "h5", "h6"}:
        return "heading"
    return name if name in _ELEMENTS else "other"


def candidates(
    page: FitPage, kind: str, among_kept: bool
) -> tuple[list[int], list[list[float]], list[float]]:
    """The page's kept (or dropped) blocks: their indices, figures and labels (1: most of
    the block's words are not in the truth, for the kept; are in it, for the dropped)."""
    flags = [kept(block) for block in page.blocks]
    added, missed, _ = attribute(page, flags)
    indices = [index for index, flag in enumerate(flags) if flag == among_kept]
    kept_words = sum(block.words for block in page.blocks if kept(block)) or 1
    rows, labels = [], []
    for rank, index in enumerate(indices):
        block = page.blocks[index]
        scope = block.scope if block.scope in _SCOPES else ""
        rows.append(
            [
                *(float(_element(block.element) == name) for name in _ELEMENTS),
                *(float(block.reason.value == reason) for reason in _REASONS),
                *(float(scope == name) for name in _SCOPES),
                float(block.scope is not None and scope == ""),  # nav, footer, aside, ...
                *(float(kind == name) for name in TYPES),
                math.log1p(block.words),
                block.link_density / 1000,
                index / len(page.blocks),
                rank / max(len(indices), 1),
                block.words / kept_words,
                math.log1p(len(indices)),
            ]
        )
        wrong = added[index] if among_kept else missed[index]
        labels.append(float(2 * sum(wrong.values()) > max(len(tokens(block.text)), 1)))
    return indices, rows, labels


def fit_logistic(features: Matrix, labels: Matrix, penalty: float = 1e-3) -> Matrix:
    """Weights (the bias first) of an L2-penalised logistic regression, by Adam."""
    design = np.hstack([np.ones((len(features), 1)), features])
    weights = np.zeros(design.shape[1])
    first, second = np.zeros_like(weights), np.zeros_like(weights)
    for step in range(1, 401):
        predicted = 1 / (1 + np.exp(-(design @ weights)))
        gradient = design.T @ (predicted - labels) / len(labels)
        gradient[1:] += penalty * weights[1:]
        first = 0.9 * first + 0.1 * gradient
        second = 0.999 * second + 0.001 * gradient * gradient
        weights -= 0.05 * (first / (1 - 0.9**step)) / (np.sqrt(second / (1 - 0.999**step)) + 1e-8)
    return weights


def out_of_fold(features: Matrix, labels: Matrix, groups: Sequence[str]) -> Matrix:
    """Each row's probability from a model fitted without its group (its site)."""
    sites = sorted(set(groups))
    order = np.random.default_rng(0).permutation(len(sites))
    fold_of = {sites[position]: rank % FOLDS for rank, position in enumerate(order)}
    folds = np.array([fold_of[group] for group in groups])
    mean, spread = features.mean(axis=0), features.std(axis=0) + 1e-9
    scaled = (features - mean) / spread
    probability = np.zeros(len(labels))
    for fold in range(FOLDS):
        train, held = folds != fold, folds == fold
        weights = fit_logistic(scaled[train], labels[train])
        design = np.hstack([np.ones((int(held.sum()), 1)), scaled[held]])
        probability[held] = 1 / (1 + np.exp(-(design @ weights)))
    return probability


def measure(pages: list[FitPage], kinds: dict[str, str], among_kept: bool, articles: bool) -> None:
    chosen = [page for page in pages if articles or kinds[page.page_id] != "article"]
    rows: list[list[float]] = []
    labels: list[float] = []
    groups: list[str] = []
    owners: list[tuple[str, int]] = []
    for page in chosen:
        indices, page_rows, page_labels = candidates(page, kinds[page.page_id], among_kept)
        rows += page_rows
        labels += page_labels
        groups += [urlsplit(page.url).hostname or page.page_id] * len(indices)
        owners += [(page.page_id, index) for index in indices]
    probability = out_of_fold(np.array(rows), np.array(labels), groups)
    by_page: dict[str, list[tuple[int, float]]] = defaultdict(list)
    for (page_id, index), value in zip(owners, probability, strict=True):
        by_page[page_id].append((index, float(value)))
    name = "drop (kept blocks)" if among_kept else "keep (dropped blocks)"
    print(f"\n### {name}: {len(labels)} blocks, {sum(labels) / len(labels):.1%} labelled 1\n")
    print("| threshold | all | " + " | ".join(TYPES) + " | pages up | pages down |")
    print("|---|" + "---:|" * (len(TYPES) + 3))
    _row("the fit", pages, {}, among_kept, None)
    for threshold in THRESHOLDS:
        _row(f"{threshold:.1f}", pages, by_page, among_kept, threshold)


def _row(
    label: str,
    pages: list[FitPage],
    by_page: dict[str, list[tuple[int, float]]],
    among_kept: bool,
    threshold: float | None,
) -> None:
    per_type: dict[str, list[float]] = {kind: [] for kind in TYPES}
    up = down = 0
    for page in pages:
        flags = [kept(block) for block in page.blocks]
        # The kept blocks' texts, as the filter's outputs are made (the fit's own text
        # where it kept none: its fallback).
        before = wcxb_score(text_of(page, flags) if any(flags) else page.text, page.truth)[2]
        after = before
        if threshold is not None and page.page_id in by_page:
            changed = list(flags)
            for index, value in by_page[page.page_id]:
                if value > threshold:
                    changed[index] = not among_kept
            if any(changed) and changed != flags:
                after = wcxb_score(text_of(page, changed), page.truth)[2]
        up += after > before + 1e-9
        down += after < before - 1e-9
        per_type[page.page_type].append(after)
    everything = statistics.mean(value for values in per_type.values() for value in values)
    cells = " | ".join(f"{statistics.mean(values):.4f}" for values in per_type.values())
    print(f"| {label} | {everything:.4f} | {cells} | {up} | {down} |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument(
        "--articles", action="store_true", help="the pages the fit calls articles too"
    )
    parser.add_argument("--refresh", action="store_true", help="fit the pages again")
    args = parser.parse_args(argv)
    pages = fit_pages(args.refresh)
    kinds = page_kinds(args.refresh)
    where = "every page" if args.articles else "the pages the fit calls another kind than article"
    print(f"WCXB dev, {len(pages)} pages; the filters run on {where}")
    for among_kept in (True, False):
        measure(pages, kinds, among_kept, args.articles)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
