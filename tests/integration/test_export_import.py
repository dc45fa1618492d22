"""`tatlock memory export --all` and `tatlock memory import`: everything the memory holds goes
out and comes back; importing twice adds nothing; a fresh home answers searches exactly as the
original; malformed, foreign or diverged files are refused with one line and nothing written."""

from __future__ import annotations

import functools
import json
import sqlite3
from pathlib import Path

import pytest

import tatlock
from support import replies
from tatlock.store.summaries import add_cross_summary

SUMMARY = (
    "TOPICS DISCUSSED\n- dinner\n\nFACTUAL TIMELINE\n- Maria proposed leek soup\n\n"
    "KEY FACTS ESTABLISHED\n- Maria wants leek soup on Friday; the greengrocer closes at "
    "six\n\n"
    "UNRESOLVED ITEMS\n- none\n\nTECHNICAL DETAILS\n- none\n"
)
BRIEFING = (
    "Recent Highlights\n- Maria proposed leek soup on Friday.\n\nPatterns Across Sessions\n- Meals "
    "are "
    "planned in the kitchen room.\n\nCurrent Context\n- [UNRESOLVED] Who buys the leeks."
)
QUERIES = [
    "leek soup",
    "greengrocer",
    "tulip bulbs Harrods",
    "Rotterdam",
    "zeppelin museum",
    "Friday dinner",
]


direct = functools.partial(replies.direct, topics=("gardening",))


def seed(served) -> dict[str, int]:
    """A kitchen room on Matrix (a guest, the Anchor, a bot, replies, a summary, an archive), a
    garden talk through real turns (topics), a personal variable stated by Maria and a summary
    of recent conversations."""
    served.queue(
        SUMMARY,
        BRIEFING,
        direct("The tulips shall have the south bed, sir."),
        direct("The zeppelin museum opens at nine, sir.", topics=("travel",)),
    )
    # (the briefing is prepared when the kitchen talk is over, and the garden talk begins with it)
    with tatlock.open() as butler:
        kitchen, _ = butler.rooms.open("!kitchen:example.org", "matrix")
        maria = butler.rooms.author("@maria:example.org", "Maria")
        said = butler.rooms.add_exchange(
            kitchen.id, "Shall we have leek soup on Friday?", "A fine idea, madam.", author=maria
        )
        butler.rooms.add_exchange(
            kitchen.id,
            "Remember the greengrocer closes at six.",
            author=butler.rooms.author("@cron:example.org", "Cronbot", bot=True),
        )
        butler.rooms.summarize(kitchen.id)
        butler.store.set_conversation_metadata(
            kitchen.id, archive={"up_to_message": 3, "summary": SUMMARY, "model": "llama3.2:3b"}
        )
        butler.rooms.add_exchange(kitchen.id, "I live in Rotterdam these days.", author=maria)
        butler.store.set_var(
            "location",
            "Rotterdam",
            author_id="@maria:example.org",
            source_message_id=said.query.message_id,
        )
        butler.store.set_var("diet", "vegetarian")
        assert butler.wait_background()
        garden = butler.ask("I ordered forty tulip bulbs from Harrods.", new=True)
        butler.ask(
            "And when does the zeppelin museum open?", conversation_id=garden.conversation_id
        )
        add_cross_summary(
            butler.store,
            garden.conversation_id,
            "Earlier: leek soup on Friday with Maria.",
            sources=[kitchen.id],
            model="llama3.2:3b",
            created_at="2026-03-01T12:00:00+00:00",
        )
        return {"kitchen": kitchen.id, "garden": garden.conversation_id}


def count(home: Path, sql: str, user: str = "tester") -> int:
    conn = sqlite3.connect(home / "users" / f"{user}_longterm.db")
    try:
        return conn.execute(sql).fetchone()[0]
    finally:
        conn.close()


def snapshot(home: Path, user: str = "tester") -> dict[str, list]:
    conn = sqlite3.connect(home / "users" / f"{user}_longterm.db")
    try:
        return {
            t: conn.execute(f"SELECT * FROM {t} ORDER BY 1, 2").fetchall()
            for t in (
                "conversations",
                "conversation_messages",
                "participants",
                "conversation_compacts",
                "topics",
                "conversation_topics",
                "topic_messages",
                "personal_variables",
                "cross_conversation_summaries",
            )
        }
    finally:
        conn.close()


def export(cli, path: Path, fmt: str = "json") -> dict | str:
    r = cli("memory", "export", "--all", "--format", fmt, "-o", str(path))
    assert r.code == 0, r.err
    text = path.read_text(encoding="utf-8")
    return json.loads(text) if fmt == "json" else text


def searches(cli) -> list[str]:
    out = []
    for q in QUERIES:
        r = cli("memory", "search", q)
        assert r.code == 0, r.err
        out.append(r.out)
    r = cli("memory", "recall", "--topic", "travel")
    out.append(r.out)
    return out


@pytest.fixture
def elsewhere(tmp_path, monkeypatch):
    """Switch the CLI to another, empty TATLOCK_HOME."""

    def switch(name: str) -> Path:
        h = tmp_path / name
        h.mkdir(exist_ok=True)
        monkeypatch.setenv("TATLOCK_HOME", str(h))
        return h

    return switch


def test_export_all_json_holds_everything(cli, served, home, tmp_path):
    ids = seed(served)
    doc = export(cli, tmp_path / "memory.json")
    assert doc["format"] == "tatlock-memory" and doc["version"] == 1 and doc["user"] == "tester"
    convs = {c["conversation"]["id"]: c for c in doc["conversations"]}
    kitchen, garden = convs[ids["kitchen"]], convs[ids["garden"]]
    msgs = kitchen["messages"]
    assert [(m["author_name"], m["role"], m["author_is_bot"], m["is_anchor"]) for m in msgs] == [
        ("Maria", "user", False, False),
        ("Tatlock", "assistant", True, False),
        ("Cronbot", "user", True, False),
        ("Maria", "user", False, False),
    ]
    assert (
        msgs[1]["reply_to"] == msgs[0]["message_id"]
        and msgs[0]["author_id"] == "@maria:example.org"
    )
    assert {p["name"]: p["message_count"] for p in kitchen["participants"]} == {
        "Maria": 2,
        "Tatlock": 1,
        "Cronbot": 1,
    }
    assert [(c["from_message"], c["up_to_message"]) for c in kitchen["compacts"]] == [(1, 3)]
    assert kitchen["archive"]["up_to_message"] == 3
    assert kitchen["conversation"]["room_id"] == "!kitchen:example.org" and kitchen["uid"]
    topics = {t["name"]: t for t in garden["topics"]}
    assert set(topics) == {"gardening", "travel"} and topics["travel"]["messages"]
    variables = {v["key"]: v for v in doc["variables"]}
    assert variables["location"]["author_id"] == "@maria:example.org"
    assert variables["location"]["source_message_id"] == msgs[0]["message_id"]
    assert variables["diet"]["source_message_id"] is None
    # the briefing prepared after the kitchen talk, the garden's copy of it, and one added by hand
    briefings = doc["cross_summaries"]
    assert [s["source_conversations"] for s in briefings] == [[ids["kitchen"]]] * 3
    assert [s["conversation_id"] for s in briefings] == [None, ids["garden"], ids["garden"]]
    assert (
        "Who buys the leeks" in briefings[0]["summary"]
        and briefings[1]["summary"] == briefings[0]["summary"]
    )
    assert briefings[0]["covers"] == {str(ids["kitchen"]): 4} and briefings[0]["how"] == "model"


def test_export_all_markdown_reads_with_attribution(cli, served, home, tmp_path):
    ids = seed(served)
    md = export(cli, tmp_path / "memory.md", "md")
    assert md.startswith("# Memory of tester")
    assert (
        "**Maria** · #1" in md and "**[Cronbot (bot)]** · #3" in md and "**Assistant** · #2" in md
    )
    assert "**Anchor (Tester)** · #1" in md  # the garden talk, through real turns
    assert "replying to #1" in md
    assert (
        f"**location**: Rotterdam (stated by Maria in conversation {ids['kitchen']}, message #1"
        in md
    )
    assert "### Summary of messages 1-3" in md and "### Archive of messages 1-3" in md
    assert "Earlier: leek soup on Friday with Maria." in md


def test_export_import_import_again_adds_nothing(cli, served, home, tmp_path, elsewhere):
    seed(served)
    path = tmp_path / "memory.json"
    export(cli, path)
    before = snapshot(home)
    r = cli("memory", "import", str(path))  # into the very memory it came from
    assert r.code == 0 and "Nothing to import" in r.out, r.err
    assert snapshot(home) == before

    fresh = elsewhere("fresh")
    first = cli("memory", "import", str(path))
    assert (
        first.code == 0 and "2 new conversation(s)" in first.out and "8 message(s)" in first.out
    ), first.out
    messages = count(fresh, "SELECT count(*) FROM conversation_messages")
    after_first = snapshot(fresh)
    second = cli("memory", "import", str(path))
    assert second.code == 0 and "Nothing to import" in second.out
    assert count(fresh, "SELECT count(*) FROM conversation_messages") == messages == 8
    assert snapshot(fresh) == after_first


def test_round_trip_into_a_fresh_home_gives_identical_searches(
    cli, served, home, tmp_path, elsewhere
):
    seed(served)
    original = searches(cli)
    assert all("Nothing found" not in out for out in original)
    path = tmp_path / "memory.json"
    doc = export(cli, path)
    before = snapshot(home)
    elsewhere("fresh")
    assert cli("memory", "import", str(path)).code == 0
    assert searches(cli) == original
    again = export(cli, tmp_path / "again.json")
    # nothing lost, nothing added
    assert {**again, "exported_at": None} == {**doc, "exported_at": None}
    fresh = snapshot(Path(tmp_path / "fresh"))
    for table in (
        "conversation_messages",
        "conversation_compacts",
        "participants",
        "personal_variables",
        "topic_messages",
        "conversation_topics",
    ):
        assert fresh[table] == before[table], table
    shown = cli("memory", "show", str(doc["conversations"][0]["conversation"]["id"]))
    assert "Maria" in shown.out and "[Cronbot (bot)]" in shown.out


def test_import_into_a_home_with_its_own_conversations_remaps_ids(
    cli, served, home, tmp_path, elsewhere
):
    seed(served)
    path = tmp_path / "memory.json"
    export(cli, path)
    other = elsewhere("other")
    served.queue(direct("Good evening, sir.", topics=()), direct("Indeed, sir.", topics=()))
    with tatlock.open() as butler:  # conversation 1, messages 1-4 taken here
        butler.ask("Good evening.")
        butler.ask("A quiet night.")
    r = cli("memory", "import", str(path))
    assert r.code == 0 and "2 new conversation(s)" in r.out, r.err
    assert count(other, "SELECT count(*) FROM conversations") == 3
    assert count(other, "SELECT count(*) FROM conversation_messages") == 12
    # links follow the new ids: Tatlock's reply points at Maria's question, the variable at its
    # message
    assert (
        count(
            other,
            "SELECT count(*) FROM conversation_messages r JOIN conversation_messages q "
            "ON"
            " q.message_id = r.reply_to WHERE r.content = 'A fine idea, madam.'"
            " AND q.content LIKE 'Shall we have leek soup%'",
        )
        == 1
    )
    assert (
        count(
            other,
            "SELECT count(*) FROM personal_variables v JOIN conversation_messages m ON"
            " m.message_id = v.source_message_id WHERE v.key = 'location'"
            " AND m.content LIKE 'Shall we have leek soup%'",
        )
        == 1
    )
    found = cli("memory", "search", "leek soup")
    assert "Maria" in found.out
    assert "Nothing to import" in cli("memory", "import", str(path)).out
    assert count(other, "SELECT count(*) FROM conversation_messages") == 12


def test_a_newer_export_continues_a_conversation(cli, served, home, tmp_path, elsewhere):
    ids = seed(served)
    old, new = tmp_path / "old.json", tmp_path / "new.json"
    export(cli, old)
    with tatlock.open() as butler:
        butler.rooms.add_exchange(
            ids["kitchen"],
            "Make it a double batch.",
            author=butler.rooms.author("@maria:example.org", "Maria"),
        )
    export(cli, new)
    fresh = elsewhere("fresh")
    assert cli("memory", "import", str(old)).code == 0
    r = cli("memory", "import", str(new))
    assert r.code == 0 and "1 continued" in r.out and "1 message(s)" in r.out, r.out
    assert count(fresh, f"SELECT message_count FROM conversations WHERE id = {ids['kitchen']}") == 5
    assert (
        count(fresh, "SELECT count(*) FROM participants WHERE name = 'Maria' AND message_count = 3")
        == 1
    )


def test_a_diverged_copy_is_refused_and_nothing_is_written(cli, served, home, tmp_path, elsewhere):
    ids = seed(served)
    base = tmp_path / "base.json"
    export(cli, base)
    with tatlock.open() as butler:
        butler.rooms.add_exchange(ids["kitchen"], "Original home's fifth message.")
    theirs = json.loads(
        export(cli, tmp_path / "theirs.json") and (tmp_path / "theirs.json").read_text()
    )
    fresh = elsewhere("fresh")
    assert cli("memory", "import", str(base)).code == 0
    with tatlock.open() as butler:
        butler.rooms.add_exchange(ids["kitchen"], "Copy's own fifth message.")
    # a new conversation first in the file, so that a half-written import would show
    extra = json.loads(json.dumps(theirs["conversations"][0]))
    extra["uid"], extra["conversation"]["id"] = "a-new-one", 99
    for i, m in enumerate(extra["messages"]):
        m["message_id"] = 9000 + i
        m["reply_to"] = None
    theirs["conversations"].insert(0, extra)
    (tmp_path / "theirs.json").write_text(json.dumps(theirs))
    before = snapshot(fresh)
    r = cli("memory", "import", str(tmp_path / "theirs.json"))
    assert r.code == 2 and r.out == "" and r.err.count("\n") == 1, (r.out, r.err)
    assert "diverged" in r.err and "#5" in r.err and "nothing was imported" in r.err
    assert snapshot(fresh) == before


def test_a_single_conversation_export_imports_too(cli, served, home, tmp_path, elsewhere):
    ids = seed(served)
    one = cli("memory", "export", str(ids["kitchen"]), "--format", "json")
    (tmp_path / "one.json").write_text(one.out)
    fresh = elsewhere("fresh")
    r = cli("memory", "import", str(tmp_path / "one.json"))
    assert r.code == 0 and "1 new conversation(s)" in r.out and "4 message(s)" in r.out, (
        r.out,
        r.err,
    )
    assert "Maria" in cli("memory", "search", "leek soup").out
    assert "Nothing to import" in cli("memory", "import", str(tmp_path / "one.json")).out
    assert count(fresh, "SELECT count(*) FROM conversation_messages") == 4


def _valid() -> dict:
    msg = {
        "message_id": 1,
        "message_number": 1,
        "role": "user",
        "author_id": "@maria:example.org",
        "author_name": "Maria",
        "content": "Leek soup?",
        "timestamp": "2026-03-01T11:00:00+00:00",
    }
    conv = {
        "id": 1,
        "title": "Soup",
        "room_id": "!kitchen:example.org",
        "interface": "matrix",
        "started_at": "2026-03-01T11:00:00+00:00",
        "last_activity": "2026-03-01T11:00:00+00:00",
    }
    return {
        "format": "tatlock-memory",
        "version": 1,
        "conversations": [
            {"conversation": conv, "messages": [msg]},
            {"conversation": {**conv, "id": 2}, "messages": [{**msg, "message_id": 2}]},
        ],
        "variables": [
            {
                "key": "location",
                "value": "Rotterdam",
                "updated_at": "2026-03-01T11:00:00+00:00",
                "source_message_id": 1,
            }
        ],
    }


def _broken(change) -> str:
    doc = _valid()
    change(doc)
    return json.dumps(doc)


BAD_FILES = [
    ("not json", '{"format": "tatlock-memory", ', "is not JSON"),
    ("empty", "", "is not JSON"),
    ("a list", "[1, 2, 3]", "not a tatlock memory export"),
    ("foreign", json.dumps({"name": "something else"}), "not a tatlock memory export"),
    ("persona", json.dumps({"format": "tatlock-persona", "instructions": []}), "'tatlock-persona'"),
    ("future", _broken(lambda d: d.update(version=99)), "newer than this tatlock"),
    (
        "no content",
        _broken(lambda d: d["conversations"][1]["messages"][0].pop("content")),
        "conversations[1].messages[0] has no 'content'",
    ),
    (
        "bad role",
        _broken(lambda d: d["conversations"][1]["messages"][0].update(role="wizard")),
        "role must be",
    ),
    (
        "bad time",
        _broken(lambda d: d["conversations"][1]["messages"][0].update(timestamp="teatime")),
        "not a date and time",
    ),
    (
        "gap",
        _broken(lambda d: d["conversations"][1]["messages"][0].update(message_number=2)),
        "numbered",
    ),
    (
        "compact",
        _broken(
            lambda d: d["conversations"][1].update(
                compacts=[
                    {
                        "id": 1,
                        "from_message": 1,
                        "up_to_message": 9,
                        "summary": "x",
                        "created_at": "2026-03-01T11:00:00",
                    }
                ]
            )
        ),
        "does not have",
    ),
    (
        "twice",
        _broken(lambda d: d["conversations"][1]["conversation"].update(id=1)),
        "appears twice",
    ),
    (
        "variable",
        _broken(lambda d: d["variables"][0].update(key="no such key!")),
        "variables[0].key",
    ),
    (
        "huge id",
        _broken(lambda d: d["conversations"][1]["messages"][0].update(message_id=2**70)),
        "out of range",
    ),
    (
        "type",
        _broken(lambda d: d["conversations"][1]["conversation"].update(room_id=5)),
        "room_id must be text",
    ),
]


@pytest.mark.parametrize("name,content,needle", BAD_FILES, ids=[b[0] for b in BAD_FILES])
def test_malformed_or_foreign_files_are_refused_with_one_line(
    cli, home, tmp_path, name, content, needle
):
    with tatlock.open() as butler:  # something already here, which must stay as it is
        conv, _ = butler.rooms.open("!hall:example.org", "matrix")
        butler.rooms.add_exchange(conv.id, "Hello from the hall.")
    before = snapshot(home)
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    r = cli("memory", "import", str(path))
    assert r.code == 2 and r.out == "", (r.code, r.out, r.err)
    assert r.err.count("\n") == 1 and r.err.startswith("tatlock: ") and "Traceback" not in r.err
    assert str(path) in r.err and needle in r.err, r.err
    assert snapshot(home) == before


def test_import_file_problems_and_export_arguments(cli, home, tmp_path):
    missing = cli("memory", "import", str(tmp_path / "nope.json"))
    assert missing.code == 1 and "no such file" in missing.err
    binary = tmp_path / "bin.json"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    assert cli("memory", "import", str(binary)).code == 2
    neither = cli("memory", "export")
    assert neither.code == 2 and "--all" in neither.err
    both = cli("memory", "export", "3", "--all")
    assert both.code == 2 and "--all" in both.err
    empty = cli("memory", "export", "--all")
    assert empty.code == 0 and json.loads(empty.out)["conversations"] == []
