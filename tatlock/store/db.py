"""SQLite connections and numbered migrations.

Every database is opened the same way: autocommit mode (``isolation_level=None``) so that
transactions are explicit (``BEGIN IMMEDIATE`` for writes that must not race), WAL for
concurrent readers, foreign keys on, and a busy timeout so a second process waits
instead of failing.

Schema versions live in ``PRAGMA user_version``; migrations are the numbered ``.sql``
files in ``migrations/<kind>/`` (``0001_init.sql``, ``0002_...``), applied in order,
each in its own transaction together with the version bump.

Everything tatlock writes is private to the user who runs it: folders 0700, files 0600
(the databases hold password hashes and whole conversations). A database file is created
0600 before SQLite opens it, and SQLite gives its ``-wal`` and ``-shm`` files the database's
mode. :func:`private_dir`, :func:`private_file` and :func:`write_private` do the same for
every other file; :mod:`tatlock.privacy` tightens what an older version left looser.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import sqlite3
from collections.abc import Iterator
from importlib import resources
from pathlib import Path

BUSY_TIMEOUT_MS = 10_000
CORRUPT_FIX = (
    "restore it from a backup or an export of your memory, or move it aside and tatlock starts a "
    "new one"
)
# system.db holds the persona, users and tool settings; conversations are in users/ and are kept
SYSTEM_DB_FIX = (
    "restore it from a backup, or move it aside and tatlock starts a new one "
    "(persona, users and tool settings start over; conversations in users/ are kept)"
)


from tatlock.errors import StoreError  # noqa: E402  (re-exported)
from tatlock.files import (  # noqa: E402,F401  (re-exported: the store's callers use them too)
    DIR_MODE,
    FILE_MODE,
    IN_THE_WAY,
    WRITABLE,
    _fix,
    _reason,
    private_dir,
    private_file,
    tighten,
    write_private,
)


def migrations(kind: str) -> list[tuple[int, str, str]]:
    """(version, name, sql) for each migration of ``kind`` ("system" or "user"), in order."""
    folder = resources.files("tatlock.store") / "migrations" / kind
    out = []
    for entry in folder.iterdir():
        m = re.fullmatch(r"(\d{4})_(\w+)\.sql", entry.name)
        if m:
            out.append((int(m.group(1)), m.group(2), entry.read_text(encoding="utf-8")))
    out.sort()
    versions = [v for v, _, _ in out]
    if versions != list(range(1, len(out) + 1)):
        raise RuntimeError(f"migrations for {kind} are not numbered 1..n: {versions}")
    return out


def latest_version(kind: str) -> int:
    return len(migrations(kind))


def _check_writable_folder(path: Path) -> None:
    folder = path.parent
    if folder.exists() and not folder.is_dir():
        raise StoreError(f"{folder} is a file, not a folder", hint=IN_THE_WAY)
    if folder.is_dir() and not os.access(folder, os.W_OK | os.X_OK):
        try:
            mounted_ro = bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
        except (OSError, AttributeError):
            mounted_ro = False
        how = (
            "is on a read-only file system"
            if mounted_ro
            else "is read-only (chmod u+w makes it writable)"
        )
        raise StoreError(
            f"the data folder {folder} {how}: tatlock cannot save anything there", hint=WRITABLE
        )


def corrupt_error(path: Path | str, exc: object) -> StoreError:
    """The one-line error for a file that is not a database or is damaged."""
    fix = SYSTEM_DB_FIX if Path(path).name == "system.db" else CORRUPT_FIX
    return StoreError(f"the database {path} is damaged ({exc})", hint=fix, kind="database")


# what SQLite says of a damaged file (a damaged full-text index's shadow table fails as a vtable)
_DAMAGE = ("malformed", "not a database", "vtable constructor failed", "corrupt")


def damaged(message: str) -> bool:
    """True when an SQLite error message means the file is damaged (not busy, full or read-only)."""
    return any(d in message for d in _DAMAGE)


def as_store_error(exc: BaseException, path: Path | str) -> StoreError | None:
    """A database error met while working on ``path`` (full disk, read-only, damaged, busy) as
    one StoreError line naming the database and the fix; None for anything else. SQLite rolls the
    failed transaction back: what was stored before is still there."""
    if isinstance(exc, StoreError):
        return exc
    if not isinstance(exc, sqlite3.Error):
        return None
    text = str(exc)
    if damaged(text):
        return corrupt_error(path, text)
    if "full" in text or ("I/O" in text and disk_full(path)):
        return full_error(path)
    if "readonly" in text or "read-only" in text:
        return StoreError(
            f"the database {path} cannot be written ({text})", hint=WRITABLE, kind="read_only"
        )
    if "locked" in text or "busy" in text:
        return StoreError(
            f"the database {path} stayed busy (another tatlock is writing to it): {text}",
            hint="try again in a moment",
            kind="busy",
        )
    if "I/O" in text:
        return StoreError(
            f"the database {path} could not be written ({text})",
            hint="check the disk and free some space; nothing already stored is lost",
            kind="io",
        )
    return StoreError(f"database error in {path}: {text}", kind="database")


def full_error(path: Path | str) -> StoreError:
    return StoreError(
        f"the disk holding {path} is full: nothing more can be saved",
        hint=_fix(OSError(errno.ENOSPC, "no space left")),
        kind="disk_full",
    )


def disk_full(path: Path | str) -> bool:
    """True when the file system holding ``path`` has (almost) no room left for its user."""
    try:
        st = os.statvfs(Path(path).parent)
    except OSError:
        return False
    return st.f_bavail * st.f_frsize < 64 * 1024


def _ro_uri(path: Path | str) -> str:
    return Path(path).resolve().as_uri() + "?mode=ro"


def connect(path: Path | str, *, readonly: bool = False) -> sqlite3.Connection:
    """Open a database (created 0600, in a 0700 folder, when missing).

    A file that is not a database or is damaged, a data folder that is a file or read-only:
    each raises one StoreError naming the path and the fix.
    """
    path = Path(path)
    if not readonly:
        _check_writable_folder(path)
        private_dir(path.parent)
        if path.exists() and not os.access(path, os.R_OK | os.W_OK):
            raise StoreError(
                f"the database {path} is read-only", hint="make it writable: chmod u+rw"
            )
        try:
            private_file(path)
        except OSError as exc:
            raise StoreError(
                f"cannot create the database {path} ({_reason(exc)})", hint=_fix(exc)
            ) from None
        _check_ours(path)
    try:
        if readonly:
            conn = sqlite3.connect(
                _ro_uri(path), uri=True, isolation_level=None, check_same_thread=False
            )
        else:
            conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    except sqlite3.Error as exc:
        raise StoreError(f"cannot open the database {path}: {exc}") from None
    try:
        conn.row_factory = sqlite3.Row
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        conn.execute("PRAGMA foreign_keys = ON")
        if not readonly:
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = NORMAL")
        # reads the schema: a damaged one fails here
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.OperationalError as exc:
        conn.close()
        if disk_full(path):  # SQLite cannot make its -wal/-shm files: it says "disk I/O error"
            raise full_error(path) from None
        if "readonly" in str(exc) or "unable to open" in str(exc):
            raise StoreError(
                f"the database {path} cannot be written ({exc})", hint=WRITABLE
            ) from None
        raise StoreError(f"cannot open the database {path}: {exc}") from None
    # "file is not a database", "database disk image is malformed"
    except sqlite3.DatabaseError as exc:
        conn.close()
        raise corrupt_error(path, exc) from None
    return conn


def _check_ours(path: Path) -> None:
    """Refuse a database (or its -wal/-shm) that belongs to another user: in a folder someone
    else made (TATLOCK_HOME in a shared place) they could plant a file anyone can read, and
    every message, fact and password hash written to it would be theirs to read."""
    for p in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        try:
            st = os.lstat(p)
        except FileNotFoundError:
            continue
        except OSError as exc:
            raise StoreError(
                f"cannot open the database {path} ({_reason(exc)})", hint=_fix(exc)
            ) from None
        if st.st_uid != os.geteuid():
            raise StoreError(
                f"{p} belongs to another user: tatlock keeps a memory only in files of yours",
                hint="set TATLOCK_HOME to a folder of yours, or move the file aside if it is yours",
            )


def quick_check(path: Path | str) -> str | None:
    """None when the database at ``path`` passes ``PRAGMA quick_check``, else what is wrong as
    one line (the caller names the path and the fix: see :func:`corrupt_error`). Read-only: a
    check never changes or creates anything."""
    path = Path(path)
    if not path.is_file():
        return "missing" if not path.exists() else "not a file"
    rows = _quick_check(_ro_uri(path))
    if rows and ("unable to open" in rows[0] or "readonly" in rows[0]):
        # a read-only folder or mount: SQLite cannot make the -shm file a WAL reader needs; read
        # the file as it is instead (immutable: nobody can be writing where nobody can write)
        rows = _quick_check(_ro_uri(path) + "&immutable=1")
    if rows == ["ok"]:
        return None
    # multi-line findings ("*** in database main ***\nPage 5: ...") on one line
    return " ".join(" ".join(rows[:3]).replace("*** in database main ***", "").split())


def _quick_check(uri: str) -> list[str]:
    try:
        conn = sqlite3.connect(uri, uri=True, isolation_level=None)
    except sqlite3.Error as exc:
        return [f"cannot open it: {exc}"]
    try:
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        return [str(r[0]) for r in conn.execute("PRAGMA quick_check(5)").fetchall()]
    except sqlite3.DatabaseError as exc:  # includes "file is not a database", "malformed"
        return [str(exc)]
    finally:
        conn.close()


def migrate(conn: sqlite3.Connection, kind: str, *, target: int | None = None) -> int:
    """Bring ``conn`` up to ``target`` (default: latest). Returns the new version."""
    steps = migrations(kind)
    target = len(steps) if target is None else target
    current = conn.execute("PRAGMA user_version").fetchone()[0]
    if current > len(steps):
        raise StoreError(
            f"this database has schema version {current}, newer than this tatlock knows "
            f"({len(steps)}): upgrade tatlock"
        )
    for version, _name, sql in steps:
        if version <= current or version > target:
            continue
        # executescript would COMMIT first; run statements inside our own transaction
        with transaction(conn):
            for statement in split_sql(sql):
                conn.execute(statement)
            conn.execute(f"PRAGMA user_version = {version}")
        current = version
    return current


def split_sql(script: str) -> list[str]:
    """Split a migration into statements (trigger bodies keep their inner semicolons)."""
    out, buf = [], ""
    for line in script.splitlines(keepends=True):
        if line.strip().startswith("--") and not buf.strip():
            continue
        buf += line
        if sqlite3.complete_statement(buf):
            if buf.strip():
                out.append(buf.strip())
            buf = ""
    if buf.strip():
        out.append(buf.strip())
    return out


@contextlib.contextmanager
def transaction(conn: sqlite3.Connection, mode: str = "IMMEDIATE") -> Iterator[sqlite3.Connection]:
    """``BEGIN IMMEDIATE`` ... ``COMMIT``, rolled back on any exception."""
    conn.execute(f"BEGIN {mode}")
    try:
        yield conn
        conn.execute("COMMIT")
    except BaseException:
        # SQLite has already rolled back after a full disk or an I/O error: a second ROLLBACK
        # would fail and hide the error that matters
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


def fits(value: object) -> bool:
    """True when ``value`` is an integer SQLite can hold (an id of 99999999999999999999 from a
    command line is simply not found, instead of an OverflowError)."""
    return isinstance(value, int) and -(2**63) <= value < 2**63
