"""Conversations keyed by room: the one a room has on an interface, made in one transaction,
and what was said there, a query with its reply, stored in one transaction.

Another interface (a Matrix bot over MCP, say) names a conversation by its room and its own
interface, never by our id: asking twice, even from two processes at once, must give the same
conversation, so looking it up and creating it happen under one ``BEGIN IMMEDIATE``. Many
clients log turns into one room at once: a reply numbered apart from its query would show
under another speaker's message, so both are numbered and stored together.
"""

from __future__ import annotations

from tatlock.store import db
from tatlock.store.user import Author, Conversation, Message, UserStore

__all__ = ["add_exchange", "room_conversation"]


def room_conversation(store: UserStore, room_id: str, interface: str) -> tuple[Conversation, bool]:
    """The room's latest conversation on ``interface``, or a new one: ``(conversation,
    created)``."""
    with db.transaction(store.conn):
        latest = store.latest_conversation(interface, room_id)
        if latest is not None:
            return latest, False
        return store.create_conversation(room_id, interface), True


def add_exchange(
    store: UserStore,
    conversation_id: int,
    query: str,
    author: Author,
    response: str | None = None,
    *,
    metadata: dict | None = None,
) -> tuple[Message, Message | None]:
    """``query`` by ``author`` and, when given, ``response`` as the assistant's reply to it,
    numbered one after the other in one ``BEGIN IMMEDIATE`` transaction: all or nothing."""
    meta = dict(metadata or {})
    with db.transaction(store.conn):
        asked = store.insert_message(conversation_id, "user", query, author, metadata=meta)
        answered = None
        if response is not None:
            answered = store.insert_message(
                conversation_id,
                "assistant",
                response,
                Author.assistant(),
                reply_to=asked,
                metadata={**meta, "stored": "as given"},
            )
    return store.message(asked), (store.message(answered) if answered is not None else None)
