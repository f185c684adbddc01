"""python -m worker.feed: blockdensity-feed."""

from worker.feed.feeder import run

run()
