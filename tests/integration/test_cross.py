"""Cross-conversation summary: the briefing a new conversation starts with, prepared in the
background from the user's last conversations and adopted without a model call (real SQLite,
the fake Ollama server over real HTTP)."""

from __future__ import annotations

import datetime as dt
import json
import re

import pytest

from support.fake_ollama import FakeError
from tatlock.llm.ollama import OllamaBackend
from tatlock.memory import context, summarise
from tatlock.memory.compaction import compact_due
from tatlock.memory.cross import (
    FILE_NAME,
    adopt_briefing,
    briefing_stale,
    latest_cross_summary,
    prepare_briefing,
)
from tatlock.store.user import Author, UserStore
from tatlock.timeutil import iso

ALICE = Author("alice", "Alice", is_anchor=True)
MARIA = Author("maria", "Maria")
BUTLER = Author.assistant()
NOW = dt.datetime(2026, 11, 25, 9, 30, tzinfo=dt.UTC)

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
        return (
            f"TOPICS DISCUSSED\n- lyon\n\nKEY FACTS ESTABLISHED\n- COMPACT "
            f"{m.group(1)}-{m.group(2)}: facts\n"
        )
    return BRIEFING


@pytest.fixture
def backend(fake):
    fake.handler = handler
    return OllamaBackend(fake.url, "llama3.2:3b", timeout=30)


def talk(store: UserStore, day: int, lines: list[tuple[Author, str]]) -> int:
    start = dt.datetime(2026, 11, day, 10, 0, tzinfo=dt.UTC)
    conv = store.create_conversation(f"room{day}", "cli", started_at=iso(start)).id
    for i, (author, text) in enumerate(lines):
        role = "assistant" if author == BUTLER else "user"
        store.add_message(conv, role, text, author, timestamp=iso(start + dt.timedelta(minutes=i)))
    return conv


def prompt_of(fake) -> str:
    return fake.last_chat["messages"][-1]["content"]


def test_no_conversation_means_no_briefing_and_no_model_call(store, backend, fake, paths):
    assert not briefing_stale(store)
    assert prepare_briefing(store, backend, paths=paths) is None
    store.create_conversation("other", "cli")  # a conversation with no messages
    assert prepare_briefing(store, backend, paths=paths) is None and not briefing_stale(store)
    new = store.create_conversation("room", "cli").id
    assert adopt_briefing(store, new) is None and latest_cross_summary(store, new) is None
    assert fake.chat_requests == []
    assert not (paths.user_dir("alice") / FILE_NAME).exists()


def test_a_prepared_briefing_is_stored_with_its_footer_and_adopted_by_the_next_conversation(
    store, backend, fake, paths
):
    first = talk(
        store,
        20,
        [
            (ALICE, "My flight AF123 to Lyon leaves on 3 December."),
            (BUTLER, "Noted, sir."),
            (MARIA, "I will pick Alice up at the airport."),
        ],
    )
    second = talk(
        store,
        22,
        [(ALICE, "Find me a hotel in Lyon under 120 EUR."), (BUTLER, "Very good, sir.")]
        + [(ALICE, f"filler {i}") for i in range(10)],
    )
    compact_due(store, backend, second, interval=10)  # the older part of the second is a compact
    fake.reset()
    assert briefing_stale(store)
    events: list = []

    written = prepare_briefing(store, backend, paths=paths, now=NOW, emit=events.append)

    local = NOW.astimezone().strftime("%Y-%m-%d %H:%M")
    summary = f"{BRIEFING}\n\nSummary of last 2 conversations | Updated: {local}"
    assert written.text == summary and written.how == "model"
    assert len(fake.chat_requests) == 1
    prompt = prompt_of(fake)
    # both conversations, oldest first, with dates and authors; the compact and the latest messages
    assert prompt.index(f"Conversation #{first}") < prompt.index(f"Conversation #{second}")
    assert re.search(
        r"\[2026-11-2[01] \d\d:\d\d\] Anchor \(Alice\): My flight AF123 to Lyon", prompt
    )
    assert "] Maria: I will pick Alice up at the airport." in prompt
    assert "] Assistant: Noted, sir." in prompt
    assert "COMPACT 1-10" in prompt and "filler 9" in prompt
    assert (
        "Recent Highlights" in prompt
        and "Patterns Across Sessions" in prompt
        and "Current Context" in prompt
    )
    assert [e.type for e in events] == ["ModelCall"] and events[0].phase == "cross_summary"
    assert not briefing_stale(store)

    row = store.conn.execute("SELECT * FROM cross_conversation_summaries").fetchone()
    # prepared: for the next new one
    assert row["conversation_id"] is None and row["summary"] == summary
    assert json.loads(row["source_conversations"]) == [second, first]
    assert json.loads(row["covers"]) == {str(second): 12, str(first): 3} and row["how"] == "model"
    assert row["model"] == "llama3.2:3b" and row["created_at"] == iso(NOW)
    assert (paths.user_dir("alice") / FILE_NAME).read_text(encoding="utf-8") == summary + "\n"

    # a new conversation adopts it: its own copy, no model call
    new = store.create_conversation("room", "cli").id
    assert adopt_briefing(store, new) == summary and latest_cross_summary(store, new) == summary
    assert adopt_briefing(store, new) == summary  # asked again: the same one, not a second copy
    assert (
        store.conn.execute("SELECT count(*) FROM cross_conversation_summaries").fetchone()[0] == 2
    )
    assert len(fake.chat_requests) == 1
    ctx = context.build(
        store, new, budget_tokens=4096, cross_summary=latest_cross_summary(store, new)
    )
    assert "## Earlier conversations with this user" in ctx.summary_block()
    assert "AF123" in ctx.summary_block()


def test_only_the_last_five_are_used_a_copied_footer_is_replaced_and_a_new_message_makes_it_stale(
    store, backend, fake, paths
):
    convs = [talk(store, 10 + d, [(ALICE, f"day {10 + d}: the code is {d}")]) for d in range(7)]
    fake.handler = lambda body: (
        BRIEFING + "\n\nSummary of last 3 conversations | Updated: yesterday"
    )
    summary = prepare_briefing(store, backend, paths=paths, now=NOW).text
    assert summary.count("Summary of last") == 1
    assert summary.splitlines()[-1].startswith("Summary of last 5 conversations | Updated: ")
    prompt = prompt_of(fake)
    assert "day 10:" not in prompt and "day 11:" not in prompt and "day 16:" in prompt
    row = store.conn.execute(
        "SELECT source_conversations FROM cross_conversation_summaries"
    ).fetchone()
    assert json.loads(row[0]) == convs[:1:-1]  # newest first, the two oldest left out
    new = store.create_conversation("room", "cli").id
    adopt_briefing(store, new)

    # a message in a recent conversation makes it stale; the next one prepared is newer, the file
    # shows it, and the conversation that adopted the first keeps its own
    assert not briefing_stale(store)
    store.add_message(convs[-1], "user", "and the code changed to 99", ALICE)
    assert briefing_stale(store)
    fake.handler = lambda body: BRIEFING.replace("AF123", "AF999")
    prepare_briefing(store, backend, paths=paths, now=NOW)
    newer = store.create_conversation("room2", "cli").id
    assert "AF999" in adopt_briefing(store, newer)
    assert "AF123" in latest_cross_summary(store, new)
    assert "AF999" in (paths.user_dir("alice") / FILE_NAME).read_text()


def test_an_unusable_server_leaves_the_briefing_for_later(store, backend, fake, paths):
    talk(store, 20, [(ALICE, "hello")])
    fake.queue(FakeError(500, "model crashed"))
    with pytest.raises(summarise.Unavailable, match="model crashed"):
        prepare_briefing(store, backend, paths=paths)
    assert (
        store.conn.execute("SELECT count(*) FROM cross_conversation_summaries").fetchone()[0] == 0
    )
    assert not (paths.user_dir("alice") / FILE_NAME).exists() and briefing_stale(store)


def test_a_briefing_in_the_wrong_shape_is_repaired_once(store, backend, fake, paths):
    talk(store, 20, [(ALICE, "My flight AF123 to Lyon leaves on 3 December.")])
    fake.queue(
        "I am unable to do that.",
        {
            "json": {
                "recent_highlights": ["Alice's flight AF123 to Lyon leaves on 3 December"],
                "patterns_across_sessions": [],
                "current_context": ["Alice is travelling to Lyon"],
            }
        },
    )
    written = prepare_briefing(store, backend, paths=paths, now=NOW)
    assert written.how == "repaired" and len(fake.chat_requests) == 2
    assert set(fake.chat_requests[1]["format"]["properties"]) == {
        "recent_highlights",
        "patterns_across_sessions",
        "current_context",
    }
    assert written.text.startswith(
        "Recent Highlights\n- Alice's flight AF123 to Lyon leaves on 3 December"
    )
    assert (
        store.conn.execute("SELECT how FROM cross_conversation_summaries").fetchone()[0]
        == "repaired"
    )


@pytest.mark.parametrize(
    "reply", ["I am unable to do that.", "", "Recent Highlights\n- Gordon baked croissants"]
)
def test_a_briefing_the_model_cannot_write_is_an_extract_of_the_facts(
    store, backend, fake, paths, reply
):
    first = talk(
        store,
        19,
        [
            (ALICE, "My sister Philippa was born on 3 May 1990."),
            (BUTLER, "Noted, sir."),
            (MARIA, "I will bring the cake on Saturday."),
        ],
    )
    talk(
        store,
        20,
        [
            (ALICE, "My flight AF123 to Lyon leaves on 3 December."),
            (BUTLER, "Noted, sir."),
            (ALICE, "Remind me to book a hotel in Lyon."),
            (ALICE, "What is the weather in Lyon?"),
        ],
    )
    store.add_topics(first, ["family"])
    store.add_topics(first + 1, ["travel", "family"])
    fake.queue(
        reply,
        {"json": {"recent_highlights": [], "patterns_across_sessions": [], "current_context": []}},
    )
    written = prepare_briefing(store, backend, paths=paths, now=NOW)
    # one try, one repair, never more
    assert written.how == "extract" and len(fake.chat_requests) == 2
    text = written.text
    highlights, patterns, current = (
        text.split(h)[1]
        for h in ("Recent Highlights", "Patterns Across Sessions", "Current Context")
    )
    assert "Alice (#1): My flight AF123 to Lyon leaves on 3 December." in highlights
    assert "Alice (#1): My sister Philippa was born on 3 May 1990." in highlights
    assert "Maria (#3): I will bring the cake on Saturday." in highlights
    assert highlights.index("AF123") < highlights.index("Philippa")  # the newest conversation first
    assert (
        "family came up in 2 of these conversations" in patterns
        and "Maria took part in one of them" in patterns
    )
    assert "[UNRESOLVED] Alice (#3): Remind me to book a hotel in Lyon." in current
    assert "[UNRESOLVED] Alice asked (#4): What is the weather in Lyon? (no answer yet)" in current
    assert "croissants" not in text
    assert text.splitlines()[-1].startswith("Summary of last 2 conversations | Updated: ")
    assert (
        store.conn.execute("SELECT how FROM cross_conversation_summaries").fetchone()[0]
        == "extract"
    )


def test_one_earlier_conversation_says_so(store, backend, fake, paths):
    talk(store, 20, [(ALICE, "hello")])
    summary = prepare_briefing(store, backend, paths=paths, now=NOW).text
    assert summary.splitlines()[-1].startswith("Summary of last 1 conversation | Updated: ")


def test_a_briefing_and_its_repair_fit_a_small_window(store, backend, fake, paths):
    """Six conversations of long lines of digits (a token a digit) and a 2,048-token window: the
    sources are fitted to what the instructions, the repair's note and the answer leave, so the
    first request and its repair both fit, counted apart from tatlock's own estimate."""
    from support.window import prompt_tokens

    for d in range(6):
        talk(
            store,
            10 + d,
            [(ALICE, f"code {d}: " + "7" * 300), (BUTLER, "Noted, sir: " + "8" * 300)] * 10,
        )
    fake.queue(
        "I am unable to do that.",
        {
            "json": {
                "recent_highlights": ["codes"],
                "patterns_across_sessions": [],
                "current_context": [],
            }
        },
    )
    written = prepare_briefing(
        store,
        backend,
        paths=paths,
        now=NOW,
        budget_tokens=2048,
        options={"max_tokens": 512, "context": 2048},
    )
    assert written is not None and len(fake.chat_requests) == 2  # the try and its repair
    for body in fake.chat_requests:
        assert body["options"]["num_ctx"] == 2048
        assert prompt_tokens(body) + body["options"]["num_predict"] <= 2048, prompt_tokens(body)
    assert "code 5" in fake.chat_requests[0]["messages"][-1]["content"]  # the newest is read


def test_superseded_messages_are_left_out_of_the_briefing_and_its_extract(
    store, backend, fake, paths
):
    from tatlock.store import revisions

    conv = talk(
        store,
        20,
        [
            (ALICE, "My locker code is 1111."),
            (BUTLER, "Noted: 1111."),
            (ALICE, "My locker code is 2222."),
            (BUTLER, "Noted: 2222."),
        ],
    )
    old_q, old_a, new_q, _new_a = store.messages(conv, 1)
    revisions.supersede(
        store, [old_q.message_id, old_a.message_id], by=new_q.message_id, how="edited"
    )
    fake.queue("I am unable to do that.", "")  # neither the try nor its repair: the extract
    written = prepare_briefing(store, backend, paths=paths, now=NOW)
    assert written.how == "extract" and "2222" in written.text and "1111" not in written.text
    # (the title is the first)
    latest = fake.chat_requests[0]["messages"][-1]["content"].split("Latest messages")[1]
    assert "2222" in latest and "1111" not in latest
