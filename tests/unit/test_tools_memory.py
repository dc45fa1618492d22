"""The memory and personal-variable tools against a real user database."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest

from tatlock.config import load
from tatlock.store.user import Author, UserStore
from tatlock.tools import memory as tools
from tatlock.tools.base import ToolContext

NOW = dt.datetime(2026, 11, 21, 15, 0, tzinfo=ZoneInfo("Europe/Amsterdam"))
ALICE = Author("alice", "Alice", is_anchor=True)


@pytest.fixture
def store():
    s = UserStore.open(load().paths, "alice")
    old = s.create_conversation("cli", "cli", started_at="2026-11-10T09:00:00+00:00")
    s.add_message(
        old.id,
        "user",
        "My dentist appointment is on Friday at 10",
        ALICE,
        timestamp="2026-11-10T09:00:00+00:00",
    )
    s.add_message(
        old.id,
        "assistant",
        "Noted, sir.",
        Author.assistant(),
        timestamp="2026-11-10T09:00:05+00:00",
    )
    new = s.create_conversation("cli", "cli", started_at="2026-11-20T18:00:00+00:00")
    s.add_message(
        new.id,
        "user",
        "We planted tulips in the garden",
        ALICE,
        timestamp="2026-11-20T18:00:00+00:00",
    )
    s.add_topics(new.id, ["gardening"], message_id=3)
    s.conn.execute(
        "INSERT INTO conversation_compacts (conversation_id, from_message, up_to_message, "
        "summary,"
        " topics, model, created_at) VALUES (?, 1, 2, 'KEY FACTS ESTABLISHED\n- Alice: "
        "dentist on Friday',"
        " '[]', 'm', '2026-11-10T10:00:00+00:00')",
        (old.id,),
    )
    yield s
    s.close()


def ctx(store, **kw) -> ToolContext:
    return ToolContext("alice", store, now=lambda: NOW, **kw)


def test_recall_memories(store):
    out = tools.recall_memories(ctx=ctx(store), keyword="dentist")
    texts = [r["text"] for r in out["results"]]
    assert any("dentist appointment" in t for t in texts)
    assert any(r["kind"] == "summary" for r in out["results"])  # compacts are searchable too
    assert "error" in tools.recall_memories(ctx=ctx(store), keyword="  ")
    assert tools.recall_memories(ctx=ToolContext("alice"), keyword="x") == tools.NO_MEMORY


def test_recall_memories_with_time(store):
    out = tools.recall_memories_with_time(ctx=ctx(store), start="yesterday")
    assert [r["text"] for r in out["results"]] == ["We planted tulips in the garden"]
    assert out["period"] == "2026-11-20"
    out = tools.recall_memories_with_time(
        ctx=ctx(store), start="2026-11-09", end="2026-11-11", keyword="dentist"
    )
    # the matching message first (its neighbour may follow as context)
    assert out["results"][0]["text"] == "My dentist appointment is on Friday at 10"
    assert all(r["when"].startswith("2026-11-10") for r in out["results"])
    assert (
        "could not read"
        in tools.recall_memories_with_time(ctx=ctx(store), start="flibbertigibbet")["error"]
    )
    assert (
        "before its start"
        in tools.recall_memories_with_time(ctx=ctx(store), start="today", end="2026-01-01")["error"]
    )


def test_recall_topic(store):
    out = tools.recall_topic(ctx=ctx(store), topic="Gardening")
    assert [r["text"] for r in out["results"]] == ["We planted tulips in the garden"]
    miss = tools.recall_topic(ctx=ctx(store), topic="astronomy")
    assert miss["count"] == 0 and miss["known_topics"] == ["gardening"]


def test_conversation_listing_stats_and_summary(store):
    convs = tools.list_conversations(ctx=ctx(store, conversation_id=2))["conversations"]
    assert [c["id"] for c in convs] == [2, 1] and convs[0]["current"]
    stats = tools.conversation_stats(ctx=ctx(store))
    assert (stats["conversations"], stats["messages"], stats["summaries"]) == (2, 3, 1)
    assert stats["top_topics"] == [{"topic": "gardening", "mentions": 1}]
    s1 = tools.get_conversation_summary(ctx=ctx(store), conversation_id=1)
    assert s1["summaries"][0]["messages"] == "1-2" and "dentist" in s1["summaries"][0]["summary"]
    s2 = tools.get_conversation_summary(ctx=ctx(store, conversation_id=2))
    assert s2["recent_messages"][0]["text"] == "We planted tulips in the garden"
    assert (
        "no conversation 99"
        in tools.get_conversation_summary(ctx=ctx(store), conversation_id=99)["error"]
    )


def test_personal_variables_are_attributed(store):
    assert tools.get_personal_variable(ctx=ctx(store), key="location")["value"] is None
    out = tools.set_personal_variable(
        ctx=ctx(store, author_id="maria", extra={"message_id": 3}),
        key="Favourite Tea",
        value=" Assam ",
    )
    assert out == {"key": "favourite_tea", "value": "Assam", "saved": True}
    assert tools.get_personal_variable(ctx=ctx(store), key="favourite tea")["value"] == "Assam"
    row = store.vars()[0]
    assert (row.author_id, row.source_message_id) == ("maria", 3)
    assert "error" in tools.set_personal_variable(ctx=ctx(store), key="", value="x")
