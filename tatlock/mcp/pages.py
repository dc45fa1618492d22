"""The MCP server's long answers, in pages that fit (see ``tatlock.mcp.fit``): a conversation
(``conversations://get/{id}``), its history (``get_conversation_history``), and one long
message read piece by piece (``read_message``)."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from tatlock.errors import UsageError
from tatlock.mcp import fit, shapes
from tatlock.memory.context import history_line, speaker
from tatlock.services.export import conversation_markdown
from tatlock.services.records import Detail
from tatlock.store.user import Compact, Message

if TYPE_CHECKING:  # pragma: no cover
    from tatlock.butler import Butler

HISTORY_FORMATS = ("text", "markdown", "json")
PAGE_MESSAGES = 1000  # at most this many messages in one page of history (fewer when they are long)
GET_MESSAGES = 500  # the latest messages in conversations://get/{id}
LISTED_PEOPLE = 200  # participants and topics shown with a conversation


def history_call(conversation_id: int, before: int) -> str:
    return f"get_conversation_history(conversationId={conversation_id}, before={before})"


def conversation(butler: Butler, conversation_id: int) -> dict[str, Any]:
    """``conversations://get/{id}``: the conversation, its participants, topics and summaries,
    and its latest messages, each part as much as fits in its share of the budget (long
    messages cut with a note)."""
    d = butler.conversations.get(conversation_id, limit=GET_MESSAGES)
    people, more_people = fit.first(d.participants, shapes.participant, fit.BUDGET // 8)
    topics, _ = fit.first(d.topics, lambda t: {"name": t[0], "mentions": t[1]}, fit.BUDGET // 16)
    summaries, older = fit.newest(reversed(d.compacts), fit.compact, fit.BUDGET // 4)
    messages, left = fit.newest(reversed(d.messages), fit.message, fit.BUDGET // 2)
    out = {
        **shapes.conversation(d.conversation),
        "participants": people[:LISTED_PEOPLE],
        "topics": topics,
        "archive": None,
        "compacts": summaries,
        "moreBefore": d.more_before or left > 0,
        "messages": messages,
    }
    if more_people or len(people) > LISTED_PEOPLE:
        out["moreParticipants"] = len(d.participants) - len(out["participants"])
    if d.archive:
        summary = str(d.archive.get("summary") or "")
        shown = fit.chunk(summary, 0, fit.LISTED_CHARS, fit.BUDGET // 16)
        out["archive"] = {"upToMessage": d.archive.get("up_to_message"), "summary": shown}
        if len(shown) < len(summary):
            out["archive"]["truncated"] = {"length": len(summary), "shown": len(shown)}
    if older:
        out["olderCompacts"] = older  # merged into the archive in time; too many to list here
    if out["moreBefore"] and messages:
        out["next"] = history_call(d.conversation.id, messages[0]["number"])
    return out


def history(
    butler: Butler,
    conversation_id: int,
    *,
    format: str = "text",
    limit: int | None = None,
    before: int | None = None,
) -> str:
    """A page of the conversation's history, newest messages last, with attribution: ``text``
    lines (``Anchor (Name): ...``, ``Maria: ...``, ``[Name (bot)]: ...``, ``Assistant: ...``),
    ``markdown`` (the first page headed by the summaries), or ``json``. A note says how to read
    the earlier messages."""
    fmt = str(format or "text").strip().lower()
    fmt = "markdown" if fmt == "md" else fmt
    if fmt not in HISTORY_FORMATS:
        raise UsageError(f"unknown history format {format!r} (text, markdown or json)")
    if before is not None and before < 1:
        raise UsageError("before is a message number, 1 or more")
    conversations = butler.conversations
    page = conversations.messages(
        conversation_id, limit=min(limit or PAGE_MESSAGES, PAGE_MESSAGES), before=before
    )
    head = None
    if fmt == "markdown":
        head = _markdown_head(
            conversations.get(conversation_id, limit=0), first_page=before is None
        )
        room = fit.BUDGET - fit.sent_size(conversation_markdown(head))
        kept, _ = fit.newest(
            reversed(page), _clipped, room, size=lambda m: fit.sent_size(m.content) + 200
        )
    else:
        kept, _ = fit.newest(reversed(page), _line if fmt == "text" else _json_message, fit.BUDGET)
    shown = page[len(page) - len(kept) :]
    earlier = shown[0].message_number - 1 if shown else 0
    more = (
        f"the {earlier} earlier messages are not shown: "
        f"{history_call(conversation_id, earlier + 1)}"
    )
    if fmt == "text":
        return "\n".join([f"({more})"] * bool(earlier) + kept)
    if fmt == "json":
        conv = conversations.get(conversation_id, limit=0).conversation
        return shapes.dumps(
            {
                "conversation": {
                    k: v for k, v in dataclasses.asdict(conv).items() if k != "metadata"
                },
                "more_before": earlier > 0,
                "next": history_call(conversation_id, earlier + 1) if earlier else None,
                "messages": kept,
            }
        )
    assert head is not None
    text = conversation_markdown(dataclasses.replace(head, messages=kept))
    return text + f"\n*{more[0].upper()}{more[1:]}.*\n" if earlier else text


def _markdown_head(d: Detail, *, first_page: bool) -> Detail:
    """What heads a page of Markdown history: participants and topics as far as they fit, and
    on the first page the archive and the latest summaries."""
    people, _ = fit.first(
        d.participants, lambda p: p, fit.BUDGET // 16, size=lambda p: fit.sent_size(p.name) + 16
    )
    topics, _ = fit.first(
        d.topics, lambda t: t, fit.BUDGET // 32, size=lambda t: fit.sent_size(t[0]) + 4
    )
    summaries: list[Compact] = []
    archive = None
    if first_page:
        summaries, _ = fit.newest(
            reversed(d.compacts),
            _clipped_compact,
            fit.BUDGET // 8,
            size=lambda c: fit.sent_size(c.summary) + 200,
        )
        if d.archive:
            summary = str(d.archive.get("summary") or "")
            archive = {
                **d.archive,
                "summary": fit.chunk(summary, 0, fit.LISTED_CHARS, fit.BUDGET // 16),
            }
    return dataclasses.replace(
        d,
        messages=[],
        compacts=summaries,
        participants=people[:LISTED_PEOPLE],
        topics=topics[:LISTED_PEOPLE],
        archive=archive,
    )


def read_message(butler: Butler, message_id: int, offset: int = 0) -> dict[str, Any]:
    """One message's text from ``offset``, as much as fits in one response."""
    m = butler.conversations.message(message_id)
    if offset < 0 or offset > len(m.content):
        raise UsageError(f"offset must be between 0 and the message's length, {len(m.content):,}")
    piece = fit.chunk(m.content, offset)
    end = offset + len(piece)
    return {
        "messageId": m.message_id,
        "conversationId": m.conversation_id,
        "number": m.message_number,
        "speaker": speaker(m),
        "length": len(m.content),
        "offset": offset,
        "content": piece,
        "nextOffset": end if end < len(m.content) else None,
        "next": fit.read_call(m.message_id, end) if end < len(m.content) else None,
    }


def _note(m: Message) -> str:
    note = fit.clip_note(m, fit.LISTED_CHARS)
    if not note:
        return ""
    return f" [... {note['length'] - note['shown']:,} more characters: {note['rest']}]"


def _clipped(m: Message) -> Message:
    note = _note(m)
    return dataclasses.replace(m, content=m.content[: fit.LISTED_CHARS] + note) if note else m


def _line(m: Message) -> str:
    return history_line(_clipped(m))


def _json_message(m: Message) -> dict[str, Any]:
    out = dataclasses.asdict(m)
    note = fit.clip_note(m, fit.LISTED_CHARS)
    if note:
        out["content"] = m.content[: fit.LISTED_CHARS]
        out["truncated"] = note
    return out


def _clipped_compact(c: Compact) -> Compact:
    return (
        dataclasses.replace(c, summary=c.summary[: fit.LISTED_CHARS])
        if len(c.summary) > fit.LISTED_CHARS
        else c
    )
