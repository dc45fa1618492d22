"""Deterministic summaries: what a summary must keep, taken from the messages by rule.

A small model often cannot write a summary in the shape memory needs (SmolLM2 never wrote the
briefing's three sections in 53 tries), and a slow one may not finish in time. Then the
summary is not retried after every turn: it is replaced by an *extract*, made here without a
model, in the same sections, so memory still gets a usable record:

* the facts: sentences with a number, a date or a day, a name, or something a person says
  about themselves or decides ("my sister Philippa was born on 3 May 1990", "we booked the
  hotel"), each attributed to its author;
* the timeline: one short line per message a person wrote, with its number and date;
* open items: questions that got no answer (withdrawn, cancelled or failed replies) and
  things to do ("remind me", "don't forget", "I need to"), marked [UNRESOLVED];
* technical details: code spans, paths, URLs, versions and commands, exactly as written;
* topics: those the model named for the messages, then the names that recur.

What the assistant said is kept only where it carries a number or a name, and attributed to
it: a small model's reply is not a fact the user confirmed. Secrets are withheld (redact).
Superseded messages (store/revisions.py) are left out, as from every transcript the model reads.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from tatlock.memory.summary_format import SECTIONS, parse_sections
from tatlock.redact import redact
from tatlock.store import revisions
from tatlock.store.user import Message
from tatlock.timeutil import local

__all__ = [
    "attributed",
    "compact_extract",
    "fact_sentences",
    "is_fact",
    "merged_records",
    "name_of",
    "open_items",
    "recurring_names",
    "technical",
]

MAX_FACTS_CHARS = 1800  # per section, so an extract stays well below the raw messages it replaces
MAX_TIMELINE_CHARS = 1200
MAX_OPEN_CHARS = 500
MAX_TECH_CHARS = 500
MAX_SENTENCE = 220  # characters of one fact
MAX_TIMELINE_LINE = 110

_MONTHS = (
    "january|february|march|april|may|june|july|august|september|october|november|december|"
    "jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec"
)
_DAYS = "monday|tuesday|wednesday|thursday|friday|saturday|sunday|today|tomorrow|tonight|yesterday|weekend"
_DATE_RE = re.compile(
    rf"\b(?:{_MONTHS}|{_DAYS}|next (?:week|month|year)|last "
    rf"(?:week|month|year))\b",
    re.I,
)
_NUMBER_RE = re.compile(r"\d")
# what a person says about themselves, the people around them, and what they decide or plan
_PERSONAL_RE = re.compile(
    r"\b(?:my|our|i am|i'm|i have|i've|i will|i'll|i was|we are|we're|we will|we'll|we have|call "
    r"me|named|called|"
    r"born|birthday|anniversary|live[sd]?|living|moved?|work(?:s|ed)? "
    r"(?:at|for|as)|prefer|favou?rite|allergic|"
    r"remember|decided|agreed|booked|bought|ordered|paid|scheduled|planned|appointment|meeting|deadline|"
    r"address|phone|email|wife|husband|partner|son|daughter|sister|brother|mother|father|mum|dad|friend)\b",
    re.I,
)
_TODO_RE = re.compile(
    r"\b(?:remind me|don't forget|do not forget|need to|have to|must|todo|to do|"
    r"follow up|later|next time|pending|waiting for)\b",
    re.I,
)
_TECH_RE = re.compile(
    r"`[^`\n]{2,80}`"  # code spans
    r"|https?://[^\s)>\]]+"  # URLs
    r"|(?:~|\.{1,2})?/[\w.-]+(?:/[\w.-]+)+"  # paths
    r"|(?<![\w-])[\w-]+\.(?:py|js|ts|json|toml|ya?ml|md|txt|csv|sh|sql|rs|go|c|h|cpp|java|html|css|log|conf|ini)\b"
    r"|\bv?\d+\.\d+(?:\.\d+)+\b"  # versions
    r"|(?m:^\s*\$ .{2,100}$)"
)  # shell commands
_SENTENCE_RE = re.compile(r"(?<=[.!?])\s+(?=[^a-z])|\n+")
_WORD_RE = re.compile(r"[A-Z][a-zA-Z'-]{2,}")
_STOP = {
    "The",
    "This",
    "That",
    "These",
    "Those",
    "There",
    "Then",
    "What",
    "When",
    "Where",
    "Which",
    "Who",
    "Why",
    "How",
    "And",
    "But",
    "For",
    "Yes",
    "Not",
    "Please",
    "Thanks",
    "Thank",
    "Could",
    "Would",
    "Should",
    "Can",
    "Will",
    "Did",
    "Does",
    "Have",
    "Has",
    "Had",
    "Are",
    "Was",
    "Were",
    "Its",
    "It's",
    "Very",
    "Good",
    "Okay",
    "Sir",
    "Madam",
    "Also",
    "Just",
    "Well",
    "Sure",
    "Now",
    "Here",
    "Let",
    "Any",
    "Some",
    "Our",
    "Your",
    "You",
    "Hello",
    "Hi",
    "Dear",
    "Certainly",
    "Indeed",
    "Alas",
    "Tell",
    "Give",
    "Find",
    "Make",
    "Show",
    "Assistant",
    "Anchor",
    "Apologies",
    "Sorry",
    "Of",
    "If",
    "In",
    "On",
    "At",
    "To",
    "My",
    "We",
    "He",
    "She",
    "They",
    "It",
    "Do",
    "Is",
    "Be",
    "So",
    "Or",
    "As",
    "An",
    "With",
    "From",
    "About",
    "After",
    "Before",
    "Today",
    "Tomorrow",
    "Yesterday",
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
    "Right",
}


def name_of(m: Message) -> str:
    """The author as a summary names them: Alice, Maria, Cronbot (bot), Assistant."""
    if m.role == "assistant":
        return "Assistant"
    return f"{m.author_name} (bot)" if m.author_is_bot else m.author_name


def _short(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip(" ,;:") + "…"


def _sentences(text: str) -> list[str]:
    text = re.sub(r"```.*?```", " ", text, flags=re.S)  # code blocks go to the technical details
    return [s.strip(" -*•\t") for s in _SENTENCE_RE.split(text) if len(s.strip()) > 2]


def is_fact(sentence: str) -> bool:
    """A sentence worth keeping: a number, a date or day, a personal statement or decision, or a
    name that is not just the sentence's first word."""
    if _NUMBER_RE.search(sentence) or _DATE_RE.search(sentence) or _PERSONAL_RE.search(sentence):
        return True
    return any(
        w not in _STOP for w in _WORD_RE.findall(sentence)[0 if not sentence[:1].isupper() else 1 :]
    )


def fact_sentences(m: Message) -> list[str]:
    """The message's sentences that state facts (the assistant's only with a number or a name)."""
    out = []
    for s in _sentences(m.content):
        if m.role == "assistant":
            if not (_NUMBER_RE.search(s) or any(w not in _STOP for w in _WORD_RE.findall(s)[1:])):
                continue
        elif not is_fact(s):
            continue
        out.append(_short(s, MAX_SENTENCE))
    return out


def attributed(m: Message, sentence: str) -> str:
    """``Alice (#12): my locker code is 1001``: who said it, in which message."""
    return (
        f"{name_of(m) if m.role != 'assistant' else 'Assistant said'} (#{m.message_number}): "
        f"{sentence}"
    )


def _unanswered(messages: list[Message]) -> set[int]:
    """Numbers of people's questions whose reply is missing, withdrawn, cancelled or failed."""
    replies: dict[int, Message] = {
        m.reply_to: m for m in messages if m.role == "assistant" and m.reply_to
    }
    out = set()
    for m in messages:
        if m.role == "assistant" or "?" not in m.content:
            continue
        r = replies.get(m.message_id)
        meta = r.metadata if r else {}
        if (
            r is None
            or meta.get("cancelled")
            or meta.get("failed")
            or str(meta.get("quality", "")).startswith("FALLBACK")
        ):
            out.add(m.message_number)
    return out


def open_items(messages: list[Message], *, last_is_open: bool = True) -> list[str]:
    """[UNRESOLVED] lines: unanswered questions and things to do, attributed. The last
    message, when it is a person's question the block does not answer, counts as open only if
    ``last_is_open`` (a compaction block's reply may come in the next block)."""
    unanswered = _unanswered(messages)
    last = messages[-1].message_number if messages else 0
    out = []
    for m in messages:
        if m.role == "assistant":
            continue
        if m.message_number in unanswered and (last_is_open or m.message_number != last):
            q = next((s for s in _sentences(m.content) if "?" in s), m.content)
            out.append(
                f"[UNRESOLVED] {name_of(m)} asked (#{m.message_number}): {_short(q, 160)} (no "
                f"answer yet)"
            )
            continue
        for s in _sentences(m.content):
            if _TODO_RE.search(s):
                out.append(f"[UNRESOLVED] {name_of(m)} (#{m.message_number}): {_short(s, 160)}")
    return list(dict.fromkeys(out))


def recurring_names(
    texts: Iterable[str], *, least: int = 2, most: int = 8, skip: Iterable[str] = ()
) -> list[str]:
    """Capitalised words (names, places, products) that come up at least ``least`` times."""
    skipped = {s.lower() for s in skip}
    counts: Counter[str] = Counter()
    for text in texts:
        for s in _sentences(text):
            for w in _WORD_RE.findall(s)[1:]:  # a sentence's first word is capitalised anyway
                if w not in _STOP and w.lower() not in skipped:
                    counts[w] += 1
    return [w for w, n in counts.most_common() if n >= least][:most]


def technical(texts: Iterable[str]) -> list[str]:
    found: list[str] = []
    for text in texts:
        for block in re.findall(r"```\w*\n?(.*?)```", text, flags=re.S):
            first = next((ln.strip() for ln in block.splitlines() if ln.strip()), "")
            if first:
                found.append(f"code: {_short(first, 100)}")
        found += [_short(t.strip(), 120) for t in _TECH_RE.findall(text)]
    return list(dict.fromkeys(found))


def _fit(lines: list[str], limit: int) -> list[str]:
    out: list[str] = []
    used = 0
    for line in lines:
        if used + len(line) + 1 > limit:
            out.append(f"(… {len(lines) - len(out)} more, in the messages themselves)")
            break
        out.append(line)
        used += len(line) + 1
    return out


def _section(name: str, lines: list[str]) -> str:
    return name + "\n" + "\n".join(f"- {ln}" for ln in (lines or ["none"]))


def compact_extract(messages: list[Message], *, topics: Iterable[str] = ()) -> str:
    """The five sections of a compact (memory/summary_format.py's SECTIONS) for ``messages``,
    without a model. A superseded message (an answer given again, a question edited) is left
    out, as the model's transcript leaves it out: what replaced it is in the block."""
    span = messages
    messages = [m for m in messages if not revisions.is_superseded(m)]
    people = [m for m in messages if m.role != "assistant"]
    named = list(
        dict.fromkeys(
            t for m in messages for t in (m.metadata.get("topics") or []) if isinstance(t, str)
        )
    )
    names = recurring_names([m.content for m in people], skip=[m.author_name for m in messages])
    topic_lines = list(dict.fromkeys([*topics, *named, *names]))[:8]
    timeline, facts = [], []
    for m in people:
        found = fact_sentences(m)
        facts += [attributed(m, s) for s in found]
        if not found:  # what a fact line does not already say: who asked or said what, and when
            verb = "asked" if m.content.rstrip().endswith("?") else "said"
            timeline.append(
                f"#{m.message_number} ({local(m.timestamp, '%Y-%m-%d')}): {name_of(m)} {verb}: "
                f"{_short(m.content, MAX_TIMELINE_LINE)}"
            )
    if span:
        first, last = span[0], span[-1]
        timeline.insert(
            0,
            f"messages #{first.message_number}-{last.message_number}, "
            f"{local(first.timestamp)} to {local(last.timestamp)}",
        )
    facts += [
        attributed(m, s)
        for m in messages
        if m.role == "assistant"
        and not m.metadata.get("cancelled")
        and not str(m.metadata.get("quality", "")).startswith("FALLBACK")
        for s in fact_sentences(m)[:1]
    ]
    parts = [
        _section("TOPICS DISCUSSED", topic_lines),
        _section("FACTUAL TIMELINE", _fit(timeline, MAX_TIMELINE_CHARS)),
        _section("KEY FACTS ESTABLISHED", _fit(list(dict.fromkeys(facts)), MAX_FACTS_CHARS)),
        _section(
            "UNRESOLVED ITEMS", _fit(open_items(messages, last_is_open=False), MAX_OPEN_CHARS)
        ),
        _section("TECHNICAL DETAILS", _fit(technical(m.content for m in messages), MAX_TECH_CHARS)),
    ]
    return redact("\n\n".join(parts))


def merged_records(records: list[str], max_chars: int) -> str:
    """Records in the five sections (an archive and compacts, oldest first) merged into one
    without a model: each section's lines in order, duplicates once, each section within its
    share of ``max_chars`` (the oldest lines kept: the newest stay readable in the compacts)."""
    merged: dict[str, list[str]] = {name: [] for name in SECTIONS}
    for record in records:
        for name, lines in parse_sections(record).items():
            merged[name] += [ln.lstrip("-*• ").strip() for ln in lines]
    share = {
        "TOPICS DISCUSSED": 0.05,
        "FACTUAL TIMELINE": 0.3,
        "KEY FACTS ESTABLISHED": 0.4,
        "UNRESOLVED ITEMS": 0.15,
        "TECHNICAL DETAILS": 0.1,
    }
    parts = []
    for name in SECTIONS:
        lines = [
            ln for ln in dict.fromkeys(merged[name]) if ln and ln.lower().strip(" .") != "none"
        ]
        lines = (
            lines[:8]
            if name == "TOPICS DISCUSSED"
            else _fit(lines, max(200, int(max_chars * share[name])))
        )
        parts.append(_section(name, lines))
    return "\n\n".join(parts)
