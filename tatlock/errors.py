"""Errors a user can cause or meet, each carrying a one-sentence message and an exit code.

Anything raised as a ``TatlockError`` is printed as one line on stderr; nothing a user
can cause should reach them as a traceback.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
from typing import Callable


class TatlockError(Exception):
    exit_code = 1


class UsageError(TatlockError):
    """The user asked for something malformed."""

    exit_code = 2


class ConfigError(TatlockError):
    """A setting is malformed."""

    exit_code = 2


class NotFound(TatlockError):
    """A named row (instruction, tool, user, conversation) does not exist."""


class StoreError(TatlockError):
    """A database could not be opened or written."""


class BackendError(TatlockError):
    """The model server failed: unreachable, missing model, timeout, bad reply."""


def run_command(func: Callable[[argparse.Namespace], int], args: argparse.Namespace) -> int:
    try:
        return int(func(args) or 0)
    except TatlockError as exc:
        _say(f"tatlock: {exc}")
        return exc.exit_code
    except KeyboardInterrupt:
        _say("tatlock: interrupted")
        return 130
    except BrokenPipeError:  # `tatlock ... | head`
        try:
            sys.stdout = open("/dev/null", "w")  # noqa: SIM115 - silence the flush at exit
        except OSError:
            pass
        return 0
    except sqlite3.OperationalError as exc:  # e.g. database is locked, disk full
        _say(f"tatlock: database error: {exc}")
        return 1
    except OSError as exc:
        where = f" ({exc.filename})" if getattr(exc, "filename", None) else ""
        _say(f"tatlock: {exc.strerror or exc}{where}")
        return 1


def _say(line: str) -> None:
    try:
        sys.stderr.write(line.rstrip() + "\n")
        sys.stderr.flush()
    except Exception:
        pass
