"""tatlock.regexcache: patterns built from the stored compiled code are the ones ``re.compile``
makes (every rule the pipeline and the fact extractor have), and a cache that is missing,
foreign, damaged or unwritable changes nothing but speed."""

from __future__ import annotations

import importlib
import marshal
import re
import sys

import pytest

from tatlock import regexcache
from tatlock.memory import fact_table
from tatlock.pipeline import rulebook
from tatlock.pipeline.lexicon import expand


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """The module with its cache file in tmp_path and nothing loaded; bytecode writing on."""
    path = tmp_path / "__pycache__" / "regex.test.marshal"
    monkeypatch.setattr(regexcache, "CACHE_FILE", path)
    monkeypatch.setattr(regexcache, "_loaded", None)
    monkeypatch.setattr(regexcache, "_new", {})
    monkeypatch.setattr(regexcache, "_hooked", True)  # no atexit hook from a test
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    return path


def _fresh(monkeypatch) -> None:
    """As a new process: nothing loaded, nothing new."""
    monkeypatch.setattr(regexcache, "_loaded", None)
    monkeypatch.setattr(regexcache, "_new", {})


def _count_compiles(monkeypatch) -> list[str]:
    seen: list[str] = []
    compiler = importlib.import_module("re._compiler")
    real = compiler.compile

    def counting(p, flags=0):
        seen.append(p)
        return real(p, flags)

    monkeypatch.setattr(compiler, "compile", counting)
    re.purge()  # re's own per-process cache would hide a compile
    return seen


def _every_pattern() -> list[tuple[str, int]]:
    for module in rulebook.MODULES:
        importlib.import_module(module)
    out = [
        (expand(rule.pattern), int(rule.flags)) for book in rulebook.BOOKS.values() for rule in book
    ]
    out += [(p, int(re.I)) for _, p, _ in fact_table.RULES]
    return out


def test_every_rule_built_from_the_cache_is_the_pattern_re_compiles(cache, monkeypatch):
    patterns = _every_pattern()
    assert len(patterns) > 300
    first = [regexcache.compile(p, f) for p, f in patterns]
    assert regexcache.save() and cache.exists()
    _fresh(monkeypatch)
    compiles = _count_compiles(monkeypatch)
    again = [regexcache.compile(p, f) for p, f in patterns]
    assert compiles == []  # every one came from the stored code, none was compiled
    for (p, f), a, b in zip(patterns, first, again, strict=True):
        # a Pattern equals another with the same source, flags and compiled code
        assert a == b == re.compile(p, f), p
        assert (b.groups, b.groupindex, b.flags) == (a.groups, a.groupindex, a.flags)


def test_a_cached_pattern_matches_as_re_compile_s_does(cache, monkeypatch):
    pattern = r"(?P<who>my (?:wife|husband)) (?:is called|'s) (?P<name>[A-Z]\w+)"
    regexcache.compile(pattern, re.I)
    regexcache.save()
    _fresh(monkeypatch)
    m = regexcache.compile(pattern, re.I).search("Well, MY WIFE is called Harriet.")
    assert m and m.group("name") == "Harriet" and m.groupdict()["who"] == "MY WIFE"


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"not marshal at all",
        marshal.dumps(("another-python", {})),
        marshal.dumps((regexcache.TAG, {("a", 0): (0, b"\xff\xff", 0, {}, (None,))})),
        marshal.dumps((regexcache.TAG, {("a", 0): (32, b"\xff" * 8, 0, {}, (None,))})),
    ],
)
def test_a_missing_foreign_or_damaged_cache_changes_nothing(cache, monkeypatch, content):
    cache.parent.mkdir()
    cache.write_bytes(content)
    compiles = _count_compiles(monkeypatch)
    assert regexcache.compile("a", 0) == re.compile("a") and regexcache.compile("a", 0).match("a")
    assert compiles  # compiled as usual


def test_an_unwritable_folder_or_no_bytecode_stores_nothing_and_raises_nothing(
    cache, monkeypatch, tmp_path
):
    blocked = tmp_path / "file"
    blocked.write_text("")
    monkeypatch.setattr(regexcache, "CACHE_FILE", blocked / "regex.marshal")  # its folder is a file
    assert regexcache.compile(r"\bx+\b", 0).search("a xx b")
    assert regexcache.save() is False
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    regexcache.compile(r"\by+\b", 0)
    assert regexcache._new == {}
