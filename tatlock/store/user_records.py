"""Rows of a user's memory database as plain records (see store/user.py)."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Author:
    """Who wrote a message. The Anchor is the butler's owner."""

    id: str
    name: str
    is_bot: bool = False
    is_anchor: bool = False

    @classmethod
    def assistant(cls) -> Author:
        return cls("tatlock", "Tatlock", is_bot=True)

    @classmethod
    def of(cls, message: Message) -> Author:
        """Who wrote a stored message."""
        return cls(
            message.author_id,
            message.author_name,
            is_bot=message.author_is_bot,
            is_anchor=message.is_anchor,
        )


@dataclass(frozen=True)
class Conversation:
    id: int
    title: str | None
    room_id: str
    interface: str
    started_at: str
    last_activity: str
    message_count: int
    compacted_up_to: int
    metadata: dict[str, Any]


@dataclass(frozen=True)
class Message:
    message_id: int
    conversation_id: int
    message_number: int
    role: str
    author_id: str
    author_name: str
    author_is_bot: bool
    is_anchor: bool
    reply_to: int | None
    content: str
    timestamp: str
    metadata: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Compact:
    id: int
    conversation_id: int
    from_message: int
    up_to_message: int
    summary: str
    topics: list[str]
    model: str
    created_at: str


def _conversation(row: sqlite3.Row) -> Conversation:
    return Conversation(
        row["id"],
        row["title"],
        row["room_id"],
        row["interface"],
        row["started_at"],
        row["last_activity"],
        row["message_count"],
        row["compacted_up_to"],
        json.loads(row["metadata"]),
    )


def _message(row: sqlite3.Row) -> Message:
    return Message(
        row["message_id"],
        row["conversation_id"],
        row["message_number"],
        row["role"],
        row["author_id"],
        row["author_name"],
        bool(row["author_is_bot"]),
        bool(row["is_anchor"]),
        row["reply_to"],
        row["content"],
        row["timestamp"],
        json.loads(row["metadata"]),
    )


def _compact(row: sqlite3.Row) -> Compact:
    return Compact(
        row["id"],
        row["conversation_id"],
        row["from_message"],
        row["up_to_message"],
        row["summary"],
        json.loads(row["topics"]),
        row["model"],
        row["created_at"],
    )


@dataclass(frozen=True)
class Variable:
    """A fact tatlock keeps: the current value of one thing about the owner or their world."""

    key: str
    value: str
    updated_at: str
    author_id: str | None  # who stated it
    source_message_id: int | None  # where (None: set by hand)
    # whom it is about: "owner", "owner's sister", "Tom" (a guest), "Tom's dog"
    about: str = "owner"
    attribute: str | None = None  # what, in words ("name", "allergy")
    author_name: str | None = None
    # hand (var set, the API) | tool (the model called set_personal_variable) | heard
    origin: str = "hand"
    statement: str | None = None  # the words it was read from (origin "heard")


@dataclass(frozen=True)
class Participant:
    conversation_id: int
    author_id: str
    name: str
    is_bot: bool
    first_seen: str
    last_seen: str
    message_count: int


@dataclass(frozen=True)
class Forgotten:
    """What forgetting a conversation removed besides it."""

    conversation: Conversation
    variables: list[str]
    cross_summaries: int
    # facts it had corrected: their earlier value is back
    restored: list[str] = field(default_factory=list)
