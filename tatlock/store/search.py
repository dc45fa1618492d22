"""The queries behind memory search (``tatlock.memory.search`` keeps the ranking).

Search ranks in Python from per-word scores, so the database only answers small, plain
questions: the BM25 score of one FTS5 expression over messages or compacts (within a
filter), a few columns of given messages, the messages next to given ones, texts,
the latest messages matching a filter, and who wrote anything at all. Keeping them
here keeps every SQL statement in the store layer and lets the ranking be read without
any SQL in the way.

The ``match`` arguments are FTS5 expressions built by ``memory.search`` from quoted words;
nothing a user typed reaches FTS5 unquoted. Filters are built here (``message_filter``,
``compact_filter``) because they are SQL fragments; ``memory.search`` only passes them on.
Rows come back in the database's order: the ranking breaks ties by that order, so a
change here can move results (``scripts/bench locomo`` shows it).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, NamedTuple

from tatlock.store.user import UserStore

__all__ = [
    "CompactRow",
    "Filter",
    "MessageRef",
    "compact_filter",
    "compact_rows",
    "compact_scores",
    "message_refs",
    "message_texts",
    "neighbour_refs",
    "participant_names",
    "recent_messages",
    "topic_name",
    "within",
    "word_scores",
]


class MessageRef(NamedTuple):
    """Where a message sits and who wrote it (no text: most candidates never need it)."""

    message_id: int
    conversation_id: int
    message_number: int
    author_name: str
    role: str
    timestamp: str


class CompactRow(NamedTuple):
    id: int
    conversation_id: int
    from_message: int
    up_to_message: int
    summary: str
    created_at: str
    first_timestamp: str | None  # of the first message it covers (None: those messages are gone)


@dataclass(frozen=True)
class Filter:
    """A WHERE fragment and its arguments; false when it filters nothing."""

    sql: str = ""
    args: tuple[Any, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.sql)


def _tuples(store: UserStore, sql: str, args: tuple[Any, ...]) -> list[tuple]:
    """Rows as plain tuples (no ``sqlite3.Row`` per row: search reads hundreds per question)."""
    cur = store.conn.cursor()
    cur.row_factory = None
    return cur.execute(sql, args).fetchall()


_new = tuple.__new__  # MessageRef from a plain tuple without a Python-level call per row

_MSG_COLS = "m.message_id, m.conversation_id, m.message_number, m.author_name, m.role, m.timestamp"

# a topic names a conversation (conversation_topics) or single messages (topic_messages)
_TOPIC_CONVERSATIONS = (
    "SELECT ct.conversation_id FROM conversation_topics ct JOIN topics t ON t.id = "
    "ct.topic_id"
    " WHERE t.name = ? COLLATE NOCASE"
)


def topic_name(topic: str) -> str:
    """A topic as ``UserStore.add_topics`` stores it: lowercased, no ``#``, single spaces."""
    return " ".join(str(topic).strip().strip("#").split()).lower()


def message_filter(
    start: str | None = None,
    end: str | None = None,
    conversation_id: int | None = None,
    topic: str | None = None,
) -> Filter:
    """Messages with ``start <= timestamp < end`` (ISO text), in a conversation, or about a topic
    (tagged with it, or in a conversation that has it). Applies to the alias ``m``."""
    parts: list[str] = []
    args: list[Any] = []
    if start:
        parts.append("m.timestamp >= ?")
        args.append(start)
    if end:
        parts.append("m.timestamp < ?")
        args.append(end)
    if conversation_id is not None:
        parts.append("m.conversation_id = ?")
        args.append(int(conversation_id))
    if topic:
        parts.append(
            "(m.message_id IN (SELECT tm.message_id FROM topic_messages tm JOIN topics t ON t.id = "
            "tm.topic_id"
            f" WHERE t.name = ? COLLATE NOCASE) OR m.conversation_id IN "
            f"({_TOPIC_CONVERSATIONS}))"
        )
        args += [topic_name(topic)] * 2
    return Filter(" AND ".join(parts), tuple(args))


def within(flt: Filter, start: str, end: str) -> Filter:
    """``flt`` and ``start <= timestamp < end`` (alias ``m``)."""
    extra = "m.timestamp >= ? AND m.timestamp < ?"
    return Filter(f"({flt.sql}) AND {extra}" if flt else extra, (*flt.args, start, end))


def compact_filter(
    start: str | None = None,
    end: str | None = None,
    conversation_id: int | None = None,
    topic: str | None = None,
) -> Filter:
    """Compacts in a conversation, whose span of messages overlaps ``[start, end)``, or about a
    topic (their conversation has it, or the compact lists it). Applies to the alias ``c``."""
    parts: list[str] = []
    args: list[Any] = []
    if conversation_id is not None:
        parts.append("c.conversation_id = ?")
        args.append(int(conversation_id))
    if start or end:
        span = (
            "(SELECT {agg}(m.timestamp) FROM conversation_messages m WHERE m.conversation_id = "
            "c.conversation_id"
            " AND m.message_number BETWEEN c.from_message AND c.up_to_message)"
        )
        if end:
            parts.append(span.format(agg="min") + " < ?")
            args.append(end)
        if start:
            parts.append(span.format(agg="max") + " >= ?")
            args.append(start)
    if topic:
        name = topic_name(topic)
        parts.append(
            f"(c.conversation_id IN ({_TOPIC_CONVERSATIONS}) OR EXISTS (SELECT 1 FROM"
            " json_each(c.topics) j WHERE lower(j.value) = ?))"
        )
        args += [name, name]
    return Filter(" AND ".join(parts), tuple(args))


# -- messages ------------------------------------------------------------------------------


def word_scores(
    store: UserStore,
    match: str,
    flt: Filter,
    *,
    content_weight: float,
    extra_weight: float,
    limit: int,
) -> list[tuple[int, float]]:
    """``(message_id, score)`` of the ``limit`` best messages matching ``match`` within ``flt``,
    best first. The score is ``-bm25()`` over the content and the attached text (image
    captions), author names weighted 0: for a one-word ``match`` it is that word's share of
    a BM25 score, which the ranking adds up word by word."""
    sql = (
        "SELECT f.rowid, -bm25(messages_fts, ?, 0.0, ?) AS s FROM messages_fts f"
        + (" JOIN conversation_messages m ON m.message_id = f.rowid" if flt else "")
        + " WHERE messages_fts MATCH ?"
        + (" AND " + flt.sql if flt else "")
        + " ORDER BY s DESC "
        "LIMIT ?"
    )
    return _tuples(store, sql, (content_weight, extra_weight, match, *flt.args, limit))


def message_refs(store: UserStore, ids: list[int]) -> list[MessageRef]:
    """The given messages (any order; missing ids are skipped)."""
    rows = _tuples(
        store,
        f"SELECT {_MSG_COLS} FROM conversation_messages m"
        " WHERE m.message_id IN (SELECT value FROM json_each(?))",
        (json.dumps(ids),),
    )
    return [_new(MessageRef, r) for r in rows]


def neighbour_refs(
    store: UserStore, positions: list[tuple[int, int]], flt: Filter
) -> list[MessageRef]:
    """The messages at ``(conversation_id, message_number)`` positions that exist and pass ``flt``
    (one query for them all: each position is one lookup in the unique index)."""
    if not positions:
        return []
    rows = _tuples(
        store,
        f"SELECT {_MSG_COLS} FROM json_each(?) j CROSS JOIN conversation_messages m"
        " ON m.conversation_id = json_extract(j.value, '$[0]') AND m.message_number = "
        "json_extract(j.value, '$[1]')" + (" WHERE " + flt.sql if flt else ""),
        (json.dumps(positions), *flt.args),
    )
    return [_new(MessageRef, r) for r in rows]


def message_texts(store: UserStore, ids: list[int]) -> dict[int, tuple[str, str]]:
    """message_id -> (content, content plus attached search text such as image captions)."""
    if not ids:
        return {}
    return {
        r[0]: (r[1], r[1] + r[2])
        for r in store.conn.execute(
            "SELECT message_id, content, coalesce(' ' || json_extract(metadata, '$.search_text'), "
            "'')"
            " FROM conversation_messages WHERE message_id IN (SELECT value FROM json_each(?))",
            (json.dumps(ids),),
        )
    }


def recent_messages(
    store: UserStore, flt: Filter, limit: int, *, mentioning: str | None = None
) -> list[tuple[MessageRef, str]]:
    """The latest messages within ``flt`` (and matching the FTS5 expression ``mentioning``),
    newest first, with their content."""
    parts = [
        p
        for p in (
            flt.sql,
            "m.message_id IN (SELECT rowid FROM messages_fts WHERE messages_fts MATCH ?)"
            if mentioning is not None
            else "",
        )
        if p
    ]
    args = (*flt.args, mentioning) if mentioning is not None else flt.args
    rows = store.conn.execute(
        f"SELECT {_MSG_COLS}, m.content FROM conversation_messages m"
        + (" WHERE " + " AND ".join(parts) if parts else "")
        + " ORDER BY m.timestamp DESC, m.message_id DESC LIMIT ?",
        (*args, limit),
    ).fetchall()
    return [(MessageRef._make(r[:6]), r[6]) for r in rows]


def participant_names(store: UserStore) -> list[str]:
    """Every name anybody wrote a message under, once."""
    return [r[0] for r in store.conn.execute("SELECT DISTINCT name FROM participants")]


# -- compacts ------------------------------------------------------------------------------


def compact_scores(store: UserStore, match: str, flt: Filter) -> list[tuple[int, float]]:
    """``(compact id, -bm25())`` of every compact matching ``match`` within ``flt``."""
    return _tuples(
        store,
        "SELECT c.id, -bm25(compacts_fts) FROM compacts_fts f JOIN "
        "conversation_compacts c"
        " ON c.id = f.rowid WHERE compacts_fts MATCH ?" + (" AND " + flt.sql if flt else ""),
        (match, *flt.args),
    )


def compact_rows(store: UserStore, ids: list[int]) -> dict[int, CompactRow]:
    """The given compacts by id, each with the timestamp of the first message it covers."""
    if not ids:
        return {}
    rows = store.conn.execute(
        "SELECT c.id, c.conversation_id, c.from_message, c.up_to_message, c.summary, c.created_at,"
        " (SELECT m.timestamp FROM conversation_messages m WHERE m.conversation_id = "
        "c.conversation_id"
        "  AND m.message_number >= c.from_message ORDER BY m.message_number LIMIT 1)"
        " FROM conversation_compacts c WHERE c.id IN (SELECT value FROM json_each(?))",
        (json.dumps(ids),),
    )
    return {r[0]: CompactRow._make(r) for r in rows}
