"""`tatlock memory import` and `tatlock persona import` read a bounded, regular file: no FIFO,
device, socket or /proc file, at most 512 MB (4 MB for a persona), a file that changes while it
is read is refused; the document is read as a stream, and absurd numbers, dates in the future,
deep nesting and ids given twice are one line that writes nothing. The memory is written in
short transactions, so another writer is never kept waiting long, and an import that stops half
way (killed, interrupted) leaves a hidden, consistent part that importing again completes."""

from __future__ import annotations

import io
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

import tatlock
from support.store import rows, user_db
from tatlock.errors import UsageError
from tatlock.files import open_input

EXE = str(Path(sys.executable).parent / "tatlock")
NOW = "2026-03-01T11:00:00+00:00"


def message(mid: int, number: int, content: str = "Leek soup?", **kw) -> dict:
    return {
        "message_id": mid,
        "message_number": number,
        "role": "user" if number % 2 else "assistant",
        "author_id": "@maria:example.org" if number % 2 else "tatlock",
        "author_name": "Maria" if number % 2 else "Tatlock",
        "content": content,
        "timestamp": NOW,
        **kw,
    }


def conversation(cid: int, messages: list[dict], **kw) -> dict:
    head = {
        "id": cid,
        "title": f"Soup {cid}",
        "room_id": "!kitchen:example.org",
        "interface": "matrix",
        "started_at": NOW,
        "last_activity": NOW,
        **kw,
    }
    return {"conversation": head, "messages": messages}


def document(*convs: dict, **kw) -> dict:
    return {"format": "tatlock-memory", "version": 1, "conversations": list(convs), **kw}


def big_export(path: Path, n: int, *, room: str = "cli", interface: str = "cli") -> None:
    """One conversation of ``n`` messages, written as the export writes it."""
    with path.open("w", encoding="utf-8") as fh:
        head = {
            "id": 1,
            "title": "Long",
            "room_id": room,
            "interface": interface,
            "started_at": NOW,
            "last_activity": NOW,
        }
        fh.write(
            '{"format": "tatlock-memory", "version": 1, "conversations": [{"uid": "long-one", '
            '"conversation": ' + json.dumps(head) + ', "messages": [\n'
        )
        for i in range(1, n + 1):
            fh.write(
                ("," if i > 1 else "")
                + json.dumps(
                    message(
                        i,
                        i,
                        f"Line {i} of the long talk about leeks.",
                        reply_to=i - 1 if i > 1 else None,
                    )
                )
                + "\n"
            )
        fh.write("]}]}\n")


def everything(home: Path) -> dict[str, list]:
    return {
        t: rows(user_db(home), f"SELECT * FROM {t} ORDER BY 1, 2")
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


def refused(cli, home: Path, path: Path | str, needle: str, code: int = 2) -> str:
    """The import is one line naming the file and ``needle``, and writes nothing."""
    before = everything(home)
    r = cli("memory", "import", str(path))
    assert r.code == code and r.out == "", (r.code, r.out, r.err)
    assert r.err.count("\n") == 1 and r.err.startswith("tatlock: ") and "Traceback" not in r.err, (
        r.err
    )
    assert needle in r.err, r.err
    assert everything(home) == before
    return r.err


@pytest.fixture
def something(home) -> None:
    with tatlock.open() as butler:  # a memory with something in it, which must stay as it is
        conv, _ = butler.rooms.open("!hall:example.org", "matrix")
        butler.rooms.add_exchange(conv.id, "Hello from the hall.")


# -- what is read ------------------------------------------------------------------------------


def test_only_a_regular_file_is_read(cli, home, tmp_path, something):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    t0 = time.monotonic()
    refused(cli, home, fifo, "not a regular file (a FIFO)")
    assert time.monotonic() - t0 < 5  # refused at once: it used to wait for a writer for ever
    refused(cli, home, "/dev/zero", "not a regular file")
    refused(cli, home, "/proc/self/environ", "not a regular file")
    # a symlink is judged by its target
    (tmp_path / "environ.json").symlink_to("/proc/self/environ")
    refused(cli, home, tmp_path / "environ.json", "not a regular file")
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(tmp_path / "sock"))
    try:
        refused(cli, home, tmp_path / "sock", "not a regular file (a socket)")
    finally:
        sock.close()
    r = subprocess.run(
        f"echo '{{}}' | {EXE} memory import /dev/stdin",
        shell=True,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert r.returncode == 2 and "(a pipe or socket): give - to read stdin" in r.stderr, r.stderr
    refused(cli, home, tmp_path, "is a folder")
    refused(cli, home, tmp_path / "missing.json", "no such file", code=1)


def test_a_file_larger_than_512_mb_is_refused_before_it_is_read(cli, home, tmp_path, something):
    sparse = tmp_path / "sparse.json"
    with sparse.open("wb") as fh:
        fh.truncate(10 * 2**30)  # 10 GB that take no room
    err = refused(cli, home, sparse, "is 10 GB; an import reads at most 512 MB")
    assert str(sparse) in err


def test_persona_import_reads_the_same_way(cli, home, tmp_path):
    before = cli("persona", "list").out
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for path, needle in (
        (fifo, "not a regular file (a FIFO)"),
        ("/dev/zero", "not a regular file"),
        ("/proc/self/status", "not a regular file"),
    ):
        r = cli("persona", "import", str(path), "--yes")
        assert r.code == 2 and r.err.count("\n") == 1 and needle in r.err, r.err
    big = tmp_path / "big.txt"
    big.write_text("Be brief.\n\n" * 500_000)  # 5.2 MB
    r = cli("persona", "import", str(big), "--yes")
    assert r.code == 2 and "is 5.2 MB; a persona import reads at most 4 MB" in r.err, r.err
    assert cli("persona", "list").out == before
    good = tmp_path / "persona.txt"
    good.write_text("Be brief.\n\nAddress the Anchor as sir.\n")
    r = cli("persona", "import", str(good), "--yes")
    assert r.code == 0 and "imported 2 instructions" in r.out, r.err
    r = cli("persona", "import", "-", "--yes", stdin="Speak plainly.\n")
    assert r.code == 0 and "imported 1 instructions" in r.out, r.err


def test_stdin_is_read_up_to_the_limit():
    with pytest.raises(UsageError, match="stdin holds more than 10 bytes"):
        open_input("-", limit=10, stdin=io.BytesIO(b"x" * 11))
    with open_input("-", limit=10, stdin=io.BytesIO(b"x" * 10)) as raw:
        assert raw.read() == b"x" * 10


def test_a_file_that_grows_shrinks_or_changes_while_read_is_refused(tmp_path):
    path = tmp_path / "x.json"
    path.write_bytes(b"{}" * 1000)
    with open_input(str(path), limit=2**20) as raw:
        with path.open("ab") as fh:
            fh.write(b"  more")
        with pytest.raises(UsageError, match="grew while it was read"):
            raw.read()
    path.write_bytes(b"{}" * 1000)
    with open_input(str(path), limit=2**20) as raw:
        os.truncate(path, 10)
        with pytest.raises(UsageError, match="shrank while it was read"):
            raw.read()
    path.write_bytes(b"{}" * 1000)
    with open_input(str(path), limit=2**20) as raw:
        data = raw.read()
        time.sleep(0.01)
        path.write_bytes(b"[]" * 1000)  # the same size, other bytes
        with pytest.raises(UsageError, match="changed while it was read"):
            raw.unchanged()
    assert data == b"{}" * 1000


# -- what the file holds -------------------------------------------------------------------------


def test_a_version_of_5000_digits_is_one_line(cli, home, tmp_path, something):
    path = tmp_path / "v.json"
    path.write_text(
        '{"format": "tatlock-memory", "version": ' + "9" * 5000 + ', "conversations": []}'
    )
    refused(cli, home, path, "a number of 5,000 digits")


def test_an_empty_file_and_one_of_whitespace_say_which(cli, home, tmp_path, something):
    """A file of spaces within the size bound (it used to be called empty)."""
    empty, blank = tmp_path / "empty.json", tmp_path / "blank.json"
    empty.write_bytes(b"")
    blank.write_bytes(b" \n" * 100_000)
    refused(cli, home, empty, "is not JSON (the file is empty)")
    refused(cli, home, blank, "is not JSON (the file holds only whitespace)")


@pytest.mark.parametrize("where", ["message", "started", "compact", "variable", "summary", "topic"])
def test_a_date_after_tomorrow_is_refused_wherever_it_is(cli, home, tmp_path, something, where):
    far = "9999-12-31T00:00:00+00:00"
    conv = conversation(1, [message(1, 1), message(2, 2)])
    doc = document(conv)
    if where == "message":
        conv["messages"][1]["timestamp"] = far
    elif where == "started":
        conv["conversation"]["last_activity"] = "2099-01-01T00:00:00+00:00"
    elif where == "compact":
        conv["compacts"] = [
            {"id": 1, "from_message": 1, "up_to_message": 2, "summary": "x", "created_at": far}
        ]
    elif where == "variable":
        doc["variables"] = [{"key": "location", "value": "Leeds", "updated_at": far}]
    elif where == "summary":
        doc["cross_summaries"] = [{"summary": "x", "created_at": far}]
    else:
        conv["topics"] = [{"name": "soup", "mentions": 1, "last_seen": far}]
    path = tmp_path / "future.json"
    path.write_text(json.dumps(doc))
    refused(cli, home, path, "is in the future")


def test_dates_in_other_zones_are_stored_in_utc_and_tomorrow_is_allowed(cli, home, tmp_path):
    import datetime as dt

    soon = (dt.datetime.now(dt.UTC) + dt.timedelta(hours=20)).isoformat(timespec="seconds")
    conv = conversation(
        1, [message(1, 1, timestamp="2026-03-01T12:00:00+01:00"), message(2, 2, timestamp=soon)]
    )
    path = tmp_path / "zones.json"
    path.write_text(json.dumps(document(conv)))
    assert cli("memory", "import", str(path)).code == 0
    stamps = [
        r[0]
        for r in rows(
            user_db(home), "SELECT timestamp FROM conversation_messages ORDER BY message_number"
        )
    ]
    assert stamps[0] == NOW and stamps[1].endswith("+00:00")
    # ahead: stored as now
    assert stamps[1] <= dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


def test_a_conversation_stamped_hours_ahead_does_not_take_over_the_next_question(
    cli, served, home, tmp_path
):
    """Within the day's grace a date ahead of this clock is stored as now: a conversation stamped
    20 hours ahead was "the latest" for those 20 hours, so `ask "and now?"` right after `ask --new`
    went on in the imported conversation, not the new one."""
    import datetime as dt

    from support.replies import direct

    served.handler = lambda body: direct("Very good, sir.")
    soon = (dt.datetime.now(dt.UTC) + dt.timedelta(hours=20)).isoformat(timespec="seconds")
    conv = conversation(1, [message(1, 1, timestamp=soon)], room_id="cli", interface="cli")
    conv["conversation"]["last_activity"] = soon
    path = tmp_path / "ahead.json"
    path.write_text(json.dumps(document(conv)))
    assert cli("memory", "import", str(path)).code == 0
    first = json.loads(cli("ask", "--new", "--json", "Good morning").out)
    second = json.loads(cli("ask", "--json", "and now?").out)
    assert second["conversation_id"] == first["conversation_id"]
    later = rows(
        user_db(home),
        "SELECT count(*) FROM conversations WHERE last_activity > "
        "strftime('%Y-%m-%dT%H:%M:%S+00:00', 'now')",
    )
    assert later == [(0,)]


def test_after_a_refused_future_date_the_next_question_goes_where_it_should(
    cli, served, home, tmp_path
):
    from support.replies import direct

    served.handler = lambda body: direct("Very good, sir.")
    conv = conversation(
        1, [message(1, 1, timestamp="9999-12-31T00:00:00+00:00")], room_id="cli", interface="cli"
    )
    path = tmp_path / "future.json"
    path.write_text(json.dumps(document(conv)))
    refused(cli, home, path, "is in the future")
    first = json.loads(cli("ask", "--new", "--json", "Good morning").out)
    second = json.loads(cli("ask", "--json", "and now?").out)
    assert first["conversation_id"] == second["conversation_id"]


@pytest.mark.parametrize(
    "name,build,needle",
    [
        (
            "metadata",
            lambda: (
                '{"format": "tatlock-memory", "version": 1, "conversations": '
                '[{"conversation": '
                '{"id": 1, "room_id": "r", "interface": "i", "started_at": '
                '"2026-03-01T11:00:00+00:00", '
                '"last_activity": '
                '"2026-03-01T11:00:00+00:00", "metadata": '
                + '{"a": ' * 50
                + "1"
                + "}" * 50
                + '}, "messages": '
                "[]}]}"
            ),
            "nested more than 16 levels",
        ),
        (
            "unknown key",
            lambda: (
                '{"format": "tatlock-memory", "version": 1, "x": '
                + "[" * 200_000
                + "]" * 200_000
                + ', "conversations": []}'
            ),
            "nested more than 64 levels",
        ),
        ("top", lambda: "[" * 1_000_000, "nested more than 64 levels"),
        (
            "in a value",
            lambda: (
                '{"format": "tatlock-memory", "version": 1, "conversations": '
                '[{"conversation": ' + "[" * 100_000 + "]" * 100_000 + "}]}"
            ),
            "nested too deeply",
        ),
    ],
)
def test_a_json_bomb_of_nesting_depth_is_one_line(
    cli, home, tmp_path, something, name, build, needle
):
    path = tmp_path / "deep.json"
    path.write_text(build())
    refused(cli, home, path, needle)


@pytest.mark.parametrize(
    "name,change,needle",
    [
        (
            "message id in two conversations",
            lambda d: d["conversations"][1]["messages"][0].update(message_id=1),
            "message_id 1 appears in two conversations",
        ),
        (
            "message id twice in one",
            lambda d: d["conversations"][0]["messages"][1].update(message_id=1),
            "repeat a message_id",
        ),
        (
            "conversation uid twice",
            lambda d: [c.update(uid="same") for c in d["conversations"]],
            "appears twice",
        ),
        (
            "variable twice",
            lambda d: d.update(
                variables=[
                    {"key": "location", "value": "A", "updated_at": NOW},
                    {"key": "location", "value": "B", "updated_at": NOW},
                ]
            ),
            "the variable 'location' appears twice",
        ),
        (
            "messages null",
            lambda d: d["conversations"][0].update(messages=None),
            "messages must be a list",
        ),
        ("no messages", lambda d: d["conversations"][0].pop("messages"), "has no 'messages'"),
        (
            "archive",
            lambda d: d["conversations"][0]["conversation"].update(
                metadata={"archive": {"summary": "x", "up_to_message": "many"}}
            ),
            "up_to_message must be a whole number",
        ),
        (
            "archive too far",
            lambda d: d["conversations"][0].update(archive={"summary": "x", "up_to_message": 9}),
            "covers messages up to #9",
        ),
        (
            "infinity",
            lambda d: d.update(padding=float("inf")),
            "Infinity, which JSON does not allow",
        ),
    ],
)
def test_duplicate_ids_and_odd_values_are_one_line(
    cli, home, tmp_path, something, name, change, needle
):
    doc = document(
        conversation(1, [message(1, 1), message(2, 2)]), conversation(2, [message(3, 1)])
    )
    change(doc)
    path = tmp_path / "dup.json"
    path.write_text(json.dumps(doc))
    refused(cli, home, path, needle)


def test_a_duplicate_key_in_the_file_is_read_as_json_says(cli, home, tmp_path):
    # JSON allows a key twice (the last one counts); a second list of messages is refused
    path = tmp_path / "twice.json"
    text = json.dumps(document(conversation(1, [message(1, 1)])))
    path.write_text(text.replace('"messages": [', '"messages": [], "messages": ['))
    refused(cli, home, path, "gives 'messages' twice")


def test_a_truncated_file_is_refused_wherever_it_is_cut(cli, home, tmp_path, something):
    full = json.dumps(document(conversation(1, [message(i, i) for i in range(1, 30)])))
    for cut in (1, 40, len(full) // 2, len(full) - 1):
        path = tmp_path / f"cut{cut}.json"
        path.write_text(full[:cut])
        refused(cli, home, path, "is not JSON")


def test_whitespace_and_a_bom_are_read_in_pieces(cli, home, tmp_path):
    path = tmp_path / "spaced.json"
    body = json.dumps(document(conversation(1, [message(1, 1)])), indent=4)
    with path.open("w", encoding="utf-8") as fh:
        fh.write(
            "\ufeff" + " " * (3 << 20) + body.replace(",", "," + "\n" * 1000) + "\n" * (3 << 20)
        )
    r = cli("memory", "import", str(path))
    assert r.code == 0 and "1 new conversation(s)" in r.out, r.err


# -- how it is written ---------------------------------------------------------------------------


def test_another_writer_is_never_kept_waiting_for_the_whole_import(cli, home, tmp_path):
    """A writer with two seconds of patience (a turn has ten) stores a message every 0.1 s while
    a long import runs in another process: every one is stored. One transaction for the whole
    import, as before, kept them waiting until it ended."""
    from tatlock.config import load
    from tatlock.store.user import Author, UserStore

    path = tmp_path / "long.json"
    big_export(path, 30_000)
    store = UserStore.open(load().paths, "tester")
    conv = store.create_conversation("probe", "cli")
    store.conn.execute("PRAGMA busy_timeout = 2000")
    proc = subprocess.Popen(
        [EXE, "memory", "import", str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    stored, during = 0, 0
    try:
        while proc.poll() is None:
            store.add_message(
                conv.id, "user", f"question {stored}", Author("tester", "Tester", is_anchor=True)
            )
            stored += 1
            during += (
                rows(
                    user_db(home),
                    "SELECT count(*) FROM conversation_messages WHERE "
                    "conversation_id "
                    "!= "
                    f"{conv.id}",
                )[0][0]
                > 0
                and proc.poll() is None
            )
            time.sleep(0.1)
    finally:
        out, err = proc.communicate(timeout=300)
        store.close()
    assert proc.returncode == 0, err
    assert during >= 3, (during, out)  # it did write while the import was writing
    assert rows(
        user_db(home),
        f"SELECT count(*) FROM conversation_messages WHERE conversation_id = {conv.id}",
    ) == [(stored,)]
    assert rows(
        user_db(home),
        f"SELECT count(*) FROM conversation_messages WHERE conversation_id != {conv.id}",
    ) == [(30_000,)]


def test_a_killed_import_leaves_a_hidden_part_that_importing_again_completes(
    cli, served, home, tmp_path, elsewhere
):
    from support.replies import direct

    path = tmp_path / "long.json"
    big_export(path, 20_000)
    clean = elsewhere("clean")
    assert cli("memory", "import", str(path)).code == 0
    want = everything(clean)
    os.environ["TATLOCK_HOME"] = str(home)  # back (monkeypatch restores it at the end)
    proc = subprocess.Popen(
        [EXE, "memory", "import", str(path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                written = rows(user_db(home), "SELECT count(*) FROM conversation_messages")
            except sqlite3.OperationalError:  # not made yet
                written = []
            if written[:1] > [(1000,)]:
                proc.send_signal(signal.SIGKILL)
                break
            time.sleep(0.05)
    finally:
        proc.communicate(timeout=60)
    assert proc.returncode == -signal.SIGKILL, "the import ended before it could be killed"
    half = rows(user_db(home), "SELECT interface, room_id, message_count FROM conversations")
    assert len(half) == 1 and half[0][0] == "import" and 1000 < half[0][2] < 20_000, half
    served.handler = lambda body: direct("Very good, sir.")
    # the CLI room's latest is not the half import
    asked = json.loads(cli("ask", "--json", "and now?").out)
    assert rows(
        user_db(home),
        f"SELECT count(*) FROM conversation_messages WHERE conversation_id = "
        f"{asked['conversation_id']}",
    ) == [(2,)]
    r = cli("memory", "import", str(path))
    assert r.code == 0 and "1 new conversation(s)" in r.out, (r.out, r.err)
    got = everything(home)
    keep = [c for c in got["conversations"] if c[0] != asked["conversation_id"]]
    # room, interface, counters...
    assert [c[1:] for c in keep] == [c[1:] for c in want["conversations"]]
    theirs = [p[1:] for p in got["participants"] if p[0] != asked["conversation_id"]]
    assert theirs == [p[1:] for p in want["participants"]]

    # the imported talk, its reply links as message numbers (the ask in
    def talk(home: Path) -> list[tuple]:
        return rows(
            user_db(home),
            "SELECT m.message_number, m.role, m.author_id, m.content, "
            "m.timestamp, "
            "r.message_number"
            " FROM conversation_messages m LEFT JOIN conversation_messages r ON "
            "r.message_id = m.reply_to"
            " JOIN conversations c ON c.id = m.conversation_id WHERE c.title = 'Long'"
            # between took ids the file wanted: those were remapped)
            " ORDER BY m.message_number",
        )

    assert talk(home) == talk(clean) and len(talk(home)) == 20_000
    assert "Nothing to import" in cli("memory", "import", str(path)).out


def test_an_interrupted_import_says_how_far_it_came(home, tmp_path, monkeypatch):
    from tatlock.services.archive import ImportStopped
    from tatlock.store import importing

    path = tmp_path / "long.json"
    big_export(path, 3000)
    monkeypatch.setattr(importing, "HOLD", 0.0)  # a transaction per batch
    monkeypatch.setattr(importing, "PAUSE", 0.0)
    calls = []

    def interrupt(n: int) -> None:
        calls.append(n)
        if len(calls) == 3:
            raise KeyboardInterrupt

    with tatlock.open() as butler, path.open("rb") as fh, pytest.raises(ImportStopped) as stop:
        butler.archive.import_file(
            fh,
            name="long.json",
            progress=lambda phase, done, total: interrupt(done) if phase == "write" else None,
        )
    assert stop.value.exit_code == 130
    assert "stopped after 750 of 3,000 new messages (interrupted)" in stop.value.message
    assert "importing the same file again finishes it" in stop.value.message
    assert rows(
        user_db(home), "SELECT count(*), max(message_number) FROM conversation_messages"
    ) == [(750, 750)]


@pytest.mark.parametrize("sig, code", [("SIGTERM", 143), ("SIGHUP", 129)])
def test_a_signal_mid_import_exits_with_its_code_and_says_how_far_it_came(
    cli, home, tmp_path, sig, code
):
    """SIGTERM or SIGHUP while an import writes: like Ctrl-C, what was written is kept and one line
    says how far it came, but the exit code and the line name the signal (it said "interrupted"
    and exited 130, Ctrl-C's code, so a service manager could not tell it was stopped)."""
    assert cli("var", "list").code == 0
    path = tmp_path / "long.json"
    big_export(path, 60_000)
    p = subprocess.Popen(
        [EXE, "memory", "import", str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and p.poll() is None:  # until the first batch is written
        try:
            if rows(user_db(home), "SELECT count(*) FROM conversation_messages")[0][0]:
                break
        except sqlite3.OperationalError:  # locked, or not made yet
            pass
        time.sleep(0.05)
    p.send_signal(getattr(signal, sig))
    out, err = p.communicate(timeout=30)
    assert p.returncode == code, (out, err)
    assert err.count("\n") == 1 and f"(stopped by {sig})" in err and "Traceback" not in err, err
    kept = rows(user_db(home), "SELECT count(*) FROM conversation_messages")[0][0]
    assert f"stopped after {kept:,} of 60,000 new messages" in err
    assert cli("memory", "import", str(path)).code == 0
    assert rows(user_db(home), "SELECT count(*) FROM conversation_messages") == [(60_000,)]


@pytest.fixture
def elsewhere(tmp_path, monkeypatch):
    def switch(name: str) -> Path:
        h = tmp_path / name
        h.mkdir(exist_ok=True)
        monkeypatch.setenv("TATLOCK_HOME", str(h))
        return h

    return switch


def test_a_concurrent_turn_in_a_conversation_being_extended_stops_the_import_cleanly(
    home, tmp_path, monkeypatch
):
    """A new message in a conversation while an import appends to it: the import stops with one
    line, the turn's message is kept, and nothing is numbered twice."""
    from tatlock.services.archive import ImportStopped
    from tatlock.store import importing
    from tatlock.store.user import Author

    path = tmp_path / "long.json"
    big_export(path, 600)
    short = tmp_path / "short.json"
    doc = json.loads(path.read_text())
    doc["conversations"][0]["messages"] = doc["conversations"][0]["messages"][:10]
    short.write_text(json.dumps(doc))
    monkeypatch.setattr(importing, "HOLD", 0.0)
    monkeypatch.setattr(importing, "PAUSE", 0.0)
    with tatlock.open() as butler:
        with short.open("rb") as fh:
            butler.archive.import_file(fh, name="short.json")
        cid = butler.conversations.list(5)[0].id

        def meddle(phase: str, done: int, total: int) -> None:
            if phase == "write" and done == 250:
                butler.store.add_message(
                    cid, "user", "A word in between.", Author("tester", "Tester")
                )

        with path.open("rb") as fh, pytest.raises(ImportStopped) as stop:
            butler.archive.import_file(fh, name="long.json", progress=meddle)
    assert "changed while it was imported" in stop.value.message
    numbers = [
        r[0]
        for r in rows(user_db(home), "SELECT message_number FROM conversation_messages ORDER BY 1")
    ]
    assert numbers == list(range(1, len(numbers) + 1)) and len(numbers) == 261


FULL_DISK = r"""
set -u
mount -t tmpfs -o size=6m,mode=0700 tmpfs "$DISK"
cp -a "$SRC/." "$DISK/"
export TATLOCK_HOME="$DISK"
"$EXE" memory import "$FILE" >"$OUT/full.out" 2>"$OUT/full.err"; echo $? >"$OUT/full.rc"
mkdir -p "$OUT/full" && cp -a "$DISK/." "$OUT/full/"
umount "$DISK"
mount -t tmpfs -o size=64m,mode=0700 tmpfs "$DISK"
cp -a "$OUT/full/." "$DISK/"
"$EXE" memory import "$FILE" >"$OUT/again.out" 2>"$OUT/again.err"; echo $? >"$OUT/again.rc"
mkdir -p "$OUT/again" && cp -a "$DISK/." "$OUT/again/"
"""


def test_a_full_disk_mid_import_says_how_far_it_came_and_importing_again_finishes(
    cli, home, tmp_path
):
    """6 MB of disk take about half of 30,000 messages: the import stops with one line saying how
    many it wrote; those are whole and hidden; with room again, the same import completes it."""
    if (
        os.geteuid() != 0
        or subprocess.run(["unshare", "-m", "true"], capture_output=True).returncode != 0
    ):
        pytest.skip("needs root and a mount namespace for a small filesystem")
    assert cli("var", "list").code == 0
    path = tmp_path / "long.json"
    big_export(path, 30_000)
    disk, out = tmp_path / "disk", tmp_path / "out"
    disk.mkdir()
    out.mkdir()
    env = {
        **os.environ,
        "DISK": str(disk),
        "SRC": str(home),
        "OUT": str(out),
        "EXE": EXE,
        "FILE": str(path),
    }
    p = subprocess.run(
        ["unshare", "-m", "sh", "-c", FULL_DISK],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert p.returncode == 0, p.stderr
    err = (out / "full.err").read_text()
    assert (
        (out / "full.rc").read_text().strip() == "1"
        and err.count("\n") == 1
        and "Traceback" not in err
    ), err
    assert "is full" in err and "importing the same file again finishes it" in err, err
    kept = rows(user_db(out / "full"), "SELECT interface, message_count FROM conversations")
    assert kept[0][0] == "import" and 0 < kept[0][1] < 30_000
    assert f"stopped after {kept[0][1]:,} of 30,000 new messages" in err  # exactly what was kept
    assert rows(user_db(out / "full"), "PRAGMA integrity_check") == [("ok",)]
    assert (out / "again.rc").read_text().strip() == "0", (out / "again.err").read_text()
    assert f"{30_000 - kept[0][1]} message(s)" in (out / "again.out").read_text()
    assert rows(
        user_db(out / "again"), "SELECT interface, room_id, message_count FROM conversations"
    ) == [("cli", "cli", 30_000)]


def test_links_forward_in_the_file_and_to_remapped_ids_are_kept(cli, home, tmp_path):
    """A reply to a message further on (in its own conversation or a later one), a topic and a
    variable pointing at messages, and a summary naming conversations, all follow ids that had
    to be remapped because this memory uses them already."""
    with tatlock.open() as butler:  # takes conversation 1 and messages 1-2
        conv, _ = butler.rooms.open("!hall:example.org", "matrix")
        butler.rooms.add_exchange(conv.id, "Hello from the hall.", "Good day.")
    first = conversation(
        1,
        [
            message(1, 1, "I reply to the next one.", reply_to=2),
            message(2, 2, "Soup first."),
            message(3, 3, "I reply to the other talk.", reply_to=4),
        ],
    )
    # 4 is not this conversation's
    first["topics"] = [{"name": "soup", "mentions": 2, "messages": [2, 3, 4]}]
    second = conversation(2, [message(4, 1, "The other talk.")], room_id="!garden:example.org")
    doc = document(
        first,
        second,
        variables=[
            {"key": "location", "value": "Leeds", "updated_at": NOW, "source_message_id": 4}
        ],
        cross_summaries=[
            {
                "conversation_id": 2,
                "summary": "Earlier: soup.",
                "created_at": NOW,
                "source_conversations": [1, 2, 99999999999999999999],
            }
        ],
    )
    path = tmp_path / "links.json"
    path.write_text(json.dumps(doc))
    r = cli("memory", "import", str(path))
    assert r.code == 0 and "2 new conversation(s)" in r.out, (r.out, r.err)
    ids = dict(rows(user_db(home), "SELECT content, message_id FROM conversation_messages"))
    replies = dict(rows(user_db(home), "SELECT content, reply_to FROM conversation_messages"))
    assert replies["I reply to the next one."] == ids["Soup first."]
    assert replies["I reply to the other talk."] == ids["The other talk."]
    assert sorted(
        r[0] for r in rows(user_db(home), "SELECT message_id FROM topic_messages")
    ) == sorted([ids["Soup first."], ids["I reply to the other talk."]])
    assert rows(user_db(home), "SELECT source_message_id FROM personal_variables") == [
        (ids["The other talk."],)
    ]
    convs = dict(rows(user_db(home), "SELECT title, id FROM conversations"))
    got = rows(
        user_db(home),
        "SELECT conversation_id, source_conversations FROM cross_conversation_summaries",
    )
    assert got == [(convs["Soup 2"], json.dumps([convs["Soup 1"], convs["Soup 2"]]))]
    assert convs["Soup 1"] != 1  # remapped: 1 was taken
    before = everything(home)
    assert "Nothing to import" in cli("memory", "import", str(path)).out
    assert everything(home) == before
