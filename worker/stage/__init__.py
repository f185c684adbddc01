"""The queue stage, `python -m worker`: fetched pages in, each fitted in a process pool,
its clean text published; at least once, with dead letters for what cannot be done."""
