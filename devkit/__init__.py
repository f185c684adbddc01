"""The project's development kit: what the tests, the benchmarks and the demo share.

Never shipped: the wheel and the container image hold `blockdensity` and
`worker` only. Import it from the repository root (`python -m pytest`,
`python -m bench.speed`, `python -m devkit.demo` put the root on sys.path).
"""
