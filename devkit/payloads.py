"""Fuzzing the worker's message decoder: random and mutated JSON / MessagePack bodies.

PayloadGen builds, from a seeded random.Random, valid FetchedPage messages
mutated by bit flips, truncation, splices, wrong types, huge numbers, deep
nesting, invalid UTF-8 and extension types, besides junk. `classify` puts one
through the worker's own decode path, `decode_page(body,
encoding_for(content_type))`: each must decode or raise InvalidMessageError
(dead-lettered `invalid`); anything else would have reached the worker's
catch-all (requeued as `crashed`) and is a BUG. A DecoderCampaign counts the
outcomes of a Hypothesis-seeded run.

`python -m bench.fuzz` runs the long campaign; tests/reliability/test_fuzz.py
a small one, and test_messages.py publishes PayloadGen's bodies to a worker.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import msgspec
from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st

from worker.schemas import FetchedPage, InvalidMessageError, decode_page, encoding_for

__all__ = [
    "DecoderCampaign",
    "PayloadGen",
    "classify",
    "merge_decoder",
    "payloads",
    "run_decoder_campaign",
]


FIELDS = ("url", "body", "charset", "content_type", "status", "fetched_at", "fetch_id")
CONTENT_TYPES = (
    "application/json", "application/msgpack", "application/x-msgpack",
    "application/json; charset=utf-8", "APPLICATION/MSGPACK", "text/html", "", None,
)  # fmt: skip
STRINGS = (
    "", "https://e.org/", "u", "x" * 300, "https://e.org/\n\x00", "\u202e\ufeff",
    "2026-11-30T12:00:00Z", "2026-13-45T99:99:99Z", "yesterday", "1e400", "text/html",
    "application/pdf", "utf-8", "bogus",
)  # fmt: skip


class PayloadGen:
    """Message bodies: valid FetchedPage skeletons with odd fields, mutated; junk; deep nesting."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def scalar(self) -> Any:
        rng = self.rng
        options: tuple[Callable[[], Any], ...] = (
            lambda: None,
            lambda: rng.random() < 0.5,
            lambda: rng.choice((0, -1, 200, 599, 600, 2**63 - 1, -(2**63), 2**64 - 1)),
            lambda: rng.choice((0.5, float("inf"), float("-inf"), float("nan"), 1e308)),
            lambda: rng.randbytes(rng.randint(0, 40)),
            lambda: "".join(chr(rng.randint(1, 0x2FFFF)) for _ in range(rng.randint(0, 20))),
            lambda: rng.choice(STRINGS),
            lambda: rng.choice(STRINGS),
        )
        return rng.choice(options)()

    def value(self, depth: int = 0) -> Any:
        rng = self.rng
        kind = rng.randrange(6)
        if depth < 4 and kind == 0:
            return [self.value(depth + 1) for _ in range(rng.randint(0, 4))]
        if depth < 4 and kind == 1:
            return {self.scalar_key(): self.value(depth + 1) for _ in range(rng.randint(0, 4))}
        return self.scalar()

    def scalar_key(self) -> str:
        return self.rng.choice((*FIELDS, "extra", "x" * 70, ""))

    def page(self) -> dict[str, Any]:
        rng = self.rng
        fields: dict[str, Any] = {}
        if rng.random() < 0.9:  # mostly a valid skeleton
            fields["url"] = rng.choice(("https://e.org/", "u", "https://e.org/\n\x00"))
            fields["body"] = rng.choice((b"<p>x</p>", "<p>x</p>", rng.randbytes(50)))
        for _ in range(rng.randint(0, 5)):
            fields[self.scalar_key()] = self.value()
        return fields

    def nested(self, json_like: bool) -> bytes:
        depth = self.rng.choice((10, 100, 500, 1_000, 5_000, 100_000))
        if json_like:
            return b'{"url":"u","body":"b","x":' + b"[" * depth + b"]" * depth + b"}"
        return b"\x83\xa3url\xa1u\xa4body\xc4\x01b\xa1x" + b"\x91" * depth + b"\xc0"

    def payload(self) -> tuple[bytes, str | None]:
        rng = self.rng
        content_type = rng.choice(CONTENT_TYPES)
        json_like = "json" in (content_type or "") or rng.random() < 0.2
        kind = rng.randrange(10)
        if kind == 0:
            return rng.randbytes(rng.randint(0, 300)), content_type
        if kind == 1:
            return self.nested(json_like), content_type
        fields = self.page()
        try:
            body = (msgspec.json.encode if json_like else msgspec.msgpack.encode)(fields)
        except (TypeError, ValueError, OverflowError):
            body = repr(fields).encode("utf-8", "surrogatepass")
        return (self.mutate(body) if kind > 5 else body), content_type

    def mutate(self, body: bytes) -> bytes:
        rng = self.rng
        data = bytearray(body)
        for _ in range(rng.randint(1, 4)):
            at = rng.randint(0, max(0, len(data) - 1))
            how = rng.randrange(4)
            if how == 0 and data:
                data[at] ^= 1 << rng.randrange(8)
            elif how == 1:
                del data[at:]
            elif how == 2:
                data[at:at] = rng.randbytes(rng.randint(1, 8))
            else:
                data[at:at] = data[: rng.randint(0, len(data))]
        return bytes(data)


def payloads() -> st.SearchStrategy[tuple[bytes, str | None]]:
    """A message body and its AMQP content_type, from a Hypothesis-drawn seed."""
    return st.integers(0, 2**32 - 1).map(lambda n: PayloadGen(random.Random(n)).payload())


@dataclass
class DecoderCampaign:
    outcomes: Counter[str] = field(default_factory=Counter)
    failures: list[tuple[bytes, str | None, str]] = field(default_factory=list)
    slowest: float = 0.0

    def record(self, body: bytes, content_type: str | None) -> None:
        start = time.process_time()
        outcome = classify(body, content_type)
        self.slowest = max(self.slowest, time.process_time() - start)
        self.outcomes[outcome.split(":")[0]] += 1
        if outcome.startswith("BUG"):
            self.failures.append((body, content_type, outcome))


def merge_decoder(campaigns: list[DecoderCampaign]) -> DecoderCampaign:
    total = DecoderCampaign()
    for campaign in campaigns:
        total.outcomes.update(campaign.outcomes)
        total.failures += campaign.failures
        total.slowest = max(total.slowest, campaign.slowest)
    return total


def classify(body: bytes, content_type: str | None) -> str:
    """What the worker's decode path makes of a message: decoded, invalid, or BUG: <error>."""
    try:
        page = decode_page(body, encoding_for(content_type))
    except InvalidMessageError as error:
        return "invalid:" + str(error)[:60]
    except Exception as error:  # noqa: BLE001 - the finding
        return f"BUG: {type(error).__name__}: {error}"
    return "decoded" if isinstance(page, FetchedPage) else "BUG: not a FetchedPage"


def run_decoder_campaign(count: int, random_seed: int) -> DecoderCampaign:
    campaign = DecoderCampaign()

    @settings(
        max_examples=count,
        deadline=None,
        database=None,
        phases=(Phase.generate,),
        suppress_health_check=list(HealthCheck),
    )
    @seed(random_seed)
    @given(payloads())
    def one(message: tuple[bytes, str | None]) -> None:
        campaign.record(*message)

    one()
    return campaign
