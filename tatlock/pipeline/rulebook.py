"""Rules as data: every regular expression the pipeline decides with is a ``Rule`` that carries
the messages it must match and the near misses it must not.

A rule that no example exercises does not exist: ``tests/unit/test_rulebook.py`` runs every rule of
every registered ``Rulebook`` against its own examples and near misses, so a rule that stops
matching, or starts to over-match, fails by its id. Patterns are compiled on first use, so
importing a rulebook costs nothing and a message pays only for the rules it reaches; and they are
compiled once per install, not per process (``tatlock.regexcache``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from tatlock import regexcache
from tatlock.pipeline.lexicon import expand

__all__ = ["BOOKS", "MODULES", "Lazy", "Rule", "Rulebook", "lazy"]

# the modules that define rulebooks: importing them registers their books in BOOKS (the examples
# test imports every one; a module that defines a rulebook is listed here)
MODULES: tuple[str, ...] = (
    # the routing engine (pipeline/routing)
    "tatlock.pipeline.routing.guard_rules",
    "tatlock.pipeline.routing.needs",
    "tatlock.pipeline.routing.wording",
    # the quality gate's checks (pipeline/gate)
    "tatlock.pipeline.gate.almanac",
    "tatlock.pipeline.gate.answers",
    "tatlock.pipeline.gate.checks",
    "tatlock.pipeline.gate.claims",
    "tatlock.pipeline.gate.clock",
    "tatlock.pipeline.gate.compute",
    "tatlock.pipeline.gate.forecast",
    "tatlock.pipeline.gate.grounded",
    "tatlock.pipeline.gate.identity",
    "tatlock.pipeline.gate.knowledge",
    "tatlock.pipeline.gate.leaks",
    "tatlock.pipeline.gate.machine",
    "tatlock.pipeline.gate.reference",
    "tatlock.pipeline.gate.secrets",
    "tatlock.pipeline.gate.text",
    # what a question asks for (one reader: compose and the gate's answers checks)
    "tatlock.pipeline.asks",
    # answers composed from the facts in hand (what a question asks for)
    "tatlock.pipeline.compose",
)


@dataclass(eq=False)
class Rule:
    """One named pattern. ``label`` is what a match decides (a guard such as "IDENTITY", a tool
    need such as "weather", a gate check's name); ``pattern`` may use the lexicon's ``{names}``."""

    id: str
    label: str
    pattern: str
    examples: tuple[str, ...]
    near_misses: tuple[str, ...] = ()
    flags: int = re.IGNORECASE
    note: str = ""
    _compiled: re.Pattern[str] | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        if not self.examples:
            raise ValueError(
                f"rule {self.id!r} has no example: a rule no example exercises does not exist"
            )

    @property
    def regex(self) -> re.Pattern[str]:
        compiled = self._compiled
        if compiled is None:
            compiled = self._compiled = regexcache.compile(expand(self.pattern), self.flags)
        return compiled

    def search(self, text: str) -> re.Match[str] | None:
        return self.regex.search(text)


class Lazy:
    """A pattern that is not a rule (a tokenizer, a parser of a tool's line) compiled on first
    use, so importing its module compiles nothing; it answers as the compiled pattern does."""

    __slots__ = ("_compiled", "flags", "pattern")

    def __init__(self, pattern: str, flags: int = 0):
        self.pattern, self.flags = pattern, flags
        self._compiled: re.Pattern[str] | None = None

    @property
    def compiled(self) -> re.Pattern[str]:
        if self._compiled is None:
            self._compiled = regexcache.compile(self.pattern, self.flags)
        return self._compiled

    def __getattr__(self, name: str) -> Any:
        return getattr(self.compiled, name)


def lazy(pattern: str, flags: int = 0) -> Lazy:
    return Lazy(pattern, flags)


class Rulebook:
    """An ordered, named collection of rules (one per engine or per gate check family)."""

    def __init__(self, name: str, rules: list[Rule] | tuple[Rule, ...] = ()):
        self.name = name
        self._rules: list[Rule] = []
        self._ids: set[str] = set()
        for rule in rules:
            self.add(rule)
        BOOKS[name] = self

    def add(self, rule: Rule) -> Rule:
        if rule.id in self._ids:
            raise ValueError(f"rulebook {self.name!r}: rule id {rule.id!r} is used twice")
        self._ids.add(rule.id)
        self._rules.append(rule)
        return rule

    def __iter__(self) -> Iterator[Rule]:
        return iter(self._rules)

    def __len__(self) -> int:
        return len(self._rules)

    def labelled(self, label: str) -> list[Rule]:
        return [r for r in self._rules if r.label == label]

    def first(self, text: str, label: str | None = None) -> Rule | None:
        """The first rule (in order) that matches ``text``, among ``label``'s if given."""
        for rule in self._rules:
            if (label is None or rule.label == label) and rule.search(text):
                return rule
        return None

    def matches(self, text: str) -> list[Rule]:
        return [r for r in self._rules if r.search(text)]


# every rulebook made, by name: the registry the examples test walks (a rulebook registers
# itself when its module is imported; the test imports the modules that define them)
BOOKS: dict[str, Rulebook] = {}
