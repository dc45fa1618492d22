"""A whole memory as plain rows (export), and what an import of one reports.

A conversation is known across homes by its ``uid`` (kept in its metadata once imported, else
derived from where and when it started and its id): :func:`conversation_uid`. Writing an
import back is ``tatlock.store.importing``.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from tatlock.store import db
from tatlock.store.user import UserStore

__all__ = ["Imported", "conversation_uid", "dump"]


@dataclass
class Imported:
    """What an import added (``present``: conversations already here in full)."""

    conversations: int = 0
    extended: int = 0
    present: int = 0
    messages: int = 0
    compacts: int = 0
    variables: int = 0
    summaries: int = 0
    written: int = 0  # messages written so far (what a stopped import had done)
    total: int = 0  # messages the file adds

    @property
    def changed(self) -> bool:
        return bool(
            self.conversations
            or self.extended
            or self.messages
            or self.compacts
            or self.variables
            or self.summaries
        )


def conversation_uid(row: Any) -> str:
    """A conversation's identity across homes: the one it was imported with, else one derived
    from its interface, room, start and id (the same in every export of it)."""
    meta = row["metadata"]
    if isinstance(meta, str):
        meta = json.loads(meta or "{}")
    if isinstance(meta, dict) and isinstance(meta.get("uid"), str) and meta["uid"]:
        return meta["uid"]
    key = f"{row['interface']}\0{row['room_id']}\0{row['started_at']}\0{row['id']}"
    return "c" + hashlib.sha256(key.encode()).hexdigest()[:24]


# -- export --------------------------------------------------------------------------------


def dump(store: UserStore) -> dict[str, Any]:
    """Every row of the memory as dicts, read in one snapshot (a turn may be writing)."""
    conn = store.conn
    with db.transaction(conn, "DEFERRED"):
        convs = [dict(r) for r in conn.execute("SELECT * FROM conversations ORDER BY id")]
        by_id = {c["id"]: c for c in convs}
        for c in convs:
            c["metadata"] = json.loads(c["metadata"])
            c.update(messages=[], compacts=[], participants=[], topics=[])
        for r in conn.execute(
            "SELECT * FROM conversation_messages ORDER BY conversation_id, message_number"
        ):
            m = dict(r)
            m["author_is_bot"], m["is_anchor"] = bool(m["author_is_bot"]), bool(m["is_anchor"])
            m["metadata"] = json.loads(m["metadata"])
            by_id[m["conversation_id"]]["messages"].append(m)
        for r in conn.execute(
            "SELECT * FROM conversation_compacts ORDER BY conversation_id, from_message"
        ):
            cp = dict(r)
            cp["topics"] = json.loads(cp["topics"])
            by_id[cp["conversation_id"]]["compacts"].append(cp)
        for r in conn.execute(
            "SELECT * FROM participants ORDER BY conversation_id, first_seen, author_id"
        ):
            p = dict(r)
            p["is_bot"] = bool(p["is_bot"])
            by_id[p["conversation_id"]]["participants"].append(p)
        links: dict[tuple[int, int], list[int]] = {}
        for r in conn.execute(
            "SELECT m.conversation_id, tm.topic_id, tm.message_id FROM topic_messages tm"
            " JOIN conversation_messages m ON m.message_id = tm.message_id ORDER BY "
            "tm.message_id"
        ):
            links.setdefault((r[0], r[1]), []).append(r[2])
        for r in conn.execute(
            "SELECT ct.conversation_id, ct.topic_id, t.name, ct.mention_count, ct.first_seen, "
            "ct.last_seen"
            " FROM conversation_topics ct JOIN topics t ON t.id = ct.topic_id"
            " ORDER BY ct.conversation_id, ct.mention_count DESC, t.name"
        ):
            by_id[r[0]]["topics"].append(
                {
                    "name": r[2],
                    "mentions": r[3],
                    "first_seen": r[4],
                    "last_seen": r[5],
                    "messages": links.get((r[0], r[1]), []),
                }
            )
        variables = [dict(r) for r in conn.execute("SELECT * FROM personal_variables ORDER BY key")]
        # a fact's earlier values (its id is this home's own, and says nothing elsewhere)
        history = [
            {k: r[k] for k in r if k != "id"}
            for r in conn.execute("SELECT * FROM fact_history ORDER BY id")
        ]
        summaries = []
        for r in conn.execute("SELECT * FROM cross_conversation_summaries ORDER BY id"):
            s = dict(r)
            s["source_conversations"] = json.loads(s["source_conversations"])
            s["covers"] = json.loads(s.get("covers") or "{}")
            summaries.append(s)
    for c in convs:
        c["uid"] = conversation_uid(c)
    return {
        "conversations": convs,
        "variables": variables,
        "fact_history": history,
        "cross_summaries": summaries,
    }
