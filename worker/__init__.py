"""worker: the three programs around the density fit, each in its own sub-package.

- worker.stage: the queue stage, `python -m worker` (fetched pages in, clean text out);
- worker.feed: blockdensity-feed (a crawl's pages to the stage's input queue);
- worker.collect: blockdensity-collect (the clean pages and dead letters to files).

Below them, what two or three of them use: the message contract (schemas),
the settings table (config), what a body is (content), the AMQP clients and
the topology they share (amqp), logging (logs), and the guard that names a
missing extra (extras). A program imports the shared modules and its own,
never another program's.
"""
