"""The message contract: FetchedPage in, CleanPage out, as msgspec Structs.

The AMQP content_type property chooses the encoding: JSON, where the page's
body is a string, or MessagePack, where it is raw bytes (the cheap one: no
escaping, no transcoding). The output uses the input's encoding. Unknown
fields are ignored so that producers can add fields without breaking us.

CleanPage and the types it holds are worker.clean_page's (declared there
without the library: a program that only reads or writes messages imports
no part of the fit); the stage fills one from a fit
(worker.stage.clean_record). The JSON Schemas under schemas/ are generated
from these records (`python -m worker.schemas` rewrites them; a test keeps
them in step).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import fields
from datetime import datetime
from enum import Enum
from pathlib import Path
from typing import Annotated, Any, Final, Generic, TypeVar

import msgspec

from worker.clean_page import SCHEMA_VERSION, CleanPage, KeptBlock, Metadata
from worker.content import media_type

__all__ = [
    "MEDIA_TYPES",
    "SCHEMA_VERSION",
    "CleanPage",
    "Encoding",
    "FetchedPage",
    "InvalidMessageError",
    "clean_message_id",
    "decode_page",
    "decode_untyped",
    "encode_json",
    "encode_message",
    "encoding_for",
    "json_schemas",
]

BodyT = TypeVar("BodyT", bytes, str)


class Encoding(Enum):
    JSON = "json"
    MSGPACK = "msgpack"


# AMQP content_type (without parameters, lower case) -> encoding.
MEDIA_TYPES: Final = {
    "application/json": Encoding.JSON,
    "application/msgpack": Encoding.MSGPACK,
    "application/x-msgpack": Encoding.MSGPACK,
}


class InvalidMessageError(ValueError):
    """The message cannot be decoded into a FetchedPage; the text says why and where."""


class FetchedPage(msgspec.Struct, Generic[BodyT], kw_only=True, frozen=True):
    """A page a crawler fetched. In JSON the body is a string; in MessagePack, bytes."""

    url: Annotated[str, msgspec.Meta(min_length=1, description="The page's URL.")]
    body: Annotated[
        BodyT,
        msgspec.Meta(
            description="The raw HTML: a string in JSON, the bytes as fetched in MessagePack."
        ),
    ]
    charset: Annotated[
        str | None,
        msgspec.Meta(description="Charset of the HTTP Content-Type header, if it named one."),
    ] = None
    content_type: Annotated[
        str | None,
        msgspec.Meta(description="The HTTP Content-Type; pages that are not HTML are refused."),
    ] = None
    status: Annotated[
        int, msgspec.Meta(ge=100, le=599, description="The HTTP status of the fetch.")
    ] = 200
    fetched_at: (
        Annotated[
            datetime,
            msgspec.Meta(
                tz=True, description="When the page was fetched (RFC 3339, with its offset)."
            ),
        ]
        | None
    ) = None
    fetch_id: Annotated[
        str | None,
        msgspec.Meta(description="The crawler's id of this fetch; part of the output's id."),
    ] = None


_JSON_DECODER: Final = msgspec.json.Decoder(FetchedPage[str])
_MSGPACK_DECODER: Final = msgspec.msgpack.Decoder(FetchedPage[bytes])
_JSON_ENCODER: Final = msgspec.json.Encoder()
_MSGPACK_ENCODER: Final = msgspec.msgpack.Encoder()


def encoding_for(content_type: str | None) -> Encoding:
    """The encoding an AMQP content_type names; InvalidMessageError if none."""
    encoding = MEDIA_TYPES.get(media_type(content_type) or "")
    if encoding is None:
        expected = ", ".join(MEDIA_TYPES)
        if not content_type:
            raise InvalidMessageError(f"the message has no AMQP content_type; expected {expected}")
        raise InvalidMessageError(f"AMQP content_type {content_type!r} is not one of {expected}")
    return encoding


def decode_page(
    body: bytes | bytearray | memoryview, encoding: Encoding
) -> FetchedPage[bytes] | FetchedPage[str]:
    """Decode and validate a message body; InvalidMessageError names what was wrong."""
    try:
        if encoding is Encoding.MSGPACK:
            return _MSGPACK_DECODER.decode(body)
        return _JSON_DECODER.decode(body)
    except msgspec.ValidationError as error:
        raise InvalidMessageError(f"{encoding.value} FetchedPage: {error}") from None
    except msgspec.DecodeError as error:
        raise InvalidMessageError(f"undecodable {encoding.value}: {error}") from None
    except RecursionError:
        # msgspec recurses into arrays and maps, unknown fields' too: ~1,000
        # levels (a 2 KB message) raise RecursionError, not DecodeError.
        raise InvalidMessageError(f"undecodable {encoding.value}: nested too deeply") from None


def encode_message(
    record: CleanPage | FetchedPage[bytes] | FetchedPage[str], encoding: Encoding
) -> bytes:
    """A message body: a CleanPage (the stage's output) or a FetchedPage (as a crawler, or
    the feeder, publishes it)."""
    if encoding is Encoding.MSGPACK:
        return _MSGPACK_ENCODER.encode(record)
    return _JSON_ENCODER.encode(record)


# For the collector: any message body as plain data, and a value as JSON.


def decode_untyped(body: bytes, encoding: Encoding) -> Any:
    """A message body as plain data (dicts, lists, ...); InvalidMessageError if it is not."""
    try:
        if encoding is Encoding.MSGPACK:
            return msgspec.msgpack.decode(body)
        return msgspec.json.decode(body)
    except (msgspec.DecodeError, RecursionError) as error:
        raise InvalidMessageError(f"undecodable {encoding.value}: {error}") from None


def encode_json(value: Any) -> bytes:
    """`value` as one line of JSON (bytes become base64, as msgspec encodes them)."""
    return _JSON_ENCODER.encode(value)


def clean_message_id(input_message_id: str | None, url: str, fetch_id: str | None) -> str:
    """The output's AMQP message_id: the same for every delivery of the same input.

    From the input's message_id when it has one, else from url and fetch_id
    (two fetches of one URL without fetch ids then share an id: producers
    that want both kept must set one of the two).
    """
    if input_message_id:
        key = f"message_id\0{input_message_id}"
    else:
        key = f"url\0{url}\0{fetch_id or ''}"
    digest = hashlib.sha256(f"blockdensity/clean/v{SCHEMA_VERSION}\0{key}".encode())
    return digest.hexdigest()[:32]


# --- JSON Schemas -----------------------------------------------------------------

SCHEMA_DIR: Final = Path(__file__).resolve().parent.parent / "schemas"
_SCHEMA_FILES: Final = {
    "fetched_page.schema.json": FetchedPage[str],
    "clean_page.schema.json": CleanPage,
}


def json_schemas() -> dict[str, str]:
    """File name -> JSON Schema text (of the JSON encoding), as committed under schemas/."""
    out = {}
    for name, struct in _SCHEMA_FILES.items():
        schema = msgspec.json.schema(struct)
        for record in (CleanPage, KeptBlock, Metadata):
            _describe_dataclass_fields(schema, record)
        schema = {"$schema": "https://json-schema.org/draft/2020-12/schema", **schema}
        out[name] = json.dumps(schema, indent=2, sort_keys=True) + "\n"
    return out


def _describe_dataclass_fields(schema: dict[str, Any], record: type[object]) -> None:
    """Copy the fields' descriptions from their metadata into `schema` (msgspec reads
    a Struct's Meta, but a dataclass field's metadata is ours to carry over)."""
    definition = schema.get("$defs", {}).get(record.__name__)
    if definition is None:
        return
    for item in fields(record):  # type: ignore[arg-type]  # a dataclass
        description = item.metadata.get("description")
        if description is not None:
            definition["properties"][item.name]["description"] = description


def write_schemas(directory: Path = SCHEMA_DIR) -> list[Path]:
    written = []
    for name, text in json_schemas().items():
        path = directory / name
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":
    for path in write_schemas():
        print(path)
