"""Tools stay in bounds: analyze_file reads only inside the allowed folders, never a dotfile,
a credentials store or tatlock's own data, deciding on the real path; and whatever a tool
returns that looks like a secret is withheld from the model, the screen and the debug log."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from support.replies import assessment
from tatlock.config import load
from tatlock.tools.base import ToolContext
from tatlock.tools.files import analyze_file

KEY = (
    "-----BEGIN OPENSSH PRIVATE "
    "KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n"
    "QyNTUxOQAAACDs0cJtVhLa5R2o8zQ3f0y8B1l3m1Z8r0iUQp0AAAAAAAAAAAAAAAAAAA==\n-----END OPENSSH "
    "PRIVATE KEY-----\n"
)
KEY_BODY = "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ"


@pytest.fixture
def user_home(tmp_path, monkeypatch) -> Path:
    """A home folder with Documents, Downloads, a project, ~/.ssh and a browser profile; the
    current folder is the project."""
    h = tmp_path / "u"
    for d in (
        "Documents",
        "Downloads",
        "project",
        ".ssh",
        ".mozilla/firefox/x.default",
        "Pictures",
    ):
        (h / d).mkdir(parents=True)
    (h / ".ssh" / "id_ed25519").write_text(KEY)
    (h / ".mozilla/firefox/x.default/logins.json").write_text('{"logins": []}')
    (h / "Documents" / "letter.txt").write_text("Dear Maria, happy birthday.\n")
    (h / "Downloads" / "notes.md").write_text("# notes\n")
    (h / "Pictures" / "list.txt").write_text("not in an allowed folder\n")
    (h / "project" / "readme.txt").write_text("a project\n")
    (h / "project" / ".env").write_text("DATABASE_URL=x\n")
    monkeypatch.setenv("HOME", str(h))
    monkeypatch.delenv("XDG_DOCUMENTS_DIR", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(h / ".config"))  # no user-dirs.dirs: the plain names
    monkeypatch.chdir(h / "project")
    return h


def ctx() -> ToolContext:
    return ToolContext(username="tester", config=load())


def read(path: str) -> dict:
    return analyze_file(ctx=ctx(), path=path)


def test_reads_inside_the_allowed_folders(user_home):
    assert "happy birthday" in read("~/Documents/letter.txt")["content"]
    assert read(str(user_home / "Downloads" / "notes.md"))["content"] == "# notes\n"
    assert read("readme.txt")["content"] == "a project\n"  # relative to the current folder


@pytest.mark.parametrize(
    "path",
    [
        "~/.ssh/id_ed25519",
        "../.ssh/id_ed25519",
        "~/Documents/../.ssh/id_ed25519",
        "~/.mozilla/firefox/x.default/logins.json",
        "/etc/shadow",
        "/etc/gshadow",
        "/proc/self/environ",
    ],
)
def test_credential_stores_are_refused(user_home, path):
    out = read(path)
    assert set(out) == {"error"} and "never reads" in out["error"]


def test_refused_even_when_the_current_folder_is_the_credential_store(user_home, monkeypatch):
    monkeypatch.chdir(user_home / ".ssh")
    assert "never reads" in read("id_ed25519")["error"]
    monkeypatch.chdir(user_home)  # home as the current folder: every dot-folder is still out
    assert "never reads" in read(".ssh/id_ed25519")["error"]


def test_a_symlink_is_judged_by_its_target(user_home):
    (user_home / "Documents" / "innocent.txt").symlink_to(user_home / ".ssh" / "id_ed25519")
    (user_home / "Documents" / "keys").symlink_to(user_home / ".ssh")
    assert "never reads" in read("~/Documents/innocent.txt")["error"]
    assert "never reads" in read("~/Documents/keys/id_ed25519")["error"]
    (user_home / "Documents" / "pics").symlink_to(user_home / "Pictures")
    assert "outside the folders" in read("~/Documents/pics/list.txt")["error"]


def test_dotfiles_and_outside_files_are_refused(user_home):
    assert "hidden" in read(".env")["error"]
    out = read("~/Pictures/list.txt")
    assert (
        "outside the folders tatlock may read" in out["error"] and "allowed_paths" in out["error"]
    )
    assert "outside" in read("/etc/hostname")["error"]


def test_key_file_names_are_refused_anywhere(user_home):
    (user_home / "Documents" / "id_rsa").write_text(KEY)
    (user_home / "Documents" / "server.pem").write_text(KEY)
    for name in ("id_rsa", "server.pem"):
        assert "key, password or credentials file" in read(f"~/Documents/{name}")["error"]


def test_tatlocks_own_data_is_refused(user_home, home, cli, monkeypatch):
    monkeypatch.chdir(home.parent)  # TATLOCK_HOME inside the current folder
    assert cli("var", "set", "location", "Leeds").code == 0
    (home / "logs" / "conversations").mkdir(parents=True)
    (home / "logs" / "conversations" / "bob-1.jsonl").write_text("{}\n")
    assert (
        "tatlock's own private data"
        in read(str(home / "logs" / "conversations" / "bob-1.jsonl"))["error"]
    )
    assert "tatlock's own private data" in read(str(home / "system.db"))["error"]


def test_allowed_paths_replace_the_defaults(user_home, monkeypatch):
    monkeypatch.setenv("TATLOCK_ALLOWED_PATHS", str(user_home / "Pictures"))
    assert read("~/Pictures/list.txt")["content"] == "not in an allowed folder\n"
    assert "outside" in read("~/Documents/letter.txt")["error"]
    assert "outside" in read("readme.txt")["error"]  # "." was not listed
    monkeypatch.setenv("TATLOCK_ALLOWED_PATHS", f"{user_home / 'Pictures'}{os.pathsep}.")
    assert read("readme.txt")["content"] == "a project\n"


def test_a_fifo_is_refused_without_blocking(user_home):
    os.mkfifo(user_home / "Documents" / "pipe.txt")
    assert "not a regular file" in read("~/Documents/pipe.txt")["error"]


def test_missing_file_inside_bounds_says_so(user_home):
    assert "no file" in read("~/Documents/nope.txt")["error"]


# -- through the pipeline: the model asks, the refusal and the redaction are tool results ----------


def _everything_seen(served, result, home) -> str:
    log = "\n".join(p.read_text() for p in (home / "logs" / "conversations").glob("*.jsonl"))
    sent = json.dumps(served.chat_requests)
    return "\n".join((sent, result.out, result.err, log))


def test_a_model_that_asks_for_a_key_gets_a_refusal(cli, served, home, user_home):
    served.queue(
        assessment("TOOLS_NEEDED", tools=["analyze_file"], topics=("files",)),
        {"tool_calls": [{"name": "analyze_file", "arguments": {"path": "~/.ssh/id_ed25519"}}]},
        "I may not read that file, sir.",
    )
    r = cli("ask", "-v", "read ~/.ssh/id_ed25519 for me")
    assert r.code == 0
    tool_msg = next(m for m in served.chat_requests[2]["messages"] if "never reads" in m["content"])
    assert "id_ed25519" in tool_msg["content"]
    assert KEY_BODY not in _everything_seen(served, r, home)


def test_secrets_inside_an_allowed_file_are_withheld(cli, served, home, user_home):
    aws = "AKIAIOSFODNN7EXAMPLE"
    (user_home / "Documents" / "setup.txt").write_text(
        f"Server notes\npassword=CorrectHorse9\naws_access_key_id = {aws}\n{KEY}\n"
        "root:$6$saltsalt$Xq1Yk2tTFb3EoX9mVtQoLrL0V2s0R9dPp5y9v0uJvQ6.:19000:0:99999:7:::\n"
    )
    served.queue(
        assessment("TOOLS_NEEDED", tools=["analyze_file"], topics=("files",)),
        {"tool_calls": [{"name": "analyze_file", "arguments": {"path": "~/Documents/setup.txt"}}]},
        "These are server notes, sir.",
    )
    r = cli("ask", "-v", "what is in ~/Documents/setup.txt?")
    assert r.code == 0
    seen = _everything_seen(served, r, home)
    for secret in ("CorrectHorse9", aws, KEY_BODY, "Xq1Yk2tTFb3EoX9mVtQo"):
        assert secret not in seen
    tool_msg = next(
        m["content"] for m in served.chat_requests[2]["messages"] if "Server notes" in m["content"]
    )
    assert "[REDACTED" in tool_msg and "withheld" in tool_msg  # the model is told, so it can say so


def test_another_name_for_one_of_tatlocks_own_files_is_refused(user_home, home, cli, served):
    """A hard link in an allowed folder to the debug log, a database (and its -wal), the config,
    the MCP token or a summary is judged by the file it opens, not by its path."""
    import sqlite3

    from support.replies import direct

    served.queue(direct("Good evening, sir."))
    assert cli("ask", "Good evening").code == 0
    (home / "config.toml").write_text('theme = "nord"\n')
    assert cli("mcp", "--user", "tester", "--show-token").code == 0
    reader = sqlite3.connect(home / "users" / "tester_longterm.db")  # open: its -wal and -shm exist
    reader.execute("SELECT count(*) FROM conversation_messages").fetchone()
    log = next((home / "logs" / "conversations").glob("*.jsonl"))
    own = {
        "log": log,
        "db": home / "users" / "tester_longterm.db",
        "wal": home / "users" / "tester_longterm.db-wal",
        "system": home / "system.db",
        "config": home / "config.toml",
        "token": home / "mcp" / "tester.token",
    }
    for name, target in own.items():
        assert target.exists(), name
        link = user_home / "Documents" / f"{name}.txt"
        os.link(target, link)
        out = read(str(link))
        assert set(out) == {"error"} and "tatlock's own files" in out["error"], (name, out)
    reader.close()
    # an ordinary file still reads
    assert "happy birthday" in read("~/Documents/letter.txt")["content"]


def test_own_files_lists_every_file_below_tatlocks_folders_once(home, tmp_path):
    from tatlock.bounds import own_files

    (home / "logs" / "conversations").mkdir(parents=True)
    (home / "logs" / "conversations" / "a.jsonl").write_text("{}\n")
    (home / "users").mkdir()
    (home / "users" / "a_longterm.db").write_text("")
    (home / "elsewhere").symlink_to(tmp_path)  # a symlink out of the folder is not followed
    (tmp_path / "outside.txt").write_text("x")
    got = own_files([home, home, home / "logs"])
    assert len(got) == 2
    st = os.stat(home / "logs" / "conversations" / "a.jsonl")
    assert (st.st_dev, st.st_ino) in got
    assert (os.stat(tmp_path / "outside.txt").st_ino,) not in {(i,) for _, i in got}
