"""A conversation as a file: JSON (everything, for import and tools) or Markdown (to read)."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from tatlock.memory.context import speaker
from tatlock.services.records import Detail
from tatlock.text import inert_json
from tatlock.timeutil import local


def conversation_data(d: Detail) -> dict[str, Any]:
    return {
        "conversation": dataclasses.asdict(d.conversation),
        "participants": [dataclasses.asdict(p) for p in d.participants],
        "topics": [{"name": n, "mentions": m} for n, m in d.topics],
        "archive": d.archive,
        "briefing": d.briefing,
        "compacts": [dataclasses.asdict(c) for c in d.compacts],
        "messages": [dataclasses.asdict(m) for m in d.messages],
    }


def conversation_json(d: Detail) -> str:
    # readable text, but no raw control character, bidi override or lone surrogate: valid JSON
    # that is safe to print and to encode
    return inert_json(json.dumps(conversation_data(d), indent=2, ensure_ascii=False)) + "\n"


def conversation_markdown(d: Detail) -> str:
    conv = d.conversation
    lines = [
        f"# {conv.title or 'Conversation'} ({conv.id})",
        "",
        f"- room: {conv.room_id} ({conv.interface})",
        f"- started: {local(conv.started_at)}",
        f"- messages: {conv.message_count}",
    ]
    if d.participants:
        lines.append(
            "- participants: "
            + ", ".join(f"{p.name}{' (bot)' if p.is_bot else ''}" for p in d.participants)
        )
    if d.topics:
        lines.append("- topics: " + ", ".join(n for n, _ in d.topics))
    lines.append("")
    if d.archive:
        summary = str(d.archive["summary"]).strip()
        lines += [f"## Archive of messages 1-{d.archive.get('up_to_message')}", "", summary, ""]
    for c in d.compacts:
        lines += [
            f"## Summary of messages {c.from_message}-{c.up_to_message}",
            "",
            c.summary.strip(),
            "",
        ]
    lines += ["## Messages", ""]
    for m in d.messages:
        mark = (
            " · cancelled"
            if m.metadata.get("cancelled")
            else (" · failed" if m.metadata.get("failed") else "")
        )
        # answered again, or the question edited: it no longer stands
        if m.metadata.get("superseded"):
            mark += f" · superseded ({m.metadata['superseded'].get('how', 'replaced')})"
        lines += [
            f"**{speaker(m)}** · #{m.message_number} · {local(m.timestamp)}{mark}",
            "",
            m.content,
            "",
        ]
    return "\n".join(lines)
