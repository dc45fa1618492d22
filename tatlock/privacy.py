"""Keep tatlock's files private to the user who runs it.

New files are created private (see :mod:`tatlock.store.db`: folders 0700, files 0600). An
older version, a restore from backup or a careless ``cp`` can leave them readable by other
users; :func:`check` runs once when tatlock opens, takes group and other permissions away
from everything of tatlock's that has them, and returns one notice saying so.

Only tatlock's own entries are touched: the data and log folders themselves, and inside them
the files and folders tatlock makes. ``TATLOCK_HOME`` may point at a folder that holds other
things too; those are left alone.

config.toml is the user's more than tatlock's: it holds settings (model names, addresses,
folders), which are no secret, and a user who writes it by hand gives it the permissions they
chose. So it is tightened, and said, only when it holds a secret (``api_key``); and a config
folder of its own (outside TATLOCK_HOME) is left as the user made it, since it holds nothing
private but tatlock's ``secret-names`` file, itself 0600. What tatlock writes there is 0600.
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

from tatlock.config import Paths
from tatlock.files import tighten

# entries tatlock makes at the top of its folders; folders among them are walked whole
_OWN_NAME = re.compile(
    r"(system\.db|.*\.db(-wal|-shm|-journal)?|config\.toml|secret-names|token_calibration\.json(\.tmp)?|.*\.jsonl|\..*\.tmp"
    r"|users|logs|conversations|exports)"
)
_MAX_ENTRIES = 200_000  # a bound on the walk, whatever a folder holds


def _loose_under(folder: str, out: list[Path], budget: list[int]) -> None:
    """Append the loose entries under ``folder`` (never following symlinks); ``budget`` bounds
    how many entries are looked at."""
    stack = [folder]
    while stack and budget[0] > 0:
        d = stack.pop()
        try:
            with os.scandir(d) as it:
                for entry in it:
                    budget[0] -= 1
                    try:
                        st = entry.stat(follow_symlinks=False)
                    except OSError:
                        continue
                    if stat.S_ISLNK(st.st_mode):
                        continue
                    if st.st_mode & 0o077:
                        out.append(Path(entry.path))
                    if stat.S_ISDIR(st.st_mode):
                        stack.append(entry.path)
        except OSError:
            continue


def _roots(paths: Paths) -> list[Path]:
    return list(
        dict.fromkeys(p for p in (paths.data_dir, paths.config_dir, paths.log_dir) if p.is_dir())
    )


_SECRET_SETTING = re.compile(r"""^\s*["']?api_key["']?\s*=""", re.MULTILINE)


def holds_secret(config_file: Path) -> bool:
    """Whether config.toml sets ``api_key`` (the one secret a setting can hold)."""
    try:
        with open(config_file, "rb") as fh:
            head = fh.read(1 << 20)
    except OSError:
        return False
    return _SECRET_SETTING.search(head.decode("utf-8", "replace")) is not None


def _left_alone(path: Path, paths: Paths) -> bool:
    """The user's own: a config folder apart from the data, and a config.toml with no secret."""
    if path == paths.config_dir:
        return path not in (paths.data_dir, paths.log_dir)
    return path == paths.config_file and not holds_secret(path)


def loose(paths: Paths) -> list[Path]:
    """tatlock's entries that other users may read, write or enter: its folders themselves and,
    inside them, the files and folders tatlock makes (other things in TATLOCK_HOME are not
    tatlock's to change)."""
    out: list[Path] = []
    budget = [_MAX_ENTRIES]
    roots = _roots(paths)
    for root in roots:
        try:
            if os.lstat(root).st_mode & 0o077 and not _left_alone(root, paths):
                out.append(root)
            entries = list(os.scandir(root))
        except OSError:
            continue
        for entry in entries:
            if not _OWN_NAME.fullmatch(entry.name) or Path(entry.path) in roots:
                continue  # the log folder inside TATLOCK_HOME is walked as a root of its own
            try:
                st = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            if stat.S_ISLNK(st.st_mode):
                continue
            if st.st_mode & 0o077 and not _left_alone(Path(entry.path), paths):
                out.append(Path(entry.path))
            if stat.S_ISDIR(st.st_mode):
                _loose_under(entry.path, out, budget)
    return list(dict.fromkeys(out))


def check(paths: Paths) -> str | None:
    """Tighten every tatlock file and folder that others could read; return one notice when
    something was tightened or could not be, else None. Call once when tatlock opens."""
    fixed: list[Path] = []
    fixed_dirs = 0
    failed: list[Path] = []
    for p in loose(paths):
        is_dir = p.is_dir() and not p.is_symlink()
        if tighten(p):
            fixed.append(p)
            fixed_dirs += is_dir
        else:
            failed.append(p)
    parts = []
    if paths.config_file in fixed:
        fixed.remove(paths.config_file)
        parts.append(
            f"made {paths.config_file} private to you: it holds api_key, which other users could "
            f"read "
            "(`tatlock secret set api_key` keeps it in the OS keyring instead)"
        )
    if len(fixed) == 1:
        kind = "folder" if fixed_dirs else "file"
        parts.append(f"made the {kind} {fixed[0]} private to you (other users could read it)")
    elif fixed:
        what = " and ".join(
            x for x in (_count(len(fixed) - fixed_dirs, "file"), _count(fixed_dirs, "folder")) if x
        )
        where = os.path.commonpath(
            [
                str(p if p in (paths.data_dir, paths.config_dir, paths.log_dir) else p.parent)
                for p in fixed
            ]
        )
        parts.append(f"made {what} in {where} private to you (other users could read them)")
    if failed:
        parts.append(
            f"could not make {_count(len(failed), 'entry', 'entries')} private, e.g. {failed[0]} "
            "(not yours?): check its permissions"
        )
    return "; ".join(parts) if parts else None


def _count(n: int, one: str, many: str | None = None) -> str:
    if not n:
        return ""
    return f"1 {one}" if n == 1 else f"{n} {many or one + 's'}"
