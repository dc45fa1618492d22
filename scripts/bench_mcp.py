#!/usr/bin/env python3
"""An idle flood against `tatlock mcp --http`: what 10,000 `initialize` requests that never come
back cost the server, without the token and with it.

For each flood: the server's resident memory before and after, how many of the flood's sessions
still hold a slot afterwards (each session id is tried once with a `ping`: 404 means it was
closed), and whether a real client (the SDK's own, with the token) still gets in and is served.

    scripts/bench mcp [--requests 10000] [--concurrency 32] [--exe PATH/TO/tatlock]

``--exe`` runs another build's server (e.g. an older checkout's .venv/bin/tatlock, which asks
for no token) for comparison; the token is then sent only when that build has one.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import psutil

INIT = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "flood", "version": "1"},
    },
}
PING = {"jsonrpc": "2.0", "id": 2, "method": "ping"}
HEADERS = {"content-type": "application/json", "accept": "application/json, text/event-stream"}


def mb(proc: psutil.Process) -> float:
    return proc.memory_info().rss / 2**20


async def flood(
    url: str, n: int, concurrency: int, token: str | None
) -> tuple[dict[int, int], list[str], float]:
    """``n`` initialize requests, ``concurrency`` at a time, each on its own connection (as many
    clients would): status counts, the session ids handed out, seconds taken."""
    headers = dict(HEADERS, **({"authorization": f"Bearer {token}"} if token else {}))
    statuses: dict[int, int] = {}
    sessions: list[str] = []
    todo = iter(range(n))
    t0 = time.perf_counter()

    async def worker() -> None:
        async with httpx.AsyncClient(
            timeout=30, limits=httpx.Limits(max_keepalive_connections=0)
        ) as client:
            for _ in todo:
                try:
                    r = await client.post(url, json=INIT, headers=headers)
                except httpx.HTTPError:
                    statuses[0] = statuses.get(0, 0) + 1
                    continue
                statuses[r.status_code] = statuses.get(r.status_code, 0) + 1
                sid = r.headers.get("mcp-session-id")
                if sid:
                    sessions.append(sid)

    await asyncio.gather(*(worker() for _ in range(concurrency)))
    return statuses, sessions, time.perf_counter() - t0


async def still_open(url: str, sessions: list[str], token: str | None, concurrency: int) -> int:
    headers = dict(
        HEADERS,
        **({"authorization": f"Bearer {token}"} if token else {}),
        **{"mcp-protocol-version": "2025-06-18"},
    )
    alive = 0
    todo = iter(sessions)

    async def worker() -> None:
        nonlocal alive
        async with httpx.AsyncClient(timeout=30) as client:
            for sid in todo:
                r = await client.post(url, json=PING, headers={**headers, "mcp-session-id": sid})
                alive += r.status_code == 200

    await asyncio.gather(*(worker() for _ in range(concurrency)))
    return alive


async def real_client(url: str, token: str | None) -> str:
    """The SDK's own client, with the token: initialize, one tool call. 'served' or what failed."""
    import httpx2
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    t0 = time.perf_counter()
    try:
        with_token = httpx2.AsyncClient(
            headers={"Authorization": f"Bearer {token}"} if token else None,
            timeout=httpx2.Timeout(30, read=300),
        )
        async with (
            with_token,
            streamable_http_client(url, http_client=with_token) as (read, write),
            ClientSession(read, write) as s,
        ):
            await s.initialize()
            r = await s.call_tool(
                "create_conversation", {"interfaceType": "bench", "roomId": "flood"}
            )
            if r.is_error:
                return f"tool error: {r.content[0].text}"
    except Exception as exc:
        while (
            isinstance(exc, BaseExceptionGroup) and exc.exceptions
        ):  # the task group's first failure
            exc = exc.exceptions[0]
        return f"failed: {type(exc).__name__}: {exc}"[:200]
    return f"served in {time.perf_counter() - t0:.2f} s"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--requests", type=int, default=10_000)
    ap.add_argument("--concurrency", type=int, default=32)
    ap.add_argument("--exe", default=str(Path(sys.executable).parent / "tatlock"))
    a = ap.parse_args()

    home = tempfile.mkdtemp(prefix="tatlock-bench-mcp-")
    env = dict(os.environ, TATLOCK_HOME=home)
    subprocess.run(
        [a.exe, "user", "add", "bench", "--password-stdin"],
        input="bench-password\n",
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    shown = subprocess.run(
        [a.exe, "mcp", "--user", "bench", "--show-token"], env=env, capture_output=True, text=True
    )
    token = shown.stdout.strip() if shown.returncode == 0 else None
    proc = subprocess.Popen(
        [a.exe, "mcp", "--user", "bench", "--http", "0"],
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = proc.stderr.readline() if proc.stderr else ""
        url = line.split(" at ", 1)[1].split()[0]
        server = psutil.Process(proc.pid)
        time.sleep(0.5)
        print(f"server {a.exe} ({'token required' if token else 'no token'}), {url}")
        print(
            f"{'flood':<34} {'requests':>8} {'statuses':<22} {'s':>6} {'MB before':>9} {'MB after':>9} "
            f"{'slots held':>10}  a real client"
        )
        for label, with_token in (
            ("initialize without the token", None),
            ("initialize with the token", token),
        ):
            if with_token is None and label.endswith("with the token"):
                continue
            before = mb(server)
            statuses, sessions, took = asyncio.run(
                flood(url, a.requests, a.concurrency, with_token)
            )
            after = mb(server)
            held = (
                asyncio.run(still_open(url, sessions, with_token or token, a.concurrency))
                if sessions
                else 0
            )
            client = asyncio.run(real_client(url, token))
            shown_statuses = ", ".join(f"{k}: {v}" for k, v in sorted(statuses.items()))
            print(
                f"{label:<34} {a.requests:>8} {shown_statuses:<22} {took:>6.1f} {before:>9.1f} {after:>9.1f} "
                f"{held:>10}  {client}"
            )
        print(json.dumps({"rss_mb_end": round(mb(server), 1)}))
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
    return 0


if __name__ == "__main__":
    sys.exit(main())
