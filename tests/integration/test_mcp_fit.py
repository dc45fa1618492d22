"""Every MCP response fits in one message the official client accepts (1 MiB per server-sent
event), whatever the memory holds: the server built over a real butler and real SQLite files,
its resources and tools called in-process, each response measured as it would be sent."""

from __future__ import annotations

import json
import sqlite3

import pytest
from mcp.server.mcpserver.exceptions import ToolError

import tatlock
from tatlock.mcp import fit
from tatlock.mcp.server import build

# what costs most as sent: characters escaped twice over (a control character becomes \\u0001),
# quotes, backslashes, newlines, and four-byte characters
COSTLY = '\x01"\\\n😀' * 200_000


def sent(result) -> int:
    """Bytes of a tool result or resource contents inside the JSON-RPC message."""
    if isinstance(result, list):
        return sum(fit.sent_size(c.content) for c in result)
    assert not result.is_error, result.content[0].text
    return len(result.model_dump_json(by_alias=True, exclude_none=True).encode())


@pytest.fixture
def butler(home):
    with tatlock.open(user="alice") as b:
        yield b


def _compacts(butler, cid: int, n: int, chars: int) -> None:
    conn = sqlite3.connect(butler.paths.user_db("alice"))
    with conn:
        conn.executemany(
            "INSERT INTO conversation_compacts (conversation_id, from_message, up_to_message, "
            "summary, model,"
            " created_at) VALUES (?, ?, ?, ?, 'm', '2026-01-01T00:00:00+00:00')",
            [(cid, i, i, f"summary {i} " + COSTLY[:chars]) for i in range(1, n + 1)],
        )
        conn.execute(
            "UPDATE conversations SET metadata = json_object('archive', json_object("
            "'up_to_message', 1, 'summary', ?)) WHERE id = ?",
            (COSTLY[:1_000_000], cid),
        )
    conn.close()


async def test_the_worst_a_memory_can_hold_still_fits_every_response(butler):
    server = build(butler)
    # ten conversations, each ending in six messages of a million costly characters
    for room in range(10):
        cid = butler.rooms.open(f"!room{room}:example.org", "matrix")[0].id
        for _ in range(3):
            butler.rooms.add_exchange(
                cid,
                COSTLY[:1_000_000],
                COSTLY[:1_000_000],
                author=butler.rooms.author(f"@{room}:x", "Maria"),
            )
    _compacts(butler, cid, 2_500, 4_000)
    big = sqlite3.connect(butler.paths.user_db("alice"))
    with big:
        big.executemany(
            "INSERT INTO participants (conversation_id, author_id, name, is_bot, first_seen, "
            "last_seen,"
            " message_count) VALUES (?, ?, ?, 0, '2026-01-01', '2026-01-01', 1)",
            # a crowd
            [(cid, f"@{n}:x" + "\x01" * 200, "N" + '"' * 70) for n in range(3_000)],
        )
    big.close()
    sizes = {}
    for uri in (
        "conversations://list",
        "conversations://recent",
        f"conversations://get/{cid}",
        "conversations://room/!room9:example.org",
        "conversations://search/maria",
    ):
        sizes[uri] = sent(await server.read_resource(uri))
    for fmt in ("text", "markdown", "json"):
        sizes[fmt] = sent(
            await server.call_tool(
                "get_conversation_history", {"conversationId": cid, "format": fmt}
            )
        )
    mid = butler.conversations.messages(cid, limit=1)[0].message_id
    sizes["read_message"] = sent(await server.call_tool("read_message", {"messageId": mid}))
    sizes["add_turn"] = sent(
        await server.call_tool(
            "add_turn",
            {"conversationId": cid, "query": COSTLY[:1_000_000], "response": COSTLY[:1_000_000]},
        )
    )
    sizes["search"] = sent(
        await server.call_tool("search_conversations", {"query": "summary", "limit": 50})
    )
    assert max(sizes.values()) < fit.SEND_LIMIT, sizes
    got = json.loads((await server.read_resource(f"conversations://get/{cid}"))[0].content)
    assert got["messages"] and got["moreBefore"] and got["olderCompacts"] > 0
    # Maria, the butler, the Anchor and the crowd
    assert got["participants"] and got["moreParticipants"] == 3_003 - len(got["participants"])


async def test_many_long_conversations_are_listed_as_far_as_they_fit(butler):
    server = build(butler)
    for _ in range(1_000):
        conv = butler.conversations.create("!r:x", "matrix", title="\x01" * 200)
        assert conv.id
    listed = json.loads((await server.read_resource("conversations://list"))[0].content)
    assert listed["truncated"] and 0 < len(listed["conversations"]) < 1_000
    assert sent(await server.read_resource("conversations://list")) < fit.SEND_LIMIT
    room = json.loads((await server.read_resource("conversations://room/!r:x"))[0].content)
    assert room["truncated"] and room["conversations"]


def test_a_piece_of_a_long_message_is_as_long_as_fits():
    plain = "a" * 1_000_000
    assert len(fit.chunk(plain, 0)) == fit.READ_CHARS and fit.chunk(plain, 999_990) == "a" * 10
    costly = fit.chunk(COSTLY, 3)
    assert costly and fit.sent_size(costly) <= fit.BUDGET and COSTLY.startswith(costly, 3)
    assert fit.chunk(plain, 1_000_000) == ""


async def test_a_response_that_would_not_fit_is_refused_with_one_sentence(butler):
    """The last guard: should a tool ever build too much, the client gets a sentence, not a
    message it cannot read."""
    server = build(butler)

    @server.tool()
    def too_much() -> str:
        return COSTLY[:600_000]

    with pytest.raises(ToolError) as refused:
        await server.call_tool("too_much", {})
    assert "more than an MCP client accepts in one message" in str(refused.value)
    assert "\n" not in str(refused.value)
