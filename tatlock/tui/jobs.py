"""Where the TUI runs the core's blocking calls, so the event loop never waits on them.

Two small thread pools, not a thread per call: the user's memory keeps one SQLite connection
per thread, so a fresh thread for every search keystroke would open (and keep) a connection
each time. ``quick`` (one thread) serves reads and edits of memory and system.db, in order;
``slow`` (two threads) serves what waits on the model server: compaction, status, pulls.
Turns run on the butler's own threads and are read with ``async for``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any, TypeVar

T = TypeVar("T")


class Jobs:
    def __init__(self) -> None:
        self.quick = ThreadPoolExecutor(1, thread_name_prefix="tatlock-tui-memory")
        self.slow = ThreadPoolExecutor(2, thread_name_prefix="tatlock-tui-server")

    async def run(self, fn: Callable[..., T], *args: Any, slow: bool = False, **kwargs: Any) -> T:
        """``fn(*args, **kwargs)`` on a pool thread; its exception is raised here."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            self.slow if slow else self.quick, partial(fn, *args, **kwargs)
        )

    def close(self) -> None:
        # queued work is dropped. A memory read under way is waited for (a few milliseconds): the
        # butler closes every thread's connection next, and SQLite crashes the process when a
        # connection is closed under a query still running on it. Work that waits on the model
        # server ends on its own (the butler's close waits for turns).
        self.slow.shutdown(wait=False, cancel_futures=True)
        self.quick.shutdown(wait=True, cancel_futures=True)
