"""Tiered conversation context: archive summary + recent compacts + every uncompacted message.

Nothing is dropped silently:
- every message after the last compact is included verbatim (until a block is compacted
  its raw messages are the only record the model sees);
- compacts are included newest first while they fit the summary budget; older ones are
  covered by the archive summary (compacts merged by the compactor when they stop fitting);
- compacts neither in the budget nor in an archive are condensed to their KEY FACTS lines,
  and if even that does not fit, the prompt says which messages are only in recall.

History lines carry their author: ``Anchor (Name): ...``, ``Maria: ...``,
``[Name (bot)]: ...``, ``Assistant: ...``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from tatlock.memory.tokens import Estimator
from tatlock.store.user import Compact, Message, UserStore

SUMMARY_SHARE = 0.35  # of the context budget, for archive + compacts
RAW_SHARE = 0.45  # for the messages not compacted yet (normally one interval's worth)
MIN_MESSAGE_CHARS = 300  # long messages are cut to no less than this before any is left out
CUT_NOTE = " […cut here; the full text is in memory]"


def speaker(m: Message) -> str:
    if m.role == "assistant":
        return "Assistant"
    if m.is_anchor:
        return f"Anchor ({m.author_name})"
    if m.author_is_bot:
        return f"[{m.author_name} (bot)]"
    return m.author_name


def history_line(m: Message) -> str:
    if m.role == "assistant" and not m.content.strip() and m.metadata.get("cancelled"):
        return f"{speaker(m)}: (the reply was cancelled before it began)"
    return f"{speaker(m)}: {m.content}"


@dataclass
class MemoryContext:
    archive: str | None = None
    archive_up_to: int = 0
    compacts: list[Compact] = field(default_factory=list)
    condensed: list[str] = field(default_factory=list)
    uncovered: tuple[int, int] | None = None  # message range only reachable through recall
    unshown: tuple[int, int] | None = None  # uncompacted messages that did not fit (compaction behind)
    messages: list[Message] = field(default_factory=list)
    cross_summary: str | None = None
    facts: str = ""  # the kept facts block (memory/facts.py): first, as it changes least


    def summary_block(self) -> str:
        parts = []
        if self.cross_summary:
            parts.append("## Earlier conversations with this user\n" + self.cross_summary.strip())
        if self.archive:
            parts.append(f"## Archive of this conversation (messages 1-{self.archive_up_to})\n" + self.archive.strip())
        if self.uncovered:
            a, b = self.uncovered
            parts.append(f"(Messages {a}-{b} of this conversation are summarised in memory but not shown here: "
                         "use recall_memories to look into them.)")
        if self.unshown:
            a, b = self.unshown
            parts.append(f"(Messages {a}-{b} of this conversation are waiting to be summarised and do not fit "
                         "here: use recall_memories to look into them.)")
        if self.condensed:
            parts.append("## Key facts from older parts of this conversation\n" + "\n".join(self.condensed))
        for c in self.compacts:
            parts.append(f"## Summary of messages {c.from_message}-{c.up_to_message}\n{c.summary.strip()}")
        return "\n\n".join(parts)

    def prompt_block(self) -> str:
        """The memory as a prompt sees it: summaries first, then the conversation so far (the
        latest message, the one being answered, is given apart)."""
        parts = [self.facts] if self.facts else []
        block = self.summary_block()
        if block:
            parts.append(block)
        transcript = self.transcript(skip_last=1)
        if transcript:
            parts.append("## Conversation so far\n" + transcript)
        return ("\n\n".join(parts) + "\n\n") if parts else ""

    def transcript(self, skip_last: int = 0) -> str:
        msgs = self.messages[: len(self.messages) - skip_last] if skip_last else self.messages
        return "\n".join(history_line(m) for m in msgs)


def _fit_raw(messages: list[Message], budget_tokens: int,
             est: Estimator) -> tuple[list[Message], tuple[int, int] | None]:
    """Every uncompacted message, whole when they fit (the normal case: compaction keeps this
    to about one interval). When compaction falls behind, long messages are cut to a common
    length first; only if that is not enough are the oldest left out, and the prompt says so.
    The latest message (the one being answered) is never cut."""
    if len(messages) < 2:
        return messages, None
    *older, last = messages
    room = budget_tokens * est.chars_per_token
    overhead = 24  # the speaker label and line break, in characters
    lengths = [len(m.content) + overhead for m in older]
    if sum(lengths) <= room:
        return messages, None
    lo, hi = MIN_MESSAGE_CHARS, max(len(m.content) for m in older)
    while lo < hi:  # the largest common cut that fits
        mid = (lo + hi + 1) // 2
        if sum(min(n, mid + overhead + len(CUT_NOTE)) for n in lengths) <= room:
            lo = mid
        else:
            hi = mid - 1
    cut = [replace(m, content=m.content[:lo] + CUT_NOTE) if len(m.content) > lo else m for m in older]
    kept: list[Message] = []
    used = 0
    for m in reversed(cut):
        cost = len(m.content) + overhead
        if used + cost > room and kept:
            break
        kept.append(m)
        used += cost
    kept.reverse()
    unshown = (older[0].message_number, kept[0].message_number - 1) if len(kept) < len(older) else None
    return kept + [last], unshown


def _key_facts(summary: str) -> list[str]:
    m = re.search(r"KEY FACTS ESTABLISHED\s*:?\s*\n(.*?)(?:\n\s*\n[A-Z ]{6,}:?|\Z)", summary, re.S)
    body = m.group(1) if m else summary
    return [ln.strip() for ln in body.splitlines() if ln.strip()]


def build(store: UserStore, conversation_id: int, *, budget_tokens: int, estimator: Estimator | None = None,
          cross_summary: str | None = None, facts_block: str = "") -> MemoryContext:
    est = estimator or Estimator()
    conv = store.conversation(conversation_id)
    covered = store.compacted_up_to(conversation_id)
    ctx = MemoryContext(cross_summary=cross_summary, facts=facts_block)
    ctx.messages, ctx.unshown = _fit_raw(store.messages(conversation_id, covered + 1),
                                         int(budget_tokens * RAW_SHARE), est)
    archive = conv.metadata.get("archive") or {}
    if archive.get("summary"):
        ctx.archive = archive["summary"]
        ctx.archive_up_to = int(archive.get("up_to_message", 0))
    room = int(budget_tokens * SUMMARY_SHARE) - (est.text(ctx.archive) if ctx.archive else 0)
    if cross_summary:
        room -= est.text(cross_summary)
    if facts_block:  # the facts block takes its share from the summaries'
        room -= est.text(facts_block)
    remaining = store.compacts(conversation_id, after=ctx.archive_up_to)
    kept: list[Compact] = []
    for c in reversed(remaining):  # newest first
        cost = est.text(c.summary) + 12
        if cost > room and kept:
            break
        kept.append(c)
        room -= cost
    kept.reverse()
    ctx.compacts = kept
    older = [c for c in remaining if c not in kept]
    if older:
        facts: list[str] = []
        for c in older:
            for line in _key_facts(c.summary):
                cost = est.text(line) + 1
                if cost > room:
                    break
                facts.append(f"[messages {c.from_message}-{c.up_to_message}] {line}")
                room -= cost
        ctx.condensed = facts
        if not facts or room <= 0:
            ctx.uncovered = (older[0].from_message, older[-1].up_to_message)
    return ctx
