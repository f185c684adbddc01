"""The handler's settle rules, against small in-process fakes of the broker and the pool.

For each outcome: what is published (the output, or the dead letter with its
reason), and how the delivery is settled (ack, requeue, release), exactly
once. The same rules run against the real broker in test_flow.py and
test_lifecycle.py; here each is pinned alone, in milliseconds.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field

import msgspec
import pytest

from worker.amqp.errors import PublishFailedError
from worker.clean_page import FallbackReason
from worker.config import StageSettings
from worker.schemas import Encoding, clean_message_id
from worker.stage.handler import Handler
from worker.stage.ipc import Fitted
from worker.stage.metrics import Metrics
from worker.stage.outcome import Outcome
from worker.stage.pool import FitCrashedError, FitFailedError, FitTimeoutError

URL = "https://e.org/page"
PAGE = msgspec.msgpack.encode({"url": URL, "body": b"<p>words</p>", "fetch_id": "f1"})
LIMIT = 2  # BLOCKDENSITY_DELIVERY_LIMIT here: three deliveries in all


@dataclass
class FakeDelivery:
    """A delivery that records how it was settled."""

    body: bytes = PAGE
    content_type: str | None = "application/msgpack"
    content_encoding: str | None = None
    message_id: str | None = "in-1"
    delivery_count: int = 0
    settles_fail: bool = False  # every settle fails (a closed channel)
    settleable: bool = True  # False: its channel has closed
    received: float = 0.0
    settled: bool = False
    settles: list[str] = field(default_factory=list)

    async def ack(self) -> bool:
        return self._settle("ack")

    async def requeue(self) -> bool:
        return self._settle("requeue")

    async def release(self) -> bool:
        return self._settle("release")

    def _settle(self, how: str) -> bool:
        assert not self.settled, f"settled twice: {self.settles} then {how}"
        self.settled = True
        self.settles.append(how)
        return not self.settles_fail


@dataclass
class FakeBroker:
    """The two confirmed publishes, recorded; each fails when told to: every time, or the
    first `failures` tries of either kind."""

    outputs_fail: bool = False
    dead_letters_fail: bool = False
    failures: int = 0
    tries: int = 0  # publishes of either kind, confirmed or not
    on_failure: Callable[[], None] = lambda: None
    outputs: list[tuple[bytes, str, str]] = field(default_factory=list)
    dead_letters: list[tuple[FakeDelivery, str, str]] = field(default_factory=list)

    async def publish_output(self, body: bytes, *, content_type: str, message_id: str) -> None:
        self._try(self.outputs_fail, "no confirm within 10 s")
        self.outputs.append((body, content_type, message_id))

    async def dead_letter(self, delivery: FakeDelivery, reason: str, error: str) -> None:
        self._try(self.dead_letters_fail, "nacked")
        self.dead_letters.append((delivery, reason, error))

    def _try(self, fail: bool, error: str) -> None:
        self.tries += 1
        if fail or self.tries <= self.failures:
            self.on_failure()
            raise PublishFailedError(error)


@dataclass
class FakePool:
    """Answers every page with `fitted`, or raises `failure`, or waits for ever."""

    fitted: Fitted = field(
        default_factory=lambda: Fitted(
            output=b"clean", fallback_reason=None, blocks_total=3, blocks_kept=2, fit_seconds=0.001
        )
    )
    failure: FitFailedError | None = None
    hang: bool = False
    bodies: list[bytes] = field(default_factory=list)

    async def fit(self, body: bytes, encoding: Encoding) -> Fitted:
        assert encoding is Encoding.MSGPACK
        self.bodies.append(body)
        if self.hang:
            await asyncio.Event().wait()
        if self.failure is not None:
            raise self.failure
        return self.fitted


@dataclass
class Run:
    broker: FakeBroker
    pool: FakePool
    metrics: Metrics
    handler: Handler[FakeDelivery]


def _run(
    *,
    broker: FakeBroker | None = None,
    pool: FakePool | None = None,
    env: dict[str, str] | None = None,
) -> Run:
    settings = StageSettings.from_env(
        {
            "BLOCKDENSITY_DELIVERY_LIMIT": str(LIMIT),
            "BLOCKDENSITY_POOL_SIZE": "1",
            **{f"BLOCKDENSITY_{key.upper()}": value for key, value in (env or {}).items()},
        }
    )
    broker, pool, metrics = broker or FakeBroker(), pool or FakePool(), Metrics()
    return Run(broker, pool, metrics, Handler(settings, broker, pool, metrics))


def _counted(run: Run, outcome: Outcome) -> float:
    return run.metrics.value("blockdensity_pages_total", {"outcome": outcome.value})


async def test_a_fitted_page_is_published_then_acked() -> None:
    run, delivery = _run(), FakeDelivery()
    assert await run.handler.handle(delivery) is Outcome.OK
    assert run.broker.outputs == [
        (b"clean", "application/msgpack", clean_message_id("in-1", URL, "f1"))
    ]
    assert delivery.settles == ["ack"]
    assert run.broker.dead_letters == []
    assert _counted(run, Outcome.OK) == 1
    assert run.metrics.value("blockdensity_last_success_timestamp_seconds") > 0
    assert run.metrics.value("blockdensity_in_flight") == 0


async def test_a_fallback_is_published_acked_and_counted_as_one() -> None:
    fitted = Fitted(b"all", FallbackReason.SINGLE_BLOCK, 1, 1, 0.001)
    run, delivery = _run(pool=FakePool(fitted=fitted)), FakeDelivery()
    assert await run.handler.handle(delivery) is Outcome.FALLBACK
    assert delivery.settles == ["ack"]
    assert run.metrics.value("blockdensity_fallback_total", {"reason": "single_block"}) == 1


@pytest.mark.parametrize(
    ("delivery", "env", "outcome", "complaint"),
    [
        (FakeDelivery(body=b"\xc1"), {}, Outcome.INVALID, "undecodable msgpack"),
        (FakeDelivery(content_type="text/plain"), {}, Outcome.INVALID, "AMQP content_type"),
        (FakeDelivery(), {"max_body_bytes": "10"}, Outcome.TOO_LARGE, "over the limit of 10"),
        (
            FakeDelivery(
                body=msgspec.msgpack.encode({"url": URL, "body": b"%PDF-1.4", "fetch_id": "f"})
            ),
            {},
            Outcome.NOT_HTML,
            "is PDF, not HTML",
        ),
        (FakeDelivery(), {"fit_statuses": "300-399"}, Outcome.STATUS, "HTTP status 200"),
    ],
)
async def test_a_refused_message_is_dead_lettered_with_its_reason_then_acked_unfitted(
    delivery: FakeDelivery, env: dict[str, str], outcome: Outcome, complaint: str
) -> None:
    run = _run(env=env)
    assert await run.handler.handle(delivery) is outcome
    ((dead, reason, error),) = run.broker.dead_letters
    assert dead is delivery
    assert reason == outcome.value
    assert complaint in error
    assert delivery.settles == ["ack"]
    assert run.pool.bodies == []  # refused at the door: never fitted
    assert run.broker.outputs == []
    assert _counted(run, outcome) == 1


@pytest.mark.parametrize(
    ("failure", "outcome"),
    [
        (FitTimeoutError("fit ran past the 10 s timeout"), Outcome.TIMEOUT),
        (FitCrashedError("fit process 12 died: killed by SIGSEGV"), Outcome.CRASHED),
    ],
)
async def test_a_failed_fit_is_requeued_until_the_last_delivery_then_dead_lettered(
    failure: FitFailedError, outcome: Outcome
) -> None:
    for count in range(LIMIT):
        run, delivery = _run(pool=FakePool(failure=failure)), FakeDelivery(delivery_count=count)
        assert await run.handler.handle(delivery) is outcome
        assert delivery.settles == ["requeue"], count
        assert run.broker.dead_letters == []
    # The delivery the broker would dead-letter on its next return: the
    # handler dead-letters it itself, with the reason, and acks.
    run, delivery = _run(pool=FakePool(failure=failure)), FakeDelivery(delivery_count=LIMIT)
    assert await run.handler.handle(delivery) is outcome
    ((_, reason, error),) = run.broker.dead_letters
    assert reason == outcome.value
    assert error == f"{failure} (delivery {LIMIT + 1} of {LIMIT + 1})"
    assert delivery.settles == ["ack"]
    assert run.broker.outputs == []


def _retries(run: Run) -> float:
    return run.metrics.value("blockdensity_publish_retries_total")


async def test_an_output_not_confirmed_is_tried_again_with_the_input_held() -> None:
    run = _run(broker=FakeBroker(failures=3), env={"publish_retry_for": "20"})
    delivery = FakeDelivery()
    assert await run.handler.handle(delivery) is Outcome.OK
    assert run.broker.tries == 4
    assert len(run.broker.outputs) == 1
    assert run.pool.bodies == [PAGE]  # fitted once: the retries publish the same output
    assert delivery.settles == ["ack"]
    assert _retries(run) == 3
    assert _counted(run, Outcome.PUBLISH_FAILED) == 0


async def test_an_output_never_confirmed_requeues_the_input_once_the_retry_time_is_out() -> None:
    run = _run(broker=FakeBroker(outputs_fail=True), env={"publish_retry_for": "1.5"})
    delivery = FakeDelivery()
    assert await run.handler.handle(delivery) is Outcome.PUBLISH_FAILED
    assert run.broker.tries >= 2  # the first pause is at most 0.6 s (0.1 s and the jitter)
    assert _retries(run) == run.broker.tries - 1
    assert delivery.settles == ["requeue"]
    assert _counted(run, Outcome.PUBLISH_FAILED) == 1


async def test_with_no_retry_time_an_output_not_confirmed_requeues_the_input_at_once() -> None:
    run = _run(broker=FakeBroker(outputs_fail=True), env={"publish_retry_for": "0"})
    delivery = FakeDelivery()
    assert await run.handler.handle(delivery) is Outcome.PUBLISH_FAILED
    assert run.broker.tries == 1
    assert _retries(run) == 0
    assert delivery.settles == ["requeue"]
    assert _counted(run, Outcome.PUBLISH_FAILED) == 1


async def test_the_retries_stop_once_the_input_cannot_be_acked() -> None:
    # The channel closes during the first try: the broker has requeued the page. The
    # next try would be confirmed (as after a reconnection), but its output would be a
    # duplicate of the next delivery's, so it is not made.
    delivery = FakeDelivery(settles_fail=True)

    def close() -> None:
        delivery.settleable = False

    broker = FakeBroker(failures=1, on_failure=close)
    run = _run(broker=broker)
    assert await asyncio.wait_for(run.handler.handle(delivery), 5) is Outcome.PUBLISH_FAILED
    assert broker.tries == 1
    assert broker.outputs == []
    assert delivery.settles == ["requeue"]  # tried, and counted as failed
    assert run.metrics.value("blockdensity_ack_failures_total") == 1


async def test_a_channel_that_closes_between_two_retries_ends_them() -> None:
    # The first try and the retry at once fail; during the pause that follows (0.1 s
    # at least) the channel closes; the third try, which would be confirmed, is not made.
    delivery = FakeDelivery(settles_fail=True)

    def close_soon() -> None:
        if broker.tries == 2:
            asyncio.get_running_loop().call_later(0.05, setattr, delivery, "settleable", False)

    broker = FakeBroker(failures=2, on_failure=close_soon)
    run = _run(broker=broker)
    assert await asyncio.wait_for(run.handler.handle(delivery), 5) is Outcome.PUBLISH_FAILED
    assert broker.tries == 2
    assert broker.outputs == []
    assert _retries(run) == 1
    assert delivery.settles == ["requeue"]


async def test_a_dead_letter_not_confirmed_is_tried_again_then_acked() -> None:
    run = _run(broker=FakeBroker(failures=2), env={"publish_retry_for": "20"})
    delivery = FakeDelivery(content_type="text/plain")
    assert await run.handler.handle(delivery) is Outcome.INVALID
    assert len(run.broker.dead_letters) == 1
    assert delivery.settles == ["ack"]
    assert _retries(run) == 2


async def test_a_dead_letter_never_confirmed_requeues_the_input_rather_than_lose_it() -> None:
    run = _run(broker=FakeBroker(dead_letters_fail=True), env={"publish_retry_for": "1.5"})
    delivery = FakeDelivery(content_type="text/plain")
    assert await run.handler.handle(delivery) is Outcome.PUBLISH_FAILED
    assert run.broker.dead_letters == []
    assert delivery.settles == ["requeue"]


async def test_a_settle_that_fails_is_counted_and_the_outcome_stands() -> None:
    run, delivery = _run(), FakeDelivery(settles_fail=True)
    assert await run.handler.handle(delivery) is Outcome.OK
    assert delivery.settles == ["ack"]
    assert run.metrics.value("blockdensity_ack_failures_total") == 1
    assert run.metrics.value("blockdensity_last_success_timestamp_seconds") == 0


async def test_a_page_cancelled_at_shutdown_is_released_never_acked() -> None:
    run, delivery = _run(pool=FakePool(hang=True)), FakeDelivery()
    task = asyncio.create_task(run.handler.handle(delivery))
    while not run.pool.bodies:  # in the pool
        await asyncio.sleep(0)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert delivery.settles == ["release"]
    assert run.broker.outputs == []
    assert run.broker.dead_letters == []
    assert run.metrics.value("blockdensity_in_flight") == 0


async def test_a_bug_of_ours_requeues_the_page_and_counts_a_crash() -> None:
    class Broken(FakePool):
        async def fit(self, body: bytes, encoding: Encoding) -> Fitted:
            raise KeyError("a bug")

    run, delivery = _run(pool=Broken()), FakeDelivery()
    assert await run.handler.handle(delivery) is Outcome.CRASHED
    assert delivery.settles == ["requeue"]
    assert _counted(run, Outcome.CRASHED) == 1
