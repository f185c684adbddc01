"""Fit blockdensity.confidence's weights on the development pages, and measure how well the
confidence ranks and how well it is calibrated.

Fits every development page of the four sets of ../shared/data (scrapinghub,
readability, trafilatura-eval, wcxb-dev) under the default configuration,
scores each page's text as its set is scored (../shared/data/README.md):
the ROUGE sets' whitespace-token F1 (devkit.corpus.score), WCXB's lowercase
`\\w+`-token F1 (bench.wcxb.wcxb_score), and, on the segment set, the F1 of
one page's passages (devkit.corpus.count_segments). Each page's features
come from its Fit's block records (blockdensity.confidence.figures_of); the
script first checks, page by page, that the confidence they give is the one
the fit computed from its stages' figures.

The model is a logistic regression whose target is the page's F1 (the
cross-entropy of a soft label, L2 penalty on every weight but the bias,
Newton's method): its output estimates F1, so it ranks pages and is
calibrated on average. Reported under k-fold cross-validation by page
(stratified by set, a fixed seed): Spearman's rank correlation of the
out-of-fold confidence with F1 per set (and per page type on WCXB), the
reliability table (mean F1 per tenth of confidence), and what share of the
pages falls at or below 0.5 and 0.7 with their mean F1 (and how many of the
pages under F1 0.5 each catches); then the same figures for
the weights the module holds now, under both profiles. `--write` fits on
every page and writes the weight table into blockdensity/confidence.py
(between its BEGIN WEIGHTS and END WEIGHTS lines): re-run it after any
change to the fit's rules.

    python -m bench.confidence_train [--folds 10] [--penalty 0.0001] [--grid]
        [--pages bench/out/confidence-pages.jsonl] [--write]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

# One thread: the matrices are small, and BLAS threads fighting over a shared
# machine's cores make each step slower.
for _name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

import numpy as np  # noqa: E402 - after the thread limits

from blockdensity import DEFAULT_CONF, PUBLISHED_CONF, Conf, Fit, fit_text  # noqa: E402
from blockdensity.confidence import FEATURES, confidence, features, figures_of  # noqa: E402
from devkit.corpus import (  # noqa: E402
    EVERY_SET,
    count_segments,
    load_pages,
    score,
    score_words,
)

MODULE = Path(__file__).resolve().parents[1] / "blockdensity" / "confidence.py"
SETS = EVERY_SET
GRID = (0.0, 0.00003, 0.0001, 0.0003, 0.001, 0.003)
THRESHOLDS = (0.5, 0.7)
FAILED = 0.5  # F1 under this: a page the fit failed on


@dataclass(frozen=True, slots=True)
class Row:
    """One page's fit: where it is from, how good its text is, what the confidence reads."""

    set_name: str
    page_id: str
    page_type: str | None  # WCXB's label; None on the other sets
    f1: float
    features: tuple[float, ...]
    confidence: float  # Fit.confidence under the weights the module holds now


def collect(conf: Conf) -> Iterator[Row]:
    """Every development page fitted under `conf`, scored, with its features."""
    for page in load_pages(sets=EVERY_SET):
        fit = fit_text(page.html, conf, url=page.url)
        if page.segmented:
            f1 = count_segments(fit.text, page).f1
        elif page.typed:
            f1 = score_words(fit.text, page.truth).f1
        else:
            f1 = score(fit.text, page.truth).f1
        yield _row(page.set_name, page.page_id, page.page_type, f1, fit)


def _row(set_name: str, page_id: str, page_type: str | None, f1: float, fit: Fit) -> Row:
    read = figures_of(fit)
    again = confidence(read)
    if fit.confidence is None or again != fit.confidence:
        raise SystemExit(
            f"{set_name}/{page_id}: the fit's confidence {fit.confidence} is not the one its"
            f" block records give ({again}): blockdensity.confidence.figures and figures_of"
            " disagree"
        )
    return Row(set_name, page_id, page_type, f1, features(read), again)


# -- the model ----------------------------------------------------------------------


def sigmoid(z: np.ndarray) -> np.ndarray:
    return np.asarray(1.0 / (1.0 + np.exp(-z)))


def fit_weights(x: np.ndarray, y: np.ndarray, penalty: float, steps: int = 50) -> np.ndarray:
    """Logistic regression weights for soft labels `y` in [0, 1]: mean cross-entropy +
    penalty * |w|^2 / 2 over every weight but the bias's (the first column), by Newton's
    method (the loss is convex; a few steps converge)."""
    n, d = x.shape
    ridge = np.full(d, penalty)
    ridge[0] = 0.0
    w = np.zeros(d)
    for _ in range(steps):
        p = sigmoid(x @ w)
        gradient = x.T @ (p - y) / n + ridge * w
        hessian = (x * (p * (1 - p))[:, None]).T @ x / n + np.diag(ridge) + 1e-9 * np.eye(d)
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if np.abs(step).max() < 1e-10:
            break
    return w


def folds_of(rows: list[Row], folds: int, seed: int = 0) -> np.ndarray:
    """Each page's fold: pages of each set dealt round-robin in a seeded shuffle."""
    rng = np.random.default_rng(seed)
    fold = np.zeros(len(rows), dtype=int)
    for set_name in SETS:
        members = [index for index, row in enumerate(rows) if row.set_name == set_name]
        order = rng.permutation(len(members))
        for position, member in enumerate(order):
            fold[members[member]] = position % folds
    return fold


def cross_validate(x: np.ndarray, y: np.ndarray, fold: np.ndarray, penalty: float) -> np.ndarray:
    """The out-of-fold prediction of every page."""
    predicted = np.zeros(len(y))
    for k in np.unique(fold):
        train = fold != k
        predicted[~train] = sigmoid(x[~train] @ fit_weights(x[train], y[train], penalty))
    # As the library rounds it.
    return np.round(predicted, 3)


# -- the figures ----------------------------------------------------------------------


def ranks(values: np.ndarray) -> np.ndarray:
    """Ranks from 0, ties sharing their mean rank."""
    order = np.argsort(values, kind="stable")
    ranked = np.empty(len(values))
    ordered = values[order]
    start = 0
    while start < len(values):
        end = start
        while end + 1 < len(values) and ordered[end + 1] == ordered[start]:
            end += 1
        ranked[order[start : end + 1]] = (start + end) / 2
        start = end + 1
    return ranked


def spearman(a: np.ndarray, b: np.ndarray) -> float:
    if len(a) < 3 or np.ptp(a) == 0 or np.ptp(b) == 0:
        return float("nan")
    return float(np.corrcoef(ranks(a), ranks(b))[0, 1])


def report(title: str, rows: list[Row], predicted: np.ndarray) -> None:
    """Rank correlation per set and per WCXB type, reliability, and the thresholds."""
    y = np.array([row.f1 for row in rows])
    sets = np.array([row.set_name for row in rows])
    print(f"\n## {title}\n")
    print("| set | pages | mean F1 | mean confidence | Spearman | mean abs. error |")
    print("|---|---:|---:|---:|---:|---:|")
    for set_name in (*SETS, "all"):
        chosen = np.ones(len(rows), bool) if set_name == "all" else sets == set_name
        print(
            f"| {set_name} | {chosen.sum()} | {y[chosen].mean():.3f} |"
            f" {predicted[chosen].mean():.3f} | {spearman(predicted[chosen], y[chosen]):.3f} |"
            f" {np.abs(predicted[chosen] - y[chosen]).mean():.3f} |"
        )
    types = np.array([row.page_type or "" for row in rows])
    print("\nWCXB by page type (Spearman):", end="")
    for page_type in sorted({row.page_type for row in rows if row.page_type}):
        chosen = types == page_type
        print(f" {page_type} {spearman(predicted[chosen], y[chosen]):.2f}", end="")
    print()
    for scope in ("wcxb-dev", "all"):
        chosen = np.ones(len(rows), bool) if scope == "all" else sets == scope
        reliability(scope, predicted[chosen], y[chosen])


def reliability(scope: str, predicted: np.ndarray, y: np.ndarray) -> None:
    print(f"\nReliability ({scope}): pages by tenth of confidence, their mean F1\n")
    print("| confidence | pages | mean confidence | mean F1 |")
    print("|---|---:|---:|---:|")
    tenth = np.minimum((predicted * 10).astype(int), 9)
    for k in range(10):
        chosen = tenth == k
        if chosen.any():
            print(
                f"| {k / 10:.1f}-{(k + 1) / 10:.1f} | {chosen.sum()} |"
                f" {predicted[chosen].mean():.3f} | {y[chosen].mean():.3f} |"
            )
    for threshold in THRESHOLDS:
        # At or below, as the metric's histogram bucket counts them (le=).
        below = predicted <= threshold
        share = below.mean()
        under = f"{y[below].mean():.3f}" if below.any() else "-"
        over = f"{y[~below].mean():.3f}" if (~below).any() else "-"
        # The failures (F1 under 0.5) a threshold sends on: what routing by it catches.
        failed = y < FAILED
        caught = f"{(below & failed).sum() / failed.sum():.0%}" if failed.any() else "-"
        print(
            f"at or below {threshold}: {share:.1%} of the pages, mean F1 {under}"
            f" (the rest: mean F1 {over}); {caught} of the pages under F1 {FAILED}"
        )


# -- writing the weights --------------------------------------------------------------

_TABLE = re.compile(r"(# BEGIN WEIGHTS[^\n]*\n)(.*?)(# END WEIGHTS)", re.S)


def weight_table(weights: Sequence[float] | np.ndarray) -> str:
    """The weights as the module's table: one line a feature, four decimals."""
    lines = ["WEIGHTS: Final[tuple[float, ...]] = ("]
    lines += [
        f"    {weight:.4f},  # {name}" for name, weight in zip(FEATURES, weights, strict=True)
    ]
    lines.append(")")
    return "\n".join(lines) + "\n"


def write_weights(weights: np.ndarray, module: Path = MODULE) -> None:
    source = module.read_text(encoding="utf-8")
    if not _TABLE.search(source):
        raise SystemExit(f"{module}: no BEGIN WEIGHTS ... END WEIGHTS lines to replace")
    table = weight_table(weights)
    module.write_text(_TABLE.sub(lambda m: m[1] + table + m[3], source), encoding="utf-8")
    print(f"\nwrote the weights into {module}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folds", type=int, default=10)
    parser.add_argument("--penalty", type=float, default=0.0001)
    parser.add_argument("--grid", action="store_true", help="cross-validate a grid of penalties")
    parser.add_argument("--pages", type=Path, help="write every page's row here (JSON lines)")
    parser.add_argument("--write", action="store_true", help="write the weights into the module")
    args = parser.parse_args(argv)

    print("fitting the development pages (default configuration) ...", file=sys.stderr)
    rows = list(collect(DEFAULT_CONF))
    print("... and under the published profile", file=sys.stderr)
    published = list(collect(PUBLISHED_CONF))
    if args.pages is not None:
        args.pages.parent.mkdir(parents=True, exist_ok=True)
        with args.pages.open("w", encoding="utf-8") as out:
            for row in rows:
                out.write(json.dumps(_json(row)) + "\n")
    x = np.array([row.features for row in rows])
    y = np.array([row.f1 for row in rows])
    fold = folds_of(rows, args.folds)

    print(f"# blockdensity.confidence: {len(rows)} pages, {args.folds}-fold cross-validation")
    if args.grid:
        wcxb = np.array([row.set_name == "wcxb-dev" for row in rows])
        print("\n| penalty | Spearman, all | Spearman, wcxb-dev | mean abs. error |")
        print("|---:|---:|---:|---:|")
        for penalty in GRID:
            predicted = cross_validate(x, y, fold, penalty)
            print(
                f"| {penalty} | {spearman(predicted, y):.3f} |"
                f" {spearman(predicted[wcxb], y[wcxb]):.3f} |"
                f" {np.abs(predicted - y).mean():.3f} |"
            )
    report(
        f"out of fold, penalty {args.penalty} (default configuration)",
        rows,
        cross_validate(x, y, fold, args.penalty),
    )
    report(
        "the module's weights now (default configuration, in sample)",
        rows,
        np.array([row.confidence for row in rows]),
    )
    report(
        "the module's weights now (published profile)",
        published,
        np.array([row.confidence for row in published]),
    )
    weights = fit_weights(x, y, args.penalty)
    print("\n## weights fitted on every page\n")
    print("| feature | weight | mean value |")
    print("|---|---:|---:|")
    for name, weight, mean in zip(FEATURES, weights, x.mean(axis=0), strict=True):
        print(f"| {name} | {weight:+.3f} | {mean:.3f} |")
    if args.write:
        write_weights(weights)
    return 0


def _json(row: Row) -> dict[str, object]:
    return {
        "set": row.set_name,
        "page_id": row.page_id,
        "page_type": row.page_type,
        "f1": row.f1,
        "confidence": row.confidence,
        "features": dict(zip(FEATURES, row.features, strict=True)),
    }


if __name__ == "__main__":
    raise SystemExit(main())
