"""One SQLite connection per thread for one database file.

A connection is never shared between threads: the caller, a turn's worker, the tool pool
and the compactor each get their own (opened on first use in that thread), so one thread's
open transaction never mixes with another's statements. ``close`` closes every connection no
live thread is using; one that belongs to another live thread is closed by that thread at its
next use (or when the thread ends), because closing a connection under a statement that another
thread is running crashes the process (a segmentation fault in SQLite, not an exception).
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
        # each connection with the thread that opened it: only that thread may close it while alive
        self._all: list[tuple[threading.Thread, sqlite3.Connection]] = [
            (threading.current_thread(), first)
        ]
        self._closed = False
        self._local.conn = first  # the opening thread's, already migrated

    def get(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            if self._closed:  # closed by another thread while this one held a connection
                self._local.conn = None
                _close_quietly(conn)
                raise StoreError(f"{self.path} is closed")
            return conn
        with self._lock:
            if self._closed:
                raise StoreError(f"{self.path} is closed")
        conn = self._opener(self.path)
        with self._lock:
            self._all.append((threading.current_thread(), conn))
        self._local.conn = conn
        return conn

    def close(self) -> None:
        me = threading.current_thread()
        with self._lock:
            self._closed = True
            owned, self._all = self._all, []
        closable = [conn for thread, conn in owned if thread is me or not thread.is_alive()]
        # Another live thread may be inside a statement on its connection right now: it closes
        # it itself at its next get(), and its thread-local storage does at the thread's end.
        # Since that connection stays open for now, the last one closed here cannot fold the
        # write-ahead log into the database file, so it is folded in explicitly first.
        if closable and len(closable) < len(owned):
            try:
                closable[0].execute("PRAGMA wal_checkpoint(PASSIVE)")
            except sqlite3.Error:
                pass
        for conn in closable:
            _close_quietly(conn)
        self._local.conn = None


def _close_quietly(conn: sqlite3.Connection) -> None:
    try:
        conn.close()
    except sqlite3.Error:  # already unusable; the process end releases it
        pass
