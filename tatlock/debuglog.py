"""One JSON-lines debug log per conversation: every event of every turn, secrets redacted.

``logs/conversations/<user>-<conversation_id>.jsonl``. Prompts, raw model output, parsed
decisions, tool calls and results, timings and token counts all arrive as events.

Secrets are withheld by :mod:`tatlock.redact`: secret-shaped text by pattern, and the exact
values of every secret tatlock knows. Those values reach the log in two ways: the
``secrets`` given to :class:`DebugLog`, and every value registered process-wide with
:func:`add_secrets` (``tatlock.secrets.known_values(cfg)`` registers the configured API key
and the keyring/environment secrets once at open). The files are private (0600 in a 0700
folder): they hold whole conversations.
"""

from __future__ import annotations

import json
import os
import stat
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import Any, ClassVar

from tatlock.events import AnswerToken, Event
from tatlock.files import FILE_MODE, private_dir
from tatlock.redact import redact, register_secret, scrub
from tatlock.timeutil import iso

__all__ = ["DebugLog", "add_secrets", "redact"]


def add_secrets(values: Iterable[str | None]) -> None:
    """Make every debug log (and every tool result) of this process withhold these values."""
    register_secret(*values)


def _scrub(value: Any, secrets: tuple[str, ...]) -> Any:
    return scrub(value, secrets)


class DebugLog:
    _lock = threading.Lock()
    _ready: ClassVar[set[Path]] = set()  # folders made (private) already in this process

    def __init__(
        self, folder: Path, username: str, conversation_id: int, secrets: tuple[str, ...] = ()
    ):
        self.path = folder / f"{username}-{conversation_id}.jsonl"
        self.secrets = tuple(secrets)
        register_secret(*self.secrets)

    def write(self, event: Event) -> None:
        if isinstance(event, AnswerToken):
            return  # the ModelCall event holds the whole raw output; one line per token is noise
        record = {"ts": iso(), **_scrub(event.to_dict(), self.secrets)}
        line = json.dumps(record, ensure_ascii=False, default=str)
        try:
            with self._lock:
                if self.path.parent not in self._ready:
                    private_dir(self.path.parent)
                    self._ready.add(self.path.parent)
                # never through a symlink, and never into a file that is not ours: one planted in
                # a folder someone else can write to would give them every prompt (or, for root,
                # append to whatever file the link names; a FIFO would hold the turn)
                flags = (
                    os.O_WRONLY
                    | os.O_APPEND
                    | os.O_CREAT
                    | getattr(os, "O_NOFOLLOW", 0)
                    | getattr(os, "O_NONBLOCK", 0)
                )
                try:
                    fd = os.open(self.path, flags, FILE_MODE)
                except FileNotFoundError:  # the folder went away since: make it again
                    private_dir(self.path.parent)
                    fd = os.open(self.path, flags, FILE_MODE)
                st = os.fstat(fd)
                if not stat.S_ISREG(st.st_mode) or st.st_uid != os.geteuid():
                    os.close(fd)
                    return
                with open(fd, "a", encoding="utf-8") as fh:
                    fh.write(line + "\n")
        except Exception:
            pass  # the log is for debugging; never fail a turn over it
