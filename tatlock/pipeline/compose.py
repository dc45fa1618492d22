"""Answers from what the butler knows, for when the model's answer fails.

A small model ignores facts it was handed: the clock in its prompt, its own name, this
computer's report, a tool's error, what the user said two turns ago. Where such a fact answers
the question, the butler says it: ``asked`` reads what the question asks for (rules with their
examples, and the route: a TEMPORAL guard asks for the clock, a system report answers a
question about cores), ``facts_for`` picks the facts in hand that answer it (``gate.in_hand``
plus what is always known: the clock, the butler's name and nature, its tools; and the line
of the conversation or of the kept facts that the question points at: ``told.py``), ``compose``
writes a short answer from them with the templates of ``prompts/composed.txt``, in the fact's
own words. ``carried.carries`` tells whether an answer carries them, so an answer that skips the
fact it was asked for is not approved.

Nothing here is an answer to a known question: a template is filled only from a fact in hand,
and where no fact answers, the answer is None and the gate's fallback stands.
"""

from __future__ import annotations

import datetime as dt
import re
import string
from dataclasses import dataclass
from typing import Any

from tatlock import prompts
from tatlock.pipeline import asks, gate, voice
from tatlock.pipeline import facts as facts_mod
from tatlock.pipeline.carried import carries
from tatlock.pipeline.gate import clock as clock_mod
from tatlock.pipeline.gate.checks import CHECK_WORDS
from tatlock.pipeline.gate.text import words
from tatlock.pipeline.lexicon import MONTHS
from tatlock.pipeline.rulebook import Rule, lazy
from tatlock.pipeline.told import (
    LOOKUPS,
    found_lines,
    last_said,
    owners_to_you,
    stem,
    to_you,
    told_line,
)

ASKS = asks.ASKS  # what a question asks for: the one reader the gate uses too (pipeline/asks.py)
_TO_ME = {"your": "my", "you": "I", "you're": "I'm", "yours": "mine"}
_TEMPLATE = lazy(r"^([a-z_.]+):\s*(.*)$")


def templates() -> dict[str, str]:
    out: dict[str, str] = {}
    for line in prompts.load("composed.txt").splitlines():
        m = _TEMPLATE.match(line.strip())
        if m and not line.startswith("#"):
            out[m.group(1)] = m.group(2)
    return out


def asked(question: str, brief: gate.Brief) -> list[str]:
    """What the question asks for, most specific first: "told", "name", "nature",
    "capabilities", "clock", "system.cores"... (empty: nothing the facts answer). The question
    reader (``ASKS``) picks and orders; the route's own facts (``from_route``) follow, so a
    phrasing the reader does not know is still answered from what the route holds."""
    out = read(question, brief)
    for kind in from_route(question, brief):
        if kind == "nature" and {"name", "nature"} & set(out):
            continue  # the name asked for is said alone
        if kind == "system" and any(k.startswith("system") for k in out):
            continue  # the part asked about is said first, alone
        out.append(kind)
    return list(dict.fromkeys(out))


def read(question: str, brief: gate.Brief) -> list[str]:
    """What the question reader finds asked (a question of several parts: nothing; the parts of
    this computer only with its report in hand)."""
    out: list[str] = []
    if ASKS.first(question, "more"):
        return out
    for rule in ASKS.matches(question):
        if rule.label == "told" and not _told_asked(rule, question):
            continue
        if rule.label != "can_you":  # answered only in place of a failed answer (asks_ability)
            out.append(rule.label)
    if not any(f.tool == "get_system_info" for f in brief.findings):
        return [k for k in out if not k.startswith("system.")]
    if not any(k.startswith("system.") for k in out) and _asks_machine(question):
        out.append("system")
    return out


def _told_asked(rule: Rule, question: str) -> bool:
    """Whether what the user told is asked about, not stated ("I told you I'm vegetarian."): the
    message is a question (it ends on "?" or opens with a question word), or the sentence the
    rule matched in does ("Which variety did I say they were? He asked and I forgot")."""
    if question.rstrip().endswith("?") or _WH.search(question):
        return True
    m = rule.regex.search(question)
    if m is None:
        return False
    end = re.search(r"[.!?]", question[m.start() :])
    return end is not None and end.group(0) == "?"


def asks_this_machine(question: str) -> bool:
    """A question about a part of this computer that its report answers: its cores, or its
    memory, disk or system named as this machine's ("how much RAM", "memory on this box"), one
    part at a time; not the butler's memory of a conversation."""
    if ASKS.first(question, "more"):
        return False
    parts = {r.label for r in ASKS.matches(question) if r.label.startswith("system.")}
    return "system.cores" in parts or bool(
        parts and (_asks_machine(question) or re.search(r"\bram\b", question, re.I))
    )


def from_route(question: str, brief: gate.Brief) -> list[str]:
    """The facts the turn's route holds, whatever the question's words: a TEMPORAL guard's clock,
    an IDENTITY guard's name and nature, a CAPABILITIES guard's tools, the system report the tool returned
    (the whole report: cores, memory and disk)."""
    out: list[str] = []
    parts = set(brief.guard_parts)
    if ("TEMPORAL" in parts or clock_mod.asks_now(question)) and not _ELSEWHERE.search(question):
        out.append("clock")
    if "IDENTITY" in parts:
        out.append("nature")  # the name and what the butler is
    if "CAPABILITIES" in parts:
        out.append("capabilities")
    if any(f.tool == "get_system_info" and f.status == "ok" for f in brief.findings):
        out.append("system")
    return out


# the time somewhere else ("what time is it in Tokyo?") is no reading of this clock (the gate works
# it out)
_ELSEWHERE = lazy(
    r"\b(?:time|date|day|hour)\b[^?.!]*\b(?:in|at)\s+(?!the\s+(?:morning|afternoon|evening)\b)"
    r"(?:[A-Z][a-z]+|new\s+york|los\s+angeles|tokyo|sydney|london|paris)"
)
_WH = lazy(r"^\s*(?:\w+,?\s+)?(?:what|whats|what's|where|when|whens|who|which|how)\b", re.I)


def _asks_machine(question: str) -> bool:
    return bool(re.search(r"\b(?:computer|machine|system|box|laptop|pc)\b", question, re.I))


# the most tokens of an answer to a question the facts in hand answer: a sentence or two (a small
# model that has not said the fact by then will not; the answer is then composed from it)
FACT_ANSWER_TOKENS = 64
_WHOLE = lazy(r"[.!?…][\"')\]]?\s*$")


# what answers each guard's part of a question
_COVERS = {"TEMPORAL": {"clock"}, "IDENTITY": {"name", "nature"}, "CAPABILITIES": {"capabilities"}}


def said_whole(text: str) -> bool:
    """The text ends at the end of a sentence."""
    return bool(_WHOLE.search(text))


def _to_me(text: str) -> str:
    """A fact about the butler, said by the butler: "Your name is Tatlock" -> "My name is
    Tatlock"."""
    out = re.sub(
        r"\b(?:your|you're|yours|you)\b", lambda m: _TO_ME[m.group(0).lower()], text, flags=re.I
    )
    return out[:1].upper() + out[1:]


@dataclass(frozen=True)
class Composed:
    text: str
    kinds: tuple[str, ...]  # what it was composed from ("clock", "told", "system.cores"...)
    facts: tuple[gate.Known, ...]  # the facts it carries (for ``carries``)
    # the question asked for these facts (not only a kept value or a tool's error in hand)
    asked: bool

    def carried_by(self, answer: str, question: str) -> bool:
        """Whether an answer carries every fact this one was composed from."""
        return all(
            carries(answer, question, kind.removesuffix(".time"), k)
            for kind, k in zip(self.kinds, self.facts, strict=True)
        )


def _fields(kind: str, k: gate.Known) -> dict[str, Any] | None:
    v = k.value
    if kind.startswith("clock"):
        return {
            "weekday": v["weekday"].title(),
            "day": v["day"],
            "month": v["month"].title(),
            "year": v["year"],
            "time": f"{v['hour']:02d}:{v['minute']:02d}",
        }
    if kind == "name":
        return {"name": v}
    if kind == "nature":
        return {"identity": _to_me(str(v)).rstrip(".")}
    if kind == "capabilities":
        listed = list(v) or ["answer questions from general knowledge"]
        return {
            "abilities": ", ".join(listed[:-1]) + (" and " if len(listed) > 1 else "") + listed[-1]
        }
    if kind.startswith("system") and isinstance(v, dict):
        cpu, mem, disk, osd = (v.get(x) or {} for x in ("cpu", "memory", "disk", "os"))
        f = {
            "count": cpu.get("count"),
            "physical": cpu.get("physical_cores"),
            "total": mem.get("total_gib"),
            "available": mem.get("available_gib"),
            "free": disk.get("free_gib"),
            "os": " ".join(str(osd.get(x)) for x in ("system", "release") if osd.get(x)),
        }
        if kind == "system.disk":
            f["total"] = disk.get("total_gib")
        return f
    if kind.startswith("tool_error"):
        return {"error": str(v).strip()}
    if kind == "kept":
        return {"key": str(v[0]).replace("_", " ").replace(".", "'s "), "value": v[1]}
    if kind in ("told", "memory"):
        return {"said": str(v).strip()}
    if kind == "earlier":
        when = k.source.removeprefix("earlier:")
        try:
            day = dt.date.fromisoformat(when)
            on = f"On {day.day} {MONTHS[day.month - 1].title()}"
        except ValueError:
            on = "Before"
        return {"said": str(v).strip(), "on": on}
    return None


def facts_for(
    question: str, brief: gate.Brief, *, memory: str = "", categories: tuple[str, ...] = ()
) -> tuple[list[tuple[str, gate.Known]], bool]:
    """The facts in hand that answer the question, each with the template kind it fills, and
    whether the question asked for them (False: a kept value or a tool's error found instead)."""
    kinds = asked(question, brief)
    # asked for when the reader saw it or a guard holds it; a report the route fetched for a
    # question the reader does not know stands in only for an answer that failed
    was_asked = bool(read(question, brief)) or bool(
        set(kinds) & {"clock", "name", "nature", "capabilities"}
    )
    if not kinds and not brief.findings:
        return [], False
    have = gate.in_hand(brief)
    by = {k.kind: k for k in have}
    if "nature" not in by:  # the butler's own facts are always in hand, guard or not
        by["nature"] = gate.Known(
            "nature", facts_mod.IDENTITY_DATA, facts_mod.IDENTITY_DATA, "identity"
        )
    if "capabilities" not in by:
        ab = facts_mod.abilities(categories)
        by["capabilities"] = gate.Known(
            "capabilities", ab, facts_mod.capabilities(categories), "tools"
        )
    out: list[tuple[str, gate.Known]] = []
    for kind in kinds:
        if kind == "told":
            said = told_line(question, memory + found_lines(brief)) or last_said(question, memory)
            if said is not None:
                kind = {"conversation": "told", "earlier": "earlier"}.get(said.source, "memory")
                out.append(
                    (
                        kind,
                        gate.Known(
                            "told",
                            said.text,
                            said.text,
                            f"earlier:{said.when}" if said.when else said.source,
                        ),
                    )
                )
            continue
        base = "system" if kind.startswith("system") else kind
        if base in by:
            out.append((kind, by[base]))
    # nothing asked that a fact answers: a kept value or a tool's error may still be the answer
    if not out:
        for k in have:
            if k.kind == "kept" and k.value[1]:
                out.append(("kept", k))
            elif (
                k.kind == "tool_error" and k.value and k.source.removeprefix("tool:") not in LOOKUPS
            ):
                # (a lookup of memory that failed is no answer: "missing argument: key")
                out.append(("tool_error.ask" if "?" in str(k.value) else "tool_error", k))
        return out[:1], False
    return out, was_asked


def compose(
    question: str, brief: gate.Brief, *, memory: str = "", categories: tuple[str, ...] = ()
) -> Composed | None:
    """A short answer from the facts in hand that answer the question, or None."""
    found, was_asked = facts_for(question, brief, memory=memory, categories=categories)
    if not found:
        return None
    table = templates()
    form = voice.address(brief.persona)  # the persona's form of address, or none
    parts: list[str] = []
    used: list[tuple[str, gate.Known]] = []
    for kind, k in found:
        if kind == "name" and any(x == "nature" for x, _ in found):
            continue  # "I am Tatlock: a butler..." says the name already
        if kind == "clock" and re.search(r"\b(?:time|late|early|hour|o'clock)\b", question, re.I):
            kind = "clock.time"
        fields = _fields(kind, k)
        template = table.get(kind)
        if fields is None or template is None:
            continue
        if kind == "memory":
            fields["said"] = owners_to_you(fields["said"], question, memory)
        if kind in ("told", "memory", "earlier"):
            fields["said"] = to_you(fields["said"])
        try:
            parts.append(
                string.Template(voice.in_voice(template, form, fields_follow=True)).substitute(
                    {n: str(x) for n, x in fields.items()}
                )
            )
        except (KeyError, ValueError):
            continue
        used.append((kind, k))
    if not parts:
        return None
    # the facts must answer the whole question: a tool's result in hand that the answer would
    # leave out (a forecast, a search: no fact a template says) means a part unanswered
    covered = {"system" if k.startswith("system") else k.split(".")[0] for k, _ in used}
    # a look into memory for a question that asks nothing the user told ("what did you say your
    # name was?") found no part of the answer
    told_asked = bool(ASKS.first(question, "told") or ASKS.first(question, "more"))
    for f in brief.findings:
        if (
            f.status == "ok"
            and not (f.tool == "get_system_info" and "system" in covered)
            and not (f.tool in LOOKUPS and covered & {"told", "memory", "kept", "earlier"})
            and not (f.tool in LOOKUPS and not told_asked and was_asked)
        ):
            return None
    # and every part of a guarded question: a general part ("...and tell me about Paris") or a
    # secret asked for is no fact in hand
    if brief.other_part or any(
        not covered & _COVERS.get(part, set()) for part in brief.guard_parts
    ):
        return None
    return Composed(
        " ".join(parts), tuple(kind for kind, _ in used), tuple(k for _, k in used), was_asked
    )


# the words an answer denies an ability by, and the tool categories that give it (the gate's
# ``checks.denies`` rule finds the denial: "I'm unable to read or manipulate files")
_ABILITY_WORDS: tuple[tuple[frozenset[str], tuple[str, ...]], ...] = (
    (frozenset({"weather", "forecast", "forecasts"}), ("weather",)),
    (frozenset({"internet", "web", "online"}), ("web",)),
    (frozenset({"file", "files"}), ("files",)),
    (frozenset({"memory", "remember", "recall"}), ("memory", "personal")),
    (frozenset({"computer", "system"}), ("system",)),
)


def denied_ability(answer: str, question: str, categories: tuple[str, ...]) -> str | None:
    """The ability an answer denies that the butler has, when the question named it ("could
    you read a txt file?" -> "I'm unable to read files"): the category's name, or None. A
    denial of something the question did not ask about (an aside before a general answer)
    is left to the gate."""
    rule = CHECK_WORDS.labelled("denies")[0]
    asked_words = {stem(w) for w in words(question)}
    for m in rule.regex.finditer(answer):
        said = set(words(m.group(0)))
        for names, cats in _ABILITY_WORDS:
            if said & names and {stem(w) for w in names} & asked_words:
                have = [c for c in cats if c in categories]
                if have:
                    return have[0]
    return None


def asks_ability(question: str, categories: tuple[str, ...]) -> str | None:
    """Whether the question asks if the butler can do something its tools give, named in the
    question ("could u read a txt file?": "files"); None when not."""
    if not ASKS.first(question, "can_you") or ASKS.first(question, "told"):
        return None  # ("can you remember my birthday?" asks for the birthday)
    said = set(words(question))
    for names, cats in _ABILITY_WORDS:
        if said & names:
            have = [c for c in cats if c in categories]
            if have:
                return have[0]
    return None


def abilities_answer(brief: gate.Brief, categories: tuple[str, ...]) -> Composed | None:
    """What the butler can do, composed from its tools (for an answer that denied one)."""
    ab = facts_mod.abilities(categories)
    k = gate.Known("capabilities", ab, facts_mod.capabilities(categories), "tools")
    fields = _fields("capabilities", k)
    template = templates().get("capabilities")
    if fields is None or template is None:
        return None
    text = string.Template(
        voice.in_voice(template, voice.address(brief.persona), fields_follow=True)
    ).substitute({n: str(x) for n, x in fields.items()})
    return Composed(text, ("capabilities",), (k,), True)
