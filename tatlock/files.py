"""Files only their owner can read: folders 0700, files 0600.

Everything tatlock writes is private to the user who runs it (the databases hold password
hashes and whole conversations, the logs every prompt). :func:`private_dir`,
:func:`private_file` and :func:`write_private` create things that way; :func:`tighten`
fixes what an older version left looser (see tatlock/privacy.py).

A file the user asks for (an export, a saved pane) goes where they say, often a folder
that is not tatlock's: :func:`write_export` writes it 0600 as well, but never changes the
mode of a folder it did not create (a shared 1777 /tmp stays as it is), never writes
through a symlink and never replaces someone else's file.

A file the user gives tatlock to read in whole (an import) is read by :func:`open_input`:
a regular file only (a FIFO would wait forever, ``/dev/zero`` never ends, a ``/proc`` file
claims to be empty), at most a stated size, and never more or fewer bytes than it had when
it was opened.
"""

from __future__ import annotations

import errno
import io
import os
import re
import stat
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import BinaryIO

from tatlock.errors import StoreError, TatlockError, UsageError

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
            raise StoreError(
                f"cannot create the folder {d} ({_reason(exc)})", hint=_fix(exc)
            ) from None
    if not missing:
        tighten(path)
    return path


def private_file(path: Path | str) -> Path:
    """Make sure ``path`` exists as a 0600 file (created empty if missing, tightened if looser)."""
    path = Path(path)
    try:
        fd = os.open(
            path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), FILE_MODE
        )
    except FileExistsError:
        tighten(path)
    else:
        os.close(fd)
    return path


def write_private(path: Path | str, text: str) -> Path:
    """Write a whole 0600 text file or nothing (a temporary file beside it, fsynced, renamed)."""
    path = Path(path)
    private_dir(path.parent)
    # mkstemp: 0600
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
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


def write_export(path: Path | str, text: str, *, own_folders: Iterable[Path] = ()) -> Path:
    """Write a file the user asked for, 0600, whole or not at all: a temporary file in the same
    folder, fsynced, renamed into place. Missing folders are made 0700; an existing folder is
    left exactly as it is. Raises TatlockError (one line) for a target that is a symlink, a
    folder, not a regular file or someone else's, one of tatlock's own files (in
    ``own_folders``: its databases, logs, token; a JSON export over system.db would wipe the
    persona and users), and for a folder or disk that cannot take it; an existing file is then
    left as it was."""
    path = Path(path)
    own_folders = list(own_folders)
    _check_target(path, own_folders)
    folder = path.parent
    try:
        if not folder.is_dir():
            private_dir(folder)  # only the folders it makes are 0700; existing ones are not touched
        # 0600, O_EXCL
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".tmp")
    except StoreError as exc:
        raise TatlockError(f"cannot write {path}: {exc.message}", hint=exc.hint) from None
    except OSError as exc:
        raise TatlockError(f"cannot write {path}: {_reason(exc)}; nothing was written") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            os.fchmod(fh.fileno(), FILE_MODE)  # whatever the umask or the folder's default ACL say
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        # again, just before the rename: nothing swapped in meanwhile is replaced
        _check_target(path, own_folders)
        os.replace(tmp, path)
    except BaseException as exc:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(exc, OSError):
            kept = " (the file there is as it was)" if path.exists() else ""
            raise TatlockError(
                f"cannot write {path}: {_reason(exc)}; nothing was written{kept}"
            ) from None
        raise
    _sync_folder(folder)
    return path


# what tatlock makes in its folders, by name: a new file of one of these names there would be
# taken for tatlock's own (a user's database not made yet, a -wal beside a database)
_OWN_FILE_NAME = re.compile(
    r".*\.(db|db-wal|db-shm|db-journal|token|jsonl)|config\.toml|secret-names"
)


def _check_target(path: Path, own_folders: Sequence[Path] = ()) -> None:
    """Refuse a target an export must not replace (one line, as TatlockError)."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        if (
            own_folders
            and _OWN_FILE_NAME.fullmatch(path.name)
            and _inside(path.parent, own_folders)
        ):
            raise TatlockError(
                f"{path} is where tatlock keeps its own files: give a name outside its folders, "
                "or another name"
            ) from None
        return
    except NotADirectoryError:
        raise TatlockError(f"cannot write {path}: part of the folder it names is a file") from None
    except OSError as exc:
        raise TatlockError(f"cannot write {path}: {_reason(exc)}") from None
    if stat.S_ISLNK(st.st_mode):
        raise TatlockError(
            f"{path} is a symbolic link: tatlock does not write through links "
            "(give the file's real path, or another name)"
        )
    if stat.S_ISDIR(st.st_mode):
        raise TatlockError(f"{path} is a folder: give a file name")
    if not stat.S_ISREG(st.st_mode):
        raise TatlockError(
            f"{path} is not a regular file (a FIFO, device or socket): give another name"
        )
    if st.st_uid != os.geteuid():
        raise TatlockError(
            f"{path} belongs to another user: tatlock does not replace it (give another name)"
        )
    if own_folders and (st.st_dev, st.st_ino) in own_files(own_folders):
        raise TatlockError(
            f"{path} is one of tatlock's own files (its memory, settings, logs or token): an export "
            "never replaces those (give another name)"
        )


def _inside(folder: Path, folders: Sequence[Path]) -> bool:
    """Whether ``folder`` (its real path) is one of ``folders`` or below one."""
    try:
        real = Path(os.path.realpath(folder))
    except (OSError, ValueError):
        return False
    for f in folders:
        try:
            top = Path(os.path.realpath(f))
        except (OSError, ValueError):
            continue
        if real == top or top in real.parents:
            return True
    return False


def own_files(folders: Iterable[Path]) -> set[tuple[int, int]]:
    """(device, inode) of every file in tatlock's folders and below: its databases with their
    ``-wal``/``-shm``, debug logs, config, token and secret-name files, calibration, summaries.
    Symlinks are not followed (what one points at is not tatlock's file); an unreadable
    folder is skipped."""
    seen: set[tuple[int, int]] = set()
    done: set[tuple[int, int]] = set()
    stack = [Path(f) for f in folders]
    while stack:
        folder = stack.pop()
        try:
            st = os.stat(folder)
            if (st.st_dev, st.st_ino) in done:
                continue  # the data, config and log folders may be one folder (TATLOCK_HOME)
            done.add((st.st_dev, st.st_ino))
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            try:
                if entry.is_dir(follow_symlinks=False):
                    stack.append(Path(entry.path))
                elif entry.is_file(follow_symlinks=False):
                    est = entry.stat(follow_symlinks=False)
                    seen.add((est.st_dev, est.st_ino))
            except OSError:
                continue
    return seen


def _sync_folder(folder: Path) -> None:
    """Make the rename durable (best effort: not every file system lets a folder be fsynced)."""
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


# pseudo-file systems: their files say they are regular (and empty) but are made up as read
# (devices under /dev are refused as devices; /dev/shm holds ordinary files)
_PSEUDO = ("/proc", "/sys")


def size_text(n: float) -> str:
    """A byte count the way people say it (512 MB, 10.0 GB)."""
    for unit in ("bytes", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return (
                f"{n:.0f} {unit}" if unit in ("bytes", "KB") or n == int(n) else f"{n:.1f} {unit}"
            )
        n /= 1024
    return f"{n:.1f} GB"


class InputFile(io.RawIOBase):
    """A regular file opened for one bounded read: reading past the size it had when it was
    opened, or ending before it, raises UsageError (it changed while it was read)."""

    def __init__(self, fd: int, name: str, size: int):
        super().__init__()
        self._fh = os.fdopen(fd, "rb", buffering=0)
        self.name = name
        self.size = size
        self.done = 0
        self._start = os.fstat(fd)

    def readable(self) -> bool:
        return True

    def readinto(self, b: bytearray | memoryview) -> int:  # type: ignore[override]
        view = memoryview(b)
        want = min(len(view), self.size - self.done + 1)  # one byte more shows a file that grew
        if want <= 0:
            return 0
        try:
            n = self._fh.readinto(view[:want]) or 0
        except OSError as exc:
            raise UsageError(f"{self.name} could not be read ({exc.strerror or exc})") from None
        self.done += n
        if self.done > self.size:
            raise UsageError(f"{self.name} grew while it was read (it is not a finished file)")
        if n == 0 and self.done < self.size:
            raise UsageError(f"{self.name} shrank while it was read (it is not a finished file)")
        return n

    def unchanged(self) -> None:
        """Raise UsageError when the file was replaced or rewritten since it was opened."""
        now = os.fstat(self._fh.fileno())
        if (now.st_size, now.st_mtime_ns, now.st_ino) != (
            self._start.st_size,
            self._start.st_mtime_ns,
            self._start.st_ino,
        ):
            raise UsageError(f"{self.name} changed while it was read")

    def close(self) -> None:
        self._fh.close()
        super().close()


def open_input(
    name: str, *, limit: int, what: str = "an import", stdin: BinaryIO | None = None
) -> InputFile:
    """Open the file ``name`` (``-``: ``stdin``, kept in a private temporary file) for one read
    of at most ``limit`` bytes. Raises one line: TatlockError for a missing file, UsageError for
    a folder, anything but a regular file (a FIFO, device, socket, ``/proc`` file) and a file
    larger than ``limit``."""
    if name == "-":
        return _spooled(stdin, limit, what)
    if "\x00" in name:
        raise UsageError("the file name holds a NUL character")
    real = os.path.realpath(name)
    if ":[" in real and real.startswith("/proc/"):  # /dev/stdin or /dev/fd/N on a pipe: pipe:[123]
        raise UsageError(f"{name} is not a regular file (a pipe or socket): give - to read stdin")
    if any(real == p or real.startswith(p + "/") for p in _PSEUDO):
        raise UsageError(
            f"{name} is not a regular file ({real} is made up by the system as it is read)"
        )
    try:
        fd = os.open(name, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise TatlockError(f"no such file: {name}") from None
    except IsADirectoryError:
        raise UsageError(f"{name} is a folder, not a file") from None
    except OSError as exc:
        if exc.errno == errno.ENXIO:  # a socket
            raise UsageError(f"{name} is not a regular file (a socket)") from None
        raise TatlockError(f"{name} cannot be read ({exc.strerror or exc})") from None
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode):
        os.close(fd)
        if stat.S_ISDIR(st.st_mode):
            raise UsageError(f"{name} is a folder, not a file")
        kind = (
            "a FIFO"
            if stat.S_ISFIFO(st.st_mode)
            else "a device"
            if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode)
            else "a socket"
            if stat.S_ISSOCK(st.st_mode)
            else "not a file"
        )
        raise UsageError(f"{name} is not a regular file ({kind}): give the file itself")
    if st.st_size > limit:
        os.close(fd)
        raise UsageError(
            f"{name} is {size_text(st.st_size)}; {what} reads at most {size_text(limit)}"
        )
    try:
        os.set_blocking(fd, True)
    except OSError:
        pass
    return InputFile(fd, name, st.st_size)


def _spooled(stdin: BinaryIO | None, limit: int, what: str) -> InputFile:
    """stdin copied, up to ``limit`` bytes, into a temporary file only its owner can read
    (deleted at once: it goes when it is closed, or when the process ends however it ends)."""
    import sys

    src = stdin if stdin is not None else getattr(sys.stdin, "buffer", None)
    tmp = tempfile.TemporaryFile()  # noqa: SIM115 - 0600, unlinked; returned open to the caller
    total = 0
    try:
        while True:
            if src is not None:
                chunk = src.read(1 << 20)
            else:  # a text stdin with no bytes underneath (a test's StringIO)
                chunk = sys.stdin.read(1 << 18).encode("utf-8", "surrogateescape")
            if not chunk:
                break
            total += len(chunk)
            if total > limit:
                raise UsageError(
                    f"stdin holds more than {size_text(limit)}; {what} reads at most "
                    f"{size_text(limit)}"
                )
            tmp.write(chunk)
        tmp.flush()
        fd = os.dup(tmp.fileno())
    except OSError as exc:
        raise TatlockError(f"stdin could not be kept for reading ({_reason(exc)})") from None
    finally:
        tmp.close()
    os.lseek(fd, 0, os.SEEK_SET)
    return InputFile(fd, "stdin", total)


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
