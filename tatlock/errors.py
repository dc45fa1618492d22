"""Errors a user can cause or meet, each carrying a one-sentence message and an exit code.

Anything raised as a ``TatlockError`` is shown as one line by every interface; nothing a user
can cause should reach them as a traceback. The message says what went wrong in the core's
words; ``hint`` says what to do about it where the core knows (interfaces may add their own:
the CLI names its commands, the TUI its screens). ``kind`` lets an interface pick its hint
without parsing the message (``NotFound.kind`` is "conversation", "instruction", "tool"...).
"""

from __future__ import annotations


class TatlockError(Exception):
    exit_code = 1

    def __init__(self, message: str, *, hint: str | None = None, kind: str | None = None):
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.kind = kind

    def __str__(self) -> str:
        return self.message

    def full(self) -> str:
        """The message with the core's hint, as one line."""
        return f"{self.message}: {self.hint}" if self.hint else self.message


class UsageError(TatlockError):
    """The user asked for something malformed."""

    exit_code = 2


class ConfigError(TatlockError):
    """A setting is malformed."""

    exit_code = 2


class NotFound(TatlockError):
    """A named row (instruction, tool, user, conversation) does not exist; ``kind`` names which."""


class StoreError(TatlockError):
    """A database could not be opened or written."""


class BackendError(TatlockError):
    """The model server failed: unreachable, missing model, timeout, bad reply."""
