"""`tatlock doctor`, `tatlock setup`, `tatlock chat` (piped), and start-up as a process."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys

import pytest

from support.fake_ollama import FakeOllama


def assess(answer: str, topics=("general",)) -> dict:
    return {"json": {"decision": "DIRECT", "guard_reason": "NONE", "tools": [], "tool_query": "",
                     "answer": answer, "topics": list(topics)}}



def db_rows(home, sql, user="tester"):
    conn = sqlite3.connect(home / "users" / f"{user}_longterm.db")
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


def field(out: str, name: str) -> list[str]:
    """The values of the doctor lines labelled ``name:``."""
    return [ln.split(":", 1)[1].strip() for ln in out.splitlines() if ln.strip().startswith(name + ":")]


# -- doctor ----------------------------------------------------------------------------------


def test_doctor_all_good(cli, served, home):
    r = cli("doctor")
    assert r.code == 0, (r.out, r.err)
    assert r.err == ""
    out = r.out
    assert out.startswith("tatlock doctor")
    assert field(out, "tier")[0].startswith("low (")
    assert field(out, "model")[0] == "llama3.2:3b (from $TATLOCK_MODEL)"
    assert field(out, "model pulled")[0] == "ok, llama3.2:3b, context 8192 tokens"
    assert field(out, "context")[0] == "4096 tokens, compaction every 40 messages"
    assert field(out, "server")[0] == f"ok, ollama at {served.url} ({served.version})"
    # paths
    assert field(out, "data")[0] == f"ok, {home}"
    assert field(out, "config")[0] == f"{home / 'config.toml'} (not present: defaults in use)"
    assert field(out, "logs")[0] == f"ok, {home / 'logs'}"
    assert field(out, "database system.db")[0] == f"ok, {home / 'system.db'}"
    assert field(out, "user")[0] == "tester; memories: none yet"
    assert out.rstrip().endswith("all good")
    # doctor only looks: no user memory is created, and the model is never asked anything
    assert not (home / "users").exists()
    assert served.chat_requests == []


def test_doctor_tier_default_model_and_memories(cli, served, home, monkeypatch):
    monkeypatch.delenv("TATLOCK_MODEL")
    assert cli("user", "add", "alice").code == 0
    assert cli("memory", "stats", "--user", "alice").code == 0  # creates alice's memory
    r = cli("doctor")
    assert r.code == 0, r.out
    assert field(r.out, "model")[0] == "llama3.2:3b (tier default)"
    assert field(r.out, "user")[0] == "tester; memories: alice"


def test_doctor_config_file_is_reported(cli, served, home):
    (home / "config.toml").write_text('compact_interval = 12\ncontext_size = 2048\n')
    r = cli("doctor")
    assert r.code == 0
    assert field(r.out, "config")[0] == str(home / "config.toml")
    assert field(r.out, "context")[0] == "2048 tokens, compaction every 12 messages"


def test_doctor_model_not_pulled(cli, served, monkeypatch):
    monkeypatch.setenv("TATLOCK_MODEL", "nonexistent:7b")
    r = cli("doctor")
    assert r.code == 1
    assert "Traceback" not in r.out + r.err
    assert field(r.out, "server")[0].startswith("ok, ")
    assert field(r.out, "model pulled")[0] == "PROBLEM: the model nonexistent:7b is not on the server"
    assert field(r.out, "fix")[0] == "pull it with `ollama pull nonexistent:7b`"
    assert r.out.rstrip().endswith("1 problem(s) found")


def test_doctor_model_latest_tag_counts_as_pulled(cli, served, monkeypatch):
    served.add_model("mistral:latest")
    monkeypatch.setenv("TATLOCK_MODEL", "mistral")
    r = cli("doctor")
    assert r.code == 0, r.out
    assert field(r.out, "model pulled")[0].startswith("ok, mistral")


def test_doctor_server_down(cli, home, monkeypatch, closed_port_url):
    monkeypatch.setenv("OLLAMA_HOST", closed_port_url)
    r = cli("doctor")
    assert r.code == 1
    assert "Traceback" not in r.out + r.err and r.err == ""
    server = field(r.out, "server")[0]
    assert server.startswith("PROBLEM: ") and closed_port_url in server
    assert field(r.out, "fix")[0] == "start it with `ollama serve`"
    assert field(r.out, "data")[0] == f"ok, {home}"  # paths are still printed
    assert field(r.out, "logs")[0] == f"ok, {home / 'logs'}"
    assert r.out.rstrip().endswith("1 problem(s) found")


def test_doctor_bad_tier_is_reported(cli, monkeypatch):
    monkeypatch.setenv("TATLOCK_TIER", "enormous")
    r = cli("doctor")
    assert r.code == 2 and "Traceback" not in r.out + r.err  # a bad setting is caught when config loads
    assert r.err.strip().splitlines() == [r.err.strip()]
    assert "TATLOCK_TIER='enormous'" in r.err and "low, medium, high or auto" in r.err


# -- setup -----------------------------------------------------------------------------------


@pytest.fixture
def empty_server(monkeypatch):
    """A fake Ollama with no models that can pull only the low tier's model."""
    with FakeOllama(models={}, pullable=["llama3.2:3b"]) as srv:
        monkeypatch.setenv("OLLAMA_HOST", srv.url)
        yield srv


def test_setup_pulls_the_tier_model_with_progress(cli, empty_server, home):
    r = cli("setup")
    assert r.code == 0, r.err
    assert r.out == "llama3.2:3b is ready\n"
    err = r.err.splitlines()
    assert err[0] == f"pulling llama3.2:3b from {empty_server.url}"
    assert "pulling manifest" in err
    assert any(ln.startswith("pulling ") and ln.endswith(": 25%") for ln in err)
    assert any(ln.endswith(": 100%") for ln in err)
    assert "verifying sha256 digest" in err and "writing manifest" in err and err[-1] == "success"
    assert "\r" not in r.err  # not a terminal: plain lines, no bar redrawn in place
    pulls = [q for q in empty_server.requests if q.path == "/api/pull"]
    assert len(pulls) == 1 and pulls[0].method == "POST"
    assert pulls[0].body["model"] == "llama3.2:3b" and pulls[0].body.get("stream", True) is True
    assert "llama3.2:3b" in empty_server.models
    # and doctor now finds it
    d = cli("doctor")
    assert d.code == 0 and field(d.out, "model pulled")[0].startswith("ok, llama3.2:3b")


def test_setup_progress_is_rate_limited(cli, empty_server):
    """Non-tty progress prints a line per 10% step, not per chunk."""
    r = cli("setup")
    pct = [ln for ln in r.err.splitlines() if ln.endswith("%")]
    assert len(pct) == len(set(pct))  # never the same line twice in a row
    assert len(pct) <= 4 * 3


def test_setup_model_option(cli, monkeypatch):
    with FakeOllama(models={}, pullable=["qwen2.5:7b"]) as srv:
        monkeypatch.setenv("OLLAMA_HOST", srv.url)
        r = cli("setup", "--model", "qwen2.5:7b")
        assert r.code == 0, r.err
        assert r.out.strip() == "qwen2.5:7b is ready"
        assert [q.body["model"] for q in srv.requests if q.path == "/api/pull"] == ["qwen2.5:7b"]


def test_setup_unpullable_model_is_one_clear_line(cli, empty_server):
    r = cli("setup", "--model", "nonexistent:7b")
    assert r.code == 1 and r.out == ""
    last = r.err.strip().splitlines()[-1]
    assert last == "tatlock: could not pull 'nonexistent:7b': pull model manifest: file does not exist"
    assert sum(ln.startswith("tatlock:") for ln in r.err.splitlines()) == 1
    assert "Traceback" not in r.err
    assert "nonexistent:7b" not in empty_server.models


def test_setup_server_down(cli, monkeypatch, closed_port_url):
    monkeypatch.setenv("OLLAMA_HOST", closed_port_url)
    r = cli("setup")
    assert r.code == 1 and r.out == "" and "Traceback" not in r.err
    assert r.err.strip().splitlines()[-1].startswith("tatlock: Ollama is not reachable at")


def test_setup_refuses_openai_backend(cli, empty_server, monkeypatch):
    monkeypatch.setenv("TATLOCK_BACKEND", "openai")
    r = cli("setup")
    assert r.code == 1 and r.out == ""
    assert r.err.strip().splitlines() == [
        'tatlock: `tatlock setup` pulls models through Ollama; with backend = "openai" load the model in your '
        "server instead"]
    assert empty_server.requests == []


def test_unknown_backend_is_config_error(cli, monkeypatch):
    monkeypatch.setenv("TATLOCK_BACKEND", "llamafile")
    r = cli("setup")
    assert r.code == 2 and "TATLOCK_BACKEND='llamafile': backend must be ollama or openai" in r.err


# -- chat ------------------------------------------------------------------------------------


def test_chat_piped_lines_new_and_eof(cli, served, home):
    served.queue(assess("Good evening, sir."), assess("Splendid, sir, thank you."), assess("A fresh start, sir."))
    r = cli("chat", stdin="Hello\n\nHow are you?\n/new\nGood morning\n")
    assert r.code == 0, r.err
    assert "Good evening, sir." in r.out and "Splendid, sir, thank you." in r.out and "A fresh start, sir." in r.out
    assert r.out.index("Good evening") < r.out.index("Splendid") < r.out.index("A fresh start")
    assert "Tatlock at your service (llama3.2:3b)" in r.err
    assert "(a new conversation starts with your next message)" in r.err
    assert "Traceback" not in r.err
    # the blank line was skipped; every model reply was used
    assert served.pending == 0 and len(served.chat_requests) == 3  # no summary call before an answer
    msgs = db_rows(home, "SELECT conversation_id, message_number, role, content FROM conversation_messages"
                         " ORDER BY message_id")
    first, second = msgs[0][0], msgs[-1][0]
    assert first != second
    assert [(c == first, n, role, text) for c, n, role, text in msgs] == [
        (True, 1, "user", "Hello"), (True, 2, "assistant", "Good evening, sir."),
        (True, 3, "user", "How are you?"), (True, 4, "assistant", "Splendid, sir, thank you."),
        (False, 1, "user", "Good morning"), (False, 2, "assistant", "A fresh start, sir."),
    ]
    assert db_rows(home, "SELECT interface, room_id FROM conversations ORDER BY id") == [("cli", "cli")] * 2
    # the second exchange saw the first in its prompt; the new conversation did not
    second_prompt = "\n".join(m["content"] for m in served.chat_requests[1]["messages"])
    assert "Anchor (Tester): Hello" in second_prompt
    last_prompt = "\n".join(m["content"] for m in served.chat_requests[2]["messages"])
    assert "Anchor (Tester): Hello" not in last_prompt


def test_chat_continues_the_latest_conversation(cli, served, home):
    served.queue(assess("First, sir."), assess("Second, sir."))
    assert cli("chat", stdin="one\n").code == 0
    assert cli("chat", stdin="two\n").code == 0
    assert db_rows(home, "SELECT count(*), max(message_count) FROM conversations") == [(1, 4)]


def test_chat_new_flag_starts_fresh(cli, served, home):
    served.queue(assess("First, sir."), assess("Fresh, sir."))
    assert cli("chat", stdin="one\n").code == 0
    assert cli("chat", "--new", stdin="two\n").code == 0
    assert db_rows(home, "SELECT count(*) FROM conversations") == [(2,)]


def test_chat_quit_stops_reading(cli, served, home):
    served.queue(assess("Hello, sir."))
    r = cli("chat", stdin="hi\n/quit\nthis is never sent\n")
    assert r.code == 0
    assert len(served.chat_requests) == 1
    assert [c for (c,) in db_rows(home, "SELECT content FROM conversation_messages")] == ["hi", "Hello, sir."]


def test_chat_help_and_empty_input(cli, served, home):
    r = cli("chat", stdin="/help\n   \n")
    assert r.code == 0 and r.out == ""
    assert "/new starts a new conversation" in r.err
    assert served.chat_requests == []


def test_chat_server_down_keeps_message_and_continues(cli, served, home):
    served.stop()
    r = cli("chat", stdin="are you there?\nstill there?\n")
    assert r.code == 0
    assert r.err.count("(your message is saved)") == 2
    assert "is not reachable at" in r.err and "Traceback" not in r.err
    assert [c for (c,) in db_rows(home, "SELECT content FROM conversation_messages")] == [
        "are you there?", "still there?"]


def test_chat_user_option_and_bad_user(cli, served, home):
    served.queue(assess("Hello, madam."))
    assert cli("user", "add", "alice").code == 0
    assert cli("chat", "--user", "alice", stdin="hi\n").code == 0
    assert db_rows(home, "SELECT count(*) FROM conversation_messages", user="alice") == [(2,)]
    assert not (home / "users" / "tester_longterm.db").exists()
    r = cli("chat", "--user", "Not Valid", stdin="hi\n")
    assert r.code == 2 and "invalid username" in r.err
    assert not (home / "users" / "Not Valid_longterm.db").exists()


def test_chat_as_a_process_reads_stdin(tatlock_proc, served, home):
    served.queue(assess("At your service, sir."))
    r = tatlock_proc("chat", stdin="hello there\n", timeout=30)
    assert r.code == 0, r.err
    assert "At your service, sir." in r.out and "Traceback" not in r.err
    assert db_rows(home, "SELECT role FROM conversation_messages ORDER BY message_id") == [("user",), ("assistant",)]


# -- start-up --------------------------------------------------------------------------------


def test_python_m_tatlock_help():
    p = subprocess.run([sys.executable, "-m", "tatlock", "--help"], capture_output=True, text=True, timeout=30)
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith("usage: tatlock")
    for cmd in ("ask", "chat", "memory", "doctor", "setup"):
        assert cmd in p.stdout
    p = subprocess.run([sys.executable, "-m", "tatlock", "--version"], capture_output=True, text=True, timeout=30)
    assert p.returncode == 0 and p.stdout.startswith("tatlock ")


_PROBE = """
import json, sys
from tatlock.cli import main
code = None
try:
    code = main(sys.argv[1:])
except SystemExit as exc:
    code = exc.code
heavy = sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'prompt_toolkit', 'rich'))
print(json.dumps({'code': code, 'heavy': heavy}), file=sys.stderr)
"""


@pytest.mark.parametrize("argv", [
    ("ask", "--help"),
    ("memory", "--help"),
    ("memory", "stats"),
    ("memory", "search", "tea"),
])
def test_commands_do_not_import_textual(argv):
    p = subprocess.run([sys.executable, "-c", _PROBE, *argv], capture_output=True, text=True, timeout=30)
    report = json.loads(p.stderr.strip().splitlines()[-1])
    assert report["code"] in (0, None), p.stderr
    assert not [m for m in report["heavy"] if m.split(".")[0] == "textual"], report["heavy"]


def test_ask_run_does_not_import_textual_or_prompt_toolkit(served):
    served.queue(assess("Paris, sir."))
    p = subprocess.run([sys.executable, "-c", _PROBE, "ask", "What is the capital of France?"],
                       capture_output=True, text=True, timeout=30)
    report = json.loads(p.stderr.strip().splitlines()[-1])
    assert report["code"] == 0, p.stderr
    assert p.stdout == "Paris, sir.\n"
    assert not [m for m in report["heavy"] if m.split(".")[0] in ("textual", "prompt_toolkit")], report["heavy"]


def test_ask_command_module_does_not_import_textual():
    code = ("import sys, tatlock.commands.ask, tatlock.commands.memory, tatlock.commands.doctor; "
            "print(any(m == 'textual' or m.startswith('textual.') for m in sys.modules))")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=30)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "False"


def test_console_script_memory_help(tatlock_proc):
    r = tatlock_proc("memory", "--help")
    assert r.code == 0
    for action in ("conversations", "show", "search", "recall", "compact", "export", "stats", "forget"):
        assert action in r.out


def test_no_command_is_chat(cli, served, home, monkeypatch):
    """Bare `tatlock` without a terminal (stdin piped) is the line chat: it reads the piped line
    and answers it (in a terminal it opens the TUI: tests/test_tui_cli.py)."""
    monkeypatch.setattr(sys, "argv", ["tatlock"])
    served.queue(assess("You rang, sir?"))
    r = cli(stdin="hello\n")
    assert r.code == 0, r.err
    assert "You rang, sir?" in r.out


def test_main_with_empty_argv_ignores_sys_argv(cli, served, monkeypatch):
    monkeypatch.setattr(sys, "argv", ["pytest", "--some-pytest-flag"])
    served.queue(assess("You rang, sir?"))
    r = cli(stdin="hello\n")  # main([]): bare `tatlock`, i.e. chat
    assert r.code == 0, r.err
    assert "You rang, sir?" in r.out
