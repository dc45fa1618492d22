"""What the conversation services return (plain records, for every interface)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tatlock.store.user import Compact, Conversation, Message, Participant


@dataclass(frozen=True)
class Detail:
    """One conversation with what it holds."""

    conversation: Conversation
    messages: list[Message]  # oldest first (the latest ``limit`` when asked for fewer)
    compacts: list[Compact]
    participants: list[Participant]
    topics: list[tuple[str, int]]  # (topic, mentions)
    # {"up_to_message", "summary", ...} once older compacts were merged
    archive: dict[str, Any] | None
    briefing: str | None  # the summary of recent conversations it started with
    more_before: bool = False  # older messages exist beyond ``messages``


@dataclass(frozen=True)
class Hit:
    """A search result: a message, or a summary (compact) of a range of messages."""

    kind: str  # "message" | "summary"
    conversation_id: int
    message_id: int | None
    message_number: int | None
    messages: tuple[int, int] | None  # the range a summary covers
    author: str | None
    role: str | None
    timestamp: str
    text: str
    snippet: str
    score: float = 0.0
    title: str | None = None
    # why it matched: "has france", "next to #12, which has france", "similar in meaning"...
    why: str = ""


@dataclass
class Stats:
    conversations: int
    messages: int
    compacts: int
    compacted_messages: int
    first: str | None
    last: str | None
    variables: int
    topics: list[tuple[str, int]] = field(default_factory=list)
    database: str = ""
    database_bytes: int = 0
