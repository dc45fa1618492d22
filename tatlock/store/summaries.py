"""Cross-conversation summaries (briefings): the rows ``tatlock.memory.cross`` reads and writes.

A briefing is *prepared* in the background from the user's latest conversations
(``recent_conversation_ids``), signed with the owner's name (``anchor_name``), and kept in
``cross_conversation_summaries`` with no conversation yet, the ids it drew on (so that
forgetting one of those conversations can find and drop it) and what it covers
(``briefing_state``: how many messages each had, to tell when it is out of date). A new
conversation *adopts* the latest one at once: a copy of the row, made its own.
"""

from __future__ import annotations

import json
from typing import Any

from tatlock.store import db
from tatlock.store.user import UserStore

__all__ = [
    "add_cross_summary",
    "adopt_prepared",
    "anchor_name",
    "briefing_state",
    "latest_cross_summary",
    "latest_prepared",
    "recent_conversation_ids",
]

KEEP_PREPARED = 3  # prepared briefings kept (older ones were never adopted; adopted copies stay)


def recent_conversation_ids(store: UserStore, *, exclude: int, limit: int) -> list[int]:
    """Ids of the ``limit`` most recently active conversations with messages, newest first,
    leaving out ``exclude`` (the new conversation)."""
    return [
        r[0]
        for r in store.conn.execute(
            "SELECT id FROM conversations WHERE id != ? AND message_count > 0"
            " ORDER BY last_activity DESC, id DESC LIMIT ?",
            (exclude, limit),
        )
    ]


def anchor_name(store: UserStore, conversation_ids: list[int]) -> str | None:
    """The owner's name as last written, newest conversation first; None if the owner wrote
    in none of them. Walks each conversation backwards along its (conversation_id,
    message_number) index, so long conversations cost nothing."""
    for cid in sorted(conversation_ids, reverse=True):
        row = store.conn.execute(
            "SELECT author_name FROM conversation_messages WHERE conversation_id = ? AND is_anchor "
            "= 1"
            " ORDER BY message_number DESC LIMIT 1",
            (cid,),
        ).fetchone()
        if row:
            return row[0]
    return None


def briefing_state(store: UserStore, *, limit: int) -> dict[str, int]:
    """``{"conversation id": message count}`` of the ``limit`` most recently active
    conversations with messages: what a briefing prepared now would cover."""
    return {
        str(r[0]): r[1]
        for r in store.conn.execute(
            "SELECT id, message_count FROM conversations WHERE message_count > 0"
            " ORDER BY last_activity DESC, id DESC LIMIT ?",
            (limit,),
        )
    }


def add_cross_summary(
    store: UserStore,
    conversation_id: int | None,
    summary: str,
    *,
    sources: list[int],
    model: str,
    created_at: str,
    covers: dict[str, int] | None = None,
    how: str = "model",
) -> int:
    """Store a briefing: built for ``conversation_id``, or prepared for the next new one
    (None; only the newest few prepared ones are kept). Its id."""
    with db.transaction(store.conn) as conn:
        cur = conn.execute(
            "INSERT INTO cross_conversation_summaries (conversation_id, summary, "
            "source_conversations, model,"
            " created_at, covers, how) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                conversation_id,
                summary,
                json.dumps(sources),
                model,
                created_at,
                json.dumps(covers or {}),
                how,
            ),
        )
        if conversation_id is None:
            conn.execute(
                "DELETE FROM cross_conversation_summaries WHERE conversation_id IS NULL AND id NOT "
                "IN"
                " (SELECT id FROM cross_conversation_summaries WHERE conversation_id IS "
                "NULL"
                "  ORDER BY id DESC LIMIT ?)",
                (KEEP_PREPARED,),
            )
    return int(cur.lastrowid or 0)


def latest_prepared(store: UserStore) -> dict[str, Any] | None:
    """The newest prepared briefing (summary, covers, how, created_at...), if any."""
    row = store.conn.execute(
        "SELECT * FROM cross_conversation_summaries WHERE conversation_id IS "
        "NULL"
        " ORDER BY id DESC LIMIT 1"
    ).fetchone()
    if row is None:
        return None
    out = dict(row)
    out["covers"] = json.loads(out["covers"])
    out["source_conversations"] = json.loads(out["source_conversations"])
    return out


def adopt_prepared(store: UserStore, conversation_id: int) -> str | None:
    """The briefing ``conversation_id`` begins with: its own if it has one, else a copy of the
    newest prepared one made its own (in one transaction); None when none is prepared."""
    with db.transaction(store.conn) as conn:
        row = conn.execute(
            "SELECT summary FROM cross_conversation_summaries WHERE conversation_id = "
            "?"
            " ORDER BY id DESC LIMIT 1",
            (conversation_id,),
        ).fetchone()
        if row is not None:
            return str(row[0])
        row = conn.execute(
            "SELECT * FROM cross_conversation_summaries WHERE conversation_id IS "
            "NULL"
            " ORDER BY id DESC LIMIT 1"
        ).fetchone()
        if row is None:
            return None
        conn.execute(
            "INSERT INTO cross_conversation_summaries (conversation_id, summary, "
            "source_conversations, model,"
            " created_at, covers, how) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                conversation_id,
                row["summary"],
                row["source_conversations"],
                row["model"],
                row["created_at"],
                row["covers"],
                row["how"],
            ),
        )
        return str(row["summary"])


def latest_cross_summary(store: UserStore, conversation_id: int) -> str | None:
    """The newest cross-conversation summary built for ``conversation_id``, if any."""
    row = store.conn.execute(
        "SELECT summary FROM cross_conversation_summaries WHERE conversation_id = ? ORDER BY id "
        "DESC LIMIT 1",
        (conversation_id,),
    ).fetchone()
    return row[0] if row else None
