"""The message contract: decoding, its errors, the output's id, the committed JSON Schemas.

The output record (worker.clean_page) is declared without the library: it
mirrors blockdensity's Summary, Metadata and enums, field for field, and the
stage fills it from a Fit (worker.stage.clean_record); the feeder and the
collector import no part of the fit.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import subprocess
import sys
from datetime import UTC, datetime
from types import SimpleNamespace

import msgspec
import pytest

import blockdensity
from blockdensity import Summary, fit_text
from worker.amqp.reader import Incoming
from worker.clean_page import PAGE_TYPES, BlockKind, FallbackReason, Metadata, Profile
from worker.collect.jsonl import JSONL
from worker.schemas import (
    SCHEMA_DIR,
    CleanPage,
    Encoding,
    FetchedPage,
    InvalidMessageError,
    clean_message_id,
    decode_page,
    encode_message,
    encoding_for,
    json_schemas,
)
from worker.stage.clean_record import clean_page


def test_msgpack_page_carries_raw_bytes() -> None:
    body = "<p>caf\xe9</p>".encode("latin-1")  # not UTF-8: bytes pass untouched
    data = msgspec.msgpack.encode(
        {
            "url": "https://example.org/",
            "body": body,
            "charset": "iso-8859-1",
            "content_type": "text/html; charset=iso-8859-1",
            "status": 203,
            "fetched_at": "2024-05-01T12:00:00Z",
            "fetch_id": "f-1",
        }
    )
    page = decode_page(data, encoding_for("application/msgpack"))
    assert page == FetchedPage(
        url="https://example.org/",
        body=body,
        charset="iso-8859-1",
        content_type="text/html; charset=iso-8859-1",
        status=203,
        fetched_at=datetime(2024, 5, 1, 12, tzinfo=UTC),
        fetch_id="f-1",
    )


def test_json_page_carries_a_string_and_defaults() -> None:
    page = decode_page(b'{"url": "https://e.org/", "body": "<p>hi</p>"}', Encoding.JSON)
    assert page.body == "<p>hi</p>"
    assert page.status == 200
    assert page.charset is None
    assert page.content_type is None
    assert page.fetched_at is None
    assert page.fetch_id is None


def test_unknown_fields_are_ignored() -> None:
    data = msgspec.msgpack.encode({"url": "u", "body": b"x", "crawler": {"v": 2}, "depth": 3})
    assert decode_page(data, Encoding.MSGPACK).url == "u"


@pytest.mark.parametrize(
    ("content_type", "encoding"),
    [
        ("application/json", Encoding.JSON),
        ("application/json; charset=utf-8", Encoding.JSON),
        ("application/msgpack", Encoding.MSGPACK),
        ("application/x-msgpack", Encoding.MSGPACK),
        ("Application/MsgPack", Encoding.MSGPACK),
    ],
)
def test_content_type_chooses_the_encoding(content_type: str | None, encoding: Encoding) -> None:
    assert encoding_for(content_type) is encoding


@pytest.mark.parametrize(
    ("content_type", "complaint"),
    [
        (None, "the message has no AMQP content_type; expected application/json"),
        ("", "has no AMQP content_type"),
        ("text/html", "'text/html' is not one of"),
        ("application/octet-stream", "is not one of"),
    ],
)
def test_unknown_content_type_is_invalid(content_type: str | None, complaint: str) -> None:
    with pytest.raises(InvalidMessageError, match=complaint):
        encoding_for(content_type)


@pytest.mark.parametrize(
    ("encoding", "data", "complaint"),
    [
        (Encoding.MSGPACK, b"\xc1", "undecodable msgpack: MessagePack data is malformed"),
        (Encoding.MSGPACK, b"", "undecodable msgpack: Input data was truncated"),
        (Encoding.JSON, b'{"url": "u", "body": ', "undecodable json"),
        (Encoding.JSON, b"[1, 2]", "Expected `object`, got `array`"),
        (Encoding.JSON, b'{"body": "x"}', "Object missing required field `url`"),
        (Encoding.JSON, b'{"url": "u"}', "Object missing required field `body`"),
        (Encoding.JSON, b'{"url": "", "body": "x"}', "length >= 1 - at `$.url`"),
        (Encoding.JSON, b'{"url": 7, "body": "x"}', "Expected `str`, got `int` - at `$.url`"),
        (Encoding.JSON, b'{"url": "u", "body": "x", "status": 99}', "at `$.status`"),
        (Encoding.JSON, b'{"url": "u", "body": "x", "status": "200"}', "at `$.status`"),
        (
            Encoding.JSON,
            b'{"url": "u", "body": "x", "fetched_at": "yesterday"}',
            "Invalid RFC3339 encoded datetime - at `$.fetched_at`",
        ),
        (
            Encoding.MSGPACK,
            msgspec.msgpack.encode({"url": "u", "body": "a string, not bytes"}),
            "Expected `bytes`, got `str` - at `$.body`",
        ),
        (
            Encoding.MSGPACK,
            msgspec.msgpack.encode({"url": "u", "body": b"x", "charset": 8}),
            "at `$.charset`",
        ),
    ],
)
def test_every_invalid_message_says_what_and_where(
    encoding: Encoding,
    data: bytes,
    complaint: str,
) -> None:
    with pytest.raises(InvalidMessageError) as error:
        decode_page(data, encoding)
    assert complaint in str(error.value)
    assert str(error.value).startswith(("undecodable", f"{encoding.value} FetchedPage:"))


def test_message_id_is_deterministic() -> None:
    first = clean_message_id("in-1", "https://e.org/", "f")
    assert first == clean_message_id("in-1", "https://e.org/", "f")
    # The input's message_id decides when there is one...
    assert first == clean_message_id("in-1", "https://other.org/", None)
    assert first != clean_message_id("in-2", "https://e.org/", "f")
    # ...else url and fetch_id.
    by_url = clean_message_id(None, "https://e.org/", "f")
    assert by_url == clean_message_id("", "https://e.org/", "f")
    assert by_url != clean_message_id(None, "https://e.org/", "g")
    assert by_url != clean_message_id(None, "https://e.org/x", "f")
    assert by_url != first
    assert len(first) == 32
    assert int(first, 16) >= 0


def test_message_id_derives_from_the_schema_version(monkeypatch: pytest.MonkeyPatch) -> None:
    # The output of version 2 must not de-duplicate against version 1's of the
    # same input: an indexer would drop the richer record as a redelivery.
    current = clean_message_id("in-1", "https://e.org/", "f")
    monkeypatch.setattr("worker.schemas.SCHEMA_VERSION", 1)
    assert clean_message_id("in-1", "https://e.org/", "f") != current


def test_message_id_is_the_same_in_another_process() -> None:
    # Not salted by PYTHONHASHSEED or anything else of the process.
    code = "from worker.schemas import clean_message_id as c; print(c('m', 'u', None))"
    other = subprocess.run(  # noqa: S603 - our own interpreter and code
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert other == clean_message_id("m", "u", None)


def _clean(**changes: object) -> CleanPage:
    fields: dict[str, object] = {
        "url": "https://e.org/",
        "fetch_id": None,
        "status": 200,
        "title": "T",
        "lang": "en",
        "text": "main text",
        "fallback_reason": None,
        "blocks_total": 9,
        "blocks_with_words": 8,
        "blocks_kept": 3,
        "words_total": 100,
        "words_kept": 60,
        "profile": Profile.ARTICLE,
        "lang_detected": "en",
        "lang_confidence": 0.98,
        "text_sha256": "9" * 64,
        "fit_seconds": 0.002,
    }
    fields.update(changes)
    return CleanPage(**fields)  # type: ignore[arg-type]


def decode_clean(data: bytes, encoding: Encoding) -> CleanPage:
    """An output record back from its bytes, as the indexer decodes it."""
    if encoding is Encoding.JSON:
        return msgspec.json.decode(data, type=CleanPage)
    return msgspec.msgpack.decode(data, type=CleanPage)


@pytest.mark.parametrize("encoding", list(Encoding))
def test_clean_page_round_trips(encoding: Encoding) -> None:
    page = _clean(fallback_reason=FallbackReason.SINGLE_BLOCK)
    assert page.fallback
    decoded = decode_clean(encode_message(page, encoding), encoding)
    assert decoded == page
    assert decoded.schema_version == 4


class CleanPageV1(msgspec.Struct):
    """What a consumer written for schema version 1 decodes (msgspec ignores the fields it
    does not know, as consumers are told to)."""

    url: str
    fetch_id: str | None
    status: int
    title: str
    lang: str | None
    text: str
    fallback: bool
    fallback_reason: str | None
    blocks_total: int
    blocks_with_words: int
    blocks_kept: int
    words_total: int
    words_kept: int
    profile: str
    fit_seconds: float
    schema_version: int


@pytest.mark.parametrize("encoding", list(Encoding))
def test_a_consumer_of_version_1_reads_a_record_of_version_4(encoding: Encoding) -> None:
    fit = fit_text('<meta property="og:title" content="Shared"><p>one two three</p>', url="u")
    page = clean_page(FetchedPage(url="https://e.org/", body=b"", status=203), fit, 0.1)
    assert page.metadata.title == "Shared"
    data = encode_message(page, encoding)
    decode = msgspec.json.decode if encoding is Encoding.JSON else msgspec.msgpack.decode
    old = decode(data, type=CleanPageV1)
    assert (old.url, old.status, old.text, old.schema_version) == (
        "https://e.org/",
        203,
        "one two three",
        4,
    )


@pytest.mark.parametrize("encoding", list(Encoding))
def test_a_record_of_version_1_still_decodes_as_a_clean_page(encoding: Encoding) -> None:
    # A record still in a queue from before the upgrade: version 2's fields
    # are all optional, so a consumer of version 2 reads it.
    v1 = {name: value for name, value in msgspec.to_builtins(_clean()).items()
          if name in CleanPageV1.__struct_fields__}  # fmt: skip
    v1["schema_version"] = 1
    encode = msgspec.json.encode if encoding is Encoding.JSON else msgspec.msgpack.encode
    page = decode_clean(encode(v1), encoding)
    assert page.schema_version == 1
    assert (page.lang_detected, page.lang_confidence, page.text_sha256) == (None, None, None)
    assert (page.metadata, page.blocks, page.comments) == (Metadata(), None, None)
    assert page.confidence is None
    assert page.text == "main text"


@pytest.mark.parametrize("encoding", list(Encoding))
def test_comments_travel_apart_from_the_text(encoding: Encoding) -> None:
    comment = " ".join(f"c{n:02d}" for n in range(30))
    story = " ".join(f"a{n:02d}" for n in range(40))
    html = (
        f"<article><h1>Head line</h1><p>{story}</p></article>"
        f'<div class="comments"><p>{comment}</p></div>'
    )
    page = clean_page(FetchedPage(url="https://e.org/", body=b""), fit_text(html), 0.1)
    decoded = decode_clean(encode_message(page, encoding), encoding)
    assert decoded.comments == comment
    assert comment not in decoded.text
    # A page without comments: null, as a consumer of version 2 never sees it.
    plain = clean_page(FetchedPage(url="https://e.org/", body=b""), fit_text(f"<p>{story}</p>"), 0)
    assert decode_clean(encode_message(plain, encoding), encoding).comments is None


@pytest.mark.parametrize("encoding", list(Encoding))
def test_the_confidence_travels_with_the_text(encoding: Encoding) -> None:
    story = " ".join(f"a{n:02d}" for n in range(60))
    fit = fit_text(
        f"<nav><a href=/>Home</a> <a href=/x>News</a></nav><article><p>{story}</p></article>"
    )
    page = clean_page(FetchedPage(url="https://e.org/", body=b""), fit, 0.1)
    decoded = decode_clean(encode_message(page, encoding), encoding)
    assert decoded.confidence == fit.confidence
    assert decoded.confidence is not None
    assert 0.0 <= decoded.confidence <= 1.0


def test_the_schema_marks_only_version_1_fields_required() -> None:
    schema = json.loads(json_schemas()["clean_page.schema.json"])
    required = set(schema["$defs"]["CleanPage"]["required"])
    assert required == set(CleanPageV1.__struct_fields__) - {"schema_version"}
    metadata = schema["$defs"]["Metadata"]["properties"]
    assert metadata["published"]["description"].startswith("When the page says it was published")


def test_clean_page_fields_are_the_contract() -> None:
    # Encoded as a map (JSON object, MessagePack map): consumers read fields by
    # name. This order is the one the encoders write.
    assert tuple(field.name for field in dataclasses.fields(CleanPage)) == (
        "text",
        "title",
        "lang",
        "fallback",
        "fallback_reason",
        "blocks_total",
        "blocks_with_words",
        "blocks_kept",
        "words_total",
        "words_kept",
        "profile",
        "lang_detected",
        "lang_confidence",
        "text_sha256",
        "metadata",
        "comments",
        "truncated",
        "confidence",
        "page_type",
        "page_type_confidence",
        "url",
        "fetch_id",
        "status",
        "fit_seconds",
        "blocks",
        "markdown",
        "comments_markdown",
        "schema_version",
    )


def _described(record: type[object]) -> list[tuple[str, object, object, str | None]]:
    """A dataclass's fields: name, default, whether it is set by __init__, description."""
    return [
        (item.name, item.default, item.init, item.metadata.get("description"))
        for item in dataclasses.fields(record)  # type: ignore[arg-type]  # a dataclass
    ]


def test_the_record_mirrors_the_library_s_summary_field_for_field() -> None:
    # The fit's part of the record is blockdensity.Summary's fields, in its order,
    # with the same defaults and descriptions: a field the library adds fails
    # here until worker.clean_page (and worker.stage.clean_record) carry it.
    summary = _described(Summary)
    assert _described(CleanPage)[: len(summary)] == [
        (name, Metadata() if isinstance(default, blockdensity.Metadata) else default, init, text)
        for name, default, init, text in summary
    ]
    assert _described(Metadata) == _described(blockdensity.Metadata)
    assert Metadata.__doc__ == blockdensity.Metadata.__doc__  # the schema's description


@pytest.mark.parametrize(
    ("ours", "library"),
    [
        (Profile, blockdensity.Profile),
        (FallbackReason, blockdensity.FallbackReason),
        (BlockKind, blockdensity.BlockKind),
    ],
)
def test_the_record_s_enums_are_the_library_s(
    ours: type[enum.StrEnum], library: type[enum.StrEnum]
) -> None:
    assert [(member.name, member.value) for member in ours] == [
        (member.name, member.value) for member in library
    ]
    assert ours.__doc__ == library.__doc__  # the schema's description


def test_the_record_s_page_types_are_the_library_s() -> None:
    assert tuple(kind.value for kind in blockdensity.PageType) == PAGE_TYPES


def test_clean_page_carries_every_summary_field_of_the_fit() -> None:
    html = (
        '<html lang="en"><title>T</title><meta property="og:title" content="Shared">'
        '<meta name="keywords" content="a, b"><p>one two three</p>'
    )
    for fit in (fit_text(html), fit_text(html, blockdensity.PUBLISHED_CONF)):
        fetched = FetchedPage(url="https://e.org/", body=b"", fetch_id="f", status=203)
        page = clean_page(fetched, fit, 0.5)
        for item in dataclasses.fields(Summary):
            # as the wire carries them: enums as their values, records as maps
            ours, theirs = getattr(page, item.name), getattr(fit, item.name)
            assert msgspec.to_builtins(ours) == msgspec.to_builtins(theirs), item.name
        assert page.fallback_reason is FallbackReason.SINGLE_BLOCK
        assert page.metadata.keywords == ("a", "b")
        assert (page.url, page.fetch_id, page.status, page.fit_seconds) == (
            "https://e.org/",
            "f",
            203,
            0.5,
        )


def test_the_feeder_and_the_collector_import_no_part_of_the_fit() -> None:
    # They publish and read messages: the record's types are the contract's own,
    # and neither the fit, nor its parser, nor its language detector loads.
    code = (
        "import sys\n"
        "import worker.feed.__main__, worker.feed.cli, worker.collect.__main__\n"
        "import worker.collect.cli, worker.schemas, worker.clean_page, worker.config\n"
        "print(sorted(name for name in sys.modules if name.partition('.')[0]\n"
        "             in ('blockdensity', 'selectolax', 'pycld2')))\n"
    )
    found = subprocess.run(  # noqa: S603 - our own interpreter and code
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert found == "[]"
    # The stage's conversion does load the fit (the probe above can see it).
    code = code.replace("import sys\n", "import sys, worker.stage.clean_record\n")
    found = subprocess.run(  # noqa: S603 - our own interpreter and code
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert "'blockdensity'" in found
    assert "'selectolax.lexbor'" in found


def test_the_schema_describes_fields_from_their_metadata() -> None:
    schema = json.loads(json_schemas()["clean_page.schema.json"])
    properties = schema["$defs"]["CleanPage"]["properties"]
    assert properties["text"]["description"] == "Main text; the whole text on fallback."
    assert properties["fit_seconds"]["description"] == "Time of the fit in its process."
    assert schema["$defs"]["FallbackReason"]["enum"] == sorted(r.value for r in FallbackReason)


def test_committed_json_schemas_match_the_structs() -> None:
    for name, text in json_schemas().items():
        committed = (SCHEMA_DIR / name).read_text(encoding="utf-8")
        assert committed == text, f"schemas/{name} is stale: run python -m worker.schemas"


def test_the_kept_blocks_travel_only_when_asked() -> None:
    page = FetchedPage(url="https://e.org/", body=b"<h1>Title words here</h1><p>" + b"w " * 30)
    fitted = fit_text(page.body)
    assert clean_page(page, fitted, 0.001).blocks is None
    with_blocks = clean_page(page, fitted, 0.001, blocks=True)
    assert with_blocks.blocks is not None
    assert "\n".join(block.text for block in with_blocks.blocks) == with_blocks.text
    assert {block.kind for block in with_blocks.blocks} <= set(BlockKind)
    for encoding in Encoding:
        assert decode_clean(encode_message(with_blocks, encoding), encoding) == with_blocks


def test_the_markdown_travels_only_when_asked_and_the_collector_writes_it() -> None:
    page = FetchedPage(url="https://e.org/", body=b"<h1>Title words here</h1><p>" + b"w " * 30)
    fitted = fit_text(page.body)
    assert clean_page(page, fitted, 0.001).markdown is None
    with_markdown = clean_page(page, fitted, 0.001, markdown=True)
    assert with_markdown.markdown == fitted.markdown == "# Title words here\n\n" + "w " * 29 + "w"
    assert with_markdown.text == fitted.text
    for encoding in Encoding:
        body = encode_message(with_markdown, encoding)
        assert decode_clean(body, encoding) == with_markdown
        # The collector's JSONL line: the record's fields as they came, the markdown with them.
        assert _jsonl_fields(body, encoding)["markdown"] == with_markdown.markdown


def _jsonl_fields(body: bytes, encoding: Encoding) -> dict[str, object]:
    """The fields of the collector's JSONL line for a message of `body` in `encoding`."""
    message = SimpleNamespace(body=body, content_type=f"application/{encoding.value}", headers={})
    line = JSONL.record(Incoming(message))  # type: ignore[arg-type]  # a stand-in message
    fields: dict[str, object] = json.loads(line)
    return fields


def test_the_comments_markdown_travels_with_the_markdown_and_the_collector_writes_it() -> None:
    story = "".join(f"<p>{' '.join(f'a{n}x{i}' for i in range(40))}</p>" for n in range(3))
    comment = "I agree with this *entirely* " + "yes " * 25
    body = (
        f'<article><h1>Head words</h1>{story}</article><section id="comments"><h3>Comments</h3>'
        f'<div class="comment-body"><p>{comment}</p></div></section>'
    ).encode()
    page = FetchedPage(url="https://e.org/", body=body)
    fitted = fit_text(page.body)
    assert fitted.comments is not None
    assert fitted.comments_markdown is not None
    assert "I agree with this \\*entirely\\*" in fitted.comments_markdown
    assert clean_page(page, fitted, 0.001).comments_markdown is None
    record = clean_page(page, fitted, 0.001, markdown=True)
    assert record.comments_markdown == fitted.comments_markdown
    assert record.comments == fitted.comments
    for encoding in Encoding:
        encoded = encode_message(record, encoding)
        assert decode_clean(encoded, encoding) == record
        assert _jsonl_fields(encoded, encoding)["comments_markdown"] == record.comments_markdown


def test_a_page_without_comments_has_no_comments_markdown() -> None:
    page = FetchedPage(url="https://e.org/", body=b"<h1>Title words here</h1><p>" + b"w " * 30)
    record = clean_page(page, fit_text(page.body), 0.001, markdown=True)
    assert record.markdown is not None
    assert record.comments is None
    assert record.comments_markdown is None
