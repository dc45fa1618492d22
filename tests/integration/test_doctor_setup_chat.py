"""`tatlock doctor`, `tatlock setup`, `tatlock chat` (piped), and start-up as a process."""

from __future__ import annotations

import json
import socket
import sqlite3
import subprocess
import sys

import pytest

from support.fake_ollama import FakeOllama
from support.replies import direct


def db_rows(home, sql, user="tester"):
    conn = sqlite3.connect(home / "users" / f"{user}_longterm.db")
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


def field(out: str, name: str) -> list[str]:
    """The values of the doctor lines labelled ``name:``."""
    return [
        ln.split(":", 1)[1].strip() for ln in out.splitlines() if ln.strip().startswith(name + ":")
    ]


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
    (home / "config.toml").write_text("compact_interval = 12\ncontext_size = 2048\n")
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
    assert field(r.out, "model pulled")[0] == (
        "PROBLEM: the model nonexistent:7b is not on the server (it lists llama3.2:3b)"
    )
    assert field(r.out, "fix")[0] == "pull it: `tatlock setup` (or `ollama pull nonexistent:7b`)"
    assert (
        field(r.out, "or")[0]
        == "use a model the server has: `tatlock config set model llama3.2:3b`"
    )
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
    fixes = field(r.out, "fix") + field(r.out, "or")
    assert (
        "`ollama serve`" in fixes[0] and "https://ollama.com" in fixes[0]
    ) or "it is installed" in fixes[0]
    assert f"ollama_host is {closed_port_url} (from $OLLAMA_HOST)" in fixes[1]
    assert (
        "`tatlock config set backend openai`" in fixes[2]
        and "`tatlock config set base_url URL`" in fixes[2]
    )
    assert "llama-server" in fixes[2] and "LM Studio" in fixes[2] and "vLLM" in fixes[2]
    assert field(r.out, "data")[0] == f"ok, {home}"  # paths are still printed
    assert field(r.out, "logs")[0] == f"ok, {home / 'logs'}"
    assert r.out.rstrip().endswith("1 problem(s) found")


def test_doctor_bad_tier_is_reported(cli, monkeypatch):
    monkeypatch.setenv("TATLOCK_TIER", "enormous")
    r = cli("doctor")
    # a bad setting is caught when config loads
    assert r.code == 2 and "Traceback" not in r.out + r.err
    assert r.err.strip().splitlines() == [r.err.strip()]
    assert "TATLOCK_TIER='enormous'" in r.err and "low, medium, high or auto" in r.err


def test_doctor_on_the_openai_backend_checks_the_model_against_the_list(cli, served, monkeypatch):
    monkeypatch.setenv("TATLOCK_BACKEND", "openai")
    monkeypatch.setenv("TATLOCK_BASE_URL", served.url + "/v1")
    r = cli("doctor")
    assert r.code == 0, r.out
    assert field(r.out, "server")[0] == f"ok, openai at {served.url}/v1 (openai-compatible)"
    assert (
        field(r.out, "model on server")[0]
        == "ok, llama3.2:3b (the server lists it), context 8192 tokens"
    )
    assert field(r.out, "model pulled") == []  # an OpenAI-compatible server does not pull
    # a model the server does not list is never called pulled, nor ok
    monkeypatch.setenv("TATLOCK_MODEL", "qwen2.5:14b")
    r = cli("doctor")
    assert r.code == 1
    assert field(r.out, "model on server")[0] == (
        "PROBLEM: the model qwen2.5:14b is not on the server (it lists llama3.2:3b)"
    )
    assert (
        field(r.out, "fix")[0]
        == "load qwen2.5:14b in the server (models are loaded there, not pulled)"
    )
    assert (
        field(r.out, "or")[0]
        == "use a model the server has: `tatlock config set model llama3.2:3b`"
    )
    assert "ok" not in " ".join(field(r.out, "model on server"))
    assert r.out.rstrip().endswith("1 problem(s) found")
    assert served.chat_requests == []


def test_doctor_says_what_a_llama_server_with_one_model_does_with_another_name(cli, monkeypatch):
    with FakeOllama(models={"/models/SmolLM2-135M.gguf": {}}, owned_by="llamacpp") as srv:
        monkeypatch.setenv("TATLOCK_BACKEND", "openai")
        monkeypatch.setenv("TATLOCK_BASE_URL", srv.url + "/v1")
        monkeypatch.setenv("TATLOCK_MODEL", "smollm2")
        r = cli("doctor")
        assert r.code == 0, r.out
        assert field(r.out, "model on server")[0] == (
            "the server does not list smollm2, but it is llama-server with one model, "
            "/models/SmolLM2-135M.gguf, "
            "which answers whatever name is asked; context 8192 tokens"
        )
        # with two models, llama-server (its router) answers only the names it lists
        srv.add_model("other.gguf")
        r = cli("doctor")
        assert r.code == 1 and field(r.out, "model on server")[0].startswith(
            "PROBLEM: the model smollm2 is not"
        )


def test_doctor_on_the_openai_backend_with_no_server(cli, home, monkeypatch, closed_port_url):
    monkeypatch.setenv("TATLOCK_BACKEND", "openai")
    monkeypatch.setenv("TATLOCK_BASE_URL", closed_port_url + "/v1")
    r = cli("doctor")
    assert r.code == 1 and r.err == ""
    assert (
        field(r.out, "server")[0]
        == f"PROBLEM: the model server is not reachable at {closed_port_url}/v1"
    )
    fix, other = field(r.out, "fix")[0], field(r.out, "or")[0]
    assert (
        f"start your server at {closed_port_url}/v1" in fix
        and "`tatlock config set base_url URL`" in fix
    )
    assert "LM Studio" in fix and "vLLM" in fix
    assert (
        "https://ollama.com" in other
        and "`ollama serve`" in other
        and "`tatlock config set backend ollama`" in other
    )
    # nothing said about the model
    assert field(r.out, "model on server") == field(r.out, "model pulled") == []


@pytest.mark.parametrize("installed", [False, True])
def test_doctor_with_no_ollama_says_how_to_install_or_start_it(
    cli, home, monkeypatch, tmp_path, installed
):
    """No server at the default address: with no `ollama` on PATH, where to get it; with one,
    how to start it. Either way, the other backend."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    if installed:
        exe = bin_dir / "ollama"
        exe.write_text("#!/bin/sh\n")
        exe.chmod(0o755)
    monkeypatch.setenv("PATH", str(bin_dir))
    with socket.socket() as s:  # nothing listens on the default port, whatever this machine runs
        s.bind(("127.0.0.1", 0))
        monkeypatch.setenv("OLLAMA_HOST", f"http://127.0.0.1:{s.getsockname()[1]}")
    r = cli("doctor")
    assert r.code == 1
    fix = field(r.out, "fix")[0]
    if installed:
        assert fix == (
            f"start Ollama with `ollama serve` (it is installed: {bin_dir / 'ollama'}; "
            f"https://ollama.com "
            "has its guide), then `tatlock setup` pulls the model"
        )
    else:
        assert fix.startswith("Ollama is not installed here: install it from https://ollama.com")
        assert "`ollama serve`" in fix and "`tatlock setup`" in fix
    assert any("`tatlock config set backend openai`" in x for x in field(r.out, "or"))


def test_doctor_says_where_the_config_file_is_and_how_to_change_it(cli, served, home):
    r = cli("doctor")
    lines = r.out.splitlines()
    at = next(i for i, ln in enumerate(lines) if ln.strip().startswith("config:"))
    assert str(home / "config.toml") in lines[at]
    assert "`tatlock config set NAME VALUE`" in lines[at + 1]


# -- setup -----------------------------------------------------------------------------------


@pytest.fixture
def empty_server(monkeypatch):
    """A fake Ollama with no models that can pull only the low tier's model (the embedding model,
    pulled beside it, is tested in test_recall_vectors.py)."""
    with FakeOllama(models={}, pullable=["llama3.2:3b"]) as srv:
        monkeypatch.setenv("OLLAMA_HOST", srv.url)
        monkeypatch.setenv("TATLOCK_EMBEDDING_MODEL", "off")
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
    assert (
        last == "tatlock: could not pull 'nonexistent:7b': pull model manifest: file does not exist"
    )
    assert sum(ln.startswith("tatlock:") for ln in r.err.splitlines()) == 1
    assert "Traceback" not in r.err
    assert "nonexistent:7b" not in empty_server.models


def test_setup_server_down(cli, monkeypatch, closed_port_url):
    monkeypatch.setenv("OLLAMA_HOST", closed_port_url)
    r = cli("setup")
    assert r.code == 1 and r.out == "" and "Traceback" not in r.err
    lines = r.err.strip().splitlines()
    assert (
        lines[0]
        == f"tatlock: Ollama is not reachable at {closed_port_url}, so nothing can be pulled"
    )
    assert lines[1].startswith("  fix: ") and "`ollama serve`" in lines[1]
    assert any("`tatlock config set backend openai`" in ln for ln in lines[2:])


def test_setup_on_the_openai_backend_says_what_to_do_instead_of_pulling(
    cli, empty_server, monkeypatch
):
    monkeypatch.setenv("TATLOCK_BACKEND", "openai")
    monkeypatch.setenv("TATLOCK_BASE_URL", empty_server.url + "/v1")
    r = cli("setup")
    assert r.code == 1 and r.out == ""
    lines = r.err.strip().splitlines()
    assert lines[0] == (
        "tatlock: the model llama3.2:3b is not on the server (it lists no models); "
        "with backend openai tatlock cannot pull models"
    )
    assert lines[1].startswith("  fix: load llama3.2:3b in the server")
    assert "`tatlock config set backend ollama`" in lines[-1]
    assert [q for q in empty_server.requests if q.path == "/api/pull"] == []  # never pulls
    empty_server.add_model("qwen2.5:7b")
    r = cli("setup")
    assert "  or:  use a model it has: `tatlock config set model qwen2.5:7b`" in r.err.splitlines()
    r = cli("setup", "--model", "qwen2.5:7b")
    assert r.code == 0 and r.err == ""
    assert r.out == (
        f"qwen2.5:7b is served by {empty_server.url}/v1: nothing to pull "
        "(backend openai: the server loads its models)\n"
    )


def test_setup_on_the_openai_backend_with_no_server_names_the_ways_forward(
    cli, monkeypatch, closed_port_url
):
    monkeypatch.setenv("TATLOCK_BACKEND", "openai")
    monkeypatch.setenv("TATLOCK_BASE_URL", closed_port_url + "/v1")
    r = cli("setup")
    assert r.code == 1 and r.out == "" and "Traceback" not in r.err
    lines = r.err.strip().splitlines()
    assert lines[0] == (
        f"tatlock: the model server is not reachable at {closed_port_url}/v1, and with backend "
        "openai tatlock cannot pull models"
    )
    assert (
        "llama-server -m MODEL.gguf" in lines[1] and "`tatlock config set base_url URL`" in lines[1]
    )
    assert "https://ollama.com" in lines[2] and "`tatlock config set backend ollama`" in lines[2]


def test_unknown_backend_is_config_error(cli, monkeypatch):
    monkeypatch.setenv("TATLOCK_BACKEND", "llamafile")
    r = cli("setup")
    assert r.code == 2 and "TATLOCK_BACKEND='llamafile': backend must be ollama or openai" in r.err


# -- chat ------------------------------------------------------------------------------------


def test_chat_piped_lines_new_and_eof(cli, served, home):
    served.queue(
        direct("Good evening, sir."),
        direct("Splendid, sir, thank you."),
        direct("A fresh start, sir."),
    )
    r = cli("chat", stdin="Hello\n\nHow are you?\n/new\nGood morning\n")
    assert r.code == 0, r.err
    assert (
        "Good evening, sir." in r.out
        and "Splendid, sir, thank you." in r.out
        and "A fresh start, sir." in r.out
    )
    assert r.out.index("Good evening") < r.out.index("Splendid") < r.out.index("A fresh start")
    assert "Tatlock at your service (llama3.2:3b)" in r.err
    assert "(a new conversation starts with your next message)" in r.err
    assert "Traceback" not in r.err
    # the blank line was skipped; every model reply was used
    # no summary call before an answer
    assert served.pending == 0 and len(served.chat_requests) == 3
    msgs = db_rows(
        home,
        "SELECT conversation_id, message_number, role, content FROM "
        "conversation_messages"
        " ORDER BY message_id",
    )
    first, second = msgs[0][0], msgs[-1][0]
    assert first != second
    assert [(c == first, n, role, text) for c, n, role, text in msgs] == [
        (True, 1, "user", "Hello"),
        (True, 2, "assistant", "Good evening, sir."),
        (True, 3, "user", "How are you?"),
        (True, 4, "assistant", "Splendid, sir, thank you."),
        (False, 1, "user", "Good morning"),
        (False, 2, "assistant", "A fresh start, sir."),
    ]
    assert (
        db_rows(home, "SELECT interface, room_id FROM conversations ORDER BY id")
        == [("cli", "cli")] * 2
    )
    # the second exchange saw the first in its prompt; the new conversation did not
    second_prompt = "\n".join(m["content"] for m in served.chat_requests[1]["messages"])
    assert "Anchor (Tester): Hello" in second_prompt
    last_prompt = "\n".join(m["content"] for m in served.chat_requests[2]["messages"])
    assert "Anchor (Tester): Hello" not in last_prompt


def test_chat_continues_the_latest_conversation(cli, served, home):
    served.queue(direct("First, sir."), direct("Second, sir."))
    assert cli("chat", stdin="one\n").code == 0
    assert cli("chat", stdin="two\n").code == 0
    assert db_rows(home, "SELECT count(*), max(message_count) FROM conversations") == [(1, 4)]


def test_chat_new_flag_starts_fresh(cli, served, home):
    served.queue(direct("First, sir."), direct("Fresh, sir."))
    assert cli("chat", stdin="one\n").code == 0
    assert cli("chat", "--new", stdin="two\n").code == 0
    assert db_rows(home, "SELECT count(*) FROM conversations") == [(2,)]


def test_chat_quit_stops_reading(cli, served, home):
    served.queue(direct("Hello, sir."))
    r = cli("chat", stdin="hi\n/quit\nthis is never sent\n")
    assert r.code == 0
    assert len(served.chat_requests) == 1
    assert [c for (c,) in db_rows(home, "SELECT content FROM conversation_messages")] == [
        "hi",
        "Hello, sir.",
    ]


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
        "are you there?",
        "still there?",
    ]


def test_chat_user_option_and_bad_user(cli, served, home):
    served.queue(direct("Hello, madam."))
    assert cli("user", "add", "alice").code == 0
    assert cli("chat", "--user", "alice", stdin="hi\n").code == 0
    assert db_rows(home, "SELECT count(*) FROM conversation_messages", user="alice") == [(2,)]
    assert not (home / "users" / "tester_longterm.db").exists()
    r = cli("chat", "--user", "Not Valid", stdin="hi\n")
    assert r.code == 2 and "invalid username" in r.err
    assert not (home / "users" / "Not Valid_longterm.db").exists()


def test_chat_as_a_process_reads_stdin(tatlock_proc, served, home):
    served.queue(direct("At your service, sir."))
    r = tatlock_proc("chat", stdin="hello there\n", timeout=30)
    assert r.code == 0, r.err
    assert "At your service, sir." in r.out and "Traceback" not in r.err
    assert db_rows(home, "SELECT role FROM conversation_messages ORDER BY message_id") == [
        ("user",),
        ("assistant",),
    ]


# -- start-up --------------------------------------------------------------------------------


def test_python_m_tatlock_help():
    p = subprocess.run(
        [sys.executable, "-m", "tatlock", "--help"], capture_output=True, text=True, timeout=30
    )
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith("usage: tatlock")
    for cmd in ("ask", "chat", "memory", "doctor", "setup"):
        assert cmd in p.stdout
    p = subprocess.run(
        [sys.executable, "-m", "tatlock", "--version"], capture_output=True, text=True, timeout=30
    )
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


@pytest.mark.parametrize(
    "argv",
    [
        ("ask", "--help"),
        ("memory", "--help"),
        ("memory", "stats"),
        ("memory", "search", "tea"),
        ("config",),
        ("config", "--help"),
        ("doctor", "--help"),
    ],
)
def test_commands_do_not_import_textual(argv):
    p = subprocess.run(
        [sys.executable, "-c", _PROBE, *argv], capture_output=True, text=True, timeout=30
    )
    report = json.loads(p.stderr.strip().splitlines()[-1])
    assert report["code"] in (0, None), p.stderr
    assert not [m for m in report["heavy"] if m.split(".")[0] == "textual"], report["heavy"]


def test_ask_run_does_not_import_textual_or_prompt_toolkit(served):
    served.queue(direct("Paris, sir."))
    p = subprocess.run(
        [sys.executable, "-c", _PROBE, "ask", "What is the capital of France?"],
        capture_output=True,
        text=True,
        timeout=30,
    )
    report = json.loads(p.stderr.strip().splitlines()[-1])
    assert report["code"] == 0, p.stderr
    assert p.stdout == "Paris, sir.\n"
    assert not [m for m in report["heavy"] if m.split(".")[0] in ("textual", "prompt_toolkit")], (
        report["heavy"]
    )


def test_ask_command_module_does_not_import_textual():
    code = (
        "import sys, tatlock.commands.ask, tatlock.commands.memory, tatlock.commands.doctor; "
        "print(any(m == 'textual' or m.startswith('textual.') for m in sys.modules))"
    )
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=30)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "False"


def test_console_script_memory_help(tatlock_proc):
    r = tatlock_proc("memory", "--help")
    assert r.code == 0
    for action in (
        "conversations",
        "show",
        "search",
        "recall",
        "compact",
        "export",
        "stats",
        "forget",
    ):
        assert action in r.out


def test_no_command_is_chat(cli, served, home, monkeypatch):
    """Bare `tatlock` without a terminal (stdin piped) is the line chat: it reads the piped line
    and answers it (in a terminal it opens the TUI: tests/test_tui_cli.py)."""
    monkeypatch.setattr(sys, "argv", ["tatlock"])
    served.queue(direct("You rang, sir?"))
    r = cli(stdin="hello\n")
    assert r.code == 0, r.err
    assert "You rang, sir?" in r.out


def test_main_with_empty_argv_ignores_sys_argv(cli, served, monkeypatch):
    monkeypatch.setattr(sys, "argv", ["pytest", "--some-pytest-flag"])
    served.queue(direct("You rang, sir?"))
    r = cli(stdin="hello\n")  # main([]): bare `tatlock`, i.e. chat
    assert r.code == 0, r.err
    assert "You rang, sir?" in r.out


def _commands(parser, path=()):
    """(command path, its parser) for every command and subcommand."""
    import argparse

    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, child in action.choices.items():
                yield (*path, name), child
                yield from _commands(child, (*path, name))


def test_every_command_and_subcommand_has_a_description_in_its_help():
    from tatlock.cli import build_parser

    found = list(_commands(build_parser()))
    assert len(found) > 50 and ("config", "set") in dict(found) and ("doctor",) in dict(found)
    for path, parser in found:
        help_text = parser.format_help()
        body = help_text.split("\n\n")[1]  # after the usage line: the description
        assert parser.description and not body.startswith(("positional arguments", "options")), path
        assert body.split()[0][0].isupper(), (path, body)


def test_doctor_and_setup_help_describe_them(tatlock_proc):
    for cmd, needle in (
        ("doctor", "against the server's own list"),
        ("setup", "nothing can be pulled"),
    ):
        r = tatlock_proc(cmd, "--help")
        assert r.code == 0 and needle in " ".join(r.out.split()), r.out
