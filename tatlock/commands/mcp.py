"""`tatlock mcp --user NAME [--http PORT | --socket PATH] [--show-token] [--new-token]`: serve
one user's conversations over MCP.

Over stdio (the default) stdout carries only the protocol: everything else (warnings, the
SDK's log) goes to stderr, and the calling program is the credential. ``--http PORT`` serves
the streamable HTTP transport at ``http://127.0.0.1:PORT/mcp`` (loopback only), ``--socket
PATH`` the same on a 0600 Unix socket; both need the user's bearer token on every request
(see tatlock/mcp/http.py). ``--show-token`` prints the token on stdout: alone, it prints and
exits, without loading the MCP SDK.
"""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

from tatlock.commands.signals import Stopped
from tatlock.errors import TatlockError, UsageError


def run(args: argparse.Namespace) -> int:
    port, sock_path = args.http, getattr(args, "socket", None)
    show, renew = getattr(args, "show_token", False), getattr(args, "new_token", False)
    if port is not None and not 0 <= port <= 65535:
        raise UsageError(
            f"--http takes a port number from 1 to 65535 (0: any free port), not {port}"
        )
    if sock_path is not None and not str(sock_path).strip():
        raise UsageError("--socket needs a path")
    serving_http = port is not None or sock_path is not None
    if serving_http or not (show or renew):
        try:
            import mcp  # noqa: F401 - the optional extra
        except ImportError:
            raise TatlockError(
                "the MCP server needs the mcp extra", hint="pip install 'tatlock[mcp]'"
            ) from None
    from tatlock.commands.common import open_butler

    if not serving_http and (show or renew):  # print the token and go: no server, no SDK
        with open_butler(args.user, model=args.model, interface="mcp") as butler:
            _token(butler, show=True, renew=renew)
        return 0

    logging.basicConfig(
        stream=sys.stderr,
        level=logging.INFO if args.verbose else logging.WARNING,
        format="tatlock mcp: %(levelname)s %(name)s: %(message)s",
    )
    from tatlock.mcp.server import build

    stopped: Stopped | None = None
    with open_butler(args.user, model=args.model, interface="mcp") as butler:
        butler.store  # noqa: B018 - open the memory now: a broken database fails here, not mid-session
        server = build(butler)
        if args.verbose:
            logging.getLogger().setLevel(logging.INFO)
        try:
            if not serving_http:
                import anyio

                anyio.run(server.run_stdio_async)
            else:
                _serve_http(server, butler, port, sock_path, show=show, renew=renew)
        except KeyboardInterrupt as exc:  # Ctrl-C, SIGTERM or SIGHUP (commands/signals.py)
            # a client's `ask` still running ends as a cancelled turn (its partial answer stored);
            # closing the butler waits for that
            butler.cancel_turns()
            stopped = exc if isinstance(exc, Stopped) else None
    if stopped is not None:
        stopped.reported = True
        sys.stderr.write(f"tatlock mcp: stopped by {stopped.name}\n")
        return stopped.code
    return 0


def _token(butler, *, show: bool, renew: bool):
    from tatlock.mcp.credentials import load

    token = load(butler.paths, butler.username, renew=renew)
    if token.notice:
        print(f"tatlock: {token.notice}", file=sys.stderr)
    elif renew:
        print(
            f"tatlock: a new MCP token for {butler.username} is in {token.path}; clients with the "
            f"old one "
            "are refused",
            file=sys.stderr,
        )
    if show or renew:
        sys.stdout.write(token.value + "\n")
        sys.stdout.flush()
    return token


def _serve_http(
    server, butler, port: int | None, sock_path: str | None, *, show: bool, renew: bool
) -> None:
    from tatlock.mcp import http

    token = _token(butler, show=show, renew=renew)
    user = butler.username
    if sock_path is not None:
        sock = http.unix_socket(Path(sock_path))
        where = f"http://localhost/mcp on the Unix socket {sock.getsockname()}"
    else:
        sock = http.tcp_socket(port or 0)
        where = f"http://127.0.0.1:{sock.getsockname()[1]}/mcp"
    sys.stderr.write(
        f"tatlock mcp: serving {user}'s conversations at {where} (every request needs the bearer "
        f"token: tatlock mcp --user {user} --show-token; Ctrl-C stops)\n"
    )
    sys.stderr.flush()
    http.serve(server, sock, token, user)
