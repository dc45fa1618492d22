"""The store functions behind memory (tatlock.store.search, .compaction, .summaries, .stats):
the contracts that memory/ relies on and that its own tests only reach indirectly, above
all the compaction protocol's refusals (a lost claim, a block or archive changed meanwhile)
that write nothing.

Real SQLite files under the per-test TATLOCK_HOME (see conftest.py)."""

from __future__ import annotations

import datetime as dt
import os

import pytest

from tatlock.store import compaction as rows
from tatlock.store import search as queries
from tatlock.store.stats import MemoryStats, memory_stats
from tatlock.store.summaries import (
    add_cross_summary,
    anchor_name,
    latest_cross_summary,
    recent_conversation_ids,
)
from tatlock.store.user import Author, UserStore
from tatlock.timeutil import iso

ALICE = Author("alice", "Alice", is_anchor=True)
ALICE_LATER = Author("alice", "Alice Smith", is_anchor=True)
MARIA = Author("maria", "Maria")
T0 = dt.datetime(2026, 11, 21, 14, 0, tzinfo=dt.UTC)


def ts(minutes: int) -> str:
    return iso(T0 + dt.timedelta(minutes=minutes))


def conversation(store: UserStore, n: int, author: Author = ALICE, start: int = 0) -> int:
    conv = store.create_conversation("room", "cli", started_at=ts(start)).id
    for i in range(1, n + 1):
        store.add_message(
            conv, "user", f"message {i} about the garden", author, timestamp=ts(start + i)
        )
    return conv


def claim_rows(store: UserStore) -> list[tuple]:
    return [
        tuple(r) for r in store.conn.execute("SELECT conversation_id, owner FROM compaction_claims")
    ]


# -- compaction ----------------------------------------------------------------------------


def test_claim_next_block_claims_only_a_full_block_and_respects_a_live_claim(store):
    conv = conversation(store, 9)
    assert rows.claim_next_block(store, conv, 10, "me:1:aa", 60) == (None, None)
    assert claim_rows(store) == []  # nothing due: no claim left behind

    store.add_message(conv, "user", "message 10", ALICE)
    assert rows.claim_next_block(store, conv, 10, "me:1:aa", 60) == ((1, 10), None)
    assert claim_rows(store) == [(conv, "me:1:aa")]
    assert rows.holds(store, conv, "me:1:aa") and not rows.holds(store, conv, "you:2:bb")

    # another owner of this (live) process: refused, the claim stays ours
    block, busy = rows.claim_next_block(store, conv, 10, "you:2:bb", 60)
    assert block == (1, 10) and "being summarised by me:1:aa" in busy
    assert claim_rows(store) == [(conv, "me:1:aa")]

    rows.release(store, conv, "you:2:bb")  # not theirs to release
    assert claim_rows(store) == [(conv, "me:1:aa")]
    rows.release(store, conv, "me:1:aa")
    assert claim_rows(store) == []


def test_commit_compact_needs_the_claim_and_the_block_still_next(store):
    conv = conversation(store, 20)
    rows.claim_next_block(store, conv, 10, "me:1:aa", 60)
    rows.release(store, conv, "me:1:aa")
    rows.claim_next_block(store, conv, 10, "thief:2:bb", 60)
    with pytest.raises(rows.ClaimLost):
        rows.commit_compact(
            store,
            conv,
            "me:1:aa",
            1,
            10,
            summary="KEY FACTS ESTABLISHED\n- x",
            topics=[],
            model="m",
        )
    assert store.compacts(conv) == [] and claim_rows(store) == [(conv, "thief:2:bb")]

    c = rows.commit_compact(
        store,
        conv,
        "thief:2:bb",
        1,
        10,
        summary="KEY FACTS ESTABLISHED\n- garden",
        topics=["garden"],
        model="m",
    )
    assert (c.from_message, c.up_to_message, c.topics, c.model) == (1, 10, ["garden"], "m")
    assert store.compacts(conv) == [c]
    assert store.conversation(conv).compacted_up_to == 10
    assert claim_rows(store) == []  # released with the commit

    # a second commit of the same block (someone compacted it meanwhile) is refused
    rows.claim_next_block(store, conv, 10, "me:1:aa", 60)
    with pytest.raises(rows.Conflict, match="messages 1-10 were compacted meanwhile"):
        rows.commit_compact(store, conv, "me:1:aa", 1, 10, summary="again", topics=[], model="m")
    assert [x.id for x in store.compacts(conv)] == [c.id]
    assert rows.next_block(store, conv, 10) == (11, 20)


def test_the_archive_is_written_only_under_the_claim_and_from_the_archive_it_was_planned_on(store):
    conv = conversation(store, 4)
    assert rows.archive_of(store, conv) == {} and rows.archive_of(store, 999) == {}
    first = {"up_to_message": 2, "summary": "ARCHIVE 1-2", "merged_compacts": [1]}

    assert rows.claim_archive(store, conv, "me:1:aa", 1, 2, 60, archived_up_to=0) is None
    rows.commit_archive(store, conv, "me:1:aa", first, archived_up_to=0)
    assert rows.archive_of(store, conv) == first
    assert store.conversation(conv).metadata == {"archive": first}
    assert claim_rows(store) == []

    # planned from "no archive", but one was written meanwhile: no claim, nothing written
    assert "rebuilt meanwhile" in rows.claim_archive(
        store, conv, "me:1:aa", 1, 4, 60, archived_up_to=0
    )
    assert claim_rows(store) == []
    assert rows.claim_archive(store, conv, "me:1:aa", 3, 4, 60, archived_up_to=2) is None
    with pytest.raises(rows.Conflict, match="rebuilt meanwhile"):
        rows.commit_archive(
            store, conv, "me:1:aa", {"up_to_message": 4, "summary": "x"}, archived_up_to=0
        )
    store.set_conversation_metadata(conv, title_hint="kept")  # other metadata survives a commit
    rows.release(store, conv, "me:1:aa")
    with pytest.raises(rows.ClaimLost):
        rows.commit_archive(
            store, conv, "me:1:aa", {"up_to_message": 4, "summary": "x"}, archived_up_to=2
        )
    assert rows.archive_of(store, conv) == first

    rows.claim_archive(store, conv, "me:1:aa", 3, 4, 60, archived_up_to=2)
    second = {"up_to_message": 4, "summary": "ARCHIVE 1-4"}
    rows.commit_archive(store, conv, "me:1:aa", second, archived_up_to=2)
    assert store.conversation(conv).metadata == {"archive": second, "title_hint": "kept"}


def test_claims_of_dead_or_expired_owners_are_not_live():
    now = dt.datetime.now(dt.UTC)
    live = {"expires_at": iso(now + dt.timedelta(minutes=5)), "host": rows.HOST, "pid": os.getpid()}
    assert rows.claim_is_live(live)
    assert not rows.claim_is_live({**live, "expires_at": iso(now - dt.timedelta(seconds=1))})
    assert not rows.claim_is_live({**live, "expires_at": "garbage"})
    assert not rows.claim_is_live({**live, "pid": 0})
    # another host: trust the expiry
    assert rows.claim_is_live({**live, "host": "elsewhere", "pid": 0})
    owner = rows.new_owner()
    assert owner.startswith(f"{rows.HOST}:{os.getpid()}:") and owner != rows.new_owner()


# -- cross-conversation summaries ------------------------------------------------------------


def test_summary_sources_anchor_name_and_latest_summary(store):
    empty = store.create_conversation("room", "cli").id
    old = conversation(store, 2, ALICE, start=0)
    guests = conversation(store, 2, MARIA, start=10)
    renamed = conversation(store, 2, ALICE_LATER, start=20)
    new = store.create_conversation("room", "cli").id
    assert recent_conversation_ids(store, exclude=renamed, limit=5) == [guests, old]  # no empty one
    assert recent_conversation_ids(store, exclude=new, limit=2) == [renamed, guests]
    assert anchor_name(store, [old, guests, renamed]) == "Alice Smith"  # the newest spelling
    assert anchor_name(store, [old, guests]) == "Alice"  # the owner did not write in `guests`
    assert anchor_name(store, [guests, empty]) is None

    assert latest_cross_summary(store, new) is None
    add_cross_summary(store, new, "first", sources=[renamed, guests], model="m", created_at=ts(30))
    add_cross_summary(store, new, "second", sources=[renamed], model="m", created_at=ts(31))
    assert latest_cross_summary(store, new) == "second"
    assert latest_cross_summary(store, old) is None


# -- stats ---------------------------------------------------------------------------------


def test_memory_stats(store):
    assert memory_stats(store) == MemoryStats(0, 0, 0, 0, None, None)
    a = conversation(store, 12, start=0)
    conversation(store, 3, start=100)
    rows.claim_next_block(store, a, 5, "me:1:aa", 60)
    rows.commit_compact(store, a, "me:1:aa", 1, 5, summary="s", topics=[], model="m")
    rows.claim_next_block(store, a, 5, "me:1:aa", 60)
    rows.commit_compact(store, a, "me:1:aa", 6, 10, summary="s", topics=[], model="m")
    s = memory_stats(store)
    assert (s.conversations, s.messages, s.compacts, s.compacted_messages) == (2, 15, 2, 10)
    assert (s.first_started, s.last_activity) == (ts(0), ts(103))


# -- search queries ------------------------------------------------------------------------


def test_search_filters_and_recent_messages(store):
    a = conversation(store, 3, ALICE, start=0)
    b = conversation(store, 3, MARIA, start=10)
    store.add_topics(b, ["Garden Design"])
    assert not queries.message_filter() and not queries.compact_filter()

    flt = queries.message_filter(topic="  #garden   DESIGN ")  # as a user types it
    assert [r.conversation_id for r, _ in queries.recent_messages(store, flt, 10)] == [b, b, b]
    latest = queries.recent_messages(store, queries.message_filter(start=ts(2), end=ts(12)), 10)
    assert [(r.conversation_id, r.message_number) for r, _ in latest] == [(b, 1), (a, 3), (a, 2)]
    assert latest[0][1] == "message 1 about the garden"
    named = queries.recent_messages(
        store, queries.message_filter(conversation_id=a), 2, mentioning='"3"'
    )
    assert [(r.message_number, r.author_name) for r, _ in named] == [(3, "Alice")]

    ranked = queries.word_scores(
        store,
        '"garden"',
        queries.message_filter(conversation_id=a),
        content_weight=1.0,
        extra_weight=1.0,
        limit=2,
    )
    assert len(ranked) == 2 and all(s > 0 for _, s in ranked)
    assert {r.conversation_id for r in queries.message_refs(store, [mid for mid, _ in ranked])} == {
        a
    }
    near = queries.neighbour_refs(
        store, [(b, 2), (b, 3), (b, 9), (a, 1)], queries.message_filter(end=ts(13))
    )
    # (b, 3) is too late
    assert sorted((r.conversation_id, r.message_number) for r in near) == [(a, 1), (b, 2)]
    assert queries.neighbour_refs(store, [], queries.message_filter()) == []
    assert sorted(queries.participant_names(store)) == ["Alice", "Maria"]


def test_compact_rows_carry_the_time_of_their_first_message(store):
    conv = conversation(store, 10, start=0)
    rows.claim_next_block(store, conv, 5, "me:1:aa", 60)
    c = rows.commit_compact(
        store,
        conv,
        "me:1:aa",
        1,
        5,
        summary="KEY FACTS ESTABLISHED\n- tulips",
        topics=["garden"],
        model="m",
    )
    [(cid, score)] = queries.compact_scores(
        store, '"tulips"', queries.compact_filter(topic="Garden")
    )
    assert cid == c.id and score > 0
    assert queries.compact_scores(store, '"tulips"', queries.compact_filter(start=ts(6))) == []
    got = queries.compact_rows(store, [c.id, 12345])
    assert list(got) == [c.id]
    assert (got[c.id].from_message, got[c.id].up_to_message, got[c.id].first_timestamp) == (
        1,
        5,
        ts(1),
    )
