"""What the gate judges an answer against: a narrow brief, not the turn that made it.

``Brief`` holds the question, the persona, the secrets, the answering phase's own prompt, the
guard facts (``facts.Fact``: data the answer may repeat apart from instructions it must not),
every tool's result as a ``Finding`` (the tool, its arguments and its result as the tool
returned it, not only as text), the clock the butler was given, what was told earlier, and
for a guard the parts the answer must cover. ``Context`` is what the checks read of a brief,
worked out once per answer (the stream gate keeps one for the whole stream).
"""

from __future__ import annotations

import ast
import datetime as dt
import json
import re
from dataclasses import dataclass, field
from typing import Any

from tatlock.pipeline import facts as facts_mod
from tatlock.pipeline.gate import clock, secrets
from tatlock.pipeline.rulebook import lazy

__all__ = ["Brief", "Context", "Finding"]

_RESULT_LINE = lazy(r"^Result of (\w+)\((.*?)\): (.*)$", re.S)
_ARG = lazy(r"(\w+)=('(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|[-\w.]+)")


@dataclass(frozen=True)
class Finding:
    """One tool's result: ``data`` is what the tool returned (a dict for every built-in tool),
    ``text`` how the model saw it."""

    tool: str
    args: dict[str, Any] = field(default_factory=dict)
    data: Any = None
    text: str = ""

    @classmethod
    def of(cls, tool: str, args: dict[str, Any] | None, result: Any) -> Finding:
        text = (
            result
            if isinstance(result, str)
            else json.dumps(result, ensure_ascii=False, default=str)
        )
        data = result
        if isinstance(result, str):
            try:
                data = json.loads(result)
            except ValueError:
                data = None
        return cls(tool, dict(args or {}), data, text)

    @classmethod
    def from_run(cls, run: Any) -> Finding:
        """From a tool run of the pipeline (``tools.ToolRun``: name, arguments, result)."""
        return cls.of(run.name, run.arguments, run.result)

    @classmethod
    def from_line(cls, line: str) -> Finding | None:
        """From a findings line as the respond phase shows it: "Result of tool(args): {...}"."""
        m = _RESULT_LINE.match(line.strip())
        if not m:
            return None
        args: dict[str, Any] = {}
        for k, v in _ARG.findall(m.group(2)):
            try:
                args[k] = ast.literal_eval(v)
            except (ValueError, SyntaxError):
                args[k] = v
        return cls.of(m.group(1), args, m.group(3))

    @property
    def status(self) -> str:
        """ "ok", "empty" (it ran and found nothing) or "error"."""
        d = self.data
        if isinstance(d, dict):
            if "error" in d:
                return "error"
            if (
                d.get("count") == 0
                or d.get("results") == []
                or ("value" in d and d.get("value") is None)
            ):
                return "empty"
            return "ok"
        return "error" if ('"error"' in self.text or "'error'" in self.text) else "ok"

    @property
    def error(self) -> str:
        d = self.data
        return (
            str(d.get("error", ""))
            if isinstance(d, dict)
            else (self.text if self.status == "error" else "")
        )

    @property
    def line(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.args.items())
        return f"Result of {self.tool}({args}): {self.text}"


@dataclass
class Brief:
    """What the gate is told about the answer it judges."""

    question: str
    persona: str = ""
    secrets: tuple[str, ...] = ()
    # the answering phase's own instructions (its system prompt without the persona)
    prompt_text: str = ""
    # guard or repair facts the model was given
    facts: list[facts_mod.Fact] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)  # every tool's result
    clock: dt.datetime | None = None  # the clock the butler was given (every prompt carries it)
    guard_parts: tuple[str, ...] = ()  # the guards the answer must satisfy
    other_part: str = ""  # a MIXED question's general part
    told: tuple[str, ...] = ()  # what the user told earlier (this conversation, kept facts)

    @classmethod
    def of(
        cls,
        question: str = "",
        *,
        persona_text: str = "",
        instructions: str = "",
        findings: list[str] | tuple[str, ...] = (),
        **kw: Any,
    ) -> Brief:
        """A brief from the text the model saw: findings lines ("Result of tool(args): ..." for a
        tool, any other line a data fact) and the instructions as one text."""
        found, data = [], []
        for line in findings:
            f = Finding.from_line(line)
            if f is not None:
                found.append(f)
            else:
                data.append(facts_mod.Fact("DATA", line, False))
        rules = [
            facts_mod.Fact("RULE", line, True) for line in instructions.splitlines() if line.strip()
        ]
        return cls(question, persona=persona_text, facts=data + rules, findings=found, **kw)

    @property
    def lines(self) -> list[str]:
        """The data facts and the tools' results, as the answering phase was shown them."""
        return facts_mod.data(self.facts) + [f.line for f in self.findings]

    @property
    def instructions(self) -> str:
        return facts_mod.instructions(self.facts)

    def context(self) -> Context:
        return Context(self)


_SECRET_WORDS = {"something", "secret"}
_PERSONA_NAME = lazy(r"\byou\s+are\s+([A-Z][a-z]+)\b")


class Context:
    """What the checks read of a brief, worked out once per answer."""

    def __init__(self, brief: Brief):
        self.brief = brief
        self.question = brief.question
        self.persona_text = brief.persona
        self.instructions = brief.instructions
        self.prompt_text = brief.prompt_text
        self.findings = brief.findings
        self.lines = brief.lines
        self.allowed = "\n".join((brief.question, *self.lines, *brief.told))
        self.asked_secrets = tuple(secrets.secret_values(brief.question))
        self.found_secrets = tuple(
            v for v in secrets.secret_values(*self.lines) if v not in self.asked_secrets
        )
        self.configured = tuple(s for s in brief.secrets if s and len(s) >= 6)
        m = _PERSONA_NAME.search(brief.persona)
        self.persona_name = m.group(1) if m else "Tatlock"
        # the clock: a clock fact (a TEMPORAL guard), the clock tool's result, or the one every
        # prompt carries
        told = clock.clock_in(facts_mod.data(brief.facts))
        by_tool = clock.clock_in(
            [f.text for f in brief.findings if f.tool == "get_current_datetime"]
        )
        self.clock_tool = by_tool is not None
        self.clock = told or by_tool or (clock.of(brief.clock) if brief.clock else None)
        answered = [f for f in brief.findings if f.status != "error"]
        parts = brief.guard_parts
        # a question of several parts: the answer must answer each (a repair is told so)
        self.mixed = len(parts) > 1 or bool(brief.other_part) or (bool(parts) and bool(answered))
        self.parts_fact: tuple[str, ...] = ("PARTS",) if self.mixed else ()

    def tools(self, status: str | None = None) -> list[Finding]:
        return [f for f in self.findings if status is None or f.status == status]
