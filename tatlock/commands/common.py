"""What every command needs: the butler, terminal output, confirmation, files."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import textwrap
from pathlib import Path
from typing import TYPE_CHECKING

from tatlock.errors import TatlockError, UsageError

if TYPE_CHECKING:  # pragma: no cover
    from tatlock.butler import Butler


def open_butler(user: str | None = None, *, model: str | None = None, interface: str = "cli") -> "Butler":
    """The butler for ``--user`` (default: the configured user). A name given with ``--user``
    must exist already, so that a typo never starts a new, empty memory."""
    from tatlock.butler import open_butler as open_

    return open_(user, model=model, interface=interface, create=user is None)


def out(line: str = "") -> None:
    sys.stdout.write(line + "\n")


def width() -> int:
    return max(40, shutil.get_terminal_size((100, 24)).columns)


def clip(text: str, room: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= room else text[: max(1, room - 1)] + "…"


def wrap(text: str, indent: str = "  ") -> str:
    return textwrap.fill(text, width=min(width(), 100), initial_indent=indent, subsequent_indent=indent)


def read_arg(text: str) -> str:
    """TEXT, or stdin when TEXT is '-'."""
    if text != "-":
        return text
    if sys.stdin.isatty():
        print("(type the text, then Ctrl-D)", file=sys.stderr)
    try:
        return sys.stdin.read()
    except UnicodeDecodeError:
        raise UsageError("stdin is not UTF-8 text") from None


def read_file(name: str) -> str:
    try:
        return Path(name).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise TatlockError(f"no such file: {name}") from None
    except IsADirectoryError:
        raise UsageError(f"{name} is a folder, not a file") from None
    except UnicodeDecodeError:
        raise UsageError(f"{name} is not a UTF-8 text file") from None


def confirm(question: str, *, yes: bool) -> bool:
    """True when the user agrees (or gave --yes). Without a terminal to ask on, refuses with a
    usage error: a destructive command never runs unconfirmed from a script."""
    if yes:
        return True
    if not sys.stdin.isatty():
        raise UsageError(f"{question.rstrip('?')}: add --yes to confirm (there is no terminal to ask on)")
    try:
        answer = input(f"{question} [y/N] ")
    except EOFError:
        return False
    return answer.strip().lower() in ("y", "yes")


def write_atomic(path: Path, text: str) -> None:
    """Write a whole file or nothing: a temporary file beside it, renamed into place."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    except OSError as exc:
        raise TatlockError(f"cannot write {path}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes 0600; a file the user asked for follows the umask
        os.replace(tmp, path)
    except BaseException as exc:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise TatlockError(f"cannot write {path}: {exc.strerror or exc}") from None
        raise
