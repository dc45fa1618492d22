"""``butler.rooms``: what other programs say in a room, stored with its reply in one transaction,
from many threads at once (each with its own SQLite connection, as the MCP server's workers)."""

from __future__ import annotations

import sqlite3
import threading

import pytest

import tatlock
from tatlock.errors import StoreError


def test_concurrent_exchanges_keep_each_reply_right_after_its_query(home):
    with tatlock.open(user="alice") as butler:
        cid = butler.rooms.open("!busy:example.org", "matrix")[0].id
        start = threading.Barrier(20)
        failures: list[BaseException] = []

        def speaker(n: int) -> None:
            who = butler.rooms.author(f"@user{n}:example.org", f"User {n}")
            start.wait()
            try:
                for i in range(10):
                    butler.rooms.add_exchange(cid, f"q {n}.{i}", f"a {n}.{i}", author=who)
            except BaseException as exc:
                failures.append(exc)

        threads = [threading.Thread(target=speaker, args=(n,)) for n in range(20)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert not failures, failures[0]
        msgs = butler.conversations.messages(cid, limit=1000)
    assert len(msgs) == 400
    assert [m.message_number for m in msgs] == list(range(1, 401))
    for query, reply in zip(msgs[::2], msgs[1::2], strict=True):
        assert query.role == "user" and reply.role == "assistant"
        assert reply.reply_to == query.message_id and reply.content == "a" + query.content[1:]


def test_a_reply_that_cannot_be_stored_takes_its_query_with_it(home):
    """All or nothing: a client that retries a failed add_turn must not find its query stored
    twice."""
    with tatlock.open(user="alice") as butler:
        cid = butler.rooms.open("!kitchen:example.org", "matrix")[0].id
        butler.rooms.add_exchange(cid, "Before", "Fine.")
        db = butler.paths.user_db("alice")
    conn = sqlite3.connect(db)
    conn.execute(
        "CREATE TRIGGER no_replies BEFORE INSERT ON conversation_messages WHEN NEW.role = "
        "'assistant'"
        " BEGIN SELECT RAISE(ABORT, 'disk I/O error'); END"
    )
    conn.commit()
    conn.close()
    with tatlock.open(user="alice") as butler:
        with pytest.raises((StoreError, sqlite3.DatabaseError)):
            butler.rooms.add_exchange(cid, "Soup on Friday?", "Very good.")
        assert [m.content for m in butler.conversations.messages(cid)] == ["Before", "Fine."]
        assert butler.conversations.get(cid, limit=0).conversation.message_count == 2
