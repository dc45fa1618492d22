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

Superseded messages (an answer regenerated, a question edited, see store/revisions.py) are
not in the prompt: what replaced them is. One already inside a summary is named, so that the
model does not take the summary's word for it.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass, field, replace

from tatlock.memory.tokens import Estimator
from tatlock.store import revisions
from tatlock.store.user import Compact, Message, UserStore

SUMMARY_SHARE = 0.35  # of the context budget, for archive + compacts
RAW_SHARE = 0.45  # for the messages not compacted yet (normally one interval's worth)
SHARES = SUMMARY_SHARE + RAW_SHARE  # of the budget ``build`` is given, for the memory as a whole
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
    # uncompacted messages that did not fit (compaction behind)
    unshown: tuple[int, int] | None = None
    messages: list[Message] = field(default_factory=list)
    cross_summary: str | None = None
    withdrawn: list[int] = field(default_factory=list)  # superseded messages inside the summaries
    facts: str = ""  # the kept facts block (memory/facts.py): first, as it changes least

    def summary_block(self) -> str:
        parts = []
        if self.cross_summary:
            parts.append("## Earlier conversations with this user\n" + self.cross_summary.strip())
        if self.archive:
            parts.append(
                f"## Archive of this conversation (messages 1-{self.archive_up_to})\n"
                + self.archive.strip()
            )
        if self.uncovered:
            a, b = self.uncovered
            parts.append(
                f"(Messages {a}-{b} of this conversation are summarised in memory but not shown "
                f"here: "
                "use recall_memories to look into them.)"
            )
        if self.unshown:
            a, b = self.unshown
            parts.append(
                f"(Messages {a}-{b} of this conversation are waiting to be summarised and do not "
                f"fit "
                "here: use recall_memories to look into them.)"
            )
        if self.condensed:
            parts.append(
                "## Key facts from older parts of this conversation\n" + "\n".join(self.condensed)
            )
        for c in self.compacts:
            parts.append(
                f"## Summary of messages {c.from_message}-{c.up_to_message}\n{c.summary.strip()}"
            )
        if self.withdrawn:
            numbers = ", ".join(f"#{n}" for n in self.withdrawn[-20:])
            parts.append(
                f"(Withdrawn since they were summarised: message(s) {numbers} of this conversation "
                f"were "
                "answered again or edited by the user; what the summaries say of them no "
                "longer stands.)"
            )
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


def _fit_raw(
    messages: list[Message], budget_tokens: int, est: Estimator
) -> tuple[list[Message], tuple[int, int] | None]:
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
    cut = [
        replace(m, content=m.content[:lo] + CUT_NOTE) if len(m.content) > lo else m for m in older
    ]
    kept: list[Message] = []
    used = 0
    for m in reversed(cut):
        cost = len(m.content) + overhead
        if used + cost > room and kept:
            break
        kept.append(m)
        used += cost
    kept.reverse()
    unshown = (
        (older[0].message_number, kept[0].message_number - 1) if len(kept) < len(older) else None
    )
    return kept + [last], unshown


def _key_facts(summary: str) -> list[str]:
    m = re.search(r"KEY FACTS ESTABLISHED\s*:?\s*\n(.*?)(?:\n\s*\n[A-Z ]{6,}:?|\Z)", summary, re.S)
    body = m.group(1) if m else summary
    return [ln.strip() for ln in body.splitlines() if ln.strip()]


def _within(text: str, tokens: int, est: Estimator) -> str:
    if est.bound(text) <= tokens:
        return text
    return text[: est.prefix(text, max(0, tokens - est.bound(CUT_NOTE)))] + CUT_NOTE


def build(
    store: UserStore,
    conversation_id: int,
    *,
    budget_tokens: int,
    estimator: Estimator | None = None,
    cross_summary: str | None = None,
    exclude: Collection[int] = (),
    facts_block: str = "",
) -> MemoryContext:
    """The memory within ``SHARES`` of ``budget_tokens``: the uncompacted messages first (up to
    ``RAW_SHARE``), the summaries in what they leave (at least ``SUMMARY_SHARE``), then the raw
    messages again in what the summaries leave; counted as requests are checked
    (``Estimator.bound``).
    ``exclude``: message ids left out besides the superseded ones (the answer a regeneration is
    replacing).
    ``facts_block``: the kept facts (memory/facts.py), shown first; it takes its room from the summaries'."""
    est = estimator or Estimator()
    conv = store.conversation(conversation_id)
    covered = store.compacted_up_to(conversation_id)
    ctx = MemoryContext(cross_summary=cross_summary, facts=facts_block)
    pending = [
        m
        for m in store.messages(conversation_id, covered + 1)
        if m.message_id not in exclude and not revisions.is_superseded(m)
    ]
    # the raw messages are cut in characters: at the rate their text takes tokens by ``bound``
    # (digits and punctuation take more than prose), measured on a sample of the latest
    sample = "\n".join(history_line(m)[:2000] for m in pending[-201:-1])
    rate = max(1.0, est.bound(sample) / est.text(sample)) if sample else 1.0
    ctx.messages, ctx.unshown = _fit_raw(pending, int(budget_tokens * RAW_SHARE / rate), est)
    if covered:
        ctx.withdrawn = revisions.superseded_numbers(store, conversation_id, 1, covered)
    raw = est.bound(ctx.transcript(skip_last=1))
    archive = conv.metadata.get("archive") or {}
    share = max(int(budget_tokens * SUMMARY_SHARE), int(budget_tokens * SHARES) - raw)
    # a briefing or an archive is one summary, unless imported: then cut to its share
    if cross_summary:
        ctx.cross_summary = _within(cross_summary, share // 2, est)
    if archive.get("summary"):
        ctx.archive = _within(
            str(archive["summary"]), share - est.bound(ctx.cross_summary or ""), est
        )
        ctx.archive_up_to = int(archive.get("up_to_message", 0))
    room = share - (est.bound(ctx.archive) if ctx.archive else 0)
    if ctx.cross_summary:
        room -= est.bound(ctx.cross_summary)
    if facts_block:  # the facts block takes its share from the summaries'
        room -= est.bound(facts_block)
    remaining = store.compacts(conversation_id, after=ctx.archive_up_to)
    kept: list[Compact] = []
    for c in reversed(remaining):  # newest first
        cost = est.bound(c.summary) + 12
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
                cost = est.bound(line) + 12
                if cost > room:
                    break
                facts.append(f"[messages {c.from_message}-{c.up_to_message}] {line}")
                room -= cost
        ctx.condensed = facts
        if not facts or room <= 0:
            ctx.uncovered = (older[0].from_message, older[-1].up_to_message)
    # what the summaries left goes to the raw messages, when they were cut or left out for room
    left = int(budget_tokens * SHARES) - raw - est.bound(ctx.summary_block())
    if (
        left > 0
        and len(ctx.messages) > 1
        and (ctx.unshown or any(m.content.endswith(CUT_NOTE) for m in ctx.messages))
    ):
        ctx.messages, ctx.unshown = _fit_raw(
            pending, int((budget_tokens * RAW_SHARE + left) / rate), est
        )
    return ctx
