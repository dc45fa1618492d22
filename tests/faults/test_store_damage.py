"""Damaged or unusable databases and data folders: one line naming the path and the fix, never
a traceback, nothing already stored lost; `quick_check` for `tatlock doctor`."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest

from tatlock.errors import StoreError
from tatlock.store import db

# the core's words
FIX = "or an export of your memory, or move it aside and tatlock starts a new one"
# the CLI names its command
CLI_FIX = "or a `tatlock memory export`, or move it aside and tatlock starts a new one"


def make_db(path: Path, rows: int = 500) -> None:
    conn = db.connect(path)
    conn.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
    conn.execute("CREATE INDEX notes_body ON notes (body)")
    with db.transaction(conn):
        for i in range(rows):
            conn.execute("INSERT INTO notes (body) VALUES (?)", (f"note {i} " + "x" * 80,))
    conn.close()  # the last connection checkpoints the WAL into the file


def damage(path: Path, offset: int, length: int = 64) -> None:
    data = bytearray(path.read_bytes())
    data[offset : offset + length] = b"\xa5" * length
    path.write_bytes(bytes(data))


def one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


def test_a_file_that_is_not_a_database(tmp_path):
    p = tmp_path / "alice_longterm.db"
    p.write_text("these are my notes, not a database\n" * 200)
    with pytest.raises(StoreError) as exc:
        db.connect(p)
    line = exc.value.full()
    assert str(p) in line and FIX in line and "not a database" in line and "\n" not in line
    assert "these are my notes" in p.read_text()  # the file is left as it was


def test_a_damaged_schema(tmp_path):
    p = tmp_path / "x.db"
    make_db(p)
    damage(p, 100 + 8, 200)  # page 1 below the header: the schema table
    with pytest.raises(StoreError) as exc:
        db.connect(p)
    assert (
        "malformed" in exc.value.full() and str(p) in exc.value.full() and FIX in exc.value.full()
    )


def test_quick_check(tmp_path):
    good, bad = tmp_path / "good.db", tmp_path / "bad.db"
    make_db(good)
    make_db(bad)
    assert db.quick_check(good) is None
    damage(bad, 4096 * 4, 300)  # a data page: opening works, reading it does not
    problem = db.quick_check(bad)
    assert problem and "\n" not in problem and ("malformed" in problem or "Page" in problem)
    assert FIX in db.corrupt_error(bad, problem).full()
    junk = tmp_path / "junk.db"
    junk.write_bytes(os.urandom(8192))
    assert "not a database" in db.quick_check(junk)
    assert db.quick_check(tmp_path / "none.db") == "missing"
    odd = tmp_path / "what?#.db"  # a path that would be misread as a URI query or fragment
    make_db(odd)
    assert db.quick_check(odd) is None and not (tmp_path / "what").exists()


def test_the_data_folder_is_a_file(tmp_path):
    blocker = tmp_path / "data"
    blocker.write_text("a file where the folder should be")
    with pytest.raises(StoreError, match=r"data is a file, not a folder"):
        db.connect(blocker / "users" / "alice_longterm.db")
    with pytest.raises(StoreError, match="is a file, not a folder"):
        db.private_dir(blocker / "logs")


def test_cli_on_a_corrupt_system_db_is_one_line(cli, home):
    assert cli("var", "set", "location", "Leeds").code == 0
    (home / "system.db").write_bytes(b"\x00garbage" * 1000)
    for f in home.glob("system.db-*"):
        f.unlink()
    r = cli("persona", "list")
    line = one_line(r.err)
    assert r.code == 1 and str(home / "system.db") in line and "move it aside" in line
    assert "conversations in users/ are kept" in line


def test_cli_on_a_corrupt_user_db_is_one_line(cli, home):
    assert cli("var", "set", "location", "Leeds").code == 0
    user_db = home / "users" / "tester_longterm.db"
    damage(user_db, 100 + 8, 300)
    r = cli("var", "list")
    line = one_line(r.err)
    assert r.code == 1 and str(user_db) in line and CLI_FIX in line


def _run_read_only(home: Path, *args: str) -> subprocess.CompletedProcess:
    """Run tatlock with its data folder read-only: a read-only bind mount when root (chmod does not
    stop root), else chmod 0500."""
    exe = str(Path(os.sys.executable).parent / "tatlock")
    env = {**os.environ}
    if os.geteuid() == 0:
        if not shutil.which("unshare"):
            pytest.skip("needs unshare to make a read-only folder as root")
        script = f'mount --bind -o ro "{home}" "{home}" && exec "{exe}" "$@"'
        cmd = ["unshare", "-m", "sh", "-c", script, "sh", *args]
        probe = subprocess.run(["unshare", "-m", "true"], capture_output=True)
        if probe.returncode != 0:
            pytest.skip("cannot make a mount namespace here")
        return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=60)
    for p in [home, *home.rglob("*")]:
        os.chmod(p, 0o500 if p.is_dir() else 0o400)
    try:
        return subprocess.run([exe, *args], capture_output=True, text=True, env=env, timeout=60)
    finally:
        for p in [home, *home.rglob("*")]:
            os.chmod(p, 0o700 if p.is_dir() else 0o600)


def test_a_read_only_data_folder_is_one_line_and_loses_nothing(cli, home):
    assert cli("var", "set", "location", "Leeds").code == 0
    r = _run_read_only(home, "var", "set", "location", "York")
    line = one_line(r.stderr)
    assert r.returncode == 1 and "read-only" in line and str(home) in line
    conn = sqlite3.connect(home / "users" / "tester_longterm.db")
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        conn.close()
    assert cli("var", "get", "location").out.strip() == "Leeds"


def test_damage_found_while_reading_is_one_line(cli, home):
    assert cli("var", "set", "location", "Leeds").code == 0
    user_db = home / "users" / "tester_longterm.db"
    conn = sqlite3.connect(user_db)
    with conn:
        for i in range(2000):
            conn.execute(
                "INSERT INTO personal_variables (key, value, updated_at) VALUES (?, ?, ?)",
                (f"k{i}", "v" * 100, "2024-01-01"),
            )
    conn.close()
    pages = user_db.stat().st_size // 4096
    # table pages, not the schema: the database still opens
    for page in range(pages - 10, pages - 2):
        damage(user_db, page * 4096, 100)
    r = cli("var", "list")
    line = one_line(r.err)
    assert r.code == 1 and "malformed" in line
    assert db.quick_check(user_db) is not None
