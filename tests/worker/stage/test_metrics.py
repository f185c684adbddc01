"""Metrics: every series and label present from the start, buckets fit for their quantities."""

from __future__ import annotations

from prometheus_client.parser import text_string_to_metric_families

from worker.clean_page import FallbackReason
from worker.stage.ipc import Fitted
from worker.stage.metrics import Metrics
from worker.stage.outcome import Outcome

SERIES = (
    "blockdensity_pages",
    "blockdensity_fallback",
    "blockdensity_pages_by_type",
    "blockdensity_page_blocks",
    "blockdensity_page_blocks_kept",
    "blockdensity_page_bytes",
    "blockdensity_fit_duration_seconds",
    "blockdensity_confidence",
    "blockdensity_message_duration_seconds",
    "blockdensity_in_flight",
    "blockdensity_pool_restarts",
    "blockdensity_broker_blocked",
    "blockdensity_broker_blocked_seconds",
    "blockdensity_ack_failures",
    "blockdensity_last_success_timestamp_seconds",
)


def _families(metrics: Metrics) -> dict[str, list[tuple[str, dict[str, str], float]]]:
    body, content_type = metrics.render()
    assert content_type.startswith("text/plain")
    return {
        family.name: [(sample.name, sample.labels, sample.value) for sample in family.samples]
        for family in text_string_to_metric_families(body.decode())
    }


def test_every_series_is_exposed_before_any_page() -> None:
    families = _families(Metrics())
    assert set(SERIES) <= set(families)
    pages = {labels["outcome"]: value for _, labels, value in families["blockdensity_pages"]}
    assert pages == dict.fromkeys([outcome.value for outcome in Outcome], 0.0)
    fallbacks = {labels["reason"]: value for _, labels, value in families["blockdensity_fallback"]}
    assert fallbacks == dict.fromkeys([reason.value for reason in FallbackReason], 0.0)
    assert "blockdensity_pages_created" not in {
        name for samples in families.values() for name, _, _ in samples
    }


def test_outcomes_are_the_issues() -> None:
    assert {outcome.value for outcome in Outcome} == {
        "ok",
        "fallback",
        "invalid",
        "too_large",
        "not_html",
        "status",
        "timeout",
        "crashed",
        "memory",
        "publish_failed",
    }


def test_buckets_are_not_the_library_defaults() -> None:
    families = _families(Metrics())

    def bounds(name: str) -> list[float]:
        return [
            float(labels["le"])
            for sample, labels, _ in families[name]
            if sample.endswith("_bucket") and labels["le"] != "+Inf"
        ]

    assert bounds("blockdensity_page_bytes")[-1] >= 8 * 1024 * 1024  # the size limit
    assert bounds("blockdensity_fit_duration_seconds")[0] <= 0.001  # a fit takes ~2 ms
    assert 10.0 in bounds("blockdensity_fit_duration_seconds")  # the timeout
    assert bounds("blockdensity_page_blocks")[-1] >= 1000
    assert 0.0 in bounds("blockdensity_page_blocks_kept")
    # The thresholds an operator routes pages by are bucket bounds, and so is the top.
    assert {0.5, 0.7, 1.0} <= set(bounds("blockdensity_confidence"))


def test_recording() -> None:
    metrics = Metrics()
    metrics.outcome(Outcome.OK)
    metrics.outcome(Outcome.TIMEOUT)
    page = Fitted(
        output=b"{}",
        fallback_reason=FallbackReason.NO_TEXT,
        blocks_total=7,
        blocks_kept=7,
        fit_seconds=0.003,
        confidence=0.62,
        page_type="forum",
    )
    metrics.fitted(page, 2048)
    metrics.succeeded()
    assert metrics.value("blockdensity_pages_total", {"outcome": "ok"}) == 1
    assert metrics.value("blockdensity_pages_total", {"outcome": "timeout"}) == 1
    assert metrics.value("blockdensity_fallback_total", {"reason": "no_text"}) == 1
    assert metrics.value("blockdensity_page_blocks_sum") == 7
    assert metrics.value("blockdensity_page_bytes_count") == 1
    assert metrics.value("blockdensity_confidence_sum") == 0.62
    assert metrics.value("blockdensity_confidence_bucket", {"le": "0.5"}) == 0
    assert metrics.value("blockdensity_confidence_bucket", {"le": "0.7"}) == 1
    assert metrics.value("blockdensity_pages_by_type_total", {"page_type": "forum"}) == 1
    assert metrics.value("blockdensity_pages_by_type_total", {"page_type": "article"}) == 0
    assert metrics.value("blockdensity_last_success_timestamp_seconds") > 1.6e9


def test_a_page_without_a_confidence_is_not_counted_in_its_histogram() -> None:
    # A record without one (a fit function that leaves CleanPage.confidence unset).
    metrics = Metrics()
    metrics.fitted(Fitted(b"{}", None, 3, 2, 0.001), 100)
    assert metrics.value("blockdensity_page_blocks_count") == 1
    assert metrics.value("blockdensity_confidence_count") == 0
    assert metrics.value("blockdensity_pages_by_type_total", {"page_type": "article"}) == 0


def test_pages_are_counted_by_type_and_a_new_type_gets_its_series() -> None:
    metrics = Metrics()
    for kind in ("product", "product", "listing", "recipe"):  # recipe: a later fit's kind
        metrics.fitted(Fitted(b"{}", None, 3, 2, 0.001, 0.5, kind), 100)
    assert metrics.value("blockdensity_pages_by_type_total", {"page_type": "product"}) == 2
    assert metrics.value("blockdensity_pages_by_type_total", {"page_type": "listing"}) == 1
    assert metrics.value("blockdensity_pages_by_type_total", {"page_type": "recipe"}) == 1


def test_each_metrics_object_has_its_own_registry() -> None:
    first, second = Metrics(), Metrics()
    first.outcome(Outcome.OK)
    assert second.value("blockdensity_pages_total", {"outcome": "ok"}) == 0
