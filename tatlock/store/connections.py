"""One SQLite connection per thread for one database file.

A connection is never shared between threads: the caller, a turn's worker, the tool pool
and the compactor each get their own (opened on first use in that thread), so one thread's
open transaction never mixes with another's statements. All are closed together.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path

from tatlock.errors import StoreError


class ThreadConnections:
    def __init__(
        self, path: Path, opener: Callable[[Path], sqlite3.Connection], first: sqlite3.Connection
    ):
        self.path = path
        self._opener = opener
        self._local = threading.local()
        self._lock = threading.Lock()
        self._all: list[sqlite3.Connection] = [first]
        self._closed = False
        self._local.conn = first  # the opening thread's, already migrated

    def get(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            return conn
        with self._lock:
            if self._closed:
                raise StoreError(f"{self.path} is closed")
        conn = self._opener(self.path)
        with self._lock:
            self._all.append(conn)
        self._local.conn = conn
        return conn

    def close(self) -> None:
        with self._lock:
            self._closed = True
            conns, self._all = self._all, []
        for conn in conns:
            try:
                conn.close()
            except sqlite3.Error:  # closing from another thread can fail; the process end closes it
                pass
        self._local = threading.local()
