"""Every MCP response fits in what its transports carry.

The official client refuses a server-sent event over 1 MiB (``Server-sent event exceeded the
1048576 byte limit``), and a message may hold 1,000,000 characters: one long message in a
listing would make every later read of its conversation fail, and a client that retries a
failed call stores its text twice. So a response is built to a budget:

- a message in a listing shows at most ``LISTED_CHARS`` characters, with a note of its length
  and of the call that reads the rest (``read_message``, page by page);
- a listing keeps the newest messages (or summaries, or conversations) that fit in ``BUDGET``
  bytes as sent, and says how to ask for the older ones;
- and whatever still comes out over ``SEND_LIMIT`` is refused with one sentence instead of sent
  (the server checks each response: see ``tatlock.mcp.server``).

Sizes are measured as sent: a tool's JSON goes inside the JSON-RPC message as a string (every
quote, newline and control character escaped again) and a second time as structured content;
a character may take four bytes of UTF-8.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from tatlock.mcp import shapes
from tatlock.store.user import Compact, Message

WIRE_LIMIT = 1024 * 1024  # the official client's limit on one server-sent event
SEND_LIMIT = WIRE_LIMIT - 32 * 1024  # room for the JSON-RPC envelope and the event's framing
# bytes (as sent, once) for the messages and summaries of one response; tools send them twice
BUDGET = 360_000
LISTED_CHARS = 20_000  # characters of one message in a listing
GLANCE_CHARS = 2_000  # in conversations://recent and in what add_turn echoes back
# at most this many characters in one read_message page (fewer when they are costly)
READ_CHARS = 200_000

T = TypeVar("T")


def sent_size(obj: Any) -> int:
    """Bytes ``obj`` takes inside a JSON-RPC message: JSON, carried as a JSON string."""
    once = json.dumps(obj, ensure_ascii=False)
    return len(json.dumps(once, ensure_ascii=False).encode("utf-8", "surrogatepass"))


def read_call(message_id: int, offset: int) -> str:
    return f"read_message(messageId={message_id}, offset={offset})"


def clip_note(m: Message, limit: int) -> dict[str, Any] | None:
    """What a listing says of a message cut at ``limit`` characters (None when it is whole)."""
    if len(m.content) <= limit:
        return None
    return {"length": len(m.content), "shown": limit, "rest": read_call(m.message_id, limit)}


def message(m: Message, limit: int = LISTED_CHARS) -> dict[str, Any]:
    """``shapes.message`` with the content cut at ``limit`` characters and a note saying so."""
    out = shapes.message(m)
    note = clip_note(m, limit)
    if note:
        out["content"] = m.content[:limit]
        out["truncated"] = note
    return out


def compact(c: Compact, limit: int = LISTED_CHARS) -> dict[str, Any]:
    out = shapes.compact(c)
    if len(c.summary) > limit:
        out["summary"] = c.summary[:limit]
        out["truncated"] = {"length": len(c.summary), "shown": limit}
    return out


def newest(
    items: Iterable[T],
    shape: Callable[[T], Any],
    budget: int = BUDGET,
    *,
    size: Callable[[Any], int] = sent_size,
) -> tuple[list[Any], int]:
    """The shapes of ``items`` (newest first) that fit in ``budget`` bytes as sent (``size`` of
    each shape), oldest first, and how many were left out. The newest is always kept: shapes
    are clipped already, so one always fits."""
    items = list(items)
    kept: list[Any] = []
    used = 0
    for item in items:
        shaped = shape(item)
        cost = size(shaped)
        if kept and used + cost > budget:
            break
        kept.append(shaped)
        used += cost
    return kept[::-1], len(items) - len(kept)


def first(
    items: Iterable[T],
    shape: Callable[[T], Any],
    budget: int = BUDGET,
    *,
    size: Callable[[Any], int] = sent_size,
) -> tuple[list[Any], int]:
    """Like ``newest`` for items already in the order they are shown (a list of conversations)."""
    kept, left = newest(items, shape, budget, size=size)
    return kept[::-1], left


def chunk(text: str, offset: int, limit: int = READ_CHARS, budget: int = BUDGET) -> str:
    """The longest piece of ``text`` from ``offset`` (at most ``limit`` characters) that fits in
    ``budget`` bytes as sent (characters that need escaping or four bytes make it shorter)."""
    n = min(limit, max(0, len(text) - offset))
    while n > 0:
        piece = text[offset : offset + n]
        cost = sent_size(piece)
        if cost <= budget:
            return piece
        n = max(1, int(n * budget / cost * 0.95)) if n > 1 else 0
    return ""


def too_large(size: int) -> str:
    return (
        f"the response would be {size:,} bytes, more than an MCP client accepts in one message "
        f"({WIRE_LIMIT:,}): ask for fewer items (limit, before) or read long messages with "
        f"read_message"
    )
