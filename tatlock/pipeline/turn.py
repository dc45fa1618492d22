"""One turn, step by step (see DESIGN.md, "Data flow of one message"):

1. ``store_question``: the user's message is stored (numbered in a BEGIN IMMEDIATE
   transaction) before any model call, so nothing is lost if the model fails;
2. ``briefing``: a new conversation gets the summary of the user's recent conversations;
3. ``assess``: Phase 1 (structured output, a direct answer streamed as it is generated) with
   the deterministic guard rules beside it, and ``route`` to decide;
4. ``answer``: Phases 2-3 (tools) and/or the guard path, then Phase 4 respond, where Phase 1's
   answer cannot stand;
5. ``gate``: Phase 5, the quality gate (rules first, the model only when unsure);
6. ``store_reply``: the reply with route, guard, tools, topics and timings.

Everything the user sees goes through ``show``/``replace``, so the runner always knows what
was shown: a cancelled turn stores exactly that, marked ``"cancelled": true``, and a turn
whose model fails mid-answer keeps the partial reply, marked with the failure.
"""

from __future__ import annotations

import datetime as dt
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from tatlock import prompts
from tatlock.errors import BackendError, TatlockError
from tatlock.events import (
    AnswerReplaced, AnswerToken, Decision, ErrorEvent, Event, GuardFired, MessageStored, Notice, QualityVerdict,
    TurnCancelled, TurnFinished,
)
from tatlock.llm.base import Cancel, Cancelled
from tatlock.memory import context as memory_context
from tatlock.pipeline import assess, guards, quality
from tatlock.pipeline import tools as tool_phase
from tatlock.pipeline.phases import MAX_TOKENS, CountingBackend, Phase, TurnEnv, chat
from tatlock.pipeline.respond import catalogue, guard_facts, respond, tz_label
from tatlock.pipeline.select import findings_of, run_tools
from tatlock.store.records import ToolSpec
from tatlock.store.user import Author, Conversation, Message
from tatlock.tools.base import TurnScope

MATERIAL_SHARE = 0.4  # of the context budget, for piped-in material
QUESTION_SHARE = 0.3  # of the context budget, for the message itself (the whole of it is stored)


@dataclass
class TurnRequest:
    conversation: Conversation
    is_new: bool
    text: str
    material: str | None
    author: Author


@dataclass
class Plan:
    """What Phase 1 and the rules decided."""

    route: str
    guard: str | None
    source: str
    rule: guards.GuardMatch | None
    assessment: assess.Assessment | None
    wanted: list[str] = field(default_factory=list)
    topics: list[str] = field(default_factory=list)


class TurnRunner:
    def __init__(self, env: TurnEnv, req: TurnRequest, emit: Callable[[Event], None], cancel: Cancel,
                 describe_image: Callable[[str, str], str] | None = None):
        self.env, self.req, self.emit, self.cancel = env, req, emit, cancel
        self.describe_image = describe_image
        self.t0 = time.perf_counter()
        self.phases: list[dict[str, Any]] = []
        self.shown = ""  # what the user has seen of the answer so far
        self.question: Message | None = None
        self.plan: Plan | None = None
        self.scope = TurnScope(env.store)

    # -- what the user sees ----------------------------------------------------------------

    def show(self, piece: str) -> None:
        if piece:
            self.shown += piece
            self.emit(AnswerToken(piece))

    def replace(self, text: str, reason: str) -> None:
        self.shown = text
        self.emit(AnswerReplaced(text, reason))

    def check(self) -> None:
        """Between steps: a cancel that came while no model call was running ends the turn here."""
        if self.cancel.cancelled:
            raise Cancelled(self.shown)

    # -- the turn --------------------------------------------------------------------------

    def run(self) -> None:
        try:
            try:
                self._run()
            finally:
                self.scope.end()  # tools still running in the pool cannot touch memory any more
        except Cancelled:
            self._end_cancelled()
        except BackendError as exc:
            self._end_failed(exc)
        except TatlockError as exc:  # e.g. the conversation was forgotten meanwhile, the disk is full
            self.emit(ErrorEvent(exc.message, exc.kind or "store", exc.hint))

    def _run(self) -> None:
        msg = self.store_question()
        self.check()
        cross = self.briefing()
        self.check()
        persona = self.env.system.persona_text()
        enabled = self.env.system.tools(enabled_only=True)
        now = self.env.clock()
        messages, turn_vars = self.assess_request(msg, cross_summary=cross, now=now, persona=persona,
                                                  enabled=enabled)
        plan = self.plan = self.assess(messages, enabled)
        self.check()
        answer, runs, facts = self.answer(plan, persona=persona, enabled=enabled, turn_vars=turn_vars, now=now)
        self.check()
        answer, verdict = self.gate(answer, plan, persona=persona, enabled=enabled, turn_vars=turn_vars,
                                    instructions="\n".join(facts))
        self.store_reply(answer, plan, verdict, [r.name for r in runs])

    def store_question(self) -> Message:
        req = self.req
        meta: dict[str, Any] = {"interface": self.env.interface}
        if req.material:
            meta["material"] = req.material
            meta["search_text"] = req.material[:4000]
        msg = self.question = self.env.store.add_message(req.conversation.id, "user", req.text, req.author,
                                                         metadata=meta)
        self.emit(MessageStored(msg.message_id, msg.message_number, "user", req.author.name))
        return msg

    def briefing(self) -> str | None:
        """The summary of recent conversations: built once for a new conversation, then reused."""
        from tatlock.memory import cross

        store, conv = self.env.store, self.req.conversation
        if not self.req.is_new:
            return cross.latest_cross_summary(store, conv.id)
        if not any(c.message_count for c in store.conversations(6, exclude=[conv.id])):
            return None
        p = Phase("cross_summary", self.emit)
        backend = CountingBackend(self.env.backend, p, self.env.estimator, self.cancel)
        summary = cross.build_cross_summary(store, backend, paths=self.env.cfg.paths,
                                            exclude_conversation_id=conv.id, emit=self.emit, now=self.env.clock(),
                                            options=self.env.options(0.2, MAX_TOKENS["summary"]))
        if summary is None:  # the model failed or wrote no usable summary: go on without it
            self.emit(Notice("no summary of your recent conversations could be made this time", "cross_summary"))
        self.phases.append(p.finish(built=summary is not None))
        return summary

    def assess_request(self, msg: Message, *, cross_summary: str | None, now: dt.datetime, persona: str,
                       enabled: list[ToolSpec]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        """Phase 1's messages: the stable parts (persona, guard instructions, tool catalogue) first,
        for the server's prompt cache; then memory, the clock and the question. Also the
        variables the respond phase reuses."""
        env = self.env
        mem = memory_context.build(env.store, msg.conversation_id, budget_tokens=env.budget(),
                                   estimator=env.estimator, cross_summary=cross_summary)
        turn_vars = dict(memory=memory_text(mem), now=now.strftime("%A %d %B %Y, %H:%M ") + f"({tz_label(now)})",
                         location=env.store.get_var("location") or "unknown",
                         author=memory_context.speaker(msg), question=self.with_material(msg.content))
        messages = [
            {"role": "system", "content": prompts.render("assess.txt", persona=persona, tools=catalogue(enabled))},
            {"role": "user", "content": prompts.render("assess_turn.txt", **turn_vars)},
        ]
        return messages, turn_vars

    def with_material(self, text: str) -> str:
        """The message as the model sees it: a long one cut to its share of the context (the
        user is told; the whole message is stored and searchable), then any piped material."""
        chars = self.env.estimator.chars_per_token
        room = int(self.env.budget() * QUESTION_SHARE * chars)
        if len(text) > room:
            self.emit(Notice(f"your message is long: the model reads its first {room:,} of {len(text):,} characters "
                             "(all of it is kept in memory)", "truncated"))
            text = text[:room] + f"\n…[message cut here for length: {len(text) - room:,} more characters]"
        material = self.req.material
        if not material:
            return text
        room = int(self.env.budget() * MATERIAL_SHARE * chars)
        body = material if len(material) <= room else (
            material[:room] + f"\n…[material truncated: {len(material) - room} more characters]")
        return f"{text}\n\nMaterial provided with the message:\n```\n{body}\n```"

    def assess(self, messages: list[dict[str, Any]], enabled: list[ToolSpec]) -> Plan:
        text = self.req.text
        rule = guards.detect(text)
        if rule:
            self.emit(GuardFired(rule.reason, rule.rule))
        p1 = Phase("assess", self.emit)
        streamer = assess.AnswerStreamer(allow=rule is None)
        a: assess.Assessment | None
        route: str
        guard: str | None
        if rule and rule.reason != "MIXED":
            # a pure guard the rules are sure of: the model's assessment could not change the
            # route (rules win), so the call is saved and the guard path costs one call
            a, raw = None, ""
            route, guard, source = "CAPABILITY_GUARD", rule.reason, "rules"
        else:
            def on_token(piece: str) -> None:
                self.show(streamer.feed(piece))

            r1 = chat(self.env, p1, messages, cancel=self.cancel, schema=assess.schema([s.key for s in enabled]),
                      on_token=on_token, max_tokens=MAX_TOKENS["assess"])
            raw = r1.content
            a = assess.parse(raw)
            if a is None and streamer.decision == "DIRECT" and streamer.emitted.strip():
                # the JSON was cut off (token cap) after the answer had started: keep what was said
                a = assess.Assessment("DIRECT", answer=streamer.emitted.strip(), form="truncated")
            route, guard, source = decide_route(a, rule)
        wanted = list(a.tools) if a else []
        if route == "CAPABILITY_GUARD" and guard == "MIXED" and not wanted and rule:
            wanted = guards.tool_hints(rule.other or text)
        # a guard runs tools only for the part of a MIXED question beyond the guard
        if not (route == "TOOLS_NEEDED" or (route == "CAPABILITY_GUARD" and guard == "MIXED")):
            wanted = []
        plan = Plan(route, guard, source, rule, a, wanted, a.topics if a else [])
        self.emit(Decision(route, guard, source, plan.wanted, plan.topics,
                           a.__dict__ if a else {"unparsed": raw[:500]}))
        self.phases.append(p1.finish(route=route, guard=guard, parsed=a is not None))
        return plan

    def answer(self, plan: Plan, *, persona: str, enabled: list[ToolSpec], turn_vars: dict[str, Any],
               now: dt.datetime) -> tuple[str, list[tool_phase.ToolRun], list[str]]:
        """The answer before the gate: Phase 1's direct answer, or tools and/or guard facts and
        Phase 4. Returns (answer, tool runs, the guard facts given to the model)."""
        a = plan.assessment
        streamed = self.shown.strip()
        facts: list[str] = []
        if plan.route == "CAPABILITY_GUARD":
            rule = plan.rule
            parts = set(rule.parts if rule else ()) | ({plan.guard} if plan.guard and plan.guard != "MIXED" else set())
            facts = guard_facts(parts or {"IDENTITY", "CAPABILITIES"}, mixed=plan.guard == "MIXED", now=now,
                                enabled=enabled)
        if plan.route == "DIRECT" and a and a.answer:
            answer = streamed or a.answer
            if not streamed:
                self.show(answer)
            return answer, [], facts
        runs: list[tool_phase.ToolRun] = []
        findings: list[str] = []
        if plan.route == "TOOLS_NEEDED" or (plan.route == "CAPABILITY_GUARD" and plan.wanted):
            msg = self.question
            assert msg is not None
            runs = run_tools(self.env, self.emit, enabled=enabled, wanted=plan.wanted,
                             tool_query=a.tool_query if a else "", question=str(turn_vars["question"]),
                             text=self.req.text, conversation_id=self.req.conversation.id,
                             author_id=self.req.author.id, message_id=msg.message_id, phases=self.phases,
                             cancel=self.cancel, scope=self.scope, describe_image=self.describe_image)
            findings = findings_of(runs)
            self.check()
        findings += facts
        answer, stopped = respond(self.env, self.emit, persona=persona, enabled=enabled, turn_vars=turn_vars,
                                  findings=findings, phases=self.phases, cancel=self.cancel,
                                  show=None if streamed else self.show)
        if streamed:  # part of an answer was shown before the route changed: replace it
            self.replace(answer, "the first answer was incomplete")
        elif stopped:
            self.replace(answer, "the model started repeating itself")
        return answer, runs, facts

    def gate(self, answer: str, plan: Plan, *, persona: str, enabled: list[ToolSpec], turn_vars: dict[str, Any],
             instructions: str) -> tuple[str, quality.Verdict]:
        rule, guard, route = plan.rule, plan.guard, plan.route
        p = Phase("quality", self.emit)
        kw: dict[str, Any] = dict(
            question=self.req.text, persona_text=persona, secrets=self.env.secrets, instructions=instructions,
            guard_parts=rule.parts if rule and guard == "MIXED" else (),
            other_part=rule.other if rule and guard == "MIXED" else "")
        v = quality.check(answer, **kw)
        by_model = False
        if v.verdict == "FALLBACK" and route == "DIRECT" and self._calls() == 1:
            # one repair: the respond phase, with the facts about itself spelled out
            self.phases.append(p.finish(verdict="REPAIR", checks=v.checks))
            facts = guard_facts({"IDENTITY"}, mixed=False, now=self.env.clock(), enabled=enabled)
            repaired, _ = respond(self.env, self.emit, persona=persona, enabled=enabled, turn_vars=turn_vars,
                                  findings=facts, phases=self.phases, cancel=self.cancel, show=None, name="repair")
            v2 = quality.check(repaired, **kw)
            p = Phase("quality", self.emit)
            if v2.verdict != "FALLBACK":
                self.replace(repaired, "; ".join(v.checks))
                answer, v = repaired, v2
            else:
                v = v2
        limit = {"DIRECT": 2, "CAPABILITY_GUARD": 2}.get(route, 3 + max(0, self.env.cfg.tool_rounds - 1))
        if v.verdict == "UNSURE":
            if self._calls(skip=("cross_summary", "run_tools")) < limit:
                by_model = True
                r = chat(self.env, p, [{"role": "user", "content": prompts.render(
                    "quality.txt", question=self.req.text, answer=answer, concerns="; ".join(v.checks))}],
                    cancel=self.cancel, schema=quality.QUALITY_SCHEMA, temperature=0.0,
                    max_tokens=MAX_TOKENS["quality"])
                verdict, kind = quality.parse_model_verdict(r.content)
                v = quality.Verdict(verdict, kind, v.checks)
            else:  # no call left in this route's budget: soft doubts do not block a reply
                v = quality.Verdict("APPROVED", None, v.checks)
        self.emit(QualityVerdict(v.verdict, v.fallback_type, v.checks, by_model))
        self.phases.append(p.finish(verdict=v.label))
        if v.verdict == "FALLBACK":
            reply = quality.fallback_reply(v.fallback_type or "RETRY")
            self.replace(reply, "; ".join(v.checks) or v.label)
            return reply, v
        return answer, v

    def _calls(self, skip: tuple[str, ...] = ("cross_summary",)) -> int:
        return sum(x["model_calls"] for x in self.phases if x["name"] not in skip)

    # -- the end ---------------------------------------------------------------------------

    def store_reply(self, answer: str, plan: Plan, verdict: quality.Verdict, tools: list[str]) -> None:
        msg = self.question
        assert msg is not None
        store, conv = self.env.store, self.req.conversation
        reply = store.add_message(
            conv.id, "assistant", answer, Author.assistant(), reply_to=msg.message_id,
            metadata={"route": plan.route, "guard": plan.guard, "tools": tools, "topics": plan.topics,
                      "quality": verdict.label, "quality_checks": verdict.checks, "phases": self.phases,
                      "model": self.env.backend.model, "decision_source": plan.source})
        self.emit(MessageStored(reply.message_id, reply.message_number, "assistant", "Tatlock"))
        if plan.topics:
            store.add_topics(conv.id, plan.topics, message_id=msg.message_id)
        self.emit(TurnFinished(conv.id, answer, plan.route, plan.guard, tools, verdict.label, plan.topics,
                               self.phases, msg.message_id, reply.message_id, self._ms()))

    def _partial_reply(self, **marks: Any) -> int | None:
        """Store what the user saw of the answer, marked (cancelled, or the failure)."""
        msg = self.question
        if msg is None:
            return None
        plan = self.plan
        meta: dict[str, Any] = {**marks, "phases": self.phases, "model": self.env.backend.model}
        if plan is not None:
            meta.update(route=plan.route, guard=plan.guard, topics=plan.topics, decision_source=plan.source)
        reply = self.env.store.add_message(self.req.conversation.id, "assistant", self.shown.strip(),
                                           Author.assistant(), reply_to=msg.message_id, metadata=meta)
        self.emit(MessageStored(reply.message_id, reply.message_number, "assistant", "Tatlock"))
        return reply.message_id

    def _end_cancelled(self) -> None:
        reply_id = self._partial_reply(cancelled=True)
        msg = self.question
        self.emit(TurnCancelled(self.req.conversation.id, self.shown.strip(), msg.message_id if msg else None,
                                reply_id, self._ms()))

    def _end_failed(self, exc: BackendError) -> None:
        if self.shown.strip():  # the model failed mid-answer: keep what was said, marked
            try:
                self._partial_reply(failed=exc.message)
            except Exception:  # noqa: BLE001 - the error below matters more than the partial text
                pass
        self.emit(ErrorEvent(exc.message, exc.kind or "backend", exc.hint))

    def _ms(self) -> float:
        return round((time.perf_counter() - self.t0) * 1000, 1)


def memory_text(mem: memory_context.MemoryContext) -> str:
    parts = []
    block = mem.summary_block()
    if block:
        parts.append(block)
    transcript = mem.transcript(skip_last=1)
    if transcript:
        parts.append("## Conversation so far\n" + transcript)
    return ("\n\n".join(parts) + "\n\n") if parts else ""


def decide_route(a: assess.Assessment | None, rule: guards.GuardMatch | None) -> tuple[str, str | None, str]:
    """(route, guard, source): the rules win when they see a guard the model missed."""
    if a is None:
        if rule:
            return "CAPABILITY_GUARD", rule.reason, "rules"
        return "DIRECT", None, "fallback"  # unreadable assessment: Phase 4 answers
    if rule:
        if a.decision != "CAPABILITY_GUARD":
            return "CAPABILITY_GUARD", rule.reason, "rules"
        guard = rule.reason if (rule.reason == "MIXED" or a.guard is None) else a.guard
        return "CAPABILITY_GUARD", guard, "model+rules"
    return a.decision, a.guard, "model"
