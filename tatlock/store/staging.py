"""Where an import keeps what it has read and checked, before any of it reaches the memory.

A private temporary SQLite database (``sqlite3.connect("")``: SQLite deletes it when it is
closed, and unlinks it at once, so a killed process leaves nothing behind). Records go in as
the file is read, one at a time, so checking a file of any size holds one record in memory;
its unique keys find an id the file gives twice. The import then writes from here into the
memory in short transactions (see ``tatlock.store.archive``), and records which of our ids
each of the file's message ids became.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from tatlock.errors import StoreError

T = TypeVar("T")

SCHEMA = """
CREATE TABLE convs (idx INTEGER PRIMARY KEY, uid TEXT NOT NULL UNIQUE, file_id INTEGER NOT NULL UNIQUE,
                    head TEXT NOT NULL, messages INTEGER NOT NULL, ours INTEGER, first INTEGER, hidden INTEGER);
CREATE TABLE msgs (file_id INTEGER PRIMARY KEY, conv INTEGER NOT NULL, number INTEGER NOT NULL,
                   role TEXT NOT NULL, author_id TEXT NOT NULL, author_name TEXT NOT NULL, author_is_bot INTEGER,
                   is_anchor INTEGER, reply_to INTEGER, content TEXT NOT NULL, timestamp TEXT NOT NULL,
                   metadata TEXT NOT NULL, ours INTEGER, unlinked INTEGER, UNIQUE (conv, number));
CREATE TABLE compacts (conv INTEGER NOT NULL, pos INTEGER NOT NULL, from_message INTEGER NOT NULL,
                       up_to INTEGER NOT NULL, body TEXT NOT NULL, PRIMARY KEY (conv, pos));
CREATE TABLE topics (conv INTEGER NOT NULL, pos INTEGER NOT NULL, body TEXT NOT NULL, PRIMARY KEY (conv, pos));
CREATE TABLE variables (key TEXT PRIMARY KEY, pos INTEGER NOT NULL, body TEXT NOT NULL);
CREATE TABLE summaries (pos INTEGER PRIMARY KEY, body TEXT NOT NULL);
CREATE TABLE past_values (pos INTEGER PRIMARY KEY, body TEXT NOT NULL);
"""


class Duplicate(Exception):
    """The file gives one id twice: ``other`` is the conversation (index) that has it already."""

    def __init__(self, other: int | None = None):
        super().__init__(other)
        self.other = other


class Staging:
    def __init__(self) -> None:
        try:
            self.conn = sqlite3.connect("", isolation_level=None)
            self.conn.execute("PRAGMA journal_mode = OFF")
            self.conn.execute("PRAGMA synchronous = OFF")
            for statement in SCHEMA.split(";"):
                if statement.strip():
                    self.conn.execute(statement)
            self.conn.execute("BEGIN")  # one scratch transaction: nothing here needs to be durable
        except sqlite3.Error as exc:
            raise StoreError(
                f"cannot make a temporary database to check the file in ({exc})",
                hint="check that the temporary folder (TMPDIR) is writable and has room",
            ) from None

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> Staging:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- filling it while the file is read --------------------------------------------------

    def add_message(self, conv: int, m: dict[str, Any]) -> None:
        try:
            self.conn.execute(
                "INSERT INTO msgs (file_id, conv, number, role, author_id, author_name, "
                "author_is_bot, is_anchor,"
                " reply_to, content, timestamp, metadata) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
                "?)",
                (
                    m["message_id"],
                    conv,
                    m["message_number"],
                    m["role"],
                    m["author_id"],
                    m["author_name"],
                    int(m["author_is_bot"]),
                    int(m["is_anchor"]),
                    m["reply_to"],
                    m["content"],
                    m["timestamp"],
                    json.dumps(m["metadata"]),
                ),
            )
        except sqlite3.IntegrityError:
            row = self.conn.execute(
                "SELECT conv FROM msgs WHERE file_id = ?", (m["message_id"],)
            ).fetchone()
            raise Duplicate(row[0] if row else None) from None
        except sqlite3.Error as exc:
            raise _scratch_error(exc) from None

    def add_compact(self, conv: int, pos: int, cp: dict[str, Any]) -> None:
        self._insert(
            "INSERT INTO compacts (conv, pos, from_message, up_to, body) VALUES (?, ?, ?, ?, ?)",
            (conv, pos, cp["from_message"], cp["up_to_message"], json.dumps(cp)),
        )

    def add_topic(self, conv: int, pos: int, t: dict[str, Any]) -> None:
        self._insert(
            "INSERT INTO topics (conv, pos, body) VALUES (?, ?, ?)", (conv, pos, json.dumps(t))
        )

    def add_conversation(self, idx: int, head: dict[str, Any], messages: int) -> None:
        try:
            self.conn.execute(
                "INSERT INTO convs (idx, uid, file_id, head, messages) VALUES (?, ?, ?, ?, ?)",
                (idx, head["uid"], head["id"], json.dumps(head), messages),
            )
        except sqlite3.IntegrityError:
            raise Duplicate() from None
        except sqlite3.Error as exc:
            raise _scratch_error(exc) from None

    def add_variable(self, pos: int, v: dict[str, Any]) -> None:
        try:
            self.conn.execute(
                "INSERT INTO variables (key, pos, body) VALUES (?, ?, ?)",
                (v["key"], pos, json.dumps(v)),
            )
        except sqlite3.IntegrityError:
            raise Duplicate() from None
        except sqlite3.Error as exc:
            raise _scratch_error(exc) from None

    def add_past_value(self, pos: int, v: dict[str, Any]) -> None:
        self._insert("INSERT INTO past_values (pos, body) VALUES (?, ?)", (pos, json.dumps(v)))

    def add_summary(self, pos: int, s: dict[str, Any]) -> None:
        self._insert("INSERT INTO summaries (pos, body) VALUES (?, ?)", (pos, json.dumps(s)))

    def _insert(self, sql: str, args: tuple[Any, ...]) -> None:
        try:
            self.conn.execute(sql, args)
        except sqlite3.Error as exc:
            raise _scratch_error(exc) from None

    def compact_beyond(self, conv: int, messages: int) -> tuple[int, int, int] | None:
        """The first compact of ``conv`` that covers messages it does not have: (pos, from, up
        to)."""
        row = self.conn.execute(
            "SELECT pos, from_message, up_to FROM compacts WHERE conv = ? AND"
            " (from_message < 1 OR up_to > ? OR up_to < from_message) ORDER BY "
            "pos LIMIT 1",
            (conv, messages),
        ).fetchone()
        return (row[0], row[1], row[2]) if row else None

    # -- reading it back to write the memory ----------------------------------------------------

    def conversations(self) -> Iterator[tuple[int, dict[str, Any], int, int | None, int, bool]]:
        """(index, head, message count, our id, first number to add, hidden) of every
        conversation, in the file's order, read one at a time (the last three as ``set_plan``
        left them)."""
        last = -1
        while True:
            row = self.conn.execute(
                "SELECT idx, head, messages, ours, first, hidden FROM convs WHERE idx > "
                "?"
                " ORDER BY idx LIMIT 1",
                (last,),
            ).fetchone()
            if row is None:
                return
            last = row[0]
            yield row[0], json.loads(row[1]), row[2], row[3], row[4] or 1, bool(row[5])

    def set_plan(self, idx: int, ours: int | None, first: int, hidden: bool) -> None:
        """Which of our conversations the file's is (None: a new one), from which message on it
        adds, and whether it is still hidden as being imported."""
        self.conn.execute(
            "UPDATE convs SET ours = ?, first = ?, hidden = ? WHERE idx = ?",
            (ours, first, int(hidden), idx),
        )

    def conversation_ours(self, file_id: int) -> int | None:
        row = self.conn.execute("SELECT ours FROM convs WHERE file_id = ?", (file_id,)).fetchone()
        return row[0] if row else None

    def totals(self) -> tuple[int, int]:
        """(conversations, messages) in the file."""
        convs = self.conn.execute("SELECT count(*) FROM convs").fetchone()[0]
        return convs, self.conn.execute("SELECT count(*) FROM msgs").fetchone()[0]

    def messages(self, conv: int, first: int, count: int) -> list[dict[str, Any]]:
        """Up to ``count`` of the conversation's messages, from number ``first`` on (``metadata``
        as JSON text)."""
        cur = self.conn.execute(
            "SELECT file_id AS message_id, number AS message_number, role, author_id, author_name, "
            "author_is_bot,"
            " is_anchor, reply_to, content, timestamp, metadata FROM msgs WHERE conv = ? AND number "
            ">= ?"
            " ORDER BY number LIMIT ?",
            (conv, first, count),
        )
        names = [d[0] for d in cur.description]
        return [dict(zip(names, r, strict=True)) for r in cur]

    def set_ours(self, pairs: list[tuple[int, int]]) -> None:
        """Record which of our message ids each (file id, our id) became."""
        self.conn.executemany(
            "UPDATE msgs SET ours = ? WHERE file_id = ?", [(o, f) for f, o in pairs]
        )

    def ours(self, file_id: int, *, conv: int | None = None) -> int | None:
        """Our id of the file's message ``file_id`` (None until it is written; and when ``conv``
        is given, None for a message of another conversation)."""
        row = self.conn.execute(
            "SELECT ours, conv FROM msgs WHERE file_id = ?", (file_id,)
        ).fetchone()
        return row[0] if row and (conv is None or row[1] == conv) else None

    def mark_unlinked(self, file_ids: list[int]) -> None:
        """Messages written before the message they reply to: linked at the end."""
        self.conn.executemany(
            "UPDATE msgs SET unlinked = 1 WHERE file_id = ?", [(f,) for f in file_ids]
        )

    def unlinked(self) -> Iterator[tuple[int, int]]:
        """(our message, the file's message it replies to) for every message marked unlinked."""
        return self._pages(
            "SELECT file_id, ours, reply_to FROM msgs WHERE unlinked = 1 AND file_id > "
            "?"
            " ORDER BY file_id LIMIT 200",
            (),
            lambda r: (r[1], r[2]),
        )

    def compacts(self, conv: int) -> Iterator[dict[str, Any]]:
        """The conversation's compacts in the order they cover its messages."""
        last = (-(2**63), -1)
        while True:
            rows = self.conn.execute(
                "SELECT from_message, pos, body FROM compacts WHERE conv = ? "
                "AND"
                " (from_message, pos) > (?, ?) ORDER BY from_message, pos "
                "LIMIT 100",
                (conv, *last),
            ).fetchall()
            if not rows:
                return
            last = (rows[-1][0], rows[-1][1])
            yield from (json.loads(r[2]) for r in rows)

    def topics(self, conv: int) -> Iterator[dict[str, Any]]:
        return self._pages(
            "SELECT pos, body FROM topics WHERE conv = ? AND pos > ? ORDER BY pos LIMIT 100",
            (conv,),
            lambda r: json.loads(r[1]),
        )

    def variables(self) -> Iterator[dict[str, Any]]:
        return self._pages(
            "SELECT pos, body FROM variables WHERE pos > ? ORDER BY pos LIMIT 100",
            (),
            lambda r: json.loads(r[1]),
        )

    def past_values(self) -> Iterator[dict[str, Any]]:
        return self._pages(
            "SELECT pos, body FROM past_values WHERE pos > ? ORDER BY pos LIMIT 100",
            (),
            lambda r: json.loads(r[1]),
        )

    def summaries(self) -> Iterator[dict[str, Any]]:
        return self._pages(
            "SELECT pos, body FROM summaries WHERE pos > ? ORDER BY pos LIMIT 100",
            (),
            lambda r: json.loads(r[1]),
        )

    def _pages(self, sql: str, args: tuple[Any, ...], make: Callable[[Any], T]) -> Iterator[T]:
        """Rows a page at a time (``sql`` takes ``args`` and then the last key seen, the first
        column), so that what is read back never has to be in memory at once."""
        last = -(2**63)
        while True:
            rows = self.conn.execute(sql, (*args, last)).fetchall()
            if not rows:
                return
            last = rows[-1][0]
            yield from (make(r) for r in rows)


def _scratch_error(exc: sqlite3.Error) -> StoreError:
    if "full" in str(exc):
        return StoreError(
            "the temporary folder is full: there is no room to check the file in",
            hint="free some space there, or point TMPDIR at a folder with room",
        )
    return StoreError(f"the temporary database that checks the file failed ({exc})")
