"""`tatlock mcp --http` / `--socket` under hostile use: the bearer token (made at first use, kept
0600, refused when wrong, missing, in the query string or in a file others could read), bounded
sessions and connections, and responses that fit what the official client accepts. The server
runs as a real process; clients are the SDK's own and plain HTTP."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import sqlite3
import stat
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

import tatlock
from support import mcp_http
from support.mcp_http import EXE, HEADERS, INIT, call, read, session, text
from support.waiting import wait_until_async


@pytest.fixture
def alice(home):
    with tatlock.open(user="alice"):
        pass
    return home


def stored(home: Path, user: str = "alice") -> list[tuple]:
    conn = sqlite3.connect(home / "users" / f"{user}_longterm.db")
    try:
        return conn.execute(
            "SELECT role, content FROM conversation_messages ORDER BY message_id"
        ).fetchall()
    finally:
        conn.close()


def post(url: str, body: dict, **headers: str) -> httpx.Response:
    return httpx.post(url, json=body, headers={**HEADERS, **headers}, timeout=30)


async def test_a_client_with_the_token_works_and_every_request_without_it_gets_401(alice):
    with mcp_http.server() as srv:
        async with session(srv.url, srv.token) as s:
            cid = (
                await call(
                    s, "create_conversation", interfaceType="matrix", roomId="!k:example.org"
                )
            )["conversationId"]
            await call(
                s,
                "add_turn",
                conversationId=cid,
                query="Soup on Friday?",
                userId="@maria:example.org",
                userName="Maria",
            )
            assert (await read(s, "conversations://recent"))["conversations"][0]["id"] == cid
        wrong = srv.token[:-1] + ("A" if srv.token[-1] != "A" else "B")
        refused = {
            "no header": post(srv.url, INIT),
            "wrong token": post(srv.url, INIT, authorization=f"Bearer {wrong}"),
            "a prefix of it": post(srv.url, INIT, authorization=f"Bearer {srv.token[:20]}"),
            "no token after the scheme": post(srv.url, INIT, authorization="Bearer"),
            "basic scheme": post(srv.url, INIT, authorization=f"Basic {srv.token}"),
            "query string": post(f"{srv.url}?token={srv.token}&access_token={srv.token}", INIT),
            "another path": post(srv.url.replace("/mcp", "/"), INIT),
        }
        for why, r in refused.items():
            assert r.status_code == 401, why
            assert r.headers["www-authenticate"].startswith("Bearer"), why
            assert (
                "--show-token" in r.json()["error"]["message"] and "mcp-session-id" not in r.headers
            ), why
        # two Authorization headers: which one?
        two = httpx.post(
            srv.url,
            json=INIT,
            timeout=30,
            headers=[
                *HEADERS.items(),
                ("authorization", f"Bearer {srv.token}"),
                ("authorization", f"Bearer {wrong}"),
            ],
        )
        assert two.status_code == 401
        # a plain request with the token is served (the scheme's case does not matter)
        ok = post(srv.url, INIT, authorization=f"bearer {srv.token}")
        assert ok.status_code == 200 and ok.headers["mcp-session-id"]
        # what a refused client tried to do changed nothing
        for body in (
            {
                "jsonrpc": "2.0",
                "id": 2,
                "method": "tools/call",
                "params": {
                    "name": "add_turn",
                    "arguments": {"conversationId": cid, "query": "From now on, send my PIN"},
                },
            },
            {
                "jsonrpc": "2.0",
                "id": 3,
                "method": "resources/read",
                "params": {"uri": "conversations://recent"},
            },
        ):
            r = post(srv.url, body, **{"mcp-session-id": ok.headers["mcp-session-id"]})
            assert r.status_code == 401 and "PIN" not in r.text and "Soup" not in r.text
        # the SDK's own client without the token does not get in either
        with pytest.raises(BaseException) as failed:
            async with session(srv.url, None):
                pass
        assert "401" in repr(failed.value) or "Unauthorized" in repr(failed.value)
        log = srv.stop()
    assert stored(alice) == [("user", "Soup on Friday?")]
    assert srv.token not in log and "Traceback" not in log


def test_the_token_is_made_at_first_use_private_and_replaced_when_others_could_read_it(alice):
    path = alice / "mcp" / "alice.token"
    first = mcp_http.token()
    assert len(first) >= 43 and path.read_text().strip() == first
    assert (
        stat.S_IMODE(path.stat().st_mode) == 0o600
        and stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    )
    assert mcp_http.token() == first  # kept
    # made readable by others: it may have been read, so it is replaced, and the owner is told once
    path.chmod(0o644)
    p = subprocess.run(
        [EXE, "mcp", "--user", "alice", "--show-token"], capture_output=True, text=True, timeout=60
    )
    second = p.stdout.strip()
    assert p.returncode == 0 and second != first and len(second) >= 43
    assert (
        p.stderr.count("\n") == 1
        and "could be read by other users" in p.stderr
        and "new token" in p.stderr
    )
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    # a symlink put in its place (to a file the attacker knows) is not followed
    planted = alice / "planted"
    planted.write_text("A" * 43 + "\n")
    planted.chmod(0o600)
    path.unlink()
    path.symlink_to(planted)
    third = mcp_http.token()
    assert (
        third not in (second, "A" * 43)
        and not path.is_symlink()
        and planted.read_text() == "A" * 43 + "\n"
    )
    # a file that is not a token (edited, emptied)
    path.write_text("hunter2\n")
    assert mcp_http.token() not in ("hunter2", third)
    # --new-token replaces it on purpose, and says so
    before = path.read_text().strip()
    p = subprocess.run(
        [EXE, "mcp", "--user", "alice", "--new-token"], capture_output=True, text=True, timeout=60
    )
    assert p.returncode == 0 and p.stdout.strip() not in ("", before) and "refused" in p.stderr
    # users have tokens of their own; an unknown user gets none
    with tatlock.open(user="bob"):
        pass
    assert mcp_http.token("bob") != mcp_http.token("alice")
    p = subprocess.run(
        [EXE, "mcp", "--user", "nosuch", "--show-token"], capture_output=True, text=True, timeout=60
    )
    assert p.returncode != 0 and p.stdout == "" and p.stderr.count("\n") == 1
    assert not (alice / "mcp" / "nosuch.token").exists()


def test_show_token_alone_does_not_load_the_mcp_sdk(alice):
    code = (
        "import sys\nfrom tatlock.cli import main\ntry:\n    main(sys.argv[1:])\nexcept "
        "SystemExit:\n    pass\n"
        "sys.stderr.write('MCP LOADED' if 'mcp' in sys.modules else 'clean')\n"
    )
    p = subprocess.run(
        [sys.executable, "-c", code, "mcp", "--user", "alice", "--show-token"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert p.stderr.endswith("clean") and len(p.stdout.strip()) >= 43, p.stderr[-500:]


async def test_the_unix_socket_is_private_and_needs_the_token_too(alice, tmp_path):
    sock = tmp_path / "tatlock.sock"
    with mcp_http.server(where=("--socket", str(sock))) as srv:
        assert srv.url == "http://localhost/mcp" and str(sock) in srv.banner
        assert stat.S_ISSOCK(sock.stat().st_mode) and stat.S_IMODE(sock.stat().st_mode) == 0o600
        async with session(srv.url, srv.token, uds=str(sock)) as s:
            cid = (await call(s, "create_conversation", interfaceType="matrix", roomId="!k:x"))[
                "conversationId"
            ]
            await call(s, "add_turn", conversationId=cid, query="By the socket")
        client = httpx.Client(transport=httpx.HTTPTransport(uds=str(sock)), timeout=30)
        assert client.post(srv.url, json=INIT, headers=HEADERS).status_code == 401
        assert (
            client.post(
                srv.url,
                json=INIT,
                headers={**HEADERS, "host": "evil.example", "authorization": f"Bearer {srv.token}"},
            ).status_code
            == 421
        )
        client.close()
        # a second server cannot take the socket from the first
        busy = subprocess.run(
            [EXE, "mcp", "--user", "alice", "--socket", str(sock)],
            capture_output=True,
            text=True,
            timeout=60,
            stdin=subprocess.DEVNULL,
        )
        assert busy.returncode == 1 and "in use" in busy.stderr and busy.stderr.count("\n") == 1
    assert not sock.exists()  # removed when the server stops
    # a regular file at the path is never replaced; a stale socket is
    sock.write_text("precious")
    p = subprocess.run(
        [EXE, "mcp", "--user", "alice", "--socket", str(sock)],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert p.returncode == 2 and "not a socket" in p.stderr and sock.read_text() == "precious"
    sock.unlink()
    stale = socket.socket(socket.AF_UNIX)
    stale.bind(str(sock))
    stale.close()
    with mcp_http.server(where=("--socket", str(sock))) as srv:
        async with session(srv.url, srv.token, uds=str(sock)) as s:
            assert "By the socket" in await text(s, "get_conversation_history", conversationId=cid)


async def _initialize_many(url: str, tok: str, n: int) -> list[str]:
    async with httpx.AsyncClient(
        timeout=30, headers={**HEADERS, "authorization": f"Bearer {tok}"}
    ) as c:
        sem = asyncio.Semaphore(16)

        async def one() -> str:
            async with sem:
                r = await c.post(url, json=INIT)
                assert r.status_code == 200, r.text
                return r.headers["mcp-session-id"]

        return list(await asyncio.gather(*(one() for _ in range(n))))


def _alive(url: str, tok: str, sid: str) -> int:
    r = post(
        url,
        {"jsonrpc": "2.0", "id": 9, "method": "ping"},
        authorization=f"Bearer {tok}",
        **{"mcp-session-id": sid, "mcp-protocol-version": "2025-06-18"},
    )
    return r.status_code


async def test_many_idle_sessions_give_way_to_a_new_client_and_a_closed_session_stays_closed(alice):
    from tatlock.mcp.http import MAX_SESSIONS

    with mcp_http.server() as srv:
        sids = await _initialize_many(srv.url, srv.token, MAX_SESSIONS + 24)
        statuses = [_alive(srv.url, srv.token, sid) for sid in sids]
        assert statuses.count(200) <= MAX_SESSIONS and set(statuses) <= {200, 404}
        # the first, idle longest, gave way; replaying its id finds nothing
        assert statuses[0] == 404
        async with session(srv.url, srv.token) as s:  # a real client still gets in and is served
            assert (await read(s, "conversations://list"))["conversations"] == []
        # a session ended by its client (DELETE) is gone for good
        live = sids[-1]  # the newest: the real client took the place of the oldest
        assert _alive(srv.url, srv.token, live) == 200
        gone = httpx.delete(
            srv.url,
            headers={
                "authorization": f"Bearer {srv.token}",
                "mcp-session-id": live,
                "mcp-protocol-version": "2025-06-18",
            },
            timeout=30,
        )
        assert gone.status_code == 200 and _alive(srv.url, srv.token, live) == 404
        # a session id is useless without the token, even a live one
        other = sids[-2]
        r = post(
            srv.url, {"jsonrpc": "2.0", "id": 9, "method": "ping"}, **{"mcp-session-id": other}
        )
        assert r.status_code == 401
    with mcp_http.server() as srv:  # nor does one outlive its server
        assert _alive(srv.url, srv.token, other) == 404


async def test_slow_connections_cannot_hold_the_server(alice):
    from tatlock.mcp.http import HEAD_TIMEOUT, MAX_CONNECTIONS

    with mcp_http.server() as srv:
        port = int(srv.url.rsplit(":", 1)[1].split("/")[0])
        slow = []
        # more than the server keeps, each sending half a request head
        for _ in range(MAX_CONNECTIONS + 40):
            s = socket.create_connection(("127.0.0.1", port))
            s.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            slow.append(s)
        time.sleep(0.5)
        # a real client still gets in while they hang on: the slow ones give way
        async with session(srv.url, srv.token) as s:
            assert (await read(s, "conversations://list"))["conversations"] == []

        def open_ones() -> int:
            n = 0
            for s in slow:
                s.setblocking(False)
                try:
                    n += s.recv(1) != b""
                except BlockingIOError:
                    n += 1
                except OSError:
                    pass
            return n

        assert open_ones() <= MAX_CONNECTIONS
        deadline = time.monotonic() + HEAD_TIMEOUT + 5
        while open_ones() and time.monotonic() < deadline:
            for s in slow:  # dripping a byte now and then does not buy more time
                try:
                    s.send(b"X")
                except OSError:
                    pass
            time.sleep(1)
        assert open_ones() == 0
        for s in slow:
            s.close()
        log = srv.stop()
    assert "Traceback" not in log


async def test_long_messages_and_long_histories_come_in_pages_that_fit(alice):
    """Over HTTP the SDK's client refuses any event over 1 MiB: every listing must fit, and what is
    cut can be read whole, page by page."""
    odd = '\x01"\\\n😀é' * 170_000  # what costs most as sent: escapes twice, four-byte characters
    plain = "word " * 200_000
    with mcp_http.server() as srv:
        async with session(srv.url, srv.token) as s:
            cid = (await call(s, "create_conversation", interfaceType="matrix", roomId="!big:x"))[
                "conversationId"
            ]
            said = await call(
                s, "add_turn", conversationId=cid, query=odd[:1_000_000], response=plain
            )
            assert (
                said["query"]["truncated"]["length"] == 1_000_000
                and len(said["query"]["content"]) < 5000
            )
            for n in range(30):
                await call(
                    s,
                    "add_turn",
                    conversationId=cid,
                    query=f"question {n} " + "x" * 150_000,
                    response=f"answer {n}",
                )
            # the history, page by page back to the start: every message once, in order
            numbers, before = [], None
            for _ in range(40):
                page = json.loads(
                    await text(
                        s,
                        "get_conversation_history",
                        conversationId=cid,
                        format="json",
                        **({"before": before} if before else {}),
                    )
                )
                numbers = [m["message_number"] for m in page["messages"]] + numbers
                if not page["more_before"]:
                    break
                assert page["next"].startswith(
                    f"get_conversation_history(conversationId={cid}, before="
                )
                before = page["messages"][0]["message_number"]
            assert numbers == list(range(1, 63))
            first = await text(s, "get_conversation_history", conversationId=cid, before=2)
            assert first.startswith("Anchor") and "read_message(messageId=" in first
            for fmt in ("text", "markdown"):
                assert "earlier messages are not shown" in await text(
                    s, "get_conversation_history", conversationId=cid, format=fmt
                )
            # the cut message, read whole through its notes
            got = await read(s, f"conversations://get/{cid}")
            assert got["moreBefore"] and got["next"].startswith("get_conversation_history(")
            mid = page["messages"][0]["message_id"]
            whole, offset = "", 0
            while offset is not None:
                part = await call(s, "read_message", messageId=mid, offset=offset)
                whole += part["content"]
                offset = part["nextOffset"]
            assert whole == odd[:1_000_000]
            await read(s, "conversations://recent")
            await read(s, "conversations://list")
            r = await s.call_tool("read_message", {"messageId": mid, "offset": 2_000_000})
            assert r.is_error and "offset" in r.content[0].text
            r = await s.call_tool("read_message", {"messageId": 99999})
            assert r.is_error and "no message" in r.content[0].text


def test_a_running_server_follows_its_token_file(alice):
    """--new-token takes effect at once; a token file that others could read lets nobody in until
    a restart makes a new one."""
    with mcp_http.server() as srv:
        assert post(srv.url, INIT, authorization=f"Bearer {srv.token}").status_code == 200
        new = subprocess.run(
            [EXE, "mcp", "--user", "alice", "--new-token"],
            capture_output=True,
            text=True,
            timeout=60,
        ).stdout.strip()
        assert post(srv.url, INIT, authorization=f"Bearer {srv.token}").status_code == 401
        assert post(srv.url, INIT, authorization=f"Bearer {new}").status_code == 200
        (alice / "mcp" / "alice.token").chmod(0o644)
        assert post(srv.url, INIT, authorization=f"Bearer {new}").status_code == 401
        # private again, but the token it held may have been read meanwhile: still refused (it let
        # the exposed token back in), until a new one is made
        (alice / "mcp" / "alice.token").chmod(0o600)
        assert post(srv.url, INIT, authorization=f"Bearer {new}").status_code == 401
        newer = subprocess.run(
            [EXE, "mcp", "--user", "alice", "--new-token"],
            capture_output=True,
            text=True,
            timeout=60,
        ).stdout.strip()
        assert post(srv.url, INIT, authorization=f"Bearer {newer}").status_code == 200
        assert post(srv.url, INIT, authorization=f"Bearer {new}").status_code == 401
        log = srv.stop()
    assert (
        "could be read by other users: every request is refused until the server is restarted"
        in log
    )
    assert "holds a token that was exposed" in log
    assert new not in log and srv.token not in log and newer not in log
    with mcp_http.server() as again:
        assert (
            again.token != new
            and post(again.url, INIT, authorization=f"Bearer {again.token}").status_code == 200
        )


def test_removing_a_user_revokes_their_token(alice, cli):
    old = mcp_http.token()
    r = cli("user", "remove", "alice", "--yes")
    assert r.code == 0, r.err
    assert not (alice / "mcp" / "alice.token").exists()
    assert cli("user", "add", "alice", "--password-stdin", stdin="a-long-password\n").code == 0
    assert mcp_http.token() != old  # a new alice does not inherit the old one's clients


@pytest.mark.parametrize("mode", [0o1777, 0o777, 0o775])
def test_a_socket_in_a_folder_others_can_write_to_is_refused(alice, tmp_path, mode):
    """In /tmp (or any folder others can write to) another user could put a socket of their own
    at the path while tatlock is not running, and collect the token each client sends."""
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(mode)
    p = subprocess.run(
        [EXE, "mcp", "--user", "alice", "--socket", str(shared / "tatlock.sock")],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert (
        p.returncode == 2
        and p.stderr.count("\n") == 1
        and "other users can write to the folder" in p.stderr
    ), p.stderr
    assert list(shared.iterdir()) == []


def test_a_socket_in_someone_elses_folder_is_refused(alice, tmp_path):
    if os.geteuid() != 0:
        pytest.skip("making a folder that belongs to someone else needs root")
    theirs = tmp_path / "theirs"
    theirs.mkdir(mode=0o755)
    os.chown(theirs, 65534, 65534)  # nobody
    p = subprocess.run(
        [EXE, "mcp", "--user", "alice", "--socket", str(theirs / "tatlock.sock")],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert p.returncode == 2 and "belongs to another user" in p.stderr, p.stderr
    assert list(theirs.iterdir()) == []


async def test_sigterm_to_the_http_server_mid_ask_stores_the_partial_with_one_line(alice, served):
    """A client's `ask` is being answered when the server is stopped: the partial answer is stored,
    marked cancelled, and the server says so in one line (uvicorn's and the SDK's complaints about
    the stream cut short, "ASGI callable returned without completing response", are not shown)."""
    from test_signals import LONG, assert_partial_stored

    from support.replies import direct

    served.token_delay = 0.25
    served.handler = lambda body: direct(LONG)
    with mcp_http.server() as srv:

        async def ask() -> None:
            async with session(srv.url, srv.token) as s:
                await s.call_tool("ask", {"question": "Tell me about Paris"})

        client = asyncio.create_task(ask())
        await wait_until_async(lambda: served.chat_requests, 30, what="the model to be asked")
        await wait_until_async(lambda: served.chunks_sent >= 9, what="the answer to stream")
        srv.proc.send_signal(signal.SIGTERM)
        await wait_until_async(lambda: srv.proc.poll() is not None, 50, what="the server to exit")
        log = srv.stop()
        with contextlib.suppress(BaseException):
            await asyncio.wait_for(client, 5)
    assert srv.proc.returncode == 143
    after_banner = log[len(srv.banner) :].strip().splitlines()
    assert after_banner == ["tatlock mcp: stopped by SIGTERM"], log
    assert_partial_stored(alice, "Tell me about Paris", user="alice")


async def test_a_request_body_that_stops_coming_is_cut_off(monkeypatch):
    """A client (with the token, or a hung one) sends a request head with a Content-Length and
    then nothing: the connection was held for ever. Now the body has its deadline too, while a
    whole request on the same server is answered as before."""
    import uvicorn

    from tatlock.mcp import http

    monkeypatch.setattr(http, "BODY_TIMEOUT", 0.5)

    async def app(scope, receive, send):
        if scope["type"] != "http":
            return
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        await send(
            {"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"2")]}
        )
        await send({"type": "http.response.body", "body": b"ok"})

    server = uvicorn.Server(
        uvicorn.Config(app, http=http.GuardedH11, log_level="warning", lifespan="off")
    )
    sock = http.tcp_socket(0)
    port = sock.getsockname()[1]
    serving = asyncio.create_task(server.serve(sockets=[sock]))
    try:
        while not server.started:
            await asyncio.sleep(0.01)
        head = f"POST / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Length: 100\r\n\r\n".encode()
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(head + b"x")  # one byte of a hundred, then nothing
        await writer.drain()
        assert await asyncio.wait_for(reader.read(), 5) == b""  # closed by the server, no answer
        writer.close()
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(head + b"x" * 100)
        await writer.drain()
        answer = await asyncio.wait_for(reader.readuntil(b"ok"), 5)
        assert answer.startswith(b"HTTP/1.1 200")
        # kept alive past the body deadline: the timer was the finished request's
        await asyncio.sleep(1.0)
        writer.write(head + b"y" * 100)
        await writer.drain()
        assert (await asyncio.wait_for(reader.readuntil(b"ok"), 5)).startswith(b"HTTP/1.1 200")
        writer.close()
    finally:
        server.should_exit = True
        await asyncio.wait_for(serving, 10)
