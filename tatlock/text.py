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
