"""python -m worker.collect: blockdensity-collect."""

from worker.collect.collector import run

run()
