"""End-to-end speed of the queue stage against the in-process fit, on two corpora.

The development pages (the ROUGE sets, ~110 KB median) and the small pages
(trafilatura-eval, 40-60 KB median), each on its own (`--corpus`, both by
default), and for each:

1. Throughput: every page of the corpus, `--rounds` times over,
   is published (MessagePack) to a fresh input queue on the local broker;
   then `python -m worker` starts with its defaults (only queue names and the
   HTTP port differ) and drains it. End-to-end pages/s runs from the
   worker's readiness to the last output's arrival; CPU per page over the
   same interval is split into the worker's parent process, its pool
   children (live and recycled) and the broker (beam.smp).
2. Latency: one more pass over the pages, published at half the measured
   rate; p50/p99 of publish -> output received (by this process).
3. The single-core in-process fit rate on the same pages (this process's
   CPU time, best of 3 passes), measured before and after the worker's run
   (the better counts). The machine's other CPU use during the run is
   reported, as a measure of noise.
4. Issue 14's ratios: the bare lexbor parse's CPU time a page (bench.speed's
   floor) measured here too, and the parent's, the children's excess over
   the in-process fit and their sum in parses; a 2-core pod's capacity as
   2 cores / (parent + children) a page. The children's excess is split in
   two: their own extra work (the message decoded, the record built and
   encoded), timed in this process like the fit; and the rest, the same
   code running slower beside the parent and the broker on the same cores.
5. Issue 24's ratio: parent plus children, CPU a page, over the in-process
   default fit's (target: at most 1.5x on both corpora); a last table puts
   the corpora side by side.

    python -m bench.worker_e2e [--rounds 4] [--corpus dev|small|both] [--data ../shared/data]

Needs RabbitMQ on 127.0.0.1:5672 (started if not answering). Queues are named
bench.<random>.* and deleted afterwards.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import msgspec

from bench.speed import bare_parse
from blockdensity import fit_text
from devkit.broker import ensure_rabbitmq, free_port, scratch_topology
from devkit.client import Client, Received
from devkit.corpus import DEFAULT_DATA, SEGMENT_SETS, SETS, Page, load_pages
from devkit.paths import ROOT
from devkit.procs import descendants, stat_fields
from worker.config import StageSettings
from worker.schemas import CleanPage, Encoding, FetchedPage, clean_message_id
from worker.stage.clean_record import clean_page
from worker.stage.fitproc import answer, fit_page

_TICKS = os.sysconf("SC_CLK_TCK")


def _cpu(pid: int, *, reaped_children: bool = False) -> float:
    """utime + stime of `pid` in seconds (plus its reaped children's, if asked)."""
    fields = stat_fields(pid)
    if fields is None:
        return 0.0
    ticks = int(fields[11]) + int(fields[12])  # utime, stime
    if reaped_children:
        ticks += int(fields[13]) + int(fields[14])  # cutime, cstime
    return ticks / _TICKS


def _broker_pids() -> list[int]:
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (entry / "comm").read_text().strip() == "beam.smp":
                    pids.append(int(entry.name))
            except OSError:
                continue
    return pids


def _cpu_split(worker: int, broker: list[int]) -> tuple[float, float, float]:
    """CPU seconds so far: worker parent, its descendants (pool), broker."""
    children = sum(_cpu(pid, reaped_children=True) for pid in descendants(worker))
    return _cpu(worker), children, sum(_cpu(pid) for pid in broker)


def _machine_busy() -> float:
    """CPU seconds all processors have spent busy (not idle) since boot, from /proc/stat."""
    fields = [int(value) for value in Path("/proc/stat").read_text().split("\n")[0].split()[1:]]
    idle = fields[3] + fields[4]  # idle, iowait
    return (sum(fields[:8]) - idle) / _TICKS  # up to steal, not guest (counted in user)


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


# --stub-fit: what every page's fit process returns instead of fitting it, a
# record of a typical size (the corpus's outputs are 5-8 KB): the parent's
# per-message cost alone, without the children's parses on the same cores.
_STUB_FIT: Final = fit_text("<html><body><article>" + "<p>a stub paragraph of text.</p>" * 200)


def stub_fit(page: FetchedPage[bytes] | FetchedPage[str]) -> CleanPage:
    """A fit function (BLOCKDENSITY_FIT_FUNCTION) that returns the same record for every page."""
    return clean_page(page, _STUB_FIT, 0.0)


def _url(page: Page) -> str:
    """The page's URL in its message: its own where the corpus has an http(s) one (the
    segment set's names some by a label, which the worker would refuse)."""
    if page.url is not None and page.url.startswith(("http://", "https://")):
        return page.url
    return f"https://{page.set_name}.example/{page.page_id}"


def page_message(page: Page, message_id: str) -> bytes:
    """A corpus page as a FetchedPage in MessagePack (the body as raw bytes)."""
    return msgspec.msgpack.encode(
        {
            "url": _url(page),
            "body": page.raw,
            "fetch_id": message_id,
        }
    )


def _message(page: Page, index: int, round_: int) -> tuple[str, bytes]:
    message_id = f"bench-{round_}-{index}"
    return message_id, page_message(page, message_id)


def _wait_ready(port: int, timeout: float) -> float:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz", timeout=1) as reply:
                if reply.status == 200:
                    return time.monotonic()
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.01)
    raise RuntimeError("the worker did not become ready")


async def _publish_all(client: Client, queue: str, messages: list[tuple[str, bytes]]) -> None:
    window = 200  # publishes awaiting their confirms at once
    for start in range(0, len(messages), window):
        await asyncio.gather(
            *(
                client.publish(queue, body, content_type="application/msgpack", message_id=mid)
                for mid, body in messages[start : start + window]
            )
        )


def _profiler(pid: int, output: Path) -> subprocess.Popen[bytes]:
    """py-spy sampling the worker and its fit processes into `output` (collapsed stacks),
    until the worker exits. py-spy is not the project's: `pip install py-spy` in a venv of
    your own. Its samples cost CPU on the same cores: a profiled run's figures are not
    the benchmark's."""
    beside = Path(sys.executable).parent / "py-spy"  # this venv's, if installed there
    spy = str(beside) if beside.exists() else shutil.which("py-spy") or "py-spy"
    return subprocess.Popen(  # noqa: S603 - our own arguments
        [
            spy,
            "record",
            "--pid",
            str(pid),
            "--subprocesses",
            "--nonblocking",
            "--rate",
            "250",
            "--format",
            "raw",
            "--output",
            str(output),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


async def _run(
    pages: list[Page],
    rounds: int,
    profile: Path | None = None,
    checkout: Path = ROOT,
    *,
    stub: bool = False,
) -> dict[str, float]:
    port = free_port()
    env = {
        **os.environ,
        **scratch_topology("bench"),
        "BLOCKDENSITY_HTTP_PORT": str(port),
        "BLOCKDENSITY_LOG_LEVEL": "WARNING",
    }
    if stub:
        env["BLOCKDENSITY_FIT_FUNCTION"] = "bench.worker_e2e:stub_fit"
    settings: StageSettings = StageSettings.from_env(env)
    messages = [_message(page, i, r) for r in range(rounds) for i, page in enumerate(pages)]
    figures: dict[str, float] = {"pages": len(messages)}
    arrivals: dict[str, float] = {}
    done = asyncio.Event()
    expected = len(messages)

    def on_output(message: Received) -> None:
        if message.message_id is not None:
            arrivals.setdefault(message.message_id, message.received)
        if len(arrivals) >= expected:
            done.set()

    async with Client(settings.amqp_url) as client:
        await client.declare_input(settings)
        await _publish_all(client, settings.input_queue, messages)
        worker = subprocess.Popen([sys.executable, "-m", "worker"], env=env, cwd=checkout)
        try:
            broker = _broker_pids()
            before = _cpu_split(worker.pid, broker)
            client_before = time.process_time()
            ready = await asyncio.to_thread(_wait_ready, port, 60)
            # Snapshot again at readiness: the start (pool, imports) is not per page.
            if profile is not None:
                profiler = _profiler(worker.pid, profile)
            before = _cpu_split(worker.pid, broker)
            client_before = time.process_time()
            machine_before = _machine_busy()
            await client.consume(settings.output_queue, on_output)
            await asyncio.wait_for(done.wait(), 600)
            end = max(arrivals.values())
            after = _cpu_split(worker.pid, broker)
            client_cpu = time.process_time() - client_before
            machine = _machine_busy() - machine_before
            seconds = end - ready
            figures["seconds"] = seconds
            figures["rate"] = expected / seconds
            for name, first, last in zip(
                ("parent", "children", "broker"), before, after, strict=True
            ):
                figures[name] = (last - first) / expected
            figures["client"] = client_cpu / expected
            # Whatever else ran on the machine meanwhile (other users, the kernel).
            ours = sum(figures[name] for name in ("parent", "children", "broker", "client"))
            figures["others"] = max(0.0, machine / expected - ours)

            # Latency at half the measured rate.
            latencies = await _paced(client, settings, pages, figures["rate"] / 2, arrivals)
            figures["p50"] = _percentile(latencies, 0.50)
            figures["p99"] = _percentile(latencies, 0.99)
            figures["paced_rate"] = figures["rate"] / 2
        finally:
            worker.send_signal(signal.SIGTERM)
            figures["exit"] = worker.wait(60)
            if profile is not None:
                profiler.wait(60)
            await client.delete_topology(settings)
    return figures


async def _paced(
    client: Client,
    settings: StageSettings,
    pages: list[Page],
    rate: float,
    arrivals: dict[str, float],
) -> list[float]:
    messages = [_message(page, i, 1000) for i, page in enumerate(pages)]
    out_ids = {clean_message_id(mid, "", None): mid for mid, _ in messages}
    sent: dict[str, float] = {}
    start = time.monotonic()
    for n, (mid, body) in enumerate(messages):
        delay = start + n / rate - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)
        sent[mid] = time.monotonic()
        await client.publish(
            settings.input_queue, body, content_type="application/msgpack", message_id=mid
        )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not all(out in arrivals for out in out_ids):
        await asyncio.sleep(0.05)
    return [arrivals[out] - sent[mid] for out, mid in out_ids.items() if out in arrivals]


def _best_pass(function: Callable[[Page], object], pages: list[Page], passes: int = 3) -> float:
    """CPU seconds of the best of `passes` passes of `function` over `pages`."""
    best = float("inf")
    for _ in range(passes):
        start = time.process_time()
        for page in pages:
            function(page)
        best = min(best, time.process_time() - start)
    return best


def _parse_seconds(pages: list[Page]) -> float:
    """CPU seconds a page of lexbor's bare parse (bench.speed's floor)."""
    return _best_pass(lambda page: bare_parse(page.html), pages) / len(pages)


def _in_process_rate(pages: list[Page]) -> float:
    """Pages a second of the default fit in this process, on the bytes and the URL as the
    worker gets them (fit_page's call: the URL resolves the metadata's URLs)."""
    return len(pages) / _best_pass(lambda page: fit_text(page.raw, url=_url(page)), pages)


def _child_work_seconds(pages: list[Page]) -> float:
    """CPU seconds a page of a fit process's own work, in this process: the message
    body decoded, fitted, its record built and encoded (worker.stage.fitproc.answer)."""
    bodies = {page.page_id: page_message(page, "bench") for page in pages}
    return _best_pass(
        lambda page: answer(bodies[page.page_id], Encoding.MSGPACK, fit_page), pages
    ) / len(pages)


# The target of issue 24: the worker's parent and children together, CPU a
# page, at most this many times the in-process default fit's.
TARGET_RATIO: Final = 1.5

# --corpus: the development pages (the ROUGE sets, ~110 KB median) and the
# small pages (trafilatura-eval, 40-60 KB median: per-message costs show most).
CORPORA: Final = {"dev": ("development pages", SETS), "small": ("small pages", SEGMENT_SETS)}


@dataclass(frozen=True)
class CorpusRun:
    """One corpus through the worker, and its in-process references, CPU seconds a page."""

    name: str
    pages: int
    rounds: int
    figures: dict[str, float]
    fit_before: float  # in-process fit, pages/s, before the worker's run
    fit_after: float  # and after it
    bare: float  # bare lexbor parse
    child_work: float  # a fit process's own work, in this process

    @property
    def fit(self) -> float:
        """The in-process default fit, CPU seconds a page (the better pass)."""
        return 1 / max(self.fit_before, self.fit_after)

    @property
    def pod(self) -> float:
        """Parent plus children, CPU seconds a page."""
        return self.figures["parent"] + self.figures["children"]

    @property
    def ratio(self) -> float:
        return self.pod / self.fit


def run_corpus(  # noqa: PLR0913 - the run's options
    name: str,
    data: Path,
    rounds: int,
    profile: Path | None = None,
    checkout: Path = ROOT,
    *,
    stub: bool = False,
) -> CorpusRun:
    """Every page of corpus `name` through the worker `rounds` times over, and the references."""
    pages = load_pages(data, CORPORA[name][1])
    # Before and after the worker's run, nothing else of this benchmark running;
    # the better of the two, since a noisy neighbour only ever slows it down.
    first = _in_process_rate(pages)
    figures = asyncio.run(
        _run(
            pages,
            rounds,
            None if profile is None else profile / f"worker-{name}.txt",
            checkout,
            stub=stub,
        )
    )
    second = _in_process_rate(pages)
    return CorpusRun(
        name=name,
        pages=len(pages),
        rounds=rounds,
        figures=figures,
        fit_before=first,
        fit_after=second,
        bare=_parse_seconds(pages),
        child_work=_child_work_seconds(pages),
    )


def _met(ratio: float) -> str:
    return "met" if ratio <= TARGET_RATIO else "missed"


def print_corpus(run: CorpusRun) -> None:
    """The full table of one corpus's run."""
    figures, bare, fit = run.figures, run.bare, run.fit
    ms = 1000.0
    total = figures["parent"] + figures["children"] + figures["broker"]
    moving = (figures["parent"] + figures["broker"]) / total
    single = 1 / fit
    rows = [
        ("pages (corpus x rounds)", f"{figures['pages']:.0f} ({run.pages} x {run.rounds})"),
        ("end-to-end", f"{figures['rate']:.0f} pages/s ({figures['seconds']:.2f} s)"),
        (
            "in-process default fit, 1 core",
            f"{single:.0f} pages/s, {fit * ms:.2f} ms a page"
            f" (before {run.fit_before:.0f}, after {run.fit_after:.0f} pages/s)",
        ),
        ("end-to-end / in-process", f"{figures['rate'] / single:.2f} (target >= 0.5)"),
        (
            f"latency p50 / p99 at {figures['paced_rate']:.0f} pages/s",
            f"{figures['p50'] * ms:.1f} ms / {figures['p99'] * ms:.1f} ms",
        ),
        ("CPU per page: worker parent", f"{figures['parent'] * ms:.2f} ms"),
        ("CPU per page: pool children", f"{figures['children'] * ms:.2f} ms"),
        ("CPU per page: broker", f"{figures['broker'] * ms:.2f} ms"),
        (
            "CPU per page: total",
            f"{total * ms:.2f} ms (parent and broker: {moving:.0%})",
        ),
        ("CPU per page: bench client", f"{figures['client'] * ms:.2f} ms (not in total)"),
        (
            "(parent + children) / fit",
            f"{run.ratio:.2f}x ({run.pod * ms:.2f} / {fit * ms:.2f} ms;"
            f" issue 24: at most {TARGET_RATIO}x: {_met(run.ratio)})",
        ),
        ("bare lexbor parse, 1 core", f"{bare * ms:.3f} ms a page (bench.speed's floor)"),
        ("in-process fit, in parses", f"{fit / bare:.1f}"),
        ("worker parent, in parses", f"{figures['parent'] / bare:.1f} (issue 14: at most 2)"),
        (
            "children - in-process fit, in parses",
            f"{(figures['children'] - fit) / bare:+.1f} (issue 14: at most +0.5)",
        ),
        (
            "  of which the child's own work",
            f"{(run.child_work - fit) / bare:+.1f} (decode, record, encode: in-process)",
        ),
        (
            "  of which the same code, slower",
            f"{(figures['children'] - run.child_work) / bare:+.1f} (sharing 2 cores with the"
            " parent, the broker and this client)",
        ),
        (
            "parent + children, in parses",
            f"{run.pod / bare:.1f} (issue 24: at most {TARGET_RATIO * fit / bare:.1f},"
            f" {TARGET_RATIO}x the fit's)",
        ),
        (
            "a 2-core pod's capacity",
            f"{2 / run.pod:.0f} pages/s (2 cores / (parent + children) a page)",
        ),
        ("CPU per page: anything else", f"{figures['others'] * ms:.2f} ms (noise; not in total)"),
        ("worker exit status", f"{figures['exit']:.0f}"),
    ]
    width = max(len(name) for name, _ in rows)
    print(
        f"{CORPORA[run.name][0]} ({run.name}): worker defaults, {os.cpu_count()} CPUs,"
        " broker on this machine"
    )
    for name, value in rows:
        print(f"{name:{width}}  {value}")
    print()


def print_summary(runs: list[CorpusRun]) -> None:
    """One row a corpus: the issue 24 target at a glance."""
    header = (
        "corpus",
        "pages/s e2e",
        "parent ms",
        "children ms",
        "fit ms",
        "(p+c)/fit",
        f"<= {TARGET_RATIO}x",
        "p+c parses",
    )
    lines = [header]
    for run in runs:
        figures = run.figures
        lines.append(
            (
                run.name,
                f"{figures['rate']:.0f}",
                f"{figures['parent'] * 1000:.3f}",
                f"{figures['children'] * 1000:.3f}",
                f"{run.fit * 1000:.3f}",
                f"{run.ratio:.2f}",
                _met(run.ratio),
                f"{run.pod / run.bare:.1f}",
            )
        )
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    for line in lines:
        print("  ".join(cell.rjust(width) for cell, width in zip(line, widths, strict=True)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=4, help="passes over each corpus")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument(
        "--corpus",
        choices=(*CORPORA, "both"),
        default="both",
        help="the development pages (dev), the small pages (small: trafilatura-eval), or both",
    )
    parser.add_argument(
        "--py-spy",
        type=Path,
        metavar="DIR",
        help="sample the worker and its fit processes with py-spy (not installed by the"
        " project) into DIR/worker-<corpus>.txt, collapsed stacks; skews the figures",
    )
    parser.add_argument(
        "--worker-checkout",
        type=Path,
        default=ROOT,
        metavar="DIR",
        help="run `python -m worker` from DIR (another checkout of the code, for an A/B"
        " against a baseline; this venv's interpreter); default: this checkout",
    )
    parser.add_argument(
        "--stub-fit",
        action="store_true",
        help="the fit processes return one fixed record instead of fitting (the parent's"
        " per-message cost with little else on the cores; the ratios are then not the fit's)",
    )
    args = parser.parse_args()
    if args.py_spy is not None:
        args.py_spy.mkdir(parents=True, exist_ok=True)
    # The broker cancels the output consumer when the queue is deleted at the end.
    logging.getLogger("aiormq").setLevel(logging.ERROR)
    ensure_rabbitmq()
    names = list(CORPORA) if args.corpus == "both" else [args.corpus]
    runs = [
        run_corpus(
            name, args.data, args.rounds, args.py_spy, args.worker_checkout, stub=args.stub_fit
        )
        for name in names
    ]
    for run in runs:
        print_corpus(run)
    print_summary(runs)


if __name__ == "__main__":
    main()
