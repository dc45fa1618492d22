"""Text made safe to print on a terminal.

Messages, model output, tool results and file names can hold escape sequences (``ESC [ 2 J``
clears the screen, OSC 52 writes the clipboard, OSC 8 hides a link), bare carriage returns that
overwrite what was printed, NUL bytes, bidirectional overrides that reorder what is shown, and
lone surrogates that make ``print`` raise. :func:`inert` shows every one of them visibly as a
Python-style escape (``\\x1b``, ``\\r``, ``\\x00``, ``\\u202e``) so nothing printed is ever
executed by the terminal; newlines, tabs and ordinary text (any script, emoji) pass unchanged.
"""

from __future__ import annotations

import re

# C0 controls but \t and \n; DEL and C1 controls; a \r not followed by \n; bidi embeddings,
# overrides and isolates; line/paragraph separators; lone surrogates
_UNSAFE = re.compile(
    "[\x00-\x08\x0b-\x0c\x0e-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\ud800-\udfff]"
    "|\r(?!\n)"
)
_NAMED = {"\r": "\\r", "\x0b": "\\v", "\x0c": "\\f"}


def _show(m: re.Match[str]) -> str:
    ch = m.group()
    if ch in _NAMED:
        return _NAMED[ch]
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def inert(text: str) -> str:
    """``text`` with every control character, escape sequence introducer and bidi override
    shown as a visible escape; text without any comes back as the same object, at once."""
    if not isinstance(text, str):
        text = str(text)
    if _UNSAFE.search(text) is None:
        return text
    return _UNSAFE.sub(_show, text)


def inert_line(text: str) -> str:
    """:func:`inert` for one-line output (titles, names, list rows): newlines and tabs shown too."""
    return inert(text).replace("\n", "\\n").replace("\t", "\\t")


def brief(text: object, limit: int = 300) -> str:
    """What a server or a library said, as one line of at most ``limit`` characters (a pydantic
    error spans five lines; a server may send a whole HTML page)."""
    line = " ".join(str(text).split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


_SURROGATE = re.compile("[\ud800-\udfff]")


def valid_text(text: str) -> str:
    """``text`` with lone surrogates (what Python makes of bytes that are not UTF-8, e.g. in a
    command line) replaced by U+FFFD: they cannot be stored, sent or printed as UTF-8."""
    return _SURROGATE.sub("\ufffd", text) if _SURROGATE.search(text) else text


def inert_json(text: str) -> str:
    """JSON text (``json.dumps(..., ensure_ascii=False)``) with every character :func:`inert` would
    show written as a JSON escape (``\\u009b``): the same JSON value, safe on a terminal, where
    ``inert`` would make it invalid JSON (``\\x9b`` is not a JSON escape). Lone surrogates,
    which ``print`` cannot even encode, become escapes too."""
    if _UNSAFE.search(text) is None:
        return text
    return _UNSAFE.sub(lambda m: "".join(f"\\u{ord(c):04x}" for c in m.group()), text)
