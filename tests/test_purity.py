"""docs/spec.md section 7: the fit is a pure function.

No I/O, no globals, no logging configuration, and none of the worker's
dependencies (asyncio, AMQP, metrics) pulled in by the
library. Checked in a fresh interpreter, so nothing this test process
imported can hide what the library imports.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from blockdensity import DEFAULT_CONF, fit_text

WORKER_MODULES = ["asyncio", "aio_pika", "aiormq", "prometheus_client"]

PROBE = textwrap.dedent(
    """
    import builtins, io, json, logging, os, sys

    import blockdensity
    from blockdensity import DEFAULT_CONF, fit_text, html_to_text

    after_import = set(sys.modules)
    opened = []
    real_open, real_os_open = builtins.open, os.open

    def spy_open(file, *args, **kwargs):
        opened.append(str(file))
        return real_open(file, *args, **kwargs)

    def spy_os_open(path, *args, **kwargs):
        opened.append(str(path))
        return real_os_open(path, *args, **kwargs)

    builtins.open = io.open = spy_open
    os.open = spy_os_open
    words = " ".join(f"w{n}" for n in range(30))
    page = (
        "<html lang=en><head><title>T</title></head><body><nav><a href=#>home</a></nav>"
        f"<p>{words}</p><p>caf\\u00e9 \\u65e5\\u672c {words}</p><footer>f</footer></body></html>"
    )
    first = [
        fit_text(page).to_dict(),
        fit_text(page.encode("utf-8")).to_dict(),
        fit_text(page.encode("cp1252", "replace")).to_dict(),
        fit_text(page, DEFAULT_CONF.without_drops()).to_dict(),
        html_to_text(page),
    ]
    second = [
        fit_text(page).to_dict(),
        fit_text(page.encode("utf-8")).to_dict(),
        fit_text(page.encode("cp1252", "replace")).to_dict(),
        fit_text(page, DEFAULT_CONF.without_drops()).to_dict(),
        html_to_text(page),
    ]
    builtins.open = io.open = real_open
    os.open = real_os_open
    print(json.dumps({
        "modules_after_import": sorted(after_import),
        "modules_after_fit": sorted(set(sys.modules) - after_import),
        "opened": opened,
        "root_handlers": [repr(h) for h in logging.root.handlers],
        "root_level": logging.root.level,
        "library_handlers": [repr(h) for h in logging.getLogger("blockdensity").handlers],
        "first": first,
        "second": second,
    }))
    """
)


def run_probe() -> dict[str, Any]:
    completed = subprocess.run(  # noqa: S603 - this interpreter, a fixed script
        [sys.executable, "-I", "-c", PROBE], capture_output=True, text=True, check=False
    )
    assert completed.returncode == 0, completed.stderr
    assert completed.stderr == ""
    result: dict[str, Any] = json.loads(completed.stdout)
    return result


PROBED = run_probe()


def test_import_and_fit_pull_in_no_worker_dependency() -> None:
    modules = set(PROBED["modules_after_import"]) | set(PROBED["modules_after_fit"])
    for name in WORKER_MODULES:
        assert not any(module == name or module.startswith(name + ".") for module in modules), name


def test_fit_opens_no_file() -> None:
    assert PROBED["opened"] == []


def test_fit_imports_nothing_but_codecs_after_import() -> None:
    """Lazily imported modules would be file reads at fit time; codec modules are Python's."""
    late = [name for name in PROBED["modules_after_fit"] if not name.startswith("encodings.")]
    assert late == []


def test_no_logging_configuration() -> None:
    assert PROBED["root_handlers"] == []
    assert PROBED["root_level"] == 30  # logging.WARNING, the default
    assert PROBED["library_handlers"] in ([], ["<NullHandler (NOTSET)>"])


def test_same_input_gives_the_same_result_twice() -> None:
    assert PROBED["first"] == PROBED["second"]
    first = PROBED["first"][0]
    assert first["blocks"][0]["decision"] == "dropped"
    assert first["fallback"] is False


def test_results_do_not_depend_on_what_was_fitted_before() -> None:
    """Interleaving other pages and other confs changes no result."""
    words = " ".join(f"w{n}" for n in range(25))
    pages = [
        f"<nav><a href=#>a</a></nav><p>{words}</p><p>{words}</p>",
        f"<p>\u65e5\u672c\u8a9e {words}</p><p>\u043f\u0440\u0438 {words}</p>",
        f"<title>t <p>{words}</p><p>x</p>",
        "<p>| \u00bb</p>",
    ]
    alone = [fit_text(page).to_dict() for page in pages]
    for page in reversed(pages):
        fit_text(page, DEFAULT_CONF.without_drops())
    assert [fit_text(page).to_dict() for page in pages] == alone


def test_concurrent_calls_give_the_sequential_results() -> None:
    words = " ".join(f"w{n}" for n in range(25))
    pages = [
        f"<p>{words} {n}</p><nav><p>{words}</p></nav><p>caf\u00e9 \u65e5 {words}</p>"
        for n in range(40)
    ]
    sequential = [fit_text(page).to_dict() for page in pages]
    with ThreadPoolExecutor(max_workers=4) as pool:
        concurrent = list(pool.map(lambda page: fit_text(page).to_dict(), pages))
    assert concurrent == sequential


def test_fit_result_is_immutable() -> None:
    result = fit_text("<p>a b c</p>")
    with pytest.raises(AttributeError):
        result.text = "changed"  # type: ignore[misc]  # what the test is about
    assert result.text == "a b c"
