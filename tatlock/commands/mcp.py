"""`tatlock mcp --user NAME [--http PORT]`: serve one user's conversations over MCP.

Over stdio (the default) stdout carries only the protocol: everything else (warnings, the
SDK's log) goes to stderr. ``--http PORT`` serves the streamable HTTP transport at
``http://127.0.0.1:PORT/mcp``, on the loopback interface only.
"""

from __future__ import annotations

import argparse
import logging
import sys

from tatlock.commands.signals import Stopped
from tatlock.errors import TatlockError, UsageError


def run(args: argparse.Namespace) -> int:
    try:
        import mcp  # noqa: F401 - the optional extra
    except ImportError:
        raise TatlockError("the MCP server needs the mcp extra", hint="pip install 'tatlock[mcp]'") from None
    port = args.http
    if port is not None and not 0 <= port <= 65535:
        raise UsageError(f"--http takes a port number from 1 to 65535 (0: any free port), not {port}")
    logging.basicConfig(stream=sys.stderr, level=logging.INFO if args.verbose else logging.WARNING,
                        format="tatlock mcp: %(levelname)s %(name)s: %(message)s")
    from tatlock.commands.common import open_butler
    from tatlock.mcp.server import build

    stopped: Stopped | None = None
    with open_butler(args.user, model=args.model, interface="mcp") as butler:
        butler.store  # noqa: B018 - open the memory now: a broken database fails here, not mid-session
        server = build(butler)
        if args.verbose:
            logging.getLogger().setLevel(logging.INFO)
        try:
            if port is None:
                import anyio

                anyio.run(server.run_stdio_async)
            else:
                _serve_http(server, port, butler.username)
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


def _serve_http(server, port: int, user: str) -> None:
    import socket

    import anyio
    import uvicorn

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(("127.0.0.1", port))  # loopback only: the memory is private
    except OSError as exc:
        sock.close()
        raise TatlockError(f"cannot listen on 127.0.0.1:{port}: {exc.strerror or exc}",
                           hint="pick another port with --http PORT") from None
    sock.listen(128)
    bound = sock.getsockname()[1]
    app = server.streamable_http_app(host="127.0.0.1")
    config = uvicorn.Config(app, log_level="warning", lifespan="on")
    sys.stderr.write(f"tatlock mcp: serving {user}'s conversations at http://127.0.0.1:{bound}/mcp (Ctrl-C stops)\n")
    sys.stderr.flush()
    anyio.run(lambda: uvicorn.Server(config).serve(sockets=[sock]))
