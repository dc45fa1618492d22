"""What the user told, found again: the line of this conversation, of the kept facts or of an
earlier conversation that a question about what was said points at (``told_line``), the user's
last lines for a question no line shares a word with (``last_said``), and the user's words
turned to the butler's address ("my sister" -> "your sister") for saying them back. Used by
``compose`` to answer from them and by ``carried`` to tell whether an answer says them."""

from __future__ import annotations

import re
from dataclasses import dataclass

from tatlock.memory import earlier
from tatlock.pipeline import asks, gate
from tatlock.pipeline.gate.text import words
from tatlock.pipeline.rulebook import lazy
from tatlock.store.user_records import Author

ASKS = asks.ASKS

ASSISTANT = Author.assistant().name  # the author name of the butler's replies

# the words of a question that say what kind of thing is asked, not which thing
ASKING = set(
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

_SPEAKER = lazy(r"^(?:Anchor \(([^)]*)\)|\[[^\]]*\(bot\)\]|[\w .'-]{1,40}):\s+(.*)$")


@dataclass(frozen=True)
class Said:
    """A line of memory that a question about what was told points at."""

    text: str  # the line, as said (in the speaker's words)
    # "conversation" (a turn of this conversation), "earlier" (the user's message of an earlier
    # conversation, memory/earlier.py) or "memory" (kept facts, summaries)
    source: str
    score: int  # how many of the question's words it shares
    when: str = ""  # an earlier conversation's message: its date (YYYY-MM-DD)


def stem(word: str) -> str:
    """A word's first five letters, a plural's or a possessive's s dropped ("dog's" is "dog")."""
    return (
        word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word
    )[:5]


def stems(text: str) -> set[str]:
    return {stem(w) for w in words(text) if w not in ASKING and len(w) >= 3}


def told_line(question: str, memory: str) -> Said | None:
    """The line of memory (a user's turn of this conversation, a kept fact, a summary's line)
    that shares most of the question's own words; on a tie the latest. Replies are not lines
    the user told."""
    want = stems(question) | _implied(question, _IMPLIED)
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
        have = stems(line) | _implied(line)
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


def found_lines(brief: gate.Brief) -> str:
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


def owners_to_you(line: str, question: str, memory: str) -> str:
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


def to_you(text: str) -> str:
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
