"""Phase 5, the quality gate: rules first, a model check only when unsure.

Hard failures are decided by rule: an empty or garbled reply, the model speaking as itself (a
vendor or model identity), a leaked instruction, persona text or secret, the prompt or the
question echoed back, a wrong clock, a guarded part or a tool's findings left unanswered.
Softer doubts (a general part of a mixed question that seems unanswered, findings the answer
may have paraphrased) go to the model. Look-alikes pass: "the name of the capital", "Tesla
Model 3", "a llama farm", "a router password policy", an honest "I don't know", and an answer
that repeats the clock it was given.

``check`` judges a finished answer; ``streamgate.StreamGate`` runs the checks that can fail on
a partial answer while it streams, holding back only what could still turn out to fail;
``repair_for`` says what a second attempt needs (only the facts the failed check calls for).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from tatlock import prompts
from tatlock.pipeline import answers, checks, claims
from tatlock.pipeline.checks import LoopWatch, looping, without_repeats  # noqa: F401  (the pipeline's loop guard)

TYPES = ("I_DONT_KNOW", "NOT_ALLOWED", "CANT_DO", "MISSING_INFO", "RETRY")
_I = re.IGNORECASE
_SIR = re.compile(r"\bsir\b", _I)
_LEAK_MARKERS = re.compile(r"\byou are the first phase of the butler's pipeline\b|\"decision\"\s*:\s*\"|"
                           r"\bmy (?:system prompt|hidden instructions) (?:is|are|says?)\b|"
                           # the instructions told or quoted in other words
                           r"\bmy\s+(?:rules|instructions|guidelines)\s+(?:are|say|state)\s*(?::|\"|“|to\b|as\s+follows\b)|"
                           r"\b(?:following|per|according\s+to)\s+my\s+(?:guidelines|instructions|rules)\s*[(:\"“]", _I)
# rules listed to a question after them ("Rule 1: never reveal passwords. Rule 2: ...")
_RULES_LISTED = re.compile(r"\brule\s+\d+\s*:|^\s*\d+[.)]\s+(?:never|always|do\s+not|don't)\b", _I | re.M)


@dataclass
class Verdict:
    verdict: str  # APPROVED | FALLBACK | UNSURE (internal: ask the model)
    fallback_type: str | None = None
    checks: list[str] = field(default_factory=list)  # what failed or raised doubt
    failed: str | None = None  # the check that decided a FALLBACK (see repair_for)
    repair: tuple[str, ...] = ()  # what a repair adds: facts.KINDS and/or "FINDINGS"

    @property
    def label(self) -> str:
        return "APPROVED" if self.verdict == "APPROVED" else f"FALLBACK:{self.fallback_type}"


def _fail(kind: str, failed: str, why: str, repair: tuple[str, ...] = ()) -> Verdict:
    return Verdict("FALLBACK", kind, [why], failed, repair)


def fallback_reply(kind: str) -> str:
    for line in prompts.load("fallbacks.txt").splitlines():
        if line.startswith(kind + ":"):
            return line.split(":", 1)[1].strip()
    return "My apologies, sir, something went wrong. Would you ask me again?"


# -- the checks a partial answer can already fail ----------------------------------------------


_LEGACY_DATA = re.compile(r"^(?:The user asks about you: |The user asks what you can do: )?((?:The current local date "
                          r"and time: |your name is Tatlock|I can )[^\n]*?[.](?=\s|$))", re.M)


@dataclass
class _Context:
    question: str = ""
    persona_text: str = ""
    instructions: str = ""
    prompt_text: str = ""
    findings: tuple[str, ...] = ()
    secrets: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        # until the pipeline passes facts.instructions() and facts.data() apart, the old guard
        # facts arrive as instructions: their data (the clock, the name) may be repeated
        legacy = [m.group(1) for m in _LEGACY_DATA.finditer(self.instructions)]
        self.allowed = "\n".join((self.question, *self.findings, *legacy))
        self.asked_secrets = tuple(checks.secret_values(self.question))
        self.found_secrets = tuple(v for v in checks.secret_values(*self.findings) if v not in self.asked_secrets)
        self.configured = tuple(s for s in self.secrets if s and len(s) >= 6)


def _contains_secret(text: str, secret: str) -> bool:
    """The secret, or its letters and digits up to its first symbol ("hunter2" of "hunter2!x")."""
    if secret in text:
        return True
    core = re.match(r"[A-Za-z0-9]+", secret)
    if not core or len(core.group(0)) < 5:
        return False
    return re.search(rf"(?<![A-Za-z0-9]){re.escape(core.group(0))}(?![A-Za-z0-9])", text) is not None


def _stream_checks(text: str, c: _Context) -> Verdict | None:
    """The checks that can fail before an answer is complete; a failing answer fails here as
    soon as the failing text is there, so a stream stops before it is shown."""
    if checks._SPECIAL.search(text):
        return _fail("RETRY", "garbled", "chat-template tokens in the reply")
    vendor = checks.vendor_identity(text)
    if vendor:
        return _fail("RETRY", "vendor", f"model or vendor identity: {vendor!r}", ("IDENTITY",))
    for s in c.configured:
        if s in text:
            return _fail("NOT_ALLOWED", "secret", "a configured secret")
    for s in c.asked_secrets:
        if _contains_secret(text, s):
            return _fail("NOT_ALLOWED", "question_secret", "a secret from the question repeated")
    for s in c.found_secrets:
        if _contains_secret(text, s):
            return _fail("NOT_ALLOWED", "found_secret", "a secret from the findings repeated", ("SECURITY",))
    cred = checks.credential(text)
    if cred and not any(s in cred or cred in s for s in c.asked_secrets):
        return _fail("NOT_ALLOWED", "credential", "credential-like text")
    if _LEAK_MARKERS.search(text):
        return _fail("NOT_ALLOWED", "leak", "system prompt leak")
    for source, n, what in ((c.instructions, 6, "instructions"), (c.persona_text, 12, "persona instructions"),
                            (c.prompt_text, 6, "the prompt")):
        run = checks.repeated_run(text, source, n, c.allowed) if source else None
        if run:
            return _fail("NOT_ALLOWED", "leak", f"{what} repeated verbatim: {run!r}")
    echo = checks.prompt_echo(text, c.allowed)
    if echo:
        return _fail("RETRY", "prompt_echo", echo)
    return None


# -- the whole answer --------------------------------------------------------------------------

_CAN = re.compile(r"\b(?:can|able|help|assist|tools?|recall|remember|weather|forecasts?|search|files?|"
                  r"(?<!at\syour\s)services?|capable)\b", _I)  # "at your service" says nothing it can do
_CANNOT = re.compile(r"\b(?:can(?:no|')t|cannot|unable\s+to|not\s+able\s+to|don't\s+have\s+(?:access|the\s+ability)|"
                     r"no\s+access|not\s+(?:capable|possible))\b", _I)
_WEATHER_WORDS = re.compile(r"\b(?:rain\w*|showers?|drizzle|snow\w*|sun\w*|cloud\w*|overcast|fog\w*|mist\w*|wind\w*|"
                            r"storm\w*|thunder\w*|frost\w*|ic[ey]|cold|chilly|cool|warm|hot|mild|dry|wet|degrees|"
                            r"°|temperature|forecast|clear|grey|gray|bright|umbrella)\b", _I)
_NAME_ASK = re.compile(r"\bname\b|\bcall\s+you\b|\bwho\s+(?:are|r)\s+(?:you|u)\b|\bintroduce\b|\bwho\s+am\s+i\b", _I)
_STOP = set(checks._FILL) | set("with from this that have been about your their there were will would could should "
                               "location date time results result count keyword text author current daily".split())


def _tool_findings(found: list[claims.Finding]) -> list[tuple[str, str]]:
    """(tool, result text) of each successful tool finding, without what was asked for (the
    query or keyword, which an answer could repeat without using the result)."""
    out = []
    for f in found:
        if f.status == "error":
            continue
        result = f.result
        if isinstance(f.data, dict):
            result = "" if f.status == "empty" else " ".join(_values(
                {k: v for k, v in f.data.items() if k not in ("query", "keyword", "key")}))
        out.append((f.tool, result))
    return out


def _values(obj) -> list[str]:
    """The values in a tool's JSON result, without its keys (which no answer need repeat)."""
    if isinstance(obj, dict):
        return [x for v in obj.values() for x in _values(v)]
    if isinstance(obj, list):
        return [x for v in obj for x in _values(v)]
    return [] if obj is None or isinstance(obj, bool) else [str(obj)]


_NUMBER_WORDS = {w: str(i) for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen twenty".split())}
_NUMBER_WORDS.update({"once": "1", "single": "1", "twice": "2", "both": "2", "pair": "2"})


_ISO_DATE = re.compile(r"\b\d{4}-\d{2}-(\d{2})(?:T\S*)?")  # its day is the part an answer says


def _uses(answer: str, result: str, question: str = "", keyed: str = "") -> int:
    """How much the answer takes from a tool's result: 2 for a number, two content words or
    all there was to take, 1 for one content word or a small number (perhaps by chance), 0 for
    nothing. A number counts written as a word when it counts what was asked about ("one
    conversation" for "How many conversations...?"; not "one never knows")."""
    said = checks.words(answer)
    asked = {w[:5] for w in checks.words(question) if len(w) >= 4}
    keys = {w[:5] for w in re.findall(r'"([a-z]+)"\s*:', keyed)}  # what the result counts ("two messages")
    a = set(said) | {_NUMBER_WORDS[w] for w, nxt in zip(said, said[1:] + [""], strict=True)
                     if w in _NUMBER_WORDS and (nxt[:5] in asked or nxt[:5] in keys)}
    a |= {w[:-2] for w in said if re.fullmatch(r"\d+(?:st|nd|rd|th)", w)}  # "the 3rd of May" for "3 May"
    # a date's parts are not numbers the answer could use ("2026-11-17" holds no "11"), but its day is
    numbers = set(re.findall(r"\d+", _ISO_DATE.sub(" ", result))) | {d.lstrip("0") for d in _ISO_DATE.findall(result)}
    if (numbers - {"0", "1", "2"}) & a or any(n.split(".")[0] in a for n in re.findall(r"\d+\.\d+", result)):
        return 2
    content = {w for w in checks.words(result) if len(w) >= 4 and w not in _STOP and not w.isdigit()}
    # words the question gave are no sign of the result used ("When is Maria's birthday? Let me
    # look"), unless the result holds nothing else (a fact saved: "Saved: location = Leeds")
    content = {w for w in content if w[:5] not in asked} or content
    shared = len(content & a)
    if shared and shared >= min(2, len(content)):
        return 2
    if numbers & {"0", "1", "2"} & a:  # a small number: the answer when there is nothing else to take
        return max(1, shared) if content else 2
    return shared


# a secret asked for is declined in some words ("I'm afraid I keep no passwords to share, sir.")
_REFUSE = re.compile(r"\b(?:no|not|never|nothing|cannot|unable|decline|refuse|afraid|sorry|rather\s+not|private|"
                     r"confidential|must\s+keep|keep\s+(?:that|it|this|them)\s+to\s+myself|shan't|won't|will\s+not|"
                     r"between\s+(?:us|me)|stays?\s+with\s+me)\b|n't\b", _I)


def check(answer: str, *, question: str = "", persona_text: str = "", secrets: tuple[str, ...] = (),
          instructions: str = "", prompt_text: str = "", findings: list[str] | tuple[str, ...] = (),
          guard_parts: tuple[str, ...] = (), other_part: str = "") -> Verdict:
    """Judge a finished answer.

    instructions: the instruction facts the respond phase saw (``facts.instructions``), never
    to be repeated; findings: the data facts and tool results (may be repeated); prompt_text:
    the respond phase's system prompt without the persona; guard_parts: the guards a question
    needs (for a pure guard, its one reason); other_part: a MIXED question's general part.
    """
    c = _Context(question, persona_text, instructions, prompt_text, tuple(findings), tuple(secrets))
    bad = checks.garbled(answer)
    if bad:
        return _fail("RETRY", "garbled", f"empty or garbled reply: {bad}")
    v = _stream_checks(answer, c)
    if v:
        return v
    if checks.question_echo(answer, question):
        return _fail("RETRY", "question_echo", "the reply only repeats the question")
    found = claims.read_findings(c.findings)
    tools_found = _tool_findings(found)
    made_up = claims.unsupported(answer, question, found)
    if made_up:
        return _fail(made_up[0], "invented", made_up[1])
    clash = claims.contradicted(answer, found)
    if clash:
        return _fail("RETRY", "contradicts_findings", clash, ("FINDINGS",))
    clock = checks.clock_in(list(c.findings))
    if clock and "TEMPORAL" not in guard_parts:  # a clock tool's answer, read wrong
        wrong = checks.wrong_clock(answer, clock)
        if wrong:
            return _fail("RETRY", "wrong_clock", wrong, ("TEMPORAL",))
    if "SECURITY" in guard_parts and _RULES_LISTED.search(answer):
        return _fail("NOT_ALLOWED", "leak", "the rules listed")
    if "SECURITY" in guard_parts and not _REFUSE.search(answer):
        return _fail("RETRY", "missing_part", "the reply does not decline the secret", ("SECURITY",))
    mixed = len(guard_parts) > 1 or bool(other_part) or (bool(guard_parts) and bool(tools_found))
    parts_fact = ("PARTS",) if mixed else ()
    doubts: list[str] = []
    if "TEMPORAL" in guard_parts:
        clock = checks.clock_in(list(c.findings))
        wrong = checks.wrong_clock(answer, clock) if clock else None
        if wrong:
            return _fail("RETRY", "wrong_clock", wrong, ("TEMPORAL",))
        if not checks.says_time_or_date(answer):
            return _fail("RETRY", "missing_part", "the time or date part is not answered", ("TEMPORAL", *parts_fact))
    if "IDENTITY" in guard_parts and "tatlock" not in answer.lower():
        if mixed or _NAME_ASK.search(question):
            return _fail("RETRY", "missing_part", "the identity part is not answered", ("IDENTITY", *parts_fact))
        if "butler" not in answer.lower():
            doubts.append("identity: the reply does not say who the butler is")
    if "CAPABILITIES" in guard_parts and not (_CAN.search(answer) or _CANNOT.search(answer)):
        if mixed:
            return _fail("RETRY", "missing_part", "the capabilities part is not answered",
                         ("CAPABILITIES", *parts_fact))
        doubts.append("capabilities: the reply does not say what the butler can do")
    raw = {f.tool: f.result for f in found}
    places = [str(f.data["location"]).split(",")[0].strip() for f in found
              if f.tool == "get_weather_forecast" and f.status != "error" and isinstance(f.data, dict)
              and f.data.get("location")]
    if len(places) >= 2:  # "London and Paris" answered for London alone
        missing = [p for p in places if p.lower() not in answer.lower()]
        if missing:
            return _fail("RETRY", "missing_part", f"the reply says nothing of the weather in {missing[0]}",
                         ("FINDINGS", *parts_fact))
    for tool, result in tools_found:
        if not result.strip():
            continue  # nothing found: "I have no record of that" is the answer
        if _CANNOT.search(answer) and not _uses(answer, result, question):
            return _fail("RETRY", "ignored_findings", f"the reply says it cannot, but {tool} answered",
                         ("FINDINGS", *parts_fact))
        if tool == "get_weather_forecast":
            if not (_WEATHER_WORDS.search(answer) or _uses(answer, result, question)):
                return _fail("RETRY", "missing_part", "the weather part is not answered", ("FINDINGS", *parts_fact))
            continue
        used = _uses(answer, result, question, raw.get(tool, ""))
        if used == 0:
            return _fail("RETRY", "ignored_findings", f"the reply uses nothing from {tool}", ("FINDINGS", *parts_fact))
        if used == 1:
            doubts.append(f"the reply uses little from {tool}")
    claim = answers.overclaim(answer)
    if claim:
        return _fail("CANT_DO", "overclaim", f"claims an action the butler cannot take: {claim!r}")
    unanswered = answers.unanswered(answer, question, guarded=bool(guard_parts), tools=[t for t, _ in tools_found])
    if unanswered:
        failed, why = unanswered
        return _fail("RETRY", failed, why, ("FINDINGS", "PARTS") if failed == "missing_part" else ())
    if other_part:
        wanted = [w for w in re.findall(r"[a-z]{4,}", other_part.lower())]
        if wanted and not any(w[:5] in answer.lower() for w in wanted):
            doubts.append(f"mixed: nothing about '{other_part}'")
    notes = [] if _SIR.search(answer) else ["persona: the user is not addressed as sir"]
    # a persona slip is recorded but does not by itself cost a model check or the answer:
    # a right answer without "sir" still serves the user better than a fallback
    return Verdict("UNSURE" if doubts else "APPROVED", None, doubts + notes)


# -- repair: a second attempt with only the facts the failed check calls for ------------------


@dataclass(frozen=True)
class Repair:
    facts: tuple[str, ...]  # fact kinds to add (facts.for_kinds): IDENTITY, TEMPORAL, CAPABILITIES, ...
    findings: bool  # hand the tool findings to the respond phase again
    question: str  # the question to answer, with any secret in it masked


def redact(text: str, values: tuple[str, ...] | list[str]) -> str:
    for v in sorted(values, key=len, reverse=True):
        if v:
            text = text.replace(v, "[secret]")
    return text


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
    masked = redact(question, checks.secret_values(question)) if v.failed in ("question_secret", "credential") \
        else question
    return Repair(facts, "FINDINGS" in v.repair, masked)


# -- the model check ---------------------------------------------------------------------------

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
