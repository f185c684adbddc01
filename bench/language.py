"""Language detectors on the fit's kept texts: speed, and agreement with the declared language.

Every page of the development corpus is fitted (the default profile); each
detector that is installed reads the kept text (CLD2 as the fit calls it,
the first 2,000 characters; the others the same sample) and its answer is
compared with the language the page declares (`<html lang>`, primary
subtag), where it declares one. Also the fit's own time on the same pages,
so the detector's cost reads as a share of it. CLD2 (pycld2) is the fit's;
py3langid (bench group) and lingua (`pip install lingua-language-detector`,
a 96 MB wheel, left out of the group) are peers when installed.

    python -m bench.language [--data ../shared/data]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from blockdensity import fit_text
from blockdensity.language import SAMPLE_CHARACTERS, detect_language
from devkit.corpus import DEFAULT_DATA, load_pages

Detector = Callable[[str], str | None]


def _detectors() -> dict[str, Detector]:
    detectors: dict[str, Detector] = {
        "CLD2 (pycld2, the fit's)": lambda text: detect_language(text)[0]
    }
    try:
        import py3langid
    except ImportError:
        print("py3langid not installed: left out")
    else:
        detectors["py3langid"] = lambda text: str(py3langid.classify(text[:SAMPLE_CHARACTERS])[0])
    try:
        from lingua import LanguageDetectorBuilder
    except ImportError:
        print("lingua not installed: left out (pip install lingua-language-detector)")
    else:
        lingua = LanguageDetectorBuilder.from_all_languages().with_low_accuracy_mode().build()

        def lingua_detect(text: str) -> str | None:
            language = lingua.detect_language_of(text[:SAMPLE_CHARACTERS])
            return language.iso_code_639_1.name.lower() if language else None

        detectors["lingua (low accuracy mode)"] = lingua_detect
    return detectors


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    args = parser.parse_args()
    pages = load_pages(args.data)
    texts: list[tuple[str, str | None]] = []
    fit_seconds: list[float] = []
    for page in pages:
        start = time.process_time()
        fit = fit_text(page.raw)
        fit_seconds.append(time.process_time() - start)
        declared = (fit.lang or "").replace("_", "-").split("-")[0].lower() or None
        texts.append((fit.text, declared))
    fit_median = statistics.median(fit_seconds)
    declaring = sum(declared is not None for _, declared in texts)
    print(f"{len(pages)} pages, {declaring} declaring a language;", end=" ")
    print(f"fit median {fit_median * 1e3:.3f} ms")
    print()
    print("| detector | median ms | mean ms | x fit median | agrees with the declared |")
    print("|---|---:|---:|---:|---:|")
    for name, detect in _detectors().items():
        detect(texts[0][0])  # load its model before the clock starts
        seconds: list[float] = []
        agree = 0
        for text, declared in texts:
            start = time.process_time()
            found = detect(text)
            seconds.append(time.process_time() - start)
            agree += declared is not None and found == declared
        median = statistics.median(seconds)
        print(
            f"| {name} | {median * 1e3:.3f} | {statistics.mean(seconds) * 1e3:.3f} |"
            f" {median / fit_median:.2f} | {agree} of {declaring} |"
        )


if __name__ == "__main__":
    main()
