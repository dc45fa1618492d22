"""The gate judged from the text a model saw: keyword arguments as ``gate.Brief.of`` takes them
(question, persona_text, instructions, findings lines, secrets, prompt_text, guard_parts,
other_part, clock, told)."""

from __future__ import annotations

from typing import Any

from tatlock.pipeline import gate


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
