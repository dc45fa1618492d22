"""Exports (`memory export -o`, `persona export FILE`, the TUI's /export, `e` and the Debug pane's
`s`) write a 0600 file, whole or not at all, and leave the folder they write into exactly as it
was: a shared 1777 folder stays 1777, a symlink is never written through, and a file that
belongs to someone else is never replaced."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

import tatlock
from tatlock.errors import TatlockError
from tatlock.files import write_export

EXE = str(Path(sys.executable).parent / "tatlock")


def mode(p: Path) -> int:
    return stat.S_IMODE(os.lstat(p).st_mode)


def kind(p: Path) -> str:
    return stat.filemode(os.lstat(p).st_mode)


@pytest.fixture
def shared(tmp_path) -> Path:
    """A folder like /tmp: world-writable with the sticky bit."""
    d = tmp_path / "pub"
    d.mkdir()
    os.chmod(d, 0o1777)
    return d


def _some_memory() -> None:
    with tatlock.open() as butler:
        conv, _ = butler.rooms.open("!kitchen:example.org", "matrix")
        butler.rooms.add_exchange(conv.id, "Leek soup on Friday?", "A fine idea, madam.")


@pytest.mark.parametrize("folder_mode", [0o1777, 0o755, 0o2775, 0o711])
def test_cli_exports_are_0600_and_leave_the_folder_alone(cli, home, tmp_path, folder_mode):
    _some_memory()
    d = tmp_path / "out"
    d.mkdir()
    os.chmod(d, folder_mode)
    before = kind(d)
    assert cli("memory", "export", "--all", "-o", str(d / "all.json")).code == 0
    assert cli("memory", "export", "1", "--format", "md", "-o", str(d / "one.md")).code == 0
    assert cli("persona", "export", str(d / "persona.json")).code == 0
    for name in ("all.json", "one.md", "persona.json"):
        assert mode(d / name) == 0o600, name
    assert kind(d) == before and mode(d) == folder_mode
    # no temporary left
    assert sorted(p.name for p in d.iterdir()) == ["all.json", "one.md", "persona.json"]


def test_an_export_replaces_a_looser_file_of_ours_with_a_0600_one(cli, home, tmp_path):
    target = tmp_path / "memory.json"
    target.write_text("old")
    os.chmod(target, 0o644)
    assert cli("memory", "export", "--all", "-o", str(target)).code == 0
    assert mode(target) == 0o600 and '"tatlock-memory"' in target.read_text()


def test_missing_folders_are_made_0700_and_only_those(cli, home, shared):
    r = cli("memory", "export", "--all", "-o", str(shared / "a" / "b" / "x.json"))
    assert r.code == 0, r.err
    assert (
        mode(shared) == 0o1777 and mode(shared / "a") == 0o700 and mode(shared / "a" / "b") == 0o700
    )
    assert mode(shared / "a" / "b" / "x.json") == 0o600


def test_a_symlink_as_the_target_is_refused_and_nothing_is_written_anywhere(
    cli, home, shared, tmp_path
):
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    os.chmod(victim, 0o644)
    (shared / "x.json").symlink_to(victim)
    (shared / "dangling.json").symlink_to(tmp_path / "nowhere.txt")
    for name in ("x.json", "dangling.json"):
        r = cli("memory", "export", "--all", "-o", str(shared / name))
        assert r.code == 1 and r.err.count("\n") == 1 and "symbolic link" in r.err, r.err
        r = cli("persona", "export", str(shared / name), "--yes")
        assert r.code == 1 and "symbolic link" in r.err, r.err
    assert victim.read_text() == "keep me" and mode(victim) == 0o644
    assert not (tmp_path / "nowhere.txt").exists()
    assert (shared / "x.json").is_symlink() and sorted(p.name for p in shared.iterdir()) == [
        "dangling.json",
        "x.json",
    ]


def test_a_folder_a_fifo_and_someone_elses_file_are_refused(cli, home, shared):
    os.mkfifo(shared / "pipe.json")
    r = cli("memory", "export", "--all", "-o", str(shared / "pipe.json"))
    assert r.code == 1 and "not a regular file" in r.err, r.err
    r = cli("memory", "export", "--all", "-o", str(shared))
    assert r.code == 1 and "is a folder" in r.err, r.err
    (shared / "plain").write_text("x")
    r = cli("memory", "export", "--all", "-o", str(shared / "plain" / "x.json"))
    assert (
        r.code == 1 and r.err.count("\n") == 1 and "part of the folder it names is a file" in r.err
    ), r.err
    if os.geteuid() != 0:
        pytest.skip("making a file that belongs to someone else needs root")
    theirs = shared / "theirs.json"
    theirs.write_text("their export")
    os.chown(theirs, 65534, 65534)  # nobody
    r = cli("memory", "export", "--all", "-o", str(theirs))
    assert r.code == 1 and r.err.count("\n") == 1 and "belongs to another user" in r.err, r.err
    r = cli("persona", "export", str(theirs), "--yes")
    assert r.code == 1 and "belongs to another user" in r.err, r.err
    assert theirs.read_text() == "their export" and os.stat(theirs).st_uid == 65534


def test_a_failed_write_leaves_the_old_file_and_no_temporary(home, tmp_path, monkeypatch):
    target = tmp_path / "x.json"
    target.write_text("the previous export")

    def full(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(TatlockError) as err:
        write_export(target, "x" * 100_000)
    assert "the disk is full" in err.value.message and "nothing was written" in err.value.message
    assert target.read_text() == "the previous export"
    assert [p.name for p in tmp_path.iterdir() if p.name != "home"] == ["x.json"]


FULL = r"""
set -eu
mount -t tmpfs -o size=64k,mode=1777 tmpfs "$DISK"
printf 'the previous export' >"$DISK/memory.json"
chmod 644 "$DISK/memory.json"
set +e
"$EXE" memory export --all -o "$DISK/memory.json" >"$OUT/out" 2>"$OUT/err"; echo $? >"$OUT/rc"
ls -a "$DISK" >"$OUT/ls"; cat "$DISK/memory.json" >"$OUT/kept"; stat -c %a "$DISK" >"$OUT/mode"
"""


def test_on_a_full_disk_the_export_is_one_line_and_the_old_file_stays(home, tmp_path):
    if (
        os.geteuid() != 0
        or subprocess.run(["unshare", "-m", "true"], capture_output=True).returncode != 0
    ):
        pytest.skip("needs root and a mount namespace for a small filesystem")
    with tatlock.open() as butler:
        conv, _ = butler.rooms.open("!kitchen:example.org", "matrix")
        for i in range(40):
            butler.rooms.add_exchange(conv.id, f"Message {i}: " + "words to keep " * 300)
    disk, out = tmp_path / "disk", tmp_path / "out"
    disk.mkdir()
    out.mkdir()
    env = {**os.environ, "DISK": str(disk), "OUT": str(out), "EXE": EXE}
    p = subprocess.run(
        ["unshare", "-m", "sh", "-c", FULL], env=env, capture_output=True, text=True, timeout=60
    )
    assert p.returncode == 0, p.stderr
    err = (out / "err").read_text()
    assert (
        (out / "rc").read_text().strip() == "1" and err.count("\n") == 1 and "Traceback" not in err
    ), err
    assert "the disk is full" in err and "nothing was written" in err, err
    assert (out / "kept").read_text() == "the previous export"
    assert (out / "ls").read_text().split() == [".", "..", "memory.json"]
    assert (out / "mode").read_text().strip() == "1777"


def test_the_tui_writes_its_exports_and_the_debug_pane_0600(home, shared):
    from tatlock.tui.files import write_text

    write_text(shared / "talk.md", "# a conversation\n")
    assert mode(shared / "talk.md") == 0o600 and mode(shared) == 0o1777
    with pytest.raises(TatlockError, match="symbolic link"):
        (shared / "link.md").symlink_to(shared / "talk.md")
        write_text(shared / "link.md", "other")
    assert (shared / "talk.md").read_text() == "# a conversation\n"


def test_an_export_never_replaces_one_of_tatlocks_own_files(cli, home, tmp_path):
    """`-o` naming tatlock's system database (directly, or through a symlinked folder), a
    user's database, or the MCP token: a JSON export there would wipe the persona and users,
    the memory, or the credential. Each is refused with one line and left as it was; so is a
    new file that would be taken for tatlock's own (a user's database not made yet)."""
    _some_memory()
    assert cli("mcp", "--user", "tester", "--show-token").code == 0
    (tmp_path / "via").symlink_to(home)
    own = [
        home / "system.db",
        tmp_path / "via" / "system.db",
        home / "users" / "tester_longterm.db",
        home / "mcp" / "tester.token",
    ]
    before = {p: p.read_bytes() for p in own}
    for target in own:
        r = cli("memory", "export", "--all", "-o", str(target))
        assert r.code == 1 and r.err.count("\n") == 1 and "tatlock's own files" in r.err, r.err
        r = cli("persona", "export", str(target), "--yes")
        assert r.code == 1 and "tatlock's own files" in r.err, r.err
    assert {p: p.read_bytes() for p in own} == before
    r = cli("memory", "export", "--all", "-o", str(home / "users" / "newcomer_longterm.db"))
    assert r.code == 1 and "tatlock keeps its own files" in r.err, r.err
    assert not (home / "users" / "newcomer_longterm.db").exists()
    # nothing was harmed
    assert cli("persona", "list").code == 0 and cli("memory", "conversations").code == 0
    # anything else in TATLOCK_HOME is fine
    r = cli("memory", "export", "--all", "-o", str(home / "backup.json"))
    assert r.code == 0, r.err


def test_the_tuis_exports_never_replace_tatlocks_own_files(home):
    from tatlock.tui.files import write_text

    with tatlock.open() as butler:
        folders = butler.paths.folders
    db = home / "system.db"
    before = db.read_bytes()
    with pytest.raises(TatlockError, match="tatlock's own files"):
        write_text(db, "# a conversation\n", folders)
    assert db.read_bytes() == before
