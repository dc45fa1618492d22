"""Regular expressions compiled once per install, not once per process.

The pipeline's rules and the fact extractor are some 400 patterns, and a message reaches most of
them (every guard and tool rule is tried on it, every gate check on its answer). Python's ``re``
compiles a pattern in Python code (parse, then code generation): for these, about 80 ms of CPU
in every ``tatlock ask``, more than any other single step of a one-shot question. What the
compiler produces is a list of integers that the C engine (``_sre``) turns into a pattern in
microseconds, so, as Python keeps byte-compiled modules in ``__pycache__``, this module keeps
each pattern's compiled code there too (``__pycache__/regex.<python tag>.marshal`` beside the
package) and builds patterns from it.

Safety: the file's tag names the Python build and its regex engine's version (a file from any
other is ignored); a pattern is stored only after the one built from the stored code compared
equal (pattern, flags and code) to ``re.compile``'s own, so a Python whose compiler works
otherwise stores nothing and runs as without the cache; anything unreadable is ignored. The file
is written when a process compiled something new, at its exit, where the package's folder is
writable and Python writes bytecode (not under ``PYTHONDONTWRITEBYTECODE``); otherwise patterns
compile as usual.
"""

from __future__ import annotations

import atexit
import marshal
import os
import re
import sys
import threading
from array import array
from pathlib import Path
from typing import Any

__all__ = ["compile", "save"]

_compiler: Any
_parser: Any
try:  # the regex engine's own module and its compiler's stages: CPython's, present since 3.11
    import _sre
    import importlib

    _compiler, _parser = (
        importlib.import_module("re._compiler"),
        importlib.import_module("re._parser"),
    )
    TAG = f"{sys.implementation.cache_tag}-{sys.hexversion:x}-sre{_sre.MAGIC}-{_sre.CODESIZE}"
    if (
        array("I").itemsize != _sre.CODESIZE
    ):  # pragma: no cover - the code is stored as unsigned ints of its size
        TAG = ""
except (ImportError, AttributeError):  # pragma: no cover - another Python: no cache, plain re
    _sre = _compiler = _parser = None
    TAG = ""

CACHE_FILE = (
    Path(__file__).resolve().parent
    / "__pycache__"
    / f"regex.{sys.implementation.cache_tag}.marshal"
)

Key = tuple[str, int]
# the code as machine ints: a read, not a parse
Entry = tuple[int, bytes, int, dict[str, int], tuple[str | None, ...]]

_lock = threading.Lock()
_loaded: dict[Key, Entry] | None = None
_new: dict[Key, Entry] = {}
_hooked = False


def _read(path: Path) -> dict[Key, Entry]:
    try:
        tag, entries = marshal.loads(path.read_bytes())
    except (OSError, ValueError, EOFError, TypeError):
        return {}
    return entries if tag == TAG and isinstance(entries, dict) else {}


def _entries() -> dict[Key, Entry]:
    global _loaded
    if _loaded is None:
        with _lock:
            if _loaded is None:
                _loaded = _read(CACHE_FILE) if TAG else {}
    return _loaded


def _stage(pattern: str, flags: int) -> Entry:
    """What ``re``'s compiler hands the engine for ``pattern`` (its ``compile``, step by step)."""
    parsed = _parser.parse(pattern, flags)
    code = _compiler._code(parsed, flags)
    groupindex = dict(parsed.state.groupdict)
    indexgroup: list[str | None] = [None] * parsed.state.groups
    for name, i in groupindex.items():
        indexgroup[i] = name
    return (
        int(flags | parsed.state.flags),
        array("I", code).tobytes(),
        int(parsed.state.groups - 1),
        {str(k): int(v) for k, v in groupindex.items()},
        tuple(indexgroup),
    )


def _build(pattern: str, entry: Entry) -> re.Pattern[str]:
    final, code, groups, groupindex, indexgroup = entry
    built: re.Pattern[str] = _sre.compile(
        pattern, final, array("I", code).tolist(), groups, groupindex, indexgroup
    )
    return built


def compile(pattern: str, flags: int | re.RegexFlag = 0) -> re.Pattern[str]:
    """``re.compile(pattern, flags)``, from the stored code when this install has compiled it
    before."""
    flags = int(flags)
    key = (pattern, flags)
    entry = _entries().get(key) if TAG else None
    if entry is not None:
        try:
            return _build(pattern, entry)
        except Exception:
            pass
    compiled = re.compile(pattern, flags)
    if TAG and not sys.dont_write_bytecode:
        try:
            staged = _stage(pattern, flags)
            if _build(pattern, staged) == compiled:  # equal code: the stored form is what re makes
                with _lock:
                    _new[key] = staged
                _hook()
        except Exception:
            pass
    return compiled


def _hook() -> None:
    global _hooked
    if not _hooked:
        _hooked = True
        atexit.register(save)


def save(path: Path | None = None) -> bool:
    """Write what this process compiled anew beside what was stored (atomically: a temporary file
    renamed over the old one). True when written; False when nothing was new or the folder is not
    writable (patterns then compile as usual, next time too)."""
    path = path or CACHE_FILE
    with _lock:
        if not _new:
            return False
        merged: dict[Key, Any] = {**_read(path), **(_loaded or {}), **_new}
        _new.clear()
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(exist_ok=True)
        tmp.write_bytes(marshal.dumps((TAG, merged)))
        os.replace(tmp, path)
    except (OSError, ValueError):  # not writable; or a value marshal cannot store (nothing is kept)
        try:
            tmp.unlink(missing_ok=True)
        except OSError:
            pass
        return False
    return True
