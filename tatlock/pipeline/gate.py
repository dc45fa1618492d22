"""Phase 5, the quality gate as a step of the turn: what the gate is told, its check of a
streamed answer, one repair with only the facts the failed check calls for, the model check
when the rules are unsure, and the typed fallback.

What the user sees goes through a ``StreamGate`` while the answer streams (see
quality.py / streamgate.py): the text that could still fail is held back, so a withdrawn
answer is never shown, only replaced.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tatlock import prompts
from tatlock.events import QualityVerdict
from tatlock.pipeline import facts as facts_mod
from tatlock.pipeline import budget, quality
from tatlock.pipeline.phases import MAX_TOKENS, Phase, chat
from tatlock.pipeline.respond import respond
from tatlock.pipeline.streamgate import StreamGate

# tokens closer together than this are gate-checked in batches (see StreamGate): a local model's
# tokens come tens of milliseconds apart and are each checked at once
STREAM_PACE = 0.004

if TYPE_CHECKING:  # pragma: no cover
    from tatlock.pipeline.turn import Plan, TurnRunner


@dataclass
class Brief:
    """What the gate knows about the answer it judges."""

    question: str
    persona: str
    secrets: tuple[str, ...]
    prompt_text: str = ""  # the answering phase's own instructions (its system prompt without the persona)
    facts: list[facts_mod.Fact] = field(default_factory=list)  # the guard facts the model was given
    tool_findings: list[str] = field(default_factory=list)  # "Result of tool(...): ..." lines
    guard_parts: tuple[str, ...] = ()
    other_part: str = ""

    @property
    def findings(self) -> list[str]:
        return facts_mod.data(self.facts) + self.tool_findings

    @property
    def instructions(self) -> str:
        return facts_mod.instructions(self.facts)

    def stream_gate(self) -> StreamGate:
        return StreamGate(question=self.question, persona_text=self.persona, instructions=self.instructions,
                          prompt_text=self.prompt_text, findings=self.findings, secrets=self.secrets, pace=STREAM_PACE)

    def check(self, answer: str, **changes: Any) -> quality.Verdict:
        b = Brief(**{**self.__dict__, **changes})
        return quality.check(answer, question=b.question, persona_text=b.persona, secrets=b.secrets,
                             instructions=b.instructions, prompt_text=b.prompt_text, findings=b.findings,
                             guard_parts=b.guard_parts, other_part=b.other_part)


def judge(run: "TurnRunner", answer: str, verdict: quality.Verdict | None, plan: "Plan", brief: Brief, *,
          persona: str, turn_vars: dict[str, Any], now: dt.datetime, categories: list[str]
          ) -> tuple[str, quality.Verdict]:
    """The answer that stands and its verdict. ``verdict`` is the stream gate's, if the answer
    streamed through one."""
    p = Phase("quality", run.emit)
    v = verdict or brief.check(answer)
    by_model = False
    repair = quality.repair_for(v, question=brief.question) if v.verdict == "FALLBACK" else None
    if repair is not None and run.model_calls() < run.call_limit(plan.route):
        # one second attempt, told only what the failed check calls for
        run.phases.append(p.finish(verdict="REPAIR", checks=v.checks))
        added = facts_mod.for_kinds(repair.facts, now=now, categories=categories)
        findings = facts_mod.lines(added) + (brief.tool_findings if repair.findings else [])
        # the question as the first answer read it (cut to its share), or the masked one, cut alike
        question = turn_vars["question"] if repair.question == brief.question and not run.req.material else \
            budget.question(run.env, repair.question, None, run.env.window().size, None)
        repaired, _ = respond(run.env, run.emit, persona=persona, turn_vars={**turn_vars, "question": question},
                              findings=findings, phases=run.phases, cancel=run.cancel, show=None, name="repair")
        v2 = brief.check(repaired, facts=brief.facts + added, prompt_text=prompts.render("respond.txt", persona=""))
        p = Phase("quality", run.emit)
        if v2.verdict != "FALLBACK":
            run.replace(repaired, "; ".join(v.checks))
            answer, v = repaired, v2
        else:  # the first failure says what the user is told (a leak stays NOT_ALLOWED)
            v = quality.Verdict("FALLBACK", v.fallback_type, v.checks + v2.checks, v.failed, v.repair)
    if v.verdict == "UNSURE":
        if run.model_calls(skip=("cross_summary", "run_tools")) < run.call_limit(plan.route):
            by_model = True
            concerns = "; ".join(v.checks)
            q, a = budget.quality_parts(run.env, brief.question, answer, concerns, MAX_TOKENS["quality"])
            r = chat(run.env, p, [{"role": "user", "content": prompts.render(
                "quality.txt", question=q, answer=a, concerns=concerns)}],
                cancel=run.cancel, schema=quality.QUALITY_SCHEMA, temperature=0.0, max_tokens=MAX_TOKENS["quality"])
            kind, fallback = quality.parse_model_verdict(r.content)
            v = quality.Verdict(kind, fallback, v.checks)
        else:  # no call left in this route's budget: soft doubts do not block a reply
            v = quality.Verdict("APPROVED", None, v.checks)
    run.emit(QualityVerdict(v.verdict, v.fallback_type, v.checks, by_model))
    run.phases.append(p.finish(verdict=v.label))
    if v.verdict == "FALLBACK":
        reply = quality.fallback_reply(v.fallback_type or "RETRY")
        run.replace(reply, "; ".join(v.checks) or v.label)
        return reply, v
    return answer, v
