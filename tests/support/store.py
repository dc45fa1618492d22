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
