"""Word gates: the words one of which every rule of a group needs, checked before the group is
compiled or run. Routing runs on every message, so a message only pays for the rules it could
match; tests check the gates never change a decision."""

from __future__ import annotations

import re

GATES_ON = True  # tests switch the gates off to check they never change a decision


def words(text: str) -> frozenset[str]:
    return frozenset(re.findall(r"[a-z0-9]+", text.lower()))


def gates(spec: dict[str, str]) -> dict[str, frozenset[str]]:
    return {k: frozenset(v.split()) for k, v in spec.items()}


def is_open(gate: frozenset[str] | None, message_words: frozenset[str]) -> bool:
    """Whether a group of patterns may match: it has no gate, or the message has a gate word."""
    return gate is None or not GATES_ON or not message_words.isdisjoint(gate)
