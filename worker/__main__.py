"""python -m worker: the queue stage (its command is worker.stage.cli)."""

from worker.stage.cli import run

if __name__ == "__main__":
    run()
