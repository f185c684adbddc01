"""Fit blockdensity.pagetype's weights on WCXB's development split, and estimate how well they
generalise.

Reads the evidence bench/pagetype_evidence.py wrote from the fit's own
stages (one row per page), turns each page into
blockdensity.pagetype.features, and fits a multinomial
logistic regression (softmax, L2 penalty on every weight but the bias;
full-batch gradient descent with Adam, numpy only), twice: with the URL's
features and without them. Reports, for each: agreement with WCXB's label
under k-fold cross-validation by page (stratified by type, a fixed seed),
for each penalty of a small grid, and the confusion matrix and per-type
precision and recall at the chosen penalty. When the evidence holds the
article sets' pages too (pagetype_evidence --articles), it reports the share
of them the classifier calls something else than an article with a
confidence that runs another kind's rules (each such page costs F1 there);
`--articles WEIGHT` also trains on them (as articles, each weighing WEIGHT
of a WCXB page). `--write` then fits on every
training page and writes the two weight tables into blockdensity/pagetype.py
(between its BEGIN WEIGHTS and END WEIGHTS lines).

    python -m bench.pagetype_train [--evidence bench/out/pagetype-evidence.jsonl]
        [--folds 10] [--penalty 0.003] [--grid] [--articles WEIGHT] [--write]
"""

from __future__ import annotations

import argparse
import json
import os
import re
from dataclasses import replace
from pathlib import Path
from typing import Final

# One thread: the matrices are small, and BLAS threads fighting over a shared
# machine's cores make each step a hundred times slower.
for _name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

import numpy as np  # noqa: E402 - after the thread limits

from bench.pagetype_evidence import from_json  # noqa: E402
from blockdensity.pagetype import TYPES, Evidence, PageType, classify, features  # noqa: E402

MODULE = Path(__file__).resolve().parents[1] / "blockdensity" / "pagetype.py"
GRID = (0.0003, 0.001, 0.003, 0.01, 0.03)


WCXB: Final = "wcxb-dev"


def load(path: Path) -> tuple[list[Evidence], np.ndarray, list[str], np.ndarray]:
    """The pages' evidence, labels, ids ("set/page id") and whether each is WCXB's."""
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    labels = np.array([TYPES.index(row["page_type"]) for row in rows])
    sets = [row.get("set", WCXB) for row in rows]
    ids = [f"{set_name}/{row['page_id']}" for set_name, row in zip(sets, rows, strict=True)]
    wcxb = np.array([set_name == WCXB for set_name in sets])
    return [from_json(row) for row in rows], labels, ids, wcxb


def matrix(
    pages: list[Evidence], with_url: bool, names: list[str] | None = None
) -> tuple[np.ndarray, list[str]]:
    rows = [features(page, with_url=with_url) for page in pages]
    if names is None:
        names = sorted({name for row in rows for name in row})
    index = {name: column for column, name in enumerate(names)}
    x = np.zeros((len(rows), len(names)))
    for line, row in enumerate(rows):
        for name, value in row.items():
            column = index.get(name)
            if column is not None:
                x[line, column] = value
    return x, names


def fit(  # noqa: PLR0913, PLR0917 - the data and the model's settings
    x: np.ndarray,
    y: np.ndarray,
    penalty: float,
    names: list[str],
    steps: int = 1500,
    weights: np.ndarray | None = None,
) -> np.ndarray:
    """Softmax regression weights (features x types): the log loss's mean (weighted by
    `weights`, one per page) + penalty * |w|^2 / 2 over every weight but the bias's."""
    n, d = x.shape
    sample = np.ones(n) if weights is None else weights
    sample = sample * (n / sample.sum())
    scale = np.array([0.0 if name == "bias" else 1.0 for name in names])[:, None]
    k = len(TYPES)
    w = np.zeros((d, k))
    onehot = np.eye(k)[y]
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    rate, beta1, beta2 = 0.05, 0.9, 0.999
    for step in range(1, steps + 1):
        scores = x @ w
        scores -= scores.max(axis=1, keepdims=True)
        p = np.exp(scores)
        p /= p.sum(axis=1, keepdims=True)
        grad = x.T @ ((p - onehot) * sample[:, None]) / n + penalty * scale * w
        m = beta1 * m + (1 - beta1) * grad
        v = beta2 * v + (1 - beta2) * grad * grad
        w -= rate * (m / (1 - beta1**step)) / (np.sqrt(v / (1 - beta2**step)) + 1e-8)
    return w


def folds(labels: np.ndarray, k: int, seed: int = 7) -> list[np.ndarray]:
    """k folds of page indices, each type spread evenly over them."""
    rng = np.random.default_rng(seed)
    assignment = np.zeros(len(labels), dtype=int)
    for kind in range(len(TYPES)):
        members = np.flatnonzero(labels == kind)
        rng.shuffle(members)
        assignment[members] = np.arange(len(members)) % k
    return [np.flatnonzero(assignment == fold) for fold in range(k)]


def cross_validate(  # noqa: PLR0913, PLR0917 - the data, the model's settings and the folds
    pages: list[Evidence],
    labels: np.ndarray,
    trained: np.ndarray,
    with_url: bool,
    penalty: float,
    k: int,
    weights: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """The predicted type of every page and its probability, each by a model fitted
    on the `trained` pages outside the page's fold."""
    predicted = np.zeros(len(labels), dtype=int)
    confidence = np.zeros(len(labels))
    for test in folds(labels, k):
        train = np.setdiff1d(np.flatnonzero(trained), test)
        x_train, names = matrix([pages[i] for i in train], with_url)
        w = fit(
            x_train,
            labels[train],
            penalty,
            names,
            weights=None if weights is None else weights[train],
        )
        x_test, _ = matrix([pages[i] for i in test], with_url, names)
        scores = x_test @ w
        odds = np.exp(scores - scores.max(axis=1, keepdims=True))
        odds /= odds.sum(axis=1, keepdims=True)
        predicted[test] = np.argmax(odds, axis=1)
        confidence[test] = odds.max(axis=1)
    return predicted, confidence


def report(labels: np.ndarray, predicted: np.ndarray) -> str:
    k = len(TYPES)
    confusion = np.zeros((k, k), dtype=int)
    for truth, guess in zip(labels, predicted, strict=True):
        confusion[truth, guess] += 1
    short = [kind.value[:5] for kind in TYPES]
    lines = [
        "| truth \\ predicted | " + " | ".join(short) + " | recall |",
        "|---|" + "---:|" * (k + 1),
    ]
    for row in range(k):
        recall = confusion[row, row] / max(confusion[row].sum(), 1)
        cells = " | ".join(str(value) for value in confusion[row])
        lines.append(f"| {TYPES[row].value} | {cells} | {recall:.3f} |")
    precision = [confusion[c, c] / max(confusion[:, c].sum(), 1) for c in range(k)]
    lines.append("| precision | " + " | ".join(f"{value:.3f}" for value in precision) + " | |")
    return "\n".join(lines)


def table_source(name: str, w: np.ndarray, names: list[str]) -> str:
    lines = [f"{name}: Final[dict[str, tuple[float, ...]]] = {{"]
    for row, feature in enumerate(names):
        weights = np.round(w[row], 3)
        if np.all(np.abs(weights) < 0.001):
            continue
        cells = ", ".join(f"{value:.3f}" for value in weights)
        lines.append(f'    "{feature}": ({cells}),')
    lines.append("}  # fmt: skip")
    return "\n".join(lines)


def article_report(
    predicted: np.ndarray, confidence: np.ndarray, ids: list[str], wcxb: np.ndarray
) -> None:
    """The article sets' pages called another kind, by how sure the classifier is."""
    article = TYPES.index(PageType.ARTICLE)
    for set_name in sorted({page_id.split("/", 1)[0] for page_id in ids} - {WCXB}):
        rows = np.array([page_id.startswith(set_name + "/") for page_id in ids]) & ~wcxb
        other = rows & (predicted != article)
        shares = ", ".join(
            f">= {floor}: {np.sum(other & (confidence >= floor))}"
            for floor in (0.0, 0.5, 0.6, 0.7, 0.8)
        )
        print(f"  {set_name} ({np.sum(rows)} articles) called another kind, confidence {shares}")


def write_tables(
    pages: list[Evidence], labels: np.ndarray, penalty: float, weights: np.ndarray
) -> None:
    sources = []
    for name, with_url in (("_WEIGHTS_URL", True), ("_WEIGHTS_NO_URL", False)):
        x, names = matrix(pages, with_url)
        w = fit(x, labels, penalty, names, weights=weights)
        sources.append(table_source(name, w, names))
    text = MODULE.read_text(encoding="utf-8")
    block = "# BEGIN WEIGHTS\n" + "\n".join(sources) + "\n# END WEIGHTS"
    text, count = re.subn(r"# BEGIN WEIGHTS\n.*?# END WEIGHTS", lambda _: block, text, flags=re.S)
    if count != 1:
        raise SystemExit(f"{MODULE}: no BEGIN WEIGHTS ... END WEIGHTS lines to replace")
    MODULE.write_text(text, encoding="utf-8")
    print(f"weights written to {MODULE}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--evidence", type=Path, default=Path("bench/out/pagetype-evidence.jsonl"))
    parser.add_argument("--folds", type=int, default=10)
    parser.add_argument("--penalty", type=float, default=0.003)
    parser.add_argument("--grid", action="store_true", help="cross-validate every penalty")
    parser.add_argument("--write", action="store_true", help="write the tables into the module")
    parser.add_argument(
        "--predictions",
        type=Path,
        default=Path("bench/out/pagetype-cv.json"),
        help="where the cross-validated predictions go (page id -> type, with and without"
        " the URL), for bench/pagetype_rules.py",
    )
    parser.add_argument(
        "--articles",
        type=float,
        default=0.0,
        metavar="WEIGHT",
        help="train on the article sets' pages too, each weighing WEIGHT of a WCXB page",
    )
    args = parser.parse_args(argv)
    pages, labels, ids, wcxb = load(args.evidence)
    trained = np.ones(len(pages), dtype=bool) if args.articles else wcxb
    weights = np.where(wcxb, 1.0, args.articles)
    # Keyed as bench/pagetype_rules.py reads them: a WCXB page by its id alone.
    keys = [page_id.removeprefix(WCXB + "/") for page_id in ids]
    out: dict[str, dict[str, str | float]] = {key: {} for key in keys}
    print(
        f"{np.sum(wcxb)} WCXB pages, {np.sum(~wcxb)} article-set pages; trained on"
        f" {np.sum(trained)}; {args.folds}-fold cross-validation by page"
    )
    for with_url in (False, True):
        label = "with the URL" if with_url else "without the URL"
        if args.grid:
            for penalty in GRID:
                predicted, _ = cross_validate(pages, labels, trained, with_url, penalty, args.folds)
                agreement = np.mean(predicted[wcxb] == labels[wcxb])
                print(f"  {label}, penalty {penalty}: {agreement:.3f}")
        predicted, confidence = cross_validate(
            pages, labels, trained, with_url, args.penalty, args.folds, weights
        )
        agreement = np.mean(predicted[wcxb] == labels[wcxb])
        print(f"\n{label}, penalty {args.penalty}: agreement on WCXB {agreement:.3f}")
        print(report(labels[wcxb], predicted[wcxb]))
        key = "url" if with_url else "no_url"
        for page_key, guess, odds in zip(keys, predicted, confidence, strict=True):
            out[page_key][key] = TYPES[guess].value
            out[page_key][key + "_confidence"] = round(float(odds), 4)
        for floor in (0.5, 0.7, 0.9):
            sure = (confidence >= floor) & wcxb
            print(
                f"  confidence >= {floor}: {np.sum(sure) / np.sum(wcxb):.1%} of the WCXB pages,"
                f" agreement on them {np.mean(predicted[sure] == labels[sure]):.3f}"
            )
        article_report(predicted, confidence, ids, wcxb)
    args.predictions.parent.mkdir(parents=True, exist_ok=True)
    args.predictions.write_text(json.dumps(out), encoding="utf-8")
    if args.write:
        chosen = np.flatnonzero(trained)
        write_tables([pages[i] for i in chosen], labels[chosen], args.penalty, weights[chosen])
    else:
        # The module as it is (fitted on every page: a training figure, not a forecast).
        for with_url in (False, True):
            guesses = [
                TYPES.index(classify(page if with_url else replace(page, url=""))[0])
                for page, is_wcxb in zip(pages, wcxb, strict=True)
                if is_wcxb
            ]
            agreement = np.mean(np.array(guesses) == labels[wcxb])
            print(
                f"module as written, {'with' if with_url else 'without'} the URL,"
                f" on the WCXB pages it was fitted on: {agreement:.3f}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
