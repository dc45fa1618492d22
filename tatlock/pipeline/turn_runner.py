"""One turn, step by step (see DESIGN.md, "Data flow of one message"):

1. ``store_question``: the user's message is stored (numbered in a BEGIN IMMEDIATE
   transaction) before any model call, so nothing is lost if the model fails;
2. ``briefing``: a new conversation adopts the summary of the user's recent conversations
   prepared in the background (no model call before the answer);
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
from collections.abc import Callable
from dataclasses import astuple, dataclass, field
from typing import Any

from tatlock import prompts
from tatlock.errors import BackendError, TatlockError
from tatlock.events import (
    AnswerReplaced,
    AnswerToken,
    Decision,
    ErrorEvent,
    Event,
    FactsKept,
    GuardFired,
    MessageStored,
    Notice,
    QualityVerdict,
    TurnCancelled,
    TurnFinished,
)
from tatlock.llm.base import Cancel, Cancelled, StopGeneration
from tatlock.memory import context as memory_context
from tatlock.memory import earlier
from tatlock.memory import facts as kept_facts
from tatlock.memory.vectors import semantic_for
from tatlock.pipeline import assess, budget, compose, loops, told, voice
from tatlock.pipeline import facts as facts_mod
from tatlock.pipeline import tools as tool_phase
from tatlock.pipeline.gate import Brief, Finding, StreamGate, Verdict
from tatlock.pipeline.phases import Phase, TurnEnv, chat
from tatlock.pipeline.quality import judge, stream_gate
from tatlock.pipeline.respond import answer_plain, respond, system_prompt, tz_label
from tatlock.pipeline.routing import authority, guards
from tatlock.pipeline.select import findings_of, run_tools
from tatlock.redact import redact
from tatlock.store import revisions
from tatlock.store.records import ToolSpec
from tatlock.store.user import Author, Conversation, Message
from tatlock.tools.base import TurnScope

# said after an answer that stopped at its length limit (TurnEnv.answer_tokens)
# (in the persona's voice: "$sir" is its form of address, or nothing when it names none)
CUT_NOTE = ' …\n\n*(I stopped at my length limit there, $sir. Say "go on" and I shall continue.)*'


@dataclass
class TurnRequest:
    conversation: Conversation
    is_new: bool
    text: str
    material: str | None
    author: Author
    system: str | None = None  # a one-off instruction for this turn (`ask -s`), after the persona
    # answering the last question again, or an edit of it (store/revisions.py): the stored
    # question answered again (None: the text is a new question), and the messages replaced
    again: Message | None = None
    supersedes: tuple[int, ...] = ()


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
    # Phase 1's direct answer as it streamed through the gate (None: it did not stream)
    stream: StreamGate | None = None

    @property
    def guard_parts(self) -> tuple[str, ...]:
        """The guards the answer must satisfy: a MIXED rule's parts, else the one guard."""
        if self.rule and self.guard == "MIXED":
            return self.rule.parts
        return (self.guard,) if self.guard and self.guard != "MIXED" else ()

    @property
    def other_part(self) -> str:
        return self.rule.other if self.rule and self.guard == "MIXED" else ""


class TurnRunner:
    def __init__(
        self,
        env: TurnEnv,
        req: TurnRequest,
        emit: Callable[[Event], None],
        cancel: Cancel,
        describe_image: Callable[[str, str], str] | None = None,
    ):
        self.env, self.req, self.emit, self.cancel = env, req, emit, cancel
        self.describe_image = describe_image
        self.t0 = time.perf_counter()
        self.form = "json"  # where a direct answer is written (config answer_form), set per turn
        self.memory = ""  # the memory block of this turn's prompts
        self.phases: list[dict[str, Any]] = []
        self.shown = ""  # what the user has seen of the answer so far
        self.question: Message | None = None
        self.plan: Plan | None = None
        self._verdicts: dict[int, Verdict] = {}  # a finished stream gate's verdict
        self.scope = TurnScope(env.store)
        # facts kept from the question (before any model call)
        self.noted: list[kept_facts.Noted] = []

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
        # e.g. the conversation was forgotten meanwhile, the disk is full
        except TatlockError as exc:
            self.emit(ErrorEvent(exc.message, exc.kind or "store", exc.hint))

    def _run(self) -> None:
        msg = self.store_question()
        self.check()
        cross = self.briefing()
        self.check()
        persona = budget.persona(self.env, self.emit)
        if self.req.system:  # this turn only: the persona's last word, never stored as persona
            persona = f"{persona}\n{self.req.system}" if persona else self.req.system
        enabled = self.env.system.tools(enabled_only=True)
        now = self.env.clock()
        messages, turn_vars = self.assess_request(
            msg, cross_summary=cross, now=now, persona=persona, enabled=enabled
        )
        plan = self.plan = self.assess(messages, enabled, persona)
        self.check()
        answer, runs, brief, verdict = self.answer(
            plan, persona=persona, enabled=enabled, turn_vars=turn_vars, now=now
        )
        self.check()
        answer, verdict = judge(
            self,
            answer,
            verdict,
            plan.route,
            brief,
            persona=persona,
            turn_vars=turn_vars,
            categories=[s.category for s in enabled],
        )
        if verdict.verdict != "FALLBACK" and any(x.get("cut_short") for x in self.phases):
            # the answer stopped at its length limit mid-way: say so, rather than end mid-sentence
            note = voice.in_voice(CUT_NOTE, voice.address(persona))
            self.show(note)
            answer = answer.rstrip() + note
        noted = self.noted_line()
        if noted and verdict.verdict == "FALLBACK" and verdict.fallback_type != "NOT_ALLOWED":
            # the model failed; what was said is kept, and that is the answer
            answer = voice.in_voice(
                kept_facts.as_answer(noted, self.req.text), voice.address(persona)
            )
            self.replace(answer, "acknowledged what was kept")
            verdict = Verdict("APPROVED", None, [*verdict.checks, "acknowledged what was kept"])
            self.emit(QualityVerdict(verdict.verdict, None, verdict.checks, False))
        elif noted:  # what was kept, said whatever the model did (never the model's words)
            self.show("\n\n" + noted)
            answer = answer.rstrip() + "\n\n" + noted
        self.store_reply(answer, plan, verdict, [r.name for r in runs])

    def store_question(self) -> Message:
        req = self.req
        if req.again is not None:  # answered again: the question is stored already
            self.question = req.again
            return req.again
        meta: dict[str, Any] = {"interface": self.env.interface}
        if req.material:
            meta["material"] = req.material
            meta["search_text"] = req.material[:4000]
        if req.system:  # what the answer was asked to follow, on the record
            meta["system"] = req.system
        if req.supersedes:
            meta["edit_of"] = req.supersedes[0]
        msg = self.question = self.env.store.add_message(
            req.conversation.id, "user", req.text, req.author, metadata=meta
        )
        if req.supersedes:  # an edited question replaces the old one and its answers, now
            revisions.supersede(self.env.store, req.supersedes, by=msg.message_id, how="edited")
        self.emit(MessageStored(msg.message_id, msg.message_number, "user", req.author.name))
        self.noted = kept_facts.keep_from(
            self.env.store, msg, owner=self.owner(), known_secrets=self.env.secrets
        )
        if self.noted:
            self.emit(
                FactsKept(
                    msg.message_id,
                    [
                        {
                            "key": n.fact.key,
                            "about": n.fact.about,
                            "attribute": n.fact.attribute,
                            "value": n.fact.value,
                            "status": n.status,
                            "before": n.before,
                        }
                        for n in self.noted
                    ],
                )
            )
        return msg

    def owner(self) -> str:
        """The owner's name, as facts about them are said ("Hannah's sister")."""
        if self.req.author.is_anchor:
            return self.req.author.name
        cfg = self.env.cfg
        return (
            cfg.anchor_name
            or (cfg.anchor_id or self.env.username).replace("-", " ").replace("_", " ").title()
        )

    def noted_line(self) -> str:
        return kept_facts.acknowledge(
            self.noted,
            speaker_is_owner=self.req.author.is_anchor,
            speaker=self.req.author.name,
            owner=self.owner(),
        )

    def replaced_by(self, reply: Message) -> None:
        """A new answer to a question answered before: the earlier answers are superseded once
        it is stored (until then, if the turn fails with nothing said, they still stand)."""
        # not a bare cancel
        if self.req.again is not None and self.req.supersedes and reply.content.strip():
            revisions.supersede(
                self.env.store, self.req.supersedes, by=reply.message_id, how="regenerated"
            )

    def briefing(self) -> str | None:
        """The summary of recent conversations this conversation began with: a new one adopts
        the briefing prepared in the background (no model call here; none yet: none)."""
        from tatlock.memory import cross

        store, conv = self.env.store, self.req.conversation
        if not self.req.is_new:
            return cross.latest_cross_summary(store, conv.id)
        return cross.adopt_briefing(store, conv.id)

    def assess_request(
        self,
        msg: Message,
        *,
        cross_summary: str | None,
        now: dt.datetime,
        persona: str,
        enabled: list[ToolSpec],
    ) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        """Phase 1's messages: the stable system message (persona, instructions, tool catalogue:
        byte-identical from turn to turn, so the server's prompt cache reuses it), then memory
        (which grows at its end), the clock and the question, each within its part of the
        window (pipeline/budget.py). Also the variables the respond phase reuses."""
        env = self.env
        turn_vars: dict[str, Any] = dict(
            now=now.strftime("%A %d %B %Y, %H:%M ") + f"({tz_label(now)})",
            location=env.store.get_var("location") or "unknown",
            author=memory_context.speaker(msg),
        )
        form = self.form = str(env.cfg.effective("answer_form"))
        room = budget.assess_room(env, assess.system_prompt(persona, enabled, form), turn_vars)
        turn_vars["question"] = budget.question(
            env, msg.content, self.req.material, room, self.emit
        )
        room -= env.estimator.bound(turn_vars["question"])
        facts = kept_facts.block(
            env.store.vars(),
            owner=self.owner(),
            question=msg.content,
            budget_tokens=env.budget(),
            estimator=env.estimator,
        )
        # what the user said in other conversations that the question points at, found by words
        said = earlier.said_before(
            env.store,
            msg.content,
            conversation_id=msg.conversation_id,
            budget_tokens=budget.memory_budget(room, memory_context.SHARES),
            told=bool(compose.ASKS.first(msg.content, "told")),
            exclude=(msg.message_id,),
            estimator=env.estimator,
            semantic=semantic_for(env.cfg),
        )
        facts = "\n\n".join(x for x in (facts, said) if x)
        mem = memory_context.build(
            env.store,
            msg.conversation_id,
            estimator=env.estimator,
            budget_tokens=budget.memory_budget(room, memory_context.SHARES),
            cross_summary=cross_summary,
            exclude=self.req.supersedes,
            facts_block=facts,
        )
        # recalled memory is data, redacted like a tool result: a secret pasted once is not handed
        # on
        turn_vars["memory"] = self.memory = budget.memory(env, redact(mem.prompt_block()), room)
        return assess.request(persona, enabled, **turn_vars, form=form), turn_vars

    def assess(self, messages: list[dict[str, Any]], enabled: list[ToolSpec], persona: str) -> Plan:
        """Phase 1 beside the deterministic side (guard rules, the classifier, sure tool needs)."""
        text = self.req.text
        det = guards.decide(text)
        rule = det.guard
        if rule:
            self.emit(GuardFired(rule.reason, rule.rule))
        p1 = Phase("assess", self.emit)
        # a direct answer streams only when nothing deterministic will overrule it; so does the
        # answer of a guard the model would imagine (overruled below: its answer stands)
        credible = rule is not None or guards.credible_guard(text)
        # a routing call: the direct answer is written next, by respond
        plain = self.form == "plain"
        streamer = assess.AnswerStreamer(
            allow=rule is None and not det.sure and not plain,
            decisions=("DIRECT",) if credible else ("DIRECT", "CAPABILITY_GUARD"),
        )
        gate = stream_gate(
            Brief(
                text,
                persona,
                self.env.secrets,
                prompt_text=prompts.render(
                    "assess.txt", persona="", tools=assess.catalogue(enabled)
                ),
            )
        )
        a: assess.Assessment | None
        route: str
        guard: str | None
        # pieces (tokens, on llama-server) of JSON generated before the answer began
        before_answer = 0
        cut = False  # the call stopped at its token cap
        # a direct answer looping, as respond's are watched
        watch, looped = loops.LoopWatch(), False
        if authority.skips_assessment(det):
            # a pure guard the deterministic side decides alone (measured 99% precise): the call
            # is saved and the guard path costs one call (routing/authority.py, rule 1)
            assert rule is not None
            a, raw = None, ""
            route, guard, source = "CAPABILITY_GUARD", rule.reason, "rules"
        elif self._sure_alone(det, enabled):
            # sure tools that need nothing from the model (no argument to fill: this computer's
            # report; or a lookup of what this conversation holds): they run whatever the model
            # would answer (routing/authority.py, rule 3), so its assessment would only cost time
            a, raw = None, ""
            route, guard, source = "TOOLS_NEEDED", None, "rules"
        else:
            head: list[str] = []  # the routing call's JSON so far (the plain form)

            def on_token(piece: str) -> None:
                nonlocal before_answer, looped
                if plain:
                    head.append(piece)
                    if assess.routed_direct("".join(head)) is not None:
                        raise StopGeneration  # DIRECT and its topics: the rest routes nothing
                if streamer.start is None:
                    before_answer += 1
                decoded = streamer.feed(piece)
                if decoded and watch.add(decoded):
                    looped = True
                    raise StopGeneration  # shown so far: less than one check's span of the loop
                if decoded:
                    self.show(gate.feed(decoded))
                    if gate.failed:
                        # a failing answer stops here: nothing failing was shown
                        raise StopGeneration
                if (
                    streamer.done
                    and streamer.emitted
                    and id(gate) not in self._verdicts
                    and not gate.failed
                ):
                    # the answer's string has closed: it is whole, so the gate judges it now and
                    # what
                    # it held back is shown at once, not after the fields that follow in the JSON
                    rest, verdict = gate.finish()
                    self._verdicts[id(gate)] = verdict
                    if verdict.verdict != "FALLBACK":
                        self.show(rest)

            r1 = chat(
                self.env,
                p1,
                messages,
                cancel=self.cancel,
                schema=assess.schema([s.key for s in enabled], answer=not plain),
                on_token=on_token,
                max_tokens=assess.ROUTING_TOKENS if plain else self.env.answer_tokens(),
            )
            raw = r1.content
            cut = r1.done_reason == "length"
            a = assess.parse(raw)
            if a is None and plain:
                a = assess.routed_direct(raw)
            if (
                (a is None or gate.failed)
                and streamer.decision in streamer.decisions
                and streamer.emitted.strip()
            ):
                # the JSON was cut off (token cap, a loop, or the gate stopped it) after the answer
                # had started
                emitted = loops.without_repeats(streamer.emitted) if looped else streamer.emitted
                a = assess.Assessment("DIRECT", answer=emitted.strip(), form="truncated")
            route, guard, source = astuple(authority.reconcile(a, det, credible=credible))
        wanted = list(a.tools) if a else []
        if route == "TOOLS_NEEDED":
            wanted = list(dict.fromkeys([*det.tools, *wanted])) or guards.tool_hints(text)
        elif route == "CAPABILITY_GUARD" and guard == "MIXED":
            # a guard runs tools only for the part of a MIXED question beyond the guard
            wanted = det.tools or wanted or guards.tool_hints(det.other or text)
        else:
            wanted = []
        plan = Plan(
            route,
            guard,
            source,
            rule,
            a,
            wanted,
            a.topics if a else [],
            stream=gate if streamer.emitted else None,
        )
        self.emit(
            Decision(
                route,
                guard,
                source,
                plan.wanted,
                plan.topics,
                a.__dict__ if a else {"unparsed": raw[:500], "rules": det.why},
            )
        )
        self.phases.append(
            p1.finish(
                route=route,
                guard=guard,
                parsed=a is not None,
                json_before_answer=before_answer if streamer.start is not None else None,
            )
        )
        if cut and route == "DIRECT":
            self.phases[-1]["cut_short"] = True
        return plan

    def _sure_alone(self, det: guards.Deterministic, enabled: list[ToolSpec]) -> bool:
        if det.guard is not None or not det.sure or not det.tools:
            return False
        by_key = {s.key: s for s in enabled}
        if all(t in by_key and not by_key[t].params for t in det.tools):
            return True
        return told.told_in_conversation(self.req.text, det.tools, self.memory) is not None

    def answer(
        self,
        plan: Plan,
        *,
        persona: str,
        enabled: list[ToolSpec],
        turn_vars: dict[str, Any],
        now: dt.datetime,
    ) -> tuple[str, list[tool_phase.ToolRun], Brief, Verdict | None]:
        """The answer before the gate: Phase 1's direct answer, or tools and/or guard facts and
        Phase 4, streamed through the gate. Returns (answer, tool runs, what the gate is told,
        the stream gate's verdict when the answer streamed through one)."""
        a = plan.assessment
        brief = Brief(
            self.req.text,
            persona,
            self.env.secrets,
            guard_parts=plan.guard_parts,
            other_part=plan.other_part,
            clock=now,
            told=(str(turn_vars.get("memory") or ""),),
        )
        if plan.route == "CAPABILITY_GUARD":
            brief.facts = facts_mod.for_guard(
                plan.rule.parts if plan.rule else (),
                plan.guard,
                now=now,
                categories=[s.category for s in enabled],
                zone=tz_label(now),
            )
        if plan.route == "DIRECT" and a and a.answer:
            brief.prompt_text = prompts.render(
                "assess.txt", persona="", tools=assess.catalogue(enabled)
            )
            gate = plan.stream
            if gate is None:  # not streamed (a text-form assessment): gate it now, whole
                gate = stream_gate(brief)
                self.show(gate.feed(a.answer))
            return self._finish_stream(gate, brief), [], brief, self._stream_verdict(gate, brief)
        runs: list[tool_phase.ToolRun] = []
        tool_lines: list[str] = []  # the tools' results as the respond phase reads them
        said = told.told_in_conversation(
            self.req.text, plan.wanted, str(turn_vars.get("memory") or "")
        )
        kept_only = self._kept_already(plan) if said is None else None
        # asked what was said in this conversation: answered from it, not looked up
        if said is not None:
            plan.wanted = []
            tool_lines = [
                f'Earlier in this conversation, {turn_vars["author"]} said: "{said.text}"'
            ]
        elif kept_only:
            tool_lines = kept_only
        elif plan.route == "TOOLS_NEEDED" or (plan.route == "CAPABILITY_GUARD" and plan.wanted):
            msg = self.question
            assert msg is not None
            runs = run_tools(
                self.env,
                self.emit,
                enabled=enabled,
                wanted=plan.wanted,
                tool_query=a.tool_query if a else "",
                question=str(turn_vars["question"]),
                text=self.req.text,
                conversation_id=self.req.conversation.id,
                author_id=self.req.author.id,
                message_id=msg.message_id,
                phases=self.phases,
                cancel=self.cancel,
                scope=self.scope,
                describe_image=self.describe_image,
            )
            brief.findings = [Finding.from_run(r) for r in runs]
            tool_lines = findings_of(runs)
            self.check()
        brief.prompt_text = system_prompt("")
        earlier = self.shown.strip()  # part of a first answer shown before the route changed
        gate = stream_gate(brief)
        # facts in hand that answer the question: the answer is short, and whole once it has said
        # them
        known = compose.compose(
            self.req.text, brief, memory=self.memory, categories=tuple(s.category for s in enabled)
        )
        known = known if known is not None and known.asked else None

        def show(piece: str) -> None:
            self._show_gated(gate, piece, replacing=bool(earlier))
            if (
                known is not None
                and compose.said_whole(gate.answer)
                and known.carried_by(gate.answer, self.req.text)
            ):
                # it has said what was asked: a small model's next sentences only stray
                raise StopGeneration

        if self.form == "plain" and plan.route == "DIRECT" and not tool_lines and known is None:
            # the plain form's direct answer: the question as a plain chat client asks it
            answer, looped = answer_plain(
                self.env,
                self.emit,
                persona=persona,
                question=str(turn_vars["question"]),
                memory=self.memory,
                phases=self.phases,
                cancel=self.cancel,
                show=show,
            )
        else:
            answer, looped = respond(
                self.env,
                self.emit,
                persona=persona,
                turn_vars=turn_vars,
                findings=tool_lines + facts_mod.lines(brief.facts),
                phases=self.phases,
                cancel=self.cancel,
                show=show,
                max_tokens=compose.FACT_ANSWER_TOKENS if known is not None else None,
            )
        # meant to be short: no "go on" offered (one that lacks the fact is composed)
        if known is not None:
            for x in self.phases:
                x.pop("cut_short", None)
        if gate.failed is not None:
            return answer, runs, brief, gate.failed
        rest = self._finish_stream(gate, brief, show=not (earlier or looped))
        verdict: Verdict | None = self._stream_verdict(gate, brief)
        if looped:  # the answer that stands is the loop cut short: the gate judges that one
            self.replace(answer, "the model started repeating itself")
            verdict = None
        elif earlier and verdict and verdict.verdict != "FALLBACK":
            self.replace(rest, "the first answer was incomplete")
        else:
            answer = rest
        return answer, runs, brief, verdict

    def _kept_already(self, plan: Plan) -> list[str]:
        """A message whose facts the extractor kept needs no ``set_personal_variable`` call:
        when that is all the tools route wanted, the findings are what was kept."""
        if not self.noted or "set_personal_variable" not in plan.wanted:
            return []
        plan.wanted = [w for w in plan.wanted if w != "set_personal_variable"]
        if plan.wanted:
            return []
        owner = self.owner()
        return [
            "Saved in memory from this message: "
            + "; ".join(kept_facts.line(n.fact, owner) for n in self.noted)
        ]

    def _show_gated(self, gate: StreamGate, piece: str, *, replacing: bool) -> None:
        safe = gate.feed(piece)
        if gate.failed:
            raise StopGeneration  # nothing failing was shown: stop generating
        if not replacing:
            self.show(safe)

    def _finish_stream(self, gate: StreamGate, brief: Brief, *, show: bool = True) -> str:
        """The whole answer once its stream ended: the text still held back is shown, unless
        the answer failed (then the gate replaces it)."""
        if gate.failed is None and id(gate) not in self._verdicts:
            rest, v = gate.finish(guard_parts=brief.guard_parts, other_part=brief.other_part)
            self._verdicts[id(gate)] = v
            if v.verdict != "FALLBACK" and show:
                self.show(rest)
        return gate.answer.strip()

    def _stream_verdict(self, gate: StreamGate, brief: Brief) -> Verdict:
        return (
            gate.failed
            or self._verdicts.get(id(gate))
            or gate.finish(guard_parts=brief.guard_parts, other_part=brief.other_part)[1]
        )

    def model_calls(self, skip: tuple[str, ...] = ("cross_summary",)) -> int:
        return sum(x["model_calls"] for x in self.phases if x["name"] not in skip)

    def call_limit(self, route: str) -> int:
        """Most model calls a route may spend before the gate (a repair or the model check
        costs one): a direct answer 2, a guard 2, tools 3 plus extra rounds."""
        return {"DIRECT": 2, "CAPABILITY_GUARD": 2}.get(
            route, 3 + max(0, self.env.cfg.tool_rounds - 1)
        )

    # -- the end ---------------------------------------------------------------------------

    def store_reply(self, answer: str, plan: Plan, verdict: Verdict, tools: list[str]) -> None:
        msg = self.question
        assert msg is not None
        store, conv = self.env.store, self.req.conversation
        reply = store.add_message(
            conv.id,
            "assistant",
            answer,
            Author.assistant(),
            reply_to=msg.message_id,
            metadata={
                "route": plan.route,
                "guard": plan.guard,
                "tools": tools,
                "topics": plan.topics,
                "quality": verdict.label,
                "quality_checks": verdict.checks,
                "phases": self.phases,
                "model": self.env.backend.model,
                "decision_source": plan.source,
            },
        )
        self.replaced_by(reply)
        self.emit(MessageStored(reply.message_id, reply.message_number, "assistant", "Tatlock"))
        if plan.topics:
            store.add_topics(conv.id, plan.topics, message_id=msg.message_id)
        self.emit(
            TurnFinished(
                conv.id,
                answer,
                plan.route,
                plan.guard,
                tools,
                verdict.label,
                plan.topics,
                self.phases,
                msg.message_id,
                reply.message_id,
                self._ms(),
            )
        )

    def _partial_reply(self, **marks: Any) -> int | None:
        """Store what the user saw of the answer, marked (cancelled, or the failure)."""
        msg = self.question
        if msg is None:
            return None
        plan = self.plan
        meta: dict[str, Any] = {**marks, "phases": self.phases, "model": self.env.backend.model}
        if plan is not None:
            meta.update(
                route=plan.route, guard=plan.guard, topics=plan.topics, decision_source=plan.source
            )
        reply = self.env.store.add_message(
            self.req.conversation.id,
            "assistant",
            self.shown.strip(),
            Author.assistant(),
            reply_to=msg.message_id,
            metadata=meta,
        )
        self.replaced_by(reply)
        self.emit(MessageStored(reply.message_id, reply.message_number, "assistant", "Tatlock"))
        return reply.message_id

    def _end_cancelled(self) -> None:
        reply_id = self._partial_reply(cancelled=True)
        msg = self.question
        self.emit(
            TurnCancelled(
                self.req.conversation.id,
                self.shown.strip(),
                msg.message_id if msg else None,
                reply_id,
                self._ms(),
            )
        )

    def _end_failed(self, exc: BackendError) -> None:
        noted = self.noted_line()
        if noted:  # the model failed, but what was said is kept
            self.emit(Notice(noted.strip("()"), "facts"))
        if self.shown.strip():  # the model failed mid-answer: keep what was said, marked
            try:
                self._partial_reply(failed=exc.message)
            except Exception:
                pass
        self.emit(ErrorEvent(exc.message, exc.kind or "backend", exc.hint))

    def _ms(self) -> float:
        return round((time.perf_counter() - self.t0) * 1000, 1)
