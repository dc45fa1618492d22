"""Answers from what the butler knows, for when the model's answer fails.

A small model ignores facts it was handed: the clock in its prompt, its own name, this
computer's report, a tool's error, what the user said two turns ago. Where such a fact answers
the question, the butler says it: ``asked`` reads what the question asks for (rules with their
examples, and the route: a TEMPORAL guard asks for the clock, a system report answers a
question about cores), ``facts_for`` picks the facts in hand that answer it (``gate.in_hand``
plus what is always known: the clock, the butler's name and nature, its tools; and the line
of the conversation or of the kept facts that the question points at), ``compose`` writes a
short answer from them with the templates of ``prompts/composed.txt``, in the fact's own words.
``carries`` tells whether an answer carries them, so an answer that skips the fact it was
asked for is not approved.

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
from tatlock.memory import earlier
from tatlock.pipeline import asks, gate, voice
from tatlock.pipeline import facts as facts_mod
from tatlock.pipeline.gate import clock as clock_mod
from tatlock.pipeline.gate.checks import CHECK_WORDS
from tatlock.pipeline.gate.compute import WORD_NUMBERS
from tatlock.pipeline.gate.text import words
from tatlock.pipeline.lexicon import MONTHS, WEEKDAYS
from tatlock.pipeline.rulebook import Rule, lazy
from tatlock.store.user_records import Author

ASSISTANT = Author.assistant().name  # the author name of the butler's replies
ASKS = asks.ASKS  # what a question asks for: the one reader the gate uses too (pipeline/asks.py)
# the words of a question that say what kind of thing is asked, not which thing
_ASKING = set(
    "what whats where wheres when whens who whos which how did do does say said told tell remember "
    "recall "
    "again called call name named is are was were am the a an my our i me you your u ur "
    "of to for in on "
    "at and or it its that this just now please remind btw again so yet ever testing "
    "minute ago".split()
)
_TO_YOU = {
    "i": "you",
    "i'm": "you're",
    "im": "you're",
    "my": "your",
    "me": "you",
    "mine": "yours",
    "am": "are",
    "i've": "you've",
    "i'll": "you'll",
    "i'd": "you'd",
    "myself": "yourself",
    "we": "you",
    "our": "your",
    "us": "you",
    "we're": "you're",
    "ours": "yours",
}
_TO_ME = {"your": "my", "you": "I", "you're": "I'm", "yours": "mine"}
_SPEAKER = lazy(r"^(?:Anchor \(([^)]*)\)|\[[^\]]*\(bot\)\]|[\w .'-]{1,40}):\s+(.*)$")
_TEMPLATE = lazy(r"^([a-z_.]+):\s*(.*)$")


@dataclass(frozen=True)
class Said:
    """A line of memory that a question about what was told points at."""

    text: str  # the line, as said (in the speaker's words)
    # "conversation" (a turn of this conversation), "earlier" (the user's message of an earlier
    # conversation, memory/earlier.py) or "memory" (kept facts, summaries)
    source: str
    score: int  # how many of the question's words it shares
    when: str = ""  # an earlier conversation's message: its date (YYYY-MM-DD)


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


def _stem(word: str) -> str:
    """A word's first five letters, a plural's or a possessive's s dropped ("dog's" is "dog")."""
    return (
        word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word
    )[:5]


def _stems(text: str) -> set[str]:
    return {_stem(w) for w in words(text) if w not in _ASKING and len(w) >= 3}


def told_line(question: str, memory: str) -> Said | None:
    """The line of memory (a user's turn of this conversation, a kept fact, a summary's line)
    that shares most of the question's own words; on a tie the latest. Replies are not lines
    the user told."""
    want = _stems(question) | _implied(question, _IMPLIED)
    if not want:
        return None
    best: Said | None = None
    section = ""
    for raw in memory.splitlines():
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            section = line.lower()
            continue
        source, when = "memory", ""
        m = _SPEAKER.match(line)
        if "conversation so far" in section:
            if not m or line.startswith("Assistant:"):
                continue
            line, source = m.group(2).strip(), "conversation"
        line = line.lstrip("-* ").strip()
        if section == earlier.HEADING.lower():
            dated = _DATED.match(line)
            line, source, when = (
                (dated.group(2), "earlier", dated.group(1)) if dated else (line, "earlier", "")
            )
        have = _stems(line) | _implied(line)
        score = len(want & have)
        # on a tie the latest line wins, except that a message of an earlier conversation does
        # not take the place of a kept fact (the fact is the newest value; the message may be old)
        tie_ok = not (source == "earlier" and best is not None and best.source == "memory")
        if (
            score
            and have - want
            and (best is None or score > best.score or (score == best.score and tie_ok))
        ):
            best = Said(line, source, score, when)
    return best


# a question about what the user said in this conversation ("which bike did I say it was?")
_SAID_HERE = lazy(
    r"\b(?:did|do)\s+i\s+(?:say|tell|mention)|\bi\s+(?:just\s+)?(?:said|told|mentioned)\b", re.I
)
# the most of the user's last lines said back when none shares a word with such a question
LAST_SAID = 2


def last_said(question: str, memory: str) -> Said | None:
    """What the user said last in this conversation, for a question about what they said here
    whose words no line shares ("which bike did I say it was?" after "...on my Brompton..."):
    their own words said back (at most ``LAST_SAID`` lines), rather than an apology."""
    if not _SAID_HERE.search(question):
        return None
    _, _, transcript = memory.partition("## Conversation so far")
    lines = []
    for raw in transcript.strip().splitlines():
        m = _SPEAKER.match(raw.strip())
        if m and not raw.startswith("Assistant:"):
            lines.append(m.group(2).strip())
    lines = [ln for ln in lines if len(words(ln)) >= 3][-LAST_SAID:]
    if not lines:
        return None
    return Said(" ... ".join(lines), "conversation", 0)


_DATED = lazy(r"^\[(\d{4}-\d{2}-\d{2})\]\s*(.*)$")
# what a question's words imply that a line says in other words: "my home town" is where one grew
# up or comes from (a kept fact "grew up in: Aberdeen"); (words of the question, stems they imply)
_IMPLIED: tuple[tuple[str, frozenset[str]], ...] = (
    (
        r"\bhome\s*town\b|\bwhere\s+(?:am\s+i|i'?m)\s+from\b|\bwhere\s+(?:did\s+)?i\s+grow\s+up\b",
        frozenset({"hometown"}),
    ),
    # "what do I do for a living?" is a kept "job: radiographer"
    (
        r"\bfor\s+a\s+living\b|\bwhat\s+(?:do|did)\s+i\s+do\b|\boccupation\b|\bprofession\b|\bline\s+of\s+work\b",
        frozenset({"job"}),
    ),
)
_IMPLIED_BY_LINE: tuple[tuple[str, frozenset[str]], ...] = (
    (
        r"\bgrew\s+up\b|\bgrew_up\b|'s\s+from:|\bi'?m\s+(?:originally\s+)?from\b|\bhome\s*town\b",
        frozenset({"hometown"}),
    ),
)


def _implied(
    text: str, table: tuple[tuple[str, frozenset[str]], ...] = _IMPLIED_BY_LINE
) -> set[str]:
    return {s for pattern, stems in table if re.search(pattern, text, re.I) for s in stems}


# the most tokens of an answer to a question the facts in hand answer: a sentence or two (a small
# model that has not said the fact by then will not; the answer is then composed from it)
FACT_ANSWER_TOKENS = 64
_WHOLE = lazy(r"[.!?…][\"')\]]?\s*$")


# what answers each guard's part of a question
_COVERS = {"TEMPORAL": {"clock"}, "IDENTITY": {"name", "nature"}, "CAPABILITIES": {"capabilities"}}


def said_whole(text: str) -> bool:
    """The text ends at the end of a sentence."""
    return bool(_WHOLE.search(text))


# the tools that look up what the user told (a question about this conversation needs none of them)
LOOKUPS = frozenset(
    {"get_personal_variable", "recall_memories", "recall_memories_with_time", "recall_topic"}
)


def told_in_conversation(question: str, wanted: list[str], memory: str) -> Said | None:
    """The turn of this conversation a question about what the user said points at, when the
    route would only look it up (a variable, a recall): then the conversation answers it."""
    if not set(wanted) <= LOOKUPS or not ASKS.first(question, "told"):
        return None
    said = told_line(question, memory)
    return said if said is not None and said.source == "conversation" else None


def _found_lines(brief: gate.Brief) -> str:
    """What the lookups of memory found (kept facts, a value, recalled turns), as lines of
    memory a question about what was told can point at."""
    lines: list[str] = []
    for f in brief.findings:
        if f.tool not in LOOKUPS or f.status != "ok" or not isinstance(f.data, dict):
            continue
        for kept in f.data.get("kept_facts") or []:
            if isinstance(kept, dict) and kept.get("fact"):
                lines.append(str(kept["fact"]))
        if f.data.get("value") and f.data.get("key"):
            lines.append(f"{f.data['key']}: {f.data['value']}")
        for hit in f.data.get("results") or []:
            # the butler's own replies are no statement of what the user told
            if isinstance(hit, dict) and hit.get("text") and hit.get("author") != ASSISTANT:
                lines.append(str(hit["text"]))
    return ("\n## Found in memory\n" + "\n".join(lines) + "\n") if lines else ""


_OWNER = re.compile(r"kept facts: (.{1,40}?) is the owner\b")
_FIRST_PERSON = re.compile(r"\b(?:i|i'm|im|my|me|mine|our|we)\b", re.IGNORECASE)


def _owners_to_you(line: str, question: str, memory: str) -> str:
    """A kept fact of the owner's said back to the owner who asked of "my ...": "Ann's dentist:
    Dr Okafor" -> "your dentist is Dr Okafor" (the question in the first person was matched to
    the owner's fact, so it is theirs); a question that names the owner keeps the name."""
    owner = _OWNER.search(memory)
    name = owner.group(1) if owner else ""
    if not name or not _FIRST_PERSON.search(question) or not line.startswith(name + "'s "):
        return line
    what, sep, value = line[len(name) + 3 :].partition(": ")
    return (
        f"your {what} is {value}"
        if sep and len(what.split()) <= 5
        else "your " + what + sep + value
    )


def _to_you(text: str) -> str:
    """The user's words turned to the butler's address: "my sister" -> "your sister"."""

    def swap(m: re.Match[str]) -> str:
        w = m.group(0)
        out = _TO_YOU.get(w.lower(), w)
        return out[0].upper() + out[1:] if w[0].isupper() and m.start() == 0 else out

    # "you were", not "you was"
    text = re.sub(r"\b(i|we)\s+was\b", lambda m: m.group(1) + " were", text, flags=re.I)
    return re.sub(
        r"\b(?:i'm|i've|i'll|i'd|im|i|my|me|mine|myself|am|we're|we|our|ours|us)\b",
        swap,
        text,
        flags=re.I,
    )


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
            said = told_line(question, memory + _found_lines(brief)) or last_said(question, memory)
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
            fields["said"] = _owners_to_you(fields["said"], question, memory)
        if kind in ("told", "memory", "earlier"):
            fields["said"] = _to_you(fields["said"])
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
    asked_words = {_stem(w) for w in words(question)}
    for m in rule.regex.finditer(answer):
        said = set(words(m.group(0)))
        for names, cats in _ABILITY_WORDS:
            if said & names and {_stem(w) for w in names} & asked_words:
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


# words of the abilities' phrases that name none of them
_GENERIC = {
    "local",
    "tell",
    "this",
    "earlier",
    "your",
    "things",
    "help",
    "questions",
    "answer",
    "general",
}
# numbers said in words, from the gate's one table (gate/compute.py): units to nineteen, and tens
_NUMBER_WORDS = {
    w: str(n) for w, n in WORD_NUMBERS.items() if 1 <= n < 20 and w not in ("a", "an", "dozen")
}
_TENS = {w: n for w, n in WORD_NUMBERS.items() if 20 <= n < 100 and n % 10 == 0}


def _said_in_words(answer: str) -> set[str]:
    """The whole numbers an answer says in words, to 99: "Forty-two, sir." -> {"42"}."""
    said = words(answer)
    out: set[str] = set()
    i = 0
    while i < len(said):
        w = said[i]
        unit = said[i + 1] if i + 1 < len(said) else ""
        if w in _TENS and unit in _NUMBER_WORDS and int(_NUMBER_WORDS[unit]) < 10:
            out.add(str(_TENS[w] + int(_NUMBER_WORDS[unit])))  # "forty two": 42, not 40 and 2
            i += 2
            continue
        if w in _TENS:
            out.add(str(_TENS[w]))
        elif w in _NUMBER_WORDS:
            out.add(_NUMBER_WORDS[w])
        i += 1
    return out


# the report's values a question about each part of the machine is answered by
_SYSTEM_VALUES = {
    "system.cores": (("cpu", "count"), ("cpu", "physical_cores")),
    "system.memory": (("memory", "total_gib"), ("memory", "available_gib")),
    "system.disk": (("disk", "free_gib"), ("disk", "total_gib")),
    "system": (
        ("cpu", "count"),
        ("memory", "total_gib"),
        ("memory", "available_gib"),
        ("disk", "free_gib"),
    ),
}


_HELD_KEY = lazy(r"(\S+?),?\s*\$sir\.?\s*$")


def says_held(answer: str, held: str) -> bool:
    """Whether an answer says the answer the gate holds ("The capital of Australia is Canberra,
    $sir." -> "Canberra"; "8, $sir." -> "8" or "eight")."""
    m = _HELD_KEY.search(held)
    key = (m.group(1) if m else held).strip(".,").lower()
    if re.fullmatch(r"\d+(?:\.\d+)?", key):
        return _says_number(answer, key)
    return key in set(words(answer))


def _says_number(answer: str, value: Any) -> bool:
    said = set(re.findall(r"\d+(?:\.\d+)?", answer)) | _said_in_words(answer)
    try:
        x = float(value)
    except (TypeError, ValueError):
        return False
    return any(abs(float(s) - x) <= max(0.06, abs(x) * 0.03) or s == str(round(x)) for s in said)


def carries(answer: str, question: str, kind: str, k: gate.Known) -> bool:
    """Whether the answer carries the fact: for a line told, one of its own words that the
    question did not give (a name or a number first: "Harriet", not "coming"); for the system
    report, a value of the part asked about; else the gate's reading (``gate.carries``)."""
    if k.kind == "told":
        given = _stems(question)
        line = str(k.value)
        own = {  # a number of any length is the fact ("spot 47"), a short word is not
            w
            for w in words(line)
            if (len(w) >= 3 or w.isdigit()) and w not in _ASKING and _stem(w) not in given
        }
        key = {
            w.lower() for w in re.findall(r"(?<!^)(?<![.!?]\s)\b(?:[A-Z][a-z]+|\d+)", line)
        } & own
        calendar = set(WEEKDAYS) | set(MONTHS)
        if re.search(r"\b(?:called|name|named|who)\b", question, re.I):
            key -= calendar  # asked for a name: "Cuthbert", not "Sunday"
        elif re.search(r"\b(?:when|whens|when's|what\s+day|date)\b", question, re.I):
            key = {w for w in key if w in calendar or w.isdigit()} or key
        # with no name or number, its longer words ("portuguese", not "going")
        long = {w for w in own if len(w) >= 6}
        return bool((key or long or own) & set(words(answer)))
    if k.kind == "capabilities":
        # two of the things it can do named by their own words ("local" in "your local business" is
        # none)
        said = {_stem(w) for w in words(answer)}
        named = [
            p
            for p in k.value
            if {_stem(w) for w in words(p) if len(w) >= 4 and w not in _GENERIC} & said
        ]
        return len(named) >= min(2, len(k.value))
    if k.kind == "system" and isinstance(k.value, dict):
        if kind == "system.os":
            system = str((k.value.get("os") or {}).get("system") or "")
            return bool(system) and system.lower() in answer.lower()
        values = [
            (k.value.get(a) or {}).get(b)
            for a, b in _SYSTEM_VALUES.get(kind, _SYSTEM_VALUES["system"])
        ]
        return any(_says_number(answer, v) for v in values if v is not None)
    return gate.carries(answer, k)
