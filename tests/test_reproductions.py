"""Issue 11's reproductions, one test per bullet of its list, done as the user did them: through
the real commands (in-process, or as processes where start-up itself is under test), against the
fake Ollama server over loopback HTTP, on real SQLite files. Each now gives one clear line or the
safe behaviour, and loses nothing."""

from __future__ import annotations

import getpass
import json
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import tatlock
from support.replies import CROSS, direct, phase_of, sent, tools_needed

KEY = ("-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n"
       "QyNTUxOQAAACDs0cJtVhLa5R2o8zQ3f0y8B1l3m1Z8r0iUQp0AAAAAAAAAAAAAAAAAAA==\n-----END OPENSSH PRIVATE KEY-----\n")
KEY_BODY = "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ"
HUGE = "99999999999999999999"


def no_traceback(r) -> None:
    assert "Traceback" not in r.err and "Traceback" not in r.out, r.err


def one_line(r, code: int | tuple[int, ...] = 1) -> str:
    """The command failed with one line on stderr (and no traceback); returns that line."""
    no_traceback(r)
    codes = code if isinstance(code, tuple) else (code,)
    lines = [x for x in r.err.splitlines() if x.strip()]
    assert r.code in codes and len(lines) == 1, (r.code, r.err)
    assert lines[0].startswith("tatlock: ")
    return lines[0]


def messages(home: Path, user: str = "tester") -> list[tuple]:
    db = home / "users" / f"{user}_longterm.db"
    if not db.exists():
        return []
    conn = sqlite3.connect(db)
    try:
        return conn.execute("SELECT conversation_id, message_number, role, content, metadata"
                            " FROM conversation_messages ORDER BY message_id").fetchall()
    finally:
        conn.close()


def everything_written(home: Path) -> str:
    """Every byte tatlock keeps (databases with their WAL, logs, summaries) as text."""
    return "\n".join(p.read_bytes().decode("utf-8", "replace") for p in home.rglob("*") if p.is_file())


# -- 1. analyze_file read ~/.ssh/id_ed25519 for a model that asked, and /etc/shadow stayed in the log


@pytest.fixture
def user_home(tmp_path, monkeypatch) -> Path:
    h = tmp_path / "u"
    for d in (".ssh", "Documents", "project"):
        (h / d).mkdir(parents=True)
    (h / ".ssh" / "id_ed25519").write_text(KEY)
    monkeypatch.setenv("HOME", str(h))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(h / ".config"))
    monkeypatch.chdir(h / "project")
    return h


def shadow_hashes() -> list[str]:
    try:
        text = Path("/etc/shadow").read_text()
    except OSError:
        return []
    return [f.split(":")[1] for f in text.splitlines() if f.count(":") > 2 and len(f.split(":")[1]) > 12]


def test_1_a_model_that_asks_for_a_key_or_shadow_gets_refusals_and_nothing_leaks(cli, served, home, user_home):
    def obedient(body):  # a model that does what it is told, and repeats whatever it was given
        phase = phase_of(body)
        if phase == "assess":
            return tools_needed("analyze_file")
        if phase == "select_tools":
            return {"tool_calls": [{"name": "analyze_file", "arguments": {"path": "~/.ssh/id_ed25519"}},
                                   {"name": "analyze_file", "arguments": {"path": "/etc/shadow"}}]}
        return "Here is what I found, sir: " + json.dumps(body["messages"][-1]["content"])[:3000]

    served.handler = obedient
    r = cli("ask", "-v", "read ~/.ssh/id_ed25519 and /etc/shadow for me")
    assert r.code == 0, r.err
    assert r.err.count("[tool] analyze_file failed") == 2  # both refused, as tool results
    assert r.out.count("tatlock never reads those") == 2  # the model was told why, and said so
    seen = "\n".join((sent(served), r.out, r.err, everything_written(home)))
    assert KEY_BODY not in seen and "PRIVATE KEY-----\nb3" not in seen
    for h in shadow_hashes():
        assert h not in seen


# -- 2. data files were world-readable (0644 files, 0755 folders)


def test_2_ordinary_use_leaves_nothing_that_others_can_read(cli, served, home, tmp_path, monkeypatch):
    monkeypatch.setenv("TATLOCK_HOUSEKEEPING", "foreground")  # the briefing's file is made before `ask` ends
    old = os.umask(0o022)  # the common default, under which Python makes 0644 files and 0755 folders
    try:
        served.queue(direct("Good morning, sir."), CROSS)
        assert cli("ask", "Good morning").code == 0
        served.queue(direct("Noted, sir."))
        assert cli("ask", "--new", "I like tea").code == 0
        served.queue(direct("Certainly, sir."))
        assert cli("chat", stdin="And coffee?\n").code == 0
        assert cli("persona", "add", "Be brief.").code == 0
        assert cli("persona", "edit", "1", "You are Tatlock, a butler.").code == 0
        assert cli("var", "set", "location", "Leeds").code == 0
        export = tmp_path / "exports" / "tea.md"
        assert cli("memory", "export", "2", "-o", str(export)).code == 0
        assert cli("persona", "export", str(tmp_path / "exports" / "persona.json")).code == 0
    finally:
        os.umask(old)
    loose = subprocess.run(["find", str(home), str(tmp_path / "exports"), "-perm", "/077"],
                           capture_output=True, text=True, check=True).stdout.split()
    assert loose == []
    assert (home / "users" / "tester_longterm.db").exists() and list((home / "logs").rglob("*.jsonl"))


# -- 3. tracebacks: a damaged system.db or user database on every command, a config.toml that is not
#       UTF-8, OLLAMA_HOST='http://[::1', and an id of 99999999999999999999


COMMANDS: list[tuple[str, ...]] = [
    ("ask", "hello"), ("chat",), ("persona", "list"), ("persona", "show", "1"), ("persona", "add", "Be brief."),
    ("persona", "edit", "1", "Be kind."), ("persona", "disable", "1"), ("persona", "enable", "1"),
    ("persona", "move", "1", "2"), ("persona", "remove", "1"), ("persona", "export", "-"),
    ("tools", "list"), ("tools", "show", "clock"), ("tools", "disable", "clock"), ("tools", "enable", "clock"),
    ("user", "list"), ("user", "add", "bob"), ("user", "passwd", "tester", "--password-stdin"),
    ("user", "remove", "bob", "--yes"),
    ("var", "list"), ("var", "get", "location"), ("var", "set", "location", "York"), ("var", "unset", "location"),
    ("memory", "conversations"), ("memory", "show", "1"), ("memory", "search", "tea"),
    ("memory", "recall", "--since", "last week"), ("memory", "compact", "1"), ("memory", "export", "1"),
    ("memory", "stats"), ("memory", "forget", "1", "--yes"), ("secret", "list"), ("doctor",),
]


def _fill(cli, served, home) -> None:
    served.handler = lambda body: direct("Very good, sir. " + "Tea is served. " * 20)
    for i in range(12):
        assert cli("ask", f"Tell me about tea number {i}, " + "with milk " * 30).code == 0
    for i in range(60):
        assert cli("var", "set", f"fact{i}", "x" * 900).code == 0


def _damage(path: Path, how: str) -> None:
    for side in (Path(str(path) + "-wal"), Path(str(path) + "-shm")):
        side.unlink(missing_ok=True)
    if how == "garbage":
        path.write_bytes(b"these are not the droids\x00" * 4000)
        return
    data = bytearray(path.read_bytes())
    pages = len(data) // 4096
    for page in range(2, pages, 3):  # data pages, not the schema: the file still opens
        data[page * 4096 + 8: page * 4096 + 200] = b"\xa5" * 192
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("which", ["system.db", "user database"])
@pytest.mark.parametrize("how", ["garbage", "damaged pages"])
def test_3a_a_damaged_database_is_one_line_on_every_command_and_is_left_as_it_was(cli, served, home, which, how):
    _fill(cli, served, home)
    path = home / "system.db" if which == "system.db" else home / "users" / "tester_longterm.db"
    _damage(path, how)
    before = path.read_bytes()
    failed = 0
    for args in COMMANDS:
        r = cli(*args, stdin="secret-pw\n" if "passwd" in args else ("hi\n" if args == ("chat",) else None))
        no_traceback(r)
        if args == ("doctor",):
            assert r.code == 1 and "PROBLEM" in r.out and str(path) in r.out, r.out
            continue
        if r.code != 0:
            failed += 1
            lines = [x for x in r.err.splitlines() if x.startswith("tatlock: ")]
            assert len(lines) == 1, (args, r.err)
            assert r.code in (1, 2), (args, r.code, r.err)
            if "damaged" in lines[0]:
                assert str(path) in lines[0] and "move it aside" in lines[0], (args, lines[0])
    assert failed >= 5  # the damage was met, and explained, by the commands that read it
    if how == "garbage":  # nothing tried to "repair" (overwrite) a file that is not a database
        assert path.read_bytes() == before
    assert "PROBLEM" in cli("doctor").out  # and the damage is still there to be found and restored


def test_3b_a_config_toml_that_is_not_utf8_and_a_malformed_ollama_host_are_one_line(tatlock_proc, home):
    (home / "config.toml").write_bytes(b'model = "caf\xe9"\n')
    r = tatlock_proc("ask", "hello")
    assert "config.toml is not UTF-8" in one_line(r, 2) and "0xe9" in r.err
    (home / "config.toml").unlink()
    r = tatlock_proc("ask", "hello", env={"OLLAMA_HOST": "http://[::1"})
    assert "OLLAMA_HOST='http://[::1'" in one_line(r, 2)
    assert not (home / "users").exists()  # refused before anything was stored


@pytest.mark.parametrize("args, needle", [
    (("ask", "--conversation", HUGE, "hello"), f"no conversation {HUGE}"),
    (("memory", "show", HUGE), f"no conversation {HUGE}"),
    (("memory", "forget", HUGE, "--yes"), f"no conversation {HUGE}"),
    (("memory", "export", HUGE), f"no conversation {HUGE}"),
    (("memory", "compact", HUGE), f"no conversation {HUGE}"),
    (("persona", "show", HUGE), f"no persona instruction with id {HUGE}"),
    (("persona", "remove", HUGE), f"no persona instruction with id {HUGE}"),
    (("persona", "move", HUGE, "1"), f"no persona instruction with id {HUGE}"),
    (("persona", "edit", HUGE, "text"), f"no persona instruction with id {HUGE}"),
    (("persona", "disable", HUGE), f"no persona instruction with id {HUGE}"),
    (("ask", "--conversation", "-" + HUGE, "hello"), f"no conversation -{HUGE}"),
])
def test_3c_an_id_too_large_for_sqlite_is_simply_not_found(cli, served, home, args, needle):
    served.queue(direct("Good morning, sir."))
    assert cli("ask", "Good morning").code == 0
    before = messages(home)
    line = one_line(cli(*args), 1)
    assert needle in line
    assert messages(home) == before and len(before) == 2  # nothing stored, nothing forgotten


# -- 4. bad settings were caught late, and TATLOCK_TIMEOUT=3 took 7 s


@pytest.mark.parametrize("env", [{"TATLOCK_TIER": "huge"}, {"TATLOCK_COMPACT_INTERVAL": "0"},
                                 {"TATLOCK_TIMEOUT": "-1"}])
def test_4a_a_bad_setting_stops_before_any_message_is_stored(tatlock_proc, served, home, env):
    r = tatlock_proc("ask", "What is the capital of France?", env={"OLLAMA_HOST": served.url, **env})
    line = one_line(r, 2)
    name, value = next(iter(env.items()))
    assert f"{name}='{value}'" in line and "must be" in line
    assert served.chat_requests == [] and not (home / "users").exists()


@pytest.fixture
def silent_server():
    """A server that accepts connections and reads requests but never answers."""
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(16)
    srv.settimeout(0.2)
    held: list[socket.socket] = []
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = srv.accept()
            except OSError:
                continue
            held.append(conn)

    t = threading.Thread(target=serve, daemon=True)
    t.start()
    yield f"http://127.0.0.1:{srv.getsockname()[1]}"
    stop.set()
    t.join(2)
    for c in held:
        c.close()
    srv.close()


@pytest.mark.parametrize("context_size", [None, "4096"])
def test_4b_a_timeout_of_3_s_is_honoured_within_a_second(cli, home, monkeypatch, silent_server, context_size):
    monkeypatch.setenv("OLLAMA_HOST", silent_server)
    monkeypatch.setenv("TATLOCK_TIMEOUT", "3")
    if context_size:  # with it, no question about the model's window comes before the chat call
        monkeypatch.setenv("TATLOCK_CONTEXT_SIZE", context_size)
    t0 = time.monotonic()
    r = cli("ask", "What is the capital of France?")
    elapsed = time.monotonic() - t0
    line = one_line(r, 1)
    assert "did not answer within 3 s" in line and "saved in conversation 1" in line
    assert 2.9 <= elapsed <= 4.0, elapsed
    assert [m[3] for m in messages(home)] == ["What is the capital of France?"]


# -- 5. `tatlock doctor` said all was well with a read-only data folder, a data folder that is a file,
#       or a corrupt database


def _doctor_read_only(home: Path) -> subprocess.CompletedProcess:
    exe = str(Path(sys.executable).parent / "tatlock")
    if os.geteuid() != 0:
        for p in [home, *home.rglob("*")]:
            os.chmod(p, 0o500 if p.is_dir() else 0o400)
        try:
            return subprocess.run([exe, "doctor"], capture_output=True, text=True, timeout=60)
        finally:
            for p in [home, *home.rglob("*")]:
                os.chmod(p, 0o700 if p.is_dir() else 0o600)
    if not shutil.which("unshare") or subprocess.run(["unshare", "-m", "true"], capture_output=True).returncode:
        pytest.skip("root needs a mount namespace to make a read-only folder (chmod does not stop root)")
    script = f'mount --bind -o ro "{home}" "{home}" && exec "{exe}" doctor'
    return subprocess.run(["unshare", "-m", "sh", "-c", script], capture_output=True, text=True, timeout=60)


def test_5_doctor_finds_a_read_only_folder_a_file_in_the_way_and_a_corrupt_database(
        cli, served, home, tmp_path, monkeypatch):
    served.queue(direct("Good morning, sir."))
    assert cli("ask", "Good morning").code == 0
    assert cli("doctor").out.strip().endswith("all good")

    r = _doctor_read_only(home)
    assert r.returncode == 1 and "Traceback" not in r.stderr and "all good" not in r.stdout
    assert "read-only" in r.stdout and "PROBLEM" in r.stdout
    assert "database tester_longterm.db: ok" in r.stdout  # the check itself still reads each database

    db = home / "users" / "tester_longterm.db"
    data = bytearray(db.read_bytes())
    data[4096 * 3: 4096 * 3 + 400] = b"\xa5" * 400
    db.write_bytes(bytes(data))
    r = cli("doctor")
    no_traceback(r)
    assert r.code == 1 and "all good" not in r.out
    assert f"database tester_longterm.db: PROBLEM: {db}" in r.out and "move it aside" in r.out

    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the data folder should be")
    monkeypatch.setenv("TATLOCK_HOME", str(blocker))
    r = cli("doctor")
    no_traceback(r)
    assert r.code == 1 and "is a file, not a folder" in r.out and "all good" not in r.out
    assert blocker.read_text() == "a file where the data folder should be"


# -- 6. no size limits: a 1.35 MB question from stdin was sent whole with a 4096-token context;
#       a 1.35 MB persona instruction went into every prompt


def test_6_a_huge_question_is_cut_for_the_model_and_stored_whole_and_a_huge_instruction_refused(
        cli, served, home, tmp_path):
    question = ("Please summarise this for me, sir. " + "All work and no play makes Jack a dull boy. " * 31_500)
    assert len(question) > 1_350_000
    served.handler = lambda body: direct("A dull boy, sir.")
    r = cli("ask", stdin=question)
    assert r.code == 0, r.err
    assert "your message is long: the model reads its first" in r.err and "all of it is kept" in r.err
    biggest = max(len(json.dumps(req)) for req in served.chat_requests)
    assert biggest < 60_000  # bounded by the 4096-token context, not by the question
    assert messages(home)[0][3] == question.strip()

    huge = "Always answer in rhyme. " * 56_500
    before = cli("persona", "list", "--json").out
    assert "at most 2,000 fit" in one_line(cli("persona", "add", "-", stdin=huge), 2)
    assert "at most 2,000 fit" in one_line(cli("persona", "edit", "1", "-", stdin=huge), 2)
    f = tmp_path / "persona.txt"
    f.write_text("Be brief.\n\n" + huge)
    assert "at most 2,000" in one_line(cli("persona", "import", str(f), "--yes"), 2)
    assert cli("persona", "list", "--json").out == before
    with tatlock.open() as butler, pytest.raises(tatlock.UsageError, match="at most 1000 characters"):
        butler.variables.set("location", "Leeds " * 250_000)


# -- 7. escape sequences and NUL bytes from messages were printed raw by memory show, memory
#       conversations and memory export


HOSTILE = "Clear\x1b[2J\x1b]52;c;ZXZpbA==\x07 me\x00 now\r and \u202eflip\x9b31m"


def test_7_escapes_and_nul_from_messages_are_shown_inert(cli, served, home):
    served.queue(direct("Noted, sir. \x1b[31mred\x1b[0m \x1b]8;;http://evil.example\x07link\x1b]8;;\x07"))
    r = cli("ask", HOSTILE)
    assert r.code == 0, r.err
    stored = [m[3] for m in messages(home)]
    assert stored[0] == HOSTILE and "\x1b[31m" in stored[1]  # stored exactly as said
    outputs = {"ask": r.out}
    for args in (("memory", "show", "1"), ("memory", "conversations"), ("memory", "export", "1"),
                 ("memory", "export", "1", "--format", "json"), ("memory", "search", "Clear"),
                 ("memory", "recall", "--since", "yesterday")):
        res = cli(*args)
        assert res.code == 0, (args, res.err)
        outputs[" ".join(args)] = res.out
    for name, text in outputs.items():
        for raw in ("\x1b", "\x00", "\x07", "\u202e", "\x9b"):
            assert raw not in text, (name, repr(raw))
        assert "\r" not in text.replace("\r\n", ""), name
    assert "\\x1b[2J" in outputs["memory show 1"] and "\\x00" in outputs["memory show 1"]
    assert "\\x1b[31mred" in outputs["ask"]
    assert "\\x1b[2J" in outputs["memory conversations"]  # the title is the first message
    assert json.loads(outputs["memory export 1 --format json"])["messages"][0]["content"] == HOSTILE


# -- 8. destructive commands did not ask; `user remove --delete-data` left the debug logs, and a new
#       user of the same name appended to them


def test_8_destructive_commands_confirm_and_a_removed_user_leaves_nothing_behind(cli, served, home, tmp_path):
    persona = cli("persona", "list", "--json").out
    readme = tmp_path / "README.md"
    readme.write_text("# My project\n\nSome notes about it.\n")
    assert "add --yes" in one_line(cli("persona", "import", str(readme)), 2)
    r = cli("persona", "import", str(readme), stdin="n\n", tty=True)
    assert r.code == 0 and "Kept the current persona" in r.out and "Replace all" in r.out
    assert cli("persona", "list", "--json").out == persona

    target = tmp_path / "persona.json"
    target.write_text("precious")
    assert "add --yes" in one_line(cli("persona", "export", str(target)), 2)
    assert cli("persona", "export", str(target), stdin="n\n", tty=True).code == 0
    assert target.read_text() == "precious"

    assert cli("user", "add", "bob", stdin="").code == 0
    served.queue(direct("Hello, Bob, sir."))
    assert cli("ask", "--user", "bob", "Remember that my locker code is 4451").code == 0
    logs = sorted((home / "logs" / "conversations").glob("bob-*.jsonl"))
    assert logs and "4451" in logs[0].read_text()
    assert "add --yes" in one_line(cli("user", "remove", "bob", "--delete-data"), 2)
    r = cli("user", "remove", "bob", "--delete-data", stdin="n\n", tty=True)
    assert r.code == 0 and "Kept." in r.out and logs[0].exists() and (home / "users" / "bob_longterm.db").exists()
    assert "add --yes" in one_line(cli("memory", "forget", "1", "--user", "bob"), 2)

    r = cli("user", "remove", "bob", "--delete-data", stdin="y\n", tty=True)
    assert r.code == 0 and "and their memory and logs" in r.out
    assert not list((home / "logs" / "conversations").glob("bob-*")) and not (home / "users" / "bob_longterm.db").exists()
    assert "4451" not in everything_written(home)

    assert cli("user", "add", "bob", stdin="").code == 0
    served.queue(direct("Good day, sir."))
    assert cli("ask", "--user", "bob", "Good day").code == 0
    new_logs = sorted((home / "logs" / "conversations").glob("bob-*.jsonl"))
    assert "4451" not in "".join(p.read_text() for p in new_logs)
    assert [m[3] for m in messages(home, "bob")] == ["Good day", "Good day, sir."]


# -- 9. a typo in --user silently created a new user; a login name like John.Smith silently became owner


def test_9a_a_user_typo_is_refused_with_the_hint(cli, served, home):
    served.queue(direct("Good morning, sir."))
    assert cli("ask", "Good morning").code == 0
    made = sorted(p.name for p in (home / "users").iterdir())
    for args in (("ask", "--user", "tseter", "hello"), ("chat", "--user", "tseter"),
                 ("var", "list", "--user", "tseter"), ("memory", "conversations", "--user", "tseter")):
        line = one_line(cli(*args, stdin="hello\n"), 1)
        assert "there is no user called 'tseter'" in line and "tatlock user add NAME" in line
    assert sorted(p.name for p in (home / "users").iterdir()) == made
    assert "tseter" not in cli("user", "list").out


def test_9b_the_default_user_is_explained_where_it_helps_and_only_once_on_first_use(cli, served, home, monkeypatch):
    monkeypatch.delenv("TATLOCK_USER")
    monkeypatch.setattr(getpass, "getuser", lambda: "John.Smith")
    assert cli("persona", "list").err == ""  # nothing to say before a memory is made
    served.queue(direct("Good morning, sir."))
    r = cli("ask", "Good morning")
    assert r.code == 0
    told = [x for x in r.err.splitlines() if "John.Smith" in x]
    assert len(told) == 1 and "so the user is 'owner'" in told[0] and "TATLOCK_USER" in told[0]
    served.queue(direct("Indeed, sir."))
    r = cli("ask", "And again")
    assert r.code == 0 and "John.Smith" not in r.err  # once, not on every command
    assert cli("var", "list").err == ""
    doctor = cli("doctor").out
    assert "user:" in doctor and "owner (your login name 'John.Smith' is not a valid" in doctor
    listing = cli("user", "list").out
    assert "owner" in listing and "The default user is owner: your login name 'John.Smith'" in listing
    assert (home / "users" / "owner_longterm.db").exists()


# -- issue 17, item 6: `tatlock ask` did not end when it said it gave up: after "the conversation
#    summary is taking too long; it will be retried next time" it went on compacting until it was
#    stopped at 110 s and 200 s (close() waited for the background work with no limit)


def test_17_6_ask_ends_with_its_answer_and_the_summary_goes_on_safely_elsewhere(tatlock_proc, served, home,
                                                                                 monkeypatch):
    from tatlock.memory.locks import PRESENCE_NAME, Lock

    monkeypatch.setenv("TATLOCK_HOUSEKEEPING", "background")  # the default, as the user had it
    monkeypatch.setenv("TATLOCK_COMPACT_INTERVAL", "4")
    gate, calls = threading.Event(), []

    def model(body):
        if phase_of(body) == "summary":  # a summariser that does not finish until the test says so
            calls.append(time.monotonic())
            gate.wait(60)
            return ("TOPICS DISCUSSED\n- codes\n\nKEY FACTS ESTABLISHED\n- Tester: the boiler code is 4417\n"
                    "- Tester: the gate code is 2291\n")
        return direct("Noted, sir.")

    served.handler = model

    def wait(what, condition, timeout=30.0):
        deadline = time.monotonic() + timeout
        while not condition():
            assert time.monotonic() < deadline, f"timed out waiting for {what}"
            time.sleep(0.05)

    r = tatlock_proc("ask", "The boiler code is 4417.")
    assert r.code == 0 and r.err == ""  # (a briefing for the next conversation goes on quietly)
    r = tatlock_proc("ask", "The gate code is 2291.", timeout=30)  # message 4: a block is due
    # the answer, then one line saying that the summary goes on; no wait for it (it cannot finish)
    assert r.code == 0 and r.out == "Noted, sir.\n"
    [line] = [x for x in r.err.splitlines() if x.strip()]
    assert line.startswith("tatlock: the summary of conversation 1, and the briefing for your next conversation, go "
                           "on in the background (") and line.endswith("; it is safe to stop it")
    assert "taking too long" not in r.err
    wait("the housekeeper's summary call", lambda: len(calls) == 1)
    presence = Lock(home / "users" / "tester" / PRESENCE_NAME)
    first = presence.holder()
    assert first and str(first) == (home / "users" / "tester" / "housekeeping.pid").read_text().strip()

    # a second ask meanwhile: answered at once; the housekeeper makes way for it, and no second
    # housekeeper starts (two processes never work on one memory's summaries at once)
    served.token_delay = 0.05  # an answer that streams for a second, as a model's does: long enough to be seen
    r = tatlock_proc("ask", "Thank you.", timeout=30)
    served.token_delay = 0
    assert r.code == 0 and r.out == "Noted, sir.\n"
    assert "the housekeeping process already running" in r.err
    wait("the summary asked again after the turn", lambda: len(calls) == 2)

    # kill -9 mid-summary: nothing half-written; its claim is taken over by the next housekeeper
    os.kill(first, 9)
    wait("the housekeeper's end", lambda: presence.holder() is None)
    conn = sqlite3.connect(home / "users" / "tester_longterm.db")
    assert conn.execute("SELECT count(*) FROM conversation_compacts").fetchone()[0] == 0
    assert conn.execute("SELECT pid FROM compaction_claims").fetchone()[0] == first  # left behind, dead
    gate.set()
    r = tatlock_proc("ask", "Goodnight.", timeout=30)
    assert r.code == 0 and "on in the background (process " in r.err  # a new one: the last is gone
    wait("the compacts", lambda: conn.execute("SELECT count(*) FROM conversation_compacts").fetchone()[0] == 2)
    assert conn.execute("SELECT from_message, up_to_message, model FROM conversation_compacts").fetchall() == [
        (1, 4, "llama3.2:3b"), (5, 8, "llama3.2:3b")]  # (the last ask made messages 5-8 a block too)
    assert "4417" in conn.execute("SELECT summary FROM conversation_compacts").fetchone()[0]
    wait("the claim's release", lambda: conn.execute("SELECT count(*) FROM compaction_claims").fetchone()[0] == 0)
    conn.close()
