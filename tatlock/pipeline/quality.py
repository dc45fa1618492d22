"""Phase 5, the quality gate: deterministic checks first, a model check only when unsure.

Hard failures (a vendor/model identity claim, a leaked system prompt or credential, an
empty or garbled reply) are decided by rule. Softer doubts (the persona slipped, part of
a mixed question seems unanswered) go to the model. Look-alikes must pass: "the name of
the capital", "Tesla Model 3", "a llama farm", "a router password policy", and an honest
"I don't know".
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from tatlock import prompts

TYPES = ("I_DONT_KNOW", "NOT_ALLOWED", "CANT_DO", "MISSING_INFO", "RETRY")

_I = re.IGNORECASE
_VENDOR_IDENTITY = [
    re.compile(r"\b(?:i\s+am|i'm|im|as)\s+(?:just\s+|only\s+|merely\s+)?(?:an?\s+)?(?:ai|artificial intelligence)"
               r"(?:\s+(?:language\s+)?model|\s+assistant|\s+chatbot)?\b", _I),
    re.compile(r"\b(?:i\s+am|i'm|im|as)\s+(?:just\s+|only\s+)?(?:an?\s+)?(?:large\s+)?language\s+model\b", _I),
    re.compile(r"\b(?:i\s+am|i'm|im|as|my\s+name\s+is|i\s+am\s+called|called)\s+(?:an?\s+)?"
               r"(?:chat\s*gpt|gpt-?\d|llama\s*\d|llama\b(?!\s+farm)|gemma|mistral|qwen|claude|phi-?\d|smollm|deepseek)\b", _I),
    re.compile(r"\b(?:i\s+(?:was|am|have\s+been)|i'm)\s+(?:created|developed|trained|made|built)\s+by\s+"
               r"(?:openai|meta|google|anthropic|alibaba|mistral|microsoft|hugging\s*face|deepseek)\b", _I),
    re.compile(r"\bas\s+an?\s+(?:ai|language\s+model|llm)\b", _I),
]
_SECRET = [
    re.compile(r"\bsk-[A-Za-z0-9_-]{16,}"),
    re.compile(r"\bAKIA[0-9A-Z]{16}\b"),
    re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----"),
    # "the password is hunter2!" but not "your password is something you should change"
    re.compile(r"\b(?:password|passwd|api[_ -]?key|secret|token)\s*(?:is|[:=])\s*[\"'`]?"
               r"(?=\S*[0-9!@#$%^&*_+=])[A-Za-z0-9!@#$%^&*_+\-=]{6,}", _I),
]
_LEAK_MARKERS = [
    re.compile(r"\byou are the first phase of the butler's pipeline\b", _I),
    re.compile(r"\"decision\"\s*:\s*\"", _I),
    re.compile(r"\bmy (?:system prompt|hidden instructions) (?:is|are|says?)\b", _I),
]
# the prompt's own labels echoed back: the model parroted its instructions
_ECHO = re.compile(r"^\s*(?:latest message, from|findings:|user's location:|local date and time:|"
                   r"## (?:conversation so far|summary of messages))", _I | re.M)
_SIR = re.compile(r"\bsir\b", _I)


@dataclass
class Verdict:
    verdict: str  # APPROVED | FALLBACK | UNSURE (internal: ask the model)
    fallback_type: str | None = None
    checks: list[str] = field(default_factory=list)  # what failed or raised doubt

    @property
    def label(self) -> str:
        return "APPROVED" if self.verdict == "APPROVED" else f"FALLBACK:{self.fallback_type}"


def fallback_reply(kind: str) -> str:
    for line in prompts.load("fallbacks.txt").splitlines():
        if line.startswith(kind + ":"):
            return line.split(":", 1)[1].strip()
    return "My apologies, sir, something went wrong. Would you ask me again?"


def _garbled(answer: str) -> bool:
    text = answer.strip()
    if not text:
        return True
    letters = sum(ch.isalpha() for ch in text)
    if letters < max(2, len(text) * 0.4):
        return True
    if re.fullmatch(r"[\[{].*[\]}]", text, re.S):  # a JSON blob instead of prose
        return True
    return looping(text)


def _sentences(text: str) -> list[str]:
    return [x.strip() for x in re.split(r"(?<=[.!?])\s+|\n+", text) if x.strip()]


def looping(text: str) -> bool:
    """The model is repeating itself: one fragment back to back, or a sentence again and again."""
    if re.search(r"(.{3,}?)\1{6,}", text):
        return True
    sentences = [x.lower() for x in _sentences(text) if len(x) > 15]
    if len(sentences) >= 4:
        top = max(sentences.count(x) for x in set(sentences))
        if top >= 3 and top / len(sentences) >= 0.3:
            return True
    return False


def without_repeats(text: str) -> str:
    """The text with every sentence after its first appearance removed (a loop cut short)."""
    seen: set[str] = set()
    kept = []
    for sentence in _sentences(text):
        key = sentence.lower()
        if key not in seen:
            seen.add(key)
            kept.append(sentence)
    # the stream was cut mid-sentence: a start of a sentence already said is not new
    if len(kept) > 1 and any(k.lower().startswith(kept[-1].lower()) for k in kept[:-1]):
        kept.pop()
    return " ".join(kept)


def check(answer: str, *, question: str = "", persona_text: str = "", secrets: tuple[str, ...] = (),
          instructions: str = "",
          guard_parts: tuple[str, ...] = (), other_part: str = "") -> Verdict:
    checks: list[str] = []
    if _garbled(answer):
        return Verdict("FALLBACK", "RETRY", ["empty or garbled reply"])
    for pat in _VENDOR_IDENTITY:
        if m := pat.search(answer):
            return Verdict("FALLBACK", "RETRY", [f"model or vendor identity: {m.group(0)!r}"])
    if len(_ECHO.findall(answer)) >= 2:
        return Verdict("FALLBACK", "RETRY", ["the reply echoes the prompt"])
    for pat in _LEAK_MARKERS:
        if pat.search(answer):
            return Verdict("FALLBACK", "NOT_ALLOWED", ["system prompt leak"])
    if persona_text and _long_overlap(answer, persona_text):
        return Verdict("FALLBACK", "NOT_ALLOWED", ["persona instructions repeated verbatim"])
    if instructions and _long_overlap(answer, instructions):
        return Verdict("FALLBACK", "NOT_ALLOWED", ["instructions repeated verbatim"])
    for pat in _SECRET:
        if pat.search(answer):
            return Verdict("FALLBACK", "NOT_ALLOWED", ["credential-like text"])
    for s in secrets:
        if s and len(s) >= 6 and s in answer:
            return Verdict("FALLBACK", "NOT_ALLOWED", ["a configured secret"])
    notes = [] if _SIR.search(answer) else ["persona: the user is not addressed as sir"]
    if len(guard_parts) > 1 or other_part:
        checks.extend(_unanswered(answer, guard_parts, other_part))
    # a persona slip is recorded but does not by itself cost a model check or the answer:
    # a right answer without "sir" still serves the user better than a fallback
    return Verdict("UNSURE" if checks else "APPROVED", None, checks + notes)


def _unanswered(answer: str, parts: tuple[str, ...], other: str) -> list[str]:
    low = answer.lower()
    missing = []
    if "IDENTITY" in parts and "tatlock" not in low:
        missing.append("mixed: the identity part is not answered")
    if "TEMPORAL" in parts and not re.search(r"\d{1,2}[:.]\d{2}|\b\d{4}\b|monday|tuesday|wednesday|thursday|"
                                             r"friday|saturday|sunday", low):
        missing.append("mixed: the time or date part is not answered")
    words = [w for w in re.findall(r"[a-z]{4,}", other.lower())]
    if words and not any(w[:5] in low for w in words):
        missing.append(f"mixed: nothing about '{other}'")
    return missing


def _long_overlap(answer: str, source: str, n: int = 12) -> bool:
    """True when the answer repeats a run of n words from the source (the persona)."""
    a = re.findall(r"\w+", answer.lower())
    s = re.findall(r"\w+", source.lower())
    if len(a) < n or len(s) < n:
        return False
    grams = {tuple(s[i: i + n]) for i in range(len(s) - n + 1)}
    return any(tuple(a[i: i + n]) in grams for i in range(len(a) - n + 1))


QUALITY_SCHEMA = {
    "type": "object",
    "properties": {
        "verdict": {"type": "string", "enum": ["APPROVED", "FALLBACK"]},
        "fallback_type": {"type": "string", "enum": ["NONE", *TYPES]},
        "reason": {"type": "string", "maxLength": 200},
    },
    "required": ["verdict", "fallback_type", "reason"],
}


def parse_model_verdict(raw: str) -> tuple[str, str | None]:
    """The model check's (verdict, type); unreadable output counts as approval of a reply
    that already passed every hard rule (the doubts were soft)."""
    from tatlock.pipeline.assess import _json_object

    obj = _json_object(raw) or {}
    verdict = str(obj.get("verdict", "")).upper()
    kind = str(obj.get("fallback_type", "")).upper()
    if verdict == "FALLBACK":
        return "FALLBACK", kind if kind in TYPES else "RETRY"
    if not obj:
        m = re.search(r"\b(APPROVED|FALLBACK)\b", raw.upper())
        if m and m.group(1) == "FALLBACK":
            t = re.search("|".join(TYPES), raw.upper())
            return "FALLBACK", t.group(0) if t else "RETRY"
    return "APPROVED", None
