"""Processes as Linux's /proc shows them, for the benchmarks and tests that watch a worker.

A worker is a process tree (the worker, its forkserver and resource tracker,
the fit processes); these read it without a third-party library.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["alive", "children", "descendants", "stat_fields"]


def stat_fields(pid: int) -> list[str] | None:
    """The fields of /proc/<pid>/stat after the command name (state first), or None if gone.

    The command name may contain spaces and parentheses: the fields start
    after its last ")". Index 0 is the state, 1 the parent, 11 and 12 utime
    and stime in clock ticks.
    """
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text[text.rindex(")") + 2 :].split()


def _by_parent(*, live_only: bool) -> dict[int, list[int]]:
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            fields = stat_fields(int(entry.name))
            if fields is not None and not (live_only and fields[0] == "Z"):
                parents.setdefault(int(fields[1]), []).append(int(entry.name))
    return parents


def children(pid: int) -> list[int]:
    """The running (not zombie) children of `pid`."""
    return _by_parent(live_only=True).get(pid, [])


def descendants(root: int) -> list[int]:
    """Every process below `root`, zombies included, parents before their children."""
    parents = _by_parent(live_only=False)
    found, todo = [], [root]
    while todo:
        for child in parents.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def alive(pid: int) -> bool:
    """Running (not a zombie)."""
    fields = stat_fields(pid)
    return fields is not None and fields[0] != "Z"
