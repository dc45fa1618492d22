"""config.toml as text: one setting replaced, added or removed, everything else kept as the
user wrote it (comments, blank lines, order, other settings), and the file written whole or
not at all.

No TOML writer is needed: tatlock's settings are top-level keys, so a setting is the lines
from its key to the end of its value. Where that value ends is found by parsing: the shortest
run of lines that parses on its own as that one key (a list or a string may span lines).
Checking what the new text means is config.py's business (``check_file_text``).
"""

from __future__ import annotations

import os
import tempfile
import tomllib
from pathlib import Path

from tatlock.errors import ConfigError


def read(path: Path) -> str:
    """The file's text; "" when there is none."""
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return ""
    except UnicodeDecodeError:
        raise ConfigError(f"{path} is not UTF-8 text: save it as UTF-8") from None
    except OSError as exc:
        raise ConfigError(f"cannot read {path}: {exc.strerror or exc}") from None


def _entries(lines: list[str]) -> tuple[list[tuple[str, int, int]], int]:
    """The top-level settings as (name, first line, last line + 1), and where the first table
    begins (the end of the top level). ConfigError when a value never ends."""
    out: list[tuple[str, int, int]] = []
    i = 0
    while i < len(lines):
        stripped = lines[i].strip()
        if not stripped or stripped.startswith("#"):
            i += 1
            continue
        if stripped.startswith("["):  # a table: what follows is not tatlock's top level
            return out, i
        for j in range(i + 1, len(lines) + 1):
            try:
                parsed = tomllib.loads("\n".join(lines[i:j]))
            except tomllib.TOMLDecodeError:
                continue
            if parsed:
                out.append((next(iter(parsed)), i, j))
                i = j
                break
        else:
            raise ConfigError(
                f"config.toml is not valid TOML from line {i + 1} ({stripped[:40]!r}): "
                "fix it with `tatlock config edit`"
            )
    return out, len(lines)


def with_setting(text: str, name: str, toml_value: str) -> str:
    """``text`` with ``name = toml_value``: its line(s) replaced where it is set, else a line
    added after the other top-level settings (before the first table)."""
    lines = text.splitlines()
    entries, top_end = _entries(lines)
    spans = [(a, b) for key, a, b in entries if key == name]
    line = f"{name} = {toml_value}"
    if not spans:
        at = top_end
        while 0 < at < len(lines) and not lines[at - 1].strip():
            at -= 1  # before the blank lines that part the settings from a table
        lines.insert(at, line)
        return "\n".join(lines) + "\n"
    for a, b in reversed(spans[1:]):  # a key set twice is not TOML anyway: one is kept
        del lines[a:b]
    a, b = spans[0]
    lines[a:b] = [line + (_comment(lines[a]) if b == a + 1 else "")]
    return "\n".join(lines) + "\n"


def _comment(line: str) -> str:
    """The comment at the end of a one-line setting (``  # why``), or ""."""
    whole = tomllib.loads(line)
    at = line.find("#")
    while at != -1:
        try:
            if tomllib.loads(line[:at]) == whole:
                return "  " + line[at:].strip()
        except tomllib.TOMLDecodeError:
            pass
        at = line.find("#", at + 1)
    return ""


def without_setting(text: str, name: str) -> tuple[str, bool]:
    """``text`` with the setting ``name`` removed, and whether it was there."""
    lines = text.splitlines()
    spans = [(a, b) for key, a, b in _entries(lines)[0] if key == name]
    if not spans:
        return text, False
    for a, b in reversed(spans):
        del lines[a:b]
    return ("\n".join(lines) + "\n") if lines else "", True


def write(path: Path, text: str) -> None:
    """Write the whole file or nothing, readable only by its owner (it may hold ``api_key``):
    a 0600 temporary file beside it, flushed to disk, renamed into place. A missing folder is
    made 0700; a folder the user made is left as it is. A config.toml that is a symlink (kept
    with one's dotfiles) stays one: its target is what is replaced."""
    tmp = None
    if path.is_symlink():
        path = path.resolve()
    try:
        if not path.parent.is_dir():
            os.makedirs(path.parent, mode=0o700, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")  # 0600
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        if tmp is not None:
            Path(tmp).unlink(missing_ok=True)
        raise ConfigError(f"cannot write {path}: {exc.strerror or exc}") from None
