"""Conversations other programs keep with us, by room: ``butler.rooms``.

A Matrix bot, a desktop assistant or an editor agent (over MCP) names a conversation by its
room and its interface, and tells who said what: the Anchor (the butler's owner, known by the
configured anchor id), a guest, or a bot. ``add_exchange`` stores what was said without running
the pipeline, so that every interface shares one memory with the same attribution; ``ask`` on
the butler runs a real turn.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tatlock.errors import TatlockError, UsageError
from tatlock.services.base import Core
from tatlock.store.user import Author, Compact, Conversation, Message

MAX_ROOM_CHARS = 255  # a Matrix room id is at most 255 bytes; ours are shorter still
MAX_INTERFACE_CHARS = 40
MAX_TEXT_CHARS = 1_000_000  # as for a turn: more is not a message
MAX_NAME_CHARS = 80


@dataclass(frozen=True)
class Exchange:
    """What ``add_exchange`` stored: the query, and the response when one was given."""

    conversation: Conversation
    query: Message
    response: Message | None


class Rooms:
    def __init__(self, core: Core):
        self._core = core

    @property
    def _store(self):
        return self._core.store

    def open(self, room_id: str, interface: str) -> tuple[Conversation, bool]:
        """The room's conversation on ``interface`` (its latest), made on first use:
        ``(conversation, created)``. The same room and interface always give the same one."""
        from tatlock.store.rooms import room_conversation

        room = _word(room_id, "room id", MAX_ROOM_CHARS)
        iface = _word(interface, "interface", MAX_INTERFACE_CHARS)
        return room_conversation(self._store, room, iface)

    def author(
        self, user_id: str | None = None, user_name: str | None = None, *, bot: bool = False
    ) -> Author:
        """Who wrote a message: the Anchor when ``user_id`` is the configured anchor id (or when
        nobody is named), else a guest (a bot when ``bot``) called ``user_name``."""
        anchor = self._core.anchor()
        uid = " ".join(str(user_id or "").split())[:MAX_ROOM_CHARS]
        name = " ".join(str(user_name or "").split())[:MAX_NAME_CHARS]
        if uid == anchor.id or (not uid and not name):
            # the configured name wins, so the owner reads the same in every room
            return Author(
                anchor.id, self._core.cfg.anchor_name or name or anchor.name, is_anchor=True
            )
        if not name:
            name = _display_name(uid)
        return Author(uid or name.lower().replace(" ", "-"), name, is_bot=bool(bot))

    def add_exchange(
        self,
        conversation_id: int,
        query: str,
        response: str | None = None,
        *,
        author: Author | None = None,
    ) -> Exchange:
        """Store ``query`` as ``author``'s message (the Anchor by default) and ``response``, if
        given, as the butler's reply to it. No model is called."""
        from tatlock.services.conversations import _id
        from tatlock.store.rooms import add_exchange

        query = _text(query, "the query")
        if response is not None and not str(response).strip():
            response = None
        if response is not None:
            response = _text(response, "the response")
        store = self._store
        conv = store.conversation(_id(conversation_id))
        # one transaction: with many clients logging at once, a reply stored apart from its query
        # would land after other speakers' messages and read as the answer to them
        asked, answered = add_exchange(
            store,
            conv.id,
            query,
            author or self._core.anchor(),
            response,
            metadata={"interface": conv.interface},
        )
        self._after_messages(conv.id)
        return Exchange(store.conversation(conv.id), asked, answered)

    def _after_messages(self, conversation_id: int) -> None:
        """Summarise in the background once a block is due, as after a turn."""
        try:
            self._core.schedule_compaction(conversation_id)
        except Exception:
            import logging

            logging.getLogger(__name__).warning("could not schedule compaction", exc_info=True)

    def _core_conversations(self) -> Any:
        return self._core.conversations

    def summarize(self, conversation_id: int) -> list[Compact]:
        """Compact the conversation now: its due blocks, then whatever is left as one last block
        (shorter than usual), so that every message is in a summary. Returns the new compacts."""
        from tatlock.events import CompactionFailed, Event
        from tatlock.memory.compaction import compact_due
        from tatlock.services.conversations import _id

        conversations = self._core_conversations()
        cid = _id(conversation_id)
        done = list(conversations.compact(cid))
        conv = self._store.conversation(cid)
        rest = conv.message_count - self._store.compacted_up_to(cid)
        if rest <= 0:
            return done
        core, failures = self._core, []

        def emit(ev: Event) -> None:
            if isinstance(ev, CompactionFailed):
                failures.append(ev.reason)
            core.publish(ev)

        done += compact_due(
            self._store,
            core.new_backend(),
            cid,
            interval=rest,
            emit=emit,
            budget_tokens=core.budget(),
            options=core.summary_options(),
            estimator=core.estimator,
        )
        if failures:
            raise TatlockError(f"compaction failed: {failures[0]}", kind="compaction")
        return done


def _word(value: Any, what: str, limit: int) -> str:
    text = str(value if value is not None else "").strip()
    if not text:
        raise UsageError(f"the {what} is empty")
    if len(text) > limit or any(ch in text for ch in "\x00\n\r"):
        raise UsageError(f"the {what} must be one line of at most {limit} characters")
    return text


def _text(value: Any, what: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise UsageError(f"{what} is empty")
    if len(value) > MAX_TEXT_CHARS:
        raise UsageError(f"{what} is longer than {MAX_TEXT_CHARS:,} characters")
    if "\x00" in value:
        raise UsageError(f"{what} holds a NUL character")
    return value


def _display_name(user_id: str) -> str:
    """A name for someone known only by id: ``@maria:example.org`` -> ``maria``."""
    local = user_id.lstrip("@").split(":", 1)[0]
    return (local or user_id)[:MAX_NAME_CHARS]
