"""What an HTTP body is (worker.content): media types, HTML or not, content codings undone,
and each way a coding fails told apart by its type."""

from __future__ import annotations

import gzip
import zlib
from collections.abc import Callable

import pytest

from worker.content import (
    BodyTooLargeError,
    CorruptBodyError,
    TruncatedBodyError,
    UnsupportedCodingError,
    decode_content_encoding,
    is_html,
    media_type,
)

PAGE = b"<!DOCTYPE html><html><body><p>" + b"words " * 200 + b"</p></body></html>"


@pytest.mark.parametrize(
    ("content_type", "media"),
    [
        (None, None),
        ("", None),
        (" ; charset=utf-8", None),
        ("text/html", "text/html"),
        ("Text/HTML; charset=UTF-8", "text/html"),
        (" application/xhtml+xml ;q=1", "application/xhtml+xml"),
    ],
)
def test_the_media_type_is_the_content_type_without_its_parameters(
    content_type: str | None, media: str | None
) -> None:
    assert media_type(content_type) == media


@pytest.mark.parametrize(
    ("content_type", "html"),
    [
        (None, True),
        ("text/html", True),
        ("text/html; charset=utf-8", True),
        ("TEXT/HTML", True),
        ("application/xhtml+xml", True),
        ("application/pdf", False),
        ("text/plain", False),
        ("image/png", False),
    ],
)
def test_is_html(content_type: str | None, html: bool) -> None:
    assert is_html(content_type) is html


# --------------------------------------------------------------------- content codings


@pytest.mark.parametrize("coding", [None, "", "identity", "IDENTITY "])
def test_an_uncoded_body_is_passed_as_it_is(coding: str | None) -> None:
    assert decode_content_encoding(PAGE, coding, 1 << 20) is PAGE


@pytest.mark.parametrize(
    ("coding", "compress"),
    [
        ("gzip", gzip.compress),
        ("x-gzip", gzip.compress),
        ("GZip", gzip.compress),
        ("deflate", zlib.compress),  # HTTP's deflate: zlib-wrapped
        ("deflate", lambda data: zlib.compress(data)[2:-4]),  # raw, as some servers send
    ],
)
def test_gzip_and_deflate_are_decoded(coding: str, compress: Callable[[bytes], bytes]) -> None:
    assert decode_content_encoding(compress(PAGE), coding, 1 << 20) == PAGE


def test_a_decompression_bomb_is_too_large_without_inflating_it_all() -> None:
    bomb = gzip.compress(b"\0" * (64 << 20))  # 64 MiB of zeros in ~64 KB
    assert len(bomb) < 100_000
    with pytest.raises(BodyTooLargeError, match="decompresses \\(gzip\\) to over the limit"):
        decode_content_encoding(bomb, "gzip", 1 << 20)


def test_exactly_the_limit_decompressed_is_accepted() -> None:
    data = b"a" * 5000
    assert decode_content_encoding(gzip.compress(data), "gzip", 5000) == data
    with pytest.raises(BodyTooLargeError):
        decode_content_encoding(gzip.compress(data), "gzip", 4999)


@pytest.mark.parametrize("coding", ["br", "compress", "zstd", "gzip, br"])
def test_another_coding_is_refused_by_name(coding: str) -> None:
    with pytest.raises(UnsupportedCodingError) as error:
        decode_content_encoding(PAGE, coding, 1 << 20)
    assert f"content_encoding {coding!r} is not supported" in str(error.value)
    assert "gzip, x-gzip, deflate" in str(error.value)


def test_a_body_that_is_not_what_its_coding_says_is_invalid() -> None:
    with pytest.raises(CorruptBodyError, match="not valid gzip data"):
        decode_content_encoding(PAGE, "gzip", 1 << 20)


def test_truncated_gzip_is_told_apart() -> None:
    with pytest.raises(TruncatedBodyError, match="truncated gzip"):
        decode_content_encoding(gzip.compress(PAGE)[:-20], "gzip", 1 << 20)
