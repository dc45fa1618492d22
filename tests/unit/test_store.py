"""system.db and the per-user database: migrations, seeds, numbering, FTS sync."""

from __future__ import annotations

import sqlite3
import threading

import pytest

from tatlock.config import load
from tatlock.errors import StoreError, UsageError
from tatlock.store import db
from tatlock.store.passwords import hash_password, verify_password
from tatlock.store.system import SystemStore
from tatlock.store.user import Author, UserStore

ALICE = Author("alice", "Alice", is_anchor=True)


@pytest.fixture
def cfg():
    return load()


@pytest.fixture
def store(cfg):
    s = UserStore.open(cfg.paths, "alice")
    yield s
    s.close()


def tables(conn: sqlite3.Connection) -> set[str]:
    return {
        r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")
    }


def test_user_db_schema_from_empty(cfg, store):
    assert store.path == cfg.paths.users_dir / "alice_longterm.db"
    names = tables(store.conn)
    for t in (
        "conversations",
        "conversation_messages",
        "participants",
        "conversation_compacts",
        "topics",
        "topic_messages",
        "conversation_topics",
        "personal_variables",
        "cross_conversation_summaries",
        "messages_fts",
        "compacts_fts",
    ):
        assert t in names
    cols = {r[1] for r in store.conn.execute("PRAGMA table_info(conversation_messages)")}
    assert {
        "message_id",
        "conversation_id",
        "message_number",
        "role",
        "author_id",
        "author_name",
        "author_is_bot",
        "is_anchor",
        "reply_to",
        "content",
        "timestamp",
        "metadata",
    } <= cols
    assert store.conn.execute("PRAGMA user_version").fetchone()[0] == db.latest_version("user")
    assert store.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store.conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1


def test_every_old_user_version_migrates_and_keeps_rows(tmp_path):
    latest = db.latest_version("user")
    for start in range(1, latest + 1):
        path = tmp_path / f"v{start}.db"
        conn = db.connect(path)
        db.migrate(conn, "user", target=start)
        conn.execute(
            "INSERT INTO conversations (room_id, interface, started_at, last_activity)"
            " VALUES ('r', 'cli', '2026-01-01T00:00:00+00:00', "
            "'2026-01-01T00:00:00+00:00')"
        )
        conn.close()
        store = UserStore.open_path(path, "x")
        assert store.conn.execute("PRAGMA user_version").fetchone()[0] == latest
        assert store.conversation(1).room_id == "r"
        store.add_message(1, "user", "after the upgrade", ALICE)
        store.close()
        # reopening is a no-op
        again = UserStore.open_path(path, "x")
        assert again.messages(1)[0].content == "after the upgrade"
        again.close()


def test_newer_schema_is_refused_clearly(tmp_path):
    path = tmp_path / "future.db"
    conn = db.connect(path)
    conn.execute("PRAGMA user_version = 999")
    conn.close()
    with pytest.raises(StoreError, match="newer than this tatlock"):
        UserStore.open_path(path, "x")


def test_message_numbers_are_contiguous_per_conversation(store):
    a = store.create_conversation("cli", "cli")
    b = store.create_conversation("room-2", "tui")
    for i in range(5):
        store.add_message(a.id, "user", f"a{i}", ALICE)
        if i % 2 == 0:
            store.add_message(b.id, "user", f"b{i}", ALICE)
    assert [m.message_number for m in store.messages(a.id)] == [1, 2, 3, 4, 5]
    assert [m.message_number for m in store.messages(b.id)] == [1, 2, 3]
    assert store.conversation(a.id).message_count == 5
    assert store.conversation(a.id).title == "a0"


def test_concurrent_writers_never_share_a_number(cfg, store):
    conv = store.create_conversation("cli", "cli")
    errors = []

    def writer(n: int) -> None:
        s = UserStore.open(cfg.paths, "alice")
        try:
            for i in range(25):
                s.add_message(conv.id, "user", f"w{n}-{i}", ALICE)
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)
        finally:
            s.close()

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    numbers = [m.message_number for m in store.messages(conv.id)]
    assert numbers == list(range(1, 101))


def test_participants_track_authors(store):
    conv = store.create_conversation("kitchen", "tui")
    store.add_message(conv.id, "user", "hi", ALICE, timestamp="2026-01-01T10:00:00+00:00")
    store.add_message(
        conv.id, "user", "hello", Author("maria", "Maria"), timestamp="2026-01-01T10:01:00+00:00"
    )
    store.add_message(
        conv.id,
        "user",
        "beep",
        Author("bot1", "Robo", is_bot=True),
        timestamp="2026-01-01T10:02:00+00:00",
    )
    store.add_message(conv.id, "user", "again", ALICE, timestamp="2026-01-01T10:03:00+00:00")
    rows = {r.author_id: r for r in store.participants(conv.id)}
    assert rows["alice"].message_count == 2
    assert rows["alice"].first_seen == "2026-01-01T10:00:00+00:00"
    assert rows["alice"].last_seen == "2026-01-01T10:03:00+00:00"
    assert rows["bot1"].is_bot and rows["maria"].name == "Maria"
    msgs = store.messages(conv.id)
    assert msgs[0].is_anchor and not msgs[1].is_anchor and msgs[2].author_is_bot


def fts_ids(store, term: str) -> list[int]:
    return [
        r[0]
        for r in store.conn.execute(
            "SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rowid",
            (f'"{term}"',),
        )
    ]


def test_fts_follows_insert_update_delete(store):
    conv = store.create_conversation("cli", "cli")
    m1 = store.add_message(conv.id, "user", "My sister lives in Rotterdam", ALICE)
    m2 = store.add_message(
        conv.id, "user", "I shared a photo", ALICE, metadata={"search_text": "a lighthouse at dusk"}
    )
    assert fts_ids(store, "rotterdam") == [m1.message_id]
    assert fts_ids(store, "lighthouse") == [m2.message_id]  # attachment text is searchable
    store.conn.execute(
        "UPDATE conversation_messages SET content = 'She moved to Utrecht' WHERE message_id = ?",
        (m1.message_id,),
    )
    assert fts_ids(store, "rotterdam") == []
    assert fts_ids(store, "utrecht") == [m1.message_id]
    store.update_message_metadata(m2.message_id, search_text="a windmill")
    assert fts_ids(store, "lighthouse") == [] and fts_ids(store, "windmill") == [m2.message_id]
    store.delete_conversation(conv.id)
    assert fts_ids(store, "utrecht") == [] and fts_ids(store, "windmill") == []
    # the index agrees with its content table
    store.conn.execute("INSERT INTO messages_fts(messages_fts) VALUES ('integrity-check')")


def test_compact_summaries_are_indexed(store):
    conv = store.create_conversation("cli", "cli")
    store.add_message(conv.id, "user", "x", ALICE)
    store.conn.execute(
        "INSERT INTO conversation_compacts (conversation_id, from_message, up_to_message, summary, "
        "topics, model,"
        " created_at) VALUES (?, 1, 1, 'Alice plans a trip to Lisbon', '[\"travel\"]', 'm', "
        "'2026-01-01')",
        (conv.id,),
    )
    hits = store.conn.execute(
        "SELECT rowid FROM compacts_fts WHERE compacts_fts MATCH '\"lisbon\"'"
    ).fetchall()
    assert len(hits) == 1
    store.conn.execute("DELETE FROM conversation_compacts")
    assert (
        store.conn.execute(
            "SELECT count(*) FROM compacts_fts WHERE compacts_fts MATCH '\"lisbon\"'"
        ).fetchone()[0]
        == 0
    )


def test_personal_variables_with_attribution(store):
    store.set_var("Location", "Rotterdam", author_id="alice")
    assert store.get_var("location") == "Rotterdam"
    store.set_var("location", "Utrecht", author_id="maria")
    row = store.vars()[0]
    assert (row.key, row.value, row.author_id) == ("location", "Utrecht", "maria")
    assert store.unset_var("location") and store.get_var("location") is None


def test_invalid_usernames_touch_no_file(cfg):
    for bad in ("../evil", "a/b", "", "UPPER", "x" * 33, "-lead", "a b", "a\x00b"):
        with pytest.raises(UsageError):
            UserStore.open(cfg.paths, bad)
    assert not cfg.paths.users_dir.exists() or list(cfg.paths.users_dir.iterdir()) == []


def test_system_seed_persona_tools_user(cfg):
    from tatlock import prompts
    from tatlock.tools.registry import BUILTIN_TOOLS, resolve

    s = SystemStore.open(
        cfg.paths.system_db,
        default_user="tester",
        persona=prompts.paragraphs("persona.txt"),
        tools=BUILTIN_TOOLS,
    )
    persona = s.persona_text()
    assert "Tatlock" in persona and "sir" in persona and "memory" in persona
    keys = {t.key for t in s.tools()}
    assert {
        "recall_memories",
        "recall_memories_with_time",
        "get_weather_forecast",
        "web_search",
    } <= keys
    for spec in s.tools():
        assert callable(resolve(spec)), spec.key
    assert [u.username for u in s.users()] == ["tester"]
    assert s.user("tester").roles == ("admin", "user")
    s.close()
    # reopening does not seed twice and keeps edits
    s = SystemStore.open(cfg.paths.system_db, default_user="tester")
    n = len(s.persona())
    s.set_tool_enabled("web_search", False)
    s.close()
    s = SystemStore.open(cfg.paths.system_db, default_user="tester")
    assert len(s.persona()) == n and not s.tool("web_search").enabled
    s.close()


def test_passwords_use_salted_scrypt():
    a, b = hash_password("hunter2", n=2**10), hash_password("hunter2", n=2**10)
    assert a.startswith("scrypt$") and a != b  # per-user salt
    assert verify_password("hunter2", a) and not verify_password("hunter3", a)
    assert not verify_password("x", None) and not verify_password("x", "garbage")


# --- closing a database while another thread runs a statement on it -------------------------

_CLOSE_UNDER_QUERY = r"""
import sqlite3, sys, threading, time
from pathlib import Path
from tatlock.errors import StoreError
from tatlock.store.connections import ThreadConnections

path = Path(sys.argv[1])
opener = lambda p: sqlite3.connect(p, check_same_thread=False)
conns = ThreadConnections(path, opener, opener(path))
out = []
started = threading.Event()
def slow():
    conn = conns.get()
    started.set()
    out.append(conn.execute(
        "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 3000000) "
        "SELECT count(*) FROM n").fetchone()[0])
    try:
        conns.get()
    except StoreError:
        out.append("closed")
worker = threading.Thread(target=slow)
worker.start()
started.wait()
time.sleep(0.05)
conns.close()
worker.join()
print(out)
"""


def test_closing_while_another_thread_queries_does_not_crash(tmp_path):
    # Closing every thread's connection under a running statement was a segmentation fault
    # (the TUI quitting during a memory read); the busy thread now finishes and closes its own.
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", _CLOSE_UNDER_QUERY, str(tmp_path / "x.db")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[3000000, 'closed']"
