"""One message, start to end: checks -> decode -> fit in the pool -> publish -> ack.

Every path settles the message exactly once, and only in one of three ways:
- ack, after the output (or the dead letter) is confirmed by the broker;
- requeue (reject with requeue), when the page may succeed later: its fit
  crashed or timed out, or its publish was still not confirmed after
  BLOCKDENSITY_PUBLISH_RETRY_FOR seconds of retries (the quorum queue
  counts these deliveries against its delivery limit);
- nothing, when the task is cancelled at shutdown before it could finish:
  then it is requeued, never acked.

Dead-lettering is a publish to the dead-letter exchange with the reason in
headers, followed by the ack: a reject cannot carry headers.

A publish the broker did not confirm is retried (stamina: a growing,
jittered pause) while the input is held unacked, rather than the input
requeued at once. A requeue would fit the page again and spend one of its
deliveries; while the broker nacks every publish (a queue's leader moving
after a node is lost) it would spin the whole backlog through the input
queue until the delivery limit dead-lettered pages that had nothing wrong.
Held pages also fill the prefetch, so the worker takes no new ones
meanwhile: back-pressure instead of churn.

The handler takes the broker, the delivery and the pool by what it asks of
them (Outbound, Inbound, Fitter below): worker.amqp.broker and
worker.stage.pool in the stage, small fakes in the unit test of these rules
(tests/worker/stage/test_handler.py).
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Awaitable, Callable
from typing import Final, Generic, Protocol, TypeVar

import stamina

from worker.amqp.errors import PublishFailedError
from worker.config import StageSettings
from worker.schemas import Encoding, clean_message_id
from worker.stage.intake import Admitted, RefusedError, admit
from worker.stage.ipc import Fitted
from worker.stage.metrics import Metrics
from worker.stage.outcome import Outcome
from worker.stage.pool import FitFailedError

__all__ = ["Fitter", "Handler", "Inbound", "Outbound"]

log = logging.getLogger(__name__)

# Compressed bodies larger than this are decompressed in a thread.
_INLINE_DECOMPRESSION: Final = 64 * 1024
# The pauses between tries of a publish: from the first, doubling to the longest, each
# with up to _RETRY_JITTER more at random (replicas that failed together spread out).
_RETRY_FIRST_PAUSE: Final = 0.1
_RETRY_LONGEST_PAUSE: Final = 5.0
_RETRY_JITTER: Final = 0.5
_OUTPUT_TYPES: Final = {Encoding.JSON: "application/json", Encoding.MSGPACK: "application/msgpack"}


class Inbound(Protocol):
    """A delivery as the handler reads and settles it (worker.amqp.broker.Delivery).

    Each settle returns False when it could not be sent (the broker will
    redeliver); `settled` is set by the first, and a second is a bug.
    """

    received: float  # the event loop's time at receipt
    settled: bool

    @property
    def settleable(self) -> bool:
        """False once the delivery's channel has closed (the broker has requeued it)."""
        ...

    @property
    def body(self) -> bytes: ...
    @property
    def content_type(self) -> str | None: ...
    @property
    def content_encoding(self) -> str | None: ...
    @property
    def message_id(self) -> str | None: ...
    @property
    def delivery_count(self) -> int: ...
    async def ack(self) -> bool: ...
    async def requeue(self) -> bool: ...
    async def release(self) -> bool: ...


InboundT = TypeVar("InboundT", bound=Inbound)
InboundT_contra = TypeVar("InboundT_contra", bound=Inbound, contravariant=True)


class Outbound(Protocol[InboundT_contra]):
    """The broker as the handler uses it (worker.amqp.broker.Broker): publishes that return
    once confirmed and raise PublishFailedError otherwise."""

    async def publish_output(self, body: bytes, *, content_type: str, message_id: str) -> None: ...
    async def dead_letter(self, delivery: InboundT_contra, reason: str, error: str) -> None: ...


class Fitter(Protocol):
    """The fit pool as the handler uses it (worker.stage.pool.FitPool)."""

    async def fit(self, body: bytes, encoding: Encoding) -> Fitted: ...


class Handler(Generic[InboundT]):
    """Handles deliveries; `handle` returns the outcome it counted."""

    def __init__(
        self,
        settings: StageSettings,
        broker: Outbound[InboundT],
        pool: Fitter,
        metrics: Metrics,
    ) -> None:
        self._settings = settings
        self._broker = broker
        self._pool = pool
        self._metrics = metrics
        # The prefetch bounds deliveries per channel, but after a reconnect the
        # broker redelivers while the old channel's pages may still be in the
        # pool: this keeps the pool's backlog at the prefetch all the same.
        self._fit_slots = asyncio.Semaphore(settings.prefetch)

    async def handle(self, delivery: InboundT) -> Outcome | None:
        """Handle one delivery; None when cancelled (and requeued)."""
        metrics = self._metrics
        metrics.in_flight.inc()
        try:
            outcome = await self._handle(delivery)
        except asyncio.CancelledError:
            # Shutdown ran out of grace: give the page back to the broker
            # unprocessed (a release, not a failure), unless it was settled
            # already (a second settle is a protocol error).
            if not delivery.settled:
                await asyncio.shield(self._release(delivery))
            raise
        except Exception:
            # A bug of ours, not the page's: requeue it and let the delivery
            # limit stop a loop.
            log.exception("unexpected error handling message %s", delivery.message_id)
            if not delivery.settled:
                await self._requeue(delivery)
            outcome = Outcome.CRASHED
        finally:
            metrics.in_flight.dec()
            seconds = asyncio.get_running_loop().time() - delivery.received
            metrics.message_duration.observe(seconds)
        metrics.outcome(outcome)
        return outcome

    async def _handle(self, delivery: InboundT) -> Outcome:
        try:
            encoding, page, body = await self._admit(delivery)
        except RefusedError as error:
            return await self._dead_letter(delivery, error.outcome, str(error))

        async with self._fit_slots:
            try:
                # The child decodes the body again and encodes the output:
                # cheaper than a copy of the page down the pipe and back.
                fitted = await self._pool.fit(body, encoding)
            except FitFailedError as error:
                return await self._fit_failed(delivery, page.url, error)

        # MessagePack: the HTML's bytes (bytes, or a view of them); JSON: the message's,
        # near enough.
        html = page.body
        self._metrics.fitted(fitted, len(body) if isinstance(html, str) else len(html))
        publish = functools.partial(
            self._broker.publish_output,
            fitted.output,
            content_type=_OUTPUT_TYPES[encoding],
            message_id=clean_message_id(delivery.message_id, page.url, page.fetch_id),
        )
        loop = asyncio.get_running_loop()
        started = loop.time()
        try:
            await self._confirmed(delivery, publish, f"{page.url}: output")
        except PublishFailedError as error:
            log.warning(
                "%s: output not published (tried for %.1f s), input requeued: %s",
                page.url,
                loop.time() - started,
                error,
            )
            await self._requeue(delivery)
            return Outcome.PUBLISH_FAILED

        if await self._ack(delivery):
            self._metrics.succeeded()
        outcome = Outcome.FALLBACK if fitted.fallback else Outcome.OK
        if log.isEnabledFor(logging.DEBUG):
            log.debug(
                "%s: %s",
                page.url,
                outcome,
                extra={
                    "url": page.url,
                    "outcome": outcome,
                    "fit_seconds": round(fitted.fit_seconds, 6),
                    "message_seconds": round(
                        asyncio.get_running_loop().time() - delivery.received, 6
                    ),
                },
            )
        return outcome

    async def _admit(self, delivery: InboundT) -> Admitted:
        """worker.stage.intake's checks; a large compressed body is decompressed off the loop."""
        check = functools.partial(
            admit,
            delivery.body,
            content_type=delivery.content_type,
            content_encoding=delivery.content_encoding,
            settings=self._settings,
        )
        if delivery.content_encoding is not None and len(delivery.body) > _INLINE_DECOMPRESSION:
            return await asyncio.to_thread(check)  # zlib lets go of the GIL
        return check()

    async def _fit_failed(self, delivery: InboundT, url: str, error: FitFailedError) -> Outcome:
        """Requeue; on the last delivery the broker allows, dead-letter with the reason.

        The broker's count (x-delivery-count) decides when a page has had its
        chances: the worker only steps in on the delivery the broker would
        dead-letter anyway, to add why. Deliveries the worker never saw fail
        (it was killed mid-page) still count, and the broker's own limit
        dead-letters those pages (with x-death) should the worker never return.
        """
        settings = self._settings
        count = delivery.delivery_count
        attempts = f"delivery {count + 1} of {settings.delivery_limit + 1}"
        if count >= settings.delivery_limit or error.final:
            # The last chance the broker allows, or one that would fail alike
            # (a page past the memory limit): dead-lettered with why.
            return await self._dead_letter(delivery, error.reason, f"{error} ({attempts})", url)
        log.warning(
            "%s: %s (%s); requeued",
            url,
            error,
            attempts,
            extra={"url": url, "outcome": error.reason},
        )
        await self._requeue(delivery)
        return error.reason

    async def _dead_letter(
        self, delivery: InboundT, reason: Outcome, error: str, url: str | None = None
    ) -> Outcome:
        try:
            await self._confirmed(
                delivery,
                functools.partial(self._broker.dead_letter, delivery, reason, error),
                f"dead letter ({reason}) of message {delivery.message_id}",
            )
        except PublishFailedError as failure:
            log.warning("could not dead-letter (%s: %s): %s; requeued", reason, error, failure)
            await self._requeue(delivery)
            return Outcome.PUBLISH_FAILED
        log.warning(
            "dead-lettered (%s): %s",
            reason,
            error,
            extra={"url": url, "outcome": reason, "message_id": delivery.message_id},
        )
        await self._ack(delivery)
        return reason

    async def _confirmed(
        self, delivery: InboundT, publish: Callable[[], Awaitable[None]], what: str
    ) -> None:
        """Run `publish` (of `what`, for the log) until the broker confirms it, trying again
        for up to BLOCKDENSITY_PUBLISH_RETRY_FOR seconds; its last PublishFailedError after
        that.

        The tries stop once the delivery cannot be settled any more (its
        channel closed): the broker has requeued the page, and an output
        published now would only be a duplicate of the next delivery's.

        The first try runs alone: the retry machinery costs 66-79 us a
        call on the event loop (a tenacity state built per call), which every
        page would pay for the few whose publish fails. The retries then
        start at once, and pause from the second on.
        """
        retry_for = self._settings.publish_retry_for
        try:
            await publish()
        except PublishFailedError as error:
            if not (retry_for and delivery.settleable):
                raise
            log.warning("%s not confirmed, tried again for up to %g s: %s", what, retry_for, error)
        else:
            return

        def worth_retrying(error: BaseException) -> bool:
            return isinstance(error, PublishFailedError) and delivery.settleable

        async for attempt in stamina.retry_context(
            on=worth_retrying,
            attempts=None,
            timeout=retry_for,
            wait_initial=_RETRY_FIRST_PAUSE,
            wait_max=_RETRY_LONGEST_PAUSE,
            wait_jitter=_RETRY_JITTER,
            name="publish",
        ):
            with attempt:
                # Looked at before each try too: after a reconnection the publish
                # may well succeed, and then the output would be a duplicate.
                if not delivery.settleable:
                    raise PublishFailedError("the input's channel has closed: not tried again")
                self._metrics.publish_retries.inc()
                await publish()

    async def _ack(self, delivery: InboundT) -> bool:
        return self._counted(await delivery.ack())

    async def _requeue(self, delivery: InboundT) -> bool:
        return self._counted(await delivery.requeue())

    async def _release(self, delivery: InboundT) -> bool:
        return self._counted(await delivery.release())

    def _counted(self, settled: bool) -> bool:
        """A settle's result, a failed one counted (the broker redelivers that message)."""
        if not settled:
            self._metrics.ack_failures.inc()
        return settled
