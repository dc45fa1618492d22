"""Privacy on disk: every folder tatlock makes is 0700 and every file 0600 (databases and
their -wal/-shm, debug logs, calibration, summaries), and what an older version left looser is
tightened at start with one notice. Checked on real files with find(1), as a user would."""

from __future__ import annotations

import json
import os
import stat
import subprocess
from pathlib import Path

import pytest

from support.replies import direct
from tatlock import privacy
from tatlock.config import load
from tatlock.store import db
from tatlock.store.user import UserStore

CROSS = "Recent Highlights\n- tea\nPatterns Across Sessions\n- none\nCurrent Context\n- tea"


def find_loose(root: Path) -> list[str]:
    """`find ROOT -perm /077`: anything group or others may read, write or enter."""
    out = subprocess.run(
        ["find", str(root), "-perm", "/077"], capture_output=True, text=True, check=True
    )
    return out.stdout.split()


def mode(p: Path) -> int:
    return stat.S_IMODE(os.lstat(p).st_mode)


@pytest.fixture
def usual_umask():
    # the common default: files 0644, folders 0755 unless tatlock says otherwise
    old = os.umask(0o022)
    yield
    os.umask(old)


def test_ordinary_use_leaves_nothing_readable_by_others(
    cli, served, home, tmp_path, usual_umask, monkeypatch
):
    # summaries made before `ask` ends: their files
    monkeypatch.setenv("TATLOCK_HOUSEKEEPING", "foreground")
    served.queue(direct("Good morning, sir."), CROSS)
    # then the briefing for the next conversation: its file
    assert cli("ask", "Good morning").code == 0
    served.queue(direct("Noted, sir."))
    assert cli("ask", "--new", "I like tea").code == 0
    served.queue(direct("Certainly, sir."))
    assert cli("chat", stdin="And coffee?\n").code == 0
    assert cli("persona", "add", "Be brief.").code == 0
    assert cli("var", "set", "location", "Leeds").code == 0
    assert (
        cli("memory", "export", "1", "--format", "json", "-o", str(tmp_path / "out.json")).code == 0
    )
    assert cli("user", "add", "bob", stdin="").code == 0
    made = {p.relative_to(home).as_posix() for p in home.rglob("*")}
    assert {
        "system.db",
        "users/tester_longterm.db",
        "logs/conversations/tester-1.jsonl",
        "token_calibration.json",
    } <= made, made
    assert (
        "users/tester/cross_conversation_summary.md" in made
        and "users/tester/housekeeping.lock" in made
    )
    assert find_loose(home) == []
    assert mode(home) == 0o700 and mode(home / "users") == 0o700


def test_sqlite_side_files_follow_the_database(home, usual_umask):
    conn = db.connect(home / "users" / "x_longterm.db")
    conn.execute("CREATE TABLE t (x)")
    conn.execute("INSERT INTO t VALUES (1)")
    wal, shm = home / "users" / "x_longterm.db-wal", home / "users" / "x_longterm.db-shm"
    assert wal.exists() and shm.exists()
    assert {mode(p) for p in (home / "users" / "x_longterm.db", wal, shm)} == {0o600}
    conn.close()


def test_start_tightens_looser_files_once_with_one_notice(home, usual_umask):
    paths = load().paths
    UserStore.open(paths, "alice").close()
    db.connect(paths.system_db).close()
    (home / "logs" / "conversations").mkdir(parents=True)
    log = home / "logs" / "conversations" / "alice-1.jsonl"
    log.write_text("{}\n")
    for p, m in ((paths.system_db, 0o644), (paths.users_dir, 0o755), (home, 0o755), (log, 0o664)):
        os.chmod(p, m) if p.exists() else None
    mine = home / "holiday-photos.txt"  # not tatlock's: TATLOCK_HOME may hold other things
    mine.write_text("x")
    os.chmod(mine, 0o644)
    assert len(find_loose(home)) >= 5
    notice = privacy.check(paths)
    assert notice is not None and "\n" not in notice and "private to you" in notice
    # system.db, the log; home, users, logs, conversations
    assert "made 2 files and 4 folders in" in notice
    assert find_loose(home) == [str(mine)]
    assert mode(paths.system_db) == 0o600 and mode(log) == 0o600 and mode(paths.users_dir) == 0o700
    assert privacy.check(paths) is None  # nothing left to say on the next start


def test_tightening_keeps_the_owner_bits_and_skips_symlinks(home, tmp_path):
    target = tmp_path / "elsewhere.db"
    target.write_text("")
    os.chmod(target, 0o644)
    (home / "users").mkdir()
    (home / "users" / "link_longterm.db").symlink_to(target)
    script = home / "users" / "tool.jsonl"
    script.write_text("")
    os.chmod(script, 0o755)
    privacy.check(load().paths)
    assert mode(target) == 0o644  # a symlink out of the folder is not followed
    assert mode(script) == 0o700


def test_debug_log_and_summary_are_private_even_under_a_lax_umask(home):
    os.chmod(home, 0o700)  # as the start-up check leaves it
    old = os.umask(0)
    try:
        from tatlock.debuglog import DebugLog
        from tatlock.events import Notice

        DebugLog(home / "logs" / "conversations", "alice", 3).write(Notice("hello", "test"))
        db.write_private(home / "users" / "alice" / "summary.md", "text")
    finally:
        os.umask(old)
    assert find_loose(home) == []
    assert (
        json.loads((home / "logs" / "conversations" / "alice-3.jsonl").read_text())["type"]
        == "Notice"
    )


# -- issue 18, item 9: the notice about one folder, and a config.toml the user wrote --------------


def test_one_entry_is_named_in_the_singular(home, usual_umask):
    paths = load().paths
    os.chmod(home, 0o755)
    notice = privacy.check(paths)
    assert notice == f"made the folder {home} private to you (other users could read it)"
    assert privacy.check(paths) is None


def test_a_hand_written_config_file_without_a_secret_is_left_as_the_user_made_it(
    tmp_path, usual_umask
):
    """A config folder of its own (the platform's, ~/.config/tatlock) made with mkdir, and a
    config.toml written by hand: settings, not secrets. Neither is changed nor nagged about."""
    from tatlock.paths import Paths

    data, conf, logs = tmp_path / "data", tmp_path / "config", tmp_path / "logs"
    for d in (data, logs):
        d.mkdir(mode=0o700)
    conf.mkdir()
    os.chmod(conf, 0o755)
    (conf / "config.toml").write_text('model = "qwen2.5:7b"\n# api_key is in the keyring\n')
    os.chmod(conf / "config.toml", 0o644)
    paths = Paths(data, conf, logs)
    assert privacy.check(paths) is None
    assert mode(conf) == 0o755 and mode(conf / "config.toml") == 0o644
    # one that holds a secret is tightened, and the notice says why
    (conf / "config.toml").write_text('model = "qwen2.5:7b"\napi_key = "sk-123"\n')
    notice = privacy.check(paths)
    assert notice is not None and notice.startswith(
        f"made {conf / 'config.toml'} private to you: it holds api_key"
    )
    assert mode(conf / "config.toml") == 0o600 and mode(conf) == 0o755
    assert privacy.check(paths) is None


def test_in_tatlock_home_the_folder_is_tightened_but_the_config_file_is_not(
    cli, served, home, usual_umask
):
    os.chmod(home, 0o755)  # the user made TATLOCK_HOME and wrote a config.toml in it by hand
    (home / "config.toml").write_text("compact_interval = 12\n")
    os.chmod(home / "config.toml", 0o644)
    served.queue(direct("Good morning, sir."))
    r = cli("ask", "Good morning")
    assert r.code == 0, r.err
    assert r.err == f"tatlock: made the folder {home} private to you (other users could read it)\n"
    # the folder holds the memory
    assert mode(home) == 0o700 and mode(home / "config.toml") == 0o644
    assert find_loose(home) == [str(home / "config.toml")]
    assert cli("memory", "stats").err == ""  # said once


@pytest.mark.parametrize(
    "planted", ["users/tester_longterm.db", "users/tester_longterm.db-wal", "system.db"]
)
def test_a_database_planted_by_another_user_is_never_written_to(
    cli, tmp_path, monkeypatch, planted
):
    """TATLOCK_HOME in a folder another user made: they planted a database (or its -wal) anyone
    can read and write. Writing a fact there gave it to them; now the command is refused with
    the file named, and nothing is written to it."""
    if os.geteuid() != 0:
        pytest.skip("making a file that belongs to someone else needs root")
    shared = tmp_path / "shared"
    (shared / "users").mkdir(parents=True)
    for d in (shared, shared / "users"):
        d.chmod(0o777)
        os.chown(d, 65534, 65534)  # nobody
    trap = shared / planted
    trap.write_bytes(b"")
    trap.chmod(0o666)
    os.chown(trap, 65534, 65534)
    monkeypatch.setenv("TATLOCK_HOME", str(shared))
    r = cli("var", "set", "pin", "4711")
    assert r.code == 1 and "Traceback" not in r.err, r.err
    assert f"{trap} belongs to another user" in r.err.strip().splitlines()[-1], r.err
    assert b"4711" not in trap.read_bytes()
    for p in shared.rglob("*"):
        if p.is_file():
            assert b"4711" not in p.read_bytes(), p


def test_the_debug_log_never_writes_through_a_planted_symlink_fifo_or_someone_elses_file(
    home, tmp_path
):
    """A log folder someone else can write to: a symlink in the log's place (for root, an append
    to whatever file it names), a FIFO (a turn would wait on it for ever) or a file of theirs
    (every prompt theirs to read) is left alone; the log is for debugging, the turn goes on."""
    import threading

    from tatlock.debuglog import DebugLog
    from tatlock.events import Notice

    logs = home / "logs" / "conversations"
    logs.mkdir(parents=True)
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me\n")
    (logs / "alice-1.jsonl").symlink_to(victim)
    os.mkfifo(logs / "alice-2.jsonl")
    planted = [(1, logs / "alice-1.jsonl"), (2, logs / "alice-2.jsonl")]
    if os.geteuid() == 0:
        theirs = logs / "alice-3.jsonl"
        theirs.write_text("")
        theirs.chmod(0o666)
        os.chown(theirs, 65534, 65534)  # nobody
        planted.append((3, theirs))
    for cid, _ in planted:
        t = threading.Thread(
            target=DebugLog(logs, "alice", cid).write,
            args=(Notice("my PIN is 4711", "test"),),
            daemon=True,
        )
        t.start()
        t.join(5)
        assert not t.is_alive(), f"the log of conversation {cid} waited for ever"
    assert victim.read_text() == "keep me\n"
    if os.geteuid() == 0:
        assert (logs / "alice-3.jsonl").read_text() == ""
    DebugLog(logs, "alice", 4).write(Notice("an ordinary line", "test"))
    assert "an ordinary line" in (logs / "alice-4.jsonl").read_text()
