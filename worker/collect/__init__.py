"""blockdensity-collect (`python -m worker.collect`): the clean pages and the dead letters
off their queues, into rotated JSONL or WET files, each batch synced before it is acked."""
