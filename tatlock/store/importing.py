"""A checked memory export written into the memory (``tatlock memory import``).

Import is idempotent: a conversation is known by its ``uid`` (see
``tatlock.store.archive.conversation_uid``), a message by its number within its
conversation. What is already here is skipped, what is newer is appended, and a copy that has
diverged from ours is refused. Ids are kept where they are free (a fresh home gets the very
same ids, so search results read the same), and remapped otherwise: reply links, topic
links, a variable's source message and a summary's sources follow the new ids.

The file has been read and checked in full into a staging database first
(``tatlock.store.staging``), and :func:`plan` compares it with the memory before anything is
written, so a refused file writes nothing. :func:`write` then writes in short transactions
(each holds the write lock for at most ``HOLD`` seconds, then leaves ``PAUSE`` for others), so
a turn in another process waits a fraction of a second, never the whole import. A new
conversation is written under the interface ``import`` (no room's "latest conversation" can
be it) and moved to its own room in the transaction that completes it. Should the import stop
half way (a full disk, Ctrl-C, a kill), what was written is whole and consistent, and
importing the same file again finishes it.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable, Iterable
from typing import Any

from tatlock.errors import StoreError
from tatlock.store import db, facts
from tatlock.store.archive import Imported, conversation_uid
from tatlock.store.staging import Staging
from tatlock.store.user import UserStore

__all__ = ["IMPORTING", "plan", "write"]

HOLD = 0.3  # seconds one import transaction may hold the write lock
# then the lock is left free this long: SQLite's busy handler retries every 100 ms at most
PAUSE = 0.12
IMPORTING = "import"  # the interface of a conversation still being imported
BATCH = 250  # messages read from the staging database at a time


def plan(store: UserStore, staging: Staging) -> int:
    """Match the file's conversations with ours (kept in ``staging``) and check that every copy
    agrees with ours where both have a message, reading only. Returns how many messages the
    file adds. Raises StoreError for a diverged copy."""
    conn = store.conn
    here = {
        conversation_uid(r): (
            r["id"],
            r["interface"] == IMPORTING and bool(json.loads(r["metadata"]).get("importing")),
        )
        for r in conn.execute(
            "SELECT id, interface, room_id, started_at, metadata FROM conversations"
        )
    }
    total = 0
    for idx, head, count, _, _, _ in staging.conversations():
        ours, hidden = here.get(head["uid"], (None, True))
        first = 1 if ours is None else _agree(conn, staging, idx, head, count, ours) + 1
        staging.set_plan(idx, ours, first, hidden)
        total += max(0, count - first + 1)
    return total


def _agree(
    conn: sqlite3.Connection, staging: Staging, idx: int, head: dict[str, Any], count: int, cid: int
) -> int:
    """Compare the file's copy of a conversation with ours, in pieces; record which of our
    messages each of the file's is. Returns the last message number we have."""
    have = conn.execute(
        "SELECT coalesce(max(message_number), 0) FROM conversation_messages"
        " WHERE conversation_id = ?",
        (cid,),
    ).fetchone()[0]
    number = 1
    while number <= min(have, count):
        theirs = staging.messages(idx, number, 1000)
        ours = {
            r["message_number"]: r
            for r in conn.execute(
                "SELECT message_id, message_number, author_id, content FROM conversation_messages"
                " WHERE conversation_id = ? AND message_number BETWEEN ? AND ?",
                (cid, number, number + 999),
            )
        }
        pairs = []
        for their in theirs:
            if their["message_number"] > have:
                break
            mine = ours.get(their["message_number"])
            if (
                mine is None
                or mine["author_id"] != their["author_id"]
                or mine["content"] != their["content"]
            ):
                raise StoreError(
                    f"conversation {head['id']} in the file and conversation {cid} here differ at "
                    f"message #{their['message_number']}: the two copies have diverged"
                )
            pairs.append((their["message_id"], mine["message_id"]))
        staging.set_ours(pairs)
        number += 1000
    return int(have)


class _Writer:
    """One rolling write transaction: committed once it has held the lock ``HOLD`` seconds, the
    next one begun only ``PAUSE`` later, so that another process's writer gets its turn. Many
    small conversations share a transaction; a long one takes as many as it needs. What
    ``got`` counts moves in only when its transaction commits."""

    def __init__(
        self, conn: sqlite3.Connection, got: Imported, progress: Callable[[int], None] | None
    ):
        self.conn = conn
        self.got = got
        self.progress = progress
        self._began: float | None = None
        self._ended: float | None = None
        self._messages = 0  # written in the open transaction

    def open(self) -> bool:
        """Make sure a transaction is open; True when this began a new one."""
        if self._began is not None:
            return False
        if self._ended is not None:
            wait = PAUSE - (time.monotonic() - self._ended)
            if wait > 0:
                time.sleep(wait)
        self.conn.execute("BEGIN IMMEDIATE")
        self._began = time.monotonic()
        return True

    def wrote(self, messages: int) -> None:
        self._messages += messages
        if self._began is not None and time.monotonic() - self._began > HOLD:
            self.commit()

    def commit(self) -> None:
        if self._began is None:
            return
        self.conn.execute("COMMIT")
        self._began, self._ended = None, time.monotonic()
        self.got.messages += self._messages
        self.got.written += self._messages
        self._messages = 0
        if self.progress is not None:
            self.progress(self.got.written)

    def abort(self) -> None:
        """Roll back the open transaction (SQLite may have done so already, after a full disk)."""
        self._began = None
        if self.conn.in_transaction:
            self.conn.execute("ROLLBACK")

    def each(self, items: Iterable[Any], write: Callable[[Any], None]) -> None:
        for item in items:
            self.open()
            write(item)
            self.wrote(0)


def write(
    store: UserStore,
    staging: Staging,
    total: int,
    got: Imported,
    progress: Callable[[int], None] | None = None,
) -> Imported:
    """Write what ``plan`` found, in short transactions; ``got`` counts what is committed (so a
    caller can say how far a stopped import came). Raises StoreError (or KeyboardInterrupt)
    mid-way, leaving what was written whole."""
    w = _Writer(store.conn, got, progress)
    got.total = total
    try:
        for idx, head, count, ours, first, hidden in staging.conversations():
            _conversation(w, staging, idx, head, count, ours, first, hidden)
        w.each(staging.unlinked(), lambda p: _reply(w.conn, staging, p[0], p[1]))
        w.each(
            staging.variables(), lambda v: _count(got, "variables", _variable(w.conn, v, staging))
        )
        w.each(staging.past_values(), lambda v: _past_value(w.conn, v, staging))
        w.each(
            staging.summaries(), lambda s: _count(got, "summaries", _summary(w.conn, s, staging))
        )
        w.commit()
    except BaseException:
        w.abort()
        raise
    return got


def _count(got: Imported, name: str, n: int) -> None:
    setattr(got, name, getattr(got, name) + n)


def _conversation(
    w: _Writer,
    staging: Staging,
    idx: int,
    c: dict[str, Any],
    count: int,
    ours: int | None,
    first: int,
    hidden: bool,
) -> None:
    conn, got = w.conn, w.got
    w.open()
    if ours is None:
        meta = {**c["metadata"], "uid": c["uid"], "importing": True}
        cur = conn.execute(
            "INSERT INTO conversations (id, title, room_id, interface, started_at, last_activity, "
            "metadata)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                _free(conn, "conversations", "id", c["id"]),
                c["title"],
                c["uid"],
                IMPORTING,
                c["started_at"],
                c["started_at"],
                json.dumps(meta),
            ),
        )
        cid = int(cur.lastrowid or 0)
    else:
        cid = ours
    # our id, for the summaries that name this conversation
    staging.set_plan(idx, cid, first, hidden)
    number, checked = first, False
    while number <= count:
        if w.open() or not checked:  # a new transaction: has a turn written here meanwhile?
            have = conn.execute(
                "SELECT coalesce(max(message_number), 0) FROM conversation_messages"
                " WHERE conversation_id = ?",
                (cid,),
            ).fetchone()[0]
            if have != number - 1:
                raise StoreError(
                    f"conversation {cid} changed while it was imported (it has message "
                    f"#{have}, the import was at #{number - 1})"
                )
            checked = True
        batch = staging.messages(idx, number, BATCH)
        _messages(conn, staging, cid, batch)
        number += len(batch)
        w.wrote(len(batch))
    compacts = _Compacts(conn, cid)
    w.each(staging.compacts(idx), compacts.add)
    w.each(staging.topics(idx), lambda t: _topic(conn, cid, t, c, staging, idx))
    w.open()
    archived = _archive(conn, cid, c["metadata"].get("archive")) if not hidden else False
    if hidden:
        _publish(conn, cid, c)
        got.conversations += 1
    elif count >= first or compacts.added or archived:
        got.extended += 1
    else:
        got.present += 1
    got.compacts += compacts.added
    w.wrote(0)


def _free(conn: sqlite3.Connection, table: str, column: str, value: Any) -> Any:
    """``value`` when no row of ``table`` uses it as ``column``, else None (SQLite picks one)."""
    if not db.fits(value):
        return None
    taken = conn.execute(f"SELECT 1 FROM {table} WHERE {column} = ?", (value,)).fetchone()
    return None if taken else value


def _messages(
    conn: sqlite3.Connection, staging: Staging, cid: int, batch: list[dict[str, Any]]
) -> None:
    """Insert a run of messages with their reply links, participants and counters."""
    mine: dict[int, int] = {}
    unlinked: list[int] = []
    people: dict[str, list[Any]] = {}
    latest = ""
    for m in batch:
        target = m["reply_to"]
        reply = (mine.get(target) or staging.ours(target)) if target is not None else None
        cur = conn.execute(
            "INSERT INTO conversation_messages (message_id, conversation_id, message_number, role, "
            "author_id,"
            " author_name, author_is_bot, is_anchor, reply_to, content, timestamp, metadata)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                _free(conn, "conversation_messages", "message_id", m["message_id"]),
                cid,
                m["message_number"],
                m["role"],
                m["author_id"],
                m["author_name"],
                int(m["author_is_bot"]),
                int(m["is_anchor"]),
                reply,
                m["content"],
                m["timestamp"],
                m["metadata"],
            ),
        )
        ours = int(cur.lastrowid or 0)
        mine[m["message_id"]] = ours
        if target is not None and reply is None:
            unlinked.append(m["message_id"])  # a reply to a message further on in the file
        p = people.setdefault(
            m["author_id"],
            [m["author_name"], m["author_is_bot"], m["timestamp"], m["timestamp"], 0],
        )
        p[0], p[1] = m["author_name"], m["author_is_bot"]
        p[2], p[3], p[4] = min(p[2], m["timestamp"]), max(p[3], m["timestamp"]), p[4] + 1
        latest = max(latest, m["timestamp"])
    staging.set_ours(list(mine.items()))
    if unlinked:
        staging.mark_unlinked(unlinked)
    for author, (name, bot, seen_first, seen_last, n) in people.items():
        conn.execute(
            "INSERT INTO participants (conversation_id, author_id, name, is_bot, first_seen, "
            "last_seen, message_count)"
            " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(conversation_id, author_id) DO UPDATE SET"
            " name = excluded.name, is_bot = excluded.is_bot, first_seen = min(first_seen, "
            "excluded.first_seen),"
            " last_seen = max(last_seen, excluded.last_seen), message_count = message_count + "
            "excluded.message_count",
            (cid, author, name, int(bot), seen_first, seen_last, n),
        )
    conn.execute(
        "UPDATE conversations SET message_count = ?, last_activity = max(last_activity, ?) WHERE id "
        "= ?",
        (batch[-1]["message_number"], latest, cid),
    )


def _reply(conn: sqlite3.Connection, staging: Staging, ours: int, target: int) -> None:
    found = staging.ours(target)
    if found is not None:
        conn.execute(
            "UPDATE conversation_messages SET reply_to = ? WHERE message_id = ?", (found, ours)
        )


def _publish(conn: sqlite3.Connection, cid: int, c: dict[str, Any]) -> None:
    """A new conversation, complete, moves from the import's interface to its own room."""
    meta = json.loads(
        conn.execute("SELECT metadata FROM conversations WHERE id = ?", (cid,)).fetchone()[0]
    )
    meta.pop("importing", None)
    conn.execute(
        "UPDATE conversations SET room_id = ?, interface = ?, title = coalesce(title, ?),"
        " last_activity = max(last_activity, ?), metadata = ? WHERE id = ?",
        (c["room_id"], c["interface"], c["title"], c["last_activity"], json.dumps(meta), cid),
    )


class _Compacts:
    """Appends the file's compacts that continue ours, in order (a block cut differently is
    left out)."""

    def __init__(self, conn: sqlite3.Connection, cid: int):
        self.conn = conn
        self.cid = cid
        self.covered: int | None = None
        self.added = 0

    def add(self, cp: dict[str, Any]) -> None:
        conn = self.conn
        if self.covered is None:
            self.covered = conn.execute(
                "SELECT coalesce(max(up_to_message), 0) FROM "
                "conversation_compacts"
                " WHERE conversation_id = ?",
                (self.cid,),
            ).fetchone()[0]
        if cp["from_message"] != (self.covered or 0) + 1:
            return
        conn.execute(
            "INSERT INTO conversation_compacts (id, conversation_id, from_message, up_to_message, "
            "summary, topics,"
            " model, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                _free(conn, "conversation_compacts", "id", cp["id"]),
                self.cid,
                cp["from_message"],
                cp["up_to_message"],
                cp["summary"],
                json.dumps(cp["topics"]),
                cp["model"],
                cp["created_at"],
            ),
        )
        self.covered = cp["up_to_message"]
        self.added += 1
        conn.execute(
            "UPDATE conversations SET compacted_up_to = ? WHERE id = ?", (self.covered, self.cid)
        )


def _archive(conn: sqlite3.Connection, cid: int, archive: Any) -> bool:
    """Take the file's archive when it reaches further than ours."""
    if not isinstance(archive, dict) or not archive.get("summary"):
        return False
    meta = json.loads(
        conn.execute("SELECT metadata FROM conversations WHERE id = ?", (cid,)).fetchone()[0]
    )
    mine = meta.get("archive") if isinstance(meta.get("archive"), dict) else {}
    if int(archive.get("up_to_message") or 0) <= int(mine.get("up_to_message") or 0):
        return False
    meta["archive"] = archive
    conn.execute("UPDATE conversations SET metadata = ? WHERE id = ?", (json.dumps(meta), cid))
    return True


def _topic(
    conn: sqlite3.Connection,
    cid: int,
    t: dict[str, Any],
    c: dict[str, Any],
    staging: Staging,
    idx: int,
) -> None:
    first, last = t["first_seen"] or c["started_at"], t["last_seen"] or c["last_activity"]
    conn.execute("INSERT INTO topics (name) VALUES (?) ON CONFLICT(name) DO NOTHING", (t["name"],))
    tid = conn.execute("SELECT id FROM topics WHERE name = ?", (t["name"],)).fetchone()[0]
    # max/min, not sums: importing the same file again changes nothing
    conn.execute(
        "INSERT INTO conversation_topics (conversation_id, topic_id, mention_count, first_seen, "
        "last_seen)"
        " VALUES (?, ?, ?, ?, ?) ON CONFLICT(conversation_id, topic_id) DO UPDATE SET"
        " mention_count = max(mention_count, excluded.mention_count),"
        " first_seen = min(first_seen, excluded.first_seen), last_seen = max(last_seen, "
        "excluded.last_seen)",
        (cid, tid, t["mentions"], first, last),
    )
    for mid in t["messages"]:
        # a message of this conversation
        ours = staging.ours(mid, conv=idx) if db.fits(mid) else None
        if ours is not None:
            conn.execute(
                "INSERT OR IGNORE INTO topic_messages (topic_id, message_id) VALUES (?, ?)",
                (tid, ours),
            )


def _variable(conn: sqlite3.Connection, v: dict[str, Any], staging: Staging) -> int:
    """Add a fact we lack, or take the file's when it was stated later than ours (ours is then
    kept as its earlier value, as a correction keeps it)."""
    source = staging.ours(v["source_message_id"]) if v["source_message_id"] is not None else None
    mine = conn.execute(
        "SELECT value, updated_at FROM personal_variables WHERE key = ?", (v["key"],)
    ).fetchone()
    if mine is not None and (mine["value"] == v["value"] or mine["updated_at"] >= v["updated_at"]):
        return 0
    facts.keep(
        conn,
        v["key"],
        v["value"],
        about=v["about"],
        attribute=v["attribute"],
        author_id=v["author_id"],
        author_name=v["author_name"],
        source_message_id=source,
        origin=v["origin"],
        statement=v["statement"],
        when=v["updated_at"],
    )
    return 1


def _past_value(conn: sqlite3.Connection, v: dict[str, Any], staging: Staging) -> None:
    """Add a fact's earlier value unless it is here already."""
    source = staging.ours(v["source_message_id"]) if v["source_message_id"] is not None else None
    if conn.execute(
        "SELECT 1 FROM fact_history WHERE key = ? AND value = ? AND stated_at = ? AND replaced_at = "
        "?",
        (v["key"], v["value"], v["stated_at"], v["replaced_at"]),
    ).fetchone():
        return
    conn.execute(
        "INSERT INTO fact_history (key, value, about, attribute, stated_at, author_id, author_name,"
        " source_message_id, origin, statement, replaced_at, superseded) VALUES (?, ?, ?, ?, ?, ?, "
        "?, ?, ?, ?, ?, ?)",
        (
            v["key"],
            v["value"],
            v["about"],
            v["attribute"],
            v["stated_at"],
            v["author_id"],
            v["author_name"],
            source,
            v["origin"],
            v["statement"],
            v["replaced_at"],
            v["superseded"],
        ),
    )


def _summary(conn: sqlite3.Connection, s: dict[str, Any], staging: Staging) -> int:
    """Add a summary of recent conversations unless the same one is here already."""
    cid = (
        staging.conversation_ours(s["conversation_id"])
        if s["conversation_id"] is not None
        else None
    )
    if conn.execute(
        "SELECT 1 FROM cross_conversation_summaries WHERE conversation_id IS ? AND created_at = "
        "?"
        " AND summary = ?",
        (cid, s["created_at"], s["summary"]),
    ).fetchone():
        return 0
    found = (
        staging.conversation_ours(i) if db.fits(i) else None for i in s["source_conversations"]
    )
    sources = [i for i in found if i is not None]
    # what a prepared briefing covers, by the conversations' ids here
    mapped = (
        (staging.conversation_ours(int(k)), n)
        for k, n in (s.get("covers") or {}).items()
        if str(k).isdigit() and db.fits(int(k))
    )
    covers = {str(i): n for i, n in mapped if i is not None}
    conn.execute(
        "INSERT INTO cross_conversation_summaries (conversation_id, summary, source_conversations, "
        "model,"
        " created_at, covers, how) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (
            cid,
            s["summary"],
            json.dumps(sources),
            s["model"],
            s["created_at"],
            json.dumps(covers),
            s.get("how") or "model",
        ),
    )
    return 1
