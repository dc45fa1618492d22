"""Regular expressions compiled on first use, and the word gates that skip whole groups of
them: routing runs on every message, so a message only pays for the patterns it could match."""

from __future__ import annotations

import re

I = re.IGNORECASE  # noqa: E741 - the re module's own name for it
GATES_ON = True  # tests switch the gates off to check they never change a decision


class Lazy:
    """A pattern compiled on first use: importing this module stays cheap, and a rule group
    whose words a message does not contain is never compiled at all (see _GATES)."""

    __slots__ = ("pattern", "flags", "_re")

    def __init__(self, pattern: str, flags: int = 0):
        self.pattern, self.flags = pattern, flags
        self._re: re.Pattern[str] | None = None

    def _get(self) -> re.Pattern[str]:
        compiled = self._re
        if compiled is None:
            compiled = self._re = re.compile(self.pattern, self.flags)
        return compiled

    def search(self, text: str) -> re.Match[str] | None:
        return self._get().search(text)

    def sub(self, repl: str, text: str) -> str:
        return self._get().sub(repl, text)

    def split(self, text: str) -> list[str]:
        return self._get().split(text)


def words(text: str) -> frozenset[str]:
    return frozenset(re.findall(r"[a-z0-9]+", text.lower()))


def gates(spec: dict[str, str]) -> dict[str, frozenset[str]]:
    return {k: frozenset(v.split()) for k, v in spec.items()}


def is_open(gate: frozenset[str] | None, message_words: frozenset[str]) -> bool:
    """Whether a group of patterns may match: it has no gate, or the message has a gate word."""
    return gate is None or not GATES_ON or not message_words.isdisjoint(gate)
