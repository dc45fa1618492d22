"""What the MCP server shows of the core's records: plain JSON objects, camelCase as MCP
clients expect, every message with its author (who said it, whether the Anchor or a bot)."""

from __future__ import annotations

import json
from typing import Any

from tatlock.memory.context import speaker
from tatlock.store.user import Compact, Conversation, Message, Participant


def conversation(c: Conversation) -> dict[str, Any]:
    return {
        "id": c.id,
        "title": c.title,
        "roomId": c.room_id,
        "interface": c.interface,
        "messageCount": c.message_count,
        "startedAt": c.started_at,
        "lastActivity": c.last_activity,
        "compactedUpTo": c.compacted_up_to,
    }


def message(m: Message) -> dict[str, Any]:
    out = {
        "id": m.message_id,
        "number": m.message_number,
        "role": m.role,
        "author": {
            "id": m.author_id,
            "name": m.author_name,
            "isBot": m.author_is_bot,
            "isAnchor": m.is_anchor,
        },
        "speaker": speaker(m),
        "replyTo": m.reply_to,
        "content": m.content,
        "timestamp": m.timestamp,
    }
    if m.metadata.get("cancelled"):
        out["cancelled"] = True
    if m.metadata.get("failed"):
        out["failed"] = True
    if m.metadata.get("superseded"):  # answered again, or the question edited: it no longer stands
        out["superseded"] = m.metadata["superseded"]
    return out


def compact(c: Compact) -> dict[str, Any]:
    return {
        "fromMessage": c.from_message,
        "upToMessage": c.up_to_message,
        "summary": c.summary,
        "topics": c.topics,
        "model": c.model,
        "createdAt": c.created_at,
    }


def participant(p: Participant) -> dict[str, Any]:
    return {
        "id": p.author_id,
        "name": p.name,
        "isBot": p.is_bot,
        "messageCount": p.message_count,
        "firstSeen": p.first_seen,
        "lastSeen": p.last_seen,
    }


def hit(h: Any) -> dict[str, Any]:
    return {
        "kind": h.kind,
        "conversationId": h.conversation_id,
        "conversationTitle": h.title,
        "messageId": h.message_id,
        "messageNumber": h.message_number,
        "messages": list(h.messages) if h.messages else None,
        "author": h.author,
        "role": h.role,
        "timestamp": h.timestamp,
        "snippet": h.snippet,
        "score": round(h.score, 4),
    }


def dumps(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, indent=1)
