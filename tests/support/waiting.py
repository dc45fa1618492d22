"""Waiting for something to happen, in place of a fixed sleep: a fixed sleep is too short on a
busy machine and too long everywhere else."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def wait_until(
    condition: Callable[[], T], timeout: float = 20.0, what: str = "", every: float = 0.02
) -> T:
    """Poll ``condition`` until it returns something true and return that; fail the test with
    ``what`` (or the condition's name) when ``timeout`` seconds pass first."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() >= deadline:
            raise AssertionError(
                f"waited {timeout:g} s for {what or getattr(condition, '__name__', 'a condition')}"
            )
        time.sleep(every)


async def wait_until_async(
    condition: Callable[[], T], timeout: float = 20.0, what: str = "", every: float = 0.02
) -> T:
    """``wait_until`` for a test on an event loop: the loop runs while it waits."""
    import asyncio

    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() >= deadline:
            raise AssertionError(
                f"waited {timeout:g} s for {what or getattr(condition, '__name__', 'a condition')}"
            )
        await asyncio.sleep(every)


def catches(pid: int, signum: int) -> bool:
    """Whether process ``pid`` has a handler of its own for ``signum`` (Linux: SigCgt in
    /proc/PID/status), i.e. it has come far enough to answer the signal as it means to."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("SigCgt:"):
                    return bool(int(line.split()[1], 16) >> (signum - 1) & 1)
    except OSError:
        return False
    return False


# the number of read(2) in /proc/PID/syscall, per machine
_READ = {"x86_64": 0, "aarch64": 63}


def reads_stdin(pid: int) -> bool:
    """Whether process ``pid``'s main thread is blocked reading its stdin (Linux:
    /proc/PID/syscall): a prompt is waiting for its line."""
    import platform

    try:
        with open(f"/proc/{pid}/syscall", encoding="ascii") as call:
            fields = call.read().split()
    except OSError:
        return False
    read = _READ.get(platform.machine())
    return read is not None and len(fields) > 1 and fields[:2] == [str(read), "0x0"]
