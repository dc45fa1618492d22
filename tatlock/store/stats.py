"""How much one user's memory holds: the counts behind ``tatlock memory stats`` and the
``conversation_stats`` tool, in one place so both report the same figures."""

from __future__ import annotations

from dataclasses import dataclass

from tatlock.store.user import UserStore

__all__ = ["MemoryStats", "memory_stats"]


@dataclass(frozen=True)
class MemoryStats:
    conversations: int
    messages: int
    compacts: int
    compacted_messages: int  # messages covered by compacts (compacts never overlap)
    first_started: str | None  # when the oldest conversation started (None: no conversation)
    last_activity: str | None  # the latest activity in any conversation


def memory_stats(store: UserStore) -> MemoryStats:
    """Counts and first/last dates of the user's memory.

    Plain reads, no transaction: figures a message apart do no harm in a report."""
    conn = store.conn
    convs, first, last = conn.execute(
        "SELECT count(*), min(started_at), max(last_activity) FROM conversations"
    ).fetchone()
    messages = conn.execute("SELECT count(*) FROM conversation_messages").fetchone()[0]
    compacts, covered = conn.execute(
        "SELECT count(*), coalesce(sum(up_to_message - from_message + 1), 0) FROM "
        "conversation_compacts"
    ).fetchone()
    return MemoryStats(convs, messages, compacts, covered, first, last)
