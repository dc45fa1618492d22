"""`tatlock memory ...` end to end: what a user sees (output, exit codes) and what is left in the
database."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from support.fake_ollama import FakeError
from support.store import rows, user_db
from tatlock.store.user import Author, UserStore

ANCHOR = Author("tester", "Tester", is_anchor=True)
MARIA = Author("maria", "Maria")
HELPER = Author("helperbot", "Helper", is_bot=True)
BUTLER = Author.assistant()

SUMMARY = (
    "TOPICS DISCUSSED\n- gardening\n\nFACTUAL TIMELINE\n- Maria said the tulips arrive on "
    "2026-03-05\n\n"
    "KEY FACTS ESTABLISHED\n- Maria ordered 40 tulip bulbs from Harrods\n\nUNRESOLVED "
    "ITEMS\n- none\n\n"
    "TECHNICAL DETAILS\n- none"
)


@pytest.fixture(autouse=True)
def wide_terminal(monkeypatch):
    """`memory conversations` clips titles to the terminal width; make it predictable."""
    monkeypatch.setenv("COLUMNS", "160")
    monkeypatch.setenv("LINES", "40")


def open_store(home: Path, user: str = "tester") -> UserStore:
    from tatlock.config import load

    return UserStore.open(load().paths, user)


def utc(text: str) -> str:
    return dt.datetime.fromisoformat(text).astimezone(dt.UTC).isoformat(timespec="seconds")


def yesterday_noon() -> dt.datetime:
    return dt.datetime.combine(dt.date.today() - dt.timedelta(days=1), dt.time(12)).astimezone()


def seed(home: Path, user: str = "tester") -> dict[str, int]:
    """Three conversations: an old garden talk (with a guest, a bot, topics and a compact),
    an airship talk yesterday, and a kettle talk now. Returns their ids."""
    s = open_store(home, user)
    try:
        garden = s.create_conversation("cli", "cli", started_at=utc("2026-03-01T11:00:00+00:00"))
        m1 = s.add_message(
            garden.id,
            "user",
            "Shall we plan the greenhouse this spring?",
            ANCHOR,
            timestamp=utc("2026-03-01T11:00:00+00:00"),
        )
        m2 = s.add_message(
            garden.id,
            "user",
            "I ordered forty tulip bulbs from Harrods.",
            MARIA,
            timestamp=utc("2026-03-01T11:01:00+00:00"),
        )
        s.add_message(
            garden.id,
            "user",
            "Reminder: watering schedule is due.",
            HELPER,
            timestamp=utc("2026-03-01T11:02:00+00:00"),
        )
        s.add_message(
            garden.id,
            "assistant",
            "Very good, sir; the tulips shall have the south bed.",
            BUTLER,
            metadata={"route": "DIRECT", "topics": ["gardening"]},
            timestamp=utc("2026-03-01T11:03:00+00:00"),
        )
        s.add_message(
            garden.id, "user", "And the roses?", ANCHOR, timestamp=utc("2026-03-01T11:04:00+00:00")
        )
        s.add_topics(garden.id, ["gardening", "Tulips"], message_id=m1.message_id)
        s.add_topics(garden.id, ["gardening"], message_id=m2.message_id)
        s.conn.execute(
            "INSERT INTO conversation_compacts (conversation_id, from_message, up_to_message, "
            "summary, topics,"
            " model, created_at) VALUES (?, 1, 4, ?, '[\"gardening\"]', 'llama3.2:3b', ?)",
            (garden.id, SUMMARY, utc("2026-03-01T12:00:00+00:00")),
        )
        s.conn.execute("UPDATE conversations SET compacted_up_to = 4 WHERE id = ?", (garden.id,))

        y = yesterday_noon()
        airship = s.create_conversation("cli", "cli", started_at=y.astimezone(dt.UTC).isoformat())
        s.add_message(
            airship.id,
            "user",
            "Tell me about the zeppelin museum in Friedrichshafen.",
            ANCHOR,
            timestamp=y.isoformat(),
        )
        s.add_message(
            airship.id,
            "assistant",
            "It opens at nine, sir, and the zeppelin hangs from the ceiling.",
            BUTLER,
            timestamp=(y + dt.timedelta(minutes=1)).isoformat(),
        )
        s.add_topics(airship.id, ["travel"])

        kettle = s.create_conversation("cli", "cli")
        s.add_message(kettle.id, "user", "Please put the kettle on.", ANCHOR)
        s.add_message(kettle.id, "assistant", "The kettle is on, sir.", BUTLER)
        s.set_var("location", "Rotterdam")
        return {"garden": garden.id, "airship": airship.id, "kettle": kettle.id}
    finally:
        s.close()


def one_line_error(r, code: int, *needles: str, progress: str | None = None) -> None:
    """Exit ``code`` with exactly one error line on stderr (``progress`` lines before it
    allowed)."""
    assert r.code == code, (r.code, r.out, r.err)
    lines = [ln for ln in r.err.strip().splitlines() if not (progress and ln.startswith(progress))]
    assert len(lines) == 1, r.err
    assert lines[0].startswith("tatlock") and "Traceback" not in r.err
    for n in needles:
        assert n in lines[0], lines[0]


# -- conversations / show --------------------------------------------------------------------


def test_conversations_empty(cli, home):
    r = cli("memory", "conversations")
    assert r.code == 0 and r.out.strip() == "No conversations yet for tester."


def test_conversations_lists_newest_first_with_counts(cli, home):
    ids = seed(home)
    r = cli("memory", "conversations")
    assert r.code == 0, r.err
    lines = r.out.splitlines()
    assert lines[0].split() == ["ID", "LAST", "ACTIVITY", "ROOM", "MSGS", "COMPACTED", "TITLE"]
    body = lines[1:]
    assert len(body) == 3
    # newest first: kettle (now), airship (yesterday), garden (March)
    assert [int(line.split()[0]) for line in body] == [ids["kettle"], ids["airship"], ids["garden"]]
    kettle, airship, garden = body
    assert "Please put the kettle on." in kettle
    assert "Tell me about the zeppelin museum in Friedrichshafen." in airship
    assert "Shall we plan the greenhouse this spring?" in garden
    # columns: id, date, time, iface, messages, compacted
    assert garden.split()[1] == "2026-03-01" and garden.split()[3:6] == ["cli", "5", "4"]
    assert airship.split()[1] == yesterday_noon().strftime("%Y-%m-%d") and airship.split()[4:6] == [
        "2",
        "0",
    ]
    assert cli("memory", "conversations", "--limit", "1").out.count("\n") == 2  # header + one


def test_conversations_titles_stay_readable_on_a_narrow_terminal(cli, home, monkeypatch):
    seed(home)
    monkeypatch.setenv("COLUMNS", "40")
    r = cli("memory", "conversations")
    assert r.code == 0
    assert "Please put" in r.out


def test_show_prints_participants_topics_compacts_and_labelled_messages(cli, home):
    ids = seed(home)
    r = cli("memory", "show", str(ids["garden"]))
    assert r.code == 0, r.err
    out = r.out
    assert out.startswith(
        f"Conversation {ids['garden']}: Shall we plan the greenhouse this spring?"
    )
    assert "5 messages, compacted up to 4" in out
    assert "participants: Tester x2, Maria x1, Helper (bot) x1, Tatlock (bot) x1" in out
    assert "topics: gardening (2), tulips (1)" in out
    assert "--- summary of messages 1-4 (" in out and "llama3.2:3b) ---" in out
    assert "Maria ordered 40 tulip bulbs from Harrods" in out
    # every message with its number and speaker label
    assert "#1 2026-03-01 " in out
    lines = out.splitlines()
    heads = [ln for ln in lines if ln.startswith("#")]
    assert [h.split(" ", 3)[3] for h in heads] == [
        "Anchor (Tester):",
        "Maria:",
        "[Helper (bot)]:",
        "Assistant:  [DIRECT]",
        "Anchor (Tester):",
    ]
    assert "  I ordered forty tulip bulbs from Harrods." in lines
    # the summary comes before the messages
    assert out.index("--- summary") < out.index("#1 ")


def test_show_multiline_message_is_indented(cli, home):
    s = open_store(home)
    c = s.create_conversation("cli", "cli")
    s.add_message(c.id, "user", "first line\nsecond line", ANCHOR)
    s.close()
    out = cli("memory", "show", str(c.id)).out
    assert "  first line\n  second line\n" in out


def test_show_unknown_id_is_one_line_exit_1(cli, home):
    seed(home)
    r = cli("memory", "show", "999")
    one_line_error(r, 1, "no conversation 999", "tester")
    assert r.out == ""


def test_show_non_numeric_id_is_usage_error(cli, home):
    r = cli("memory", "show", "abc")
    one_line_error(r, 2, "invalid int value")


# -- search ----------------------------------------------------------------------------------


def test_search_finds_message_with_conversation_and_author(cli, home):
    ids = seed(home)
    r = cli("memory", "search", "Harrods")
    assert r.code == 0, r.err
    assert f"conversation {ids['garden']} #2 Maria" in r.out
    assert "I ordered forty tulip bulbs from Harrods." in r.out
    # the compact that mentions it is found too
    assert f"conversation {ids['garden']} summary 1-4" in r.out


def test_search_by_other_word_finds_other_conversation(cli, home):
    ids = seed(home)
    r = cli("memory", "search", "zeppelin", "museum")
    assert r.code == 0
    assert f"conversation {ids['airship']} #1 Tester" in r.out
    assert f"conversation {ids['garden']}" not in r.out


def test_search_nothing_found(cli, home):
    seed(home)
    r = cli("memory", "search", "xylophone")
    assert r.code == 0 and r.out.strip() == "Nothing found for 'xylophone'."


FTS_SYNTAX = [
    '"tulip',
    "tulips AND",
    "OR roses",
    "NOT",
    "tulip*",
    "*",
    "NEAR(tulips",
    "content:tulips",
    "^tulips",
    "(tulips",
    "{tulips}",
    "tulips NEAR/2 roses",
    '""',
    ";DROP TABLE conversations;--",
]


def test_search_fts_syntax_does_not_crash(cli, home):
    seed(home)
    for query in FTS_SYNTAX:
        r = cli("memory", "search", query)
        assert r.code == 0, (query, r.err)
        assert r.err == "" and "Traceback" not in r.out, query
    # a leading dash needs `--` (argparse), and then it is searched like any word
    r = cli("memory", "search", "--", "-tulips")
    assert r.code == 0 and r.err == "", r.err
    assert rows(user_db(home), "SELECT count(*) FROM conversations") == [(3,)]


def test_search_fts_syntax_still_finds_the_word(cli, home):
    ids = seed(home)
    for q in ('"Harrods', "Harrods AND", "NEAR(Harrods", "Harrods*"):
        r = cli("memory", "search", q)
        assert f"conversation {ids['garden']} #2 Maria" in r.out, (q, r.out)


def test_search_blank_query_is_usage_error(cli, home):
    one_line_error(cli("memory", "search", "   "), 2, "give words to search for")
    assert cli("memory", "search").code == 2


def test_search_limit(cli, home):
    s = open_store(home)
    c = s.create_conversation("cli", "cli")
    for i in range(6):
        s.add_message(c.id, "user", f"marmalade note number {i}", ANCHOR)
    s.close()
    r = cli("memory", "search", "marmalade", "--limit", "2")
    assert r.code == 0
    assert sum(1 for ln in r.out.splitlines() if f"conversation {c.id} #" in ln) == 2


# -- recall ----------------------------------------------------------------------------------


def test_recall_by_date_range(cli, home):
    ids = seed(home)
    r = cli("memory", "recall", "--since", "2026-03-01", "--until", "2026-03-01")
    assert r.code == 0, r.err
    assert "forty tulip bulbs" in r.out and "greenhouse" in r.out
    assert (
        f"conversation {ids['airship']}" not in r.out
        and f"conversation {ids['kettle']}" not in r.out
    )


def test_recall_yesterday(cli, home):
    ids = seed(home)
    r = cli("memory", "recall", "--since", "yesterday", "--until", "yesterday")
    assert r.code == 0, r.err
    assert f"conversation {ids['airship']} #1 Tester" in r.out
    assert f"conversation {ids['airship']} #2 Tatlock" in r.out
    assert (
        f"conversation {ids['garden']}" not in r.out
        and f"conversation {ids['kettle']}" not in r.out
    )


def test_recall_since_phrase_excludes_older(cli, home):
    ids = seed(home)
    r = cli("memory", "recall", "--since", "yesterday")
    assert r.code == 0
    assert f"conversation {ids['airship']}" in r.out and f"conversation {ids['kettle']}" in r.out
    assert f"conversation {ids['garden']}" not in r.out


def test_recall_keywords_within_range(cli, home):
    ids = seed(home)
    r = cli("memory", "recall", "zeppelin", "--since", "last week")
    assert r.code == 0
    assert f"conversation {ids['airship']}" in r.out and "kettle" not in r.out
    r = cli("memory", "recall", "zeppelin", "--until", "2026-03-02")
    assert r.out.strip() == "Nothing found."


def test_recall_by_topic(cli, home):
    ids = seed(home)
    r = cli("memory", "recall", "--topic", "gardening")
    assert r.code == 0, r.err
    assert f"conversation {ids['garden']}" in r.out
    assert (
        f"conversation {ids['airship']}" not in r.out
        and f"conversation {ids['kettle']}" not in r.out
    )
    r = cli("memory", "recall", "--topic", "#Travel")
    assert (
        f"conversation {ids['airship']}" in r.out and f"conversation {ids['garden']}" not in r.out
    )


def test_recall_unknown_topic_lists_known_ones(cli, home):
    seed(home)
    r = cli("memory", "recall", "--topic", "astronomy")
    assert r.code == 0
    lines = r.out.strip().splitlines()
    assert lines[0] == "Nothing found."
    assert (
        lines[1].startswith("Known topics: ") and "gardening" in lines[1] and "travel" in lines[1]
    )


@pytest.mark.parametrize(
    "args",
    [
        ("--since", "2026-13-45"),
        ("--until", "2026-02-30"),
        ("--since", "the day the music died in zebra-land qqq"),
    ],
)
def test_recall_bad_date_is_usage_error(cli, home, args):
    seed(home)
    one_line_error(cli("memory", "recall", *args), 2, "cannot read")


def test_recall_until_before_since(cli, home):
    one_line_error(
        cli("memory", "recall", "--since", "2026-03-05", "--until", "2026-03-01"),
        2,
        "the end of the period is before its start",
    )


def test_recall_without_criteria_is_usage_error(cli, home):
    one_line_error(cli("memory", "recall"), 2, "give keywords, --since/--until, or --topic")


# -- compact ---------------------------------------------------------------------------------


def block_summary(a: int, b: int) -> str:
    return (
        f"Here is the record.\nTOPICS DISCUSSED\n- tea block {a}\n\n"
        f"FACTUAL TIMELINE\n- Tester asked for tea {a}\n\n"
        f"KEY FACTS ESTABLISHED\n- Tester drinks Earl Grey number {a}-{b}\n\nUNRESOLVED "
        f"ITEMS\n- none\n\n"
        "TECHNICAL DETAILS\n- none"
    )


def tea_conversation(home: Path, n: int) -> int:
    s = open_store(home)
    c = s.create_conversation("cli", "cli")
    for i in range(1, n + 1):
        if i % 2:
            s.add_message(c.id, "user", f"Tea request {i}: Earl Grey, please.", ANCHOR)
        else:
            s.add_message(c.id, "assistant", f"Earl Grey {i} served, sir.", BUTLER)
    s.close()
    return c.id


def test_compact_blocks_of_the_interval(cli, home, served, monkeypatch):
    monkeypatch.setenv("TATLOCK_COMPACT_INTERVAL", "5")
    cid = tea_conversation(home, 12)
    served.queue(block_summary(1, 5), block_summary(6, 10))
    r = cli("memory", "compact", str(cid))
    assert r.code == 0, r.err
    assert "compacted messages 1-5 in" in r.out and "compacted messages 6-10 in" in r.out
    assert "compacting messages 1-5" in r.err and "compacting messages 6-10" in r.err
    assert len(served.chat_requests) == 2
    prompt = served.chat_requests[0]["messages"][0]["content"]
    assert "Anchor (Tester): Tea request 1" in prompt and "Assistant: Earl Grey 4 served" in prompt
    assert "Tea request 7" not in prompt
    assert served.chat_requests[0]["model"] == "llama3.2:3b"
    got = rows(
        user_db(home),
        "SELECT from_message, up_to_message, model FROM conversation_compacts"
        " WHERE conversation_id = ? ORDER BY from_message",
        (cid,),
    )
    assert got == [(1, 5, "llama3.2:3b"), (6, 10, "llama3.2:3b")]
    assert rows(
        user_db(home), "SELECT compacted_up_to FROM conversations WHERE id = ?", (cid,)
    ) == [(10,)]
    assert rows(user_db(home), "SELECT count(*) FROM compaction_claims") == [(0,)]
    # the model's preamble is dropped; sections are kept in canonical form
    summary = rows(
        user_db(home), "SELECT summary FROM conversation_compacts WHERE from_message = 1"
    )[0][0]
    assert summary.startswith("TOPICS DISCUSSED") and "Earl Grey number 1-5" in summary
    # the compacts show up in show/search/stats
    shown = cli("memory", "show", str(cid)).out
    assert "--- summary of messages 1-5" in shown and "--- summary of messages 6-10" in shown
    assert "compacted up to 10" in shown
    assert f"conversation {cid} summary 6-10" in cli("memory", "search", "number").out
    assert "compacts:       2 covering 10 messages" in cli("memory", "stats").out
    # topics from TOPICS DISCUSSED were recorded
    assert {"tea block 1", "tea block 6"} <= {
        t for (t,) in rows(user_db(home), "SELECT name FROM topics")
    }

    # nothing more is due until 15 messages exist
    r = cli("memory", "compact", str(cid))
    assert r.code == 0
    assert r.out.strip() == (
        f"Nothing to compact: conversation {cid} has 12 messages, 10 compacted, "
        "and blocks are 5 messages."
    )
    assert len(served.chat_requests) == 2


def test_compact_uses_the_tier_interval_by_default(cli, home, served):
    cid = tea_conversation(home, 39)
    r = cli("memory", "compact", str(cid))
    assert r.code == 0
    assert "blocks are 40 messages" in r.out and "39 messages, 0 compacted" in r.out
    assert served.chat_requests == []


def test_compact_nothing_due_needs_no_server(cli, home, monkeypatch, closed_port_url):
    monkeypatch.setenv("OLLAMA_HOST", closed_port_url)
    monkeypatch.setenv("TATLOCK_COMPACT_INTERVAL", "5")
    cid = tea_conversation(home, 3)
    r = cli("memory", "compact", str(cid))
    assert r.code == 0 and r.out.startswith("Nothing to compact")


def test_compact_server_down_is_one_line_and_writes_nothing(cli, home, served, monkeypatch):
    monkeypatch.setenv("TATLOCK_COMPACT_INTERVAL", "5")
    cid = tea_conversation(home, 6)
    served.stop()
    r = cli("memory", "compact", str(cid))
    one_line_error(r, 1, "compaction failed", "not reachable", progress="compacting messages")
    assert "(0 block(s) compacted before)" in r.err
    assert rows(user_db(home), "SELECT count(*) FROM conversation_compacts") == [(0,)]
    assert rows(
        user_db(home), "SELECT compacted_up_to FROM conversations WHERE id = ?", (cid,)
    ) == [(0,)]
    assert rows(user_db(home), "SELECT count(*) FROM compaction_claims") == [(0,)]


def test_compact_summary_without_sections_is_made_without_the_model_and_says_so(
    cli, home, served, monkeypatch
):
    monkeypatch.setenv("TATLOCK_COMPACT_INTERVAL", "5")
    cid = tea_conversation(home, 11)
    served.queue(block_summary(1, 5), "Sure! They talked about tea.", "Still no sections.")
    r = cli("memory", "compact", str(cid))
    assert r.code == 0 and "Traceback" not in r.err
    assert "compacted messages 1-5 in" in r.out
    assert "compacted messages 6-10 in" in r.out and "taken without the model" in r.out
    made = rows(
        user_db(home), "SELECT from_message, up_to_message, model FROM conversation_compacts"
    )
    assert made == [(1, 5, "llama3.2:3b"), (6, 10, "extract")]
    assert rows(user_db(home), "SELECT count(*) FROM compaction_claims") == [(0,)]


def test_compact_with_the_model_failing_is_one_line(cli, home, served, monkeypatch):
    monkeypatch.setenv("TATLOCK_COMPACT_INTERVAL", "5")
    cid = tea_conversation(home, 11)
    served.queue(block_summary(1, 5), FakeError(500, "model runner crashed"))
    r = cli("memory", "compact", str(cid))
    one_line_error(
        r,
        1,
        "compaction failed",
        "model runner crashed",
        "(1 block(s) compacted before)",
        progress="compacting messages",
    )
    assert rows(user_db(home), "SELECT from_message, up_to_message FROM conversation_compacts") == [
        (1, 5)
    ]
    assert rows(user_db(home), "SELECT count(*) FROM compaction_claims") == [(0,)]


def test_compact_unknown_conversation(cli, home, served):
    one_line_error(cli("memory", "compact", "42"), 1, "no conversation 42")
    assert served.chat_requests == []


# -- export ----------------------------------------------------------------------------------


def test_export_markdown_to_stdout(cli, home):
    ids = seed(home)
    r = cli("memory", "export", str(ids["garden"]))
    assert r.code == 0, r.err
    md = r.out
    assert md.startswith(f"# Shall we plan the greenhouse this spring? ({ids['garden']})\n")
    assert "- room: cli (cli)" in md and "- messages: 5" in md
    assert "## Summary of messages 1-4" in md and "Maria ordered 40 tulip bulbs from Harrods" in md
    assert "## Messages" in md
    for label in (
        "**Anchor (Tester)** · #1 ·",
        "**Maria** · #2 ·",
        "**[Helper (bot)]** · #3 ·",
        "**Assistant** · #4 ·",
        "**Anchor (Tester)** · #5 ·",
    ):
        assert label in md
    assert "I ordered forty tulip bulbs from Harrods." in md
    assert cli("memory", "export", str(ids["garden"]), "--format", "md").out == md


def test_export_json_holds_messages_with_authors(cli, home):
    ids = seed(home)
    r = cli("memory", "export", str(ids["garden"]), "--format", "json")
    assert r.code == 0, r.err
    data = json.loads(r.out)
    assert (
        data["conversation"]["id"] == ids["garden"] and data["conversation"]["message_count"] == 5
    )
    msgs = data["messages"]
    assert [m["message_number"] for m in msgs] == [1, 2, 3, 4, 5]
    assert [(m["author_name"], m["role"], m["is_anchor"], m["author_is_bot"]) for m in msgs] == [
        ("Tester", "user", True, False),
        ("Maria", "user", False, False),
        ("Helper", "user", False, True),
        ("Tatlock", "assistant", False, True),
        ("Tester", "user", True, False),
    ]
    assert msgs[1]["content"] == "I ordered forty tulip bulbs from Harrods."
    assert msgs[3]["metadata"]["route"] == "DIRECT"
    assert [c["from_message"] for c in data["compacts"]] == [1]
    assert data["compacts"][0]["topics"] == ["gardening"]
    assert {p["name"] for p in data["participants"]} == {"Tester", "Maria", "Helper", "Tatlock"}


@pytest.mark.parametrize("fmt", ["md", "json"])
def test_export_to_file(cli, home, tmp_path, fmt):
    ids = seed(home)
    target = tmp_path / f"out.{fmt}"
    r = cli("memory", "export", str(ids["airship"]), "--format", fmt, "-o", str(target))
    assert r.code == 0, r.err
    assert r.out.strip() == f"exported conversation {ids['airship']} to {target}"
    text = target.read_text(encoding="utf-8")
    assert text == cli("memory", "export", str(ids["airship"]), "--format", fmt).out
    if fmt == "json":
        assert json.loads(text)["messages"][0]["content"].startswith("Tell me about the zeppelin")
    else:
        assert "zeppelin museum" in text
    assert list(tmp_path.glob("out.*")) == [target]  # no temporary file left behind


def test_export_creates_missing_folders(cli, home, tmp_path):
    ids = seed(home)
    target = tmp_path / "no" / "such" / "dir" / "x.md"
    r = cli("memory", "export", str(ids["garden"]), "-o", str(target))
    assert r.code == 0, r.err
    assert "greenhouse" in target.read_text(encoding="utf-8")


def test_export_onto_a_directory_is_one_line_and_leaves_no_temp_file(cli, home, tmp_path):
    ids = seed(home)
    (tmp_path / "taken").mkdir()
    r = cli("memory", "export", str(ids["garden"]), "-o", str(tmp_path / "taken"))
    one_line_error(r, 1)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["home", "taken"]


def test_export_unknown_and_bad_format(cli, home):
    one_line_error(cli("memory", "export", "7"), 1, "no conversation 7")
    one_line_error(cli("memory", "export", "7", "--format", "pdf"), 2, "invalid choice")


# -- stats -----------------------------------------------------------------------------------


def test_stats_numbers(cli, home):
    seed(home)
    r = cli("memory", "stats")
    assert r.code == 0, r.err
    lines = dict(ln.split(":", 1) for ln in r.out.splitlines())
    assert lines["user"].strip() == "tester"
    assert lines["database"].strip().startswith(str(home / "users" / "tester_longterm.db"))
    assert lines["conversations"].strip().startswith("3 (2026-03-01 ")
    assert lines["messages"].strip() == "9"
    assert lines["compacts"].strip() == "1 covering 4 messages"
    assert lines["variables"].strip() == "1"
    assert lines["topics"].strip().startswith("3: gardening")
    assert "tulips" in lines["topics"] and "travel" in lines["topics"]


def test_stats_empty_memory(cli, home):
    r = cli("memory", "stats")
    assert r.code == 0
    assert (
        "conversations:  0\n" in r.out
        and "messages:       0" in r.out
        and "topics:         0\n" in r.out
    )


# -- forget ----------------------------------------------------------------------------------


def test_forget_removes_everything_derived(cli, home):
    ids = seed(home)
    gid = ids["garden"]
    logs = home / "logs" / "conversations"
    logs.mkdir(parents=True)
    log = logs / f"tester-{gid}.jsonl"
    log.write_text('{"type": "MessageStored"}\n')
    other_log = logs / f"tester-{ids['kettle']}.jsonl"
    other_log.write_text("{}\n")
    s = open_store(home)
    s.conn.execute(
        "INSERT INTO cross_conversation_summaries (conversation_id, summary, "
        "source_conversations,"
        " model, created_at) VALUES (?, 'Recent Highlights\n- tulips', ?, 'm', "
        "'2026-03-02')",
        (ids["kettle"], json.dumps([gid, ids["airship"]])),
    )
    s.close()
    md = home / "users" / "tester" / "cross_conversation_summary.md"
    md.parent.mkdir(parents=True)
    md.write_text("tulips\n")
    assert "Harrods" in cli("memory", "search", "Harrods").out

    r = cli("memory", "forget", str(gid), "--yes")
    assert r.code == 0, r.err
    assert r.out.startswith(f"Forgot conversation {gid}")
    assert "1 summary(ies) of recent conversations" in r.out
    assert rows(user_db(home), "SELECT count(*) FROM conversations WHERE id = ?", (gid,)) == [(0,)]
    for table in (
        "conversation_messages",
        "participants",
        "conversation_compacts",
        "conversation_topics",
    ):
        assert rows(
            user_db(home), f"SELECT count(*) FROM {table} WHERE conversation_id = ?", (gid,)
        ) == [(0,)], table
    assert rows(user_db(home), "SELECT count(*) FROM topic_messages") == [(0,)]
    assert rows(
        user_db(home), "SELECT count(*) FROM messages_fts WHERE messages_fts MATCH 'harrods'"
    ) == [(0,)]
    assert rows(
        user_db(home), "SELECT count(*) FROM compacts_fts WHERE compacts_fts MATCH 'harrods'"
    ) == [(0,)]
    assert rows(user_db(home), "SELECT count(*) FROM cross_conversation_summaries") == [(0,)]
    # topics only this conversation had are gone; others stay
    assert sorted(n for (n,) in rows(user_db(home), "SELECT name FROM topics")) == ["travel"]
    assert not log.exists() and not md.exists() and other_log.exists()
    assert cli("memory", "search", "Harrods").out.strip() == "Nothing found for 'Harrods'."
    assert cli("memory", "search", "tulip").out.strip() == "Nothing found for 'tulip'."
    # the others are untouched
    listed = cli("memory", "conversations").out
    assert "zeppelin" in listed and "kettle" in listed and "greenhouse" not in listed
    assert rows(user_db(home), "SELECT count(*) FROM conversation_messages") == [(4,)]
    one_line_error(cli("memory", "show", str(gid)), 1, f"no conversation {gid}")


def test_forget_without_log_file(cli, home):
    ids = seed(home)
    r = cli("memory", "forget", str(ids["kettle"]), "--yes")
    assert r.code == 0 and r.out.strip() == (
        f"Forgot conversation {ids['kettle']}: its messages, summaries, topics and debug log."
    )


def test_forget_without_yes_and_no_tty_deletes_nothing(cli, home):
    ids = seed(home)
    before = rows(user_db(home), "SELECT count(*) FROM conversation_messages")
    r = cli("memory", "forget", str(ids["garden"]), stdin="y\n", tty=False)
    one_line_error(r, 2, "--yes")
    assert rows(user_db(home), "SELECT count(*) FROM conversation_messages") == before
    assert "Harrods" in cli("memory", "search", "Harrods").out


def test_forget_asks_on_a_tty(cli, home):
    ids = seed(home)
    r = cli("memory", "forget", str(ids["garden"]), stdin="n\n", tty=True)
    assert r.code == 0 and "Kept." in r.out and "Forget conversation" in r.out
    assert rows(user_db(home), "SELECT count(*) FROM conversations") == [(3,)]
    r = cli("memory", "forget", str(ids["garden"]), stdin="y\n", tty=True)
    assert r.code == 0 and f"Forgot conversation {ids['garden']}" in r.out
    assert rows(user_db(home), "SELECT count(*) FROM conversations") == [(2,)]


def test_forget_unknown(cli, home):
    one_line_error(cli("memory", "forget", "5", "--yes"), 1, "no conversation 5")


# -- --user ----------------------------------------------------------------------------------


def test_user_option_selects_another_memory(cli, home):
    assert cli("user", "add", "alice").code == 0 and cli("user", "add", "bob").code == 0
    ids = seed(home, user="alice")
    assert cli("memory", "search", "Harrods").out.strip() == "Nothing found for 'Harrods'."
    r = cli("memory", "search", "Harrods", "--user", "alice")
    assert r.code == 0 and f"conversation {ids['garden']} #2 Maria" in r.out
    assert "user:           alice" in cli("memory", "stats", "--user", "alice").out
    assert cli("memory", "conversations", "--user", "alice").out.count("\n") == 4
    assert (
        cli("memory", "conversations", "--user", "bob").out.strip()
        == "No conversations yet for bob."
    )
    r = cli("memory", "forget", str(ids["garden"]), "--yes", "--user", "alice")
    assert r.code == 0
    assert rows(user_db(home, "alice"), "SELECT count(*) FROM conversations") == [(2,)]


def test_invalid_username_is_usage_error_and_creates_nothing(cli, home):
    cases = [
        (bad, ("stats",)) for bad in ("../evil", "Alice", "a b", "", "-x", "x" * 33, "é", "ali.ce")
    ]
    cases += [
        ("../evil", action)
        for action in (
            ("conversations",),
            ("search", "tulips"),
            ("forget", "1", "--yes"),
            ("export", "1", "--format", "json"),
            ("recall", "--topic", "x"),
            ("show", "1"),
            ("compact", "1"),
        )
    ]
    for bad, action in cases:
        r = cli("memory", *action, f"--user={bad}")
        one_line_error(r, 2, "invalid username")
        assert r.out == ""
        assert list(home.iterdir()) == [], (bad, action)


def test_memory_without_action_is_usage_error(cli, home):
    r = cli("memory")
    assert r.code == 2 and "Traceback" not in r.err
    assert list(home.iterdir()) == []


def test_forget_a_conversation_made_by_ask_removes_its_real_debug_log(cli, home, served):
    served.queue(
        {
            "json": {
                "decision": "DIRECT",
                "guard_reason": "NONE",
                "tools": [],
                "tool_query": "",
                "answer": "The quince jam is in the pantry, sir.",
                "topics": ["pantry"],
            }
        }
    )
    r = cli("ask", "--json", "Where is the quince jam?")
    assert r.code == 0, r.err
    cid = json.loads(r.out.strip().splitlines()[-1])["conversation_id"]
    log = home / "logs" / "conversations" / f"tester-{cid}.jsonl"
    assert log.exists()
    found = cli("memory", "search", "quince").out
    assert f"conversation {cid} #1 Tester" in found and f"conversation {cid} #2 Tatlock" in found
    shown = cli("memory", "show", str(cid)).out
    assert "Anchor (Tester):" in shown and "Assistant:  [DIRECT]" in shown
    assert cli("memory", "forget", str(cid), "--yes").code == 0
    assert not log.exists()
    assert cli("memory", "search", "quince").out.strip() == "Nothing found for 'quince'."
    assert rows(user_db(home), "SELECT count(*) FROM conversation_messages") == [(0,)]
    assert cli("memory", "conversations").out.strip() == "No conversations yet for tester."


def test_forget_also_forgets_personal_variables_learnt_in_it(cli, home):
    from tatlock.config import load
    from tatlock.store.user import Author, UserStore

    store = UserStore.open(load().paths, "tester")
    conv = store.create_conversation("cli", "cli")
    msg = store.add_message(
        conv.id, "user", "I live in Rotterdam", Author("tester", "Tester", is_anchor=True)
    )
    store.set_var("location", "Rotterdam", author_id="tester", source_message_id=msg.message_id)
    store.set_var("tea", "Assam", author_id="tester")  # set by hand, not from the conversation
    store.close()
    r = cli("memory", "forget", str(conv.id), "--yes")
    assert r.code == 0 and "the facts learnt only in it (location)" in r.out
    assert cli("var", "get", "location").code == 1
    assert cli("var", "get", "tea").out.strip() == "Assam"
