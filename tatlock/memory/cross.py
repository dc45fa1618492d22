"""Cross-conversation summary: a briefing from the user's last conversations, prepared in
the background and adopted at once by the next new conversation.

``prepare_briefing`` reads the last ``CROSS_LIMIT`` conversations (their archive and compacts,
and their latest messages, with dates and authors, superseded ones left out: store/revisions.py),
fitted to the model's window, and has the model write the sections
"Recent Highlights", "Patterns Across Sessions", "Current Context"; a reply without them is
repaired once, else the briefing is an extract made without the model (the facts, people,
topics and open items of those conversations: memory/summarise.py, memory/extract.py). The
code, not the model, appends the footer ``Summary of last N conversations | Updated: <time>``.
It is stored in ``cross_conversation_summaries`` as *prepared* (no conversation yet), with what
it covers, and written to ``users/<name>/cross_conversation_summary.md``. ``adopt_briefing``
gives a new conversation the latest prepared one, without a model call; ``briefing_stale``
tells the housekeeping when a new one is worth preparing. The SQL is in ``tatlock.store.summaries``.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import logging
import re
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tatlock import prompts
from tatlock.config import Paths
from tatlock.events import Event, ModelCall
from tatlock.files import write_private
from tatlock.llm.base import Cancel, ChatResult
from tatlock.memory import extract, summarise
from tatlock.memory.context import history_line
from tatlock.memory.fit import Window
from tatlock.memory.summary_format import parse_sections
from tatlock.memory.tokens import Estimator
from tatlock.redact import redact
from tatlock.store import revisions
from tatlock.store import summaries as rows
from tatlock.store.user import Conversation, UserStore
from tatlock.timeutil import iso, local, utcnow

__all__ = [
    "CROSS_LIMIT",
    "FILE_NAME",
    "SECTIONS",
    "adopt_briefing",
    "briefing_extract",
    "briefing_stale",
    "footer",
    "latest_cross_summary",
    "newest_source",
    "prepare_briefing",
]

log = logging.getLogger(__name__)

CROSS_LIMIT = 5
RECENT_MESSAGES = 20
MAX_INPUT_TOKENS = 2200  # sources; + ~320 prompt + up to 1000 answer fits a 4096-token window
MAX_LINE_CHARS = 500
FILE_NAME = "cross_conversation_summary.md"
SECTIONS = ("Recent Highlights", "Patterns Across Sessions", "Current Context")
OPTIONS = {"temperature": 0}

_FOOTER_RE = re.compile(r"^\W*summary of (?:the )?last .*conversations?\b.*$", re.I | re.M)


def _no_emit(event: Event) -> None:
    pass


def footer(count: int, now: dt.datetime | None = None) -> str:
    moment = now or utcnow()
    if moment.tzinfo is None:
        moment = moment.astimezone()
    noun = "conversation" if count == 1 else "conversations"
    return (
        f"Summary of last {count} {noun} | Updated: "
        f"{moment.astimezone().strftime('%Y-%m-%d %H:%M')}"
    )


def _fit(lines: list[str], tokens: int, est: Estimator) -> tuple[list[str], int]:
    """The longest prefix of ``lines`` within ``tokens``; and the tokens it used."""
    out, used = [], 0
    for line in lines:
        cost = est.bound(line) + 1
        if used + cost > tokens:
            break
        out.append(line)
        used += cost
    return out, used


def _short(text: str, limit: int = MAX_LINE_CHARS) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3].rstrip() + "..."


EXTRACT_CHARS = {"Recent Highlights": 1600, "Patterns Across Sessions": 500, "Current Context": 800}


def _conversation_block(store: UserStore, conv: Conversation, share: int, est: Estimator) -> str:
    head = (
        f'### Conversation #{conv.id} "{conv.title or "untitled"}" '
        f"({local(conv.started_at)} to {local(conv.last_activity)}, {conv.message_count} "
        f"messages)"
    )
    # older parts: the archive and the compacts after it, newest first within half the share
    summaries: list[str] = []
    archive = conv.metadata.get("archive") or {}
    archived = int(archive.get("up_to_message", 0)) if archive.get("summary") else 0
    for c in reversed(store.compacts(conv.id, after=archived)):
        summaries.append(
            f"Summary of messages {c.from_message}-{c.up_to_message}:\n{c.summary.strip()}"
        )
    if archived:
        summaries.append(f"Archive of messages 1-{archived}:\n{str(archive['summary']).strip()}")
    kept_summaries, used = _fit(summaries, share // 2, est)
    # the latest messages, newest first within what is left
    first = max(1, conv.message_count - RECENT_MESSAGES + 1)
    recent = [
        f"[{local(m.timestamp)}] {history_line(dataclasses.replace(m, content=_short(m.content)))}"
        for m in reversed(store.messages(conv.id, first))
        if not revisions.is_superseded(m)
    ]
    kept_recent, _ = _fit(recent, share - used, est)
    parts = [head]
    if kept_summaries:
        parts.append("\n\n".join(reversed(kept_summaries)))
    if kept_recent:
        skipped = len(recent) - len(kept_recent)
        parts.append(
            f"Latest "
            f"messages{f' (the {skipped} before these left out)' if skipped else ''}:\n"
            + "\n".join(reversed(kept_recent))
        )
    return "\n\n".join(parts)


def _anchor_name(store: UserStore, ids: list[int]) -> str:
    """The owner's name as last written in these conversations; else their user name."""
    return rows.anchor_name(store, ids) or store.username


def _clean(text: str) -> str | None:
    """The briefing without a copied footer or code fences; None without any of its sections."""
    text = _FOOTER_RE.sub("", (text or "").strip()).strip()
    text = re.sub(r"^```\w*\s*|\s*```$", "", text).strip()
    if not text or not any(s.lower() in text.lower() for s in SECTIONS):
        return None
    return text


def _write_atomic(path: Path, text: str) -> None:
    write_private(path, text)  # the whole file or nothing, 0600 in a 0700 folder


def _lines(name: str, lines: list[str], limit: int) -> str:
    kept: list[str] = []
    used = 0
    for line in dict.fromkeys(lines):
        if used + len(line) > limit:
            break
        kept.append(line)
        used += len(line) + 3
    return name + "\n" + "\n".join(f"- {ln}" for ln in (kept or ["none"]))


def briefing_extract(store: UserStore, sources: list[Conversation]) -> str:
    """The briefing without a model: per conversation (newest first) its facts, from its
    compacts' key facts and its latest messages; the topics and people that recur; and where
    the latest conversation stands (its last questions and what is open)."""
    highlights: list[str] = []
    topics: dict[str, int] = {}
    people: dict[str, int] = {}
    texts: list[str] = []
    current: list[str] = []
    for n, conv in enumerate(sources):  # newest first
        label = f"{local(conv.last_activity, '%Y-%m-%d')} (conversation #{conv.id})"
        msgs = [
            m
            for m in store.messages(conv.id, max(1, conv.message_count - RECENT_MESSAGES + 1))
            if not revisions.is_superseded(m)
        ]
        said = [m for m in msgs if m.role != "assistant"]
        facts = [
            extract.attributed(m, f) for m in reversed(said) for f in extract.fact_sentences(m)
        ]
        for c in reversed(store.compacts(conv.id)):
            facts += [
                ln.lstrip("-*• ")
                for ln in parse_sections(c.summary).get("KEY FACTS ESTABLISHED", [])
                if ln.strip("-*• .").lower() != "none"
            ]
        if not facts and said:  # nothing that reads as a fact: what was said last
            facts = [f"{extract.name_of(said[-1])} said: {_short(said[-1].content, 160)}"]
        highlights += [f"{label}: {f}" for f in facts[:4]]
        for t in store.topics(conv.id):
            topics[t["name"]] = topics.get(t["name"], 0) + 1
        for who in dict.fromkeys(extract.name_of(m) for m in said if not m.is_anchor):
            people[who] = people.get(who, 0) + 1
        texts.append(" ".join(m.content for m in said))
        if n == 0:  # where the latest conversation stands: what is open, then its last words
            for c in store.compacts(conv.id)[-2:]:
                current += [
                    ln.lstrip("-*• ")
                    for ln in parse_sections(c.summary).get("UNRESOLVED ITEMS", [])
                    if "UNRESOLVED" in ln
                ]
            current += extract.open_items(msgs)
            current += [
                f"{extract.name_of(m)} (#{m.message_number}, {local(m.timestamp)}): "
                f"{_short(m.content, 160)}"
                for m in said[-3:]
                if not any(f"(#{m.message_number})" in ln for ln in current)
            ]
    patterns = [
        f"{name} came up in {k} of these conversations"
        for name, k in sorted(topics.items(), key=lambda x: -x[1])
        if k > 1
    ][:5]
    patterns += [f"{who} took part in {k if k > 1 else 'one'} of them" for who, k in people.items()]
    patterns += [
        f"{w} is mentioned again and again" for w in extract.recurring_names(texts, least=3, most=4)
    ]
    return "\n\n".join(
        [
            _lines("Recent Highlights", highlights, EXTRACT_CHARS["Recent Highlights"]),
            _lines(
                "Patterns Across Sessions",
                patterns or ["no topic or person recurs yet"],
                EXTRACT_CHARS["Patterns Across Sessions"],
            ),
            _lines("Current Context", current, EXTRACT_CHARS["Current Context"]),
        ]
    )


def _normalised(text: str) -> str | None:
    return _clean(text)


SHAPE = summarise.Shape(SECTIONS, _normalised, "briefing")


def briefing_stale(store: UserStore, limit: int = CROSS_LIMIT) -> bool:
    """Whether a briefing prepared now would cover more than the latest prepared one (True
    too when none is prepared and there is something to brief on)."""
    state = rows.briefing_state(store, limit=limit)
    latest = rows.latest_prepared(store)
    if latest is None:
        return bool(state)
    return latest["covers"] != state


def prepare_briefing(
    store: UserStore,
    backend: Any,
    *,
    paths: Paths,
    emit: Callable[[Event], None] = _no_emit,
    now: dt.datetime | None = None,
    model: str | None = None,
    limit: int = CROSS_LIMIT,
    max_input_tokens: int = MAX_INPUT_TOKENS,
    estimator: Estimator | None = None,
    options: dict[str, Any] | None = None,
    cancel: Cancel | None = None,
    use_model: bool = True,
    budget_tokens: int | None = None,
) -> summarise.Written | None:
    """Prepare, store and return the briefing for the next new conversation, from the latest
    ``limit`` conversations with messages.

    None without a model call when there is none. Raises summarise.Paused (``cancel`` was set
    to make way for a turn) or summarise.Unavailable (the server cannot be used now): then
    nothing is stored, and the briefing prepared before stays the one a new conversation gets.
    With ``budget_tokens`` (the context window) the sources take at most what the instructions
    (with the repair's note, which the second try adds) and the briefing's allowance leave of it.
    """
    covers = rows.briefing_state(store, limit=limit)
    sources = [store.conversation(int(cid)) for cid in covers]
    if not sources:
        return None
    est = estimator or Estimator()
    if budget_tokens:
        instructions = prompts.render(
            "cross_summary.txt", count=len(sources), user_name=store.username, conversations=""
        )
        room = Window(budget_tokens, est).text_room(
            (options or {}).get("max_tokens"), instructions + summarise.REPAIR_NOTE
        )
        max_input_tokens = max(64, min(max_input_tokens, room - 16 * len(sources)))
    share = max(200, max_input_tokens // len(sources))
    blocks = [_conversation_block(store, c, share, est) for c in reversed(sources)]  # oldest first
    ids = [c.id for c in sources]
    # secrets pasted into earlier conversations are withheld from the model and from the briefing
    source = redact("\n\n".join(blocks))
    prompt = prompts.render(
        "cross_summary.txt",
        count=len(sources),
        user_name=_anchor_name(store, ids),
        conversations=source,
    )
    fallback_name = model or getattr(backend, "model", "") or "unknown"

    def on_call(messages: list[dict[str, Any]], result: ChatResult) -> None:
        try:
            emit(
                ModelCall(
                    "cross_summary",
                    result.model or fallback_name,
                    messages,
                    result.content,
                    result.ms,
                    result.prompt_tokens,
                    result.eval_tokens,
                )
            )
        except Exception:
            log.exception("cross summary event handler failed")

    written = summarise.write(
        backend,
        prompt,
        shape=SHAPE,
        source=source,
        extract=lambda: redact(briefing_extract(store, sources)),
        model=model,
        options={**OPTIONS, **(options or {})},
        cancel=cancel,
        on_call=on_call,
        use_model=use_model,
    )
    if written.how != "model":
        log.info("briefing written as %s: %s", written.how, written.why)
    moment = now or utcnow()
    written.text = f"{written.text}\n\n{footer(len(sources), moment)}"
    name = (written.calls[-1].model if written.calls else "") or fallback_name
    try:
        rows.add_cross_summary(
            store,
            None,
            written.text,
            sources=ids,
            model=name,
            created_at=iso(moment),
            covers=covers,
            how=written.how,
        )
    except sqlite3.Error as exc:  # the one prepared before stays in use
        log.warning("could not store the briefing: %s", exc)
        return written
    try:
        _write_atomic(paths.user_dir(store.username) / FILE_NAME, written.text + "\n")
    except OSError as exc:  # the database row is the record; the file is a convenience
        log.warning("could not write %s: %s", FILE_NAME, exc)
    return written


def newest_source(store: UserStore) -> int | None:
    """The most recently active conversation a briefing would cover (its debug log records
    the briefing's model calls)."""
    return next((int(cid) for cid in rows.briefing_state(store, limit=1)), None)


def adopt_briefing(store: UserStore, conversation_id: int) -> str | None:
    """The briefing a conversation begins with: the latest prepared one, made its own the
    first time it is asked for (no model call); None when none was prepared yet."""
    return rows.adopt_prepared(store, conversation_id)


def latest_cross_summary(store: UserStore, conversation_id: int) -> str | None:
    """The newest cross-conversation summary built for ``conversation_id``, if any."""
    return rows.latest_cross_summary(store, conversation_id)
