"""What every command needs: the butler, terminal output, confirmation, files."""

from __future__ import annotations

import shutil
import sys
import textwrap
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from tatlock.errors import UsageError

if TYPE_CHECKING:  # pragma: no cover
    from tatlock.butler import Butler


def open_butler(
    user: str | None = None, *, model: str | None = None, interface: str = "cli"
) -> Butler:
    """The butler for ``--user`` (default: the configured user). A name given with ``--user``
    must exist already, so that a typo never starts a new, empty memory. Notices from opening
    (files made private) go to stderr once."""
    from tatlock.butler import open_butler as open_
    from tatlock.events import Notice
    from tatlock.text import inert_line

    butler = open_(user, model=model, interface=interface, create=user is None)
    for notice in butler.notices:
        print(f"tatlock: {inert_line(notice)}", file=sys.stderr)

    def later(ev: object) -> None:  # said once, when the default user's memory is first made
        if isinstance(ev, Notice) and ev.kind == "default_user":
            print(f"tatlock: {inert_line(ev.message)}", file=sys.stderr)

    butler.subscribe(later)
    return butler


def out(line: str = "") -> None:
    """A line to stdout, made inert: escape sequences and control characters from stored text
    or a model are shown, never executed by the terminal."""
    from tatlock.text import inert

    sys.stdout.write(inert(line) + "\n")


def write_text(text: str) -> None:
    """Text to stdout (exports, whole documents), made inert like ``out``."""
    from tatlock.text import inert

    sys.stdout.write(inert(text))


def width() -> int:
    return max(40, shutil.get_terminal_size((100, 24)).columns)


def clip(text: str, room: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= room else text[: max(1, room - 1)] + "…"


def wrap(text: str, indent: str = "  ") -> str:
    return textwrap.fill(
        text, width=min(width(), 100), initial_indent=indent, subsequent_indent=indent
    )


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


# a persona file: 50 instructions of 2,000 characters fit many times over
MAX_PERSONA_BYTES = 4 << 20


def read_input(name: str, *, limit: int, what: str) -> str:
    """The whole of the file ``name`` (``-``: stdin) as text, read as an import is: a regular
    file only, at most ``limit`` bytes (see :func:`tatlock.files.open_input`)."""
    from tatlock.files import open_input

    if name == "-" and sys.stdin.isatty():
        print("(type the text, then Ctrl-D)", file=sys.stderr)
    shown = "stdin" if name == "-" else name
    with open_input(name, limit=limit, what=what) as raw:
        data = raw.read()
        raw.unchanged()
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise UsageError(f"{shown} is not UTF-8 text") from None


def confirm(question: str, *, yes: bool) -> bool:
    """True when the user agrees (or gave --yes). Without a terminal to ask on, refuses with a
    usage error: a destructive command never runs unconfirmed from a script."""
    if yes:
        return True
    if not sys.stdin.isatty():
        raise UsageError(
            f"{question.rstrip('?')}: add --yes to confirm (there is no terminal to ask on)"
        )
    from tatlock.text import inert_line

    try:  # the question can quote stored text (a conversation's title): shown inert
        answer = input(f"{inert_line(question)} [y/N] ")
    except EOFError:
        return False
    return answer.strip().lower() in ("y", "yes")


def write_atomic(path: Path, text: str, own_folders: Iterable[Path] = ()) -> None:
    """Write a whole file or nothing, readable only by its owner (an export holds private
    conversations), without touching the mode of the folder it goes into (see
    :func:`tatlock.files.write_export`)."""
    from tatlock.files import write_export

    write_export(path, text, own_folders=own_folders)


# what to do about an error, in this CLI's words, by the kind the core gives it
HINTS = {
    "conversation": "see `tatlock memory conversations`",
    "instruction": "see `tatlock persona list`",
    "tool": "see `tatlock tools list`",
    "variable": "see `tatlock var list`",
    "message": "see `tatlock memory show ID`",
    "config_file": "`tatlock config edit` opens it; `tatlock config unset NAME` removes one setting",
}


def cli_hint(kind: str | None, hint: str | None) -> str | None:
    """What to do about an error, in this CLI's words where it has some."""
    if kind == "model":
        return "run `tatlock setup`" + (f", or {hint}" if hint else "")
    if kind == "auth":
        return "`tatlock secret set api_key`, or set TATLOCK_API_KEY"
    if kind == "database" and hint:  # a damaged memory database: name the command that exports one
        return hint.replace("an export of your memory", "a `tatlock memory export`")
    if kind == "user" and not hint:
        return "add it with `tatlock user add NAME`, or see `tatlock user list`"
    return hint or HINTS.get(kind or "")


def error_line(exc: BaseException) -> str:
    """One line for an error from the core: its message, then what to do about it."""
    from tatlock.errors import TatlockError
    from tatlock.text import inert_line

    if not isinstance(exc, TatlockError):
        return inert_line(str(exc))
    hint = cli_hint(exc.kind, exc.hint)
    return inert_line(f"{exc.message} ({hint})" if hint else exc.message)
