"""SIGTERM and SIGHUP end a turn as Ctrl-C does: the partial answer is stored, marked cancelled,
the terminal is left as it was found, and the process exits 143 or 129 (128 + the signal) with
one line on stderr.

Without a handler Python dies of these signals at once: the answer being written is lost (only
the question is stored) and a full-screen app leaves the terminal in its alternate screen with
the mouse reported and the cursor hidden. Two ways to handle them:

- ``raising()``, for commands whose main thread waits on a turn (``ask``, ``chat``, the MCP
  server): the signal raises ``Stopped`` in the main thread. It is a ``KeyboardInterrupt``, so
  whatever cancels a turn on Ctrl-C cancels it on these too; the command then says which signal
  stopped it and exits with its code (``run_command`` does, for anything else that meets it).
- ``calling(fn)``, for an asyncio app (the TUI): the signal calls ``fn(signum)``, which only
  schedules the app's exit on its loop; raising inside the loop would skip the app's clean-up.

A handler never cancels a turn itself (``Cancel`` takes a lock the interrupted code may hold):
the code the signal interrupts does that, in its own ordinary flow.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

SIGNALS = tuple(
    s for s in (getattr(signal, "SIGTERM", None), getattr(signal, "SIGHUP", None)) if s is not None
)


class Stopped(KeyboardInterrupt):
    """SIGTERM or SIGHUP arrived (raised in the main thread by ``raising``)."""

    def __init__(self, signum: int):
        super().__init__(signal.Signals(signum).name)
        self.signum = signum
        # the command already said it was stopped (run_command then says nothing)
        self.reported = False

    @property
    def name(self) -> str:
        return signal.Signals(self.signum).name

    @property
    def code(self) -> int:
        return 128 + self.signum


def exit_code(signum: int) -> int:
    return 128 + signum


def name(signum: int) -> str:
    return signal.Signals(signum).name


def _install(handler: Callable[[int, Any], None]) -> dict[int, Any]:
    if threading.current_thread() is not threading.main_thread():
        return {}  # only the main thread may set handlers (and only it receives their calls)
    previous = {}
    for s in SIGNALS:
        try:
            previous[s] = signal.signal(s, handler)
        except (OSError, ValueError):  # pragma: no cover - a platform without it
            pass
    return previous


def _restore(previous: dict[int, Any]) -> None:
    for s, handler in previous.items():
        try:
            signal.signal(s, handler)
        except (OSError, ValueError, TypeError):  # pragma: no cover
            pass


@contextmanager
def raising() -> Iterator[None]:
    """While inside, SIGTERM and SIGHUP raise ``Stopped`` in the main thread."""

    def handler(signum: int, frame: Any) -> None:
        raise Stopped(signum)

    previous = _install(handler)
    try:
        yield
    finally:
        _restore(previous)


@contextmanager
def calling(fn: Callable[[int], None]) -> Iterator[list[int]]:
    """While inside, SIGTERM and SIGHUP call ``fn(signum)``; yields the signals caught so far."""
    caught: list[int] = []

    def handler(signum: int, frame: Any) -> None:
        caught.append(signum)
        fn(signum)

    previous = _install(handler)
    try:
        yield caught
    finally:
        _restore(previous)
