"""Who runs a process's housekeeping, and what happens to it when the process closes.

A ``Runner`` belongs to one open butler. In a long-lived process it runs the ``Housekeeper`` on a
thread of its own, woken after each turn (``kick``); in a one-shot process (``one_shot``: ``tatlock
ask``) nothing runs until ``finish``. ``finish`` (at close) follows the ``housekeeping`` setting:

* ``background``: a summary about to finish is given ``HANDOFF_WAIT`` seconds; then a call still
  running is cut (its claim let go) and what is left goes to a detached housekeeper
  (memory/detached.py), or to the one already alive; one line says so when a conversation's
  summary goes on after the process (a briefing goes on quietly);
* ``foreground``: everything due is done now, before the process ends;
* ``off``: nothing is done by itself (``wait`` still does it, when asked).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from tatlock.memory import detached
from tatlock.memory.housekeeping import Housekeeper

__all__ = ["HANDOFF_WAIT", "Runner"]

log = logging.getLogger(__name__)

# seconds a closing process gives a summary about to finish, before handing it on
HANDOFF_WAIT = 2.0


class Runner:
    def __init__(
        self,
        make: Callable[[], Housekeeper],
        *,
        mode: str,
        spawn_args: Callable[[], dict[str, object]] | None,
    ):
        """``make`` builds the housekeeper when it is first needed; ``spawn_args`` gives
        ``detached.spawn``'s arguments (None: no detached process can take over, as when the
        caller gave its own backend object)."""
        self._make, self.mode, self._spawn_args = make, mode, spawn_args
        self.one_shot = False
        self.dirty = False  # a turn ran or messages were stored: something may be due
        self._hk: Housekeeper | None = None
        self._thread: threading.Thread | None = None
        self._cond = threading.Condition()
        self._kicked = self._busy = self._hurry = self._closing = False

    @property
    def housekeeper(self) -> Housekeeper:
        if self._hk is None:
            self._hk = self._make()
        return self._hk

    def turn_started(self) -> None:
        self.dirty = True
        if self._hk is not None:
            self._hk.turn_started()  # a summary being written makes way for the turn

    def kick(self) -> None:
        """Messages were stored: wake the thread (long-lived processes in the background or
        foreground mode)."""
        self.dirty = True
        if self.one_shot or self.mode == "off":
            return
        with self._cond:
            if self._closing:
                return
            self._kicked = True
            self._cond.notify_all()
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._loop, name="tatlock-housekeeping", daemon=True
                )
                self._thread.start()

    def _loop(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._kicked or self._closing)
                if self._closing:
                    return
                self._kicked, self._busy, hurry = False, True, self._hurry
            try:
                hk = self.housekeeper
                if not hk.stopped:
                    hk.run(hurry=hurry)
            except Exception:
                log.exception("housekeeping failed")
            finally:
                with self._cond:
                    self._busy = False
                    if hurry:
                        self._hurry = False
                    self._cond.notify_all()

    @property
    def busy(self) -> bool:
        with self._cond:
            return self._busy or self._kicked

    def wait(self, timeout: float | None = None) -> bool:
        """Do the housekeeping now (the briefing without waiting for quiet) and wait for it:
        True once it has done what it can (what failed, say with the server down, is left for
        later), False when it is still at work after ``timeout`` seconds."""
        if not self.dirty:
            return True
        deadline = None if timeout is None else time.monotonic() + timeout
        if self.one_shot or self.mode == "off":  # no thread: here, now
            self.housekeeper.run(hurry=True, deadline=deadline)
            return deadline is None or time.monotonic() < deadline
        with self._cond:
            self._hurry = True
        self.housekeeper.hurry()  # a run going on (waiting for quiet) hears it too
        self.kick()
        with self._cond:
            return self._cond.wait_for(lambda: not (self._busy or self._kicked), timeout)

    def finish(self) -> str | None:
        """At close (see the module's docstring): one line to tell the user, or None."""
        if not self.dirty or self.mode == "off":
            return None
        foreground = self.mode == "foreground"
        if foreground:
            self.wait()  # all of it, now (each model call within its timeout)
        else:
            with self._cond:  # a summary about to finish is given a moment
                self._cond.wait_for(lambda: not (self._busy or self._kicked), HANDOFF_WAIT)
        hk = self.housekeeper
        hk.stop()  # a call still running is cut; its block's claim is let go
        with self._cond:
            self._closing = True
            self._cond.notify_all()
        if self._thread is not None:
            self._thread.join(HANDOFF_WAIT)
        left = hk.pending()
        if not left:
            return None
        pid = None
        if not foreground and self._spawn_args is not None:
            pid = detached.spawn(**self._spawn_args())  # type: ignore[arg-type]
        if pid is not None:
            if not left.compactions:
                return None  # a briefing goes on quietly; a conversation's summary is worth a line
            where = f"process {pid}" if pid else "the housekeeping process already running"
            go = "go" if left.many else "goes"
            return f"{left.describe()} {go} on in the background ({where}); it is safe to stop it"
        return f"{left.describe()} will be finished by the next tatlock run"

    def close(self) -> None:
        if self._hk is not None:
            self._hk.close()
