"""The message vectors of semantic recall (table ``message_vectors``, migration 0003).

A vector is the embedding model's reading of one message (its text and any attached search
text, such as an image's caption), stored as float32 bytes beside the name of the model that
made it. ``tatlock.memory.vectors`` computes them in the background and ranks with them; this
module only reads and writes rows. Vectors of another model than the one asked for are
neither returned nor counted: switching models recomputes them, one message at a time.
"""

from __future__ import annotations

import json
from typing import NamedTuple

from tatlock.store import db
from tatlock.store.search import Filter
from tatlock.store.user import UserStore

__all__ = ["Pending", "allowed_ids", "counts", "ids", "pending", "save", "vectors"]


class Pending(NamedTuple):
    """A message without a vector: who wrote it, its text and what is attached (captions)."""

    message_id: int
    author_name: str
    content: str
    extra: str


def pending(store: UserStore, model: str, limit: int) -> list[Pending]:
    """Messages with text but no vector of ``model``, newest first (the latest are the likeliest
    to be asked about, and a process that stops early has done those)."""
    rows = store.conn.execute(
        "SELECT m.message_id, m.author_name, m.content, coalesce(json_extract(m.metadata, "
        "'$.search_text'), '')"
        " FROM conversation_messages m"
        " LEFT JOIN message_vectors v ON v.message_id = m.message_id AND v.model = ?"
        " WHERE v.message_id IS NULL AND (trim(m.content) <> '' OR json_extract(m.metadata, "
        "'$.search_text') <> '')"
        " ORDER BY m.message_id DESC LIMIT ?",
        (model, int(limit)),
    ).fetchall()
    return [Pending(*r) for r in rows]


def save(store: UserStore, model: str, rows: list[tuple[int, bytes]]) -> int:
    """Store vectors in one transaction (replacing another model's); a message deleted since it
    was read is skipped. Returns how many were stored."""
    if not rows:
        return 0
    saved = 0
    with db.transaction(store.conn):
        for message_id, blob in rows:
            saved += store.conn.execute(
                "INSERT OR REPLACE INTO message_vectors (message_id, model, vector)"
                " SELECT message_id, ?, ? FROM conversation_messages WHERE message_id = ?",
                (model, blob, message_id),
            ).rowcount
    return saved


def ids(store: UserStore, model: str) -> list[int]:
    """The messages that have a vector of ``model`` (cheap: no vector is read)."""
    return [
        r[0]
        for r in store.conn.execute(
            "SELECT message_id FROM message_vectors WHERE model = ? ORDER BY message_id", (model,)
        )
    ]


def vectors(store: UserStore, model: str, message_ids: list[int]) -> list[tuple[int, bytes]]:
    """``(message_id, vector bytes)`` of the given messages' vectors of ``model``."""
    if not message_ids:
        return []
    return store.conn.execute(
        "SELECT message_id, vector FROM message_vectors WHERE model = ? AND message_id IN"
        " (SELECT value FROM json_each(?))",
        (model, json.dumps(message_ids)),
    ).fetchall()


def counts(store: UserStore, model: str) -> tuple[int, int]:
    """(messages with a vector of ``model``, messages with text that could have one)."""
    row = store.conn.execute(
        "SELECT (SELECT count(*) FROM message_vectors WHERE model = ?),"
        " (SELECT count(*) FROM conversation_messages m WHERE trim(m.content) <> ''"
        "  OR json_extract(m.metadata, '$.search_text') <> '')",
        (model,),
    ).fetchone()
    return int(row[0]), int(row[1])


def allowed_ids(store: UserStore, flt: Filter) -> set[int]:
    """The messages within a search filter (time range, conversation, topic)."""
    return {
        r[0]
        for r in store.conn.execute(
            "SELECT m.message_id FROM conversation_messages m WHERE " + flt.sql, flt.args
        )
    }
