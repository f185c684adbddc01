"""python -m blockdensity: the same as the blockdensity command."""

from blockdensity.cli import run

run()
