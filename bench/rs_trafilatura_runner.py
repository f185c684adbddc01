"""rs-trafilatura over pages, in the interpreter it is installed in (bench.accuracy's peer).

rs-trafilatura ships a wheel for CPython 3.12 only, while the project runs
on 3.11, so bench.accuracy runs this script in another interpreter
(`--rs-trafilatura-python`). It imports nothing of the project.

    python3.12 bench/rs_trafilatura_runner.py --version
    python3.12 bench/rs_trafilatura_runner.py PAGES.jsonl OUTPUT.jsonl

PAGES.jsonl: one `{"page_id", "html", "url"}` a line (`url` may be null).
OUTPUT.jsonl: one `{"page_id", "text", "seconds", "error", "page_type",
"confidence"}` a line, in page order, written and flushed page by page, so
that when the library takes the process down on a page, the caller knows
which page it was (the first one missing) and runs the rest again.
`text` is rs-trafilatura's `main_content` with its defaults (the page's URL
passed as its API takes it); `page_type` and `confidence` are its own
classification of the page; `seconds` is the extraction's process CPU time.
"""

from __future__ import annotations

import importlib
import json
import sys
import time
from importlib.metadata import version
from types import ModuleType
from typing import TextIO

DISTRIBUTION = "rs-trafilatura"


def _library() -> ModuleType:
    # Imported by name: the project's type checker runs on 3.11, where the
    # library (and so its types) cannot be installed.
    return importlib.import_module("rs_trafilatura")


def _extract(library: ModuleType, html: str, url: str | None) -> dict[str, object]:
    start = time.process_time()
    try:
        result = library.extract(html, url=url)
        text = str(result.main_content or "")
        page_type = None if result.page_type is None else str(result.page_type)
        confidence = result.classification_confidence
        error = None
    # A Rust panic arrives as pyo3's PanicException, a BaseException: one page's
    # panic scores that page as empty, as any peer's exception does.
    except BaseException as exc:
        if isinstance(exc, KeyboardInterrupt | SystemExit):
            raise
        text, page_type, confidence = "", None, None
        error = f"{type(exc).__name__}: {exc}"
    return {
        "text": text,
        "seconds": time.process_time() - start,
        "error": error,
        "page_type": page_type,
        "confidence": None if confidence is None else float(confidence),
    }


def run(pages: TextIO, output: TextIO) -> None:
    library = _library()
    for line in pages:
        if not line.strip():
            continue
        page = json.loads(line)
        result = _extract(library, page["html"], page["url"])
        output.write(json.dumps({"page_id": page["page_id"], **result}) + "\n")
        output.flush()


def main() -> None:
    arguments = sys.argv[1:]
    if arguments == ["--version"]:
        print(version(DISTRIBUTION))
        return
    if len(arguments) != 2:
        sys.exit(f"usage: {sys.argv[0]} --version | PAGES.jsonl OUTPUT.jsonl")
    with (
        open(arguments[0], encoding="utf-8") as pages,
        open(arguments[1], "w", encoding="utf-8") as output,
    ):
        run(pages, output)


if __name__ == "__main__":
    main()
