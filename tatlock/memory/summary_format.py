"""The memory record a compaction writes: the five sections a summary must have, their
normalised form and topics, and the transcript of a block the model summarises.

Kept apart from the compaction's claims and transactions (memory/compaction.py): this is
only text in and text out.
"""

from __future__ import annotations

import dataclasses
import re

from tatlock.memory.context import history_line
from tatlock.memory.tokens import Estimator
from tatlock.redact import redact
from tatlock.store.user import Message
from tatlock.timeutil import local

SECTIONS = (
    "TOPICS DISCUSSED",
    "FACTUAL TIMELINE",
    "KEY FACTS ESTABLISHED",
    "UNRESOLVED ITEMS",
    "TECHNICAL DETAILS",
)
REQUIRED_SECTION = "KEY FACTS ESTABLISHED"
# The transcript of one block must fit the smallest tier's window (4096) beside the prompt (~550
# tokens) and the answer (~400): Ollama silently cuts a prompt's *start* (our instructions)
# otherwise.
MAX_TRANSCRIPT_TOKENS = 2400
MIN_MESSAGE_CHARS = 240  # a message is never cut shorter than this, whatever the budget
MAX_TOPICS = 8


# -- summaries -----------------------------------------------------------------------------

_HEADER_RE = re.compile(
    r"^\s*(?:#+\s*|\d+[.)]\s*)?[*_]*\s*(?P<name>"
    + "|".join(SECTIONS)
    + r")\s*[*_]*\s*:?\s*[*_]*\s*(?P<rest>.*)$",
    re.I,
)


def parse_sections(text: str) -> dict[str, list[str]]:
    """``{SECTION: [lines]}`` for the known section headers found in ``text`` (order kept)."""
    sections: dict[str, list[str]] = {}
    current: str | None = None
    for raw in text.splitlines():
        m = _HEADER_RE.match(raw)
        if m:
            current = m.group("name").upper()
            sections.setdefault(current, [])
            rest = m.group("rest").strip().strip("*_").strip()
            if rest:
                sections[current].append(rest)
            continue
        line = raw.strip()
        if current is not None and line and not line.startswith("```"):
            sections[current].append(line)
    return sections


def _bullet(line: str) -> str:
    return re.sub(r"^(?:[-*\u2022]|\d+[.)])\s+", "", line).strip()


def _is_none(line: str) -> bool:
    return _bullet(line).strip(" .").lower() in ("none", "n/a", "nothing", "")


def normalise_summary(text: str) -> tuple[str, list[str]] | None:
    """The summary in canonical form and its topics; None if it lacks the required section.

    Sections are written in the canonical order, one blank line apart (context.py finds KEY
    FACTS by that layout); lines before the first header (a model's preamble) are dropped.
    """
    sections = parse_sections(text or "")
    if REQUIRED_SECTION not in sections:
        return None
    if not any(line.strip() for lines in sections.values() for line in lines):
        return None
    parts = []
    for name in SECTIONS:
        if name not in sections:
            continue
        lines = [
            ln if ln.startswith(("-", "*", "\u2022")) or re.match(r"\d+[.)]\s", ln) else f"- {ln}"
            for ln in sections[name]
        ] or ["- none"]
        parts.append(name + "\n" + "\n".join(lines))
    topics: list[str] = []
    for line in sections.get("TOPICS DISCUSSED", []):
        if _is_none(line):
            continue
        name = " ".join(_bullet(line).strip("#*_ .").split())[:60]
        if name and name.lower() not in (t.lower() for t in topics):
            topics.append(name)
    return "\n\n".join(parts), topics[:MAX_TOPICS]


def transcript_line(m: Message, max_chars: int | None = None) -> str:
    """``[#12 2026-11-21 14:03] Anchor (Alice): ...`` (local time), cut at ``max_chars``."""
    content = m.content
    if max_chars is not None and len(content) > max_chars:
        content = (
            content[:max_chars].rstrip()
            + f" [... {len(content) - max_chars} more characters, kept in memory]"
        )
    return (
        f"[#{m.message_number} {local(m.timestamp)}] "
        f"{history_line(dataclasses.replace(m, content=content))}"
    )


def transcript(
    messages: list[Message],
    max_tokens: int = MAX_TRANSCRIPT_TOKENS,
    estimator: Estimator | None = None,
) -> str:
    """The block as transcript lines within ``max_tokens``: when it is too long, the longest
    messages are cut first (to one common length), short ones stay whole. The full text stays
    in the database and in recall; only the summary sees the cut. (Beyond what cutting to
    ``MIN_MESSAGE_CHARS`` a message can do, the text is over: ``fits`` says whether it is not.)"""
    # a secret someone once pasted is not handed to the model again, nor kept in its summary
    return redact(_fitted(messages, max_tokens, estimator or Estimator()))


def _fitted(messages: list[Message], max_tokens: int, est: Estimator) -> str:
    budget = int(max_tokens * est.chars_per_token)
    # an answer regenerated or a question edited since is not summarised as if it still stood
    messages = [m for m in messages if not (m.metadata or {}).get("superseded")]
    text = _transcript(messages, budget)
    # the cut is made in characters; a text of digits or CJK takes more tokens a character
    for _ in range(6):
        cost = est.bound(text)
        if cost <= max_tokens:
            break
        budget = int(budget * max_tokens / cost * 0.95)
        text = _transcript(messages, budget)
    return text


def fits(messages: list[Message], max_tokens: int, estimator: Estimator | None = None) -> bool:
    """Whether the block's transcript can be cut to ``max_tokens``."""
    est = estimator or Estimator()
    return est.bound(_fitted(messages, max_tokens, est)) <= max_tokens


def fitting_prefix(
    messages: list[Message], max_tokens: int, estimator: Estimator | None = None
) -> int:
    """How many messages of a block, from its first, fit ``max_tokens`` as a transcript
    (at least one: a single message is cut to whatever room there is)."""
    if fits(messages, max_tokens, estimator):
        return len(messages)
    lo, hi = 1, len(messages) - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if fits(messages[:mid], max_tokens, estimator):
            lo = mid
        else:
            hi = mid - 1
    return lo


def _transcript(messages: list[Message], budget: int) -> str:
    lengths = [len(m.content) for m in messages]
    fixed = sum(len(transcript_line(dataclasses.replace(m, content=""))) + 1 for m in messages)
    cap: int | None = None
    if fixed + sum(lengths) > budget:
        lo, hi = MIN_MESSAGE_CHARS, max(lengths)
        while lo < hi:  # the largest common cap that fits
            mid = (lo + hi + 1) // 2
            if fixed + sum(min(n, mid) + 48 * (n > mid) for n in lengths) <= budget:
                lo = mid
            else:
                hi = mid - 1
        cap = lo
    return "\n".join(transcript_line(m, cap) for m in messages)
