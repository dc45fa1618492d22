"""The gate's verdict, the fallback a withdrawn answer is replaced with, what a second attempt
needs (``repair_for``), and the model check's schema and reading."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from tatlock import prompts
from tatlock.pipeline import voice
from tatlock.pipeline.gate import secrets
from tatlock.pipeline.rulebook import lazy

TYPES = ("I_DONT_KNOW", "NOT_ALLOWED", "CANT_DO", "MISSING_INFO", "RETRY")


@dataclass
class Verdict:
    verdict: str  # APPROVED | FALLBACK | UNSURE (internal: ask the model)
    fallback_type: str | None = None
    checks: list[str] = field(default_factory=list)  # what failed or raised doubt
    failed: str | None = None  # the check that decided a FALLBACK (see repair_for)
    repair: tuple[str, ...] = ()  # what a repair adds: facts.KINDS and/or "FINDINGS"
    text: str | None = None  # the answer as it stands, when the gate cut an unfinished end off it
    # the right answer when the gate holds it itself (a capital, a symbol, a sum it worked out),
    # with "$sir" where the form of address goes: said instead of an apology
    known: str | None = None

    @property
    def label(self) -> str:
        return "APPROVED" if self.verdict == "APPROVED" else f"FALLBACK:{self.fallback_type}"


def fail(
    kind: str, failed: str, why: str, repair: tuple[str, ...] = (), known: str | None = None
) -> Verdict:
    return Verdict("FALLBACK", kind, [why], failed, repair, known=known)


def fallback_reply(kind: str, persona: str | None = None) -> str:
    """The fallback of ``kind`` in the persona's voice: its form of address (``voice.address``),
    or none where it names none. ``persona`` None: the default persona's ("sir")."""
    form = "sir" if persona is None else voice.address(persona)
    for line in prompts.load("fallbacks.txt").splitlines():
        if line.startswith(kind + ":"):
            return voice.in_voice(line.split(":", 1)[1].strip(), form)
    return voice.in_voice("My apologies, $sir, something went wrong. Would you ask me again?", form)


@dataclass(frozen=True)
class Repair:
    # fact kinds to add (facts.for_kinds): IDENTITY, TEMPORAL, CAPABILITIES, ...
    facts: tuple[str, ...]
    findings: bool  # hand the tool findings to the respond phase again
    question: str  # the question to answer, with any secret in it masked


def repair_for(v: Verdict, *, question: str = "") -> Repair | None:
    """What a second attempt needs after a FALLBACK by rule, or None when a second attempt
    would not help (the model check's verdicts, an answer that already reads the findings).

    vendor identity -> the identity facts; an unanswered or wrong clock -> the clock; a
    secret from the question -> no facts, and the question with the secret masked; a
    secret from the findings -> the rule to repeat no secret; an unanswered tool part ->
    the findings again; garbled text, an echo or a leak -> nothing added."""
    if v.verdict != "FALLBACK" or v.failed is None:
        return None
    facts = tuple(k for k in v.repair if k != "FINDINGS")
    masked = (
        secrets.redact(question, secrets.secret_values(question))
        if v.failed in ("question_secret", "credential")
        else question
    )
    return Repair(facts, "FINDINGS" in v.repair, masked)


QUALITY_SCHEMA = {
    "type": "object",
    "properties": {
        "verdict": {"type": "string", "enum": ["APPROVED", "FALLBACK"]},
        "fallback_type": {"type": "string", "enum": ["NONE", *TYPES]},
        "reason": {"type": "string", "maxLength": 200},
    },
    "required": ["verdict", "fallback_type", "reason"],
}

_OBJECT = lazy(r"\{.*\}", re.S)
_WORD_VERDICT = lazy(r"\b(APPROVED|FALLBACK)\b")
_WORD_TYPE = lazy("|".join(TYPES))


def parse_model_verdict(raw: str) -> tuple[str, str | None]:
    """The model check's (verdict, type); unreadable output counts as approval of a reply
    that already passed every hard rule (the doubts were soft)."""
    obj: dict = {}
    m = _OBJECT.search(raw or "")
    if m:
        try:
            loaded = json.loads(m.group(0))
            obj = loaded if isinstance(loaded, dict) else {}
        except ValueError:
            obj = {}
    verdict = str(obj.get("verdict", "")).upper()
    kind = str(obj.get("fallback_type", "")).upper()
    if verdict == "FALLBACK":
        return "FALLBACK", kind if kind in TYPES else "RETRY"
    if not obj:
        w = _WORD_VERDICT.search((raw or "").upper())
        if w and w.group(1) == "FALLBACK":
            t = _WORD_TYPE.search(raw.upper())
            return "FALLBACK", t.group(0) if t else "RETRY"
    return "APPROVED", None
