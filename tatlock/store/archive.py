"""A whole memory as plain rows (export) and those rows written back (import), in one transaction.

Import is idempotent: a conversation is known by its ``uid`` (kept in its metadata once
imported, else derived from where and when it started and its id), a message by its number
within its conversation. What is already here is skipped, what is newer is appended, and a
copy that has diverged from ours is refused. Ids are kept where they are free (a fresh home
gets the very same ids, so search results read the same), and remapped otherwise: reply
links, topic links, a variable's source message and a summary's sources follow the new ids.
Either everything in a file is written or nothing is.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from dataclasses import dataclass
from typing import Any

from tatlock.errors import StoreError
from tatlock.store import db
from tatlock.store.user import UserStore

__all__ = ["Imported", "conversation_uid", "dump", "load"]


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

    @property
    def changed(self) -> bool:
        return bool(self.conversations or self.extended or self.messages or self.compacts or self.variables
                    or self.summaries)


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
        for r in conn.execute("SELECT * FROM conversation_messages ORDER BY conversation_id, message_number"):
            m = dict(r)
            m["author_is_bot"], m["is_anchor"] = bool(m["author_is_bot"]), bool(m["is_anchor"])
            m["metadata"] = json.loads(m["metadata"])
            by_id[m["conversation_id"]]["messages"].append(m)
        for r in conn.execute("SELECT * FROM conversation_compacts ORDER BY conversation_id, from_message"):
            cp = dict(r)
            cp["topics"] = json.loads(cp["topics"])
            by_id[cp["conversation_id"]]["compacts"].append(cp)
        for r in conn.execute("SELECT * FROM participants ORDER BY conversation_id, first_seen, author_id"):
            p = dict(r)
            p["is_bot"] = bool(p["is_bot"])
            by_id[p["conversation_id"]]["participants"].append(p)
        links: dict[tuple[int, int], list[int]] = {}
        for r in conn.execute(
                "SELECT m.conversation_id, tm.topic_id, tm.message_id FROM topic_messages tm"
                " JOIN conversation_messages m ON m.message_id = tm.message_id ORDER BY tm.message_id"):
            links.setdefault((r[0], r[1]), []).append(r[2])
        for r in conn.execute(
                "SELECT ct.conversation_id, ct.topic_id, t.name, ct.mention_count, ct.first_seen, ct.last_seen"
                " FROM conversation_topics ct JOIN topics t ON t.id = ct.topic_id"
                " ORDER BY ct.conversation_id, ct.mention_count DESC, t.name"):
            by_id[r[0]]["topics"].append({"name": r[2], "mentions": r[3], "first_seen": r[4], "last_seen": r[5],
                                          "messages": links.get((r[0], r[1]), [])})
        variables = [dict(r) for r in conn.execute("SELECT * FROM personal_variables ORDER BY key")]
        summaries = []
        for r in conn.execute("SELECT * FROM cross_conversation_summaries ORDER BY id"):
            s = dict(r)
            s["source_conversations"] = json.loads(s["source_conversations"])
            s["covers"] = json.loads(s.get("covers") or "{}")
            summaries.append(s)
    for c in convs:
        c["uid"] = conversation_uid(c)
    return {"conversations": convs, "variables": variables, "cross_summaries": summaries}


# -- import --------------------------------------------------------------------------------


def load(store: UserStore, conversations: list[dict[str, Any]], variables: list[dict[str, Any]],
         summaries: list[dict[str, Any]]) -> Imported:
    """Write checked export records (see ``tatlock.services.archive``) in one transaction.
    Raises StoreError, writing nothing, when a conversation here has diverged from the file's."""
    got = Imported()
    conn = store.conn
    with db.transaction(conn):
        here = {conversation_uid(r): r for r in conn.execute("SELECT * FROM conversations")}
        conv_ids: dict[int, int] = {}  # the file's conversation id -> ours
        msg_ids: dict[int, int] = {}  # the file's message id -> ours
        for c in conversations:
            _conversation(conn, c, here.get(c["uid"]), conv_ids, msg_ids, got)
        for v in variables:
            got.variables += _variable(conn, v, msg_ids)
        for s in summaries:
            got.summaries += _summary(conn, s, conv_ids)
    return got


def _free(conn: sqlite3.Connection, table: str, column: str, value: Any) -> Any:
    """``value`` when no row of ``table`` uses it as ``column``, else None (SQLite picks one)."""
    if not db.fits(value):
        return None
    taken = conn.execute(f"SELECT 1 FROM {table} WHERE {column} = ?", (value,)).fetchone()
    return None if taken else value


def _conversation(conn: sqlite3.Connection, c: dict[str, Any], row: Any, conv_ids: dict[int, int],
                  msg_ids: dict[int, int], got: Imported) -> None:
    if row is None:
        meta = {**c["metadata"], "uid": c["uid"]}
        cur = conn.execute(
            "INSERT INTO conversations (id, title, room_id, interface, started_at, last_activity, metadata)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (_free(conn, "conversations", "id", c["id"]), c["title"], c["room_id"], c["interface"], c["started_at"],
             c["last_activity"], json.dumps(meta)))
        cid, existing = int(cur.lastrowid or 0), {}
        got.conversations += 1
    else:
        cid = row["id"]
        existing = {r["message_number"]: r for r in conn.execute(
            "SELECT message_id, message_number, author_id, content FROM conversation_messages"
            " WHERE conversation_id = ?", (cid,))}
    conv_ids[c["id"]] = cid
    new = []
    for m in c["messages"]:
        mine = existing.get(m["message_number"])
        if mine is None:
            new.append(m)
        elif mine["author_id"] != m["author_id"] or mine["content"] != m["content"]:
            raise StoreError(f"conversation {c['id']} in the file and conversation {cid} here differ at message "
                             f"#{m['message_number']}: the two copies have diverged")
        else:
            msg_ids[m["message_id"]] = mine["message_id"]
    if existing and new and new[0]["message_number"] != max(existing) + 1:
        raise StoreError(f"conversation {c['id']} in the file skips messages after #{max(existing)} of "
                         f"conversation {cid} here")
    for m in new:
        cur = conn.execute(
            "INSERT INTO conversation_messages (message_id, conversation_id, message_number, role, author_id,"
            " author_name, author_is_bot, is_anchor, content, timestamp, metadata)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (_free(conn, "conversation_messages", "message_id", m["message_id"]), cid, m["message_number"],
             m["role"], m["author_id"], m["author_name"], int(m["author_is_bot"]), int(m["is_anchor"]),
             m["content"], m["timestamp"], json.dumps(m["metadata"])))
        msg_ids[m["message_id"]] = int(cur.lastrowid or 0)
    for m in new:  # links last: a reply may point at any message of the file
        if m["reply_to"] is not None and m["reply_to"] in msg_ids:
            conn.execute("UPDATE conversation_messages SET reply_to = ? WHERE message_id = ?",
                         (msg_ids[m["reply_to"]], msg_ids[m["message_id"]]))
    got.messages += len(new)
    added = _compacts(conn, cid, c["compacts"])
    got.compacts += added
    archived = _archive(conn, cid, c["metadata"].get("archive")) if row is not None else False
    _topics(conn, cid, c["topics"], msg_ids)
    if row is not None:
        if new or added or archived:
            got.extended += 1
        else:
            got.present += 1
    if new or row is None:
        _counters(conn, cid, c["title"], c["last_activity"])


def _compacts(conn: sqlite3.Connection, cid: int, compacts: list[dict[str, Any]]) -> int:
    """Append the file's compacts that continue ours (a block cut differently is left out)."""
    covered = conn.execute("SELECT coalesce(max(up_to_message), 0) FROM conversation_compacts"
                           " WHERE conversation_id = ?", (cid,)).fetchone()[0]
    added = 0
    for cp in sorted(compacts, key=lambda x: x["from_message"]):
        if cp["from_message"] != covered + 1:
            continue
        conn.execute(
            "INSERT INTO conversation_compacts (id, conversation_id, from_message, up_to_message, summary, topics,"
            " model, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (_free(conn, "conversation_compacts", "id", cp["id"]), cid, cp["from_message"], cp["up_to_message"],
             cp["summary"], json.dumps(cp["topics"]), cp["model"], cp["created_at"]))
        covered = cp["up_to_message"]
        added += 1
    if added:
        conn.execute("UPDATE conversations SET compacted_up_to = ? WHERE id = ?", (covered, cid))
    return added


def _archive(conn: sqlite3.Connection, cid: int, archive: Any) -> bool:
    """Take the file's archive when it reaches further than ours."""
    if not isinstance(archive, dict) or not archive.get("summary"):
        return False
    meta = json.loads(conn.execute("SELECT metadata FROM conversations WHERE id = ?", (cid,)).fetchone()[0])
    mine = meta.get("archive") if isinstance(meta.get("archive"), dict) else {}
    if int(archive.get("up_to_message") or 0) <= int(mine.get("up_to_message") or 0):
        return False
    meta["archive"] = archive
    conn.execute("UPDATE conversations SET metadata = ? WHERE id = ?", (json.dumps(meta), cid))
    return True


def _topics(conn: sqlite3.Connection, cid: int, topics: list[dict[str, Any]], msg_ids: dict[int, int]) -> None:
    for t in topics:
        conn.execute("INSERT INTO topics (name) VALUES (?) ON CONFLICT(name) DO NOTHING", (t["name"],))
        tid = conn.execute("SELECT id FROM topics WHERE name = ?", (t["name"],)).fetchone()[0]
        # max/min, not sums: importing the same file again changes nothing
        conn.execute(
            "INSERT INTO conversation_topics (conversation_id, topic_id, mention_count, first_seen, last_seen)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT(conversation_id, topic_id) DO UPDATE SET"
            " mention_count = max(mention_count, excluded.mention_count),"
            " first_seen = min(first_seen, excluded.first_seen), last_seen = max(last_seen, excluded.last_seen)",
            (cid, tid, t["mentions"], t["first_seen"], t["last_seen"]))
        for mid in t["messages"]:
            if mid in msg_ids:
                conn.execute("INSERT OR IGNORE INTO topic_messages (topic_id, message_id) VALUES (?, ?)",
                             (tid, msg_ids[mid]))


def _counters(conn: sqlite3.Connection, cid: int, title: str | None, last_activity: str) -> None:
    """What add_message keeps up to date, rebuilt from the messages: counts, activity, participants."""
    conn.execute(
        "UPDATE conversations SET message_count = (SELECT coalesce(max(message_number), 0) FROM"
        " conversation_messages WHERE conversation_id = ?1), last_activity = max(last_activity, ?2,"
        " coalesce((SELECT max(timestamp) FROM conversation_messages WHERE conversation_id = ?1), '')),"
        " title = coalesce(title, ?3) WHERE id = ?1", (cid, last_activity, title))
    conn.execute("DELETE FROM participants WHERE conversation_id = ?", (cid,))
    conn.execute(
        "INSERT INTO participants (conversation_id, author_id, name, is_bot, first_seen, last_seen, message_count)"
        " SELECT m.conversation_id, m.author_id,"
        " (SELECT l.author_name FROM conversation_messages l WHERE l.conversation_id = m.conversation_id"
        "  AND l.author_id = m.author_id ORDER BY l.message_number DESC LIMIT 1),"
        " (SELECT l.author_is_bot FROM conversation_messages l WHERE l.conversation_id = m.conversation_id"
        "  AND l.author_id = m.author_id ORDER BY l.message_number DESC LIMIT 1),"
        " min(m.timestamp), max(m.timestamp), count(*)"
        " FROM conversation_messages m WHERE m.conversation_id = ? GROUP BY m.author_id", (cid,))


def _variable(conn: sqlite3.Connection, v: dict[str, Any], msg_ids: dict[int, int]) -> int:
    """Add a personal variable we lack, or take the file's when it was stated later than ours."""
    source = msg_ids.get(v["source_message_id"]) if v["source_message_id"] is not None else None
    mine = conn.execute("SELECT value, updated_at FROM personal_variables WHERE key = ?", (v["key"],)).fetchone()
    if mine is not None and (mine["value"] == v["value"] or mine["updated_at"] >= v["updated_at"]):
        return 0
    conn.execute(
        "INSERT INTO personal_variables (key, value, updated_at, author_id, source_message_id) VALUES (?, ?, ?, ?, ?)"
        " ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at,"
        " author_id = excluded.author_id, source_message_id = excluded.source_message_id",
        (v["key"], v["value"], v["updated_at"], v["author_id"], source))
    return 1


def _summary(conn: sqlite3.Connection, s: dict[str, Any], conv_ids: dict[int, int]) -> int:
    """Add a summary of recent conversations unless the same one is here already."""
    cid = conv_ids.get(s["conversation_id"]) if s["conversation_id"] is not None else None
    if conn.execute("SELECT 1 FROM cross_conversation_summaries WHERE conversation_id IS ? AND created_at = ?"
                    " AND summary = ?", (cid, s["created_at"], s["summary"])).fetchone():
        return 0
    sources = [conv_ids[i] for i in s["source_conversations"] if i in conv_ids]
    # what a prepared briefing covers, by the conversations' ids here
    covers = {str(conv_ids[int(k)]): n for k, n in (s.get("covers") or {}).items()
              if str(k).isdigit() and int(k) in conv_ids}
    conn.execute("INSERT INTO cross_conversation_summaries (conversation_id, summary, source_conversations, model,"
                 " created_at, covers, how) VALUES (?, ?, ?, ?, ?, ?, ?)",
                 (cid, s["summary"], json.dumps(sources), s["model"], s["created_at"], json.dumps(covers),
                  s.get("how") or "model"))
    return 1
