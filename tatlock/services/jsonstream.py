"""Reading one JSON document piece by piece, so a large file never has to be in memory at once.

An import walks the document's structure (``items()`` of an object, ``elements()`` of an
array) down to the records it checks one at a time (a message, a compact), and takes each
record whole with ``value()``. Only the record being read is held, so whitespace, a long
conversation or a large file costs memory for one record, not for the file.

Hostile input is refused with :class:`JsonError` (a message fit for one line): a value larger
than ``max_value`` characters, structure nested deeper than ``max_depth`` (and within one value,
deeper than Python's JSON parser goes: see :func:`depth` for a tighter bound), integers of more than
``MAX_DIGITS`` digits (Python would refuse 4,300 with a traceback; no id needs 20), ``NaN`` and
``Infinity``, text that is not UTF-8, and anything after the document.
"""

from __future__ import annotations

import codecs
import json
import math
import re
from collections.abc import Iterator
from typing import Any, BinaryIO

MAX_DIGITS = 20
CHUNK = 1 << 20  # characters read at a time
_SPACE = re.compile(r"[ \t\r\n]*")


class JsonError(Exception):
    """The file is not JSON, or not JSON this reader accepts; ``syntax`` when it is not JSON at
    all."""

    def __init__(self, message: str, *, syntax: bool = False):
        super().__init__(message)
        self.message = message
        self.syntax = syntax


def _number(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise JsonError(
            f"it holds a number of {len(text.lstrip('-')):,} digits, out of range for any id or "
            f"count"
        )
    return int(text)


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise JsonError(f"it holds a number too large to be one ({text[:20]}...)")
    return value


def _constant(text: str) -> Any:
    raise JsonError(f"it holds {text}, which JSON does not allow")


def depth(value: Any) -> int:
    """How deeply ``value`` nests lists and objects (a scalar: 0), without recursion."""
    stack = [(value, 1)]
    deepest = 0
    while stack:
        v, d = stack.pop()
        if isinstance(v, dict):
            stack.extend((x, d + 1) for x in v.values())
        elif isinstance(v, list):
            stack.extend((x, d + 1) for x in v)
        else:
            continue
        deepest = max(deepest, d)
    return deepest


class JsonStream:
    """A JSON document read from ``raw`` (bytes, UTF-8) a chunk at a time."""

    def __init__(self, raw: BinaryIO, *, max_value: int, max_depth: int = 64):
        self._raw = raw
        self._decoder = codecs.getincrementaldecoder("utf-8")("strict")
        self._json = json.JSONDecoder(
            parse_int=_number, parse_float=_float, parse_constant=_constant
        )
        self.max_value = max_value
        self.max_depth = max_depth
        self._buf = ""
        self._pos = 0
        self._eof = False
        self._lines = 1  # the line _buf[0] is on
        self._depth = 0
        self._started = False

    # -- the buffer --------------------------------------------------------------------------

    def _fill(self) -> bool:
        """Read more text; False at the end of the file."""
        if self._eof:
            return False
        data = self._raw.read(CHUNK)
        try:
            text = self._decoder.decode(data or b"", final=not data)
        except UnicodeDecodeError:
            raise JsonError("it is not UTF-8 text", syntax=True) from None
        if not data:
            self._eof = True
        if self._pos > CHUNK:  # drop what has been read (its lines counted)
            self._lines += self._buf.count("\n", 0, self._pos)
            self._buf = self._buf[self._pos :]
            self._pos = 0
        if not self._started:
            self._started = True
            text = text.removeprefix("\ufeff")
        self._buf += text
        return bool(data) or bool(text)

    def where(self, pos: int | None = None) -> str:
        pos = self._pos if pos is None else pos
        line = self._lines + self._buf.count("\n", 0, pos)
        column = pos - self._buf.rfind("\n", 0, pos)
        return f"line {line}, column {column}"

    def _peek(self) -> str:
        """The next character that is not whitespace ("" at the end of the file)."""
        while True:
            pos = _SPACE.match(self._buf, self._pos).end()  # type: ignore[union-attr]  # always matches
            self._pos = pos
            if pos < len(self._buf):
                return self._buf[pos]
            if not self._fill():
                return ""

    def _expect(self, chars: str, what: str) -> str:
        ch = self._peek()
        if not ch or ch not in chars:
            found = "the end of the file" if not ch else repr(ch)
            raise JsonError(f"expecting {what} at {self.where()}, found {found}", syntax=True)
        self._pos += 1
        return ch

    # -- reading -------------------------------------------------------------------------------

    def kind(self) -> str:
        """What comes next: "object", "array", "string", "end" or "value"."""
        ch = self._peek()
        return {"{": "object", "[": "array", '"': "string", "": "end"}.get(ch, "value")

    def value(self) -> Any:
        """The next whole value (at most ``max_value`` characters of the file)."""
        if not self._peek():
            raise JsonError(
                f"expecting a value at {self.where()}, found the end of the file", syntax=True
            )
        while True:
            try:
                value, end = self._json.raw_decode(self._buf, self._pos)
            except json.JSONDecodeError as exc:
                if self._grow():
                    continue
                at = " " if exc.msg.endswith(" at") else " at "  # "Unterminated string starting at"
                raise JsonError(f"{exc.msg}{at}{self.where(exc.pos)}", syntax=True) from None
            except RecursionError:
                raise JsonError(f"it is nested too deeply (at {self.where()})") from None
            except JsonError as exc:  # a number or constant refused by the hooks below
                raise JsonError(f"{exc.message} (in the value at {self.where()})") from None
            if end >= len(self._buf) and self._grow():  # a number may go on in the next chunk
                continue
            self._pos = end
            return value

    def _grow(self) -> bool:
        """Read more for a value not yet whole; False at the end of the file. Refuses a value
        larger than ``max_value``."""
        if len(self._buf) - self._pos > self.max_value:
            raise JsonError(
                f"it holds a single value larger than {self.max_value:,} characters "
                f"(at {self.where()})"
            )
        return self._fill()

    def items(self) -> Iterator[str]:
        """An object's keys, in the file's order; the caller reads each one's value (with
        ``value()``, ``items()``, ``elements()`` or ``skip()``) before asking for the next."""
        self._expect("{", "an object")
        self._enter()
        if self._peek() == "}":
            self._pos += 1
            self._depth -= 1
            return
        while True:
            if self.kind() != "string":
                self._expect('"', "a key in double quotes")
            key = self.value()
            self._expect(":", "':'")
            yield key
            if self._expect(",}", "',' or '}'") == "}":
                self._depth -= 1
                return

    def elements(self) -> Iterator[int]:
        """An array's positions; the caller reads each element before asking for the next."""
        self._expect("[", "a list")
        self._enter()
        if self._peek() == "]":
            self._pos += 1
            self._depth -= 1
            return
        i = 0
        while True:
            yield i
            i += 1
            if self._expect(",]", "',' or ']'") == "]":
                self._depth -= 1
                return

    def _enter(self) -> None:
        self._depth += 1
        if self._depth > self.max_depth:
            raise JsonError(
                f"it is nested more than {self.max_depth} levels deep (at {self.where()})"
            )

    def skip(self) -> None:
        """Read past the next value without keeping it (a large one too, piece by piece)."""
        kind = self.kind()
        if kind == "object":
            for _ in self.items():
                self.skip()
        elif kind == "array":
            for _ in self.elements():
                self.skip()
        else:
            self.value()

    def end(self) -> None:
        """Only whitespace may follow the document."""
        if self._peek():
            raise JsonError(
                f"it goes on after the JSON document ends (at {self.where()})", syntax=True
            )
