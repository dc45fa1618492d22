"""Cross-conversation summaries: the rows ``tatlock.memory.cross`` reads and writes.

A summary is built for a new conversation from the user's latest other conversations
(``recent_conversation_ids``), signed with the owner's name (``anchor_name``), and kept in
``cross_conversation_summaries`` with the ids it drew on, so that forgetting one of those
conversations can find and drop it.
"""

from __future__ import annotations

import json

from tatlock.store import db
from tatlock.store.user import UserStore

__all__ = ["add_cross_summary", "anchor_name", "latest_cross_summary", "recent_conversation_ids"]


def recent_conversation_ids(store: UserStore, *, exclude: int, limit: int) -> list[int]:
    """Ids of the ``limit`` most recently active conversations with messages, newest first,
    leaving out ``exclude`` (the new conversation)."""
    return [r[0] for r in store.conn.execute(
        "SELECT id FROM conversations WHERE id != ? AND message_count > 0"
        " ORDER BY last_activity DESC, id DESC LIMIT ?", (exclude, limit))]


def anchor_name(store: UserStore, conversation_ids: list[int]) -> str | None:
    """The owner's name as last written, newest conversation first; None if the owner wrote
    in none of them. Walks each conversation backwards along its (conversation_id,
    message_number) index, so long conversations cost nothing."""
    for cid in sorted(conversation_ids, reverse=True):
        row = store.conn.execute(
            "SELECT author_name FROM conversation_messages WHERE conversation_id = ? AND is_anchor = 1"
            " ORDER BY message_number DESC LIMIT 1", (cid,)).fetchone()
        if row:
            return row[0]
    return None


def add_cross_summary(store: UserStore, conversation_id: int, summary: str, *, sources: list[int], model: str,
                      created_at: str) -> int:
    """Store the summary built for ``conversation_id`` from the conversations ``sources``; its id."""
    with db.transaction(store.conn) as conn:
        cur = conn.execute(
            "INSERT INTO cross_conversation_summaries (conversation_id, summary, source_conversations, model,"
            " created_at) VALUES (?, ?, ?, ?, ?)",
            (conversation_id, summary, json.dumps(sources), model, created_at),
        )
    return int(cur.lastrowid or 0)


def latest_cross_summary(store: UserStore, conversation_id: int) -> str | None:
    """The newest cross-conversation summary built for ``conversation_id``, if any."""
    row = store.conn.execute(
        "SELECT summary FROM cross_conversation_summaries WHERE conversation_id = ? ORDER BY id DESC LIMIT 1",
        (conversation_id,),
    ).fetchone()
    return row[0] if row else None
