"""The worker's memory inside a pod's limit, on the heavy pages (devkit.heavypages).

    python -m bench.worker_memory                  # a 512 MiB cgroup, each page twice
    python -m bench.worker_memory --limit 0        # no limit: what it would take
    python -m bench.worker_memory --rounds 5

`python -m worker` (pool 2, its defaults) runs in a memory cgroup of its own
(devkit.cgroup; needs root) on the shared broker; each heavy construction,
just under the 8 MiB body limit, is published `--rounds` times among
ordinary pages. The resident memory of every process in the cgroup is
sampled every 50 ms. Prints, for the deploy guide: the cgroup's peak, the
peak of the worker (parent), of the forkserver and of any one fit process,
the OOM kills inside, and what became of each heavy page.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import tempfile
from pathlib import Path

from devkit.broker import ensure_rabbitmq
from devkit.cgroup import MemoryCgroup
from devkit.client import Client
from devkit.corpus import DEFAULT_DATA
from devkit.heavypages import CONSTRUCTIONS, ENVELOPE, MIB, build
from devkit.messages import collect, corpus_pages, msgpack_page, page_url
from devkit.procs import stat_fields
from devkit.workers import WorkerProcess, start_worker, worker_env
from worker.amqp.topology import HEADER_REASON
from worker.config import StageSettings

HEAVY = ("td", "div", "tr", "p", "br", "attributes", "tables", "one-element")
_PAGE = 4096


def _rss(pid: int) -> int:
    try:
        return int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * _PAGE
    except (OSError, IndexError, ValueError):
        return 0


def _role(pid: int, worker: int) -> str:
    """The worker, its forkserver and resource tracker (its children), or a fit process
    (a child of the forkserver, whose command line it shares)."""
    if pid == worker:
        return "worker (parent)"
    fields = stat_fields(pid)
    if fields is None or fields[1] != str(worker):
        return "a fit process"
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return "?"
    return "forkserver" if b"forkserver" in cmdline else "resource tracker"


async def _sample(group: MemoryCgroup, worker: WorkerProcess, peaks: dict[str, int]) -> None:
    while True:
        for pid in group.pids():
            role = _role(pid, worker.process.pid)
            peaks[role] = max(peaks[role], _rss(pid))
        await asyncio.sleep(0.05)


async def run(limit: int, rounds: int) -> None:
    ensure_rabbitmq()
    env = worker_env(pool_size="2")
    settings = StageSettings.from_env(env)
    ordinary = [
        (f"https://ordinary.example/{i}", p.raw)
        for i, p in enumerate(corpus_pages(50, DEFAULT_DATA))  # the full set's, not the sample's
    ]
    heavy = [
        (f"https://heavy.example/{name}/{round_}", build(name, settings.max_body_bytes - ENVELOPE))
        for round_ in range(rounds)
        for name in HEAVY
    ]
    pages = [page for pair in zip(ordinary, heavy, strict=False) for page in pair]
    pages += ordinary[len(heavy) :]
    peaks: dict[str, int] = collections.defaultdict(int)
    with MemoryCgroup(limit or 64 * 1024 * MIB) as group, tempfile.TemporaryDirectory() as logs:
        async with Client(settings.amqp_url) as client:
            await client.declare_input(settings)
            worker = start_worker(env, Path(logs) / "worker.log", preexec=group.preexec)
            sampler = asyncio.create_task(_sample(group, worker, peaks))
            try:
                for url, body in pages:
                    await client.publish(
                        settings.input_queue,
                        msgpack_page(url, body),
                        content_type="application/msgpack",
                        message_id=url,
                    )
                outputs, dead = [], []
                for _ in range(600):
                    outputs += await collect(client, settings.output_queue, len(pages), 0.5)
                    dead += await collect(client, settings.dead_letter_queue, len(pages), 0.01)
                    if len({page_url(m) for m in outputs}) + len(dead) >= len(pages):
                        break
                survived = worker.process.poll() is None
                await asyncio.sleep(1)  # idle now: what the fit processes keep
                idle = [
                    _rss(pid)
                    for pid in group.pids()
                    if _role(pid, worker.process.pid) == "a fit process"
                ]
            finally:
                sampler.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await sampler
                worker.process.terminate()
                worker.process.wait(60)
                await client.delete_topology(settings)
        print(
            f"limit: {limit >> 20 if limit else 'none'} MiB; {len(pages)} pages, "
            f"{len(heavy)} heavy (each {settings.max_body_bytes - ENVELOPE:,} bytes)"
        )
        print("| figure | value |\n|---|---:|")
        print(f"| the cgroup's peak | {group.peak_bytes() / MIB:.0f} MiB |")
        for role in ("worker (parent)", "forkserver", "resource tracker", "a fit process"):
            print(f"| peak RSS: {role} | {peaks[role] / MIB:.0f} MiB |")
        kept = ", ".join(f"{rss / MIB:.0f}" for rss in idle)
        print(f"| RSS of the idle fit processes at the end | {kept} MiB |")
        print(f"| OOM kills in the cgroup | {group.oom_kills()} |")
        print(f"| the worker survived | {'yes' if survived else 'NO'} |")
    fitted = {page_url(m) for m in outputs}
    reasons = {page_url(m): str(m.headers.get(HEADER_REASON)) for m in dead}
    print("| heavy page | outcome |\n|---|---|")
    for name in HEAVY:
        urls = [f"https://heavy.example/{name}/{r}" for r in range(rounds)]
        outcomes = collections.Counter(
            "fitted" if url in fitted else f"dead-lettered: {reasons.get(url, 'missing')}"
            for url in urls
        )
        label = CONSTRUCTIONS[name][0].replace("<", "&lt;")
        print(f"| {label} | {', '.join(f'{k} x{v}' for k, v in outcomes.items())} |")
    missing = [url for url, _ in ordinary if url not in fitted]
    print(f"ordinary pages out: {len(ordinary) - len(missing)} of {len(ordinary)}")


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.worker_memory", description=__doc__)
    parser.add_argument("--limit", type=int, default=512, help="MiB (0: none)")
    parser.add_argument("--rounds", type=int, default=2)
    options = parser.parse_args()
    asyncio.run(run(options.limit * MIB, options.rounds))


if __name__ == "__main__":
    main()
