"""When a fit process is let go after a page, and another started in its place.

After `max_tasks` pages (0: never), as the standard executors recycle
their workers; and after a page that left its resident memory past
`recycle_memory` bytes (0: never): a large page leaves the allocator
holding memory it seldom gives back. A recycled process finishes its page
first; its exit is no failure.
"""

from __future__ import annotations

from worker.stage.child import Child
from worker.stage.procfs import ResidentMemory

__all__ = ["Recycling"]


class Recycling:
    """The pool's recycling bounds."""

    def __init__(self, *, max_tasks: int, recycle_memory: int) -> None:
        self._max_tasks = max_tasks
        self._recycle_memory = recycle_memory

    def watch(self, pid: int) -> ResidentMemory | None:
        """What to read a new fit process's memory from after each page; None when
        there is no memory bound."""
        return ResidentMemory(pid) if self._recycle_memory else None

    def grown(self, child: Child) -> bool:
        """Whether the child's resident memory is past the memory bound."""
        return child.memory is not None and child.memory.bytes() > self._recycle_memory

    def worn(self, child: Child) -> bool:
        """Whether the child has fitted as many pages as one may."""
        return bool(self._max_tasks) and child.done >= self._max_tasks
