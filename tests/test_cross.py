"""Cross-conversation summary: the briefing a new conversation starts with, built from the
user's last conversations (real SQLite, the fake Ollama server over real HTTP)."""

from __future__ import annotations

import datetime as dt
import json
import re

import pytest

from tatlock.llm.ollama import OllamaBackend
from tatlock.memory import context
from tatlock.memory.compaction import compact_due
from tatlock.memory.cross import FILE_NAME, build_cross_summary, latest_cross_summary
from tatlock.store.user import Author, UserStore
from support.fake_ollama import FakeError
from tatlock.timeutil import iso

ALICE = Author("alice", "Alice", is_anchor=True)
MARIA = Author("maria", "Maria")
BUTLER = Author.assistant()
NOW = dt.datetime(2026, 11, 25, 9, 30, tzinfo=dt.timezone.utc)

BRIEFING = """Recent Highlights
- Alice said her flight AF123 to Lyon leaves on 2026-12-03.

Patterns Across Sessions
- Alice plans trips and asks for reminders.

Current Context
- [UNRESOLVED] Alice asked about a hotel in Lyon."""


def handler(body: dict) -> str:
    prompt = body["messages"][-1]["content"]
    if "Summarise messages" in prompt:  # a compaction of an earlier conversation
        m = re.search(r"Summarise messages (\d+) to (\d+)", prompt)
        return f"TOPICS DISCUSSED\n- lyon\n\nKEY FACTS ESTABLISHED\n- COMPACT {m.group(1)}-{m.group(2)}: facts\n"
    return BRIEFING


@pytest.fixture
def backend(fake):
    fake.handler = handler
    return OllamaBackend(fake.url, "llama3.2:3b", timeout=30)


def talk(store: UserStore, day: int, lines: list[tuple[Author, str]]) -> int:
    start = dt.datetime(2026, 11, day, 10, 0, tzinfo=dt.timezone.utc)
    conv = store.create_conversation(f"room{day}", "cli", started_at=iso(start)).id
    for i, (author, text) in enumerate(lines):
        role = "assistant" if author == BUTLER else "user"
        store.add_message(conv, role, text, author, timestamp=iso(start + dt.timedelta(minutes=i)))
    return conv


def prompt_of(fake) -> str:
    return fake.last_chat["messages"][-1]["content"]


def test_first_conversation_gets_no_summary_and_no_model_call(store, backend, fake, paths):
    new = store.create_conversation("room", "cli").id
    assert build_cross_summary(store, backend, paths=paths, exclude_conversation_id=new) is None
    empty = store.create_conversation("other", "cli").id  # an earlier conversation with no messages
    assert build_cross_summary(store, backend, paths=paths, exclude_conversation_id=empty) is None
    assert fake.chat_requests == []
    assert latest_cross_summary(store, new) is None
    assert not (paths.user_dir("alice") / FILE_NAME).exists()


def test_summary_of_earlier_conversations_is_stored_with_its_footer(store, backend, fake, paths):
    first = talk(store, 20, [(ALICE, "My flight AF123 to Lyon leaves on 3 December."),
                             (BUTLER, "Noted, sir."),
                             (MARIA, "I will pick Alice up at the airport.")])
    second = talk(store, 22, [(ALICE, "Find me a hotel in Lyon under 120 EUR."), (BUTLER, "Very good, sir.")]
                  + [(ALICE, f"filler {i}") for i in range(10)])
    compact_due(store, backend, second, interval=10)  # the older part of the second is a compact
    fake.reset()
    new = store.create_conversation("room", "cli").id
    events: list = []

    summary = build_cross_summary(store, backend, paths=paths, exclude_conversation_id=new, now=NOW,
                                  emit=events.append)

    local = NOW.astimezone().strftime("%Y-%m-%d %H:%M")
    assert summary == f"{BRIEFING}\n\nSummary of last 2 conversations | Updated: {local}"
    assert len(fake.chat_requests) == 1
    prompt = prompt_of(fake)
    # both conversations, oldest first, with dates and authors; the compact and the latest messages
    assert prompt.index(f"Conversation #{first}") < prompt.index(f"Conversation #{second}")
    assert re.search(r"\[2026-11-2[01] \d\d:\d\d\] Anchor \(Alice\): My flight AF123 to Lyon", prompt)
    assert "] Maria: I will pick Alice up at the airport." in prompt
    assert "] Assistant: Noted, sir." in prompt
    assert "COMPACT 1-10" in prompt and "filler 9" in prompt
    assert "Recent Highlights" in prompt and "Patterns Across Sessions" in prompt and "Current Context" in prompt

    row = store.conn.execute("SELECT * FROM cross_conversation_summaries").fetchone()
    assert row["conversation_id"] == new and row["summary"] == summary
    assert json.loads(row["source_conversations"]) == [second, first]
    assert row["model"] == "llama3.2:3b" and row["created_at"] == iso(NOW)
    assert latest_cross_summary(store, new) == summary
    assert (paths.user_dir("alice") / FILE_NAME).read_text(encoding="utf-8") == summary + "\n"
    assert [e.type for e in events] == ["ModelCall"] and events[0].phase == "cross_summary"

    # and the new conversation's context carries it
    ctx = context.build(store, new, budget_tokens=4096, cross_summary=latest_cross_summary(store, new))
    assert "## Earlier conversations with this user" in ctx.summary_block()
    assert "AF123" in ctx.summary_block()


def test_only_the_last_five_are_used_and_a_copied_footer_is_replaced(store, backend, fake, paths):
    convs = [talk(store, 10 + d, [(ALICE, f"day {10 + d}: the code is {d}")]) for d in range(7)]
    fake.handler = lambda body: BRIEFING + "\n\nSummary of last 3 conversations | Updated: yesterday"
    new = store.create_conversation("room", "cli").id
    summary = build_cross_summary(store, backend, paths=paths, exclude_conversation_id=new, now=NOW)
    assert summary.count("Summary of last") == 1
    assert summary.splitlines()[-1].startswith("Summary of last 5 conversations | Updated: ")
    prompt = prompt_of(fake)
    assert "day 10:" not in prompt and "day 11:" not in prompt and "day 16:" in prompt
    row = store.conn.execute("SELECT source_conversations FROM cross_conversation_summaries").fetchone()
    assert json.loads(row[0]) == convs[:1:-1]  # newest first, the two oldest left out

    # a second new conversation gets its own, newer summary; the file shows the latest
    fake.handler = lambda body: BRIEFING.replace("AF123", "AF999")
    newer = store.create_conversation("room2", "cli").id
    build_cross_summary(store, backend, paths=paths, exclude_conversation_id=newer, now=NOW)
    assert "AF123" in latest_cross_summary(store, new)
    assert "AF999" in latest_cross_summary(store, newer)
    assert "AF999" in (paths.user_dir("alice") / FILE_NAME).read_text()


@pytest.mark.parametrize("reply", [FakeError(500, "model crashed"), "I am unable to do that."])
def test_a_failed_summary_returns_none_and_stores_nothing(store, backend, fake, paths, reply):
    talk(store, 20, [(ALICE, "hello")])
    new = store.create_conversation("room", "cli").id
    fake.queue(reply)
    assert build_cross_summary(store, backend, paths=paths, exclude_conversation_id=new) is None
    assert store.conn.execute("SELECT count(*) FROM cross_conversation_summaries").fetchone()[0] == 0
    assert not (paths.user_dir("alice") / FILE_NAME).exists()


def test_one_earlier_conversation_says_so(store, backend, fake, paths):
    talk(store, 20, [(ALICE, "hello")])
    new = store.create_conversation("room", "cli").id
    summary = build_cross_summary(store, backend, paths=paths, exclude_conversation_id=new, now=NOW)
    assert summary.splitlines()[-1].startswith("Summary of last 1 conversation | Updated: ")
