"""`tatlock mcp --http` as a real process, and the official SDK's client for it (with or without
the bearer token), for the tests of the HTTP transport and of issue 17's reproductions."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path

EXE = str(Path(sys.executable).parent / "tatlock")
INIT = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "curl", "version": "1"},
    },
}
HEADERS = {"content-type": "application/json", "accept": "application/json, text/event-stream"}


@dataclass
class Served:
    url: str
    token: str
    proc: subprocess.Popen
    banner: str
    stderr: list[str] = field(default_factory=list)

    def stop(self) -> str:
        """Stop the server (SIGTERM); returns everything it wrote on stderr."""
        if self.proc.poll() is None:
            self.proc.terminate()
        try:
            _, err = self.proc.communicate(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            _, err = self.proc.communicate()
        return self.banner + (err or "")


def token(user: str = "alice", *args: str) -> str:
    p = subprocess.run(
        [EXE, "mcp", "--user", user, "--show-token", *args],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert p.returncode == 0, p.stderr
    return p.stdout.strip()


@contextlib.contextmanager
def server(
    user: str = "alice", *args: str, where: tuple[str, ...] = ("--http", "0")
) -> Iterator[Served]:
    """`tatlock mcp --user USER --http 0` (or ``where``), up and listening; stopped at the end."""
    tok = token(user)
    proc = subprocess.Popen(
        [EXE, "mcp", "--user", user, *where, *args],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=dict(os.environ),
    )
    assert proc.stderr is not None
    banner = proc.stderr.readline()
    assert " at " in banner, banner + proc.stderr.read()
    served = Served(banner.split(" at ", 1)[1].split()[0], tok, proc, banner)
    try:
        yield served
    finally:
        served.stop()


@contextlib.asynccontextmanager
async def session(url: str, tok: str | None, *, uds: str | None = None) -> AsyncIterator[object]:
    """The SDK's own client session, initialized, sending ``Authorization: Bearer TOK``."""
    import httpx2
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    client = httpx2.AsyncClient(
        headers={"Authorization": f"Bearer {tok}"} if tok else None,
        timeout=httpx2.Timeout(30, read=300),
        transport=httpx2.AsyncHTTPTransport(uds=uds) if uds else None,
    )
    async with client, streamable_http_client(url, http_client=client) as (read, write):  # noqa: SIM117 - the session inside the transport
        async with ClientSession(read, write) as s:
            await s.initialize()
            yield s


async def call(s, tool: str, **arguments) -> dict:
    r = await s.call_tool(tool, arguments)
    assert not r.is_error, r.content[0].text
    return json.loads(r.content[0].text)


async def text(s, tool: str, **arguments) -> str:
    r = await s.call_tool(tool, arguments)
    assert not r.is_error, r.content[0].text
    return r.content[0].text


async def read(s, uri: str) -> dict:
    r = await s.read_resource(uri)
    return json.loads(r.contents[0].text)
