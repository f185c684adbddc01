"""Chaos run: two workers, thousands of messages, seeded faults; account for every input.

The harness is devkit.chaos (its docstring tells the run): against a private
RabbitMQ node, two `python -m worker` processes with the fault fit consume a
seeded plan of `--messages` inputs, published at `--rate`: the development
corpus, adversarial pages, invalid messages, pages that crash or hang their
fit. Meanwhile worker SIGKILLs, broker restarts (`rabbitmqctl stop_app` /
`start_app`) and `rabbitmqctl close_all_connections` run at seeded points.
Then every input is accounted for: an output, or a dead letter with the
reason expected. This prints the report's tables.

    python -m bench.chaos [--messages 5000] [--seed 2024] [--rate 120]

Exit status 1 when anything was lost or unexpected. The test suite runs a
short variant (tests/reliability/test_chaos.py) through `run_chaos`.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from pathlib import Path

from devkit.chaos import ChaosConfig, print_report, run_chaos


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    defaults = ChaosConfig()
    parser.add_argument("--messages", type=int, default=defaults.messages)
    parser.add_argument("--seed", type=int, default=defaults.seed)
    parser.add_argument("--rate", type=float, default=defaults.rate)
    parser.add_argument("--data", type=Path, default=defaults.data)
    parser.add_argument("--log-dir", type=Path, default=defaults.log_dir)
    parser.add_argument(
        "--node-kills",
        type=int,
        default=defaults.node_kills,
        help="run on a three-node cluster and kill -9 a node this many times",
    )
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    for noisy in ("aiormq", "aio_pika"):
        logging.getLogger(noisy).setLevel(logging.CRITICAL)
    config = ChaosConfig(
        messages=args.messages,
        seed=args.seed,
        rate=args.rate,
        data=args.data,
        log_dir=args.log_dir,
        node_kills=args.node_kills,
    )
    report = asyncio.run(run_chaos(config))
    print_report(report)
    sys.exit(0 if report.ok else 1)


if __name__ == "__main__":
    main()
