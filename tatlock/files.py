"""Files only their owner can read: folders 0700, files 0600.

Everything tatlock writes is private to the user who runs it (the databases hold password
hashes and whole conversations, the logs every prompt). :func:`private_dir`,
:func:`private_file` and :func:`write_private` create things that way; :func:`tighten`
fixes what an older version left looser (see tatlock/privacy.py).
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from pathlib import Path

from tatlock.errors import StoreError

DIR_MODE = 0o700
FILE_MODE = 0o600
IN_THE_WAY = "move it aside; tatlock keeps its data in a folder there"
WRITABLE = "make it and its folder writable, or set TATLOCK_HOME to another folder"


def tighten(path: Path | str) -> bool:
    """Remove group and other permissions from ``path`` when it is ours (the owner's own bits
    stay; a symlink is never followed). Returns True when it changed something."""
    try:
        st = os.lstat(path)
    except OSError:
        return False
    if stat.S_ISLNK(st.st_mode) or st.st_uid != os.getuid() or not stat.S_IMODE(st.st_mode) & 0o077:
        return False
    try:
        os.chmod(path, stat.S_IMODE(st.st_mode) & ~0o077)
    except OSError:
        return False
    return True


def private_dir(path: Path | str) -> Path:
    """Create ``path`` and any missing parents as 0700 folders (an existing folder that is
    looser is tightened). Raises StoreError for a file in the way or a folder that cannot be
    created."""
    path = Path(path)
    missing: list[Path] = []
    p = path
    while not p.exists() and not p.is_symlink() and p != p.parent:
        missing.append(p)
        p = p.parent
    if p.exists() and not p.is_dir():
        raise StoreError(f"{p} is a file, not a folder", hint=IN_THE_WAY)
    for d in reversed(missing):
        try:
            os.mkdir(d, DIR_MODE)
        except FileExistsError:
            if not d.is_dir():
                raise StoreError(f"{d} is a file, not a folder", hint=IN_THE_WAY) from None
        except OSError as exc:
            raise StoreError(f"cannot create the folder {d} ({_reason(exc)})", hint=_fix(exc)) from None
    if not missing:
        tighten(path)
    return path


def private_file(path: Path | str) -> Path:
    """Make sure ``path`` exists as a 0600 file (created empty if missing, tightened if looser)."""
    path = Path(path)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), FILE_MODE)
    except FileExistsError:
        tighten(path)
    else:
        os.close(fd)
    return path


def write_private(path: Path | str, text: str) -> Path:
    """Write a whole 0600 text file or nothing (a temporary file beside it, fsynced, renamed)."""
    path = Path(path)
    private_dir(path.parent)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")  # mkstemp: 0600
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def _reason(exc: OSError) -> str:
    if exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        return "the folder is read-only, or not yours"
    if exc.errno == errno.ENOSPC:
        return "the disk is full"
    return exc.strerror or str(exc)


def _fix(exc: OSError) -> str:
    if exc.errno == errno.ENOSPC:
        return "free some space; nothing already stored is lost"
    return WRITABLE
