"""Conversations keyed by room: the one a room has on an interface, made in one transaction.

Another interface (a Matrix bot over MCP, say) names a conversation by its room and its own
interface, never by our id: asking twice, even from two processes at once, must give the same
conversation, so looking it up and creating it happen under one ``BEGIN IMMEDIATE``.
"""

from __future__ import annotations

from tatlock.store import db
from tatlock.store.user import Conversation, UserStore

__all__ = ["room_conversation"]


def room_conversation(store: UserStore, room_id: str, interface: str) -> tuple[Conversation, bool]:
    """The room's latest conversation on ``interface``, or a new one: ``(conversation, created)``."""
    with db.transaction(store.conn):
        latest = store.latest_conversation(interface, room_id)
        if latest is not None:
            return latest, False
        return store.create_conversation(room_id, interface), True
