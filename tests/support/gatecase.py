"""The gate judged from the text a model saw: keyword arguments as ``gate.Brief.of`` takes them
(question, persona_text, instructions, findings lines, secrets, prompt_text, guard_parts,
other_part, clock, told)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from tatlock import prompts
from tatlock.pipeline import facts, gate


def judge(answer: str, **kw: Any) -> gate.Verdict:
    return gate.check(answer, gate.Brief.of(**kw))


def stream(**kw: Any) -> gate.StreamGate:
    pace = kw.pop("pace", 0.0)
    hold = kw.pop("hold", None)
    brief = gate.Brief.of(**kw)
    return (
        gate.StreamGate(brief, pace=pace)
        if hold is None
        else gate.StreamGate(brief, pace=pace, hold=hold)
    )


PERSONA = "\n".join(prompts.paragraphs("persona.txt"))


def verdict(
    answer: str,
    question: str,
    *,
    now: dt.datetime,
    guard: str | None = None,
    tools: Any = (),
    told: Any = (),
) -> gate.Verdict:
    """The gate's verdict on an answer given the default persona, the clock ``now``, a guard's
    facts, tool results as (tool, arguments, result) and what the user told."""
    fs = (
        facts.for_guard(
            (guard,), guard, now=now, categories=["memory", "system", "time", "weather"]
        )
        if guard
        else []
    )
    brief = gate.Brief(
        question,
        persona=PERSONA,
        facts=fs,
        clock=now,
        guard_parts=(guard,) if guard else (),
        findings=[gate.Finding.of(t, a, r) for t, a, r in tools],
        told=tuple(told),
    )
    return gate.check(answer, brief)


def withdrawn(answer: str, question: str, **kw: Any) -> bool:
    return verdict(answer, question, **kw).verdict == "FALLBACK"
