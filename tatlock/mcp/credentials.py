"""The bearer token an MCP client needs to reach one user's memory over HTTP.

Over stdio the parent process is the credential; over HTTP anyone on the machine can connect
to a loopback port, so every request must carry ``Authorization: Bearer TOKEN``. The token is
made at first use (256 random bits) and kept in ``<config folder>/mcp/<user>.token``, a 0600
file in a 0700 folder: only its owner can read it, and ``tatlock mcp --show-token`` prints it.

A token file that others could read (or that is not ours, not a plain file, or not a token)
is not trusted: it is replaced by a new one, and the caller says so once. This module is the
standard library only: ``tatlock mcp --show-token`` and ``--help`` never load the MCP SDK.
"""

from __future__ import annotations

import errno
import hmac
import os
import re
import secrets
import stat
from dataclasses import dataclass
from pathlib import Path

from tatlock.config import Paths
from tatlock.errors import TatlockError
from tatlock.files import private_dir, write_private

TOKEN_BYTES = 32  # 256 bits: guessing is out of reach, however many requests are made
_TOKEN = re.compile(r"[A-Za-z0-9_-]{40,128}")
_MAX_FILE = 1024


@dataclass(frozen=True)
class Token:
    value: str
    path: Path
    notice: str | None = None  # said once when the token was replaced


def token_path(paths: Paths, user: str) -> Path:
    return paths.mcp_token(user)


def load(paths: Paths, user: str, *, renew: bool = False) -> Token:
    """The user's MCP token, made now when there is none (or ``renew``); a file that cannot
    be trusted is replaced, with a notice."""
    path = token_path(paths, user)
    problem = None
    if not renew:
        value, problem = _read(path)
        if value is not None:
            return Token(value, path)
    value = secrets.token_urlsafe(TOKEN_BYTES)
    try:
        private_dir(path.parent)
        if path.is_dir() and not path.is_symlink():
            raise TatlockError(
                f"{path} is a folder", hint="move it aside; tatlock keeps its MCP token there"
            )
        # renamed into place: a symlink there is replaced, never followed
        write_private(path, value + "\n")
    except OSError as exc:
        raise TatlockError(
            f"cannot write the MCP token to {path} ({exc.strerror or exc})",
            hint="make the config folder writable",
        ) from None
    notice = None
    if problem:
        notice = (
            f"the MCP token file {path} {problem}: it was replaced with a new token; give your MCP "
            f"clients "
            f"the new one (tatlock mcp --user {user} --show-token)"
        )
    return Token(value, path, notice)


def _read(path: Path) -> tuple[str | None, str | None]:
    """(token, None) when the file holds one that only we could have read; (None, why not)."""
    try:
        fd = os.open(
            path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
        )
    except FileNotFoundError:
        return None, None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return None, "was a symbolic link"
        return None, f"could not be read ({exc.strerror or exc})"
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return None, "was not a plain file"
        if st.st_uid != os.getuid():
            return None, "belonged to another user"
        if stat.S_IMODE(st.st_mode) & 0o077:
            return None, "could be read by other users"
        text = os.read(fd, _MAX_FILE + 1)
    finally:
        os.close(fd)
    value = text.decode("ascii", "replace").strip()
    if len(text) > _MAX_FILE or not _TOKEN.fullmatch(value):
        return None, "did not hold a token"
    return value, None


class Watched:
    """The token as the file holds it now, for a running server: ``--new-token`` takes effect at
    once, and a file that stops being trustworthy (made readable by others, replaced by someone
    else's) lets nobody in until a new token is made (``--new-token``, ``--show-token`` or a
    restart, each of which replaces an untrusted file). The token it held then may have been
    read meanwhile: it is never accepted again, even once the file is private again (``chmod
    600`` used to let the exposed token back in). The file is looked at again only when its
    inode, size, modification time or mode changed (one ``stat`` per request)."""

    def __init__(self, token: Token):
        self.path = token.path
        self._value: str | None = token.value
        self._seen = self._key()
        self.problem: str | None = None
        self._burned: set[str] = set()  # tokens the file held while it could not be trusted

    def _key(self) -> tuple[int, int, int, int] | None:
        try:
            st = os.lstat(self.path)
        except OSError:
            return None
        return (st.st_ino, st.st_size, st.st_mtime_ns, st.st_mode)

    def current(self) -> str | None:
        key = self._key()
        if key != self._seen:
            self._seen = key
            before = self._value
            self._value, self.problem = _read(self.path)
            if self._value is None and self.problem is None:
                self.problem = "was removed"
            if self._value is None and before is not None:
                self._burned.add(before)  # exposed, or gone: it may have been read meanwhile
            if self._value in self._burned:
                self._value, self.problem = (
                    None,
                    "holds a token that was exposed (replace it: --new-token)",
                )
        return self._value


def matches(given: str | bytes | None, token: str) -> bool:
    """True when ``given`` is the token; compared in constant time."""
    if given is None:
        return False
    if isinstance(given, str):
        given = given.encode("utf-8", "replace")
    return hmac.compare_digest(given, token.encode("ascii"))
