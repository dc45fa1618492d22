"""Reading a user's database straight from its file, as a test checks what was stored."""

from __future__ import annotations

import sqlite3
from pathlib import Path


def stored_messages(home: Path, user: str = "tester") -> list[sqlite3.Row]:
    """Every message of a user's database, in the order they were stored."""
    conn = sqlite3.connect(home / "users" / f"{user}_longterm.db")
    conn.row_factory = sqlite3.Row
    try:
        return conn.execute("SELECT * FROM conversation_messages ORDER BY message_id").fetchall()
    finally:
        conn.close()


def user_db(home: Path, user: str = "tester") -> Path:
    """The file of a user's memory under a test's TATLOCK_HOME."""
    return home / "users" / f"{user}_longterm.db"


def rows(db: Path, sql: str, args: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    """The rows of one query on a database file, as tuples; none when the file is not there
    (nothing was stored), without making it."""
    if not db.exists():
        return []
    conn = sqlite3.connect(db)
    try:
        return [tuple(row) for row in conn.execute(sql, args).fetchall()]
    finally:
        conn.close()
