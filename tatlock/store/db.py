"""SQLite connections and numbered migrations.

Every database is opened the same way: autocommit mode (``isolation_level=None``) so that
transactions are explicit (``BEGIN IMMEDIATE`` for writes that must not race), WAL for
concurrent readers, foreign keys on, and a busy timeout so a second process waits
instead of failing.

Schema versions live in ``PRAGMA user_version``; migrations are the numbered ``.sql``
files in ``migrations/<kind>/`` (``0001_init.sql``, ``0002_...``), applied in order,
each in its own transaction together with the version bump.
"""

from __future__ import annotations

import contextlib
import re
import sqlite3
from importlib import resources
from pathlib import Path
from typing import Iterator

BUSY_TIMEOUT_MS = 10_000


from tatlock.errors import StoreError  # noqa: E402  (re-exported)


def migrations(kind: str) -> list[tuple[int, str, str]]:
    """(version, name, sql) for each migration of ``kind`` ("system" or "user"), in order."""
    folder = resources.files("tatlock.store") / "migrations" / kind
    out = []
    for entry in folder.iterdir():
        m = re.fullmatch(r"(\d{4})_(\w+)\.sql", entry.name)
        if m:
            out.append((int(m.group(1)), m.group(2), entry.read_text(encoding="utf-8")))
    out.sort()
    versions = [v for v, _, _ in out]
    if versions != list(range(1, len(out) + 1)):
        raise RuntimeError(f"migrations for {kind} are not numbered 1..n: {versions}")
    return out


def latest_version(kind: str) -> int:
    return len(migrations(kind))


def connect(path: Path | str, *, readonly: bool = False) -> sqlite3.Connection:
    try:
        if readonly:
            conn = sqlite3.connect(
                f"file:{path}?mode=ro", uri=True, isolation_level=None, check_same_thread=False
            )
        else:
            conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        conn.row_factory = sqlite3.Row
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        conn.execute("PRAGMA foreign_keys = ON")
        if not readonly:
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = NORMAL")
    except sqlite3.Error as exc:
        raise StoreError(f"cannot open database {path}: {exc}") from None
    return conn


def migrate(conn: sqlite3.Connection, kind: str, *, target: int | None = None) -> int:
    """Bring ``conn`` up to ``target`` (default: latest). Returns the new version."""
    steps = migrations(kind)
    target = len(steps) if target is None else target
    current = conn.execute("PRAGMA user_version").fetchone()[0]
    if current > len(steps):
        raise StoreError(
            f"this database has schema version {current}, newer than this tatlock knows "
            f"({len(steps)}): upgrade tatlock"
        )
    for version, _name, sql in steps:
        if version <= current or version > target:
            continue
        # executescript would COMMIT first; run statements inside our own transaction
        with transaction(conn):
            for statement in split_sql(sql):
                conn.execute(statement)
            conn.execute(f"PRAGMA user_version = {version}")
        current = version
    return current


def split_sql(script: str) -> list[str]:
    """Split a migration into statements (trigger bodies keep their inner semicolons)."""
    out, buf = [], ""
    for line in script.splitlines(keepends=True):
        if line.strip().startswith("--") and not buf.strip():
            continue
        buf += line
        if sqlite3.complete_statement(buf):
            if buf.strip():
                out.append(buf.strip())
            buf = ""
    if buf.strip():
        out.append(buf.strip())
    return out


@contextlib.contextmanager
def transaction(conn: sqlite3.Connection, mode: str = "IMMEDIATE") -> Iterator[sqlite3.Connection]:
    """``BEGIN IMMEDIATE`` ... ``COMMIT``, rolled back on any exception."""
    conn.execute(f"BEGIN {mode}")
    try:
        yield conn
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    else:
        conn.execute("COMMIT")


def fits(value: object) -> bool:
    """True when ``value`` is an integer SQLite can hold (an id of 99999999999999999999 from a
    command line is simply not found, instead of an OverflowError)."""
    return isinstance(value, int) and -(2**63) <= value < 2**63
