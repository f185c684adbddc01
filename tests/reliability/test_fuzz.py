"""Fuzz regressions: the saved corpus of interesting inputs, and a small random budget.

tests/fuzz_corpus/ holds what the fuzz campaigns found worth keeping
(MANIFEST.json says why for each file): every file goes through fit_text and
html_to_text with its charset, as str when the campaign fed it a str, and as
bytes besides; no exception, and the invariants of devkit.invariants. Then
a few hundred new inputs of every shape (Hypothesis, devkit.fuzzing; the full
campaign is `python -m bench.fuzz`, 100,000 inputs).

The decoder's half: random and mutated JSON / MessagePack message bodies
through the worker's decode path must decode or be InvalidMessageError.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import msgspec
import pytest

from blockdensity import fit_text, html_to_text
from devkit.corpus import SAMPLE_DATA
from devkit.fuzzing import CORPUS_DIR, SHAPES, Input, IsolatedChecker, Pages, run_fit_campaign
from devkit.metafuzz import run_metadata_campaign
from devkit.payloads import classify, run_decoder_campaign
from worker.schemas import Encoding, InvalidMessageError, decode_page

MANIFEST: dict[str, dict[str, Any]] = json.loads((CORPUS_DIR / "MANIFEST.json").read_text())


def test_every_corpus_file_is_in_the_manifest_and_back() -> None:
    files = {path.name for path in CORPUS_DIR.glob("*.html")}
    assert files == set(MANIFEST)
    assert len(files) >= 10


def _case(name: str) -> Any:
    # An input that crashes a dependency (MANIFEST "known": why) is expected to fail,
    # strictly: once the dependency is fixed, the test says so, and the mark goes.
    known = MANIFEST[name].get("known")
    if known:
        return pytest.param(name, marks=pytest.mark.xfail(strict=True, reason=known))
    return name


@pytest.fixture(scope="module")
def checker() -> Iterator[IsolatedChecker]:
    # In a child process: a crash in C code fails one test, not the run.
    with IsolatedChecker() as isolated:
        yield isolated


@pytest.mark.parametrize("name", [_case(name) for name in sorted(MANIFEST)])
def test_corpus_input_fits_without_error(name: str, checker: IsolatedChecker) -> None:
    entry = MANIFEST[name]
    data = (CORPUS_DIR / name).read_bytes()
    variants: list[str | bytes] = [data]
    if entry["type"] == "str":
        variants.append(data.decode("utf-8", "surrogatepass"))
    for html in variants:
        outcome = checker.check(Input(entry["shape"], html, entry["charset"]))
        assert outcome.problems == [], f"{name} ({entry['why']}): {outcome.problems}"


@pytest.mark.slow
def test_a_random_budget_of_every_shape() -> None:
    Pages.load(SAMPLE_DATA)  # the mutated shape starts from corpus pages (the sample's)
    campaign = run_fit_campaign(300, random_seed=20261130, targeting=False)
    assert [problems for _, problems in campaign.failures] == []
    assert set(campaign.seen) == set(SHAPES)


def test_a_random_budget_of_metadata_declarations() -> None:
    # bench.fuzz runs 100,000 of these; here a budget that a CI run affords.
    campaign = run_metadata_campaign(300, random_seed=20261201)
    assert campaign.seen == 300
    assert campaign.failures == []
    assert sum(campaign.sizes.values()) == 300


def test_a_random_budget_of_message_bodies() -> None:
    campaign = run_decoder_campaign(3000, random_seed=20261130)
    assert [outcome for _, _, outcome in campaign.failures] == []
    assert campaign.outcomes["decoded"] > 0
    assert campaign.outcomes["invalid"] > 0


@pytest.mark.parametrize("depth", [200, 1_000, 100_000])
@pytest.mark.parametrize("encoding", [Encoding.JSON, Encoding.MSGPACK])
def test_deeply_nested_fields_are_invalid_not_a_crash(encoding: Encoding, depth: int) -> None:
    # Found by the decoder campaign: msgspec raised RecursionError (not a
    # DecodeError) from ~1,000 levels of nesting in an unknown field; the
    # worker's catch-all requeued the message as `crashed` until the delivery
    # limit, instead of dead-lettering it as `invalid`.
    if encoding is Encoding.JSON:
        body = b'{"url":"u","body":"b","x":' + b"[" * depth + b"]" * depth + b"}"
    else:
        body = b"\x83\xa3url\xa1u\xa4body\xc4\x01b\xa1x" + b"\x91" * depth + b"\xc0"
    if depth <= 200:  # shallow enough to be an ordinary page
        assert decode_page(body, encoding).url == "u"
        return
    with pytest.raises(InvalidMessageError, match="nested too deeply"):
        decode_page(body, encoding)
    assert classify(body, f"application/{encoding.value}").startswith("invalid:")


def test_invalid_utf8_and_surrogates_in_strings_are_invalid() -> None:
    # MessagePack str with bytes that are not UTF-8; JSON with a lone surrogate escape.
    bad_str = b"\x82\xa3url\xa2\xff\xfe\xa4body\xc4\x01b"
    with pytest.raises(InvalidMessageError):
        decode_page(bad_str, Encoding.MSGPACK)
    with pytest.raises(InvalidMessageError):
        decode_page(b'{"url": "\\ud800", "body": "b"}', Encoding.JSON)
    # A valid page with every optional field for contrast.
    page = msgspec.json.encode(
        {
            "url": "u",
            "body": "b",
            "charset": "x",
            "status": 599,
            "fetched_at": "2026-11-30T12:00:00Z",
        }
    )
    assert decode_page(page, Encoding.JSON).status == 599


def test_lexbor_still_overflows_on_growing_references() -> None:
    # The canary of blockdensity.dom's workaround: lexbor (selectolax 1.0.2)
    # writes past a heap buffer on runs of "&nGt;" / "&nLt;" (found by the fuzz
    # campaign). When an upgrade fixes it, this fails: drop the workaround.
    crash = "from selectolax.lexbor import LexborHTMLParser; LexborHTMLParser('&nGt;' * 8000)"
    result = subprocess.run(  # noqa: S603 - our own interpreter, a fixed program
        [sys.executable, "-c", crash], capture_output=True, check=False
    )
    assert result.returncode != 0, "lexbor no longer crashes: remove dom._GROWING_REFERENCE"


@pytest.mark.parametrize("html", [b"&nGt;&nLt;" * 8000, "&nGt;&nLt;" * 8000])
def test_growing_references_are_decoded_without_reaching_lexbor(html: str | bytes) -> None:
    text = fit_text(html).text
    assert text == html_to_text(html)
    assert text == "\u226b\u20d2\u226a\u20d2" * 8000
    # In an attribute too; an escaped or unterminated one stays text.
    page = b"<p title='&nGt;'>a &nLt;b &amp;nGt; &nGt</p>"
    assert fit_text(page).text == "a \u226a\u20d2b &nGt; &nGt"
