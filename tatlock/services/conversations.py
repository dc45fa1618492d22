"""The user's conversations: browse, search, recall, rename, forget, export, compact.

Each operation owns its transaction (forgetting is one, and takes the conversation's debug
log with it); errors carry no interface wording (``NotFound.kind == "conversation"``).
"""

from __future__ import annotations

import builtins
import datetime as dt
import os
import re
from typing import Any

from tatlock.errors import NotFound, TatlockError, UsageError
from tatlock.events import CompactionFailed, Event
from tatlock.services.base import Core
from tatlock.services.export import conversation_json, conversation_markdown
from tatlock.services.records import Detail, Hit, Stats
from tatlock.store.user import Compact, Conversation, Forgotten, Message

SNIPPET_CHARS = 160
MAX_TITLE = 200


class Conversations:
    def __init__(self, core: Core):
        self._core = core

    @property
    def _store(self):  # the user's store, opened on first use
        return self._core.store

    # -- browse ----------------------------------------------------------------------------

    def list(self, limit: int | None = 50) -> builtins.list[Conversation]:
        """Most recent activity first."""
        return self._store.conversations(None if limit is None else max(1, int(limit)))

    def get(self, conversation_id: int, *, limit: int | None = None) -> Detail:
        """The conversation with its messages (all, or the latest ``limit``), compacts,
        participants, topics, archive and the briefing it started with."""
        store = self._store
        conv = store.conversation(_id(conversation_id))
        if limit is None:
            msgs = store.messages(conv.id)
        else:
            msgs = store.latest_messages(conv.id, max(0, int(limit)))
        from tatlock.memory.cross import latest_cross_summary

        archive = conv.metadata.get("archive")
        return Detail(
            conv,
            msgs,
            store.compacts(conv.id),
            store.participants(conv.id),
            [(t["name"], t["mentions"]) for t in store.topics(conv.id)],
            archive if isinstance(archive, dict) and archive.get("summary") else None,
            latest_cross_summary(store, conv.id),
            bool(msgs) and msgs[0].message_number > 1,
        )

    def messages(
        self, conversation_id: int, *, limit: int = 50, before: int | None = None
    ) -> builtins.list[Message]:
        """A page of messages, oldest first: the latest ``limit`` before message number
        ``before``."""
        store = self._store
        conv = store.conversation(_id(conversation_id))
        return store.latest_messages(conv.id, max(0, int(limit)), before=before)

    def message(self, message_id: int) -> Message:
        """One message by its id (``NotFound``, kind "message", when there is none)."""
        return self._store.message(message_id)

    def version(self) -> int:
        """A number that changes whenever the memory was written from elsewhere since the last
        call on this thread (another process, an MCP client, a turn's thread): cheap enough to
        poll every second, so a list of conversations can follow what others write."""
        return self._store.data_version()

    def in_room(self, room_id: str, interface: str | None = None) -> builtins.list[Conversation]:
        """The conversations of a room (most recent first), for one interface or all."""
        if not str(room_id or "").strip():
            raise UsageError("the room id is empty")
        return self._store.conversations_in_room(room_id, interface)

    def create(self, room_id: str, interface: str, *, title: str | None = None) -> Conversation:
        if not str(room_id or "").strip() or not str(interface or "").strip():
            raise UsageError("a conversation needs a room id and an interface")
        return self._store.create_conversation(
            room_id.strip(), interface.strip(), title=_title(title) if title else None
        )

    def last_exchange(
        self, conversation_id: int
    ) -> tuple[Conversation, Message, builtins.list[Message]]:
        """The conversation, its last standing question and the standing replies to it (what
        ``Butler.regenerate`` answers again and ``Butler.edit_last`` replaces)."""
        from tatlock.store import revisions

        conv = self._store.conversation(_id(conversation_id))
        question, replies = revisions.last_exchange(self._store, conv.id)
        if question is None:
            raise UsageError("this conversation has no question to answer again or edit yet")
        return conv, question, replies

    def set_model(self, conversation_id: int, model: str | None) -> Conversation:
        """The model the conversation's turns use from now on (its own choice, kept); None:
        the default again."""
        from tatlock.services.models import model_name

        cid = _id(conversation_id)
        self._store.conversation(cid)  # NotFound first
        self._store.set_conversation_metadata(
            cid, model=model_name(model) if model is not None else None
        )
        return self._store.conversation(cid)

    def topics(self, conversation_id: int | None = None) -> builtins.list[tuple[str, int]]:
        rows = self._store.topics(None if conversation_id is None else _id(conversation_id))
        return [(r["name"], r["mentions"]) for r in rows]

    def stats(self) -> Stats:
        from tatlock.store.stats import memory_stats

        store = self._store
        s = memory_stats(store)
        size = sum(p.stat().st_size for p in store.path.parent.glob(store.path.name + "*"))
        return Stats(
            s.conversations,
            s.messages,
            s.compacts,
            s.compacted_messages,
            s.first_started,
            s.last_activity,
            len(store.vars()),
            self.topics(),
            str(store.path),
            size,
        )

    # -- search ----------------------------------------------------------------------------

    def search(
        self,
        query: str,
        *,
        limit: int = 10,
        since: str | dt.datetime | None = None,
        until: str | dt.datetime | None = None,
        topic: str | None = None,
        conversation_id: int | None = None,
    ) -> builtins.list[Hit]:
        """Memory search (BM25 over messages and summaries fused with the messages' meaning where
        their vectors are computed: the recall ranking), best first, each hit with a snippet
        around the words found and why it matched. ``since``/``until`` take dates or
        phrases ("last week", "2026-03-01")."""
        from tatlock.memory.search import search

        start, end = self._range(since, 0), self._range(until, 1)
        if start and end and end <= start:
            raise UsageError("the end of the period is before its start")
        if not (str(query or "").strip() or start or end or topic):
            raise UsageError("give words to search for, a period or a topic")
        from tatlock.memory.vectors import semantic_for

        hits = search(
            self._store,
            str(query or ""),
            limit=max(1, int(limit)),
            start=start,
            end=end,
            topic=topic,
            conversation_id=conversation_id,
            semantic=semantic_for(self._core.cfg),
        )
        titles = {c.id: c.title for c in self._store.conversations()}
        return [_hit(h, query, titles.get(h.conversation_id)) for h in hits]

    recall = search  # the butler's own recall tools use the same ranking

    def _range(self, value: str | dt.datetime | None, which: int) -> str | None:
        if value is None or value == "":
            return None
        from tatlock.timeutil import iso

        if isinstance(value, dt.datetime):
            return iso(value)
        from tatlock.tools.dates import parse_range

        got = parse_range(str(value), self._core.clock())
        if got is None:
            raise UsageError(
                f"cannot read {value!r} as a date (try 2026-03-01, 'last week', 'yesterday')"
            )
        return iso(got[which])

    # -- change ----------------------------------------------------------------------------

    def rename(self, conversation_id: int, title: str) -> Conversation:
        return self._store.rename_conversation(_id(conversation_id), _title(title))

    def forget(self, conversation_id: int) -> Forgotten:
        """Delete a conversation and everything derived from it in one transaction (messages,
        summaries, topics, the personal facts learnt in it, briefings that quoted it) and its
        debug log: the log is set aside first and restored if the transaction fails."""
        cid = _id(conversation_id)
        paths, user = self._core.paths, self._core.username
        self._store.conversation(cid)  # NotFound before anything moves
        log = paths.conversation_logs / f"{user}-{cid}.jsonl"
        aside = log.with_name(log.name + ".forgetting")
        moved = False
        if log.exists():
            os.replace(log, aside)
            moved = True
        try:
            gone = self._store.forget_conversation(cid)
        except BaseException:
            if moved:
                os.replace(aside, log)
            raise
        aside.unlink(missing_ok=True)
        if gone.cross_summaries:
            from tatlock.memory.cross import FILE_NAME

            (paths.user_dir(user) / FILE_NAME).unlink(missing_ok=True)
        return gone

    def export(self, conversation_id: int, format: str = "md") -> str:
        """The conversation as Markdown (readable, with attribution) or JSON (everything)."""
        d = self.get(conversation_id)
        if format == "json":
            return conversation_json(d)
        if format == "md":
            return conversation_markdown(d)
        raise UsageError(f"unknown export format {format!r} (md or json)")

    def compact(self, conversation_id: int, *, model: str | None = None) -> builtins.list[Compact]:
        """Summarise the conversation's due blocks now (events go to subscribers as they happen).
        Returns the new compacts (none when nothing is due); raises when a block fails."""
        from tatlock.memory.compaction import compact_due

        core = self._core
        conv = self._store.conversation(_id(conversation_id))
        interval = int(core.cfg.effective("compact_interval"))
        failures: builtins.list[str] = []

        def emit(ev: Event) -> None:
            if isinstance(ev, CompactionFailed):
                failures.append(ev.reason)
            core.publish(ev)

        done = compact_due(
            self._store,
            core.new_backend(model),
            conv.id,
            interval=interval,
            emit=emit,
            budget_tokens=core.budget(),
            options=core.summary_options(),
            estimator=core.estimator,
        )
        if failures:
            raise TatlockError(
                f"compaction failed: {failures[0]} ({len(done)} block(s) compacted before)",
                kind="compaction",
            )
        return done

    def due(self, conversation_id: int) -> tuple[int, int] | None:
        """The next block compaction would summarise, if one is due."""
        from tatlock.memory.compaction import next_block

        return next_block(
            self._store, _id(conversation_id), int(self._core.cfg.effective("compact_interval"))
        )


def _id(value: Any) -> int:
    """A conversation id from an interface: an int that SQLite can hold."""
    try:
        n = int(value)
    except (TypeError, ValueError):
        raise UsageError(f"{value!r} is not a conversation id") from None
    if not 0 < n < 2**63:
        raise NotFound(f"no conversation {value}", kind="conversation")
    return n


def _title(title: str) -> str:
    title = " ".join(str(title or "").split())
    if not title:
        raise UsageError("the title is empty")
    return title[:MAX_TITLE]


def _hit(h: Any, query: str, title: str | None) -> Hit:
    kind = "summary" if h.kind == "compact" else "message"
    rng = (h.from_message, h.up_to_message) if kind == "summary" else None
    return Hit(
        kind,
        h.conversation_id,
        h.message_id,
        h.message_number,
        rng,
        h.author_name,
        h.role,
        h.timestamp,
        h.content,
        snippet(h.content, query),
        h.score,
        title,
        h.why,
    )


def snippet(text: str, query: str, width: int = SNIPPET_CHARS) -> str:
    """An excerpt of ``text`` around the first query word found in it, on one line."""
    flat = " ".join(str(text).split())
    if len(flat) <= width:
        return flat
    words = [w for w in re.findall(r"\w{3,}", str(query or "").lower())]
    low = flat.lower()
    pos = min((i for i in (low.find(w) for w in words) if i >= 0), default=0)
    start = max(0, min(pos - width // 3, len(flat) - width))
    piece = flat[start : start + width]
    return ("…" if start else "") + piece + ("…" if start + width < len(flat) else "")
