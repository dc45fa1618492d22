"""Compaction: contiguous blocks from message 1, claims between processes, crash safety
(kill -9 mid-compaction), failures that lose nothing, the archive, the background thread.

Everything runs against real SQLite files and the fake Ollama server over real HTTP;
the crash and race tests use real subprocesses."""

from __future__ import annotations

import datetime as dt
import itertools
import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections import Counter

import pytest

from support.fake_ollama import FakeError, MidStreamError
from support.waiting import wait_until
from tatlock.events import CompactionFailed, CompactionFinished, CompactionStarted
from tatlock.llm.ollama import OllamaBackend
from tatlock.memory import context
from tatlock.memory.compaction import (
    HOST,
    Compactor,
    compact_due,
    compact_once,
    maybe_archive,
    next_block,
    normalise_summary,
)
from tatlock.store.user import Author, UserStore
from tatlock.timeutil import iso

ALICE = Author("alice", "Alice", is_anchor=True)
MARIA = Author("maria", "Maria")
HELPER = Author("helperbot", "Helper", is_bot=True)
BUTLER = Author.assistant()

RANGE_RE = re.compile(r"Summarise messages (\d+) to (\d+)")
ARCHIVE_RE = re.compile(r"ONE archive record covering messages 1 to (\d+)")
LINE_RE = re.compile(r"^\[#(\d+) [^\]]+\] (.+)$", re.M)


def summary_for(prompt: str) -> str:
    """What a well-behaved small model answers to prompts/compaction.txt or archive.txt."""
    m = RANGE_RE.search(prompt)
    if m:
        a, b = int(m.group(1)), int(m.group(2))
        transcript = prompt[prompt.rindex("Transcript") :]
        facts = [f"- #{n}: {text[:60]}" for n, text in LINE_RE.findall(transcript)][:4]
        return (
            f"TOPICS DISCUSSED\n- block {a}-{b}\n- travel\n\n"
            f"FACTUAL TIMELINE\n" + "\n".join(facts) + "\n\n"
            f"KEY FACTS ESTABLISHED\n- COMPACT {a}-{b}: Alice said her flight is on "
            f"2026-12-0{a % 9 + 1}\n"
            f"- Alice: the budget is {a * 100} EUR\n\n"
            f"UNRESOLVED ITEMS\n- [UNRESOLVED] Alice asked about the hotel in block {a}-{b}\n\n"
            f"TECHNICAL DETAILS\n- none\n"
        )
    m = ARCHIVE_RE.search(prompt)
    if m:
        n = int(m.group(1))
        return (
            f"TOPICS DISCUSSED\n- travel\n\nFACTUAL TIMELINE\n- #1: start\n\n"
            f"KEY FACTS ESTABLISHED\n- ARCHIVE 1-{n}: Alice's flight and budget are settled\n\n"
            f"UNRESOLVED ITEMS\n- none\n\nTECHNICAL DETAILS\n- none\n"
        )
    return "OK"


def handler(body: dict) -> str:
    return summary_for(body["messages"][-1]["content"])


def requested_ranges(fake) -> list[tuple[int, int]]:
    out = []
    for body in fake.chat_requests:
        m = RANGE_RE.search((body or {}).get("messages", [{}])[-1].get("content", ""))
        if m:
            out.append((int(m.group(1)), int(m.group(2))))
    return out


@pytest.fixture
def backend(fake):
    fake.handler = handler
    return OllamaBackend(fake.url, "llama3.2:3b", timeout=30)


def conversation(store: UserStore, n: int) -> int:
    conv = store.create_conversation("room", "cli").id
    add(store, conv, n)
    return conv


def add(store: UserStore, conv: int, n: int) -> None:
    start = store.conversation(conv).message_count
    t0 = dt.datetime(2026, 11, 21, 14, 0, tzinfo=dt.UTC)
    for i in range(start + 1, start + n + 1):
        ts = iso(t0 + dt.timedelta(minutes=i))
        if i % 2 == 0:
            store.add_message(conv, "assistant", f"Noted, sir: item {i}.", BUTLER, timestamp=ts)
        elif i % 7 == 0:
            store.add_message(
                conv,
                "user",
                f"Maria here, message {i}, my number is 555-{i:04d}",
                MARIA,
                timestamp=ts,
            )
        else:
            store.add_message(
                conv, "user", f"Message {i}: my locker code is {1000 + i}", ALICE, timestamp=ts
            )


def check_invariants(path, conv: int, *, total: int | None = None) -> list[tuple[int, int]]:
    """Compacts contiguous from 1, no gap, no overlap, compacted_up_to agrees, at most one claim."""
    conn = sqlite3.connect(path)
    try:
        ranges = conn.execute(
            "SELECT from_message, up_to_message, summary FROM "
            "conversation_compacts"
            " WHERE conversation_id = ? ORDER BY from_message",
            (conv,),
        ).fetchall()
        expected_from = 1
        for a, b, summary in ranges:
            assert a == expected_from, f"gap or overlap at {a} (expected {expected_from}): {ranges}"
            assert b >= a
            assert f"COMPACT {a}-{b}" in summary, (
                "a compact with someone else's (or a partial) summary"
            )
            expected_from = b + 1
        up_to = conn.execute(
            "SELECT compacted_up_to FROM conversations WHERE id = ?", (conv,)
        ).fetchone()[0]
        assert up_to == (ranges[-1][1] if ranges else 0)
        assert conn.execute("SELECT count(*) FROM compaction_claims").fetchone()[0] <= 1
        if total is not None:
            assert (
                conn.execute(
                    "SELECT count(*) FROM conversation_messages WHERE conversation_id = ?", (conv,)
                ).fetchone()[0]
                == total
            )
        return [(a, b) for a, b, _ in ranges]
    finally:
        conn.close()


def claims(store: UserStore) -> list[sqlite3.Row]:
    return store.conn.execute("SELECT * FROM compaction_claims").fetchall()


# -- blocks --------------------------------------------------------------------------------


def test_next_block_waits_for_a_full_block_and_blocks_are_contiguous_from_1(store, backend, fake):
    conv = conversation(store, 9)
    assert next_block(store, conv, 10) is None
    add(store, conv, 1)
    assert next_block(store, conv, 10) == (1, 10)

    c = compact_once(store, backend, conv, interval=10)
    assert (c.from_message, c.up_to_message) == (1, 10)
    assert next_block(store, conv, 10) is None  # 10 messages, all compacted
    add(store, conv, 9)
    assert next_block(store, conv, 10) is None  # 19: block 11-20 not complete
    add(store, conv, 16)  # 35
    assert next_block(store, conv, 10) == (11, 20)

    done = compact_due(store, backend, conv, interval=10)
    assert [(c.from_message, c.up_to_message) for c in done] == [(11, 20), (21, 30)]
    assert [(c.from_message, c.up_to_message) for c in store.compacts(conv)] == [
        (1, 10),
        (11, 20),
        (21, 30),
    ]
    assert store.conversation(conv).compacted_up_to == 30
    assert next_block(store, conv, 10) is None
    add(store, conv, 5)
    assert next_block(store, conv, 10) == (31, 40)
    assert requested_ranges(fake) == [(1, 10), (11, 20), (21, 30)]
    assert claims(store) == []

    # the context now shows the summaries and, verbatim, only the messages after them
    ctx = context.build(store, conv, budget_tokens=8192)
    assert [m.message_number for m in ctx.messages] == list(range(31, 41))
    assert "COMPACT 21-30" in ctx.summary_block()


def test_the_model_sees_a_dated_transcript_with_authors_and_topics_are_stored(store, backend, fake):
    conv = store.create_conversation("room", "cli").id
    ts = "2026-11-21T14:03:00+00:00"
    store.add_message(conv, "user", "My sister Maria arrives on 3 December.", ALICE, timestamp=ts)
    store.add_message(conv, "user", "I will bring 2 suitcases.", MARIA, timestamp=ts)
    store.add_message(conv, "user", "Reminder synced.", HELPER, timestamp=ts)
    store.add_message(conv, "assistant", "Very good, sir.", BUTLER, timestamp=ts)
    events: list = []
    c = compact_once(store, backend, conv, interval=4, emit=events.append)
    prompt = fake.last_chat["messages"][-1]["content"]
    assert "Summarise messages 1 to 4" in prompt
    assert "] Anchor (Alice): My sister Maria arrives on 3 December." in prompt
    assert "] Maria: I will bring 2 suitcases." in prompt
    assert "] [Helper (bot)]: Reminder synced." in prompt
    assert "] Assistant: Very good, sir." in prompt
    assert re.search(r"\[#1 2026-11-2[01] \d\d:\d\d\] Anchor", prompt)  # number and local date
    assert "[UNRESOLVED]" in prompt and "KEY FACTS ESTABLISHED" in prompt
    assert c.topics == ["block 1-4", "travel"]
    assert {r["name"] for r in store.topics(conv)} == {"block 1-4", "travel"}
    assert c.model == "llama3.2:3b"
    assert [type(e) for e in events] == [CompactionStarted, CompactionFinished]
    fin = events[-1]
    assert (fin.from_message, fin.up_to_message) == (1, 4) and fin.prompt_tokens and fin.eval_tokens


def test_huge_messages_are_cut_so_the_prompt_fits_a_small_model(store, backend, fake):
    conv = store.create_conversation("room", "cli").id
    for i in range(1, 11):
        text = (
            f"paste {i}: " + "lorem ipsum " * 2000
            if i % 3 == 0
            else f"short message {i} with code {i * 111}"
        )
        store.add_message(conv, "user", text, ALICE)
    c = compact_once(store, backend, conv, interval=10)
    assert (c.from_message, c.up_to_message) == (1, 10)
    prompt = fake.last_chat["messages"][-1]["content"]
    assert fake.last_chat and len(prompt) / 4 < 3200  # fits 4096 with the answer
    for i in range(1, 11):
        assert (
            f"paste {i}: lorem" if i % 3 == 0 else f"short message {i} with code {i * 111}"
        ) in prompt
    assert prompt.count("more characters, kept in memory]") == 3
    assert len(store.messages(conv)[2].content) > 20000  # the stored message is untouched


def test_summary_is_normalised_and_garbage_rejected():
    text = (
        "Sure, here is the summary.\n**TOPICS DISCUSSED:**\n* Paris trip\n\n## KEY FACTS "
        "ESTABLISHED\n"
        "Alice: flight AF123 on 2026-12-03\nUNRESOLVED ITEMS:\n- none\n"
    )
    summary, topics = normalise_summary(text)
    assert summary == (
        "TOPICS DISCUSSED\n* Paris trip\n\nKEY FACTS ESTABLISHED\n- Alice: flight AF123 on "
        "2026-12-03"
        "\n\nUNRESOLVED ITEMS\n- none"
    )
    assert topics == ["Paris trip"]
    assert context._key_facts(summary) == ["- Alice: flight AF123 on 2026-12-03"]
    assert normalise_summary("They talked about Paris.") is None
    assert normalise_summary("") is None
    assert normalise_summary("TOPICS DISCUSSED\n- Paris\n") is None


# -- failures ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "reply",
    [
        FakeError(500, "model runner crashed"),
        MidStreamError("connection lost", after_chunks=3),
    ],
)
def test_a_failed_compaction_writes_nothing_releases_the_claim_and_keeps_the_messages(
    store, backend, fake, reply
):
    conv = conversation(store, 12)
    fake.queue(reply)
    events: list = []
    assert compact_due(store, backend, conv, interval=10, emit=events.append) == []
    assert store.compacts(conv) == []
    assert store.conversation(conv).compacted_up_to == 0
    assert claims(store) == []
    assert [type(e) for e in events] == [CompactionStarted, CompactionFailed]
    assert "messages 1-10" in events[-1].reason
    ctx = context.build(store, conv, budget_tokens=4096)
    assert [m.message_number for m in ctx.messages] == list(range(1, 13))  # nothing lost
    assert "locker code is 1001" in ctx.transcript()

    # the next reply's compaction simply succeeds
    c = compact_once(store, backend, conv, interval=10)
    assert (c.from_message, c.up_to_message) == (1, 10)


@pytest.mark.parametrize(
    "reply",
    [
        "Sure! They chatted about locker codes and phone numbers.",
        "",
        "1. 12. 2026-11-20 10:00\n" * 30,  # what SmolLM2 wrote: a loop, stopped at its fourth line
    ],
)
def test_a_summary_in_the_wrong_shape_is_repaired_once_then_extracted_and_never_retried(
    store, backend, fake, reply
):
    conv = conversation(store, 12)
    fake.queue(
        reply,
        {
            "json": {
                "topics_discussed": [],
                "factual_timeline": [],
                "key_facts_established": [],
                "unresolved_items": [],
                "technical_details": [],
            }
        },
    )
    events: list = []
    [c] = compact_due(store, backend, conv, interval=10, emit=events.append)
    assert len(fake.chat_requests) == 2  # the summary, and one repair asked as structured output
    repair = fake.chat_requests[1]
    assert set(repair["format"]["properties"]) == {
        "topics_discussed",
        "factual_timeline",
        "key_facts_established",
        "unresolved_items",
        "technical_details",
    }
    assert "Summarise messages 1 to 10" in repair["messages"][-1]["content"]
    # the extract: every fact of the block, attributed, with its message number
    assert (c.from_message, c.up_to_message, c.model) == (1, 10, "extract")
    facts = context._key_facts(c.summary)
    assert "- Alice (#1): Message 1: my locker code is 1001" in facts
    assert "- Maria (#7): Maria here, message 7, my number is 555-0007" in facts
    assert all(f"locker code is {1000 + i}" in c.summary for i in (1, 3, 5, 9))
    assert "#11" not in c.summary and "1011" not in c.summary  # only the block's messages
    assert [type(e) for e in events] == [CompactionStarted, CompactionFinished]
    assert events[-1].how == "extract" and "not in the expected sections" in events[-1].why
    assert claims(store) == [] and store.conversation(conv).compacted_up_to == 10
    # the block is done: the next compaction has nothing to do, no model call
    assert compact_due(store, backend, conv, interval=10) == [] and len(fake.chat_requests) == 2


def test_a_repair_in_the_right_shape_is_used(store, backend, fake):
    conv = conversation(store, 10)
    fake.queue(
        "I am unable to summarise.",
        {
            "json": {
                "topics_discussed": ["lockers"],
                "factual_timeline": ["#1: Alice gave her locker code"],
                "key_facts_established": ["Alice: locker code 1001", "Maria: number 555-0007"],
                "unresolved_items": [],
                "technical_details": [],
            }
        },
    )
    events: list = []
    c = compact_once(store, backend, conv, interval=10, emit=events.append)
    assert c.model == "repaired (llama3.2:3b)" and c.topics == ["lockers"]
    assert context._key_facts(c.summary) == [
        "- Alice: locker code 1001",
        "- Maria: number 555-0007",
    ]
    assert events[-1].how == "repaired" and events[-1].eval_tokens


def test_a_summary_that_invents_its_facts_is_not_used(store, backend, fake):
    conv = conversation(store, 10)
    invented = (
        "TOPICS DISCUSSED\n- cooking\n\nKEY FACTS ESTABLISHED\n- Gordon baked seventeen "
        "croissants\n"
        "- Penelope prefers rhubarb crumble\n"
    )
    fake.queue(invented, invented)
    c = compact_once(store, backend, conv, interval=10)
    assert (
        c.model == "extract"
        and "croissants" not in c.summary
        and "locker code is 1001" in c.summary
    )


def test_a_timed_out_summary_is_extracted_without_a_repair(store, fake):
    conv = conversation(store, 10)
    slow = OllamaBackend(fake.url, "llama3.2:3b", timeout=0.5)
    fake.delay = 2.0
    events: list = []
    c = compact_once(store, slow, conv, interval=10, emit=events.append)
    assert c.model == "extract" and len(fake.chat_requests) == 1
    assert "did not finish the summary in time" in events[-1].why


def test_a_cancelled_compaction_pauses_and_leaves_the_block_for_later(store, backend, fake):
    from tatlock.llm.base import Cancel

    conv = conversation(store, 10)
    cancel = Cancel()
    fake.delay = 5.0
    threading.Timer(0.3, cancel.cancel).start()
    events: list = []
    t0 = time.monotonic()
    assert compact_due(store, backend, conv, interval=10, emit=events.append, cancel=cancel) == []
    assert time.monotonic() - t0 < 3  # the call was cut, not waited for
    assert "paused" in events[-1].reason and claims(store) == [] and store.compacts(conv) == []
    fake.delay = 0
    assert compact_once(store, backend, conv, interval=10).model == "llama3.2:3b"


def test_an_unreachable_server_is_a_failure_not_an_exception(store):
    conv = conversation(store, 10)
    dead = OllamaBackend("http://127.0.0.1:9", "llama3.2:3b", timeout=2)
    events: list = []
    assert compact_once(store, dead, conv, interval=10, emit=events.append) is None
    assert isinstance(events[-1], CompactionFailed) and "not reachable" in events[-1].reason
    assert claims(store) == [] and store.compacts(conv) == []


# -- claims --------------------------------------------------------------------------------


def put_claim(store, conv, *, pid, host=HOST, expires_in=600.0, owner="someone:1:abcd"):
    now = dt.datetime.now(dt.UTC)
    store.conn.execute(
        "INSERT OR REPLACE INTO compaction_claims (conversation_id, from_message, up_to_message, "
        "owner, pid, host,"
        " claimed_at, expires_at) VALUES (?, 1, 10, ?, ?, ?, ?, ?)",
        (conv, owner, pid, host, iso(now), iso(now + dt.timedelta(seconds=expires_in))),
    )


def dead_pid() -> int:
    p = subprocess.Popen([sys.executable, "-c", "pass"])
    p.wait()
    return p.pid


def test_a_claim_of_a_dead_process_is_taken_over(store, backend, fake):
    conv = conversation(store, 10)
    put_claim(store, conv, pid=dead_pid())
    c = compact_once(store, backend, conv, interval=10)
    assert (c.from_message, c.up_to_message) == (1, 10)
    assert claims(store) == []


def test_a_live_claim_is_respected_and_an_expired_one_taken_over(store, backend, fake):
    conv = conversation(store, 10)
    put_claim(store, conv, pid=os.getpid())  # this process: alive
    assert compact_due(store, backend, conv, interval=10) == []
    assert fake.chat_requests == [] and store.compacts(conv) == []
    assert claims(store)[0]["owner"] == "someone:1:abcd"

    put_claim(store, conv, pid=dead_pid(), host="elsewhere")  # another host: trust the expiry
    assert compact_once(store, backend, conv, interval=10) is None
    assert fake.chat_requests == []

    put_claim(store, conv, pid=os.getpid(), host="elsewhere", expires_in=-1)  # expired
    c = compact_once(store, backend, conv, interval=10)
    assert (c.from_message, c.up_to_message) == (1, 10) and claims(store) == []


def test_a_claim_lost_during_the_model_call_discards_the_summary(store, backend, fake, paths):
    conv = conversation(store, 10)
    other = UserStore.open(paths, "alice")

    def steal(body):  # while we wait for the model, another process takes over our (expired) claim
        put_claim(other, conv, pid=os.getpid(), owner="thief:2:ef01")
        return handler(body)

    fake.handler = steal
    events: list = []
    assert compact_once(store, backend, conv, interval=10, emit=events.append, claim_ttl=0) is None
    assert "took over the claim" in events[-1].reason
    assert store.compacts(conv) == []
    assert claims(store)[0]["owner"] == "thief:2:ef01"  # not ours to release
    other.close()


# -- crashes and races (real processes) -----------------------------------------------------

CHILD = r"""
import sys, time
from tatlock.config import load
from tatlock.llm.ollama import OllamaBackend
from tatlock.memory.compaction import compact_due, next_block
from tatlock.store.user import UserStore

url, conv, interval, seconds, gated = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), sys.argv[5]
store = UserStore.open(load().paths, "alice")
backend = OllamaBackend(url, "llama3.2:3b", timeout=30)
if gated == "1":  # start together with the others
    print("ready", flush=True)
    sys.stdin.readline()
deadline = time.monotonic() + seconds
# as the product does: compaction after each reply, until nothing is due
while next_block(store, conv, interval) is not None and time.monotonic() < deadline:
    for c in compact_due(store, backend, conv, interval=interval):
        print("compacted", c.from_message, c.up_to_message, flush=True)
    time.sleep(0.02)
"""


def child(
    fake, conv: int, interval: int, seconds: float = 20, gated: bool = False
) -> subprocess.Popen:
    return subprocess.Popen(
        [
            sys.executable,
            "-c",
            CHILD,
            fake.url,
            str(conv),
            str(interval),
            str(seconds),
            "1" if gated else "0",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_kill_9_mid_compaction_repeatedly_never_leaves_a_partial_compact_gap_or_overlap(
    store, backend, fake
):
    conv = conversation(store, 80)
    fake.delay = 0.3  # each summary takes a while: the kill lands inside the model call
    rng = random.Random(1234)
    dead_claims = 0
    for i in range(6):
        before = len(fake.chat_requests)
        p = child(fake, conv, 10)
        if i < 5:
            wait_until(lambda: len(fake.chat_requests) > before, 10, "the child to ask the model")
            time.sleep(rng.uniform(0.0, 0.25))
        else:
            time.sleep(rng.uniform(0.0, 1.2))  # anywhere: start-up, claim, model call, commit
        p.send_signal(signal.SIGKILL)
        p.wait()
        assert p.returncode == -signal.SIGKILL or p.returncode == 0
        check_invariants(store.path, conv, total=80)
        dead_claims += any(r["pid"] == p.pid for r in claims(store))
    # killed inside the model call: their claims were left behind and taken over
    assert dead_claims >= 3

    fake.delay = 0
    compact_due(store, backend, conv, interval=10)  # takes the dead claim over, finishes the rest
    assert check_invariants(store.path, conv, total=80) == [(a, a + 9) for a in range(1, 80, 10)]
    assert claims(store) == []
    assert len(requested_ranges(fake)) >= 8


def test_two_processes_and_this_one_racing_never_compact_one_range_twice(
    store, paths, backend, fake
):
    conv = conversation(store, 60)
    fake.delay = 0.1
    procs = [child(fake, conv, 5, gated=True), child(fake, conv, 5, gated=True)]
    for p in procs:
        assert p.stdout.readline().strip() == "ready"
    go = threading.Event()
    errors: list = []

    def here():
        own = UserStore.open(paths, "alice")
        go.wait()
        try:
            deadline = time.monotonic() + 20
            while next_block(own, conv, 5) is not None and time.monotonic() < deadline:
                compact_due(own, backend, conv, interval=5)
                time.sleep(0.02)
        except BaseException as exc:
            errors.append(exc)
        finally:
            own.close()

    t = threading.Thread(target=here)
    t.start()
    for p in procs:
        p.stdin.write("go\n")
        p.stdin.flush()
    go.set()
    outs = [p.communicate(timeout=30) for p in procs]
    t.join(30)
    assert not errors
    assert all(p.returncode == 0 for p in procs), [o[1] for o in outs]
    assert check_invariants(store.path, conv, total=60) == [(a, a + 4) for a in range(1, 61, 5)]
    requested = Counter(requested_ranges(fake))
    assert set(requested) == {(a, a + 4) for a in range(1, 61, 5)}
    assert max(requested.values()) == 1, requested  # no range was summarised twice
    assert claims(store) == []


# -- archive -------------------------------------------------------------------------------


def test_the_archive_is_built_when_compacts_outgrow_the_budget_and_the_context_uses_it(
    store, backend, fake
):
    conv = conversation(store, 85)
    events: list = []
    compact_due(store, backend, conv, interval=10, budget_tokens=100_000, emit=events.append)
    assert len(store.compacts(conv)) == 8
    assert "archive" not in store.conversation(conv).metadata  # fits: no archive, no model call
    assert len(fake.chat_requests) == 8

    budget = 4096  # the eight compacts (~110 tokens each) exceed 0.35 * 4096 / 2
    archive = maybe_archive(store, backend, conv, budget_tokens=budget, emit=events.append)
    meta = store.conversation(conv).metadata["archive"]
    assert meta == archive
    n = meta["up_to_message"]
    assert n in range(10, 71, 10) and f"ARCHIVE 1-{n}" in meta["summary"]
    assert len(meta["merged_compacts"]) == n // 10 and meta["created_at"]
    prompt = fake.last_chat["messages"][-1]["content"]
    assert "COMPACT 1-10" in prompt and "COMPACT 71-80" not in prompt  # the newest stays verbatim
    assert len(store.compacts(conv)) == 8  # compacts are never deleted (they stay searchable)

    ctx = context.build(store, conv, budget_tokens=budget)
    block = ctx.summary_block()
    assert f"Archive of this conversation (messages 1-{n})" in block and f"ARCHIVE 1-{n}" in block
    assert "COMPACT 71-80" in block
    assert all(c.up_to_message > n for c in ctx.compacts)
    assert [m.message_number for m in ctx.messages] == list(range(81, 86))

    # more compacts later: the archive grows from the old one, never across a gap
    add(store, conv, 40)
    compact_due(store, backend, conv, interval=10, budget_tokens=budget)
    meta2 = store.conversation(conv).metadata["archive"]
    assert meta2["up_to_message"] > n
    assert f"Archive (messages 1-{n}):" in fake.last_chat["messages"][-1]["content"]
    assert claims(store) == []


def test_a_failed_archive_keeps_the_old_one(store, backend, fake):
    conv = conversation(store, 80)
    compact_due(store, backend, conv, interval=10, budget_tokens=4096)
    old = store.conversation(conv).metadata["archive"]
    add(store, conv, 60)
    compact_due(store, backend, conv, interval=10)  # no budget: no archive step
    fake.queue(FakeError(500, "out of memory"))
    events: list = []
    assert maybe_archive(store, backend, conv, budget_tokens=4096, emit=events.append) is None
    assert store.conversation(conv).metadata["archive"] == old
    assert isinstance(events[-1], CompactionFailed) and "archive" in events[-1].reason
    assert claims(store) == []
    assert len(store.compacts(conv)) == 14


# -- background ----------------------------------------------------------------------------


def test_compactor_runs_in_the_background_with_its_own_connection(store, paths, backend, fake):
    conv = conversation(store, 25)
    fake.delay = 0.2
    events: list = []
    threads: set = set()

    def emit(e):
        threads.add(threading.current_thread().name)
        events.append(e)

    c = Compactor.start(paths, "alice", conv, backend, interval=10, budget_tokens=4096, emit=emit)
    assert c.running and not c.wait(0.01)
    store.add_message(conv, "user", "still talking while it works", ALICE)  # not blocked
    assert c.wait(10)
    assert [(x.from_message, x.up_to_message) for x in c.compacts] == [(1, 10), (11, 20)]
    assert [(x.from_message, x.up_to_message) for x in store.compacts(conv)] == [(1, 10), (11, 20)]
    assert [type(e).__name__ for e in events] == ["CompactionStarted", "CompactionFinished"] * 2
    assert threads == {f"tatlock-compactor-{conv}"}
    assert c.error is None


def test_compactor_with_a_failing_emit_still_compacts(store, paths, backend):
    conv = conversation(store, 10)

    def broken(e):
        raise RuntimeError("view crashed")

    c = Compactor.start(paths, "alice", conv, backend, interval=10, emit=broken)
    assert c.wait(10)
    assert len(store.compacts(conv)) == 1 and c.error is None


def test_a_claim_of_a_killed_process_not_yet_reaped_is_taken_over(store, backend, fake):
    """kill -9 leaves a zombie until its parent reaps it (in a container without an init, maybe
    never): it works no more, so its claim is not respected for the claim's ten minutes."""
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        os.kill(child.pid, signal.SIGKILL)
        deadline = time.monotonic() + 10
        while open(f"/proc/{child.pid}/stat").read().rsplit(")", 1)[-1].split()[0] != "Z":  # noqa: SIM115 - one read, closed at once
            assert time.monotonic() < deadline
            time.sleep(0.01)
        conv = conversation(store, 10)
        put_claim(store, conv, pid=child.pid)
        c = compact_once(store, backend, conv, interval=10)
        assert (c.from_message, c.up_to_message) == (1, 10) and claims(store) == []
    finally:
        child.wait()


# -- what the merge with the context fitting (issue 17 item 5) and regeneration (issue 18) keeps --


EMPTY_REPAIR = {
    "json": {
        "topics_discussed": [],
        "factual_timeline": [],
        "key_facts_established": [],
        "unresolved_items": [],
        "technical_details": [],
    }
}


def test_superseded_messages_are_left_out_of_a_compaction_and_of_its_extract(store, backend, fake):
    from tatlock.store import revisions

    conv = conversation(store, 12)
    m3, m4, m5 = store.messages(conv, 3, 5)  # Alice's code 1003, the reply, Alice's code 1005
    revisions.supersede(store, [m3.message_id, m4.message_id], by=m5.message_id, how="edited")
    # neither the summary nor its repair: the extract
    fake.queue("I am unable to summarise.", EMPTY_REPAIR)
    c = compact_once(store, backend, conv, interval=10)
    assert c.model == "extract" and (c.from_message, c.up_to_message) == (1, 10)
    assert "1003" not in c.summary and "1001" in c.summary and "1005" in c.summary
    assert all("1003" not in body["messages"][-1]["content"] for body in fake.chat_requests)


def test_a_split_block_and_its_repairs_fit_the_window(store, backend, fake):
    """Twenty messages of 600 digits (a token a digit) and a 2,048-token window: the block is
    split into requests that fit, and so does each repair (the prompt and the repair's note), and
    each step of the archive merge that follows."""
    from support.window import prompt_tokens

    conv = store.create_conversation("room", "cli").id
    rng = random.Random(4)
    for _ in range(20):
        store.add_message(
            conv, "user", "".join(rng.choice("0123456789") for _ in range(600)), ALICE
        )
    fake.handler = lambda body: EMPTY_REPAIR if body.get("format") else "I cannot summarise that."
    done = compact_due(
        store,
        backend,
        conv,
        interval=20,
        budget_tokens=2048,
        options={"max_tokens": 512, "context": 2048},
    )
    assert len(done) > 1 and done[0].from_message == 1 and done[-1].up_to_message == 20
    assert all(a.up_to_message + 1 == b.from_message for a, b in itertools.pairwise(done))
    assert all(c.model == "extract" for c in done)
    blocks = [b for b in fake.chat_requests if RANGE_RE.search(b["messages"][-1]["content"])]
    # one repair a block, never more
    assert len([b for b in blocks if b.get("format")]) == len(done)
    assert len(blocks) < len(fake.chat_requests)  # the archive merge, in steps, with repairs too
    for body in fake.chat_requests:
        assert prompt_tokens(body) + body["options"]["num_predict"] <= 2048, prompt_tokens(body)


def test_an_archive_without_the_model_is_merged_from_the_records(store, backend, fake):
    conv = conversation(store, 85)
    compact_due(store, backend, conv, interval=10, budget_tokens=100_000)
    fake.reset()
    archive = maybe_archive(store, backend, conv, budget_tokens=4096, use_model=False)
    assert fake.chat_requests == [] and archive["how"] == "extract"
    assert store.conversation(conv).metadata["archive"] == archive
    n = archive["up_to_message"]
    assert n in range(10, 71, 10) and len(archive["merged_compacts"]) == n // 10
    assert "COMPACT 1-10: Alice said her flight" in archive["summary"]  # the records' facts, merged
    assert claims(store) == []
