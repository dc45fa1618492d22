"""Serving MCP over streamable HTTP (a loopback port or a Unix socket), so that only the owner
of the memory gets in, and nobody can wear the server down.

- **A credential before anything else**: every request must carry ``Authorization: Bearer
  TOKEN`` (see :mod:`tatlock.mcp.credentials`); without it, or with a wrong one, the answer is
  401 before the SDK sees the request, so no session, stream or body buffer is made for it. The
  token is compared in constant time; one in the query string is not looked at (URLs end up in
  logs and shell history).
- **Bounded sessions**: at most ``MAX_SESSIONS`` open at once, each closed after
  ``SESSION_IDLE`` without a request; at the cap, a new client takes the place of the session
  idle longest (an idle flood of ``initialize`` requests cannot hold the slots or the memory);
  when every session is busy, the SDK answers 503.
- **Bounded connections**: at most ``MAX_CONNECTIONS`` open at once (at the cap, the one waiting
  longest for its request head gives way), and a connection that has not sent a whole request
  head within ``HEAD_TIMEOUT`` seconds, or the body after it within ``BODY_TIMEOUT``, is closed
  (a slow-loris client cannot keep sockets, file descriptors or the slots).
- The SDK's Host and Origin checks stay (DNS rebinding: 421/403).
"""

from __future__ import annotations

import json
import logging
import os
import signal
import socket
import stat
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from tatlock.errors import TatlockError, UsageError
from tatlock.mcp.credentials import Token, Watched, matches

log = logging.getLogger(__name__)

MAX_SESSIONS = 64
SESSION_IDLE = 15 * 60.0  # seconds without a request before a session is closed
MAX_CONNECTIONS = 256
HEAD_TIMEOUT = 10.0  # seconds to send a whole request head
BODY_TIMEOUT = 60.0  # seconds to send the rest of a request's body (8 MB at ~1 Mbit/s)
MAX_BODY = 8 * 1024 * 1024  # a 1,000,000-character text, escaped in JSON, fits
SHUTDOWN_GRACE = 3  # seconds open streams get to end when the server stops

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class RequireToken:
    """ASGI middleware: 401 for any HTTP request without the bearer token (as its file holds it
    now: see ``credentials.Watched``)."""

    def __init__(self, app: ASGIApp, token: Token, user: str):
        self.app = app
        self.token = Watched(token)
        self.user = user
        self.refused = 0
        self._said: str | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and not self._authorized(scope):
            self.refused += 1
            if self.refused == 1:
                log.warning(
                    "refused a request without the right token (and will refuse every such request)"
                )
            else:
                log.info("refused a request without the right token (%d so far)", self.refused)
            await _unauthorized(send, self.user)
            return
        if scope["type"] == "websocket":  # not part of this server
            await send({"type": "websocket.close", "code": 1008})
            return
        await self.app(scope, receive, send)

    def _authorized(self, scope: Scope) -> bool:
        token = self.token.current()
        if token is None:
            if self.token.problem != self._said:
                self._said = self.token.problem
                log.warning(
                    "the token file %s %s: every request is refused until the server is restarted "
                    "(which makes a new token)",
                    self.token.path,
                    self.token.problem,
                )
            return False
        values = [v for k, v in scope.get("headers", ()) if k.lower() == b"authorization"]
        if len(values) != 1:
            return False
        scheme, _, given = values[0].strip().partition(b" ")
        return scheme.lower() == b"bearer" and matches(given.strip(), token)


async def _unauthorized(send: Send, user: str) -> None:
    body = json.dumps(
        {
            "jsonrpc": "2.0",
            "id": None,
            "error": {
                "code": -32001,
                "message": f"Unauthorized: this server needs its bearer token "
                f"(tatlock mcp --user {user} --show-token prints it)",
            },
        }
    ).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 401,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"www-authenticate", b'Bearer realm="tatlock", error="invalid_token"'),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


def evict_idle_at_the_cap(manager: Any) -> bool:
    """Make ``manager`` (the SDK's session manager) admit a new session at the cap by closing
    the one idle longest, instead of refusing it while idle sessions hold every slot. Returns
    False (and leaves the SDK's 503 at the cap) when this SDK keeps its sessions differently."""
    admit = getattr(manager, "_admit_session", None)
    sessions = getattr(manager, "_server_instances", None)
    owners = getattr(manager, "_session_owners", None)
    if admit is None or not isinstance(sessions, dict) or not isinstance(owners, dict):
        return False

    def admit_evicting(requestor: Any) -> Any:
        if manager.max_sessions is not None and len(sessions) >= manager.max_sessions:
            idle = []
            for sid, transport in sessions.items():
                scope = getattr(transport, "idle_scope", None)
                if scope is not None and getattr(transport, "_requests_in_flight", 1) == 0:
                    idle.append((scope.deadline, sid, scope))
            if idle:
                _, sid, scope = min(idle)
                log.info("closing session %s, idle longest, to admit a new one", sid[:8])
                # its server task ends on the cancel and terminates the transport
                sessions.pop(sid, None)
                owners.pop(sid, None)
                scope.cancel()
        return admit(requestor)

    manager._admit_session = admit_evicting
    return True


class GuardedH11(H11Protocol):
    """uvicorn's h11 protocol with a cap on open connections and a deadline for each request
    head (uvicorn has neither: a client sending one byte a minute holds its socket forever).
    At the cap, the connection waiting longest for its request head makes room for the new one:
    a real client sends its head at once, so a flood of slow connections cannot lock it out."""

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        self._head_timer: Any = None
        self._body_timer: Any = None
        self._opened = self.loop.time()
        if len(self.connections) > MAX_CONNECTIONS:
            waiting = [
                c
                for c in self.connections
                if c is not self and isinstance(c, GuardedH11) and c._waiting_for_head()
            ]
            # every other connection is being served: this one waits its turn elsewhere
            if not waiting:
                log.info("refused a connection: %d are open and busy", len(self.connections) - 1)
                transport.close()
                return
            oldest = min(waiting, key=lambda c: c._opened)
            log.info(
                "closed the connection waiting longest for its request to make room for a new one"
            )
            oldest.transport.close()
        self._arm_head_timer()

    def _waiting_for_head(self) -> bool:
        return self.conn.their_state is h11.IDLE and not self.transport.is_closing()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.conn.their_state is h11.IDLE:  # a request head has started and is not whole yet
            self._arm_head_timer()
            return
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None
        if self.conn.their_state is h11.SEND_BODY and self._body_timer is None:
            # the head is whole, the body is not: it too has a deadline (a client that sends a
            # Content-Length and then stops held its connection for ever)
            self._body_timer = self.loop.call_later(BODY_TIMEOUT, self._body_too_slow, self.cycle)

    def connection_lost(self, exc: Exception | None) -> None:
        for name in ("_head_timer", "_body_timer"):
            timer = getattr(self, name, None)
            if timer is not None:
                timer.cancel()
                setattr(self, name, None)
        super().connection_lost(exc)

    def _body_too_slow(self, cycle: Any) -> None:
        self._body_timer = None
        if (
            cycle is self.cycle
            and self.conn.their_state is h11.SEND_BODY
            and not self.transport.is_closing()
        ):
            log.info(
                "closed a connection whose request body did not arrive whole in %.0f s",
                BODY_TIMEOUT,
            )
            self.transport.close()

    def _arm_head_timer(self) -> None:
        if self._head_timer is None:
            self._head_timer = self.loop.call_later(HEAD_TIMEOUT, self._head_too_slow)

    def _head_too_slow(self) -> None:
        self._head_timer = None
        # IDLE: no whole request head yet in this cycle (a request being served, or a response
        # streaming, has moved the state on)
        if self._waiting_for_head():
            log.info("closed a connection that sent no whole request in %.0f s", HEAD_TIMEOUT)
            self.transport.close()


def tcp_socket(port: int) -> socket.socket:
    """A listening socket on 127.0.0.1:PORT (0: any free port); loopback only."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(("127.0.0.1", port))  # loopback only: the memory is private
    except OSError as exc:
        sock.close()
        raise TatlockError(
            f"cannot listen on 127.0.0.1:{port}: {exc.strerror or exc}",
            hint="pick another port with --http PORT",
        ) from None
    sock.listen(128)
    return sock


def unix_socket(path: Path) -> socket.socket:
    """A listening Unix socket at ``path``, 0600 (only its owner can connect). A stale socket
    left by a server that died is replaced; anything else at ``path`` is left alone."""
    path = path.expanduser()
    if len(os.fsencode(path)) > 100:
        raise UsageError(f"the socket path {path} is too long (at most about 100 bytes)")
    if not path.parent.is_dir():
        raise UsageError(f"no folder {path.parent} for the socket")
    _check_socket_folder(path.parent)
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        pass
    else:
        if not stat.S_ISSOCK(st.st_mode):
            raise UsageError(f"{path} exists and is not a socket: tatlock will not replace it")
        probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            probe.connect(str(path))
        except OSError:
            try:
                path.unlink()  # nobody listens: a socket left by a server that died
            except OSError as exc:
                raise TatlockError(
                    f"cannot replace the old socket {path}: {exc.strerror or exc}",
                    hint="remove it, or pick another --socket path",
                ) from None
        else:
            raise TatlockError(
                f"{path} is in use by another server", hint="stop it, or pick another --socket path"
            )
        finally:
            probe.close()
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    old = os.umask(0o177)  # the socket is born 0600: no moment when others could connect
    try:
        sock.bind(str(path))
    except OSError as exc:
        sock.close()
        raise TatlockError(f"cannot make the socket {path}: {exc.strerror or exc}") from None
    finally:
        os.umask(old)
    os.chmod(path, 0o600)
    sock.listen(128)
    return sock


def _check_socket_folder(folder: Path) -> None:
    """Refuse a folder that someone else can write to (/tmp, a shared or group folder) or that
    is someone else's: while tatlock is not running (or by renaming its socket away) they could
    put a socket of their own at the path and collect the token every client sends."""
    try:
        st = os.stat(folder)
    except OSError as exc:
        raise UsageError(
            f"cannot use the folder {folder} for the socket: {exc.strerror or exc}"
        ) from None
    if st.st_uid not in (os.geteuid(), 0):
        raise UsageError(
            f"the folder {folder} belongs to another user, who could take the socket's place and "
            "collect your clients' token: put the socket in a folder of yours "
            "(--socket ~/tatlock.sock)"
        )
    if stat.S_IMODE(st.st_mode) & 0o022:
        raise UsageError(
            f"other users can write to the folder {folder}, so one could take the socket's place "
            f"while "
            "tatlock is not running and collect your clients' token: put it in a "
            "folder only you can "
            "write to (--socket ~/tatlock.sock)"
        )


def serve(server: Any, sock: socket.socket, token: Token, user: str) -> None:
    """Serve ``server`` (an MCPServer) on ``sock`` until Ctrl-C or SIGTERM."""
    from mcp.server.transport_security import TransportSecuritySettings

    if sock.family == socket.AF_UNIX:
        # a Unix socket's clients name no port: "localhost" (browsers cannot reach a socket at all)
        security = TransportSecuritySettings(
            allowed_hosts=["localhost", "127.0.0.1", "localhost:*", "127.0.0.1:*"],
            allowed_origins=[
                "http://localhost",
                "http://127.0.0.1",
                "http://localhost:*",
                "http://127.0.0.1:*",
            ],
        )
    else:
        security = None  # the SDK's own loopback checks
    app = server.streamable_http_app(
        host="127.0.0.1",
        session_idle_timeout=SESSION_IDLE,
        max_sessions=MAX_SESSIONS,
        max_request_body_size=MAX_BODY,
        transport_security=security,
    )
    if not evict_idle_at_the_cap(server.session_manager):
        log.warning(
            "this MCP SDK keeps its sessions differently: at %d sessions new ones are refused "
            "(503)",
            MAX_SESSIONS,
        )
    config = uvicorn.Config(
        RequireToken(app, token, user),
        log_level="warning",
        lifespan="on",
        http=GuardedH11,
        timeout_graceful_shutdown=SHUTDOWN_GRACE,
    )
    path = Path(sock.getsockname()) if sock.family == socket.AF_UNIX else None
    uv = _Server(config)
    quiet = _QuietWhenStopping(uv)
    for logger in (
        logging.getLogger(),
        logging.getLogger("uvicorn"),
        logging.getLogger("uvicorn.error"),
    ):
        for handler in logger.handlers:
            handler.addFilter(quiet)
    try:
        anyio.run(lambda: uv.serve(sockets=[sock]))
    finally:
        sock.close()
        if path is not None:
            try:
                path.unlink(missing_ok=True)
            except OSError as exc:
                print(
                    f"tatlock mcp: could not remove the socket {path}: {exc.strerror or exc}",
                    file=sys.stderr,
                )
    for sig in uv.stopped_by:  # end as the signal asked, once the socket is gone
        signal.raise_signal(sig)


class _QuietWhenStopping(logging.Filter):
    """While the server stops, a stream it cuts short (an ``ask`` being answered, whose partial
    answer is stored) is expected: what uvicorn and the SDK say about it ("ASGI callable
    returned without completing response", "shutdown error response ... gave up") is noise
    under the one line that says the server was stopped. tatlock's own lines still show."""

    def __init__(self, server: uvicorn.Server):
        super().__init__()
        self.server = server

    def filter(self, record: logging.LogRecord) -> bool:
        return not self.server.should_exit or record.name.startswith("tatlock")


class _Server(uvicorn.Server):
    """uvicorn's server, except that the signal that stopped it is raised again by ``serve``'s
    caller after cleaning up (uvicorn raises it on its way out, before a socket file is removed)."""

    def __init__(self, config: uvicorn.Config):
        super().__init__(config)
        self.stopped_by: list[int] = []

    def handle_exit(self, sig: int, frame: Any) -> None:
        super().handle_exit(sig, frame)
        self.stopped_by.append(sig)
        self._captured_signals.clear()
