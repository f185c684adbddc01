"""blockdensity-feed (`python -m worker.feed`): a crawl's pages (WARC, HTML, JSONL files)
published to the stage's input queue, with confirms and a checkpoint to resume from."""
