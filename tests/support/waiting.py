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
