"""python bench/worker.py: the queue stage's end-to-end benchmark (the code is in worker_e2e.py).

Two files because a module named `worker` in bench/ would shadow the worker
package: Python puts a script's folder first on sys.path, and mypy would see
two modules named `worker`. This shim puts the repository first instead
(and is excluded from mypy, in pyproject.toml, for that name alone).
"""

import sys
from pathlib import Path

_BENCH = Path(__file__).resolve().parent
sys.path[0] = str(_BENCH.parent)  # the repository: `worker` is the package
sys.path.append(str(_BENCH))  # worker_e2e and corpus

from worker_e2e import main  # noqa: E402

if __name__ == "__main__":
    main()
