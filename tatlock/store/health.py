"""Checks of a database file's health, for `tatlock doctor` and the TUI's status."""

from __future__ import annotations

import sqlite3
from pathlib import Path


def quick_check(path: Path) -> str | None:
    """None when the database at ``path`` is sound, else what is wrong (one line).

    Opened read-only, so a check never changes or creates anything."""
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        return f"cannot open: {exc}"
    try:
        rows = [r[0] for r in conn.execute("PRAGMA quick_check").fetchall()]
    except sqlite3.DatabaseError as exc:
        return str(exc)
    finally:
        conn.close()
    return None if rows == ["ok"] else "; ".join(str(r) for r in rows[:3])
