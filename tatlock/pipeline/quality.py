"""Phase 5, quality: the gate's verdict acted on. One repair told only the facts the failed
check calls for, the model check when the rules are unsure, and the typed fallback.

What the user sees goes through a ``gate.StreamGate`` while the answer streams: the text that
could still fail is held back, so a withdrawn answer is never shown, only replaced. The gate
judges (``pipeline/gate``); this phase is the part that calls the model and speaks to the turn,
through the narrow ``Host`` below rather than the turn runner itself.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, Protocol

from tatlock import prompts
from tatlock.events import Event, QualityVerdict
from tatlock.llm.base import Cancel
from tatlock.pipeline import budget, carried, compose, gate, voice
from tatlock.pipeline import facts as facts_mod
from tatlock.pipeline.gate.checks import known_answer
from tatlock.pipeline.phases import MAX_TOKENS, Phase, TurnEnv, chat
from tatlock.pipeline.respond import respond
from tatlock.tools.base import ToolContext
from tatlock.tools.system import get_system_info

# tokens closer together than this are gate-checked in batches (see StreamGate): a local model's
# tokens come tens of milliseconds apart and are each checked at once
STREAM_PACE = 0.004


class Host(Protocol):
    """What the quality phase needs of the turn: the model, where events and phases go, the
    call budget, and how to replace what the user was shown."""

    env: TurnEnv
    emit: Callable[[Event], None]
    phases: list[dict[str, Any]]
    cancel: Cancel

    def model_calls(self, skip: tuple[str, ...] = ...) -> int: ...

    def call_limit(self, route: str) -> int: ...

    def replace(self, text: str, reason: str) -> None: ...


def _with_report(brief: gate.Brief) -> gate.Brief:
    """The brief with this computer's report in it: like the clock, the butler holds it without a
    model call, so a question about this machine that the route sent nowhere is answered from it
    (and an answer with invented numbers is not approved)."""
    if any(f.tool == "get_system_info" for f in brief.findings):
        return brief
    report = get_system_info(ctx=ToolContext(username=""))
    return dataclasses.replace(
        brief, findings=[*brief.findings, gate.Finding.of("get_system_info", {}, report)]
    )


def stream_gate(brief: gate.Brief) -> gate.StreamGate:
    return gate.StreamGate(brief, pace=STREAM_PACE)


def judge(
    host: Host,
    answer: str,
    verdict: gate.Verdict | None,
    route: str,
    brief: gate.Brief,
    *,
    persona: str,
    turn_vars: dict[str, Any],
    categories: list[str],
) -> tuple[str, gate.Verdict]:
    """The answer that stands and its verdict. ``verdict`` is the stream gate's, if the answer
    streamed through one."""
    p = Phase("quality", host.emit)
    v = verdict or gate.check(answer, brief)
    if v.text is not None:  # the gate cut an unfinished end off: the rest stands
        answer = v.text
    by_model = False
    if v.verdict != "FALLBACK":
        held = known_answer(brief.question)
        if held is not None and not carried.says_held(answer, held):
            # the gate holds the answer (a capital, a count, a sum) and this one does not say it
            # ("Howdy! I'm not here to help with questions" to "how many legs has a spider?")
            v = gate.Verdict(
                "FALLBACK",
                "I_DONT_KNOW",
                [*v.checks, "the answer does not say what the gate holds"],
                "held",
                known=held,
            )
    if v.verdict == "FALLBACK" and v.known:
        # the gate holds the right answer itself (a capital, a symbol, a sum it worked out): that
        # is said, rather than an apology or a second try that may be wrong again
        said = voice.in_voice(v.known, voice.address(persona))
        v = gate.Verdict("APPROVED", None, [*v.checks, "answered from what the gate holds"])
        host.replace(said, "; ".join(v.checks))
        for x in host.phases:
            x.pop("cut_short", None)
        host.emit(QualityVerdict(v.verdict, v.fallback_type, v.checks, False))
        host.phases.append(p.finish(verdict=v.label, composed=["gate"]))
        return said, v
    if "system" in categories and compose.asks_this_machine(brief.question):
        brief = _with_report(brief)
    # the facts in hand that answer the question (the clock, the butler's name, the system
    # report, a line the user said...): an answer to such a question must carry them, and one
    # that fails is answered from them rather than with an apology (pipeline/compose.py)
    known = compose.compose(
        brief.question,
        brief,
        memory=str(turn_vars.get("memory") or ""),
        categories=tuple(categories),
    )
    denied = (
        compose.denied_ability(answer, brief.question, tuple(categories))
        if v.verdict != "FALLBACK"
        else None
    )
    if denied is not None:
        # it denied an ability its tools give, asked about by name: what it can do is the answer
        v = gate.Verdict(
            "FALLBACK",
            "I_DONT_KNOW",
            [*v.checks, f"the reply denies what the butler can do ({denied})"],
            "denies",
        )
        known = compose.abilities_answer(brief, tuple(categories))
    if (
        known is None
        and v.verdict == "FALLBACK"
        and v.fallback_type != "NOT_ALLOWED"
        and compose.asks_ability(brief.question, tuple(categories))
    ):
        # "could you read a file?" answered with nothing that stands: what it can do answers it
        known = compose.abilities_answer(brief, tuple(categories))
    if (
        known is not None
        and v.verdict != "FALLBACK"
        and known.asked
        and not known.carried_by(answer, brief.question)
    ):
        v = gate.Verdict(
            "FALLBACK",
            "I_DONT_KNOW",
            [
                *v.checks,
                "the answer does not carry the fact asked for (" + ", ".join(known.kinds) + ")",
            ],
            "carries",
        )
    # a secret repeated stays withdrawn with a refusal; the model repeating its own instructions
    # (a leak) is no reason to withhold the facts the question asked for
    if (
        known is not None
        and v.verdict == "FALLBACK"
        and (v.fallback_type != "NOT_ALLOWED" or (v.failed == "leak" and known.asked))
    ):
        v = gate.Verdict(
            "APPROVED",
            None,
            [*v.checks, "answered from the facts in hand: " + ", ".join(known.kinds)],
        )
        host.replace(known.text, "; ".join(v.checks))
        # the composed answer is whole, whatever length the model's stopped at
        for x in host.phases:
            x.pop("cut_short", None)
        host.emit(QualityVerdict(v.verdict, v.fallback_type, v.checks, False))
        host.phases.append(p.finish(verdict=v.label, composed=list(known.kinds)))
        return known.text, v
    if known is not None and v.verdict == "UNSURE" and known.asked:
        # the rules' doubts are soft and the answer carries the fact asked for: no model check
        v = gate.Verdict("APPROVED", None, [*v.checks, "carries the fact asked for"])
    repair = gate.repair_for(v, question=brief.question) if v.verdict == "FALLBACK" else None
    if repair is not None and host.model_calls() < host.call_limit(route):
        # one second attempt, told only what the failed check calls for
        host.phases.append(p.finish(verdict="REPAIR", checks=v.checks))
        added = facts_mod.for_kinds(repair.facts, now=brief.clock, categories=categories)
        findings = facts_mod.lines(added) + (
            [f.line for f in brief.findings] if repair.findings else []
        )
        # the repair's question is cut to its share of the window like the first answer's
        question = budget.question(host.env, repair.question, None, host.env.window().size, None)
        repaired, _ = respond(
            host.env,
            host.emit,
            persona=persona,
            turn_vars={**turn_vars, "question": question},
            findings=findings,
            phases=host.phases,
            cancel=host.cancel,
            show=None,
            name="repair",
        )
        v2 = gate.check(
            repaired,
            dataclasses.replace(
                brief,
                facts=brief.facts + added,
                prompt_text=prompts.render("respond.txt", persona=""),
            ),
        )
        repaired = v2.text if v2.text is not None else repaired
        p = Phase("quality", host.emit)
        if v2.verdict != "FALLBACK":
            host.replace(repaired, "; ".join(v.checks))
            answer, v = repaired, v2
        else:  # the first failure says what the user is told (a leak stays NOT_ALLOWED)
            v = gate.Verdict("FALLBACK", v.fallback_type, v.checks + v2.checks, v.failed, v.repair)
    if v.verdict == "UNSURE":
        if host.model_calls(skip=("cross_summary", "run_tools")) < host.call_limit(route):
            by_model = True
            concerns = "; ".join(v.checks)
            q, a = budget.quality_parts(
                host.env, brief.question, answer, concerns, MAX_TOKENS["quality"]
            )
            r = chat(
                host.env,
                p,
                [
                    {
                        "role": "user",
                        "content": prompts.render(
                            "quality.txt", question=q, answer=a, concerns=concerns
                        ),
                    }
                ],
                cancel=host.cancel,
                schema=gate.QUALITY_SCHEMA,
                temperature=0.0,
                max_tokens=MAX_TOKENS["quality"],
            )
            kind, fallback = gate.parse_model_verdict(r.content)
            v = gate.Verdict(kind, fallback, v.checks)
        else:  # no call left in this route's budget: soft doubts do not block a reply
            v = gate.Verdict("APPROVED", None, v.checks)
    host.emit(QualityVerdict(v.verdict, v.fallback_type, v.checks, by_model))
    host.phases.append(p.finish(verdict=v.label))
    if v.verdict == "FALLBACK":
        reply = gate.fallback_reply(v.fallback_type or "RETRY", persona)
        host.replace(reply, "; ".join(v.checks) or v.label)
        return reply, v
    return answer, v
