"""`tatlock mcp`: the MCP server as a real process, driven by the official SDK's own client over
stdio (and over streamable HTTP), against the fake Ollama server over loopback HTTP."""

from __future__ import annotations

import contextlib
import functools
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote

import anyio
import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.shared.exceptions import MCPError

import tatlock
from support import replies
from support.fake_ollama import FakeError
from support.store import rows, user_db
from support.waiting import wait_until_async

EXE = str(Path(sys.executable).parent / "tatlock")
ROOM = "!kitchen:example.org"
ANCHOR = "@alice:example.org"


direct = functools.partial(replies.direct, topics=("dinner",))


SUMMARY = (
    "TOPICS DISCUSSED\n- dinner\n\nFACTUAL TIMELINE\n- Maria proposed soup\n\n"
    "KEY FACTS ESTABLISHED\n- Maria wants leek soup for dinner on Friday\n\n"
    "UNRESOLVED ITEMS\n- none\n\nTECHNICAL DETAILS\n- none\n"
)


@pytest.fixture
def users(home, monkeypatch):
    """alice (the Anchor, known on Matrix as @alice:example.org) and bob, both registered."""
    monkeypatch.setenv("TATLOCK_ANCHOR_ID", ANCHOR)
    monkeypatch.setenv("TATLOCK_ANCHOR_NAME", "Alice")
    for name in ("alice", "bob"):
        with tatlock.open(user=name):
            pass
    return home


@contextlib.asynccontextmanager
async def session(*args: str, user: str = "alice"):
    params = StdioServerParameters(
        command=EXE, args=["mcp", "--user", user, *args], env=dict(os.environ)
    )
    with open(os.devnull, "w") as errlog:
        async with (
            stdio_client(params, errlog=errlog) as (read, write),
            ClientSession(read, write) as s,
        ):
            await s.initialize()
            yield s


async def call(s: ClientSession, tool: str, **arguments) -> dict:
    r = await s.call_tool(tool, arguments)
    assert not r.is_error, r.content[0].text
    return json.loads(r.content[0].text)


async def error(s: ClientSession, tool: str, **arguments) -> str:
    r = await s.call_tool(tool, arguments)
    assert r.is_error, f"{tool} should have failed: {r.content[0].text[:200]}"
    return r.content[0].text


async def read(s: ClientSession, uri: str) -> dict:
    r = await s.read_resource(uri)
    assert r.contents[0].mime_type == "application/json"
    return json.loads(r.contents[0].text)


async def text(s: ClientSession, tool: str, **arguments) -> str:
    r = await s.call_tool(tool, arguments)
    assert not r.is_error, r.content[0].text
    return r.content[0].text


async def test_done_when_a_matrix_room_over_stdio(served, users):
    served.queue(direct("Leek soup, as Maria proposed, sir."))
    async with session() as s:
        resources = {str(r.uri) for r in (await s.list_resources()).resources}
        templates = {t.uri_template for t in (await s.list_resource_templates()).resource_templates}
        tools = {t.name: t for t in (await s.list_tools()).tools}
        assert resources == {"conversations://list", "conversations://recent"}
        assert templates == {
            "conversations://get/{id}",
            "conversations://search/{query}",
            "conversations://room/{roomId}",
        }
        assert set(tools) == {
            "create_conversation",
            "add_turn",
            "summarize_conversation",
            "get_conversation_history",
            "read_message",
            "search_conversations",
            "ask",
            "recall",
        }
        assert all(t.description and t.input_schema["type"] == "object" for t in tools.values())
        assert tools["add_turn"].input_schema["required"] == ["conversationId", "query"]

        made = await call(s, "create_conversation", interfaceType="matrix", roomId=ROOM)
        cid = made["conversationId"]
        assert made["created"] is True
        again = await call(s, "create_conversation", interfaceType="matrix", roomId=ROOM)
        assert again["conversationId"] == cid and again["created"] is False
        other = await call(s, "create_conversation", interfaceType="slack", roomId=ROOM)
        # the same room on another interface is another conversation
        assert other["conversationId"] != cid

        turn = await call(
            s,
            "add_turn",
            conversationId=cid,
            query="Shall we have leek soup on Friday?",
            response="A fine idea, madam.",
            userId="@maria:example.org",
            userName="Maria",
        )
        assert turn["query"]["author"] == {
            "id": "@maria:example.org",
            "name": "Maria",
            "isBot": False,
            "isAnchor": False,
        }
        assert turn["response"]["replyTo"] == turn["query"]["id"] and turn["messageCount"] == 2
        await call(
            s, "add_turn", conversationId=cid, query="Yes please.", userId=ANCHOR, userName="Ali"
        )
        await call(
            s,
            "add_turn",
            conversationId=cid,
            query="Reminder: soup day.",
            userId="@cron:example.org",
            userName="Cronbot",
            isBot=True,
        )

        history = await text(s, "get_conversation_history", conversationId=cid)
        assert history.splitlines() == [
            "Maria: Shall we have leek soup on Friday?",
            "Assistant: A fine idea, madam.",
            # the configured anchor id is the Anchor, under the configured name
            "Anchor (Alice): Yes please.",
            "[Cronbot (bot)]: Reminder: soup day.",
        ]

        listed = await read(s, "conversations://list")
        mine = [c for c in listed["conversations"] if c["id"] == cid]
        assert mine and mine[0]["roomId"] == ROOM and mine[0]["interface"] == "matrix"
        assert mine[0]["messageCount"] == 4 and mine[0]["lastActivity"]
        in_room = await read(s, "conversations://room/" + quote(ROOM, safe=""))
        assert {c["id"] for c in in_room["conversations"]} == {cid, other["conversationId"]}

        answer = await call(s, "ask", question="What are we having on Friday?", conversationId=cid)
        assert answer["answer"] == "Leek soup, as Maria proposed, sir."
        assert (
            answer["route"] == "DIRECT"
            and answer["quality"] == "APPROVED"
            and answer["conversationId"] == cid
        )
    # the model saw Maria's words, attributed to her, in the conversation's context
    prompt = json.dumps(served.chat_requests[-1]["messages"])
    assert "Maria" in prompt and "leek soup on Friday" in prompt
    stored = rows(
        user_db(users, "alice"),
        "SELECT author_name, is_anchor, author_is_bot, role FROM "
        "conversation_messages"
        f" WHERE conversation_id = {cid} ORDER BY message_number",
    )
    assert [tuple(r) for r in stored] == [
        ("Maria", 0, 0, "user"),
        ("Tatlock", 0, 1, "assistant"),
        ("Alice", 1, 0, "user"),
        ("Cronbot", 0, 1, "user"),
        ("Alice", 1, 0, "user"),
        ("Tatlock", 0, 1, "assistant"),
    ]


async def test_bad_arguments_are_one_sentence_errors_and_the_server_keeps_serving(served, users):
    async with session() as s:
        cid = (await call(s, "create_conversation", interfaceType="matrix", roomId=ROOM))[
            "conversationId"
        ]
        problems = [
            await error(s, "add_turn", conversationId=9999, query="hello"),
            await error(s, "add_turn", conversationId=99999999999999999999, query="hello"),
            await error(s, "add_turn", conversationId="abc", query="hello"),
            await error(s, "add_turn", conversationId=cid),
            await error(s, "add_turn", conversationId=cid, query="x" * 1_000_001),
            await error(s, "add_turn", conversationId=cid, query="   "),
            await error(s, "create_conversation", interfaceType="matrix", roomId="   "),
            await error(s, "create_conversation", interfaceType="matrix", roomId=""),
            await error(s, "create_conversation", interfaceType="matrix", roomId="!a\n:b"),
            await error(s, "get_conversation_history", conversationId=cid, format="yaml"),
            await error(s, "summarize_conversation", conversationId=424242),
            await error(s, "search_conversations", query="soup", limit=5000),
            await error(s, "recall", query="soup", since="the day after never"),
            await error(s, "no_such_tool"),
        ]
        for p in problems:
            assert "\n" not in p and "Traceback" not in p and len(p) < 300, p
        assert "no conversation 9999" in problems[0] and "conversations://list" in problems[0]
        assert "no conversation" in problems[1]
        assert "conversationId" in problems[2] and "integer" in problems[2]
        assert "query" in problems[3]
        assert "query" in problems[4] and "1000000" in problems[4]
        assert "empty" in problems[5] and "room id is empty" in problems[6]
        assert "yaml" in problems[9] and "cannot read" in problems[12]
        for uri in (
            "conversations://get/9999",
            "conversations://get/abc",
            "conversations://nothing/here",
        ):
            with pytest.raises(MCPError) as info:
                await s.read_resource(uri)
            assert "\n" not in str(info.value)
        # nothing was stored by the refused calls, and the server still answers
        done = await call(s, "add_turn", conversationId=cid, query="still here?")
        assert done["messageCount"] == 1


async def test_search_recall_get_and_recent(served, users):
    async with session() as s:
        cid = (await call(s, "create_conversation", interfaceType="matrix", roomId=ROOM))[
            "conversationId"
        ]
        await call(
            s,
            "add_turn",
            conversationId=cid,
            query="My dentist appointment is on Tuesday at nine.",
            userId="@maria:example.org",
            userName="Maria",
        )
        await call(
            s, "add_turn", conversationId=cid, query="The plumber comes on Thursday.", userId=ANCHOR
        )
        found = await call(s, "search_conversations", query="dentist appointment", limit=5)
        top = found["hits"][0]
        assert (
            top["conversationId"] == cid and top["author"] == "Maria" and top["messageNumber"] == 1
        )
        assert "dentist" in top["snippet"] and isinstance(top["messageId"], int)
        same = await read(s, "conversations://search/" + quote("dentist appointment", safe=""))
        assert [h["messageId"] for h in same["hits"]][:1] == [top["messageId"]]
        recalled = await call(s, "recall", query="plumber", since="yesterday")
        assert recalled["hits"][0]["snippet"] == "The plumber comes on Thursday."
        assert (await call(s, "recall", query="plumber", until="2001-01-01"))["hits"] == []
        got = await read(s, f"conversations://get/{cid}")
        assert got["roomId"] == ROOM and [m["speaker"] for m in got["messages"]] == [
            "Maria",
            "Anchor (Alice)",
        ]
        assert {p["name"] for p in got["participants"]} == {"Maria", "Alice"}
        recent = await read(s, "conversations://recent")
        assert recent["conversations"][0]["id"] == cid
        assert (
            recent["conversations"][0]["messages"][-1]["content"]
            == "The plumber comes on Thursday."
        )


async def test_summarize_forces_compaction_of_a_short_conversation(served, users):
    served.queue(SUMMARY)
    async with session() as s:
        cid = (await call(s, "create_conversation", interfaceType="matrix", roomId=ROOM))[
            "conversationId"
        ]
        await call(
            s,
            "add_turn",
            conversationId=cid,
            query="Leek soup on Friday?",
            response="Very good.",
            userId="@maria:example.org",
            userName="Maria",
        )
        done = await call(s, "summarize_conversation", conversationId=cid)
        assert done["compactedUpTo"] == 2 and len(done["summaries"]) == 1
        assert (
            done["summaries"][0]["fromMessage"] == 1
            and "leek soup" in done["summaries"][0]["summary"]
        )
        again = await call(s, "summarize_conversation", conversationId=cid)
        assert again["summaries"] == [] and again["compactedUpTo"] == 2
        got = await read(s, f"conversations://get/{cid}")
        assert got["compacts"][0]["upToMessage"] == 2
        # the summary is searchable like the messages
        hits = (await call(s, "search_conversations", query="leek soup Friday"))["hits"]
        assert any(h["kind"] == "summary" for h in hits)
    assert len(served.chat_requests) == 1  # one summarising call, none the second time


async def test_a_failed_summary_is_an_error_and_writes_nothing(served, users):
    served.queue(FakeError(500, "model runner crashed"))
    async with session() as s:
        cid = (await call(s, "create_conversation", interfaceType="matrix", roomId=ROOM))[
            "conversationId"
        ]
        await call(s, "add_turn", conversationId=cid, query="Leek soup on Friday?")
        problem = await error(s, "summarize_conversation", conversationId=cid)
        assert "compaction failed" in problem and "model runner crashed" in problem
        assert (await read(s, f"conversations://get/{cid}"))["compacts"] == []


async def test_a_summary_the_model_cannot_write_is_made_without_it(served, users):
    served.queue("I would rather not.", "Nor would I.")  # the summary, and its one repair
    async with session() as s:
        cid = (await call(s, "create_conversation", interfaceType="matrix", roomId=ROOM))[
            "conversationId"
        ]
        await call(s, "add_turn", conversationId=cid, query="Leek soup on Friday?")
        await call(s, "summarize_conversation", conversationId=cid)
        [compact] = (await read(s, f"conversations://get/{cid}"))["compacts"]
        assert "Leek soup on Friday?" in json.dumps(
            compact
        ) and "would rather not" not in json.dumps(compact)


async def test_the_server_serves_one_user_only(served, users):
    with tatlock.open(user="bob") as bob:
        conv, _ = bob.rooms.open(ROOM, "matrix")
        bob.rooms.add_exchange(conv.id, "My safe code is tangerine.")
    async with session(user="alice") as s:
        assert (await read(s, "conversations://list"))["conversations"] == []
        assert (await read(s, "conversations://room/" + quote(ROOM, safe="")))[
            "conversations"
        ] == []
        assert (await call(s, "search_conversations", query="tangerine"))["hits"] == []
        assert "no conversation" in await error(
            s, "get_conversation_history", conversationId=conv.id
        )
        mine = (await call(s, "create_conversation", interfaceType="matrix", roomId=ROOM))[
            "conversationId"
        ]
        await call(s, "add_turn", conversationId=mine, query="Alice's own words")
    assert [
        r[0] for r in rows(user_db(users, "bob"), "SELECT content FROM conversation_messages")
    ] == ["My safe code is tangerine."]
    p = subprocess.run(
        [EXE, "mcp", "--user", "nobody"],
        capture_output=True,
        text=True,
        timeout=30,
        stdin=subprocess.DEVNULL,
    )
    assert p.returncode == 1 and p.stdout == ""
    assert (
        p.stderr.strip().count("\n") == 0
        and "nobody" in p.stderr
        and "tatlock user add" in p.stderr
    )


async def test_ask_runs_off_the_loop_and_a_cancelled_request_stops_the_model(served, users):
    served.token_delay = 0.2
    long = "Leek soup, sir, " * 40
    served.queue(direct(long))
    async with session() as s:
        cid = (await call(s, "create_conversation", interfaceType="matrix", roomId=ROOM))[
            "conversationId"
        ]
        outcome = {}

        async def asking() -> None:
            try:
                outcome["result"] = await s.call_tool(
                    "ask", {"question": "Dinner?", "conversationId": cid}
                )
            except anyio.get_cancelled_exc_class():
                outcome["cancelled"] = True
                raise

        async with anyio.create_task_group() as tg:
            tg.start_soon(asking)
            await wait_until_async(lambda: served.chat_requests, what="the model to be asked")
            await wait_until_async(lambda: served.chunks_sent >= 7, what="the answer to stream")
            t0 = time.monotonic()
            listed = await read(s, "conversations://list")  # served while the turn runs
            assert time.monotonic() - t0 < 2.0 and listed["conversations"][0]["id"] == cid
            # the client gives up on ask: the SDK sends notifications/cancelled
            tg.cancel_scope.cancel()
        assert outcome.get("cancelled") and "result" not in outcome
        assert served.wait_hangup(5.0)  # the server closed the model's stream
        served.token_delay = 0
        served.queue(direct("Quite so, sir."))
        assert (await call(s, "ask", question="Thank you", conversationId=cid))[
            "answer"
        ] == "Quite so, sir."


async def test_http_transport_on_loopback_only(served, users):
    import httpx2
    import psutil
    from mcp.client.streamable_http import streamable_http_client

    served.queue(direct("Soup, sir."))
    proc = subprocess.Popen(
        [EXE, "mcp", "--user", "alice", "--http", "0"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = proc.stderr.readline()
        assert "http://127.0.0.1:" in line, line
        url = line.split("at ", 1)[1].split()[0]
        port = int(url.rsplit(":", 1)[1].split("/")[0])
        listening = [
            c
            for c in psutil.Process(proc.pid).net_connections("inet")
            if c.status == psutil.CONN_LISTEN
        ]
        assert [c.laddr for c in listening] == [("127.0.0.1", port)]
        token = subprocess.run(
            [EXE, "mcp", "--user", "alice", "--show-token"],
            capture_output=True,
            text=True,
            timeout=30,
        ).stdout.strip()
        client = httpx2.AsyncClient(
            headers={"Authorization": f"Bearer {token}"}, timeout=httpx2.Timeout(30, read=300)
        )
        async with client, streamable_http_client(url, http_client=client) as (read_, write):  # noqa: SIM117 - the session inside the transport
            async with ClientSession(read_, write) as s:
                await s.initialize()
                cid = (await call(s, "create_conversation", interfaceType="matrix", roomId=ROOM))[
                    "conversationId"
                ]
                await call(
                    s,
                    "add_turn",
                    conversationId=cid,
                    query="Soup?",
                    userId="@maria:example.org",
                    userName="Maria",
                )
                assert (
                    await text(s, "get_conversation_history", conversationId=cid) == "Maria: Soup?"
                )
                assert (await call(s, "ask", question="And for dinner?", conversationId=cid))[
                    "answer"
                ] == "Soup, sir."
                assert "no conversation" in await error(
                    s, "add_turn", conversationId=777, query="x"
                )
    finally:
        proc.terminate()
        proc.wait(10)
    busy = subprocess.run(
        [EXE, "mcp", "--user", "alice", "--http", "-5"], capture_output=True, text=True, timeout=30
    )
    assert busy.returncode == 2 and "port" in busy.stderr and busy.stderr.count("\n") == 1


@pytest.mark.parametrize(
    "argv",
    [
        ("--help",),
        ("mcp", "--help"),
        ("ask", "--help"),
        ("memory", "stats"),
        ("memory", "export", "--all"),
    ],
)
def test_other_commands_do_not_import_the_mcp_sdk(argv, users):
    code = (
        "import sys\nfrom tatlock.cli import main\ntry:\n    main(sys.argv[1:])\nexcept "
        "SystemExit:\n    pass\n"
        "sys.stderr.write('MCP LOADED' if 'mcp' in sys.modules else 'clean')\n"
    )
    p = subprocess.run(
        [sys.executable, "-c", code, *argv, *(["--user", "alice"] if argv[0] == "memory" else [])],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert p.stderr.endswith("clean"), p.stderr[-500:]


async def test_a_room_logged_through_add_turn_is_compacted_in_the_background(
    served, users, monkeypatch
):
    monkeypatch.setenv("TATLOCK_COMPACT_INTERVAL", "4")
    monkeypatch.setenv("TATLOCK_HOUSEKEEPING", "background")
    served.queue(SUMMARY)
    async with session() as s:
        cid = (await call(s, "create_conversation", interfaceType="matrix", roomId=ROOM))[
            "conversationId"
        ]
        await call(
            s,
            "add_turn",
            conversationId=cid,
            query="Leek soup on Friday?",
            response="Very good.",
            userId="@maria:example.org",
            userName="Maria",
        )
        assert served.chat_requests == []  # not due yet: no model call
        await call(
            s,
            "add_turn",
            conversationId=cid,
            query="With bread.",
            response="Certainly.",
            userId="@maria:example.org",
            userName="Maria",
        )
        # (it starts once the room has been quiet for a few seconds)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            got = await read(s, f"conversations://get/{cid}")
            if got["compacts"]:
                break
            await anyio.sleep(0.1)
        assert [(c["fromMessage"], c["upToMessage"]) for c in got["compacts"]] == [(1, 4)]
    assert "Leek soup on Friday?" in json.dumps(served.chat_requests[0]["messages"])


async def test_ask_with_the_model_server_down_is_one_sentence(
    served, users, monkeypatch, closed_port_url
):
    monkeypatch.setenv("OLLAMA_HOST", closed_port_url)
    async with session() as s:
        cid = (await call(s, "create_conversation", interfaceType="matrix", roomId=ROOM))[
            "conversationId"
        ]
        problem = await error(s, "ask", question="Anyone there?", conversationId=cid)
        assert "\n" not in problem and "Traceback" not in problem and "reach" in problem.lower(), (
            problem
        )
        # the question is kept, and the server goes on serving
        assert (await text(s, "get_conversation_history", conversationId=cid)).startswith(
            "Anchor (Alice): Anyone there?"
        )


def test_a_conversation_id_of_5000_digits_is_a_short_error():
    """conversations://get/999...9 (5,000 digits): more than Python converts; the error names a
    clipped id, not all of it (it echoed the 5,000 digits into the reply and the log)."""
    from tatlock.errors import UsageError
    from tatlock.mcp.server import _int_id

    with pytest.raises(UsageError) as err:
        _int_id("9" * 5000)
    assert len(err.value.message) < 80 and "is not a conversation id" in err.value.message
