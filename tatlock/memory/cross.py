"""Cross-conversation summary: a briefing from the user's last conversations, built once
when a new conversation starts.

One model call reads the last ``CROSS_LIMIT`` conversations other than the new one (their
archive and compacts, and their latest messages, with dates and authors) and writes the
sections "Recent Highlights", "Patterns Across Sessions", "Current Context". The code, not
the model, appends the footer ``Summary of last N conversations | Updated: <time>``. The
result is stored in ``cross_conversation_summaries`` (for the new conversation) and written
to ``users/<name>/cross_conversation_summary.md``. The SQL for those rows (and for picking
the conversations) is in ``tatlock.store.summaries``.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import logging
import re
import sqlite3
from pathlib import Path
from typing import Any, Callable

from tatlock import prompts
from tatlock.config import Paths
from tatlock.errors import BackendError
from tatlock.events import Event, ModelCall
from tatlock.memory.context import history_line
from tatlock.memory.fit import Window
from tatlock.memory.tokens import Estimator
from tatlock.redact import redact
from tatlock.store import summaries as rows
from tatlock.files import write_private
from tatlock.store.user import Conversation, UserStore
from tatlock.timeutil import iso, local, utcnow

__all__ = ["CROSS_LIMIT", "FILE_NAME", "SECTIONS", "build_cross_summary", "footer", "latest_cross_summary"]

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
    moment = (now or utcnow())
    if moment.tzinfo is None:
        moment = moment.astimezone()
    noun = "conversation" if count == 1 else "conversations"
    return f"Summary of last {count} {noun} | Updated: {moment.astimezone().strftime('%Y-%m-%d %H:%M')}"


def _sources(store: UserStore, exclude: int, limit: int) -> list[Conversation]:
    return [store.conversation(cid) for cid in rows.recent_conversation_ids(store, exclude=exclude, limit=limit)]


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


def _conversation_block(store: UserStore, conv: Conversation, share: int, est: Estimator) -> str:
    head = (f"### Conversation #{conv.id} \"{conv.title or 'untitled'}\" "
            f"({local(conv.started_at)} to {local(conv.last_activity)}, {conv.message_count} messages)")
    # older parts: the archive and the compacts after it, newest first within half the share
    summaries: list[str] = []
    archive = conv.metadata.get("archive") or {}
    archived = int(archive.get("up_to_message", 0)) if archive.get("summary") else 0
    for c in reversed(store.compacts(conv.id, after=archived)):
        summaries.append(f"Summary of messages {c.from_message}-{c.up_to_message}:\n{c.summary.strip()}")
    if archived:
        summaries.append(f"Archive of messages 1-{archived}:\n{str(archive['summary']).strip()}")
    kept_summaries, used = _fit(summaries, share // 2, est)
    # the latest messages, newest first within what is left
    first = max(1, conv.message_count - RECENT_MESSAGES + 1)
    recent = [f"[{local(m.timestamp)}] {history_line(dataclasses.replace(m, content=_short(m.content)))}"
              for m in reversed(store.messages(conv.id, first))]
    kept_recent, _ = _fit(recent, share - used, est)
    parts = [head]
    if kept_summaries:
        parts.append("\n\n".join(reversed(kept_summaries)))
    if kept_recent:
        skipped = len(recent) - len(kept_recent)
        parts.append(f"Latest messages{f' (the {skipped} before these left out)' if skipped else ''}:\n"
                     + "\n".join(reversed(kept_recent)))
    return "\n\n".join(parts)


def _anchor_name(store: UserStore, ids: list[int]) -> str:
    """The owner's name as last written in these conversations; else their user name."""
    return rows.anchor_name(store, ids) or store.username


def _clean(text: str) -> str | None:
    text = _FOOTER_RE.sub("", (text or "").strip()).strip()
    text = re.sub(r"^```\w*\s*|\s*```$", "", text).strip()
    if not text or not any(s.lower() in text.lower() for s in SECTIONS):
        return None
    return text


def _write_atomic(path: Path, text: str) -> None:
    write_private(path, text)  # the whole file or nothing, 0600 in a 0700 folder


def build_cross_summary(store: UserStore, backend: Any, *, paths: Paths, exclude_conversation_id: int,
                        emit: Callable[[Event], None] = _no_emit, now: dt.datetime | None = None,
                        model: str | None = None, limit: int = CROSS_LIMIT,
                        max_input_tokens: int = MAX_INPUT_TOKENS, estimator: Estimator | None = None,
                        options: dict[str, Any] | None = None, budget_tokens: int | None = None) -> str | None:
    """Build, store and return the briefing for the new conversation ``exclude_conversation_id``.

    None without a model call when the user has no earlier conversation with messages; None
    too when the model fails or answers without the sections (the caller logs; nothing stored).
    With ``budget_tokens`` (the context window) the sources take at most what the instructions
    and the briefing's allowance leave of it.
    """
    sources = _sources(store, exclude_conversation_id, limit)
    if not sources:
        return None
    est = estimator or Estimator()
    if budget_tokens:
        instructions = prompts.render("cross_summary.txt", count=len(sources), user_name=store.username,
                                      conversations="")
        room = Window(budget_tokens, est).text_room((options or {}).get("max_tokens"), instructions)
        max_input_tokens = max(64, min(max_input_tokens, room - 16 * len(sources)))
    share = max(200, max_input_tokens // len(sources))
    blocks = [_conversation_block(store, c, share, est) for c in reversed(sources)]  # oldest first
    ids = [c.id for c in sources]
    # secrets pasted into earlier conversations are withheld from the model and from the briefing
    prompt = prompts.render("cross_summary.txt", count=len(sources), user_name=_anchor_name(store, ids),
                            conversations=redact("\n\n".join(blocks)))
    messages = [{"role": "user", "content": prompt}]
    try:
        result = backend.chat(messages, model=model, options={**OPTIONS, **(options or {})})
    except BackendError as exc:
        log.warning("cross-conversation summary failed: %s", exc)
        return None
    name = result.model or model or getattr(backend, "model", "") or "unknown"
    try:
        emit(ModelCall("cross_summary", name, messages, result.content, result.ms, result.prompt_tokens,
                       result.eval_tokens))
    except Exception:  # noqa: BLE001 - a view's failure is not ours
        log.exception("cross summary event handler failed")
    body = _clean(result.content)
    if body is None:
        log.warning("cross-conversation summary discarded: the model's answer has none of the sections %s",
                    ", ".join(SECTIONS))
        return None
    moment = now or utcnow()
    summary = f"{body}\n\n{footer(len(sources), moment)}"
    try:
        rows.add_cross_summary(store, exclude_conversation_id, summary, sources=ids, model=name,
                               created_at=iso(moment))
    except sqlite3.Error as exc:  # still usable for this conversation's context
        log.warning("could not store the cross-conversation summary: %s", exc)
    try:
        _write_atomic(paths.user_dir(store.username) / FILE_NAME, summary + "\n")
    except OSError as exc:  # the database row is the record; the file is a convenience
        log.warning("could not write %s: %s", FILE_NAME, exc)
    return summary


def latest_cross_summary(store: UserStore, conversation_id: int) -> str | None:
    """The newest cross-conversation summary built for ``conversation_id``, if any."""
    return rows.latest_cross_summary(store, conversation_id)
