"""The benchmarks and long reliability runs, each a command: `python -m bench.<name>`.

accuracy, speed, robustness (the fit), worker_e2e (the queue stage end to
end), and chaos, soak, fuzz (RELIABILITY.md). Run from the repository root;
what they share with the tests is devkit's. BENCHMARKS.md and RELIABILITY.md
hold their figures.
"""
