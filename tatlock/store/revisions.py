"""Superseded messages: the rows behind regenerating an answer and editing the last question.

Nothing is deleted or rewritten: a reply answered again, or a question edited (with its
replies), stays in memory with ``metadata["superseded"] = {"by": message_id, "how":
"regenerated" | "edited", "at": time}``; the message that replaced it is stored as usual.
Readers that feed the model (the context, compaction, briefings) leave superseded messages
out; views show them marked.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from tatlock.store import db
from tatlock.store.user import Message, UserStore
from tatlock.store.user_records import _message
from tatlock.timeutil import iso

STANDING = "json_extract(metadata, '$.superseded') IS NULL"


def is_superseded(message: Message) -> bool:
    return bool((message.metadata or {}).get("superseded"))


def last_exchange(store: UserStore, conversation_id: int) -> tuple[Message | None, list[Message]]:
    """The conversation's last standing question (a user message not superseded) and the
    standing replies after it (none when its turn failed before answering)."""
    row = store.conn.execute(
        f"SELECT * FROM conversation_messages WHERE conversation_id = ? AND role = 'user' AND "
        f"{STANDING}"
        " ORDER BY message_number DESC LIMIT 1",
        (conversation_id,),
    ).fetchone()
    if row is None:
        return None, []
    question = _message(row)
    replies = [
        _message(r)
        for r in store.conn.execute(
            f"SELECT * FROM conversation_messages WHERE conversation_id = ? AND role = 'assistant'"
            f" AND message_number > ? AND {STANDING} ORDER BY message_number",
            (conversation_id, question.message_number),
        )
    ]
    return question, replies


def supersede(store: UserStore, message_ids: Iterable[int], *, by: int, how: str) -> None:
    """Mark messages as superseded by message ``by`` (one transaction; already marked ones keep
    their first mark)."""
    ids = [int(i) for i in message_ids if db.fits(i)]
    if not ids:
        return
    mark: dict[str, Any] = {"by": int(by), "how": how, "at": iso()}

    with db.transaction(store.conn):
        store.conn.execute(
            "UPDATE conversation_messages SET metadata = json_set(metadata, '$.superseded', "
            "json(?))"
            f" WHERE message_id IN ({','.join('?' * len(ids))}) AND {STANDING}",
            [json.dumps(mark), *ids],
        )


def superseded_numbers(store: UserStore, conversation_id: int, first: int, last: int) -> list[int]:
    """The numbers of the superseded messages between ``first`` and ``last``."""
    return [
        r[0]
        for r in store.conn.execute(
            "SELECT message_number FROM conversation_messages WHERE conversation_id = ? AND "
            "message_number BETWEEN ? AND ?"
            f" AND NOT {STANDING} ORDER BY message_number",
            (conversation_id, first, last),
        )
    ]


def withdrawn(store: UserStore, message_ids: Iterable[int | None]) -> dict[int, str]:
    """Of these messages, the superseded ones and how ("regenerated", "edited")."""
    ids = [int(i) for i in message_ids if i is not None and db.fits(i)]
    if not ids:
        return {}
    rows = store.conn.execute(
        "SELECT message_id, json_extract(metadata, '$.superseded.how') FROM conversation_messages"
        f" WHERE message_id IN ({','.join('?' * len(ids))}) AND NOT {STANDING}",
        ids,
    )
    return {r[0]: r[1] or "replaced" for r in rows}
