"""Fuzz campaign: fit_text and html_to_text on hostile HTML; the worker's message decoder.

Part 1, the fit (devkit.fuzzing): Hypothesis (property-based, with
`target()` steering towards the slowest input per KB) generates HTML of six
shapes: soup (devkit.htmlgen's tag soup, several pieces joined), tree
(well-formed-ish element trees, nesting capped), entities (character
references), mutated (a development-corpus page with 1-8 byte-level
mutations), encoded (a tree encoded in one of many codecs, with a matching,
wrong or bogus <meta charset> and a random `charset` argument), and deep
(nesting from 100 to 3,000 levels; the lexbor parser is quadratic in nesting
depth, BENCHMARKS.md, so this shape is reported separately).

Each input goes through fit_text(html, charset=...) (blocks and to_dict()
read too) and html_to_text, in a child process; any exception, crash and
broken invariant (no NUL, no lone surrogate in the text, fallback text equal
to html_to_text, kept lines a subset of html_to_text's: devkit.invariants,
the checks of bench.robustness) is recorded. Time is CPU time
(process_time) per input, reported per KB (1,000 bytes) for inputs of at
least 1 KB.

Part 2, the decoder (devkit.payloads). Random and mutated JSON / MessagePack
payloads (valid FetchedPage messages mutated by bit flips, truncation,
splices, wrong types, huge numbers, deep nesting, invalid UTF-8, extension
types) go through the worker's own decode path,
`decode_page(body, encoding_for(content_type))`: each must decode or raise
InvalidMessageError (dead-lettered `invalid`); anything else would have
reached the worker's catch-all (requeue as `crashed`).

Part 3, the metadata reader (devkit.metafuzz): pages full of <meta>,
<link>, microdata and JSON-LD (valid, broken, nested thousands deep, huge),
read by blockdensity.metadata: no exception, fit_text's record the same,
and the time per KB by page size (a superlinear case grows with size).

    python -m bench.fuzz [--inputs 100000] [--decoder-inputs 100000]
                         [--metadata-inputs 100000] [--seed 1] [--jobs 2]
                         [--save-corpus tests/fuzz_corpus]

The interesting inputs (failures, the slowest per KB of each shape, one per
fallback reason) are written to --save-corpus with MANIFEST.json, which
tests/reliability/test_fuzz.py replays.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from devkit.corpus import DEFAULT_DATA
from devkit.fuzzing import KB, SHAPES, Campaign, Input, Pages, merge, run_fit_campaign
from devkit.metafuzz import BUCKETS, MetadataCampaign, merge_metadata, run_metadata_campaign
from devkit.payloads import DecoderCampaign, merge_decoder, run_decoder_campaign

# ------------------------------------------------------------------------ the jobs
# Module-level, so that the process pool can pickle them by name.


def _fit_job(args: tuple[int, int, tuple[str, ...]]) -> Campaign:
    return run_fit_campaign(*args)


def _decoder_job(args: tuple[int, int]) -> DecoderCampaign:
    return run_decoder_campaign(*args)


def _metadata_job(args: tuple[int, int]) -> MetadataCampaign:
    return run_metadata_campaign(*args)


# ------------------------------------------------------------------------ the corpus


def save(directory: Path, item: Input, why: str, manifest: dict[str, dict[str, Any]]) -> None:
    html = item.html
    data = html if isinstance(html, bytes) else html.encode("utf-8", "surrogatepass")
    name = f"{item.shape}-{hashlib.sha256(data).hexdigest()[:12]}.html"
    (directory / name).write_bytes(data)
    manifest[name] = {
        "shape": item.shape,
        "type": "bytes" if isinstance(html, bytes) else "str",
        "charset": item.charset,
        "why": why,
    }


def save_corpus(campaign: Campaign, directory: Path) -> int:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / "MANIFEST.json"
    manifest: dict[str, dict[str, Any]] = json.loads(path.read_text()) if path.exists() else {}
    before = len(manifest)
    for item, problems in campaign.failures[:50]:
        save(directory, item, "failed: " + problems[0].strip().splitlines()[-1][:200], manifest)
    for shape, ranked in campaign.slowest.items():
        for rate, item in ranked[:3]:
            if item.size <= 256 * KB:
                save(directory, item, f"slowest per KB of {shape}: {rate:.0f} us/KB", manifest)
    for reason, item in campaign.fallbacks.items():
        if item.size <= 64 * KB:
            save(directory, item, f"fallback {reason}", manifest)
    path.write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    return len(manifest) - before


# ------------------------------------------------------------------------ printing


def print_fit(campaign: Campaign, seconds: float) -> None:
    total = sum(campaign.seen.values())
    print(f"fit campaign: {total} inputs in {seconds:.0f} s, {len(campaign.failures)} failures")
    print(
        "| shape | inputs | median size | max size | median us/KB | slowest us/KB, >= 1 KB "
        "(its size) | slowest us/KB, >= 10 KB (its size) | slowest input (s) |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for shape in SHAPES:
        if not campaign.seen[shape]:
            continue
        sizes = campaign.sizes[shape]
        rates = campaign.rates.get(shape, [])
        ranked = campaign.slowest.get(shape, [])
        worst = f"{ranked[0][0]:.0f} ({ranked[0][1].size / KB:.1f} KB)" if ranked else "-"
        median = f"{statistics.median(rates):.0f}" if rates else "-"
        seconds_max = campaign.slowest_total[shape][0]
        big = campaign.slowest_big.get(shape)
        worst_big = f"{big[0]:.0f} ({big[1].size / KB:.1f} KB)" if big else "-"
        print(
            f"| {shape} | {campaign.seen[shape]} | {statistics.median(sizes) / KB:.1f} KB "
            f"| {max(sizes) / KB:.1f} KB | {median} | {worst} | {worst_big} | {seconds_max:.3f} |"
        )
    for item, problems in campaign.failures[:10]:
        head = item.html[:80]
        print(
            f"FAILURE ({item.shape}, {item.size} bytes, charset={item.charset!r}, "
            f"starts {head!r}): {problems[0][-300:]}"
        )


def print_decoder(campaign: DecoderCampaign, seconds: float) -> None:
    total = sum(campaign.outcomes.values())
    print(
        f"decoder campaign: {total} payloads in {seconds:.0f} s: "
        + ", ".join(f"{key} {value}" for key, value in sorted(campaign.outcomes.items()))
        + f"; slowest decode {campaign.slowest * 1000:.1f} ms"
    )
    kinds = Counter(outcome.split(":")[1].strip() for _, _, outcome in campaign.failures)
    for kind, count in kinds.most_common():
        example = next(f for f in campaign.failures if f[2].split(":")[1].strip() == kind)
        print(f"BUG x{count}: {example[2][:200]} (e.g. {len(example[0])} bytes, {example[1]!r})")


def print_metadata(campaign: MetadataCampaign, seconds: float) -> None:
    print(
        f"metadata campaign: {campaign.seen} pages in {seconds:.0f} s, "
        f"{len(campaign.failures)} failures; slowest read_metadata {campaign.slowest * 1e3:.1f} ms"
    )
    print("| page size | pages | median us/KB | slowest us/KB (its size) |")
    print("|---|---:|---:|---:|")
    for low, high in zip(BUCKETS, (*BUCKETS[1:], None), strict=True):
        rates = campaign.rates.get(low)
        worst = campaign.worst.get(low)
        label = f">= {low // KB} KB" + (f", < {high // KB} KB" if high else "")
        median = f"{statistics.median(rates):.1f}" if rates else "-"
        slowest = f"{worst[0]:.0f} ({worst[1] / KB:.1f} KB)" if worst else "-"
        print(f"| {label} | {campaign.sizes[low]} | {median} | {slowest} |")
    for html, problem in campaign.failures[:5]:
        print(f"FAILURE ({len(html)} chars, starts {html[:80]!r}): {problem[-300:]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--inputs", type=int, default=100_000)
    parser.add_argument("--decoder-inputs", type=int, default=100_000)
    parser.add_argument("--metadata-inputs", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--shapes", default=",".join(SHAPES))
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--save-corpus", type=Path, default=None)
    parser.add_argument("--jobs", type=int, default=1, help="processes (seeds seed .. seed+jobs-1)")
    args = parser.parse_args()
    Pages.load(args.data)  # before the jobs fork: they inherit it
    jobs = max(1, args.jobs)
    shapes = tuple(args.shapes.split(","))
    status = 0
    if args.inputs:
        start = time.monotonic()
        fit_args = [(args.inputs // jobs, args.seed + n, shapes) for n in range(jobs)]
        with ProcessPoolExecutor(jobs) as pool:
            campaign = merge(list(pool.map(_fit_job, fit_args)))
        print(f"seeds {args.seed}..{args.seed + jobs - 1}, {jobs} processes")
        print_fit(campaign, time.monotonic() - start)
        status |= bool(campaign.failures)
        if args.save_corpus:
            added = save_corpus(campaign, args.save_corpus)
            print(f"corpus: {added} inputs added to {args.save_corpus}")
    if args.decoder_inputs:
        start = time.monotonic()
        decoder_args = [(args.decoder_inputs // jobs, args.seed + n) for n in range(jobs)]
        with ProcessPoolExecutor(jobs) as pool:
            decoder = merge_decoder(list(pool.map(_decoder_job, decoder_args)))
        print_decoder(decoder, time.monotonic() - start)
        status |= bool(decoder.failures)
    if args.metadata_inputs:
        start = time.monotonic()
        metadata_args = [(args.metadata_inputs // jobs, args.seed + n) for n in range(jobs)]
        with ProcessPoolExecutor(jobs) as pool:
            metadata = merge_metadata(list(pool.map(_metadata_job, metadata_args)))
        print_metadata(metadata, time.monotonic() - start)
        status |= bool(metadata.failures)
    sys.exit(status)


if __name__ == "__main__":
    main()
