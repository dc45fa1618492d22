"""One JSON-lines debug log per conversation: every event of every turn, secrets redacted.

``logs/conversations/<user>-<conversation_id>.jsonl``. Prompts, raw model output, parsed
decisions, tool calls and results, timings and token counts all arrive as events.
"""

from __future__ import annotations

import json
import re
import threading
from pathlib import Path
from typing import Any

from tatlock.events import AnswerToken, Event
from tatlock.timeutil import iso

_PATTERNS = [
    (re.compile(r"\bsk-[A-Za-z0-9_-]{16,}"), "sk-[REDACTED]"),
    (re.compile(r"\bAKIA[0-9A-Z]{16}\b"), "AKIA[REDACTED]"),
    (re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----.*?-----END [A-Z ]*PRIVATE KEY-----", re.S), "[REDACTED KEY]"),
    (re.compile(r"(?i)\b(password|passwd|api[_ -]?key|secret|token|authorization)(\"?\s*[:=]\s*\"?|\s+is\s+)"
                r"(?:bearer\s+)?([^\s\",}]{4,})"), r"\1\2[REDACTED]"),
]


def redact(text: str, secrets: tuple[str, ...] = ()) -> str:
    for s in secrets:
        if s and len(s) >= 6:
            text = text.replace(s, "[REDACTED]")
    for pat, repl in _PATTERNS:
        text = pat.sub(repl, text)
    return text


def _scrub(value: Any, secrets: tuple[str, ...]) -> Any:
    if isinstance(value, str):
        return redact(value, secrets)
    if isinstance(value, dict):
        return {k: ("[REDACTED]" if re.search(r"(?i)password|api_?key|secret|token", str(k)) and isinstance(v, str)
                    else _scrub(v, secrets)) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_scrub(v, secrets) for v in value]
    return value


class DebugLog:
    _lock = threading.Lock()

    def __init__(self, folder: Path, username: str, conversation_id: int, secrets: tuple[str, ...] = ()):
        self.path = folder / f"{username}-{conversation_id}.jsonl"
        self.secrets = secrets

    def write(self, event: Event) -> None:
        if isinstance(event, AnswerToken):
            return  # the ModelCall event holds the whole raw output; one line per token is noise
        record = {"ts": iso(), **_scrub(event.to_dict(), self.secrets)}
        line = json.dumps(record, ensure_ascii=False, default=str)
        try:
            with self._lock:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                with open(self.path, "a", encoding="utf-8") as fh:
                    fh.write(line + "\n")
        except OSError:
            pass  # the log is for debugging; never fail a turn over it
