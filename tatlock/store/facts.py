"""Facts in a user's memory: the current value of each (``personal_variables``) and every value a
later statement replaced (``fact_history``). See migration 0003 for the columns.

One function keeps a value whoever states it (``tatlock var set``, the
``set_personal_variable`` tool, the extractor): the value it replaces moves to the history in
the same transaction, so "a contradicted fact is superseded, not duplicated", and forgetting the
conversation a value was learnt in restores the value it had replaced (:func:`forget_learnt_in`).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from tatlock.errors import UsageError
from tatlock.store import db
from tatlock.store.user_records import Variable
from tatlock.timeutil import iso

__all__ = [
    "MAX_VAR_KEY",
    "MAX_VAR_VALUE",
    "Kept",
    "PastValue",
    "all_current",
    "forget_learnt_in",
    "history",
    "keep",
    "remove",
    "variable",
]

# personal variables go into prompts and tool results: a fact, not a document
MAX_VAR_KEY = 64
MAX_VAR_VALUE = 1000


@dataclass(frozen=True)
class PastValue:
    """A value a later statement replaced (``superseded`` False: the same value, said again)."""

    id: int
    key: str
    value: str
    about: str
    attribute: str | None
    stated_at: str
    author_id: str | None
    author_name: str | None
    source_message_id: int | None
    origin: str
    replaced_at: str
    superseded: bool


@dataclass(frozen=True)
class Kept:
    """What keeping a value did: "new", "same" (said again) or "changed" (``before`` replaced)."""

    fact: Variable
    status: str
    before: str | None = None


@contextmanager
def _joined(conn: sqlite3.Connection) -> Iterator[None]:
    """A transaction of its own, or the caller's when one is open (a turn keeps several facts at
    once)."""
    if conn.in_transaction:
        yield
        return
    with db.transaction(conn):
        yield


def variable(row: sqlite3.Row) -> Variable:
    return Variable(
        row["key"],
        row["value"],
        row["updated_at"],
        row["author_id"],
        row["source_message_id"],
        about=row["about"],
        attribute=row["attribute"],
        author_name=row["author_name"],
        origin=row["origin"],
        statement=row["statement"],
    )


def _past(row: sqlite3.Row) -> PastValue:
    return PastValue(
        row["id"],
        row["key"],
        row["value"],
        row["about"],
        row["attribute"],
        row["stated_at"],
        row["author_id"],
        row["author_name"],
        row["source_message_id"],
        row["origin"],
        row["replaced_at"],
        bool(row["superseded"]),
    )


def check_value(value: str) -> str:
    value = str(value).strip()
    if not value:
        raise UsageError("the value is empty")
    if len(value) > MAX_VAR_VALUE or "\x00" in value:
        raise UsageError(f"a personal variable holds at most {MAX_VAR_VALUE} characters of text")
    return value


def keep(
    conn: sqlite3.Connection,
    key: str,
    value: str,
    *,
    about: str = "owner",
    attribute: str | None = None,
    author_id: str | None = None,
    author_name: str | None = None,
    source_message_id: int | None = None,
    origin: str = "hand",
    statement: str | None = None,
    when: str | None = None,
) -> Kept:
    """Make ``value`` the current value of ``key`` (a name from ``var_key``); the value it
    replaces goes to the history. One transaction (joins the caller's if one is open)."""
    value = check_value(value)
    now = when or iso()
    with _joined(conn):
        old = conn.execute("SELECT * FROM personal_variables WHERE key = ?", (key,)).fetchone()
        status, before = "new", None
        if old is not None:
            same = old["value"].casefold() == value.casefold()
            status, before = ("same", None) if same else ("changed", old["value"])
            conn.execute(
                "INSERT INTO fact_history (key, value, about, attribute, stated_at, author_id, "
                "author_name,"
                " source_message_id, origin, statement, replaced_at, superseded)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    key,
                    old["value"],
                    old["about"],
                    old["attribute"],
                    old["updated_at"],
                    old["author_id"],
                    old["author_name"],
                    old["source_message_id"],
                    old["origin"],
                    old["statement"],
                    now,
                    int(not same),
                ),
            )
        conn.execute(
            "INSERT INTO personal_variables (key, value, updated_at, author_id, source_message_id, "
            "about, attribute,"
            " author_name, origin, statement) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = "
            "excluded.updated_at,"
            " author_id = excluded.author_id, source_message_id = excluded.source_message_id,"
            " about = excluded.about, attribute = excluded.attribute, author_name = "
            "excluded.author_name,"
            " origin = excluded.origin, statement = excluded.statement",
            (
                key,
                value,
                now,
                author_id,
                source_message_id,
                about or "owner",
                attribute or key.replace("_", " "),
                author_name,
                origin,
                statement,
            ),
        )
        row = conn.execute("SELECT * FROM personal_variables WHERE key = ?", (key,)).fetchone()
    return Kept(variable(row), status, before)


def history(
    conn: sqlite3.Connection, key: str | None = None, *, superseded_only: bool = False
) -> list[PastValue]:
    """Earlier values, newest first (of one key, or of all)."""
    sql, args = "SELECT * FROM fact_history", []
    where = []
    if key is not None:
        where.append("key = ?")
        args.append(key)
    if superseded_only:
        where.append("superseded = 1")
    if where:
        sql += " WHERE " + " AND ".join(where)
    return [_past(r) for r in conn.execute(sql + " ORDER BY replaced_at DESC, id DESC", args)]


def remove(conn: sqlite3.Connection, key: str) -> bool:
    """Forget a fact: its value and every earlier one."""
    with _joined(conn):
        gone = conn.execute("DELETE FROM personal_variables WHERE key = ?", (key,)).rowcount > 0
        gone = conn.execute("DELETE FROM fact_history WHERE key = ?", (key,)).rowcount > 0 or gone
    return gone


def all_current(conn: sqlite3.Connection) -> list[Variable]:
    return [
        variable(r) for r in conn.execute("SELECT * FROM personal_variables ORDER BY about, key")
    ]


def forget_learnt_in(conn: sqlite3.Connection, conversation_id: int) -> tuple[list[str], list[str]]:
    """Inside the caller's transaction, before the conversation's messages go: every fact whose
    current value was learnt in it is forgotten, and where an earlier value learnt elsewhere
    (or set by hand) was replaced by it, that value is current again. Values in the history
    learnt in it go too. Returns (keys forgotten, keys restored to an earlier value)."""
    rows = conn.execute(
        "SELECT key FROM personal_variables WHERE source_message_id IN"
        " (SELECT message_id FROM conversation_messages WHERE conversation_id = ?)",
        (conversation_id,),
    ).fetchall()
    conn.execute(
        "DELETE FROM fact_history WHERE source_message_id IN"
        " (SELECT message_id FROM conversation_messages WHERE conversation_id = ?)",
        (conversation_id,),
    )
    forgotten, restored = [], []
    for (key,) in rows:
        conn.execute("DELETE FROM personal_variables WHERE key = ?", (key,))
        last = conn.execute(
            "SELECT * FROM fact_history WHERE key = ? ORDER BY replaced_at DESC, id DESC LIMIT 1",
            (key,),
        ).fetchone()
        if last is None:
            forgotten.append(key)
            continue
        conn.execute(
            "INSERT INTO personal_variables (key, value, updated_at, author_id, source_message_id, "
            "about, attribute,"
            " author_name, origin, statement) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                key,
                last["value"],
                last["stated_at"],
                last["author_id"],
                last["source_message_id"],
                last["about"],
                last["attribute"],
                last["author_name"],
                last["origin"],
                last["statement"],
            ),
        )
        conn.execute("DELETE FROM fact_history WHERE id = ?", (last["id"],))
        restored.append(key)
    return forgotten, restored
