"""The checks at the door (worker.stage.intake): each refusal with its outcome and a clear text."""

from __future__ import annotations

import gzip
import random

import msgspec
import pytest

from devkit.payloads import PayloadGen
from worker.config import StageSettings, describe_statuses, parse_statuses
from worker.schemas import CleanPage, Encoding, InvalidMessageError, encoding_for
from worker.stage import intake
from worker.stage.fitproc import answer, fit_page
from worker.stage.intake import (
    PageHead,
    RefusedError,
    admit,
    binary_kind,
    check_status,
    check_url,
)
from worker.stage.ipc import Fitted
from worker.stage.outcome import Outcome

PAGE = b"<!DOCTYPE html><html><body><p>" + b"words " * 200 + b"</p></body></html>"


# --------------------------------------------------------------------------------- url


@pytest.mark.parametrize(
    "url",
    [
        "https://example.org/",
        "http://example.org",
        "HTTPS://EXAMPLE.ORG/a?b=c#d",
        "https://[2001:db8::1]:8443/x",
        "https://b\u00fccher.example/\u00e4",
    ],
)
def test_absolute_http_urls_pass(url: str) -> None:
    check_url(url, 8192)


@pytest.mark.parametrize(
    ("url", "complaint"),
    [
        ("javascript:alert(1)", "is not an absolute http or https URL"),
        ("ftp://example.org/f", "is not an absolute http or https URL"),
        ("/relative/path", "is not an absolute http or https URL"),
        ("https:///no-host", "is not an absolute http or https URL"),
        ("https://example.org/a\nb", "control character '\\\\n' at position 21"),
        ("https://example.org/\x00", "control character '\\\\x00' at position 20"),
        ("https://example.org/\x7f", "control character"),
        ("https://[::1/", "cannot be parsed"),
    ],
)
def test_other_urls_are_invalid_and_say_why(url: str, complaint: str) -> None:
    with pytest.raises(RefusedError, match=complaint) as error:
        check_url(url, 8192)
    assert error.value.outcome is Outcome.INVALID
    assert str(error.value).endswith("- at $.url")


def test_a_url_over_the_limit_is_invalid_and_not_echoed_whole() -> None:
    url = "https://example.org/" + "a" * 1_000_000
    with pytest.raises(RefusedError) as error:
        check_url(url, 8192)
    assert "url of 1000020 bytes is over the limit of 8192" in str(error.value)
    assert len(str(error.value)) < 200
    check_url(url[:8192], 8192)  # exactly the limit passes


def test_a_long_non_http_url_is_shown_shortened() -> None:
    with pytest.raises(RefusedError) as error:
        check_url("javascript:" + "x" * 5000, 8192)
    assert len(str(error.value)) < 300


# ------------------------------------------------------------------------------- binary


@pytest.mark.parametrize(
    ("head", "kind"),
    [
        (b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n", "PDF"),
        (b"PK\x03\x04\x14\x00\x06\x00", "ZIP (or an Office document)"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "PNG"),
        (b"\xff\xd8\xff\xe0\x00\x10JFIF", "JPEG"),
        (b"GIF89a\x01\x00", "GIF"),
        (b"RIFF\x24\x00\x00\x00WEBPVP8 ", "WebP"),
        (b"\x1f\x8b\x08\x00\x00\x00", "gzip"),
    ],
)
def test_file_signatures_are_not_html(head: bytes, kind: str) -> None:
    assert binary_kind(head + bytes(range(256)) * 4) == kind


def test_a_body_of_control_bytes_is_binary() -> None:
    body = bytes(range(256)) * 8  # 27 of each 256 bytes: 10.5%, over the 5% of the rule
    assert binary_kind(body) == "binary data (108 of its first 1024 bytes are control bytes)"


@pytest.mark.parametrize(
    "body",
    [
        PAGE,
        b"",
        "<p>caf\u00e9 \u65e5\u672c</p>".encode(),
        "<p>caf\u00e9</p>".encode("utf-16"),  # BOM, then half NUL bytes
        "<p>caf\u00e9</p>".encode("utf-16-be").join([b"\xfe\xff", b""]),
        b"<p>\x1b$B%F%9%H\x1b(B</p>" * 40,  # ISO-2022-JP uses ESC
        b"<p>a\x00b</p>" + b"x" * 100,  # a stray NUL or two
        "<p>\u00e9t\u00e9</p>",  # a JSON message's body is a str
    ],
)
def test_text_is_not_binary(body: bytes | str) -> None:
    assert binary_kind(body) is None


def test_a_pdf_in_a_str_body_is_found_too() -> None:
    assert binary_kind("%PDF-1.4 ...") == "PDF"


_UTF16_PAGE = "<!doctype html><title>Grüße</title><p>Ein Absatz über Köln.</p>" * 20


@pytest.mark.parametrize(
    ("charset", "codec"),
    [("utf-16le", "utf-16-le"), ("UTF-16", "utf-16-le"), ("utf-16be", "utf-16-be")],
)
def test_utf16_declared_by_http_without_a_bom_is_text(charset: str, codec: str) -> None:
    body = _UTF16_PAGE.encode(codec)
    assert binary_kind(body) is not None  # half NUL bytes, read as bytes
    assert binary_kind(body, charset) is None


def test_binary_data_declared_utf16_is_still_binary() -> None:
    controls = "".join(map(chr, range(1, 9))) * 40
    assert binary_kind(controls.encode("utf-16-le"), "utf-16le") == (
        "binary data (320 of its first 320 characters, read as utf-16le, are control characters)"
    )
    assert binary_kind(b"%PDF-1.4" + bytes(2000), "utf-16le") == "PDF"


def test_a_page_declared_utf16le_in_http_without_a_bom_is_admitted_and_read_so() -> None:
    body = _UTF16_PAGE.encode("utf-16-le")
    message = msgspec.msgpack.encode(
        {"url": "https://e.org/", "body": body, "charset": "utf-16le", "content_type": "text/html"}
    )
    settings = StageSettings.from_env({})
    encoding, _, admitted = admit(
        message, content_type="application/msgpack", content_encoding=None, settings=settings
    )
    reply = answer(admitted, encoding, fit_page)
    assert isinstance(reply, Fitted), reply
    clean = msgspec.msgpack.decode(reply.output, type=CleanPage)
    assert clean.title == "Grüße"
    assert "Ein Absatz über Köln." in clean.text


# ------------------------------------------------------------------------------- status


def test_statuses_parse_as_ranges_and_lists() -> None:
    assert parse_statuses("200-299") == frozenset(range(200, 300))
    assert parse_statuses(" 200, 203 ,300-301,") == {200, 203, 300, 301}
    assert describe_statuses(parse_statuses("200-299,304,404-405")) == "200-299,304,404-405"


@pytest.mark.parametrize(
    ("value", "complaint"),
    [
        ("ok", "is not a status or a range"),
        ("299-200", "within 100-599, low to high"),
        ("200-700", "within 100-599"),
        (",", "names no status"),
    ],
)
def test_bad_statuses_say_why(value: str, complaint: str) -> None:
    with pytest.raises(ValueError, match=complaint):
        parse_statuses(value)


def test_a_status_outside_the_fitted_ones_is_refused_naming_the_setting() -> None:
    fitted = parse_statuses("200-299")
    check_status(204, fitted)
    with pytest.raises(RefusedError) as error:
        check_status(500, fitted)
    assert error.value.outcome is Outcome.STATUS
    assert str(error.value) == (
        "HTTP status 500 is not one the worker fits "
        "(BLOCKDENSITY_FIT_STATUSES=200-299) - at $.status"
    )


# -------------------------------------------------------------------------------- admit


def _admit(body: bytes, content_encoding: str | None = None, **env: str) -> Outcome | str:
    settings = StageSettings.from_env(
        {f"BLOCKDENSITY_{key.upper()}": value for key, value in env.items()}
    )
    try:
        _, page, _ = admit(
            body,
            content_type="application/msgpack",
            content_encoding=content_encoding,
            settings=settings,
        )
    except RefusedError as error:
        return error.outcome
    return page.url


def _message(**fields: object) -> bytes:
    return msgspec.msgpack.encode({"url": "https://e.org/", "body": PAGE, **fields})


def test_the_checks_run_in_order_and_the_first_refusal_wins() -> None:
    assert _admit(_message()) == "https://e.org/"
    assert _admit(gzip.compress(_message()), "gzip") == "https://e.org/"
    assert _admit(_message(), max_body_bytes="100") is Outcome.TOO_LARGE
    # Over the limit once decompressed, though not before.
    assert _admit(gzip.compress(_message()), "gzip", max_body_bytes="1KiB") is Outcome.TOO_LARGE
    assert _admit(_message(), "br") is Outcome.INVALID
    assert _admit(b"\xc1") is Outcome.INVALID
    assert _admit(_message(url="javascript:void(0)")) is Outcome.INVALID
    assert _admit(_message(url="https://e.org/" + "a" * 100), max_url_bytes="64") is Outcome.INVALID
    assert _admit(_message(content_type="application/pdf")) is Outcome.NOT_HTML
    assert _admit(_message(body=b"%PDF-1.4 ...")) is Outcome.NOT_HTML
    assert _admit(_message(status=500)) is Outcome.STATUS
    assert _admit(_message(status=500), fit_statuses="200-299,500") == "https://e.org/"
    # A refusal earlier in the order hides a later one.
    assert _admit(_message(url="ftp://e.org/", status=500)) is Outcome.INVALID


@pytest.mark.parametrize(
    ("body", "coding", "outcome", "complaint"),
    [
        (
            gzip.compress(b"x" * 5000, mtime=0),
            "gzip",
            Outcome.TOO_LARGE,
            "decompresses (gzip) to over",
        ),
        (
            gzip.compress(PAGE, mtime=0)[:-20],
            "gzip",
            Outcome.INVALID,
            "message body is truncated gzip",
        ),
        (PAGE, "gzip", Outcome.INVALID, "message body is not valid gzip data"),
        (PAGE, "br", Outcome.INVALID, "AMQP content_encoding 'br' is not supported"),
    ],
)
def test_a_content_coding_that_cannot_be_undone_is_refused_with_its_outcome(
    body: bytes, coding: str, outcome: Outcome, complaint: str
) -> None:
    settings = StageSettings.from_env({"BLOCKDENSITY_MAX_BODY_BYTES": "4999"})
    with pytest.raises(RefusedError) as error:
        admit(body, content_type="application/msgpack", content_encoding=coding, settings=settings)
    assert error.value.outcome is outcome
    assert complaint in str(error.value)
    if outcome is Outcome.TOO_LARGE:
        assert "(BLOCKDENSITY_MAX_BODY_BYTES)" in str(error.value)


def test_fetched_at_must_carry_its_offset() -> None:
    assert _admit(_message(fetched_at="2026-12-01T09:00:00+01:00")) == "https://e.org/"
    assert _admit(_message(fetched_at="2026-12-01T09:00:00Z")) == "https://e.org/"
    with pytest.raises(RefusedError, match="timezone"):
        admit(
            _message(fetched_at="2026-12-01T09:00:00"),
            content_type="application/msgpack",
            content_encoding=None,
            settings=StageSettings.from_env({}),
        )


def test_a_message_without_content_type_says_so_plainly() -> None:
    with pytest.raises(RefusedError) as error:
        admit(
            _message(),
            content_type=None,
            content_encoding=None,
            settings=StageSettings.from_env({}),
        )
    assert str(error.value) == (
        "the message has no AMQP content_type; expected application/json, "
        "application/msgpack, application/x-msgpack"
    )


# ------------------------------------------- MessagePack pages admitted without their body


def _full_admit(body: bytes, content_type: str | None, settings: StageSettings) -> object:
    """What admit makes of a message through FetchedPage's full decode alone (the rule)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(intake, "_msgpack_head", lambda _body: None)
        return _admitted_or_refused(body, content_type, settings)


def _admitted_or_refused(body: bytes, content_type: str | None, settings: StageSettings) -> object:
    try:
        encoding, page, message = admit(
            body, content_type=content_type, content_encoding=None, settings=settings
        )
    except RefusedError as error:
        return (error.outcome, str(error))
    html = page.body
    return (
        encoding,
        page.url,
        page.fetch_id,
        bytes(html) if isinstance(html, memoryview) else html,
        message,
    )


def _odd_pages() -> list[bytes]:
    html = PAGE
    encode = msgspec.msgpack.encode
    return [
        encode({"url": "https://e.org/", "body": html}),
        encode({"url": "https://e.org/", "body": html, "fetch_id": "f", "status": 200}),
        encode({"url": "https://e.org/", "body": b""}),
        encode({"url": "https://e.org/", "body": b"x" * 300}),  # bin 16
        encode({"url": "https://e.org/", "body": b"x" * 70_000}),  # bin 32
        encode({"url": "https://e.org/", "body": "<p>a string</p>"}),
        encode({"url": "https://e.org/", "body": None}),
        encode({"url": "https://e.org/"}),
        encode({"url": "", "body": html}),
        encode({"url": "ftp://e.org/", "body": html}),
        encode({"url": "https://e.org/", "body": html, "status": 404}),
        encode({"url": "https://e.org/", "body": html, "status": 700}),
        encode({"url": "https://e.org/", "body": html, "status": None}),
        encode({"url": "https://e.org/", "body": html, "charset": None, "fetch_id": None}),
        encode({"url": "https://e.org/", "body": html, "content_type": "image/png"}),
        encode({"url": "https://e.org/", "body": b"%PDF-1.7 x"}),
        encode({"url": "https://e.org/", "body": b"\x00\x01" * 600}),
        encode(
            {"url": "https://e.org/", "body": "<p>a</p>".encode("utf-16-le"), "charset": "utf-16"}
        ),
        encode({"url": "https://e.org/", "body": html, "fetched_at": "2026-01-02T03:04:05"}),
        encode({"url": "https://e.org/", "body": html, "fetched_at": "2026-01-02T03:04:05Z"}),
        encode({"url": "https://e.org/", "body": html, "unknown": [1, 2]}),
        encode({"url": "https://e.org/", "body": html, **{f"x{n}": n for n in range(20)}}),
        encode([("https://e.org/"), html]),
        encode({"url": "https://e.org/", "body": html}) + b"\x00",  # trailing bytes
        encode({"url": "https://e.org/", "body": html})[:-10],  # cut short
        # The body twice (a map may repeat a key): the first is not bytes.
        b"\x83\xa3url\xaehttps://e.org/\xa4body\xa3str\xa4body\xc4\x03abc",
        b"\x83\xa3url\xaehttps://e.org/\xa4body\xc4\x03abc\xa4body\xc4\x03xyz",
        b"\x82\xa3url\xaehttps://e.org/\xa4body\xd9\x03abc",  # the body as str 8
        b"\xde\x00\x02\xa3url\xaehttps://e.org/\xa4body\xc4\x03abc",  # map 16
        b"\xdf\x00\x00\x00\x02\xa3url\xaehttps://e.org/\xa4body\xc4\x03abc",  # map 32
        b"\x82\xa3url\xaehttps://e.org/\xa4body\xc6\x00\x00\x00\x03abc",  # bin 32, short
    ]


def test_msgpack_pages_without_their_body_decoded_are_admitted_as_a_full_decode_would() -> None:
    settings = StageSettings.from_env({"BLOCKDENSITY_FIT_STATUSES": "200"})
    messages: list[tuple[bytes, str | None]] = [
        (body, "application/msgpack") for body in _odd_pages()
    ]
    generator = PayloadGen(random.Random(20261203))
    messages += [generator.payload() for _ in range(3000)]
    fast = 0
    for body, content_type in messages:
        expected = _full_admit(body, content_type, settings)
        assert _admitted_or_refused(body, content_type, settings) == expected, body[:200]
        if encoding_for_or_none(content_type) is Encoding.MSGPACK and intake._msgpack_head(body):
            fast += 1
    assert fast >= 10  # the fast path was taken, not only the fallback


def encoding_for_or_none(content_type: str | None) -> Encoding | None:
    try:
        return encoding_for(content_type)
    except InvalidMessageError:
        return None


def test_an_admitted_msgpack_page_carries_its_html_as_a_view() -> None:
    body = msgspec.msgpack.encode({"url": "https://e.org/", "body": PAGE, "fetch_id": "f"})
    settings = StageSettings.from_env({})
    _, page, message = admit(
        body, content_type="application/msgpack", content_encoding=None, settings=settings
    )
    assert isinstance(page, PageHead)
    assert (page.url, page.fetch_id, bytes(page.body), message) == (
        "https://e.org/",
        "f",
        PAGE,
        body,
    )
