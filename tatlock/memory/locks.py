"""The lock files that keep housekeeping in order across processes, in the user's folder.

* ``housekeeping.lock``: held by a housekeeper while it works: one at a time per user;
* ``housekeeping.process.lock``: held for its whole life by a detached housekeeper, so that a
  second one is not started while it lives (``housekeeping.pid`` names the last one started);
* ``turns.lock``: held, shared, by every process while one of its turns runs, so a housekeeper
  in any process can tell that a turn needs the model server, and make way.

All are ``flock`` locks: the kernel releases them when their process ends, however it ends
(kill -9 included), so a lock is never left behind. Each file holds the pid of the process
that took it last, for a person (or a test) looking for it. Without ``flock`` (Windows) they
are not held, and the compaction claims alone keep processes apart.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from tatlock.files import private_dir
from tatlock.paths import Paths

__all__ = [
    "LOCK_NAME",
    "PID_NAME",
    "PRESENCE_NAME",
    "TURNS_NAME",
    "Lock",
    "TurnsLock",
    "turns_lock",
]

LOCK_NAME = "housekeeping.lock"
PRESENCE_NAME = "housekeeping.process.lock"
PID_NAME = "housekeeping.pid"
TURNS_NAME = "turns.lock"


class Lock:
    """The user's housekeeping lock: one housekeeper at a time, across processes. ``flock`` on
    a file in the user's folder; the kernel releases it when the process ends, however."""

    def __init__(self, path: Path):
        self.path = path
        self._fd: int | None = None

    def acquire(self) -> bool:
        """Take it without waiting; False when another housekeeper holds it."""
        try:
            import fcntl
        except ImportError:  # no flock (Windows): the compaction claims still keep processes apart
            return True
        private_dir(self.path.parent)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            return False
        self._fd = fd
        try:  # who holds it, for a person (or a test) looking for the process
            os.ftruncate(fd, 0)
            os.write(fd, str(os.getpid()).encode())
        except OSError:
            pass
        return True

    def holder(self) -> int | None:
        """The pid written by the process that holds it, if one does."""
        if not self.held_elsewhere():
            return None
        try:
            return int(self.path.read_text().strip() or 0) or None
        except (OSError, ValueError):
            return None

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the file releases the lock
            self._fd = None

    def held_elsewhere(self) -> bool:
        if self.acquire():
            self.release()
            return False
        return True


class TurnsLock:
    """Held (shared) by every process while one of its turns runs, so a housekeeper in any
    process can tell that a turn needs the model server, and make way. The kernel releases it
    when its process ends, however."""

    def __init__(self, path: Path):
        self.path = path

    def hold(self) -> Callable[[], None]:
        """Hold it for a turn; returns the function that lets go."""
        try:
            import fcntl
        except ImportError:
            return lambda: None
        try:
            private_dir(self.path.parent)
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError:  # a read-only folder: the turn goes on; housekeeping just will not see it
            return lambda: None
        try:
            fcntl.flock(fd, fcntl.LOCK_SH)
        except OSError:
            os.close(fd)
            return lambda: None
        return lambda: os.close(fd)

    def busy(self) -> bool:
        """Whether a turn runs now, in any process."""
        return Lock(self.path).held_elsewhere()


def turns_lock(paths: Paths, username: str) -> TurnsLock:
    return TurnsLock(paths.user_dir(username) / TURNS_NAME)
