"""Imported by the fit pool's forkserver, and only there (FitPool preloads it): die with the worker.

Each fit process asks the kernel to kill it when its parent, the forkserver,
goes (fitproc.die_with_parent, the first thing fitproc.serve does). But the
forkserver outlived a SIGKILLed worker for as long as any fit process ran,
since each holds the forkserver's "alive" pipe open; a fit stuck on a page
(or the test hook's hang) then ran on, orphaned, and kept the forkserver
alive in turn. So the forkserver asks the same: when the worker goes, it
goes, and every fit process with it.
"""

from __future__ import annotations

import sys

from worker.stage.fitproc import FORKSERVER_OOM_SCORE, be_killed_first, die_with_parent

# The forkserver runs as `python -c "from multiprocessing.forkserver import main; ..."`:
# anywhere else (an import by mistake), do nothing.
if sys.argv[:1] == ["-c"] and "multiprocessing.forkserver" in sys.modules:
    die_with_parent()
    be_killed_first(FORKSERVER_OOM_SCORE)  # after a fit process, before the worker
