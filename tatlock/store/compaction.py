"""The rows behind compaction (``tatlock.memory.compaction`` keeps the summarising).

Compaction is a three-step protocol between processes sharing one user database: *claim*
the next block, summarise it outside any transaction, *commit* the compact only if the
claim is still ours and nobody compacted the block meanwhile. Every step that must be
atomic is one function here running one ``BEGIN IMMEDIATE`` transaction, so the protocol's
guarantees (no gap, no overlap, no partial row) are kept by the store whoever calls it.

A claim is a row of ``compaction_claims`` (one per conversation) naming its owner, pid and
host; it blocks others while it has not expired and its process may still be alive. The
archive (old compacts merged into one summary) lives in ``conversations.metadata["archive"]``.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import secrets
import socket
import sqlite3
from typing import Any

from tatlock.errors import StoreError
from tatlock.store import db
from tatlock.store.user import Compact, UserStore
from tatlock.timeutil import iso, parse, utcnow

__all__ = [
    "HOST",
    "ClaimLost",
    "Conflict",
    "archive_of",
    "claim_archive",
    "claim_is_live",
    "claim_next_block",
    "commit_archive",
    "commit_compact",
    "due_conversations",
    "holds",
    "latest_activity",
    "new_owner",
    "next_block",
    "release",
]

HOST = socket.gethostname()


class Conflict(StoreError):
    """Another process changed what this one was about to write; nothing was written."""


class ClaimLost(Conflict):
    """The claim is no longer ours (it expired and another process took it over)."""


def new_owner() -> str:
    """A claim owner unique to this call in this process: ``host:pid:random``."""
    return f"{HOST}:{os.getpid()}:{secrets.token_hex(4)}"


# -- blocks --------------------------------------------------------------------------------


def _covered(conn: sqlite3.Connection, conversation_id: int) -> int:
    return conn.execute(
        "SELECT coalesce(max(up_to_message), 0) FROM conversation_compacts WHERE conversation_id = "
        "?",
        (conversation_id,),
    ).fetchone()[0]


def _next_block(
    conn: sqlite3.Connection, conversation_id: int, interval: int
) -> tuple[int, int] | None:
    if interval < 1:
        raise ValueError(f"compaction interval must be at least 1, not {interval}")
    covered = _covered(conn, conversation_id)
    last = conn.execute(
        "SELECT coalesce(max(message_number), 0) FROM conversation_messages WHERE conversation_id = "
        "?",
        (conversation_id,),
    ).fetchone()[0]
    if last >= covered + interval:
        return covered + 1, covered + interval
    return None


def next_block(store: UserStore, conversation_id: int, interval: int) -> tuple[int, int] | None:
    """The next block to compact, ``(covered+1, covered+interval)``, once all its messages exist;
    ``covered`` is where the last compact ends (0: none yet)."""
    return _next_block(store.conn, conversation_id, interval)


def due_conversations(store: UserStore, interval: int, *, limit: int = 50) -> list[int]:
    """Conversations with a block due (``interval`` messages past the last compact), the most
    recently active first: what housekeeping has to summarise."""
    return [
        r[0]
        for r in store.conn.execute(
            "SELECT id FROM conversations WHERE message_count - compacted_up_to >= ?"
            " ORDER BY last_activity DESC, id DESC LIMIT ?",
            (max(1, interval), limit),
        )
    ]


def latest_activity(store: UserStore) -> tuple[int, str | None, str | None]:
    """(id, role, timestamp) of the newest message in the user's memory, from any process;
    (0, None, None) when there is none. Housekeeping watches it to make way for a turn."""
    row = store.conn.execute(
        "SELECT message_id, role, timestamp FROM conversation_messages"
        " ORDER BY message_id DESC LIMIT 1"
    ).fetchone()
    return (int(row[0]), row[1], row[2]) if row else (0, None, None)


# -- claims --------------------------------------------------------------------------------


def _pid_alive(pid: int) -> bool:
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # exists, belongs to someone else
        return True
    except OSError:
        return False
    try:  # a process killed whose parent has gone is a zombie until someone reaps it (a container
        with open(f"/proc/{pid}/stat", "rb") as fh:  # without an init may never): it works no more
            return fh.read().rsplit(b")", 1)[-1].split()[0] != b"Z"
    except (OSError, IndexError):  # no /proc (macOS): the signal's answer stands
        return True


def claim_is_live(row: Any, now: dt.datetime | None = None) -> bool:
    """A claim blocks others while it has not expired and its process may still be working."""
    now = now or utcnow()
    try:
        expired = parse(row["expires_at"]) <= now
    except (TypeError, ValueError):
        expired = True
    if expired:
        return False
    if row["host"] != HOST:
        return True  # cannot see the process: trust the expiry
    return _pid_alive(int(row["pid"]))


def _claim(
    conn: sqlite3.Connection, conversation_id: int, owner: str, first: int, last: int, ttl: float
) -> str | None:
    """Take the conversation's claim for ``[first, last]``; None, or why not (inside a
    transaction)."""
    row = conn.execute(
        "SELECT * FROM compaction_claims WHERE conversation_id = ?", (conversation_id,)
    ).fetchone()
    if row is not None and row["owner"] != owner and claim_is_live(row):
        return (
            f"messages {row['from_message']}-{row['up_to_message']} are being summarised by "
            f"{row['owner']}"
        )
    now = utcnow()
    conn.execute(
        "INSERT OR REPLACE INTO compaction_claims"
        " (conversation_id, from_message, up_to_message, owner, pid, host, claimed_at, expires_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (
            conversation_id,
            first,
            last,
            owner,
            os.getpid(),
            HOST,
            iso(now),
            iso(now + dt.timedelta(seconds=ttl)),
        ),
    )
    return None


def _holds(conn: sqlite3.Connection, conversation_id: int, owner: str) -> bool:
    row = conn.execute(
        "SELECT owner FROM compaction_claims WHERE conversation_id = ?", (conversation_id,)
    ).fetchone()
    return row is not None and row[0] == owner


def claim_next_block(
    store: UserStore, conversation_id: int, interval: int, owner: str, ttl: float
) -> tuple[tuple[int, int] | None, str | None]:
    """In one transaction: find the next block and claim the conversation for it.

    Returns ``(block, None)`` when claimed, ``(None, None)`` when nothing is due, and
    ``(block, why)`` when another live process holds the claim."""
    conn = store.conn
    with db.transaction(conn):
        block = _next_block(conn, conversation_id, interval)
        if block is None:
            return None, None
        return block, _claim(conn, conversation_id, owner, block[0], block[1], ttl)


def claim_archive(
    store: UserStore,
    conversation_id: int,
    owner: str,
    first: int,
    last: int,
    ttl: float,
    *,
    archived_up_to: int,
) -> str | None:
    """Claim the conversation for merging messages ``first``-``last`` into the archive, if the
    archive still ends at ``archived_up_to`` (what the merge was planned from).

    None when claimed; otherwise why not (nothing is written)."""
    conn = store.conn
    with db.transaction(conn):
        if _archived_up_to(_archive(conn, conversation_id)) != archived_up_to:
            return "the archive was rebuilt meanwhile by another process"
        return _claim(conn, conversation_id, owner, first, last, ttl)


def holds(store: UserStore, conversation_id: int, owner: str) -> bool:
    """Whether ``owner`` holds the conversation's claim."""
    return _holds(store.conn, conversation_id, owner)


def release(store: UserStore, conversation_id: int, owner: str) -> None:
    """Drop the claim if it is ``owner``'s (someone else's claim is left alone)."""
    store.conn.execute(
        "DELETE FROM compaction_claims WHERE conversation_id = ? AND owner = ?",
        (conversation_id, owner),
    )


# -- commits -------------------------------------------------------------------------------


def commit_compact(
    store: UserStore,
    conversation_id: int,
    owner: str,
    first: int,
    last: int,
    *,
    summary: str,
    topics: list[str],
    model: str,
) -> Compact:
    """Store the compact of ``[first, last]``, advance ``compacted_up_to`` and release the
    claim, all in one transaction, if the claim is still ``owner``'s and the last compact
    still ends at ``first - 1``. Raises ClaimLost or Conflict (writing nothing) otherwise."""
    conn = store.conn
    with db.transaction(conn):
        if not _holds(conn, conversation_id, owner):
            raise ClaimLost("another process took over the claim")
        if _covered(conn, conversation_id) != first - 1:
            raise Conflict(f"messages {first}-{last} were compacted meanwhile by another process")
        cur = conn.execute(
            "INSERT INTO conversation_compacts"
            " (conversation_id, from_message, up_to_message, summary, topics, model, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (conversation_id, first, last, summary, json.dumps(topics), model, iso()),
        )
        conn.execute(
            "UPDATE conversations SET compacted_up_to = ? WHERE id = ?", (last, conversation_id)
        )
        conn.execute(
            "DELETE FROM compaction_claims WHERE conversation_id = ? AND owner = ?",
            (conversation_id, owner),
        )
        row = conn.execute(
            "SELECT * FROM conversation_compacts WHERE id = ?", (cur.lastrowid,)
        ).fetchone()
    return Compact(
        row["id"],
        row["conversation_id"],
        row["from_message"],
        row["up_to_message"],
        row["summary"],
        json.loads(row["topics"]),
        row["model"],
        row["created_at"],
    )


# -- archive -------------------------------------------------------------------------------


def _archive(conn: sqlite3.Connection, conversation_id: int) -> dict[str, Any]:
    row = conn.execute(
        "SELECT metadata FROM conversations WHERE id = ?", (conversation_id,)
    ).fetchone()
    if row is None:
        return {}
    archive = json.loads(row[0]).get("archive")
    return archive if isinstance(archive, dict) else {}


def _archived_up_to(archive: dict[str, Any]) -> int:
    return int(archive.get("up_to_message", 0)) if archive.get("summary") else 0


def archive_of(store: UserStore, conversation_id: int) -> dict[str, Any]:
    """The conversation's archive (``up_to_message``, ``summary``, ...); {} when it has none
    (or the conversation is gone)."""
    return _archive(store.conn, conversation_id)


def commit_archive(
    store: UserStore,
    conversation_id: int,
    owner: str,
    archive: dict[str, Any],
    *,
    archived_up_to: int,
) -> None:
    """Replace the archive with ``archive`` and release the claim, in one transaction, if the
    claim is still ``owner``'s and the stored archive still ends at ``archived_up_to``.
    Raises ClaimLost or Conflict (writing nothing) otherwise."""
    conn = store.conn
    with db.transaction(conn):
        if not _holds(conn, conversation_id, owner):
            raise ClaimLost("another process took over the claim")
        if _archived_up_to(_archive(conn, conversation_id)) != archived_up_to:
            raise Conflict("the archive was rebuilt meanwhile by another process")
        # what UserStore.set_conversation_metadata does, but under the claim check
        row = conn.execute(
            "SELECT metadata FROM conversations WHERE id = ?", (conversation_id,)
        ).fetchone()
        meta = json.loads(row[0])
        meta["archive"] = archive
        conn.execute(
            "UPDATE conversations SET metadata = ? WHERE id = ?",
            (json.dumps(meta), conversation_id),
        )
        conn.execute(
            "DELETE FROM compaction_claims WHERE conversation_id = ? AND owner = ?",
            (conversation_id, owner),
        )
