"""``users/<name>_longterm.db``: one user's private long-term memory.

Messages are stored once, numbered contiguously from 1 within their conversation inside a
``BEGIN IMMEDIATE`` transaction (so two writers can never take the same number), with
their author (the Anchor, a guest, a bot, or the assistant). Participants, counters and
the full-text index follow in the same transaction (the index through triggers).
"""

from __future__ import annotations

import dataclasses
import json
import re
import sqlite3
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from tatlock.config import Paths, validate_username
from tatlock.errors import NotFound, UsageError
from tatlock.store import db, facts
from tatlock.store.connections import ThreadConnections
from tatlock.store.facts import MAX_VAR_KEY, MAX_VAR_VALUE, Kept, PastValue
from tatlock.store.user_records import (
    Author,
    Compact,
    Conversation,
    Forgotten,
    Message,
    Participant,
    Variable,
    _compact,
    _conversation,
    _message,
)
from tatlock.text import valid_text
from tatlock.timeutil import iso

__all__ = [
    "MAX_VAR_KEY",
    "MAX_VAR_VALUE",
    "Author",
    "Compact",
    "Conversation",
    "Forgotten",
    "Kept",
    "Message",
    "Participant",
    "PastValue",
    "UserStore",
    "Variable",
]


class UserStore:
    def __init__(self, conns: ThreadConnections, path: Path, username: str):
        self._conns = conns
        self.path = path
        self.username = username

    @property
    def conn(self) -> sqlite3.Connection:
        """This thread's connection (one per thread, never shared)."""
        return self._conns.get()

    @classmethod
    def open(cls, paths: Paths, username: str) -> UserStore:
        validate_username(username)  # before any file is touched
        return cls.open_path(paths.user_db(username), username)  # connect makes the folder, private

    @classmethod
    def open_path(cls, path: Path, username: str) -> UserStore:
        conn = db.connect(path)
        db.migrate(conn, "user")
        return cls(ThreadConnections(path, db.connect, conn), path, username)

    def close(self) -> None:
        self._conns.close()

    # -- conversations ---------------------------------------------------------------------

    def create_conversation(
        self,
        room_id: str,
        interface: str,
        *,
        title: str | None = None,
        metadata: dict[str, Any] | None = None,
        started_at: str | None = None,
    ) -> Conversation:
        now = started_at or iso()
        cur = self.conn.execute(
            "INSERT INTO conversations (title, room_id, interface, started_at, last_activity, "
            "metadata)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (title, room_id, interface, now, now, json.dumps(metadata or {})),
        )
        return self.conversation(int(cur.lastrowid or 0))

    def conversation(self, conversation_id: int) -> Conversation:
        row = None
        if db.fits(conversation_id):
            row = self.conn.execute(
                "SELECT * FROM conversations WHERE id = ?", (conversation_id,)
            ).fetchone()
        if row is None:
            raise NotFound(
                f"no conversation {conversation_id} for user {self.username!r}", kind="conversation"
            )
        return _conversation(row)

    def latest_conversation(self, interface: str, room_id: str) -> Conversation | None:
        row = self.conn.execute(
            "SELECT * FROM conversations WHERE interface = ? AND room_id = ?"
            " ORDER BY last_activity DESC, id DESC LIMIT 1",
            (interface, room_id),
        ).fetchone()
        return _conversation(row) if row else None

    def conversations(
        self, limit: int | None = None, *, exclude: Iterable[int] = ()
    ) -> list[Conversation]:
        excluded = list(exclude)
        sql = "SELECT * FROM conversations"
        if excluded:
            sql += f" WHERE id NOT IN ({','.join('?' * len(excluded))})"
        sql += " ORDER BY last_activity DESC, id DESC"
        if limit is not None:
            sql += f" LIMIT {int(limit)}"
        return [_conversation(r) for r in self.conn.execute(sql, excluded)]

    def conversations_in_room(
        self, room_id: str, interface: str | None = None
    ) -> list[Conversation]:
        """A room's conversations (most recent first), of one interface or all."""
        sql, args = "SELECT * FROM conversations WHERE room_id = ?", [room_id]
        if interface is not None:
            sql += " AND interface = ?"
            args.append(interface)
        return [
            _conversation(r)
            for r in self.conn.execute(sql + " ORDER BY last_activity DESC, id DESC", args)
        ]

    def rename_conversation(self, conversation_id: int, title: str) -> Conversation:
        if (
            not db.fits(conversation_id)
            or self.conn.execute(
                "UPDATE conversations SET title = ? WHERE id = ?", (title, conversation_id)
            ).rowcount
            == 0
        ):
            self.conversation(conversation_id)  # raises NotFound
        return self.conversation(conversation_id)

    def delete_conversation(self, conversation_id: int) -> Conversation:
        return self.forget_conversation(conversation_id).conversation

    def forget_conversation(self, conversation_id: int) -> Forgotten:
        """Delete a conversation and everything derived from it, in one transaction: its
        messages, compacts, participants and topic links (cascades), the facts (personal
        variables) learnt only in it (a fact it corrected gets its earlier value back), topics
        nobody refers to any more, and the summaries of recent conversations that quoted it."""
        with db.transaction(self.conn):
            conv = self.conversation(conversation_id)
            learnt, restored = facts.forget_learnt_in(self.conn, conversation_id)
            # briefings that quoted it, and the one built for it (it only served this conversation)
            gone = self.conn.execute(
                "DELETE FROM cross_conversation_summaries WHERE conversation_id = ? OR EXISTS"
                " (SELECT 1 FROM json_each(source_conversations) WHERE value = ?)",
                (conversation_id, conversation_id),
            ).rowcount
            self.conn.execute("DELETE FROM conversations WHERE id = ?", (conversation_id,))
            self.conn.execute(
                "DELETE FROM topics WHERE id NOT IN (SELECT topic_id FROM conversation_topics)"
                " AND id NOT IN (SELECT topic_id FROM topic_messages)"
            )
        return Forgotten(conv, learnt, gone, restored)

    def set_conversation_metadata(self, conversation_id: int, **values: Any) -> None:
        with db.transaction(self.conn):
            row = self.conn.execute(
                "SELECT metadata FROM conversations WHERE id = ?", (conversation_id,)
            ).fetchone()
            meta = json.loads(row[0]) if row else {}
            meta.update(values)
            self.conn.execute(
                "UPDATE conversations SET metadata = ? WHERE id = ?",
                (json.dumps(meta), conversation_id),
            )

    def data_version(self) -> int:
        """A number that changes whenever another connection (another process, another
        thread's connection) commits to this database; this thread's own writes leave it."""
        return int(self.conn.execute("PRAGMA data_version").fetchone()[0])

    # -- messages --------------------------------------------------------------------------

    def add_message(
        self,
        conversation_id: int,
        role: str,
        content: str,
        author: Author,
        *,
        reply_to: int | None = None,
        metadata: dict[str, Any] | None = None,
        timestamp: str | None = None,
    ) -> Message:
        """Store one message with the next number of its conversation."""
        with db.transaction(self.conn):
            message_id = self.insert_message(
                conversation_id,
                role,
                content,
                author,
                reply_to=reply_to,
                metadata=metadata,
                timestamp=timestamp,
            )
        return self.message(message_id)

    def insert_message(
        self,
        conversation_id: int,
        role: str,
        content: str,
        author: Author,
        *,
        reply_to: int | None = None,
        metadata: dict[str, Any] | None = None,
        timestamp: str | None = None,
    ) -> int:
        """``add_message`` inside the caller's ``BEGIN IMMEDIATE`` transaction (so that several
        messages, a query and its reply, are numbered and stored together); returns the new id."""
        now = timestamp or iso()
        # a lone surrogate (from a model, a file, a command line) cannot be stored as UTF-8
        content, name = valid_text(content), valid_text(author.name)
        if name is not author.name:
            author = dataclasses.replace(author, name=name)
        row = None
        if db.fits(conversation_id):
            row = self.conn.execute(
                "SELECT message_count, title FROM conversations WHERE id = ?", (conversation_id,)
            ).fetchone()
        if row is None:
            raise NotFound(
                f"no conversation {conversation_id} for user {self.username!r}", kind="conversation"
            )
        number = self.conn.execute(
            "SELECT coalesce(max(message_number), 0) + 1 FROM conversation_messages WHERE "
            "conversation_id = ?",
            (conversation_id,),
        ).fetchone()[0]
        cur = self.conn.execute(
            "INSERT INTO conversation_messages (conversation_id, message_number, role, author_id,"
            " author_name, author_is_bot, is_anchor, reply_to, content, timestamp, metadata)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                conversation_id,
                number,
                role,
                author.id,
                author.name,
                int(author.is_bot),
                int(author.is_anchor),
                reply_to,
                content,
                now,
                json.dumps(metadata or {}),
            ),
        )
        title = row["title"]
        if title is None and role == "user":
            title = _title(content)
        self.conn.execute(
            "UPDATE conversations SET message_count = ?, last_activity = max(last_activity, ?), "
            "title = ?"
            " WHERE id = ?",
            (number, now, title, conversation_id),
        )
        self.conn.execute(
            "INSERT INTO participants"
            " (conversation_id, author_id, name, is_bot, first_seen, last_seen, message_count)"
            " VALUES (?, ?, ?, ?, ?, ?, 1)"
            " ON CONFLICT(conversation_id, author_id) DO UPDATE SET name = excluded.name,"
            " is_bot = excluded.is_bot, last_seen = max(last_seen, excluded.last_seen),"
            " message_count = message_count + 1",
            (conversation_id, author.id, author.name, int(author.is_bot), now, now),
        )
        return int(cur.lastrowid or 0)

    def message(self, message_id: int) -> Message:
        row = None
        if db.fits(message_id):
            row = self.conn.execute(
                "SELECT * FROM conversation_messages WHERE message_id = ?", (message_id,)
            ).fetchone()
        if row is None:
            raise NotFound(f"no message {message_id}", kind="message")
        return _message(row)

    def latest_messages(
        self, conversation_id: int, limit: int, *, before: int | None = None
    ) -> list[Message]:
        """The last ``limit`` messages (before message number ``before``), oldest first: a long
        conversation opens at its end and loads older pages on demand."""
        sql = "SELECT * FROM conversation_messages WHERE conversation_id = ?"
        args: list[Any] = [conversation_id]
        if before is not None:
            sql += " AND message_number < ?"
            args.append(before)
        rows = self.conn.execute(
            sql + " ORDER BY message_number DESC LIMIT ?", [*args, max(0, limit)]
        ).fetchall()
        return [_message(r) for r in reversed(rows)]

    def messages(
        self, conversation_id: int, first: int = 1, last: int | None = None
    ) -> list[Message]:
        sql = (
            "SELECT * FROM conversation_messages WHERE conversation_id = ? AND message_number >= ?"
        )
        args: list[Any] = [conversation_id, first]
        if last is not None:
            sql += " AND message_number <= ?"
            args.append(last)
        return [_message(r) for r in self.conn.execute(sql + " ORDER BY message_number", args)]

    def update_message_metadata(self, message_id: int, **values: Any) -> None:
        with db.transaction(self.conn):
            row = self.conn.execute(
                "SELECT metadata FROM conversation_messages WHERE message_id = ?", (message_id,)
            ).fetchone()
            if row is None:
                raise NotFound(f"no message {message_id}", kind="message")
            meta = json.loads(row[0])
            meta.update(values)
            self.conn.execute(
                "UPDATE conversation_messages SET metadata = ? WHERE message_id = ?",
                (json.dumps(meta), message_id),
            )

    def participants(self, conversation_id: int) -> list[Participant]:
        return [
            Participant(
                r["conversation_id"],
                r["author_id"],
                r["name"],
                bool(r["is_bot"]),
                r["first_seen"],
                r["last_seen"],
                r["message_count"],
            )
            for r in self.conn.execute(
                "SELECT * FROM participants WHERE conversation_id = ? ORDER BY first_seen, "
                "author_id",
                (conversation_id,),
            )
        ]

    # -- compacts --------------------------------------------------------------------------

    def compacts(self, conversation_id: int, *, after: int = 0) -> list[Compact]:
        """The conversation's compacts in order; ``after``: only those ending past that message."""
        return [
            _compact(r)
            for r in self.conn.execute(
                "SELECT * FROM conversation_compacts WHERE conversation_id = ? AND up_to_message > "
                "?"
                " ORDER BY from_message",
                (conversation_id, after),
            )
        ]

    def compacted_up_to(self, conversation_id: int) -> int:
        return self.conn.execute(
            "SELECT coalesce(max(up_to_message), 0) FROM conversation_compacts WHERE "
            "conversation_id = ?",
            (conversation_id,),
        ).fetchone()[0]

    # -- personal variables: the facts tatlock keeps (store/facts.py) --------------------------

    def get_var(self, key: str) -> str | None:
        row = self.conn.execute(
            "SELECT value FROM personal_variables WHERE key = ?", (var_key(key),)
        ).fetchone()
        return row[0] if row else None

    def set_var(
        self,
        key: str,
        value: str,
        *,
        author_id: str | None = None,
        source_message_id: int | None = None,
        **fact: Any,
    ) -> Kept:
        """Keep ``value`` for ``key``; the value it replaces is kept as history (see
        store/facts.py)."""
        origin = fact.pop("origin", None) or ("tool" if source_message_id is not None else "hand")
        return facts.keep(
            self.conn,
            var_key(key),
            value,
            author_id=author_id,
            source_message_id=source_message_id,
            origin=origin,
            **fact,
        )

    def unset_var(self, key: str) -> bool:
        return facts.remove(self.conn, var_key(key))

    def var(self, key: str) -> Variable | None:
        row = self.conn.execute(
            "SELECT * FROM personal_variables WHERE key = ?", (var_key(key),)
        ).fetchone()
        return facts.variable(row) if row else None

    def vars(self) -> list[Variable]:
        return [
            facts.variable(r)
            for r in self.conn.execute("SELECT * FROM personal_variables ORDER BY key")
        ]

    def var_history(
        self, key: str | None = None, *, superseded_only: bool = False
    ) -> list[PastValue]:
        return facts.history(
            self.conn, var_key(key) if key is not None else None, superseded_only=superseded_only
        )

    # -- topics ----------------------------------------------------------------------------

    def add_topics(
        self, conversation_id: int, topics: Iterable[str], *, message_id: int | None = None
    ) -> None:
        names = _clean_topics(topics)
        if not names:
            return
        now = iso()
        with db.transaction(self.conn):
            for name in names:
                self.conn.execute(
                    "INSERT INTO topics (name) VALUES (?) ON CONFLICT(name) DO NOTHING", (name,)
                )
                tid = self.conn.execute("SELECT id FROM topics WHERE name = ?", (name,)).fetchone()[
                    0
                ]
                self.conn.execute(
                    "INSERT INTO conversation_topics (conversation_id, topic_id, mention_count, "
                    "first_seen, last_seen)"
                    " VALUES (?, ?, 1, ?, ?) ON CONFLICT(conversation_id, topic_id) DO UPDATE SET"
                    " mention_count = mention_count + 1, last_seen = excluded.last_seen",
                    (conversation_id, tid, now, now),
                )
                if message_id is not None:
                    self.conn.execute(
                        "INSERT OR IGNORE INTO topic_messages (topic_id, message_id) VALUES (?, ?)",
                        (tid, message_id),
                    )

    def topics(self, conversation_id: int | None = None) -> list[sqlite3.Row]:
        if conversation_id is None:
            return self.conn.execute(
                "SELECT t.name, sum(ct.mention_count) AS mentions, count(*) AS conversations,"
                " max(ct.last_seen) AS last_seen FROM topics t JOIN conversation_topics ct ON "
                "ct.topic_id = t.id"
                " GROUP BY t.id ORDER BY mentions DESC, t.name"
            ).fetchall()
        return self.conn.execute(
            "SELECT t.name, ct.mention_count AS mentions, ct.last_seen FROM topics t"
            " JOIN conversation_topics ct ON ct.topic_id = t.id WHERE ct.conversation_id = ?"
            " ORDER BY ct.mention_count DESC, t.name",
            (conversation_id,),
        ).fetchall()


def var_key(key: str) -> str:
    """A personal variable's name as the store keeps it; UsageError when it cannot be one."""
    given = str(key)
    key = given.strip().lower().replace(" ", "_")
    if not key:
        raise UsageError("the variable name is empty")
    if len(key) > MAX_VAR_KEY or not re.fullmatch(r"[\w.-]+", key):
        shown = repr(given) if len(given) <= 40 else repr(given[:37]) + "..."
        raise UsageError(
            f"{shown} is not a variable name: use at most {MAX_VAR_KEY} letters, digits, '_', '-' "
            "or '.' (a space is read as '_')"
        )
    return key


def _clean_topics(topics: Iterable[str]) -> list[str]:
    seen: dict[str, str] = {}
    for t in topics or ():
        if not isinstance(t, str):
            continue
        name = " ".join(t.strip().strip("#").split()).lower()[:60]
        # a topic is a short phrase: not a sentence, a question, or a small model's babble
        if (
            not re.fullmatch(r"[\w][\w '&./+-]*", name)
            or len(name.split()) > 4
            or re.search(r"(.{3,})\1\1", name)
        ):
            continue
        if name and name not in seen:
            seen[name] = name
    return list(seen)[:8]


def _title(content: str) -> str:
    line = " ".join(content.split())
    return line if len(line) <= 60 else line[:57].rstrip() + "..."
