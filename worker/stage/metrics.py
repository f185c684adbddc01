"""Prometheus metrics, recorded in the parent process only.

The fit processes return their figures with each page's output
(worker.stage.ipc.Fitted), and the parent records them, so prometheus-client's
multiprocess mode (files on disk, one set per child) is not needed. Each
Metrics owns its registry, so several workers in one process (the tests) do
not share counters.

Buckets are set for the quantities measured, not prometheus-client's
defaults (which are request latencies from 5 ms to 10 s).
"""

from __future__ import annotations

import time
from typing import Final

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    disable_created_metrics,
    generate_latest,
)
from prometheus_client.exposition import CONTENT_TYPE_LATEST

from worker.clean_page import PAGE_TYPES, FallbackReason
from worker.stage.ipc import Fitted
from worker.stage.outcome import Outcome, RestartReason

__all__ = ["Metrics"]

# The *_created series double the exposition and no dashboard of ours reads
# them (a process-wide switch of prometheus-client; this process is ours).
disable_created_metrics()  # type: ignore[no-untyped-call]  # unannotated upstream

_KIB: Final = 1024
# Blocks of a page: a bare page has 1, a typical article 50 to 500, a
# forum thread or a catalogue thousands.
BLOCK_BUCKETS: Final = (0, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000)
KEPT_BUCKETS: Final = (0, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000)
# Raw HTML bytes: typical pages are 20 KiB to 500 KiB; the limit is 8 MiB.
BYTE_BUCKETS: Final = tuple(
    _KIB * k for k in (1, 4, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192)
)
# The fit: about 2 ms typical, tens of ms for large pages, the timeout at 10 s.
FIT_BUCKETS: Final = tuple(
    ms / 1000 for ms in (0.5, 1, 2, 5, 10, 20, 50, 100, 250, 500, 1000, 2500, 5000, 10_000)
)
# The fit's confidence (blockdensity.confidence), by tenth: its reliability is
# stated per tenth, and the thresholds an operator routes pages by (0.5, 0.7)
# are bounds.
CONFIDENCE_BUCKETS: Final = tuple(tenth / 10 for tenth in range(1, 11))
# Receipt to ack: the fit plus the publish confirm plus queueing for a child;
# long tails come from timeouts (10 s) and reconnects.
MESSAGE_BUCKETS: Final = tuple(
    ms / 1000 for ms in (2, 5, 10, 20, 50, 100, 250, 500, 1000, 2500, 5000, 10_000, 30_000, 60_000)
)


class Metrics:
    """Every series of the worker, pre-initialised so that each shows from the start."""

    def __init__(self) -> None:
        self.registry = registry = CollectorRegistry(auto_describe=True)
        self.pages = Counter(
            "blockdensity_pages",
            "Messages handled, by outcome (an outcome per delivery attempt).",
            ["outcome"],
            registry=registry,
        )
        self.fallbacks = Counter(
            "blockdensity_fallback",
            "Pages the fit returned whole (single_block, nothing_kept, no_text) or read as a"
            " client without script reads them (noscript, deferred_content), by reason.",
            ["reason"],
            registry=registry,
        )
        self.pages_by_type = Counter(
            "blockdensity_pages_by_type",
            "Fitted pages by the kind of page the fit reports (CleanPage.page_type).",
            ["page_type"],
            registry=registry,
        )

        def histogram(name: str, documentation: str, buckets: tuple[float, ...]) -> Histogram:
            return Histogram(name, documentation, buckets=buckets, registry=registry)

        self.page_blocks = histogram(
            "blockdensity_page_blocks", "Text blocks per fitted page.", BLOCK_BUCKETS
        )
        self.page_blocks_kept = histogram(
            "blockdensity_page_blocks_kept", "Blocks kept per fitted page.", KEPT_BUCKETS
        )
        self.page_bytes = histogram(
            "blockdensity_page_bytes", "Raw HTML bytes per page given to the fit.", BYTE_BUCKETS
        )
        self.fit_duration = histogram(
            "blockdensity_fit_duration_seconds", "Time of the fit in its pool process.", FIT_BUCKETS
        )
        self.confidence = histogram(
            "blockdensity_confidence",
            "The fit's confidence per fitted page: how likely its text is the main content"
            " (its estimated F1, 0 to 1).",
            CONFIDENCE_BUCKETS,
        )
        self.message_duration = histogram(
            "blockdensity_message_duration_seconds",
            "Time from receipt of a message to its ack, reject or dead-lettering.",
            MESSAGE_BUCKETS,
        )
        self.in_flight = Gauge(
            "blockdensity_in_flight",
            "Messages received and not yet settled.",
            registry=registry,
        )
        self.pool_restarts = Counter(
            "blockdensity_pool_restarts",
            "Fit processes replaced, by reason: crashed, timeout, broken, stopped, unresponsive, "
            "forkserver (the forkserver was replaced, and its fit processes with it).",
            ["reason"],
            registry=registry,
        )
        self.forkserver_up = Gauge(
            "blockdensity_forkserver_up",
            "1 while the forkserver that starts the fit processes runs, else 0 "
            "(stopped, gone or being replaced).",
            registry=registry,
        )
        self.broker_moves = Counter(
            "blockdensity_broker_moves",
            "Connections to the broker given up (lost, or no answer to the worker's own check "
            "within BLOCKDENSITY_BROKER_TIMEOUT) for the next address.",
            registry=registry,
        )
        self.broker_blocked = Gauge(
            "blockdensity_broker_blocked",
            "1 while the broker blocks this worker's publishes (a resource alarm), else 0.",
            registry=registry,
        )
        self.broker_blocked_seconds = Counter(
            "blockdensity_broker_blocked_seconds",
            "Time the broker has blocked this worker's publishes.",
            registry=registry,
        )
        self.publish_retries = Counter(
            "blockdensity_publish_retries",
            "Publishes (outputs and dead letters) tried again after the broker did not confirm"
            " them, the input held unacked meanwhile (BLOCKDENSITY_PUBLISH_RETRY_FOR).",
            registry=registry,
        )
        self.ack_failures = Counter(
            "blockdensity_ack_failures",
            "Acks, rejects and requeues that failed (the channel had closed); "
            "the broker redelivers those messages.",
            registry=registry,
        )
        self.last_success = Gauge(
            "blockdensity_last_success_timestamp_seconds",
            "Unix time of the last page published and acked (0: none yet).",
            registry=registry,
        )
        # Each labelled series looked up once, here (which also shows it
        # from the start), not by .labels() at every page.
        self._pages = {outcome: self.pages.labels(outcome.value) for outcome in Outcome}
        self._fallbacks = {reason: self.fallbacks.labels(reason.value) for reason in FallbackReason}
        self._page_types = {kind: self.pages_by_type.labels(kind) for kind in PAGE_TYPES}
        self._restarts = {
            restart: self.pool_restarts.labels(restart.value) for restart in RestartReason
        }

    def outcome(self, outcome: Outcome) -> None:
        self._pages[outcome].inc()

    def broker_flow(self, *, blocked: bool, seconds: float) -> None:
        """Record the publishing connection's flow control, polled every `seconds`."""
        self.broker_blocked.set(1 if blocked else 0)
        if blocked:
            self.broker_blocked_seconds.inc(seconds)

    def pool_restarted(self, reason: RestartReason) -> None:
        self._restarts[reason].inc()

    def fitted(self, page: Fitted, page_bytes: int) -> None:
        """Record the fit's figures of one page (`page_bytes`: the HTML's size)."""
        if page.fallback_reason is not None:
            self._fallbacks[page.fallback_reason].inc()
        self.page_blocks.observe(page.blocks_total)
        self.page_blocks_kept.observe(page.blocks_kept)
        self.page_bytes.observe(page_bytes)
        self.fit_duration.observe(page.fit_seconds)
        if page.confidence is not None:
            self.confidence.observe(page.confidence)
        kind = page.page_type
        if kind is not None:
            # A kind a later fit adds gets its series when first met.
            series = self._page_types.get(kind)
            (series or self.pages_by_type.labels(kind)).inc()

    def succeeded(self) -> None:
        self.last_success.set(time.time())

    def render(self) -> tuple[bytes, str]:
        """The text exposition of every series, and its content type."""
        return generate_latest(self.registry), CONTENT_TYPE_LATEST

    def value(self, name: str, labels: dict[str, str] | None = None) -> float:
        """One sample's current value (0 if absent): for tests and the demo."""
        found = self.registry.get_sample_value(name, labels or {})
        return 0.0 if found is None else found
